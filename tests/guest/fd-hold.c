// SPDX-License-Identifier: GPL-2.0
/*
 * fd-hold [-e] DEVICE [IOCTL]: hold a device node open while its device
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
 * Exit status 1 when DEVICE cannot be opened, 2 on a usage error: the
 * verdict on the ioctl's result is the caller's.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/media.h>
#include <linux/v4l2-subdev.h>
#include <linux/videodev2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
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

static int do_ioctl(int fd, const char *which)
{
	struct v4l2_subdev_capability scap;
	struct media_device_info info;
	struct v4l2_capability cap;

	if (!strcmp(which, "subdev-querycap")) {
		memset(&scap, 0, sizeof(scap));
		return ioctl(fd, VIDIOC_SUBDEV_QUERYCAP, &scap);
	}
	if (!strcmp(which, "device-info")) {
		memset(&info, 0, sizeof(info));
		return ioctl(fd, MEDIA_IOC_DEVICE_INFO, &info);
	}
	memset(&cap, 0, sizeof(cap));
	return ioctl(fd, VIDIOC_QUERYCAP, &cap);
}

int main(int argc, char **argv)
{
	const char *path, *which;
	int events = 0, fd, opt;
	char line[64];

	while ((opt = getopt(argc, argv, "e")) != -1) {
		if (opt != 'e')
			goto usage;
		events = 1;
	}
	if (argc - optind < 1 || argc - optind > 2)
		goto usage;
	path = argv[optind];
	which = argc - optind == 2 ? argv[optind + 1] : default_ioctl(path);
	if (strcmp(which, "subdev-querycap") && strcmp(which, "querycap") &&
	    strcmp(which, "device-info") && strcmp(which, "none"))
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
	printf("ready\n");
	fflush(stdout);

	/* a line, or end of file: either way the caller is done */
	if (!fgets(line, sizeof(line), stdin) && ferror(stdin))
		printf("# stdin: %s\n", strerror(errno));

	if (strcmp(which, "none")) {
		if (do_ioctl(fd, which) == 0)
			printf("ioctl: OK\n");
		else
			printf("ioctl: %s (errno %d)\n", strerror(errno), errno);
	}
	if (close(fd) < 0)
		printf("close: %s (errno %d)\n", strerror(errno), errno);
	printf("closed\n");
	return 0;

usage:
	fprintf(stderr, "usage: fd-hold [-e] DEVICE [subdev-querycap|querycap|device-info|none]\n");
	return 2;
}
