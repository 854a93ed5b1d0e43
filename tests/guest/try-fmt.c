// SPDX-License-Identifier: GPL-2.0
/*
 * try-fmt - VIDIOC_TRY_FMT with any pixel format, which v4l2-ctl refuses
 * to send when the node does not enumerate it.
 *
 * usage: try-fmt DEVICE FOURCC WIDTH HEIGHT
 * Prints what the driver made of it, "FOURCC WIDTHxHEIGHT", or the error.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/videodev2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct v4l2_capability cap;
	struct v4l2_format f;
	__u32 pf;
	int fd;

	if (argc != 5 || strlen(argv[2]) != 4) {
		fprintf(stderr, "usage: %s DEVICE FOURCC WIDTH HEIGHT\n", argv[0]);
		return 2;
	}
	fd = open(argv[1], O_RDWR);
	if (fd < 0 || ioctl(fd, VIDIOC_QUERYCAP, &cap)) {
		printf("error: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	memset(&f, 0, sizeof(f));
	f.type = (cap.device_caps & V4L2_CAP_VIDEO_OUTPUT) ?
		 V4L2_BUF_TYPE_VIDEO_OUTPUT : V4L2_BUF_TYPE_VIDEO_CAPTURE;
	f.fmt.pix.pixelformat = v4l2_fourcc(argv[2][0], argv[2][1], argv[2][2],
					    argv[2][3]);
	f.fmt.pix.width = strtoul(argv[3], NULL, 0);
	f.fmt.pix.height = strtoul(argv[4], NULL, 0);
	if (ioctl(fd, VIDIOC_TRY_FMT, &f)) {
		printf("error: VIDIOC_TRY_FMT: %s\n", strerror(errno));
		return 1;
	}
	pf = f.fmt.pix.pixelformat;
	printf("%c%c%c%c %ux%u\n", pf & 0xff, (pf >> 8) & 0xff,
	       (pf >> 16) & 0xff, pf >> 24, f.fmt.pix.width, f.fmt.pix.height);
	close(fd);
	return 0;
}
