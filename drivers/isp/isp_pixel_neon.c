// SPDX-License-Identifier: GPL-2.0
/*
 * isp_pixel_neon.c - NEON versions of the hottest pixel loops
 *
 * Each gives, sample for sample, what its C version in isp_pixel.c gives:
 * the C is the reference (the host model runs it; frames.sh compares the
 * guest's frames with the model's; tests/host/pixel-neon.c compares the two
 * under qemu-arm, and n900_isp.neon=0 runs the C in the guest). Under
 * QEMU's TCG most NEON instructions become host SIMD, eight 16-bit lanes
 * at a time, where the C costs an emulated instruction per operation.
 *
 * Built with the kernel's FPU flags (CC_FLAGS_FPU), so it includes no
 * kernel header; the caller runs it between kernel_neon_begin() and
 * kernel_neon_end().
 */

#include "isp_pixel_neon.h"

/*
 * sparse cannot parse GCC's <arm_neon.h> (its builtins): it checks this
 * file's interface, isp_pixel_neon.h, where the rest of the driver uses it
 */
#ifndef __CHECKER__

#include <arm_neon.h>

/*
 * A constant in every lane, made where it is used (VMOV.I16 Qd, #k): the
 * compiler can neither multiply by a scalar lane instead (VMUL.I16 Qd,
 * Qn, Dm[x], which TCG runs lane by lane, not as one host vector
 * multiply) nor keep it in a register across the loop, which spills
 * others to the stack (under TCG, a load costs several instructions).
 */
static inline uint16x8_t lanes(uint16_t k)
{
	uint16x8_t v = vdupq_n_u16(k);

	asm volatile("" : "+w" (v));
	return v;
}

/*
 * Eight samples of a line through the line stages, as chain_pairs() of
 * isp_pixel.c: the black level (a saturating subtraction is its "v >
 * black ? v - black : 0"), then with @lsc the gains @sum_lo and @sum_hi
 * (Q5 sums: the gains of the eight columns, shifted left by 5), then
 * with @wb the factors @f (even, odd, even, odd columns). The products
 * are the C's, modulo 2^32 as its u32 ones, in 32-bit lanes.
 */
static inline __attribute__((always_inline))
void chain_eight(uint16_t *line, uint16x8_t black, uint32x4_t sum_lo,
		 uint32x4_t sum_hi, uint32x4_t f, int lsc, int wb)
{
	const uint32x4_t max = vdupq_n_u32(1023);
	uint16x8_t v = vqsubq_u16(vld1q_u16(line), black);
	uint32x4_t lo, hi;

	if (!lsc && !wb) {
		vst1q_u16(line, v);
		return;
	}
	lo = vmovl_u16(vget_low_u16(v));
	hi = vmovl_u16(vget_high_u16(v));
	if (lsc) {
		lo = vminq_u32(vshrq_n_u32(vmulq_u32(lo,
						     vshrq_n_u32(sum_lo, 5)),
					   8), max);
		hi = vminq_u32(vshrq_n_u32(vmulq_u32(hi,
						     vshrq_n_u32(sum_hi, 5)),
					   8), max);
	}
	if (wb) {
		lo = vminq_u32(vshrq_n_u32(vmulq_u32(lo, f), 13), max);
		hi = vminq_u32(vshrq_n_u32(vmulq_u32(hi, f), 13), max);
	}
	vst1q_u16(line, vcombine_u16(vmovn_u32(lo), vmovn_u32(hi)));
}

static inline __attribute__((always_inline))
unsigned int chain_line(const struct pix_chain_line *p, uint16_t *line,
			unsigned int width, int lsc, int wb)
{
	const uint16x8_t black = vdupq_n_u16(p->black);
	uint32x4_t f = vcombine_u32(vcreate_u32(p->f0 | (uint64_t)p->f1 << 32),
				    vcreate_u32(p->f0 | (uint64_t)p->f1 << 32));
	uint32x4_t zero = vdupq_n_u32(0);
	unsigned int x = 0, end, gx;

	if (!lsc) {
		for (; x + 8 <= width; x += 8)
			chain_eight(line + x, black, zero, zero, f, 0, wb);
		return x;
	}
	/* a cell (32 columns) a time: its gains advance by d a column */
	for (gx = 0; x < width; gx++) {
		uint32_t c0 = p->col[gx], d = p->col[gx + 1] - c0;
		uint32_t s0 = c0 << 5;
		uint32x4_t step = vdupq_n_u32(8 * d);
		uint32x4_t lo = vcombine_u32(vcreate_u32(s0 | (uint64_t)(s0 + d) << 32),
					     vcreate_u32((s0 + 2 * d) |
							 (uint64_t)(s0 + 3 * d) << 32));
		uint32x4_t hi = vaddq_u32(lo, vdupq_n_u32(4 * d));

		end = x + 32 < width ? x + 32 : width;
		for (; x + 8 <= end; x += 8) {
			chain_eight(line + x, black, lo, hi, f, 1, wb);
			lo = vaddq_u32(lo, step);
			hi = vaddq_u32(hi, step);
		}
		if (x < end)	/* the last cell's last columns: the C's */
			break;
	}
	return x;
}

/**
 * pix_line_chain_neon() - the line stages on one line, with NEON
 * @p: the line's parameters, pix_line_chain_prepare()
 * @line: @width samples, in place
 * @width: the line's width, even
 *
 * Does columns 0 .. x - 1 of the line, eight at a time, as
 * pix_line_chain_from() does them; pix_line_chain_from() does the rest
 * from column x.
 *
 * Return: x; 0 for a black level of more than 16 bits, which the NEON
 * loop's 16-bit lanes cannot hold.
 */
unsigned int pix_line_chain_neon(const struct pix_chain_line *p,
				 unsigned short *line, unsigned int width)
{
	if (p->black > 0xffff)
		return 0;
	if (p->col && p->wb)
		return chain_line(p, line, width, 1, 1);
	if (p->col)
		return chain_line(p, line, width, 1, 0);
	if (p->wb)
		return chain_line(p, line, width, 0, 1);
	return chain_line(p, line, width, 0, 0);
}

/*
 * Four output pairs of a preview line, columns x .. x + 7, as
 * preview_window() and preview_pair() of isp_pixel.c compute them: the
 * same sums, rounded the same way, in 16-bit lanes. Exact for samples of
 * at most 10 bits (the caller checks): then no sum leaves 16 bits and the
 * RGB, Y, U and V fit the C's clamps, which change nothing.
 */
static inline __attribute__((always_inline))
void preview_eight(const uint16_t *above, const uint16_t *line,
		   const uint16_t *below, uint8_t *out, uint8x8_t order_lo,
		   uint8x8_t order_hi, uint16x8_t *seen, int odd)
{
	/* lanes 0, 2, 4, 6: the pairs' first columns */
	const uint16x8_t first = vreinterpretq_u16_u32(vdupq_n_u32(0xffff));
	uint16x8_t l0 = vld1q_u16(line), lm = vld1q_u16(line - 1);
	uint16x8_t lp = vld1q_u16(line + 1), a0 = vld1q_u16(above);
	uint16x8_t am = vld1q_u16(above - 1), ap = vld1q_u16(above + 1);
	uint16x8_t b0 = vld1q_u16(below), bm = vld1q_u16(below - 1);
	uint16x8_t bp = vld1q_u16(below + 1);
	/* avg2() and avg4() of the four neighbours across, and diagonal */
	uint16x8_t hs = vaddq_u16(lm, lp), vs = vaddq_u16(a0, b0);
	uint16x8_t across = vrshrq_n_u16(hs, 1), down = vrshrq_n_u16(vs, 1);
	uint16x8_t cross = vrshrq_n_u16(vaddq_u16(hs, vs), 2);
	uint16x8_t diag = vrshrq_n_u16(vaddq_u16(vaddq_u16(am, ap),
						 vaddq_u16(bm, bp)), 2);
	uint16x8_t r, g, b, y, u, v;
	int16x8_t su, sv, c;
	uint8x8x2_t t;

	/* every sample read, columns x - 1 .. x + 8 of the three lines */
	*seen = vorrq_u16(*seen, vorrq_u16(vorrq_u16(lm, lp),
					   vorrq_u16(vorrq_u16(am, ap),
						     vorrq_u16(bm, bp))));
	if (odd) {	/* B Gb */
		r = vbslq_u16(first, diag, down);
		g = vbslq_u16(first, cross, l0);
		b = vbslq_u16(first, l0, across);
	} else {	/* Gr R */
		r = vbslq_u16(first, across, l0);
		g = vbslq_u16(first, l0, cross);
		b = vbslq_u16(first, down, diag);
	}
	r = vshrq_n_u16(r, 2);
	g = vshrq_n_u16(g, 2);
	b = vshrq_n_u16(b, 2);
	/* BT.601, limited range; U and V are signed, mod 2^16 until shifted */
	y = vmlaq_u16(vmlaq_u16(vmulq_u16(r, lanes(66)), g, lanes(129)),
		      b, lanes(25));
	y = vaddq_u16(vrshrq_n_u16(y, 8), lanes(16));
	u = vmlsq_u16(vmlsq_u16(vmulq_u16(b, lanes(112)), r, lanes(38)),
		      g, lanes(74));
	v = vmlsq_u16(vmlsq_u16(vmulq_u16(r, lanes(112)), g, lanes(94)),
		      b, lanes(18));
	su = vrshrq_n_s16(vreinterpretq_s16_u16(u), 8);
	sv = vrshrq_n_s16(vreinterpretq_s16_u16(v), 8);
	/* a pair's chroma: the rounded mean of its two pixels' (+ 128 each) */
	c = vcombine_s16(vpadd_s16(vget_low_s16(su), vget_high_s16(su)),
			 vpadd_s16(vget_low_s16(sv), vget_high_s16(sv)));
	c = vrshrq_n_s16(vaddq_s16(c, vreinterpretq_s16_u16(lanes(256))), 1);
	/* U0..U3 V0..V3, then Y0..Y7, into the output's byte order */
	t.val[0] = vmovn_u16(vreinterpretq_u16_s16(c));
	t.val[1] = vmovn_u16(y);
	vst1q_u8(out, vcombine_u8(vtbl2_u8(t, order_lo),
				  vtbl2_u8(t, order_hi)));
}

static inline __attribute__((always_inline))
unsigned int preview_inner(const uint16_t *above, const uint16_t *line,
			   const uint16_t *below, unsigned int width,
			   uint8_t *out, unsigned int uyvy, int odd)
{
	/* bytes 0-7 of the table: U0..U3 V0..V3; bytes 8-15: Y0..Y7 */
	static const uint8_t order[2][16] = {
		/* YUYV: Y0 U0 Y1 V0 ... */
		{ 8, 0, 9, 4, 10, 1, 11, 5, 12, 2, 13, 6, 14, 3, 15, 7 },
		/* UYVY: U0 Y0 V0 Y1 ... */
		{ 0, 8, 4, 9, 1, 10, 5, 11, 2, 12, 6, 13, 3, 14, 7, 15 },
	};
	uint8x8_t order_lo = vld1_u8(order[!!uyvy]);
	uint8x8_t order_hi = vld1_u8(order[!!uyvy] + 8);
	uint16x8_t seen = vdupq_n_u16(0);
	uint64x2_t s;
	unsigned int x;

	for (x = 2; x + 8 < width; x += 8)
		preview_eight(above + x, line + x, below + x, out + 2 * x,
			      order_lo, order_hi, &seen, odd);
	/* a sample of more than 10 bits: the C's wider sums differ */
	s = vreinterpretq_u64_u16(seen);
	if ((vgetq_lane_u64(s, 0) | vgetq_lane_u64(s, 1)) &
	    ~0x03ff03ff03ff03ffULL)
		return 2;
	return x;
}

/**
 * pix_preview_inner_neon() - the inner pairs of a preview line, with NEON
 * @above: the line above (mirrored at the frame's edge), @width samples
 * @line: the line, @width samples, Bayer GRBG
 * @below: the line below
 * @width: samples a line, even
 * @out: the line's output, 2 * @width bytes
 * @uyvy: UYVY, else YUYV
 * @odd: the line is B Gb (an odd line), else Gr R
 *
 * Writes the output pairs at columns 2 .. x - 1 of the line, eight columns
 * at a time, as pix_preview_line() computes them at the default contrast
 * and brightness; pix_preview_line_from() does the rest from column x.
 *
 * Return: x; 2 (nothing valid written) when a sample read has more than
 * 10 bits, where the C's result differs.
 */
unsigned int pix_preview_inner_neon(const unsigned short *above,
				    const unsigned short *line,
				    const unsigned short *below,
				    unsigned int width, unsigned char *out,
				    unsigned int uyvy, unsigned int odd)
{
	if (odd)
		return preview_inner(above, line, below, width, out, uyvy, 1);
	return preview_inner(above, line, below, width, out, uyvy, 0);
}

/**
 * pix_resizer_vblend_neon() - the resizer's vertical blend, with NEON
 * @in0: the upper input line, @n bytes
 * @in1: the lower input line
 * @tmp: the blended line
 * @n: bytes a line
 * @fy: the lower line's weight, 0..255 (of 256)
 *
 * Blends bytes 0 .. i - 1 of the lines, sixteen at a time, as
 * pix_resizer_line_from() does: (a * (256 - @fy) + b * @fy) >> 8 on each
 * byte, here in 16-bit lanes (the even bytes, and the odd ones in place),
 * as blend4() of isp_pixel.c does in a 32-bit word.
 *
 * Return: i, the bytes done; pix_resizer_line_from() does the rest.
 */
unsigned int pix_resizer_vblend_neon(const unsigned char *in0,
				     const unsigned char *in1,
				     unsigned char *tmp, unsigned int n,
				     unsigned int fy)
{
	const uint16x8_t low = lanes(0x00ff), high = lanes(0xff00);
	const uint16x8_t f = vdupq_n_u16(fy), nf = vdupq_n_u16(256 - fy);
	unsigned int i;

	for (i = 0; i + 16 <= n; i += 16) {
		uint16x8_t a = vreinterpretq_u16_u8(vld1q_u8(in0 + i));
		uint16x8_t b = vreinterpretq_u16_u8(vld1q_u8(in1 + i));
		uint16x8_t lo = vmlaq_u16(vmulq_u16(vandq_u16(a, low), nf),
					  vandq_u16(b, low), f);
		uint16x8_t hi = vmlaq_u16(vmulq_u16(vshrq_n_u16(a, 8), nf),
					  vshrq_n_u16(b, 8), f);

		vst1q_u8(tmp + i,
			 vreinterpretq_u8_u16(vorrq_u16(vshrq_n_u16(lo, 8),
							vandq_u16(hi, high))));
	}
	return i;
}

#endif /* __CHECKER__ */
