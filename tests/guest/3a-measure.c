// SPDX-License-Identifier: GPL-2.0
/*
 * 3a-measure - what tests/guest/3a.sh checks n900-3a against, measured on
 * the buffers the driver wrote, not on n900-3a's own estimates:
 *
 *   3a-measure frame FILE W H [X Y PW PH]
 *	a UYVY frame (the preview output): "luma L metered M sharpness S",
 *	and with a rectangle, " patch_rg R patch_bg B". L is the mean of
 *	Y - 16 over the frame, M over the area the AEWB windows cover (what
 *	an auto-exposure meters: the whole windows from the top left,
 *	n900_isp_stats.h). S is the mean squared difference of neighbouring
 *	lumas (across and down): blur lowers it. R and B are the patch's
 *	mean R/G and B/G, from YUV back to RGB through the inverse of the
 *	preview's matrix (BT.601 limited range, drivers/isp/isp_pixel.c:
 *	Y = (66 R + 129 G + 25 B) / 256 + 16, U = (-38 R - 74 G + 112 B) /
 *	256 + 128, V = (112 R - 94 G - 18 B) / 256 + 128, one U and V per
 *	pair of pixels). The preview averages a pair's two chroma values
 *	rounding halves up, (u0 + u1 + 1) >> 1: on a noisy frame the sum is
 *	odd half of the time, which makes U and V 0.25 high on average (R/G
 *	2 % high on a patch at 8-bit level 25). The patch's U and V are
 *	taken 0.25 lower: this measures noisy frames.
 *   3a-measure sweep VIDEO LENS
 *	the lens positions whose frame is the sharpest, with the sensor's
 *	noise off: "sharpest LO HI", after a line "# sharpness by lens
 *	position: POS:S ...". VIDEO is the preview output node (UYVY, its
 *	format set), LENS the ad5820's subdevice node. One stream, one buffer
 *	in flight: the lens is set, a buffer queued, the frame it renders
 *	measured (S as above). Steps of 128, then of 32 within 64 of the
 *	best (the sharpest positions are more than 32 wide: the blur's radius
 *	is the lens's distance from focus / 32, README "The physical
 *	sensor"), then each edge of the sharpest positions to the unit by
 *	bisection: noise off, the frames there are identical.
 *   3a-measure clip FILE GAIN_CODE BLACK
 *	a histogram buffer (struct n900_isp_hist): "clipped F", the fraction
 *	of samples, every Bayer channel, in the bins from the one holding the
 *	sensor's saturation level on: the full well, 750 DN at 1x times the
 *	analogue gain (16 + GAIN_CODE) / 16, or the ADC's 1023 - BLACK,
 *	whichever is lower (README, "The physical sensor").
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
#include <unistd.h>

#include "../../drivers/include/uapi/n900_isp_stats.h"

static void *load(const char *path, size_t size)
{
	FILE *f = fopen(path, "rb");
	void *mem = malloc(size);

	if (!f || !mem || fread(mem, 1, size, f) != size) {
		fprintf(stderr, "3a-measure: cannot read %zu bytes of %s\n",
			size, path);
		exit(1);
	}
	fclose(f);
	return mem;
}

/* the inverse of the preview's RGB to YUV matrix, by Cramer's rule */
static void inverse(double inv[3][3])
{
	static const double m[3][3] = {
		{ 66 / 256.0, 129 / 256.0, 25 / 256.0 },
		{ -38 / 256.0, -74 / 256.0, 112 / 256.0 },
		{ 112 / 256.0, -94 / 256.0, -18 / 256.0 },
	};
	double det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
		     m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
		     m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
	int i, j;

	for (i = 0; i < 3; i++)
		for (j = 0; j < 3; j++) {
			int r0 = (j + 1) % 3, r1 = (j + 2) % 3;
			int c0 = (i + 1) % 3, c1 = (i + 2) % 3;

			inv[i][j] = (m[r0][c0] * m[r1][c1] -
				     m[r0][c1] * m[r1][c0]) / det;
		}
}

/* the mean squared difference of neighbouring lumas of a UYVY frame */
static double sharpness(const unsigned char *f, int w, int h)
{
	double sharp = 0;
	int x, y, d;

	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++) {
			int yv = f[2 * (y * w + x) + 1];

			if (x + 1 < w) {
				d = f[2 * (y * w + x + 1) + 1] - yv;
				sharp += d * d;
			}
			if (y + 1 < h) {
				d = f[2 * ((y + 1) * w + x) + 1] - yv;
				sharp += d * d;
			}
		}
	return sharp / ((double)w * h);
}

static int frame(int argc, char **argv)
{
	int w = atoi(argv[3]), h = atoi(argv[4]), x, y;
	const unsigned char *f;
	double luma = 0, metered = 0, inv[3][3], rgb[3] = { 0 };
	int mw = (w / N900_AEWB_WIN_H & ~1) * N900_AEWB_WIN_H;
	int mh = (h / N900_AEWB_WIN_V & ~1) * N900_AEWB_WIN_V;

	if (w < 2 || h < 2 || w % 2)
		return 2;
	f = load(argv[2], (size_t)w * h * 2);
	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++) {
			int yv = f[2 * (y * w + x) + 1];

			luma += yv - 16;
			if (x < mw && y < mh)
				metered += yv - 16;
		}
	printf("luma %.3f metered %.3f sharpness %.4f", luma / ((double)w * h),
	       metered / ((double)mw * mh), sharpness(f, w, h));
	if (argc == 9) {
		int px = atoi(argv[5]) & ~1, py = atoi(argv[6]);
		int pw = atoi(argv[7]) & ~1, ph = atoi(argv[8]);

		if (px < 0 || py < 0 || pw < 2 || ph < 1 || px + pw > w ||
		    py + ph > h)
			return 2;
		inverse(inv);
		for (y = py; y < py + ph; y++)
			for (x = px; x < px + pw; x++) {
				const unsigned char *p = f + 2 * (y * w + (x & ~1));
				double yuv[3] = { f[2 * (y * w + x) + 1] - 16.0,
						  p[0] - 128.25, p[2] - 128.25 };
				int c;

				for (c = 0; c < 3; c++)
					rgb[c] += inv[c][0] * yuv[0] +
						  inv[c][1] * yuv[1] +
						  inv[c][2] * yuv[2];
			}
		if (rgb[1] <= 0)
			return 1;
		printf(" patch_rg %.4f patch_bg %.4f", rgb[0] / rgb[1],
		       rgb[2] / rgb[1]);
	}
	putchar('\n');
	return 0;
}

struct sweep {
	int video, lens, w, h;
	void *mem;
	double at[1024];
	char seen[1024];
};

static void fail(const char *what)
{
	fprintf(stderr, "3a-measure sweep: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* the sharpness of the frame at lens position @pos (measured once) */
static double at(struct sweep *sw, int pos)
{
	struct v4l2_control c = { .id = V4L2_CID_FOCUS_ABSOLUTE, .value = pos };
	struct v4l2_buffer buf = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
				   .memory = V4L2_MEMORY_MMAP };
	struct pollfd pfd = { .fd = sw->video, .events = POLLIN };

	if (sw->seen[pos])
		return sw->at[pos];
	if (ioctl(sw->lens, VIDIOC_S_CTRL, &c) < 0)
		fail("VIDIOC_S_CTRL focus_absolute");
	if (ioctl(sw->video, VIDIOC_QBUF, &buf) < 0)
		fail("VIDIOC_QBUF");
	if (poll(&pfd, 1, 10000) <= 0)
		fail("no frame in 10 s");
	if (ioctl(sw->video, VIDIOC_DQBUF, &buf) < 0)
		fail("VIDIOC_DQBUF");
	sw->seen[pos] = 1;
	sw->at[pos] = sharpness(sw->mem, sw->w, sw->h);
	return sw->at[pos];
}

static int sweep(char **argv)
{
	static const int coarse[] = { 0, 128, 256, 384, 512, 640, 768, 896, 1023 };
	struct v4l2_format fmt = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	struct v4l2_requestbuffers req = { .count = 1,
					   .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
					   .memory = V4L2_MEMORY_MMAP };
	struct v4l2_buffer buf = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
				   .memory = V4L2_MEMORY_MMAP };
	static struct sweep sw;
	int i, best, in, out, m, p, lo;
	double top;

	sw.video = open(argv[2], O_RDWR);
	sw.lens = open(argv[3], O_RDWR);
	if (sw.video < 0 || sw.lens < 0)
		fail("open");
	if (ioctl(sw.video, VIDIOC_G_FMT, &fmt) < 0)
		fail("VIDIOC_G_FMT");
	if (fmt.fmt.pix.pixelformat != V4L2_PIX_FMT_UYVY) {
		fprintf(stderr, "3a-measure sweep: %s is not set to UYVY\n", argv[2]);
		return 1;
	}
	sw.w = fmt.fmt.pix.width;
	sw.h = fmt.fmt.pix.height;
	if (ioctl(sw.video, VIDIOC_REQBUFS, &req) < 0 || req.count < 1)
		fail("VIDIOC_REQBUFS");
	if (ioctl(sw.video, VIDIOC_QUERYBUF, &buf) < 0)
		fail("VIDIOC_QUERYBUF");
	sw.mem = mmap(NULL, buf.length, PROT_READ | PROT_WRITE, MAP_SHARED,
		      sw.video, buf.m.offset);
	if (sw.mem == MAP_FAILED)
		fail("mmap");
	if (ioctl(sw.video, VIDIOC_STREAMON, &buf.type) < 0)
		fail("VIDIOC_STREAMON");

	best = 0;
	for (i = 0; i < 9; i++)
		if (at(&sw, coarse[i]) > at(&sw, best))
			best = coarse[i];
	for (p = best - 64; p <= best + 64; p += 32)
		if (p >= 0 && p <= 1023 && at(&sw, p) > at(&sw, best))
			best = p;
	top = at(&sw, best);
	/* each edge: out (not the sharpest) .. in (the sharpest) */
	for (out = best - 64, in = best; in - out > 1;) {
		m = (in + out) / 2;
		if (m >= 0 && at(&sw, m) == top)
			in = m;
		else
			out = m;
	}
	lo = in;
	for (out = best + 64, in = best; out - in > 1;) {
		m = (in + out) / 2;
		if (m <= 1023 && at(&sw, m) == top)
			in = m;
		else
			out = m;
	}
	printf("# sharpness by lens position:");
	for (p = 0; p < 1024; p++)
		if (sw.seen[p])
			printf(" %d:%.4f", p, sw.at[p]);
	printf("\nsharpest %d %d\n", lo, in);
	ioctl(sw.video, VIDIOC_STREAMOFF, &buf.type);
	return 0;
}

static int clip(char **argv)
{
	const struct n900_isp_hist *hs = load(argv[2], sizeof(*hs));
	double sat = 750.0 * (16 + atoi(argv[3])) / 16, adc = 1023 - atoi(argv[4]);
	double n = 0, total = 0;
	int c, b, from;

	if (adc < sat)
		sat = adc;
	from = ((int)sat - 1) / 16;
	for (c = 0; c < 4; c++)
		for (b = 0; b < N900_HIST_BINS; b++) {
			total += hs->bins[c][b];
			if (b >= from)
				n += hs->bins[c][b];
		}
	if (!total)
		return 1;
	printf("clipped %.5f\n", n / total);
	return 0;
}

int main(int argc, char **argv)
{
	int ret = 2;

	if (argc >= 5 && !strcmp(argv[1], "frame") && (argc == 5 || argc == 9))
		ret = frame(argc, argv);
	else if (argc == 5 && !strcmp(argv[1], "clip"))
		ret = clip(argv);
	else if (argc == 4 && !strcmp(argv[1], "sweep"))
		ret = sweep(argv);
	if (ret == 2)
		fprintf(stderr, "usage: 3a-measure frame FILE W H [X Y PW PH] | sweep VIDEO LENS | clip FILE GAIN_CODE BLACK\n");
	return ret;
}
