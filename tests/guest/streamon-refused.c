// SPDX-License-Identifier: GPL-2.0
/*
 * streamon-refused OUTPUT SECONDS: call VIDIOC_STREAMON on a memory input
 * (video output) node whose format its link refuses, again and again for
 * SECONDS, with two MMAP buffers queued. vb2 hands the queued buffers to
 * the driver before the driver's start_streaming, which fails (EPIPE) and
 * gives them back: each call opens that window once, for a capture node
 * fed by OUTPUT, whose frame thread polls for input frames, to meet (on
 * one vCPU without preemption, when the call sleeps in the window, on the
 * ISP's stream lock that another stream's start or stop holds). Prints
 * how many calls there were and how many failed with EPIPE:
 *
 *   streamon-refused: 3120 STREAMON, 3120 EPIPE
 *
 * A call that succeeds is followed by STREAMOFF. Exits 1 on any other
 * error (with a message), 2 on bad usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/videodev2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	enum v4l2_buf_type type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
	struct v4l2_requestbuffers req = { .count = 2, .type = type,
					   .memory = V4L2_MEMORY_MMAP };
	struct v4l2_format fmt = { .type = type };
	unsigned long calls = 0, epipe = 0;
	double end;
	unsigned int i;
	int fd;

	if (argc != 3 || atoi(argv[2]) <= 0) {
		fprintf(stderr, "usage: %s /dev/videoN SECONDS\n", argv[0]);
		return 2;
	}
	fd = open(argv[1], O_RDWR);
	if (fd < 0 || ioctl(fd, VIDIOC_G_FMT, &fmt) < 0 ||
	    ioctl(fd, VIDIOC_REQBUFS, &req) < 0 || req.count < 1) {
		fprintf(stderr, "streamon-refused: %s: %s\n", argv[1],
			strerror(errno));
		return 1;
	}
	/* a buffer stays queued when STREAMON fails: queued once */
	for (i = 0; i < req.count; i++) {
		struct v4l2_buffer buf = { .index = i, .type = type,
					   .memory = V4L2_MEMORY_MMAP,
					   .bytesused = fmt.fmt.pix.sizeimage };

		if (ioctl(fd, VIDIOC_QBUF, &buf) < 0) {
			fprintf(stderr, "streamon-refused: QBUF: %s\n",
				strerror(errno));
			return 1;
		}
	}
	end = now() + atoi(argv[2]);
	while (now() < end) {
		calls++;
		if (ioctl(fd, VIDIOC_STREAMON, &type) == 0) {
			ioctl(fd, VIDIOC_STREAMOFF, &type);
			break;	/* STREAMOFF dequeued the buffers */
		}
		if (errno != EPIPE) {
			fprintf(stderr, "streamon-refused: STREAMON: %s\n",
				strerror(errno));
			return 1;
		}
		epipe++;
	}
	printf("streamon-refused: %lu STREAMON, %lu EPIPE\n", calls, epipe);
	close(fd);
	return 0;
}
