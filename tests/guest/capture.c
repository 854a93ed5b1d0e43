// SPDX-License-Identifier: GPL-2.0
/*
 * capture VIDEO FRAMES OUT: stream FRAMES frames from a capture node (video
 * or metadata) with its current format (4 MMAP buffers) and write them, one
 * after the other, to OUT. Fails (exit 1, with a message) when a frame's sequence number is
 * not the previous one plus one, when its payload is not the format's
 * sizeimage, or when an ioctl fails. Prints one line per frame:
 *
 *   frame 3 sequence 3 bytes 614400
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/videodev2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#define NBUF	4

static void fail(const char *what)
{
	printf("capture: %s: %s\n", what, strerror(errno));
	exit(1);
}

int main(int argc, char **argv)
{
	enum v4l2_buf_type type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	struct v4l2_requestbuffers req = { 0 };
	struct v4l2_capability cap = { 0 };
	struct v4l2_format fmt = { 0 };
	unsigned int size;
	void *mem[NBUF];
	unsigned int i, n, frames;
	long last = -1;
	FILE *out;
	int fd;

	if (argc != 4) {
		fprintf(stderr, "usage: %s /dev/videoN FRAMES OUT\n", argv[0]);
		return 2;
	}
	frames = strtoul(argv[2], NULL, 0);
	fd = open(argv[1], O_RDWR);
	if (fd < 0)
		fail(argv[1]);
	out = fopen(argv[3], "w");
	if (!out)
		fail(argv[3]);
	if (ioctl(fd, VIDIOC_QUERYCAP, &cap) < 0)
		fail("VIDIOC_QUERYCAP");
	if (cap.device_caps & V4L2_CAP_META_CAPTURE)
		type = V4L2_BUF_TYPE_META_CAPTURE;
	fmt.type = type;
	if (ioctl(fd, VIDIOC_G_FMT, &fmt) < 0)
		fail("VIDIOC_G_FMT");
	size = type == V4L2_BUF_TYPE_META_CAPTURE ? fmt.fmt.meta.buffersize :
						    fmt.fmt.pix.sizeimage;
	req.count = NBUF;
	req.type = type;
	req.memory = V4L2_MEMORY_MMAP;
	if (ioctl(fd, VIDIOC_REQBUFS, &req) < 0 || req.count < 2)
		fail("VIDIOC_REQBUFS");
	for (i = 0; i < req.count && i < NBUF; i++) {
		struct v4l2_buffer buf = { .index = i, .type = type,
					   .memory = V4L2_MEMORY_MMAP };

		if (ioctl(fd, VIDIOC_QUERYBUF, &buf) < 0)
			fail("VIDIOC_QUERYBUF");
		mem[i] = mmap(NULL, buf.length, PROT_READ | PROT_WRITE,
			      MAP_SHARED, fd, buf.m.offset);
		if (mem[i] == MAP_FAILED)
			fail("mmap");
		if (ioctl(fd, VIDIOC_QBUF, &buf) < 0)
			fail("VIDIOC_QBUF");
	}
	if (ioctl(fd, VIDIOC_STREAMON, &type) < 0)
		fail("VIDIOC_STREAMON");
	for (n = 0; n < frames; n++) {
		struct v4l2_buffer buf = { .type = type,
					   .memory = V4L2_MEMORY_MMAP };

		if (ioctl(fd, VIDIOC_DQBUF, &buf) < 0)
			fail("VIDIOC_DQBUF");
		printf("frame %u sequence %u bytes %u\n", n, buf.sequence,
		       buf.bytesused);
		if (last >= 0 && buf.sequence != (unsigned long)last + 1) {
			printf("capture: sequence %u after %ld: a gap\n",
			       buf.sequence, last);
			return 1;
		}
		if (buf.bytesused != size) {
			printf("capture: payload %u, format size %u\n",
			       buf.bytesused, size);
			return 1;
		}
		last = buf.sequence;
		if (fwrite(mem[buf.index], 1, buf.bytesused, out) != buf.bytesused)
			fail("write");
		if (ioctl(fd, VIDIOC_QBUF, &buf) < 0)
			fail("VIDIOC_QBUF");
	}
	if (ioctl(fd, VIDIOC_STREAMOFF, &type) < 0)
		fail("VIDIOC_STREAMOFF");
	fclose(out);
	close(fd);
	return 0;
}
