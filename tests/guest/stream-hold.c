// SPDX-License-Identifier: GPL-2.0
/*
 * stream-hold VIDEO...: start a stream on every capture node of the list
 * that takes one (two MMAP buffers queued, STREAMON) and hold them until
 * SIGTERM; then tell how each one is, from a DQBUF: a buffer, none yet
 * (EAGAIN), or the queue's error (EIO: the driver stopped the stream).
 *
 *   stream-hold: /dev/video3 streams
 *   stream-hold: holding 1 streams
 *   stream-hold: /dev/video3: DQBUF Input/output error
 *
 * Nodes that refuse (an output or metadata node, a format mismatch) are
 * left alone. tests/guest/bind-race.sh binds the camera under such
 * streams.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/videodev2.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define MAX_NODES	64

static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

/* a capture node streaming with two MMAP buffers queued, or -1 */
static int start(const char *path)
{
	enum v4l2_buf_type type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	struct v4l2_requestbuffers req = { .count = 2, .type = type,
					   .memory = V4L2_MEMORY_MMAP };
	unsigned int i;
	int fd;

	fd = open(path, O_RDWR | O_NONBLOCK);
	if (fd < 0)
		return -1;
	if (ioctl(fd, VIDIOC_REQBUFS, &req) < 0 || req.count < 1)
		goto fail;
	for (i = 0; i < req.count; i++) {
		struct v4l2_buffer buf = { .index = i, .type = type,
					   .memory = V4L2_MEMORY_MMAP };

		if (ioctl(fd, VIDIOC_QBUF, &buf) < 0)
			goto fail;
	}
	if (ioctl(fd, VIDIOC_STREAMON, &type) == 0)
		return fd;
fail:
	close(fd);
	return -1;
}

int main(int argc, char **argv)
{
	int fd[MAX_NODES], i, n = argc - 1, held = 0;

	if (n < 1 || n > MAX_NODES) {
		fprintf(stderr, "usage: %s /dev/videoN... (at most %d)\n",
			argv[0], MAX_NODES);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGTERM, on_term);
	for (i = 0; i < n; i++) {
		fd[i] = start(argv[i + 1]);
		if (fd[i] >= 0) {
			printf("stream-hold: %s streams\n", argv[i + 1]);
			held++;
		}
	}
	printf("stream-hold: holding %d streams\n", held);
	while (!stop)
		pause();
	for (i = 0; i < n; i++) {
		struct v4l2_buffer buf = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
					   .memory = V4L2_MEMORY_MMAP };

		if (fd[i] < 0)
			continue;
		printf("stream-hold: %s: DQBUF %s\n", argv[i + 1],
		       ioctl(fd[i], VIDIOC_DQBUF, &buf) ? strerror(errno) :
							    "a buffer");
	}
	return 0;
}
