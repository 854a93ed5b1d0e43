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
 *   3a-measure clip FILE GAIN_CODE BLACK
 *	a histogram buffer (struct n900_isp_hist): "clipped F", the fraction
 *	of samples, every Bayer channel, in the bins from the one holding the
 *	sensor's saturation level on: the full well, 750 DN at 1x times the
 *	analogue gain (16 + GAIN_CODE) / 16, or the ADC's 1023 - BLACK,
 *	whichever is lower (README, "The physical sensor").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static int frame(int argc, char **argv)
{
	int w = atoi(argv[3]), h = atoi(argv[4]), x, y;
	const unsigned char *f;
	double luma = 0, metered = 0, sharp = 0, inv[3][3], rgb[3] = { 0 };
	int mw = (w / N900_AEWB_WIN_H & ~1) * N900_AEWB_WIN_H;
	int mh = (h / N900_AEWB_WIN_V & ~1) * N900_AEWB_WIN_V;

	if (w < 2 || h < 2 || w % 2)
		return 2;
	f = load(argv[2], (size_t)w * h * 2);
	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++) {
			int yv = f[2 * (y * w + x) + 1], d;

			luma += yv - 16;
			if (x < mw && y < mh)
				metered += yv - 16;
			if (x + 1 < w) {
				d = f[2 * (y * w + x + 1) + 1] - yv;
				sharp += d * d;
			}
			if (y + 1 < h) {
				d = f[2 * ((y + 1) * w + x) + 1] - yv;
				sharp += d * d;
			}
		}
	printf("luma %.3f metered %.3f sharpness %.4f", luma / ((double)w * h),
	       metered / ((double)mw * mh), sharp / ((double)w * h));
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
	if (ret == 2)
		fprintf(stderr, "usage: 3a-measure frame FILE W H [X Y PW PH] | clip FILE GAIN_CODE BLACK\n");
	return ret;
}
