/* SPDX-License-Identifier: GPL-2.0 */
/*
 * isp_pixel_neon.h - NEON versions of pixel loops (isp_pixel_neon.c)
 *
 * isp_pixel_neon.c is built with the FPU flags and <arm_neon.h>, which
 * clash with the kernel's headers: this header uses plain C types only.
 * The caller brackets each call with kernel_neon_begin() and
 * kernel_neon_end().
 */
#ifndef ISP_PIXEL_NEON_H
#define ISP_PIXEL_NEON_H

/**
 * struct pix_chain_line - the line stages on one line
 *	(pix_line_chain_prepare())
 * @black: the CCDC's black level, 0 without a CCDC
 * @col: lens shading: the gains (Q8) at the edges of the cells along the
 *	line; NULL without lens shading
 * @f0: white balance: the factor of the even columns (digital gain, Q8,
 *	times the channel's gain, Q5)
 * @f1: that of the odd columns
 * @wb: with white balance
 */
struct pix_chain_line {
	unsigned int black;
	const unsigned int *col;
	unsigned int f0;
	unsigned int f1;
	int wb;
};

/**
 * struct pix_noise_line - a line of the Image pattern from the charge
 *	cache, with noise (pix_sensor_noise_prepare())
 * @charge: the mean charges of the line's pixels, electrons, at most
 *	PIX_CHARGE_MAX
 * @sigma: their shot noise's standard deviations, in units of
 *	2^-PIX_SHOT_Q electrons
 * @draw: the line's two windows of draws (isp_pixel_sensor.h)
 * @gmul: the analogue gain, 16 + gain
 */
struct pix_noise_line {
	const unsigned short *charge;
	const unsigned short *sigma;
	const short *draw[2];
	unsigned int gmul;
};

unsigned int pix_noise_line_neon(const struct pix_noise_line *p,
				 unsigned short *out, unsigned int width);
unsigned int pix_line_chain_neon(const struct pix_chain_line *p,
				 unsigned short *line, unsigned int width);
unsigned int pix_resizer_vblend_neon(const unsigned char *in0,
				     const unsigned char *in1,
				     unsigned char *tmp, unsigned int n,
				     unsigned int f);
unsigned int pix_resizer_hpairs_neon(const unsigned char *tmp,
				     unsigned char *out, unsigned int end,
				     unsigned int hstep, unsigned int half,
				     unsigned int uyvy);

#endif /* ISP_PIXEL_NEON_H */
