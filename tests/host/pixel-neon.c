// SPDX-License-Identifier: GPL-2.0
/*
 * pixel-neon.c: the NEON loops of drivers/isp/isp_pixel_neon.c give, byte
 * for byte, what their C versions in drivers/isp/isp_pixel.c give, as the
 * driver calls them, over random lines of even widths (as the driver asks)
 * from 2 to PIX_MAX_WIDTH: pix_line_chain_neon() then pix_line_chain_from()
 * against pix_line_chain(), for each set of line stages, with 10-bit and
 * with any 16-bit samples, random black levels, lens shading strengths and
 * white balance gains; pix_preview_inner_neon() then
 * pix_preview_line_from() against pix_preview_line(), both Bayer line
 * colours, YUYV and UYVY. Built for armhf and run under qemu-arm by
 * tests/host/pixel-test.sh --neon pixel-neon. KTAP on stdout.
 */
#include <stdio.h>
#include <string.h>

#include "isp_pixel.h"
#include "isp_pixel_neon.h"
#include "chain-case.h"

#define CASES	2000

static u16 lines[3][PIX_MAX_WIDTH];
static u8 want[2 * PIX_MAX_WIDTH], got[2 * PIX_MAX_WIDTH];

/*
 * Random lines, 10-bit, or with @wide one sample of more (somewhere the
 * NEON loop reads); one case: returns the column the NEON loop stopped at,
 * or 0 if the output differs
 */
static unsigned int one(unsigned int w, bool wide, unsigned int *bad_w)
{
	struct pix_preview p = {
		.contrast = PIX_CONTRAST_DEF,
		.brightness = PIX_BRIGHTNESS_DEF,
		.uyvy = next(2),
	};
	unsigned int y = next(2), i, x, from;

	/*
	 * past the width, samples of 16 bits: a loop that read them would
	 * leave the line to the C (preview_neon_ran fails)
	 */
	for (i = 0; i < 3; i++)
		for (x = 0; x < PIX_MAX_WIDTH; x++)
			lines[i][x] = x < w ? next(1024) : 0xffff;
	if (wide)
		lines[next(3)][next(w)] = 1024 + next(65536 - 1024);
	pix_preview_line(&p, lines[0], lines[1], lines[2], y, w, want);
	memset(got, 0xa5, sizeof(got));
	from = pix_preview_inner_neon(lines[0], lines[1], lines[2], w, got,
				      p.uyvy, y & 1);
	pix_preview_line_from(&p, lines[0], lines[1], lines[2], y, w, from,
			      got);
	/* and nothing written past the line */
	for (x = 2 * w; x < 2 * PIX_MAX_WIDTH; x++)
		if (got[x] != 0xa5)
			break;
	if (memcmp(want, got, 2 * w) || x < 2 * PIX_MAX_WIDTH) {
		if (!*bad_w)
			*bad_w = w;
		return 0;
	}
	return from;
}

static u16 chain_want[PIX_MAX_WIDTH], chain_got[PIX_MAX_WIDTH];
static struct pix_lsc lsc;

/*
 * The lines of one set of line stages (bit 0 CCDC, 1 lens shading, 2
 * white balance) that differ; *@ran counts those the NEON loop did most of
 */
static unsigned int chain_run(unsigned int set, bool wide, unsigned int *ran)
{
	struct pix_line_chain c = { };
	struct pix_chain_line p;
	u32 col[PIX_LSC_GRID_MAX];
	struct pix_ccdc ccdc;
	struct pix_wb wb;
	unsigned int n, x, bad = 0, from;

	for (n = 0; n < CASES; n++) {
		unsigned int w = 2 + 2 * next(PIX_MAX_WIDTH / 2);
		unsigned int h = 2 + next(1200), y = next(h);

		random_chain(&c, set, &ccdc, &lsc, &wb, w, h);
		for (x = 0; x < PIX_MAX_WIDTH; x++)
			chain_want[x] = x >= w ? 0x5a5a :
					wide ? next(0x10000) : next(1024);
		memcpy(chain_got, chain_want, sizeof(chain_want));

		pix_line_chain(&c, y, chain_want, w);
		pix_line_chain_prepare(&c, y, col, &p);
		from = pix_line_chain_neon(&p, chain_got, w);
		pix_line_chain_from(&p, chain_got, w, from);
		/* the whole array: nothing written past the line either */
		bad += !!memcmp(chain_want, chain_got, sizeof(chain_want));
		*ran += from + 8 >= w;
	}
	return bad;
}

int main(void)
{
	unsigned int set, wide, t = 0;
	unsigned int n, bad = 0, bad_w = 0, used = 0, wide_used = 0;
	unsigned int wide_bad = 0, wide_bad_w = 0, from, failed = 0;

	printf("KTAP version 1\n1..20\n");
	for (set = 0; set < 8; set++) {
		for (wide = 0; wide < 2; wide++) {
			unsigned int ran = 0, bad = chain_run(set, wide, &ran);

			printf("%sok %u %s%s%s%s.%s # %u of %u lines differ from the C\n",
			       bad ? "not " : "", ++t, set & 1 ? "ccdc_" : "",
			       set & 2 ? "lsc_" : "", set & 4 ? "wb_" : "",
			       set ? "chain" : "empty", wide ? "16bit" : "10bit",
			       bad, CASES);
			failed += !!bad;
			used += ran;
		}
	}
	/* the NEON loop did all but the last few columns of each line */
	printf("%sok %u chain_neon_ran # %u of %u lines\n",
	       used == 16 * CASES ? "" : "not ", ++t, used, 16 * CASES);
	failed += used != 16 * CASES;
	used = 0;
	for (n = 0; n < CASES; n++) {
		unsigned int w = 2 + 2 * next(PIX_MAX_WIDTH / 2);

		from = one(w, false, &bad_w);
		bad += !from;
		used += from > 2;
	}
	printf("%sok %u preview_10bit # %u of %u lines differ from the C\n",
	       bad ? "not " : "", ++t, bad, CASES);
	if (bad)
		printf("# first at width %u\n", bad_w);
	/* a test that the NEON loop ran at all: else 1 proves nothing */
	printf("%sok %u preview_neon_ran # the NEON loop did the inner pairs of %u of %u lines\n",
	       used > CASES * 9 / 10 ? "" : "not ", ++t, used, CASES);
	for (n = 0; n < CASES; n++) {
		unsigned int w = 12 + 2 * next(PIX_MAX_WIDTH / 2 - 6);

		from = one(w, true, &wide_bad_w);
		wide_bad += !from;
		wide_used += from > 2;
	}
	printf("%sok %u preview_wide_samples # %u of %u lines with a sample of more than 10 bits differ from the C (the NEON loop left %u to it)\n",
	       wide_bad ? "not " : "", ++t, wide_bad, CASES, CASES - wide_used);
	if (wide_bad)
		printf("# first at width %u\n", wide_bad_w);
	return failed || bad || wide_bad || used <= CASES * 9 / 10;
}
