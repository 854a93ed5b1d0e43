// SPDX-License-Identifier: GPL-2.0
/*
 * capture VIDEO FRAMES OUT [INPUT IN]: stream FRAMES frames from a capture
 * node (video or metadata) with its current format (4 MMAP buffers) and
 * write them, one after the other, to OUT. With INPUT, a memory input
 * (output) node, and IN, a file of one input frame, the capture is
 * memory-to-memory: every buffer queued on INPUT holds that frame, and is
 * queued again once the ISP has read it.
 *
 * Fails (exit 1, with a message) when a capture's sequence number is not
 * the previous one plus one, when its payload is not the format's
 * sizeimage, when the input file is not one frame of INPUT's format, or
 * when an ioctl fails. Prints the CLOCK_MONOTONIC time of the capture's
 * VIDIOC_STREAMON call, then one line per frame with its timestamp (the
 * same clock), in microseconds:
 *
 *   streamon us 20278110
 *   frame 3 sequence 3 bytes 614400 us 20311456
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/videodev2.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define NBUF	4

struct queue {
	int fd;
	enum v4l2_buf_type type;
	unsigned int size;	/* the format's sizeimage or buffersize */
	unsigned int count;
	void *mem[NBUF];
};

static void fail(const char *what)
{
	printf("capture: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* open a node, read its format, allocate and map its buffers */
static void setup(struct queue *q, const char *path, int flags)
{
	struct v4l2_requestbuffers req = { 0 };
	struct v4l2_capability cap = { 0 };
	struct v4l2_format fmt = { 0 };
	unsigned int i;

	q->fd = open(path, O_RDWR | flags);
	if (q->fd < 0)
		fail(path);
	if (ioctl(q->fd, VIDIOC_QUERYCAP, &cap) < 0)
		fail("VIDIOC_QUERYCAP");
	q->type = cap.device_caps & V4L2_CAP_META_CAPTURE ?
		  V4L2_BUF_TYPE_META_CAPTURE :
		  cap.device_caps & V4L2_CAP_VIDEO_OUTPUT ?
		  V4L2_BUF_TYPE_VIDEO_OUTPUT : V4L2_BUF_TYPE_VIDEO_CAPTURE;
	fmt.type = q->type;
	if (ioctl(q->fd, VIDIOC_G_FMT, &fmt) < 0)
		fail("VIDIOC_G_FMT");
	q->size = q->type == V4L2_BUF_TYPE_META_CAPTURE ?
		  fmt.fmt.meta.buffersize : fmt.fmt.pix.sizeimage;
	req.count = NBUF;
	req.type = q->type;
	req.memory = V4L2_MEMORY_MMAP;
	if (ioctl(q->fd, VIDIOC_REQBUFS, &req) < 0 || req.count < 2)
		fail("VIDIOC_REQBUFS");
	q->count = req.count < NBUF ? req.count : NBUF;
	for (i = 0; i < q->count; i++) {
		struct v4l2_buffer buf = { .index = i, .type = q->type,
					   .memory = V4L2_MEMORY_MMAP };

		if (ioctl(q->fd, VIDIOC_QUERYBUF, &buf) < 0)
			fail("VIDIOC_QUERYBUF");
		q->mem[i] = mmap(NULL, buf.length, PROT_READ | PROT_WRITE,
				 MAP_SHARED, q->fd, buf.m.offset);
		if (q->mem[i] == MAP_FAILED)
			fail("mmap");
	}
}

static void queue_buffer(struct queue *q, unsigned int index)
{
	struct v4l2_buffer buf = { .index = index, .type = q->type,
				   .memory = V4L2_MEMORY_MMAP,
				   .bytesused = q->size };

	if (ioctl(q->fd, VIDIOC_QBUF, &buf) < 0)
		fail("VIDIOC_QBUF");
}

static void stream(struct queue *q, unsigned long request)
{
	if (ioctl(q->fd, request, &q->type) < 0)
		fail(request == VIDIOC_STREAMON ? "VIDIOC_STREAMON" :
						  "VIDIOC_STREAMOFF");
}

/* the input frame, into every input buffer */
static void load_input(struct queue *q, const char *path)
{
	FILE *f = fopen(path, "rb");
	unsigned int i;

	if (!f)
		fail(path);
	if (fread(q->mem[0], 1, q->size, f) != q->size || fgetc(f) != EOF) {
		printf("capture: %s is not one %u-byte frame of the input format\n",
		       path, q->size);
		exit(1);
	}
	fclose(f);
	for (i = 1; i < q->count; i++)
		memcpy(q->mem[i], q->mem[0], q->size);
}

int main(int argc, char **argv)
{
	struct queue cap, in = { .fd = -1 };
	struct timespec t0;
	unsigned int i, n, frames;
	long last = -1;
	FILE *out;

	if (argc != 4 && argc != 6) {
		fprintf(stderr, "usage: %s /dev/videoN FRAMES OUT [/dev/videoM IN]\n",
			argv[0]);
		return 2;
	}
	frames = strtoul(argv[2], NULL, 0);
	/* a line at a time: scripts watch the log while the stream runs */
	setvbuf(stdout, NULL, _IOLBF, 0);
	setup(&cap, argv[1], 0);
	out = fopen(argv[3], "w");
	if (!out)
		fail(argv[3]);
	if (argc == 6) {
		setup(&in, argv[4], O_NONBLOCK);
		load_input(&in, argv[5]);
		for (i = 0; i < in.count; i++)
			queue_buffer(&in, i);
		stream(&in, VIDIOC_STREAMON);
	}
	for (i = 0; i < cap.count; i++)
		queue_buffer(&cap, i);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	stream(&cap, VIDIOC_STREAMON);
	printf("streamon us %llu\n", (unsigned long long)t0.tv_sec * 1000000 +
	       t0.tv_nsec / 1000);

	for (n = 0; n < frames;) {
		struct pollfd pfd[2] = {
			{ .fd = cap.fd, .events = POLLIN },
			{ .fd = in.fd, .events = POLLOUT },
		};
		struct v4l2_buffer buf = { .type = cap.type,
					   .memory = V4L2_MEMORY_MMAP };

		if (poll(pfd, in.fd < 0 ? 1 : 2, 10000) <= 0) {
			printf("capture: no frame in 10 s\n");
			return 1;
		}
		/* POLLERR: the queue failed, and DQBUF says how */
		if (pfd[1].revents & (POLLOUT | POLLERR)) {
			/* the ISP has read an input frame: queue it again */
			struct v4l2_buffer ibuf = { .type = in.type,
						    .memory = V4L2_MEMORY_MMAP };

			if (ioctl(in.fd, VIDIOC_DQBUF, &ibuf) < 0)
				fail("VIDIOC_DQBUF (input)");
			queue_buffer(&in, ibuf.index);
		}
		if (!(pfd[0].revents & (POLLIN | POLLERR)))
			continue;
		if (ioctl(cap.fd, VIDIOC_DQBUF, &buf) < 0)
			fail("VIDIOC_DQBUF");
		printf("frame %u sequence %u bytes %u us %llu\n", n,
		       buf.sequence, buf.bytesused,
		       (unsigned long long)buf.timestamp.tv_sec * 1000000 +
		       buf.timestamp.tv_usec);
		if (last >= 0 && buf.sequence != (unsigned long)last + 1) {
			printf("capture: sequence %u after %ld: a gap\n",
			       buf.sequence, last);
			return 1;
		}
		if (buf.bytesused != cap.size) {
			printf("capture: payload %u, format size %u\n",
			       buf.bytesused, cap.size);
			return 1;
		}
		last = buf.sequence;
		if (fwrite(cap.mem[buf.index], 1, buf.bytesused, out) !=
		    buf.bytesused)
			fail("write");
		queue_buffer(&cap, buf.index);
		n++;
	}
	stream(&cap, VIDIOC_STREAMOFF);
	if (in.fd >= 0)
		stream(&in, VIDIOC_STREAMOFF);
	fclose(out);
	return 0;
}
