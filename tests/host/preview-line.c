// SPDX-License-Identifier: GPL-2.0
/*
 * preview-line.c: pix_preview_lines() (drivers/isp/isp_pixel.c), as the
 * driver and the host model call it, gives, byte for byte, the preview
 * that struct pix_preview documents, computed here one pixel at a time:
 * bilinear demosaic of GRBG (mirrored at the frame's edges), 8-bit RGB,
 * BT.601 limited-range YUV 4:2:2 (a pair's chroma the rounded mean of its
 * two pixels'), then contrast and brightness on luma. Over random frames
 * of 2 to 7 lines of every width from 2 to 17, then of random ones up to
 * PIX_MAX_WIDTH (even ones, as the driver's frames have, and odd ones),
 * and random bands of their lines, YUYV and UYVY, with 10-bit samples
 * (the loop on words of two pixels takes those, checked or known) and
 * with one sample of more (it leaves the band to the plain loops), at the
 * default contrast and brightness and at others; nothing written outside
 * the band's pairs; and that loop
 * ran on exactly the lines it should (pix_preview_word_lines). On the
 * host (tests/host/pixel-test.sh preview-line), as the host model runs
 * it, and built for armhf and run under qemu-arm (pixel-test.sh --neon
 * preview-line), as the driver runs it. KTAP on stdout.
 */
#include <stdio.h>
#include <string.h>

#include "isp_pixel.h"
#include "chain-case.h"

#define CASES	3000
#define LINES	7

static u16 frame[LINES][PIX_MAX_WIDTH];
static u8 want[LINES][2 * PIX_MAX_WIDTH], got[LINES][2 * PIX_MAX_WIDTH];

static s32 clamp8(s32 v)
{
	return v < 0 ? 0 : v > 255 ? 255 : v;
}

/* sample (@x, @y) of a @w x @h frame, mirrored: two samples in */
static u32 at(int x, int y, unsigned int w, unsigned int h)
{
	if (x < 0)
		x = 1;
	else if (x >= (int)w)
		x = w - 2;
	if (y < 0)
		y = 1;
	else if (y >= (int)h)
		y = h - 2;
	return frame[y][x];
}

static u32 mean2(u32 a, u32 b)
{
	return (a + b + 1) / 2;
}

static u32 mean4(u32 a, u32 b, u32 c, u32 d)
{
	return (a + b + c + d + 2) / 4;
}

/* the output of line @y of a @w x @h frame, pixel by pixel */
static void reference(const struct pix_preview *p, unsigned int y,
		      unsigned int w, unsigned int h)
{
	unsigned int ly = p->uyvy ? 1 : 0, lc = p->uyvy ? 0 : 1;
	s32 luma[2], u[2], v[2];
	int x, l = y;

	for (x = 0; x < (int)w; x++) {
		u32 c = at(x, l, w, h);
		u32 across = mean2(at(x - 1, l, w, h), at(x + 1, l, w, h));
		u32 down = mean2(at(x, l - 1, w, h), at(x, l + 1, w, h));
		u32 plus = mean4(at(x - 1, l, w, h), at(x + 1, l, w, h),
				 at(x, l - 1, w, h), at(x, l + 1, w, h));
		u32 diag = mean4(at(x - 1, l - 1, w, h), at(x + 1, l - 1, w, h),
				 at(x - 1, l + 1, w, h), at(x + 1, l + 1, w, h));
		s32 r, g, b, yy;

		switch (pix_site(x, y)) {
		case PIX_GR:
			r = across, g = c, b = down;
			break;
		case PIX_R:
			r = c, g = plus, b = diag;
			break;
		case PIX_B:
			r = diag, g = plus, b = c;
			break;
		default:
			r = down, g = c, b = across;
			break;
		}
		r >>= 2;
		g >>= 2;
		b >>= 2;
		yy = clamp8(((66 * r + 129 * g + 25 * b + 128) >> 8) + 16);
		luma[x & 1] = clamp8((yy * (s32)p->contrast >> 4) +
				     (s32)p->brightness);
		u[x & 1] = ((-38 * r - 74 * g + 112 * b + 128) >> 8) + 128;
		v[x & 1] = ((112 * r - 94 * g - 18 * b + 128) >> 8) + 128;
		if (x & 1) {
			u8 *o = want[y] + 2 * (x - 1);

			o[ly] = luma[0];
			o[ly + 2] = luma[1];
			o[lc] = clamp8((u[0] + u[1] + 1) >> 1);
			o[lc + 2] = clamp8((v[0] + v[1] + 1) >> 1);
		}
	}
}

/*
 * One case: a random frame of width @w, with @wide one sample of more
 * than 10 bits, and a random band of its lines; the default contrast and
 * brightness three times in four. Returns whether pix_preview_lines()
 * gives the reference's output and writes nothing outside the band's
 * pairs; adds to *@words the lines whose inner pairs its loop on words
 * of two pixels should have done (even widths from 4, the defaults, the
 * lines inside the frame, no wide sample in the lines the band reads).
 */
static bool one(unsigned int w, bool wide, unsigned long *words)
{
	bool plain = next(4) != 0;
	struct pix_preview p = {
		.contrast = plain ? PIX_CONTRAST_DEF : next(256),
		.brightness = plain ? PIX_BRIGHTNESS_DEF : next(256),
		.uyvy = next(2),
	};
	unsigned int h = 2 + next(LINES - 1), y0 = next(h);
	unsigned int y1 = y0 + 1 + next(h - y0), y, x, wy = 0;
	bool narrow = !wide && next(2);

	/* past the width, samples of 16 bits, which no loop may read */
	for (y = 0; y < LINES; y++)
		for (x = 0; x < PIX_MAX_WIDTH; x++)
			frame[y][x] = x < w ? next(1024) : 0xffff;
	if (wide) {
		wy = next(h);
		frame[wy][next(w)] = 1024 + next(65536 - 1024);
	}
	memset(want, 0xa5, sizeof(want));
	memset(got, 0xa5, sizeof(got));
	for (y = y0; y < y1; y++)
		reference(&p, y, w, h);
	pix_preview_lines(&p, frame[0], sizeof(frame[0]), w, h, narrow, y0, y1,
			  got[0], sizeof(got[0]));
	/* the band reads lines y0 - 1 .. y1 */
	if (plain && !(w & 1) && w >= 4 && (!wide || wy + 1 < y0 || wy > y1))
		for (y = y0; y < y1; y++)
			*words += y && y + 1 < h;
	return !memcmp(want, got, sizeof(want));
}

/*
 * A width: every one of 2 .. 17 in turn for the first cases, then at
 * random up to PIX_MAX_WIDTH (even) or PIX_MAX_WIDTH - 1 (odd)
 */
static unsigned int width(unsigned int n, bool odd)
{
	if (n < 8 * 16)
		return 2 + 2 * (n % 8) + odd;
	return odd ? 1 + 2 * next(PIX_MAX_WIDTH / 2) :
		     2 + 2 * next(PIX_MAX_WIDTH / 2);
}

int main(void)
{
	unsigned int t = 0, failed = 0, wide, odd;

	printf("KTAP version 1\n1..5\n");
	for (wide = 0; wide < 2; wide++) {
		for (odd = 0; odd < 2; odd++) {
			unsigned long words = 0, before = pix_preview_word_lines;
			unsigned int n, bad = 0, first = 0;

			for (n = 0; n < CASES; n++) {
				unsigned int w = width(n, odd);

				if (!one(w, wide, &words) && !bad++)
					first = w;
			}
			/* and the loop on words ran exactly where it should */
			if (pix_preview_word_lines - before != words) {
				printf("# the loop on words did %lu lines, not %lu\n",
				       pix_preview_word_lines - before, words);
				bad++;
			}
			printf("%sok %u %s_width.%s # %u of %u bands differ from the reference (the loop on words did the inner pairs of %lu lines)\n",
			       bad ? "not " : "", ++t, odd ? "odd" : "even",
			       wide ? "16bit" : "10bit", bad, CASES, words);
			if (bad && first)
				printf("# first at width %u\n", first);
			failed += !!bad;
		}
	}
	/* a test that it ran at all: else the four above prove nothing */
	printf("%sok %u words_ran # %lu lines\n",
	       pix_preview_word_lines > CASES / 2 ? "" : "not ", ++t,
	       pix_preview_word_lines);
	return failed || pix_preview_word_lines <= CASES / 2;
}
