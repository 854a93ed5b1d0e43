/* SPDX-License-Identifier: GPL-2.0 */
/*
 * isp_pixel.h - the pixel arithmetic of the emulated OMAP3 ISP
 *
 * Plain C with integer math only, shared by the kernel module (isp_pixel.c
 * is linked into n900-isp) and by the host reference model
 * (tests/ref/isp-ref.c compiles the same file), so that the expected output
 * of any configured pipeline is computed by the very same code path. Every
 * stage works one line at a time.
 *
 * Raw frames are 10-bit Bayer GRBG in 16-bit containers:
 *
 *   even lines  Gr R  Gr R ...
 *   odd lines   B  Gb B  Gb ...
 */
#ifndef N900_ISP_PIXEL_H
#define N900_ISP_PIXEL_H

/* the host reference model provides these itself (tests/ref/kcompat.h) */
#ifdef __KERNEL__
#include <linux/bits.h>
#include <linux/types.h>
#endif

#include "n900_isp_stats.h"

#define PIX_MAX_WIDTH		4096
#define PIX_RAW_MAX		1023

/* Bayer site of (x, y) in GRBG order */
enum pix_site {
	PIX_GR,
	PIX_R,
	PIX_B,
	PIX_GB,
};

static inline unsigned int pix_site(unsigned int x, unsigned int y)
{
	return (y & 1) << 1 | (x & 1);
}

/* Sensor test patterns, in the order of the V4L2_CID_TEST_PATTERN menu */
enum pix_pattern {
	PIX_PATTERN_SCENE,
	PIX_PATTERN_BARS,
	PIX_PATTERN_GRADIENT,
};

/* The lens position (ad5820, 0..1023) at which the scene is sharp */
#define PIX_FOCUS_SHARP		512
/* Lens steps per pixel of blur radius */
#define PIX_FOCUS_STEP		32

/**
 * struct pix_scene - what the sensor sees, and its per-frame tables
 * @width: frame width
 * @height: frame height
 * @pattern: enum pix_pattern
 * @exposure: exposure in lines; the scene's brightness is linear in it
 * @exposure_ref: the exposure of nominal brightness (the sensor's default)
 * @gain: analogue gain, Q4 added to 1.0 (0 = 1x, 16 = 2x)
 * @focus: lens position; blur grows with the distance to PIX_FOCUS_SHARP
 * @scale: brightness scale, Q8, from @exposure and @gain
 * @blur: horizontal blur radius in pixels, from @focus
 * @dx2: per column, the squared distance to the optical centre, >> 4
 * @tex: per column, the (blurred) texture of the focus target
 */
struct pix_scene {
	unsigned int width;
	unsigned int height;
	unsigned int pattern;
	unsigned int exposure;
	unsigned int exposure_ref;
	unsigned int gain;
	unsigned int focus;
	/* computed by pix_scene_prepare() */
	u32 scale;
	unsigned int blur;
	u32 dx2[PIX_MAX_WIDTH];
	s32 tex[PIX_MAX_WIDTH];
};

void pix_scene_prepare(struct pix_scene *s);
void pix_sensor_line(const struct pix_scene *s, unsigned int y, u16 *out);

/**
 * struct pix_ccdc - CCDC: black level, then the data formatter
 * @black: black level subtracted from every sample (10 bit)
 */
struct pix_ccdc {
	unsigned int black;
};

void pix_ccdc_line(const struct pix_ccdc *c, const u16 *in, u16 *out,
		   unsigned int width);
void pix_raw10_to_raw8(const u16 *in, u8 *out, unsigned int width);
void pix_raw8_to_raw10(const u8 *in, u16 *out, unsigned int width);

/* the lens shading gain grid: a gain every PIX_LSC_CELL pixels */
#define PIX_LSC_CELL_SHIFT	5
#define PIX_LSC_CELL		BIT(PIX_LSC_CELL_SHIFT)
#define PIX_LSC_GRID_MAX	(PIX_MAX_WIDTH / PIX_LSC_CELL + 2)

/**
 * struct pix_lsc - lens shading correction: a gain grid over the frame
 * @enable: off passes the data through
 * @strength: Q8 gain added at the corners (256: 2x at the corners)
 * @width: frame width
 * @height: frame height
 * @grid: gains, Q8, at every PIX_LSC_CELL-th pixel in both directions
 * @grid_w: grid columns
 * @grid_h: grid rows
 */
struct pix_lsc {
	unsigned int enable;
	unsigned int strength;
	unsigned int width;
	unsigned int height;
	u16 grid[PIX_LSC_GRID_MAX * PIX_LSC_GRID_MAX];
	unsigned int grid_w;
	unsigned int grid_h;
};

void pix_lsc_prepare(struct pix_lsc *l);
/* @in and @out may be the same line (so may they for pix_wb_line()) */
void pix_lsc_line(const struct pix_lsc *l, unsigned int y, const u16 *in,
		  u16 *out);

/**
 * struct pix_wb - white balance as the OMAP3 preview engine does it
 * @dgain: digital gain, U10Q8 (256 = 1.0)
 * @gain: per Bayer site (enum pix_site), U8Q5 (32 = 1.0)
 */
struct pix_wb {
	unsigned int dgain;
	unsigned int gain[4];
};

void pix_wb_line(const struct pix_wb *w, unsigned int y, const u16 *in,
		 u16 *out, unsigned int width);

/* the OMAP3 preview's defaults: contrast 1.0, no brightness offset */
#define PIX_CONTRAST_DEF	16
#define PIX_BRIGHTNESS_DEF	0

/**
 * struct pix_preview - preview: demosaic, RGB to YUV, contrast, brightness
 * @contrast: luma gain, U8Q4 (16 = 1.0), as the OMAP3 preview's CNT_BRT
 * @brightness: luma offset, U8Q0, added after the contrast gain
 * @uyvy: UYVY out instead of YUYV
 *
 * Bilinear demosaic of three raw lines (the one above, the line, the one
 * below; mirrored at the frame edges) into 8-bit RGB, then BT.601
 * limited-range YUV 4:2:2; then, on luma only, Y' = Y * @contrast / 16 +
 * @brightness, rounded down and clamped to 8 bits.
 */
struct pix_preview {
	unsigned int contrast;
	unsigned int brightness;
	unsigned int uyvy;
};

void pix_preview_line(const struct pix_preview *p, const u16 *above,
		      const u16 *line, const u16 *below, unsigned int y,
		      unsigned int width, u8 *out);

/**
 * struct pix_resizer - resizer: bilinear scaling of YUV 4:2:2
 * @in_w: input width
 * @in_h: input height
 * @out_w: output width
 * @out_h: output height
 * @hstep: input pixels per output pixel, Q16
 * @vstep: input lines per output line, Q16
 *
 * Output pixel (x, y) samples the input at ((x * step) >> 16) with the
 * fraction weighting the next pixel (Q8 after rounding down), luma and
 * chroma alike (chroma on its half-width grid). Output line y blends input
 * lines pix_resizer_src_line() and the one after it.
 */
struct pix_resizer {
	unsigned int in_w;
	unsigned int in_h;
	unsigned int out_w;
	unsigned int out_h;
	u32 hstep;
	u32 vstep;
};

void pix_resizer_prepare(struct pix_resizer *r);
unsigned int pix_resizer_src_line(const struct pix_resizer *r, unsigned int y);
void pix_resizer_line(const struct pix_resizer *r, unsigned int y,
		      const u8 *in0, const u8 *in1, u8 *out, u8 *tmp,
		      unsigned int uyvy);

/*
 * Statistics of the raw frame at the CCDC video port (n900_isp_stats.h):
 * *_init() for a frame of @width x @height, then one call per line.
 */
void pix_aewb_init(struct n900_isp_aewb *a, unsigned int width,
		   unsigned int height);
void pix_aewb_line(struct n900_isp_aewb *a, unsigned int y, const u16 *line);
void pix_af_init(struct n900_isp_af *af, unsigned int width,
		 unsigned int height);
void pix_af_line(struct n900_isp_af *af, unsigned int y, const u16 *line);
void pix_hist_init(struct n900_isp_hist *hs, unsigned int width,
		   unsigned int height);
void pix_hist_line(struct n900_isp_hist *hs, unsigned int y, const u16 *line);

#endif /* N900_ISP_PIXEL_H */
