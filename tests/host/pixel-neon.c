// SPDX-License-Identifier: GPL-2.0
/*
 * pixel-neon.c: the NEON loops of drivers/isp/isp_pixel_neon.c give, byte
 * for byte, what their C versions in drivers/isp/isp_pixel.c give, as the
 * driver calls them, over random lines of even widths (as the driver asks)
 * from 2 to PIX_MAX_WIDTH: pix_line_chain_neon() then pix_line_chain_from()
 * against pix_line_chain(), for each set of line stages, with 10-bit and
 * with any 16-bit samples, random black levels, lens shading strengths and
 * white balance gains; and pix_noise_line_neon() then
 * pix_noise_line_from() against pix_noise_line_from() alone, the Image
 * pattern's cached lines with noise, over random lines of any width,
 * charges, sigmas, draws and gains. Built for armhf and run under qemu-arm by
 * tests/host/pixel-test.sh --neon pixel-neon. KTAP on stdout.
 */
#include <stdio.h>
#include <string.h>

#include "isp_pixel.h"
#include "isp_pixel_neon.h"
#include "chain-case.h"

#define CASES	2000

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

static u16 noise_want[PIX_MAX_WIDTH], noise_got[PIX_MAX_WIDTH];
static u16 charge[PIX_MAX_WIDTH], sigma[PIX_MAX_WIDTH];
static s16 draw[PIX_NOISE_DRAWS + PIX_MAX_WIDTH];

/* a number from -@max to @max */
static int random_signed(unsigned int max)
{
	return (int)next(2 * max + 1) - (int)max;
}

/*
 * The lines of the Image pattern with noise, from the charge cache, that
 * differ: any width from 1 to PIX_MAX_WIDTH, charges up to the cache's
 * PIX_CHARGE_MAX, sigmas up to the full well's, draws up to the extremes
 * of the driver's (isp_pixel_sensor.h) at any offset, gains up to the
 * NEON loop's 516;
 * *@ran counts those the NEON loop did most of
 */
static unsigned int noise_run(unsigned int *ran)
{
	unsigned int n, x, i, bad = 0, from, k, a;
	struct pix_noise_line p;

	for (i = 0; i < PIX_NOISE_DRAWS + PIX_MAX_WIDTH; i++)
		draw[i] = random_signed(PIX_DRAW_SHOT_MAX) *
			  (1 << PIX_DRAW_READ_BITS) +
			  random_signed(12);
	p.charge = charge;
	p.sigma = sigma;
	for (n = 0; n < CASES; n++) {
		unsigned int w = 1 + next(PIX_MAX_WIDTH);

		for (x = 0; x < w; x++) {
			charge[x] = next(PIX_CHARGE_MAX + 1);
			sigma[x] = next(PIX_SHOT_SIGMA_MAX + 1);
		}
		for (k = 0; k < 2; k++) {
			a = next(PIX_NOISE_DRAWS);
			p.draw[k] = draw + a;
		}
		p.gmul = 16 + next(501);
		for (x = 0; x < PIX_MAX_WIDTH; x++)
			noise_want[x] = 0x5a5a;
		memcpy(noise_got, noise_want, sizeof(noise_want));

		pix_noise_line_from(&p, noise_want, w, 0);
		from = pix_noise_line_neon(&p, noise_got, w);
		pix_noise_line_from(&p, noise_got, w, from);
		bad += !!memcmp(noise_want, noise_got, sizeof(noise_want));
		*ran += from + 16 > w;
	}
	return bad;
}

int main(void)
{
	unsigned int set, wide, t = 0, used = 0, failed = 0, bad;

	printf("KTAP version 1\n1..19\n");
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
	bad = noise_run(&used);
	printf("%sok %u sensor_noise_line # %u of %u lines differ from the C\n",
	       bad ? "not " : "", ++t, bad, CASES);
	failed += !!bad;
	printf("%sok %u sensor_noise_neon_ran # %u of %u lines\n",
	       used == CASES ? "" : "not ", ++t, used, CASES);
	failed += used != CASES;
	return !!failed;
}
