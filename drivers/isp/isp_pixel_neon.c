// SPDX-License-Identifier: GPL-2.0
/*
 * isp_pixel_neon.c - NEON versions of the hottest pixel loops
 *
 * Each gives, sample for sample, what its C version in isp_pixel.c gives:
 * the C is the reference (the host model runs it; frames.sh compares the
 * guest's frames with the model's; under qemu-arm, tests/host/pixel-neon.c
 * compares the line stages' loop with the C and tests/host/resizer-line.c
 * the resizer's with the documented scaling; n900_isp.neon=0 runs the C
 * in the guest).
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
 * That is their throughput; a chain of dependent ones costs more, 1.5 to
 * 1.9 ns an instruction under qemu-arm here (TCG keeps the vector
 * registers in memory: each instruction loads its operands and stores
 * its result), against 0.16 for a chain of integer ADDs, which stay in
 * host registers.
 *
 * Measured in the guest (release kernel, 1280x960, one boot, three runs
 * each way through n900_isp.neon): the line stages 4.6-5.0 ms a frame
 * against 6.6-7.2 in C. The preview had a NEON loop too (7.1-8.0 ms
 * against 12.6-13.2 in the C of then); a C loop on words of two pixels
 * that keeps all its values in registers, preview_inner_words() in
 * isp_pixel.c, took 5.2 ms a frame where the NEON loop took 6.5 and 6.8
 * in the same boot, and replaced it. The resizer's vertical blend on
 * NEON's arithmetic gained nothing measurable; what its loops here use
 * NEON for is loads and stores of 64 bits, a single access of the guest
 * each where the C makes two (an access costs about twenty integer
 * instructions under TCG), with the arithmetic on the integer registers
 * (isp_pixel_words.h, the C's): 4.0 ms a frame against the C's 4.6, 1.1
 * against 1.3 at 640x480 (medians of six runs each way, one boot). The
 * sensor's noise on a cached line fits 16-bit lanes and runs two chains
 * of eight pixels side by side, so that neither waits on the other's
 * results: 4.4 ns a pixel under qemu-arm against 8.6 with one chain and
 * 8.5 for the C; in the guest, 4.6 to 5.3 ms a frame at 1280x960 against
 * 9.5 to 14.6 for the C.
 *
 * Built with the kernel's FPU flags (CC_FLAGS_FPU), so it includes no
 * kernel header; the caller runs it between kernel_neon_begin() and
 * kernel_neon_end().
 */

#include "isp_pixel_page.h"
#include "isp_pixel_neon.h"
#include "isp_pixel_sensor.h"
#include "isp_pixel_words.h"

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
 * A constant in every lane, made where it is used (VMOV.I32 Qd, #k): the
 * compiler can neither multiply by a scalar lane instead (VMUL.I32 Qd,
 * Qn, Dm[x], a helper call under TCG) nor keep it in a register across
 * the loop, which spills others to the stack.
 */
static inline uint32x4_t lanes32(u32 k)
{
	uint32x4_t v = vdupq_n_u32(k);

	asm volatile("" : "+w" (v));
	return v;
}

/* @a * @b, not fused with what uses it */
static inline uint32x4_t mul32(uint32x4_t a, uint32x4_t b)
{
	uint32x4_t p = vmulq_u32(a, b);

	opaque(p);
	return p;
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
PIX_OWN_PAGE unsigned int pix_line_chain_neon(const struct pix_chain_line *p,
					      unsigned short *line,
					      unsigned int width)
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

/* @a * @b in 16-bit lanes, not fused with what uses it */
static inline int16x8_t mul16(int16x8_t a, int16x8_t b)
{
	int16x8_t p = vmulq_s16(a, b);

	opaque(p);
	return p;
}

/* the largest gain g whose products (v & 127) * g fit 16 bits unsigned */
#define NOISE_GAIN_MAX	(65535 / ((1 << PIX_CONV_SHIFT) - 1))

/* the constants of noise_eight(), in every lane */
struct noise_lanes {
	int16x8_t zero;
	int16x8_t well;
	int16x8_t low;
	int16x8_t offset;
	int16x8_t g;
	int16x8_t ped;
	int16x8_t raw_max;
};

/*
 * Eight pixels of a cached line, pix_noise_line_neon()'s step: @e their
 * charges, @sig their sigmas, @d the sums of their draws
 */
static __always_inline int16x8_t noise_eight(int16x8_t e, int16x8_t sig,
					     int16x8_t d,
					     const struct noise_lanes *k)
{
	/* the read part, sign-extended, then the shot part */
	int16x8_t r = vshrq_n_s16(vshlq_n_s16(d, 16 - PIX_DRAW_READ_BITS),
				  16 - PIX_DRAW_READ_BITS);
	int16x8_t n = vshrq_n_s16(vsubq_s16(d, r), PIX_DRAW_READ_BITS);
	int16x8_t v, hi;
	uint16x8_t lo;

	n = vrshrq_n_s16(mul16(n, sig), PIX_DRAW_SHOT_Q + PIX_SHOT_Q);
	v = vminq_s16(vmaxq_s16(vaddq_s16(e, n), k->zero), k->well);
	v = vaddq_s16(vaddq_s16(v, r), k->offset);
	hi = mul16(vshrq_n_s16(v, PIX_CONV_SHIFT), k->g);
	lo = vreinterpretq_u16_s16(mul16(vandq_s16(v, k->low), k->g));
	v = vaddq_s16(hi, vreinterpretq_s16_u16(vrshrq_n_u16(lo,
							     PIX_CONV_SHIFT)));
	return vminq_s16(vmaxq_s16(vaddq_s16(v, k->ped), k->zero), k->raw_max);
}

/* @w's eight values at @x as signed lanes */
static inline int16x8_t load_s16(const void *w, unsigned int x)
{
	return vld1q_s16((const short *)w + x);
}

/**
 * pix_noise_line_neon() - a cached line with noise, with NEON
 * @p: the line (pix_sensor_noise_prepare())
 * @out: the line's @width samples
 * @width: the frame's width
 *
 * Does columns 0 .. x - 1 of the line in 16-bit lanes, sixteen at a time
 * in two independent chains of eight (TCG keeps a vector register in
 * memory: a chain waits for each result), as pix_noise_line_from() does
 * them (sensor_pixel() of isp_pixel.c); pix_noise_line_from() does the
 * rest from column x. Every value fits 16 bits signed
 * (isp_pixel_sensor.h) but the gain's product: the charge v (-24 to 6024,
 * plus 128 to make it positive; 128 is 1 << PIX_CONV_SHIFT) is split at
 * bit 7, so that (v * g + 64) >> 7 = (v >> 7) * g + ((v & 127) * g + 64)
 * >> 7, the second product unsigned, under 65536 for a gain g of up to
 * NOISE_GAIN_MAX (516; the controls stop at 271); the 128 added comes
 * out as g, which the pedestal takes back.
 * VRSHR's rounding shift is the C's "+ half, then >>".
 *
 * Return: x; 0 for a gain past NOISE_GAIN_MAX.
 */
PIX_OWN_PAGE unsigned int pix_noise_line_neon(const struct pix_noise_line *p,
					      unsigned short *out,
					      unsigned int width)
{
	const struct noise_lanes k = {
		.zero = vdupq_n_s16(0),
		.well = vdupq_n_s16(PIX_FULL_WELL),
		.low = vdupq_n_s16((1 << PIX_CONV_SHIFT) - 1),
		.offset = vdupq_n_s16(1 << PIX_CONV_SHIFT),
		.g = vdupq_n_s16(p->gmul),
		.ped = vdupq_n_s16(PIX_PEDESTAL - (int)p->gmul),
		.raw_max = vdupq_n_s16(PIX_RAW_MAX),
	};
	const short *da = p->draw[0], *db = p->draw[1];
	unsigned int x;

	if (p->gmul > NOISE_GAIN_MAX)
		return 0;
	for (x = 0; x + 16 <= width; x += 16) {
		int16x8_t v0, v1;

		v0 = noise_eight(load_s16(p->charge, x), load_s16(p->sigma, x),
				 vaddq_s16(load_s16(da, x), load_s16(db, x)),
				 &k);
		v1 = noise_eight(load_s16(p->charge, x + 8),
				 load_s16(p->sigma, x + 8),
				 vaddq_s16(load_s16(da, x + 8),
					   load_s16(db, x + 8)), &k);
		vst1q_s16((short *)out + x, v0);
		vst1q_s16((short *)out + x + 8, v1);
	}
	return x;
}

/*
 * the two words at @p, any alignment, 64 bits in one load: VLD1 of a D
 * register, a single access of the guest
 */
static inline uint32x2_t load64(const void *p)
{
	return vreinterpret_u32_u8(vld1_u8(p));
}

/* and one store */
static inline void store64(void *p, uint32x2_t v)
{
	vst1_u8(p, vreinterpret_u8_u32(v));
}

/* one word at @p, any alignment (not merged into an LDRD, which needs 4) */
static inline u32 load32(const void *p)
{
	u32 v;

	__builtin_memcpy(&v, p, sizeof(v));
	return v;
}

static inline void store32(void *p, u32 v)
{
	__builtin_memcpy(p, &v, sizeof(v));
}

/**
 * pix_resizer_vblend_neon() - the resizer's vertical blend, 64 bits a load
 * @in0: an input line
 * @in1: the next
 * @tmp: the blend, @n bytes
 * @n: bytes a line
 * @f: the weight of @in1, Q8
 *
 * What pix_resizer_line() computes into @tmp, eight bytes a step: each
 * line's bytes in one load, the blend in the integer registers
 * (words_blend4()), one store.
 *
 * Return: the bytes done, a multiple of 8.
 */
PIX_OWN_PAGE unsigned int pix_resizer_vblend_neon(const unsigned char *in0,
						  const unsigned char *in1,
						  unsigned char *tmp,
						  unsigned int n,
						  unsigned int f)
{
	unsigned int i;

	for (i = 0; i + 8 <= n; i += 8) {
		uint32x2_t a = load64(in0 + i), b = load64(in1 + i), o;

		o = vdup_n_u32(words_blend4(vget_lane_u32(a, 0),
					    vget_lane_u32(b, 0), f));
		o = vset_lane_u32(words_blend4(vget_lane_u32(a, 1),
					       vget_lane_u32(b, 1), f), o, 1);
		store64(tmp + i, o);
	}
	return i;
}

/* the output pairs before @end, a pair a step */
static __always_inline unsigned int hpairs(const u8 *tmp, u8 *out,
					   unsigned int end,
					   unsigned int hstep, int uyvy)
{
	u8 *o = out, *oend = out + 2 * end;
	unsigned int p0 = 0;

	for (; o < oend; o += 4, p0 += 2 * hstep) {
		unsigned int p1 = p0 + hstep;
		/* the chroma words, and the first luma's word among them */
		uint32x2_t c = load64(tmp + 4 * (p0 >> 17));
		unsigned int a = vget_lane_u32(c, 0), b = vget_lane_u32(c, 1);
		unsigned int w0 = p0 & 0x10000 ? a >> 16 | b << 16 : a;

		store32(o, resizer_word(w0, load32(tmp + 2 * (p1 >> 16)), a, b,
					p0, p1, uyvy));
	}
	return end;
}

/**
 * pix_resizer_hpairs_neon() - the resizer's horizontal pass, chroma words
 *	64 bits a load
 * @tmp: the vertically blended input line
 * @out: the output line
 * @end: output pairs before column @end (even) have both lumas' next
 *	input pixels
 * @hstep: input pixels per output pixel, Q16
 * @half: input pairs a line
 * @uyvy: UYVY, else YUYV
 *
 * The output pairs resizer_word() gives: a pair's chroma words (input
 * pairs ic and ic + 1) in one load, which holds its first luma's word
 * too; the second luma's word in another. It stops before a pair whose
 * ic + 1 is past the line (the C clamps it).
 *
 * Return: the first output column not written, even.
 */
PIX_OWN_PAGE unsigned int pix_resizer_hpairs_neon(const unsigned char *tmp,
						  unsigned char *out,
						  unsigned int end,
						  unsigned int hstep,
						  unsigned int half,
						  unsigned int uyvy)
{
	/* chroma of pair x at x / 2 * hstep: its ic + 1 inside the line */
	while (end && ((end - 2) * hstep >> 17) + 1 >= half)
		end -= 2;
	if (uyvy)
		return hpairs(tmp, out, end, hstep, 1);
	return hpairs(tmp, out, end, hstep, 0);
}

#endif /* __CHECKER__ */
