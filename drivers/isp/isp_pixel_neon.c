// SPDX-License-Identifier: GPL-2.0
/*
 * isp_pixel_neon.c - NEON versions of the hottest pixel loops
 *
 * Each gives, sample for sample, what its C version in isp_pixel.c gives:
 * the C is the reference (the host model runs it; frames.sh compares the
 * guest's frames with the model's; tests/host/pixel-neon.c compares the two
 * under qemu-arm, and n900_isp.neon=0 runs the C in the guest).
 *
 * Under QEMU's TCG (7.2), a NEON instruction that writes a new register
 * from others (VADD, VSUB, VMUL, VAND, VORR, VBIC, VMAX, VMIN, VSHL,
 * VSHR, VRSHR, VMOV #imm) becomes a few host SIMD instructions, eight
 * 16-bit lanes at a time: 0.2 to 0.5 ns under qemu-arm on this project's
 * machine, where an ARM integer ADD takes 0.3. One that also reads its
 * destination (VMLA, VBSL, VSRA, VSLI), widens or narrows (VMOVL, VMOVN,
 * VSHRN), pairs (VPADD) or permutes lanes (VTBL, VZIP, VUZP, VEXT) takes
 * 1.4 to 10 ns (a helper call). So the loops use only the first kind: a
 * selection is an AND, a BIC and an ORR; a widening, a mask and a shift
 * of the 32-bit lanes (even and odd samples apart); a product and a sum
 * stay two instructions (opaque(), else the compiler fuses them).
 *
 * Measured in the guest (release kernel, 1280x960, one boot, three runs
 * each way through n900_isp.neon): the preview 7.1-8.0 ms a frame
 * against 12.6-13.2 ms in C, the line stages 4.6-5.0 against 6.6-7.2.
 * The resizer's vertical blend gained nothing measurable (its horizontal
 * pass, a gather, takes most of its time) and stays in C.
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

/* the kernel's integer types: <linux/types.h> clashes with <stdint.h> */
typedef __UINT8_TYPE__ u8;
typedef __UINT16_TYPE__ u16;
typedef __UINT32_TYPE__ u32;
typedef __UINT64_TYPE__ u64;

/* hides @v from the compiler: it cannot fuse what made it with its use */
#define opaque(v)	asm("" : "+w" (v))

/*
 * A constant in every lane, made where it is used (VMOV.I16 Qd, #k): the
 * compiler can neither multiply by a scalar lane instead (VMUL.I16 Qd,
 * Qn, Dm[x], a helper call under TCG) nor keep it in a register across
 * the loop, which spills others to the stack.
 */
static inline uint16x8_t lanes(u16 k)
{
	uint16x8_t v = vdupq_n_u16(k);

	asm volatile("" : "+w" (v));
	return v;
}

static inline uint32x4_t lanes32(u32 k)
{
	uint32x4_t v = vdupq_n_u32(k);

	asm volatile("" : "+w" (v));
	return v;
}

/* @a * @b, not fused with what uses it */
static inline uint16x8_t mul16(uint16x8_t a, uint16x8_t b)
{
	uint16x8_t p = vmulq_u16(a, b);

	opaque(p);
	return p;
}

static inline uint32x4_t mul32(uint32x4_t a, uint32x4_t b)
{
	uint32x4_t p = vmulq_u32(a, b);

	opaque(p);
	return p;
}

/* @m ? @a : @b on each bit, in three cheap instructions, not VBSL */
static inline uint16x8_t select16(uint16x8_t m, uint16x8_t a, uint16x8_t b)
{
	uint16x8_t x = vandq_u16(a, m), y = vbicq_u16(b, m);

	opaque(x);
	opaque(y);
	return vorrq_u16(x, y);
}

/* the even samples of @v, and the odd ones, in 32-bit lanes */
static inline uint32x4_t even32(uint16x8_t v)
{
	return vandq_u32(vreinterpretq_u32_u16(v), lanes32(0xffff));
}

static inline uint32x4_t odd32(uint16x8_t v)
{
	return vshrq_n_u32(vreinterpretq_u32_u16(v), 16);
}

/*
 * Eight samples of a line through the line stages, as chain_pairs() of
 * isp_pixel.c: the black level (max(v, black) - black is its "v > black ?
 * v - black : 0"), then with @lsc the gains @sum_e (even columns) and
 * @sum_o (odd) (Q5 sums: the gains shifted left by 5), then with @wb the
 * factors @f0 and @f1 of the even and odd columns. The products are the
 * C's, modulo 2^32 as its u32 ones.
 */
static __always_inline void chain_eight(u16 *line, uint16x8_t black,
					uint32x4_t sum_e, uint32x4_t sum_o,
					uint32x4_t f0, uint32x4_t f1, int lsc,
					int wb)
{
	uint16x8_t v = vsubq_u16(vmaxq_u16(vld1q_u16(line), black), black);
	uint32x4_t e, o;

	if (!lsc && !wb) {
		vst1q_u16(line, v);
		return;
	}
	e = even32(v);
	o = odd32(v);
	if (lsc) {
		e = vminq_u32(vshrq_n_u32(mul32(e, vshrq_n_u32(sum_e, 5)), 8),
			      lanes32(1023));
		o = vminq_u32(vshrq_n_u32(mul32(o, vshrq_n_u32(sum_o, 5)), 8),
			      lanes32(1023));
	}
	if (wb) {
		e = vminq_u32(vshrq_n_u32(mul32(e, f0), 13), lanes32(1023));
		o = vminq_u32(vshrq_n_u32(mul32(o, f1), 13), lanes32(1023));
	}
	vst1q_u16(line, vreinterpretq_u16_u32(vorrq_u32(e,
							vshlq_n_u32(o, 16))));
}

static __always_inline unsigned int chain_line(const struct pix_chain_line *p,
					       u16 *line, unsigned int width,
					       int lsc, int wb)
{
	const uint16x8_t black = vdupq_n_u16(p->black);
	const uint32x4_t f0 = vdupq_n_u32(p->f0), f1 = vdupq_n_u32(p->f1);
	const uint32x4_t zero = vdupq_n_u32(0);
	unsigned int x = 0, end, gx;

	if (!lsc) {
		for (; x + 8 <= width; x += 8)
			chain_eight(line + x, black, zero, zero, f0, f1, 0,
				    wb);
		return x;
	}
	/* a cell (32 columns) a time: its gains advance by d a column */
	for (gx = 0; x < width; gx++) {
		u32 c0 = p->col[gx], d = p->col[gx + 1] - c0;
		u32 s = c0 << 5;
		uint32x4_t step = vdupq_n_u32(8 * d);
		uint32x4_t se = vcombine_u32(vcreate_u32(s | (u64)(s + 2 * d) << 32),
					     vcreate_u32((s + 4 * d) |
							 (u64)(s + 6 * d) << 32));
		uint32x4_t so = vaddq_u32(se, vdupq_n_u32(d));

		end = x + 32 < width ? x + 32 : width;
		for (; x + 8 <= end; x += 8) {
			chain_eight(line + x, black, se, so, f0, f1, 1, wb);
			se = vaddq_u32(se, step);
			so = vaddq_u32(so, step);
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
 * preview_window() and preview_pair() of isp_pixel.c compute them, from
 * columns x - 1 .. x + 6 (*m), x .. x + 7 (*0) and x + 1 .. x + 8 (*p) of
 * the line (l*), the one above (a*) and the one below (b*): the same
 * sums, rounded the same way, in 16-bit lanes. Exact for samples of at
 * most 10 bits (the caller checks): then no sum leaves 16 bits and the
 * RGB, Y, U and V fit the C's clamps, which change nothing.
 */
static __always_inline void preview_eight(uint16x8_t lm, uint16x8_t l0,
					  uint16x8_t lp, uint16x8_t am,
					  uint16x8_t a0, uint16x8_t ap,
					  uint16x8_t bm, uint16x8_t b0,
					  uint16x8_t bp, u8 *out, int odd,
					  int uyvy)
{
	/* lanes 0, 2, 4, 6: the pairs' first columns */
	const uint16x8_t first = vreinterpretq_u16_u32(lanes32(0xffff));
	/* avg2() and avg4() of the four neighbours across, and diagonal */
	uint16x8_t hs = vaddq_u16(lm, lp), vs = vaddq_u16(a0, b0);
	uint16x8_t across = vrshrq_n_u16(hs, 1), down = vrshrq_n_u16(vs, 1);
	uint16x8_t cross = vrshrq_n_u16(vaddq_u16(hs, vs), 2);
	uint16x8_t diag = vrshrq_n_u16(vaddq_u16(vaddq_u16(am, ap),
						 vaddq_u16(bm, bp)), 2);
	uint16x8_t r, g, b, y, u, v;
	uint32x4_t y32, cu, cv;

	if (odd) {	/* B Gb */
		r = select16(first, diag, down);
		g = select16(first, cross, l0);
		b = select16(first, l0, across);
	} else {	/* Gr R */
		r = select16(first, across, l0);
		g = select16(first, l0, cross);
		b = select16(first, down, diag);
	}
	r = vshrq_n_u16(r, 2);
	g = vshrq_n_u16(g, 2);
	b = vshrq_n_u16(b, 2);
	/*
	 * BT.601, limited range. U and V are signed, modulo 2^16 until the
	 * arithmetic shift; then + 128, they are 16..240
	 */
	y = vaddq_u16(vaddq_u16(mul16(r, lanes(66)), mul16(g, lanes(129))),
		      mul16(b, lanes(25)));
	y = vaddq_u16(vrshrq_n_u16(y, 8), lanes(16));
	u = vsubq_u16(vsubq_u16(mul16(b, lanes(112)), mul16(r, lanes(38))),
		      mul16(g, lanes(74)));
	v = vsubq_u16(vsubq_u16(mul16(r, lanes(112)), mul16(g, lanes(94))),
		      mul16(b, lanes(18)));
	u = vaddq_u16(vreinterpretq_u16_s16(vrshrq_n_s16(vreinterpretq_s16_u16(u),
							 8)), lanes(128));
	v = vaddq_u16(vreinterpretq_u16_s16(vrshrq_n_s16(vreinterpretq_s16_u16(v),
							 8)), lanes(128));
	/* a pair's chroma: the rounded mean of its two pixels' */
	cu = vrshrq_n_u32(vaddq_u32(even32(u), odd32(u)), 1);
	cv = vrshrq_n_u32(vaddq_u32(even32(v), odd32(v)), 1);
	/* a pair a 32-bit lane: Y0 | Y1 << 16, all below 256 */
	y32 = vreinterpretq_u32_u16(y);
	if (uyvy)	/* U Y0 V Y1 */
		y32 = vorrq_u32(vorrq_u32(cu, vshlq_n_u32(y32, 8)),
				vshlq_n_u32(cv, 16));
	else		/* Y0 U Y1 V */
		y32 = vorrq_u32(vorrq_u32(y32, vshlq_n_u32(cu, 8)),
				vshlq_n_u32(cv, 24));
	vst1q_u8(out, vreinterpretq_u8_u32(y32));
}

/*
 * The inner pairs, eight columns at a time: each step loads the columns it
 * reads, x - 1 .. x + 8 of the three lines, as three overlapping vectors
 * a line (measured under TCG: as fast as loading eight columns once a
 * step and shifting the next eight in with VEXT, a helper call each).
 */
static __always_inline unsigned int preview_inner(const u16 *above,
						  const u16 *line,
						  const u16 *below,
						  unsigned int width, u8 *out,
						  int odd, int uyvy)
{
	uint16x8_t seen = vdupq_n_u16(0);
	uint64x2_t s;
	unsigned int x;

	for (x = 2; x + 8 < width; x += 8) {
		uint16x8_t lm = vld1q_u16(line + x - 1);
		uint16x8_t lp = vld1q_u16(line + x + 1);
		uint16x8_t am = vld1q_u16(above + x - 1);
		uint16x8_t ap = vld1q_u16(above + x + 1);
		uint16x8_t bm = vld1q_u16(below + x - 1);
		uint16x8_t bp = vld1q_u16(below + x + 1);

		/* every sample read, columns x - 1 .. x + 8 */
		seen = vorrq_u16(seen, vorrq_u16(vorrq_u16(lm, lp),
						 vorrq_u16(vorrq_u16(am, ap),
							   vorrq_u16(bm, bp))));
		preview_eight(lm, vld1q_u16(line + x), lp,
			      am, vld1q_u16(above + x), ap,
			      bm, vld1q_u16(below + x), bp,
			      out + 2 * x, odd, uyvy);
	}
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
	if (odd && uyvy)
		return preview_inner(above, line, below, width, out, 1, 1);
	if (odd)
		return preview_inner(above, line, below, width, out, 1, 0);
	if (uyvy)
		return preview_inner(above, line, below, width, out, 0, 1);
	return preview_inner(above, line, below, width, out, 0, 0);
}

#endif /* __CHECKER__ */
