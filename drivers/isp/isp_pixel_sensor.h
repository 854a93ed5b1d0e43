/* SPDX-License-Identifier: GPL-2.0 */
/*
 * isp_pixel_sensor.h - the constants of the emulated sensor
 *
 * Plain C, no include: isp_pixel.h takes them in, and so does
 * isp_pixel_neon.c, which the kernel's headers cannot reach (it is built
 * with <arm_neon.h>).
 */
#ifndef ISP_PIXEL_SENSOR_H
#define ISP_PIXEL_SENSOR_H

#define PIX_MAX_WIDTH		4096
#define PIX_RAW_MAX		1023

/*
 * The physical sensor of the Image pattern (README: Frames). A scene
 * sample s (0..65535, linear light) and the channel's illuminant gain give
 * the pixel's mean charge, s / 65535 of the full well at the default
 * exposure, linear in exposure, times the lens' vignetting; shot noise
 * (variance = charge) is added and the charge clipped at the full well;
 * read noise is added, then the analogue gain and the conversion to DN,
 * then the black level (pedestal), and the 10-bit ADC clips. At 1x the full
 * well reads PIX_PEDESTAL + PIX_FULL_WELL / 8 = 814 DN, below the ADC's
 * 1023: a highlight at 814 is a full pixel, at 1023 a clipped ADC.
 */
#define PIX_FULL_WELL		6000	/* electrons */
#define PIX_READ_NOISE		6	/* electrons rms */
#define PIX_CONV_SHIFT		7	/* DN = e * (16 + gain) >> 7: 1/8 DN/e at 1x */
#define PIX_PEDESTAL		64	/* the sensor's black level, DN */
#define PIX_SHOT_STEP_SHIFT	2	/* shot noise table: one entry per 4 e */
#define PIX_SHOT_TABLE		((PIX_FULL_WELL >> PIX_SHOT_STEP_SHIFT) + 1)

/*
 * The charge cache keeps a charge past the full well as this: the shot
 * noise (at most 2 * PIX_DRAW_SHOT_MAX / 32 = 4.06 standard deviations,
 * 315 e- at the full well) cannot bring it back under, so the pixel is
 * the same, and a charge and its noise fit 16 bits signed.
 */
#define PIX_CHARGE_MAX		(PIX_FULL_WELL + 512)

/*
 * The noise's draws (README: Frames): PIX_NOISE_DRAWS draws made once,
 * then their first PIX_MAX_WIDTH again, so that a line reads
 * PIX_MAX_WIDTH draws from any offset without wrapping. A line takes two
 * windows at offsets at least PIX_MAX_WIDTH apart (cyclically, so that
 * they never overlap), and a pixel's noise is the sum of its draws in
 * the two, each draw holding half the variance. A draw packs two, in 16
 * bits signed:
 *
 *   draw = shot << PIX_DRAW_READ_BITS + read
 *
 * shot a normal draw in 1/32 of a standard deviation (PIX_DRAW_SHOT_Q
 * fractional bits; at most PIX_DRAW_SHOT_MAX: 2.89 deviations /
 * sqrt(2)), read a read noise in electrons (at most 12); the sum of two
 * draws keeps the read noise within PIX_DRAW_READ_BITS bits signed, and
 * both fit 16 bits: eight pixels are a NEON register.
 */
#define PIX_NOISE_DRAWS		65536
#define PIX_DRAW_READ_BITS	6
#define PIX_DRAW_SHOT_Q		5
#define PIX_DRAW_SHOT_MAX	65
#define PIX_NOISE_HALF		2896	/* 1 / sqrt(2), Q12 */

/*
 * The shot noise's standard deviation: sqrt(charge), in half electrons
 * (PIX_SHOT_Q fractional bits; at most PIX_SHOT_SIGMA_MAX, at the full
 * well), so that its product with a sum of two draws' shot parts fits
 * 16 bits signed
 */
#define PIX_SHOT_Q		1
#define PIX_SHOT_SIGMA_MAX	155

#endif /* ISP_PIXEL_SENSOR_H */
