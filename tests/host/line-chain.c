// SPDX-License-Identifier: GPL-2.0
/*
 * line-chain.c: pix_line_chain() (drivers/isp/isp_pixel.c), the line
 * stages fused in one loop, gives the samples of pix_ccdc_line(),
 * pix_lsc_line() and pix_wb_line() run one after the other, in place, as
 * the frame program runs them when it cannot fuse them. One subtest per
 * set of stages (each of CCDC, LSC, WB there or not), with 10-bit samples
 * and with any 16-bit ones (a raw frame from memory), over widths (even
 * ones, as the driver's frames have, around the lens shading cells' edges
 * and at random; an odd one now and then, which pix_line_chain() leaves to
 * the stages' own loops), lines, black levels, lens shading strengths (on
 * and off) and white balance gains. KTAP on stdout
 * (tests/host/pixel-test.sh line-chain).
 */
#include <stdio.h>
#include <string.h>

#include "isp_pixel.h"
#include "chain-case.h"

#define CASES	3000

static u16 a[PIX_MAX_WIDTH], b[PIX_MAX_WIDTH];
static struct pix_lsc lsc;

/*
 * A width: an even one within 2 of a cell's edge, or at random, or an odd
 * one (every eighth case)
 */
static unsigned int width(unsigned int n)
{
	unsigned int w;

	if (n % 8 == 7)
		return 1 + 2 * next(PIX_MAX_WIDTH / 2);
	if (n % 2)
		w = PIX_LSC_CELL * (1 + next(PIX_MAX_WIDTH / PIX_LSC_CELL - 1)) +
		    2 * next(3) - 2;
	else
		w = 2 + 2 * next(PIX_MAX_WIDTH / 2);
	return w > PIX_MAX_WIDTH ? PIX_MAX_WIDTH : w;
}

/* the cases of one set of stages; returns how many differ */
static unsigned int run(unsigned int set, bool wide, unsigned int *first_w)
{
	struct pix_line_chain c = { };
	struct pix_ccdc ccdc;
	struct pix_wb wb;
	unsigned int n, x, bad = 0;

	for (n = 0; n < CASES; n++) {
		unsigned int w = width(n), h = 2 + next(1200);
		unsigned int y = next(h);

		random_chain(&c, set, &ccdc, &lsc, &wb, w, h);
		for (x = 0; x < w; x++)
			a[x] = wide ? next(0x10000) : next(1024);
		memcpy(b, a, w * sizeof(*a));

		if (c.ccdc)
			pix_ccdc_line(&ccdc, a, a, w);
		if (c.lsc)
			pix_lsc_line(&lsc, y, a, a);
		if (c.wb)
			pix_wb_line(&wb, y, a, a, w);
		pix_line_chain(&c, y, b, w);
		if (memcmp(a, b, w * sizeof(*a)) && !bad++)
			*first_w = w;
	}
	return bad;
}

int main(void)
{
	unsigned int set, wide, n = 0, failed = 0;

	printf("KTAP version 1\n1..16\n");
	for (set = 0; set < 8; set++) {
		for (wide = 0; wide < 2; wide++) {
			unsigned int w = 0, bad = run(set, wide, &w);
			char name[64];

			snprintf(name, sizeof(name), "%s%s%s%s.%s",
				 set & 1 ? "ccdc_" : "", set & 2 ? "lsc_" : "",
				 set & 4 ? "wb_" : "", set ? "chain" : "empty",
				 wide ? "16bit" : "10bit");
			if (bad) {
				printf("not ok %u %s # %u of %u lines differ from the stages one by one (the first %u wide)\n",
				       ++n, name, bad, CASES, w);
				failed++;
			} else {
				printf("ok %u %s\n", ++n, name);
			}
		}
	}
	return failed ? 1 : 0;
}
