/* SPDX-License-Identifier: GPL-2.0 */
/*
 * chain-case.h: the random cases of the host tests of the pixel loops
 * (line-chain.c, pixel-neon.c, preview-line.c, resizer-line.c): one
 * deterministic generator, so that every host draws the same cases, and
 * the line stages of one case.
 */
#ifndef CHAIN_CASE_H
#define CHAIN_CASE_H

#include "isp_pixel.h"

static u32 seed = 1;

/* a small deterministic generator: the same cases on every host */
static u32 next(u32 n)
{
	seed = seed * 1103515245 + 12345;
	return (seed >> 8) % n;
}

/*
 * random_chain() - the stages of one case, for a @w x @h frame: a black
 * level (none one time in four), lens shading (off one time in four, of
 * any strength), white balance gains; @set (bit 0 CCDC, 1 lens shading,
 * 2 white balance) picks which of them @c runs
 */
static inline void random_chain(struct pix_line_chain *c, unsigned int set,
				struct pix_ccdc *ccdc, struct pix_lsc *lsc,
				struct pix_wb *wb, unsigned int w,
				unsigned int h)
{
	unsigned int x;

	ccdc->black = next(4) ? next(256) : 0;
	lsc->enable = next(4) != 0;
	lsc->strength = next(4200);
	lsc->width = w;
	lsc->height = h;
	pix_lsc_prepare(lsc);
	wb->dgain = next(1024);
	for (x = 0; x < 4; x++)
		wb->gain[x] = next(256);
	c->ccdc = set & 1 ? ccdc : NULL;
	c->lsc = set & 2 ? lsc : NULL;
	c->wb = set & 4 ? wb : NULL;
}

#endif
