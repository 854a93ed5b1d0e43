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
#include "n900_scene.h"
#include "isp_pixel_sensor.h"

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
	PIX_PATTERN_IMAGE,
};

/* The lens position (ad5820, 0..1023) at which the scene is sharp */
#define PIX_FOCUS_SHARP		512
/* Lens steps per pixel of blur radius */
#define PIX_FOCUS_STEP		32

/* the illuminant: a colour temperature in kelvin, neutral at 6500 K */
#define PIX_KELVIN_MIN		2000
#define PIX_KELVIN_MAX		10000
#define PIX_KELVIN_STEP		100
#define PIX_KELVIN_DEF		6500

/* blur radius limit, in pixels of the frame */
#define PIX_BLUR_MAX		16

/**
 * struct pix_image - a scene file (n900_scene.h), checked by
 *	pix_image_parse()
 * @width: pixels per row
 * @height: rows
 * @focus: the lens position at which it is sharp
 * @grey_x: the neutral patch, in scene pixels (@grey_w 0: none)
 * @grey_y: its top
 * @grey_w: its width
 * @grey_h: its height
 * @samples: @width x @height x 3 samples, R G B
 */
struct pix_image {
	unsigned int width;
	unsigned int height;
	unsigned int focus;
	unsigned int grey_x;
	unsigned int grey_y;
	unsigned int grey_w;
	unsigned int grey_h;
	const u16 *samples;
};

const char *pix_image_parse(const void *data, size_t size,
			    struct pix_image *img);
size_t pix_image_blur_size(const struct pix_image *img);

/**
 * struct pix_scene - what the sensor sees, and its per-frame tables
 * @width: frame width
 * @height: frame height
 * @pattern: enum pix_pattern
 * @exposure: exposure in lines; the scene's brightness is linear in it
 * @exposure_ref: the exposure of nominal brightness (the sensor's default)
 * @gain: analogue gain, Q4 added to 1.0 (0 = 1x, 16 = 2x)
 * @focus: lens position; blur grows with the distance to the scene's
 *	sharp position (PIX_FOCUS_SHARP, or the image's)
 * @image: the picture of %PIX_PATTERN_IMAGE (set with
 *	pix_scene_set_image()); without one, the synthetic scene
 * @kelvin: the illuminant's colour temperature (%PIX_PATTERN_IMAGE)
 * @noise: shot and read noise on (%PIX_PATTERN_IMAGE)
 * @seed: the noise generator's seed
 * @frame: the frame number, part of the noise generator's key
 * @scale: brightness scale, Q8, from @exposure and @gain
 * @blur: blur radius in pixels, from @focus
 * @tex: per column, the (blurred) texture of the focus target
 * @blurred: room for the blurred image, pix_image_blur_size() bytes (the
 *	caller's); NULL: images are not blurred
 * @src: the image samples a frame reads: @image's, or @blurred
 * @blur_img: the image @blurred holds, blurred by @blur_radius
 * @blur_radius: the radius of @blurred, in scene pixels
 * @emul: per channel (R, G, B), electrons of a full-scale sample
 * @direct: the image is at the frame's size: a pixel reads its own sample
 * @col: per column, the index of the scene column on its left in a row of
 *	samples (3 * column) << 8, and the weight of the next column, Q8
 * @shot: the shot noise's standard deviation, sqrt(charge) electrons in
 *	PIX_SHOT_Q, for each 1 << PIX_SHOT_STEP_SHIFT electrons of charge
 * @draw: the noise's draws, a shot and a read noise in each
 *	(isp_pixel_sensor.h)
 * @drawn: @draw is made
 * @charge: the cache's mean charges and shot sigmas
 *	(pix_scene_set_cache()), or NULL
 * @charge_line: the cache's generation of each line: a line's charges are
 *	valid when it is @charge_gen
 * @charge_gen: the generation of this frame's tables
 * @charge_src: the samples of the tables of @charge_gen
 * @charge_radius: their blur radius
 * @charge_emul: their electrons of a full-scale sample
 * @colsum: the blur's column sums
 */
struct pix_scene {
	unsigned int width;
	unsigned int height;
	unsigned int pattern;
	unsigned int exposure;
	unsigned int exposure_ref;
	unsigned int gain;
	unsigned int focus;
	const struct pix_image *image;
	unsigned int kelvin;
	unsigned int noise;
	u32 seed;
	u32 frame;
	/* computed by pix_scene_prepare() */
	u32 scale;
	unsigned int blur;
	s32 tex[PIX_MAX_WIDTH];
	u16 *blurred;
	const u16 *src;
	const struct pix_image *blur_img;
	unsigned int blur_radius;
	u32 emul[3];
	bool direct;
	u32 col[PIX_MAX_WIDTH];
	u16 shot[PIX_SHOT_TABLE];
	s16 draw[PIX_NOISE_DRAWS + PIX_MAX_WIDTH];
	bool drawn;
	u16 *charge;
	u32 *charge_line;
	u32 charge_gen;
	const u16 *charge_src;
	unsigned int charge_radius;
	u32 charge_emul[3];
	u32 colsum[PIX_MAX_WIDTH * 3];
};

void pix_scene_set_image(struct pix_scene *s, const struct pix_image *image,
			 u16 *blurred);
size_t pix_scene_cache_size(unsigned int width, unsigned int height);
void pix_scene_set_cache(struct pix_scene *s, void *cache);
void pix_scene_prepare(struct pix_scene *s);
void pix_sensor_line(const struct pix_scene *s, unsigned int y, u16 *out);
struct pix_noise_line;
bool pix_sensor_noise_prepare(const struct pix_scene *s, unsigned int y,
			      struct pix_noise_line *p);
void pix_noise_line_from(const struct pix_noise_line *p, u16 *out,
			 unsigned int width, unsigned int from);

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

/**
 * struct pix_line_chain - the line stages of a raw path, in their order
 * @ccdc: the CCDC's black level, or NULL
 * @lsc: then lens shading, or NULL
 * @wb: then white balance, or NULL
 */
struct pix_line_chain {
	const struct pix_ccdc *ccdc;
	const struct pix_lsc *lsc;
	const struct pix_wb *wb;
};

void pix_line_chain(const struct pix_line_chain *c, unsigned int y,
		    u16 *line, unsigned int width);

struct pix_chain_line;
void pix_line_chain_prepare(const struct pix_line_chain *c, unsigned int y,
			    u32 *col, struct pix_chain_line *p);
void pix_line_chain_from(const struct pix_chain_line *p, u16 *line,
			 unsigned int width, unsigned int from);

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

void pix_preview_lines(const struct pix_preview *p, const u16 *in,
		       size_t stride, unsigned int width, unsigned int height,
		       bool narrow, unsigned int y0, unsigned int y1, u8 *out,
		       size_t out_stride);

/*
 * The lines whose inner pairs pix_preview_lines() computed two pixels a
 * word: counted in the host build only, for tests/host/preview-line.c,
 * which checks that the loop ran where it should
 */
#ifdef __KERNEL__
static inline void pix_preview_count_words(void)
{
}
#else
extern unsigned long pix_preview_word_lines;

static inline void pix_preview_count_words(void)
{
	pix_preview_word_lines++;
}
#endif

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
/**
 * struct pix_resizer_fast - faster loops for part of a resizer line
 *	(pix_resizer_vblend_neon(), pix_resizer_hpairs_neon())
 * @vblend: the vertical blend of @n bytes of @in0 and @in1 into @tmp, by
 *	@f (Q8), from the start; returns how many bytes it did
 * @hpairs: the output pairs from column 0 to at most @end (even), all of
 *	whose lumas have a next input pixel, from the blended line @tmp;
 *	returns the column it stopped at, even
 */
struct pix_resizer_fast {
	unsigned int (*vblend)(const u8 *in0, const u8 *in1, u8 *tmp,
			       unsigned int n, unsigned int f);
	unsigned int (*hpairs)(const u8 *tmp, u8 *out, unsigned int end,
			       unsigned int hstep, unsigned int half,
			       unsigned int uyvy);
};

void pix_resizer_line(const struct pix_resizer *r, unsigned int y,
		      const u8 *in0, const u8 *in1, u8 *out, u8 *tmp,
		      unsigned int uyvy, const struct pix_resizer_fast *fast);

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
