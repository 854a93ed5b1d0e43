// SPDX-License-Identifier: GPL-2.0
/*
 * fd-hold [-e] [-u] DEVICE [IOCTL]: hold a device node open while its device
 * goes away (tests/guest/lifetime.sh).
 *
 * Opens DEVICE (O_RDWR) and, with -e, subscribes to a control event
 * (V4L2_EVENT_CTRL, with the initial event queued) on every control of the
 * node, found with the VIDIOC_QUERY_EXT_CTRL NEXT_CTRL loop. Then prints
 * "ready" and waits for a line (or end of file) on stdin: meanwhile the
 * caller unbinds the device. Then it issues one ioctl on the fd, which may
 * now be stale, closes it, and exits 0:
 *
 *   events 2                          (-e: the subscriptions made)
 *   ready
 *   ioctl: No such device (errno 19)  (or "ioctl: OK")
 *   closed
 *
 * IOCTL is the ioctl to issue: "subdev-querycap" (VIDIOC_SUBDEV_QUERYCAP),
 * "querycap" (VIDIOC_QUERYCAP), "device-info" (MEDIA_IOC_DEVICE_INFO) or
 * "none"; by default the one of the node's kind, from its name
 * (/dev/v4l-subdevN, /dev/videoN, /dev/mediaN). From the shell, with a
 * FIFO opened read-write first (that open does not block):
 *
 *   mkfifo /tmp/go; exec 5<>/tmp/go
 *   fd-hold DEV </tmp/go >/tmp/out & ...wait for "ready" in /tmp/out...
 *   (unbind); echo go >&5; exec 5>&-; wait
 *
 * With -u, the ioctl is held in the middle instead: it is issued before
 * "ready", from a thread, with its argument on a page that userfaultfd
 * keeps missing, so it sleeps in the kernel's copy of that argument; "ready"
 * comes once the fault is seen, and the line on stdin fills the page in and
 * lets the ioctl go on, across whatever the caller did meanwhile:
 *
 *   held device-info                  (-u: the ioctl sleeps in the kernel)
 *   ready
 *   ioctl: OK
 *   closed
 *
 * Exit status 1 when DEVICE cannot be opened (or, with -u, userfaultfd
 * cannot hold the ioctl), 2 on a usage error: the verdict on the ioctl's
 * result is the caller's.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/media.h>
#include <linux/userfaultfd.h>
#include <linux/v4l2-subdev.h>
#include <linux/videodev2.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

/* subscribe to a control event on every control of @fd */
static unsigned int subscribe_all(int fd)
{
	struct v4l2_query_ext_ctrl qc;
	unsigned int n = 0, guard;

	memset(&qc, 0, sizeof(qc));
	qc.id = V4L2_CTRL_FLAG_NEXT_CTRL | V4L2_CTRL_FLAG_NEXT_COMPOUND;
	for (guard = 0; guard < 1024; guard++) {
		struct v4l2_event_subscription sub;

		if (ioctl(fd, VIDIOC_QUERY_EXT_CTRL, &qc) < 0)
			break;
		if (qc.type != V4L2_CTRL_TYPE_CTRL_CLASS) {
			memset(&sub, 0, sizeof(sub));
			sub.type = V4L2_EVENT_CTRL;
			sub.id = qc.id;
			sub.flags = V4L2_EVENT_SUB_FL_SEND_INITIAL;
			if (ioctl(fd, VIDIOC_SUBSCRIBE_EVENT, &sub) == 0)
				n++;
			else
				printf("# subscribe to control 0x%08x (%s): %s\n",
				       qc.id, qc.name, strerror(errno));
		}
		qc.id |= V4L2_CTRL_FLAG_NEXT_CTRL | V4L2_CTRL_FLAG_NEXT_COMPOUND;
	}
	return n;
}

/* the ioctl of a node's kind, from its name */
static const char *default_ioctl(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	if (!strncmp(base, "v4l-subdev", 10))
		return "subdev-querycap";
	if (!strncmp(base, "media", 5))
		return "device-info";
	return "querycap";
}

/*
 * The ioctl @which on @fd, its argument at @arg (large enough for any of
 * them); zeroed first unless @zeroed (a page userfaultfd holds: touching it
 * here would fault in this thread, not in the kernel).
 */
static int do_ioctl(int fd, const char *which, void *arg, int zeroed)
{
	unsigned long req = VIDIOC_QUERYCAP;
	size_t size = sizeof(struct v4l2_capability);

	if (!strcmp(which, "subdev-querycap")) {
		req = VIDIOC_SUBDEV_QUERYCAP;
		size = sizeof(struct v4l2_subdev_capability);
	} else if (!strcmp(which, "device-info")) {
		req = MEDIA_IOC_DEVICE_INFO;
		size = sizeof(struct media_device_info);
	}
	if (!zeroed)
		memset(arg, 0, size);
	return ioctl(fd, req, arg);
}

/* -u: the ioctl, its argument on the held page, in a thread of its own */
struct held {
	int fd;
	const char *which;
	void *page;
	int ret;
	int err;
};

static void *held_ioctl(void *data)
{
	struct held *h = data;

	h->ret = do_ioctl(h->fd, h->which, h->page, 1);
	h->err = errno;
	return NULL;
}

/*
 * Start @h's ioctl with its argument on a page registered with a new
 * userfaultfd, and return once the kernel faults on it: the ioctl then
 * sleeps until the page is filled in (fill_page()). Returns the userfaultfd,
 * or -1 with a message printed.
 */
static int hold_ioctl(struct held *h, pthread_t *thread, long pagesize)
{
	struct uffdio_register reg;
	struct uffdio_api api;
	struct uffd_msg msg;
	struct pollfd pfd;
	int uffd;

	uffd = syscall(__NR_userfaultfd, O_CLOEXEC);
	if (uffd < 0) {
		printf("userfaultfd: %s (errno %d)\n", strerror(errno), errno);
		return -1;
	}
	memset(&api, 0, sizeof(api));
	api.api = UFFD_API;
	h->page = mmap(NULL, pagesize, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (ioctl(uffd, UFFDIO_API, &api) < 0 || h->page == MAP_FAILED) {
		printf("userfaultfd API or mmap: %s (errno %d)\n", strerror(errno), errno);
		return -1;
	}
	memset(&reg, 0, sizeof(reg));
	reg.range.start = (unsigned long)h->page;
	reg.range.len = pagesize;
	reg.mode = UFFDIO_REGISTER_MODE_MISSING;
	if (ioctl(uffd, UFFDIO_REGISTER, &reg) < 0) {
		printf("UFFDIO_REGISTER: %s (errno %d)\n", strerror(errno), errno);
		return -1;
	}
	errno = pthread_create(thread, NULL, held_ioctl, h);
	if (errno) {
		printf("pthread_create: %s\n", strerror(errno));
		return -1;
	}
	pfd.fd = uffd;
	pfd.events = POLLIN;
	if (poll(&pfd, 1, 10000) != 1 || read(uffd, &msg, sizeof(msg)) != sizeof(msg) ||
	    msg.event != UFFD_EVENT_PAGEFAULT) {
		/* the ioctl did not read its argument: it returned already */
		printf("the ioctl did not fault on its argument (returned %d, %s)\n",
		       h->ret, strerror(h->err));
		return -1;
	}
	printf("held %s\n", h->which);
	return uffd;
}

/* fill the held page in with zeros: the ioctl goes on */
static int fill_page(int uffd, void *page, long pagesize)
{
	struct uffdio_copy copy;
	void *zeros = calloc(1, pagesize);

	if (!zeros)
		return -1;
	memset(&copy, 0, sizeof(copy));
	copy.dst = (unsigned long)page;
	copy.src = (unsigned long)zeros;
	copy.len = pagesize;
	if (ioctl(uffd, UFFDIO_COPY, &copy) < 0) {
		printf("UFFDIO_COPY: %s (errno %d)\n", strerror(errno), errno);
		free(zeros);
		return -1;
	}
	free(zeros);
	return 0;
}

int main(int argc, char **argv)
{
	long pagesize = sysconf(_SC_PAGESIZE);
	int events = 0, hold = 0, fd, opt, uffd = -1, ret = 0;
	union {
		struct v4l2_subdev_capability scap;
		struct media_device_info info;
		struct v4l2_capability cap;
	} arg;
	struct held h = { 0 };
	const char *path, *which;
	pthread_t thread;
	char line[64];

	while ((opt = getopt(argc, argv, "eu")) != -1) {
		if (opt == 'e')
			events = 1;
		else if (opt == 'u')
			hold = 1;
		else
			goto usage;
	}
	if (argc - optind < 1 || argc - optind > 2)
		goto usage;
	path = argv[optind];
	which = argc - optind == 2 ? argv[optind + 1] : default_ioctl(path);
	if (strcmp(which, "subdev-querycap") && strcmp(which, "querycap") &&
	    strcmp(which, "device-info") && strcmp(which, "none"))
		goto usage;
	if (hold && !strcmp(which, "none"))
		goto usage;
	/* the caller reads our output from a file while we wait */
	setvbuf(stdout, NULL, _IOLBF, 0);

	fd = open(path, O_RDWR);
	if (fd < 0) {
		printf("open: %s: %s (errno %d)\n", path, strerror(errno), errno);
		return 1;
	}
	if (events)
		printf("events %u\n", subscribe_all(fd));
	if (hold) {
		h.fd = fd;
		h.which = which;
		uffd = hold_ioctl(&h, &thread, pagesize);
		if (uffd < 0)
			return 1;
	}
	printf("ready\n");
	fflush(stdout);

	/* a line, or end of file: either way the caller is done */
	if (!fgets(line, sizeof(line), stdin) && ferror(stdin))
		printf("# stdin: %s\n", strerror(errno));

	if (hold) {
		if (fill_page(uffd, h.page, pagesize))
			return 1;
		pthread_join(thread, NULL);
		ret = h.ret;
		errno = h.err;
	} else if (strcmp(which, "none")) {
		ret = do_ioctl(fd, which, &arg, 0);
	}
	if (strcmp(which, "none")) {
		if (ret == 0)
			printf("ioctl: OK\n");
		else
			printf("ioctl: %s (errno %d)\n", strerror(errno), errno);
	}
	if (close(fd) < 0)
		printf("close: %s (errno %d)\n", strerror(errno), errno);
	printf("closed\n");
	return 0;

usage:
	fprintf(stderr, "usage: fd-hold [-e] [-u] DEVICE [subdev-querycap|querycap|device-info|none]\n");
	return 2;
}
