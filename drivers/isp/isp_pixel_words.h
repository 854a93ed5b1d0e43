/* SPDX-License-Identifier: GPL-2.0 */
/*
 * isp_pixel_words.h - pixel arithmetic on 32-bit words of several samples
 *
 * One output pair of the preview from words that each hold two 16-bit
 * samples, and the resizer's blends of the bytes of words, for the loops
 * of isp_pixel.c (the C, which the host model runs) and of
 * isp_pixel_neon.c (the same words, loaded and stored 64 bits at a
 * time). Plain C types only: isp_pixel_neon.c cannot include the
 * kernel's headers.
 */
#ifndef ISP_PIXEL_WORDS_H
#define ISP_PIXEL_WORDS_H

/* the low half of @lo and the high half of @hi: one word of two lanes */
static inline unsigned int words_pick(unsigned int lo, unsigned int hi)
{
	hi >>= 16;
	asm("" : "+r" (hi));	/* two shifts, not an AND with a constant */
	return (lo & 0xffff) | hi << 16;
}

/*
 * preview_word() - the output pair at an even column x of a line inside
 * the frame, at the default contrast and brightness
 * @lm: columns x - 1 and x of the line (lane 0, the low half, and lane 1)
 * @lc: columns x and x + 1
 * @lp: columns x + 1 and x + 2
 * @sm: the line above plus the line below, columns x - 1 and x
 * @sc: the same, columns x and x + 1
 * @sp: the same, columns x + 1 and x + 2
 * @uyvy: UYVY, else YUYV
 * @odd: the line is B Gb, else Gr R
 *
 * What preview_line() of isp_pixel.c computes for the pair, lane 0 the
 * even column and lane 1 the odd one. Exact for samples of at most 10
 * bits, which the caller checks: then every sum stays inside its 16-bit
 * lane (four samples: 12 bits; 66 r + 129 g + 25 b: at most 56100), and U
 * and V, biased by 128 * 257 so that no lane goes negative, shift down to
 * the C's ((... + 128) >> 8) + 128 and need none of its clamps.
 *
 * Return: the four output bytes, little-endian.
 */
static __always_inline unsigned int
preview_word(unsigned int lm, unsigned int lc, unsigned int lp,
	     unsigned int sm, unsigned int sc, unsigned int sp,
	     int uyvy, int odd)
{
	unsigned int hs = lm + lp;
	/* avg2() and avg4() of the neighbours across and diagonal */
	unsigned int across = (hs + 0x00010001) >> 1;
	unsigned int down = (sc + 0x00010001) >> 1;
	unsigned int cross = (hs + sc + 0x00020002) >> 2;
	unsigned int diag = (sm + sp + 0x00020002) >> 2;
	unsigned int r, g, b, y, u, v, cu, cv;

	if (odd) {	/* B Gb */
		r = words_pick(diag, down);
		g = words_pick(cross, lc);
		b = words_pick(lc, across);
	} else {	/* Gr R */
		r = words_pick(across, lc);
		g = words_pick(lc, cross);
		b = words_pick(down, diag);
	}
	/*
	 * to 8 bits; clearing bits 8..15 drops what the shifts moved across
	 * lanes (bits 24..31 are clear)
	 */
	r = (r >> 2) & ~0xff00U;
	g = (g >> 2) & ~0xff00U;
	b = (b >> 2) & ~0xff00U;
	/* BT.601, limited range */
	y = (((66 * r + 129 * g + 25 * b + 0x00800080) >> 8) & ~0xff00U) +
	    0x00100010;
	u = ((112 * b + 0x80808080 - 38 * r - 74 * g) >> 8) & ~0xff00U;
	v = ((112 * r + 0x80808080 - 94 * g - 18 * b) >> 8) & ~0xff00U;
	/* a pair's chroma: the rounded mean of its two pixels' */
	cu = ((u + (u >> 16) + 1) >> 1) & 0xff;
	cv = ((v + (v >> 16) + 1) >> 1) & 0xff;
	if (uyvy)
		return cu | y << 8 | cv << 16;
	return y | cu << 8 | cv << 24;
}

/*
 * (a * (256 - f) + b * f) >> 8 on bytes 0 and 2 of @a and @b, in 16-bit
 * lanes, which the largest sum (255 * 256) fits. Computed as a * 256 +
 * (b - a) * f: modulo 2^32 the same word, each lane's value in 0..65280
 * (no 256 - f to keep in a register)
 */
static inline unsigned int words_blend2(unsigned int a, unsigned int b,
					unsigned int f)
{
	a &= 0x00ff00ff;
	b &= 0x00ff00ff;
	return ((a << 8) + (b - a) * f) >> 8 & 0x00ff00ff;
}

/* the same on all four bytes */
static inline unsigned int words_blend4(unsigned int a, unsigned int b,
					unsigned int f)
{
	return words_blend2(a, b, f) | words_blend2(a >> 8, b >> 8, f) << 8;
}

/* (a * (256 - f) + b * f) >> 8, likewise */
static inline unsigned int words_blend(unsigned int a, unsigned int b,
				       unsigned int f)
{
	return ((a << 8) + (b - a) * f) >> 8;
}

/*
 * resizer_word() - an output pair of a resizer line, from its vertically
 * blended input line
 * @w0: the word at byte 2 * ix0 of the line, where ix0 = @p0 >> 16: the
 *	lumas of input pixels ix0 and ix0 + 1 in its bytes 1 and 3 (UYVY)
 *	or 0 and 2
 * @w1: the same at ix1 = @p1 >> 16
 * @a: the word of input pair ic = @p0 >> 17: its U and V in bytes 0 and 2
 *	(UYVY) or 1 and 3
 * @b: the word of the pair after it (ic itself at the line's end)
 * @p0: the position of the pair's first luma, Q16 (x * hstep)
 * @p1: that of its second (p0 + hstep)
 * @uyvy: UYVY, else YUYV
 *
 * Each luma blends its two input lumas, the chroma (on its half-width
 * grid, at @p0 / 2) the U and V of the two input pairs, by the fraction
 * (Q8, rounded down) of its position.
 *
 * Return: the four output bytes, little-endian.
 */
static __always_inline unsigned int
resizer_word(unsigned int w0, unsigned int w1, unsigned int a, unsigned int b,
	     unsigned int p0, unsigned int p1, int uyvy)
{
	unsigned int ly = uyvy ? 8 : 0, lc = uyvy ? 0 : 8, pc = p0 >> 1;
	unsigned int l0, l1, uv;

	w0 >>= ly;
	w1 >>= ly;
	l0 = words_blend(w0 & 0xff, (w0 >> 16) & 0xff, (p0 >> 8) & 0xff);
	l1 = words_blend(w1 & 0xff, (w1 >> 16) & 0xff, (p1 >> 8) & 0xff);
	uv = words_blend2(a >> lc, b >> lc, (pc >> 8) & 0xff);
	if (uyvy)
		return uv | l0 << 8 | l1 << 24;
	return l0 | uv << 8 | l1 << 16;
}

#endif /* ISP_PIXEL_WORDS_H */
