// SPDX-License-Identifier: GPL-2.0
/*
 * isp_pixel.c - the pixel arithmetic of the emulated OMAP3 ISP
 *
 * One line at a time, integer math and per-frame tables only. Built into
 * the kernel module and, unchanged, into the host reference model
 * (tests/ref/isp-ref.c); see isp_pixel.h.
 */

#include "isp_pixel.h"
#include "isp_pixel_page.h"
#include "isp_pixel_neon.h"
#include "isp_pixel_words.h"

#ifdef __KERNEL__
#include <linux/build_bug.h>
#include <linux/string.h>
#include <linux/unaligned.h>
#else
#include <assert.h>
#include <string.h>

/* the host's: bytes in little-endian order, as the kernel's */
static inline u32 get_unaligned_le32(const void *p)
{
	const u8 *b = p;

	return b[0] | b[1] << 8 | b[2] << 16 | (u32)b[3] << 24;
}

static inline void put_unaligned_le32(u32 v, void *p)
{
	u8 *b = p;

	b[0] = v;
	b[1] = v >> 8;
	b[2] = v >> 16;
	b[3] = v >> 24;
}
#endif

static inline u32 pix_min(u32 a, u32 b)
{
	return a < b ? a : b;
}

/*
 * Two 16-bit samples of a line as one 32-bit load or store, the first
 * sample in the low half as on a little-endian CPU (the guest's armhf,
 * the host model's x86): most line loops take a Bayer pair a time
 */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "isp_pixel.c loads two 16-bit samples as one little-endian word"
#endif
static inline u32 pair_load(const u16 *p)
{
	return get_unaligned_le32(p);
}

static inline void pair_store(u16 *p, u32 s0, u32 s1)
{
	put_unaligned_le32(s0 | s1 << 16, p);
}

/* -----------------------------------------------------------------------------
 * Sensor
 *
 * The synthetic scene: a smooth colour background, a target of vertical
 * stripes (period 8) in the middle of the frame whose horizontal blur
 * follows the lens position, a vignetting falloff to 3/8 in the corners,
 * and a brightness linear in exposure and analogue gain.
 */

#define SCENE_TEX_AMPLITUDE	160
#define SCENE_VIGNETTE		160	/* Q8 lost in the corners */
#define BARS_ON			767
#define BARS_OFF		64

/* colour bars: white, yellow, cyan, green, magenta, red, blue, black */
static const u8 bars_rgb[8] = { 7, 6, 3, 2, 5, 4, 1, 0 };

/* -----------------------------------------------------------------------------
 * Scene images and the physical sensor
 */

/* a little-endian 16-bit field of a file, whatever the CPU */
static inline unsigned int le16_at(const u8 *p, unsigned int off)
{
	return p[off] | p[off + 1] << 8;
}

/**
 * pix_image_parse() - check a scene file and describe it
 * @data: the file (n900_scene.h), 2-byte aligned
 * @size: its size in bytes
 * @img: filled in when it is a valid scene
 *
 * The samples are read in place, as the CPU's 16-bit words: the guest (ARM)
 * and the host model (x86) are both little-endian, as the file is.
 *
 * Return: NULL, or what is wrong with the file.
 */
const char *pix_image_parse(const void *data, size_t size,
			    struct pix_image *img)
{
	const u8 *p = data;
	unsigned int hs, w, h;

	if (size < sizeof(struct n900_scene_header))
		return "shorter than a scene header";
	if ((u32)(le16_at(p, 0) | le16_at(p, 2) << 16) != N900_SCENE_MAGIC)
		return "no N9SC magic: not a scene file";
	if (le16_at(p, 4) != N900_SCENE_VERSION)
		return "a scene file of another version than 1";
	hs = le16_at(p, 6);
	w = le16_at(p, 8);
	h = le16_at(p, 10);
	if (hs < sizeof(struct n900_scene_header) || (hs & 1))
		return "a header size below 32 bytes, or odd";
	if (w < 2 || h < 2 || w > N900_SCENE_MAX_SIZE || h > N900_SCENE_MAX_SIZE)
		return "a size outside 2x2..4096x4096";
	if (le16_at(p, 12) != N900_SCENE_BITS ||
	    le16_at(p, 14) != N900_SCENE_CHANNELS)
		return "not 3 channels of 16 bits";
	if (size < hs || size - hs != (size_t)w * h * N900_SCENE_CHANNELS * 2)
		return "a file size that does not match its header";
	img->width = w;
	img->height = h;
	img->focus = le16_at(p, 16);
	img->grey_x = le16_at(p, 18);
	img->grey_y = le16_at(p, 20);
	img->grey_w = le16_at(p, 22);
	img->grey_h = le16_at(p, 24);
	if (img->focus > 1023)
		return "an in-focus lens position past 1023";
	if (img->grey_x + img->grey_w > w || img->grey_y + img->grey_h > h)
		return "a neutral patch outside the picture";
	img->samples = (const u16 *)(p + hs);
	return NULL;
}

/**
 * pix_image_blur_size() - the room a blurred copy of an image takes
 * @img: the image
 *
 * Return: the size of &pix_scene.blurred for @img, in bytes.
 */
size_t pix_image_blur_size(const struct pix_image *img)
{
	return (size_t)img->width * img->height * N900_SCENE_CHANNELS *
	       sizeof(u16);
}

/*
 * The number of 16-bit values the charge cache keeps for a frame line of
 * @width pixels: the mean charge of each pixel, then the shot sigma of
 * each, each run padded to an even length so that both start on 32 bits
 * (cache_sigma())
 */
static inline size_t pix_charge_line_len(unsigned int width)
{
	return 2 * (size_t)(width + (width & 1));
}

/**
 * pix_scene_set_image() - give a scene its picture
 * @s: the scene
 * @image: the picture, or NULL (the Image pattern then renders the
 *	synthetic scene)
 * @blurred: pix_image_blur_size() bytes for the blurred copy, or NULL
 *	(the picture is then never blurred)
 *
 * Call it whenever the picture or @blurred changes: it forgets the blurred
 * copy, which pix_scene_prepare() computes again.
 */
void pix_scene_set_image(struct pix_scene *s, const struct pix_image *image,
			 u16 *blurred)
{
	s->image = image;
	s->blurred = blurred;
	s->blur_img = NULL;
	s->blur_radius = 0;
	/* a new picture may have the old one's address */
	s->charge_src = NULL;
}

/* murmur3's finaliser: a counter-based generator, no state between calls */
static inline u32 pix_hash(u32 h)
{
	h ^= h >> 16;
	h *= 0x85ebca6b;
	h ^= h >> 13;
	h *= 0xc2b2ae35;
	h ^= h >> 16;
	return h;
}

/*
 * The standard normal distribution's quantiles at (i + 0.5) / 256, Q12: a
 * byte of the generator picks one, an about normal value (standard
 * deviation 0.9975, tails at +-2.89)
 */
static const s16 pix_normal[256] = {
	-11820, -10324, -9565, -9038, -8628, -8290, -8001, -7746,
	-7519, -7312, -7123, -6948, -6784, -6631, -6486, -6350,
	-6219, -6095, -5977, -5863, -5753, -5647, -5545, -5447,
	-5351, -5258, -5168, -5080, -4995, -4912, -4830, -4751,
	-4673, -4597, -4523, -4450, -4378, -4307, -4238, -4170,
	-4104, -4038, -3973, -3910, -3847, -3785, -3724, -3664,
	-3604, -3545, -3487, -3430, -3374, -3318, -3262, -3207,
	-3153, -3100, -3046, -2994, -2942, -2890, -2839, -2788,
	-2738, -2688, -2638, -2589, -2540, -2492, -2444, -2396,
	-2348, -2301, -2255, -2208, -2162, -2116, -2070, -2025,
	-1979, -1935, -1890, -1845, -1801, -1757, -1713, -1669,
	-1626, -1583, -1539, -1497, -1454, -1411, -1369, -1326,
	-1284, -1242, -1200, -1158, -1117, -1075, -1034, -992,
	-951, -910, -869, -828, -787, -746, -705, -665,
	-624, -584, -543, -503, -462, -422, -382, -341,
	-301, -261, -221, -181, -140, -100, -60, -20,
	20, 60, 100, 140, 181, 221, 261, 301,
	341, 382, 422, 462, 503, 543, 584, 624,
	665, 705, 746, 787, 828, 869, 910, 951,
	992, 1034, 1075, 1117, 1158, 1200, 1242, 1284,
	1326, 1369, 1411, 1454, 1497, 1539, 1583, 1626,
	1669, 1713, 1757, 1801, 1845, 1890, 1935, 1979,
	2025, 2070, 2116, 2162, 2208, 2255, 2301, 2348,
	2396, 2444, 2492, 2540, 2589, 2638, 2688, 2738,
	2788, 2839, 2890, 2942, 2994, 3046, 3100, 3153,
	3207, 3262, 3318, 3374, 3430, 3487, 3545, 3604,
	3664, 3724, 3785, 3847, 3910, 3973, 4038, 4104,
	4170, 4238, 4307, 4378, 4450, 4523, 4597, 4673,
	4751, 4830, 4912, 4995, 5080, 5168, 5258, 5351,
	5447, 5545, 5647, 5753, 5863, 5977, 6095, 6219,
	6350, 6486, 6631, 6784, 6948, 7123, 7312, 7519,
	7746, 8001, 8290, 8628, 9038, 9565, 10324, 11820,
};

static u32 pix_isqrt(u32 v)
{
	u32 r = 0, bit = 1U << 30;

	while (bit > v)
		bit >>= 2;
	while (bit) {
		if (v >= r + bit) {
			v -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
		bit >>= 2;
	}
	return r;
}

/*
 * R and B of a white surface relative to G, Q12, under a black body from
 * 2000 K to 10000 K in steps of 500 K (Planck's law at 600, 540 and 460
 * nm), normalised to 1.0 at 6500 K.
 */
#define PIX_KELVIN_STEPS	17

static const u16 kelvin_r[PIX_KELVIN_STEPS] = {
	10211, 7824, 6552, 5773, 5253, 4883, 4608, 4397, 4230,
	4096, 3986, 3894, 3817, 3751, 3694, 3644, 3601,
};

static const u16 kelvin_b[PIX_KELVIN_STEPS] = {
	831, 1321, 1799, 2242, 2644, 3004, 3326, 3613, 3868,
	4096, 4300, 4482, 4646, 4794, 4927, 5048, 5158,
};

/* the illuminant's gain on channel @c (0 R, 1 G, 2 B), Q12 */
static u32 kelvin_gain(unsigned int kelvin, unsigned int c)
{
	const u16 *t = c ? kelvin_b : kelvin_r;
	unsigned int k, i, f;

	if (c == 1)
		return 4096;
	k = kelvin < PIX_KELVIN_MIN ? PIX_KELVIN_MIN :
	    kelvin > PIX_KELVIN_MAX ? PIX_KELVIN_MAX : kelvin;
	k -= PIX_KELVIN_MIN;
	i = k / 500;
	f = k % 500;
	if (i >= PIX_KELVIN_STEPS - 1)
		return t[PIX_KELVIN_STEPS - 1];
	return (t[i] * (500 - f) + t[i + 1] * f + 250) / 500;
}

static inline unsigned int clamp_index(int i, unsigned int n)
{
	return i < 0 ? 0 : i >= (int)n ? n - 1 : (unsigned int)i;
}

/*
 * A box blur of radius @r scene pixels (edges repeated) of s->image into
 * s->blurred: the columns, with running sums of whole rows, then each row
 * from a copy of it in s->colsum.
 */
static void blur_image(struct pix_scene *s, unsigned int r)
{
	const struct pix_image *img = s->image;
	unsigned int sw = img->width, sh = img->height, row = sw * 3;
	u32 inv = 65536 / (2 * r + 1), *cs = s->colsum;
	const u16 *src = img->samples;
	u16 *dst = s->blurred;
	unsigned int x, y, k, c;
	int j;

	for (k = 0; k < row; k++)
		cs[k] = 0;
	for (j = -(int)r; j <= (int)r; j++) {
		const u16 *in = src + (size_t)clamp_index(j, sh) * row;

		for (k = 0; k < row; k++)
			cs[k] += in[k];
	}
	for (y = 0; y < sh; y++) {
		const u16 *add = src + (size_t)clamp_index((int)(y + r + 1), sh) * row;
		const u16 *sub = src + (size_t)clamp_index((int)y - (int)r, sh) * row;
		u16 *out = dst + (size_t)y * row;

		for (k = 0; k < row; k++) {
			out[k] = ((u64)cs[k] * inv) >> 16;
			cs[k] += add[k] - sub[k];
		}
	}

	for (y = 0; y < sh; y++) {
		u16 *line = dst + (size_t)y * row;

		for (k = 0; k < row; k++)
			cs[k] = line[k];
		for (c = 0; c < 3; c++) {
			u32 sum = 0;

			for (j = -(int)r; j <= (int)r; j++)
				sum += cs[3 * clamp_index(j, sw) + c];
			for (x = 0; x < sw; x++) {
				line[3 * x + c] = ((u64)sum * inv) >> 16;
				sum += cs[3 * clamp_index((int)(x + r + 1), sw) + c];
				sum -= cs[3 * clamp_index((int)x - (int)r, sw) + c];
			}
		}
	}
	s->blur_img = img;
	s->blur_radius = r;
}

/*
 * A frame coordinate's place on the scene's grid of @n samples: @pos, Q16,
 * the centre already shifted by half a sample; the sample on its left in
 * *@i and the next one's weight, Q8, in *@f (0 at the last sample)
 */
static inline void scene_grid(s32 pos, unsigned int n, unsigned int *i,
			      unsigned int *f)
{
	if (pos < 0)
		pos = 0;
	*i = pos >> 16;
	*f = (pos >> 8) & 0xff;
	if (*i >= n - 1) {
		*i = n - 1;
		*f = 0;
	}
}

/* the Image pattern's per-frame tables */
static void scene_prepare_image(struct pix_scene *s)
{
	const struct pix_image *img = s->image;
	unsigned int w = s->width, sw = img->width, x, c, i, dist, r;
	u32 step = ((u32)sw << 16) / w, t;

	/* the blur, in frame pixels, then in the scene's */
	dist = s->focus > img->focus ? s->focus - img->focus :
				       img->focus - s->focus;
	r = pix_min(dist / PIX_FOCUS_STEP, PIX_BLUR_MAX);
	r = (r * sw + w / 2) / w;
	if (!r || !s->blurred) {
		s->src = img->samples;
	} else {
		if (s->blur_img != img || s->blur_radius != r)
			blur_image(s, r);
		s->src = s->blurred;
	}

	/* electrons of a full-scale sample: exposure, then the illuminant */
	t = pix_min(s->exposure, 65535) * PIX_FULL_WELL /
	    (s->exposure_ref ? s->exposure_ref : 1);
	t = pix_min(t, 1U << 18);
	for (c = 0; c < 3; c++)
		s->emul[c] = pix_min((t * kelvin_gain(s->kelvin, c)) >> 12,
				     65535);

	/*
	 * the cached charges are this frame's when the samples, their blur
	 * and the electrons are the last frame's; a new generation otherwise
	 */
	if (s->charge_src != s->src || s->charge_radius != s->blur_radius ||
	    s->charge_emul[0] != s->emul[0] || s->charge_emul[1] != s->emul[1] ||
	    s->charge_emul[2] != s->emul[2]) {
		if (!++s->charge_gen) {
			for (i = 0; s->charge_line && i < s->height; i++)
				s->charge_line[i] = 0;
			s->charge_gen = 1;
		}
		s->charge_src = s->src;
		s->charge_radius = s->blur_radius;
		for (c = 0; c < 3; c++)
			s->charge_emul[c] = s->emul[c];
	}

	/*
	 * bilinear: each pixel's centre on the scene's grid; at the scene's
	 * own size, the pixel is the scene's (s->direct)
	 */
	s->direct = w == sw && s->height == img->height;
	for (x = 0; x < w; x++) {
		unsigned int ix, f;

		scene_grid((s32)(x * step + step / 2) - 32768, sw, &ix, &f);
		s->col[x] = (3 * ix) << 8 | f;
	}

	/*
	 * the shot noise's sigmas, once: sqrt(charge) at the middle of each
	 * step, rounded (with one more bit, then halved)
	 */
	if (!s->shot[PIX_SHOT_TABLE - 1]) {
		for (i = 0; i < PIX_SHOT_TABLE; i++)
			s->shot[i] = (pix_isqrt(((i << PIX_SHOT_STEP_SHIFT) + 2) <<
						(2 * PIX_SHOT_Q + 2)) + 1) >> 1;
	}
	/*
	 * the draws, once, when the noise is first on: a byte of a hash of
	 * the draw's number picks a normal quantile for the shot part,
	 * another for the read part, each over sqrt(2); the last
	 * PIX_MAX_WIDTH are the first again
	 */
	if (s->noise && !s->drawn) {
		for (i = 0; i < PIX_NOISE_DRAWS + PIX_MAX_WIDTH; i++) {
			u32 h = pix_hash((i % PIX_NOISE_DRAWS + 1) *
					 0x9e3779b9U);
			s32 n0 = pix_normal[h & 0xff];
			s32 n1 = pix_normal[(h >> 8) & 0xff];
			s32 shot = (n0 * PIX_NOISE_HALF +
				    (1 << (23 - PIX_DRAW_SHOT_Q))) >>
				   (24 - PIX_DRAW_SHOT_Q);
			s32 read = (n1 * PIX_READ_NOISE * PIX_NOISE_HALF +
				    (1 << 23)) >> 24;

			s->draw[i] = shot * (1 << PIX_DRAW_READ_BITS) + read;
		}
		s->drawn = true;
	}
}

/*
 * One channel of the scene at a pixel: bilinear from two scene rows; @col
 * is the pixel's entry of s->col (the left scene column, times 3, << 8,
 * and the right one's weight), the right column the next.
 */
static __always_inline u32 image_sample(const u16 *r0, const u16 *r1,
					unsigned int fy, u32 col)
{
	unsigned int f = col & 0xff, i = col >> 8;
	u32 v = r0[i], v1;

	if (f)
		v = (v * (256 - f) + r0[i + 3] * f) >> 8;
	if (!fy)
		return v;
	v1 = r1[i];
	if (f)
		v1 = (v1 * (256 - f) + r1[i + 3] * f) >> 8;
	return (v * (256 - fy) + v1 * fy) >> 8;
}

/*
 * The mean charge of a pixel, noise aside: its channel's scene sample, in
 * electrons of a full-scale sample (@emul), times the vignetting (from
 * the pixel's distance to the optical centre, with @dy2 its line's part).
 */
static __always_inline u32 image_charge(const struct pix_scene *s,
					const u16 *r0, const u16 *r1,
					unsigned int fy, unsigned int x,
					unsigned int c, u32 emul, u32 dy2,
					u32 vk, bool direct)
{
	s32 dx = (s32)x - (s32)(s->width / 2);
	u32 v, vig;

	if (direct)
		v = r0[3 * x + c];
	else
		v = image_sample(r0 + c, r1 + c, fy, s->col[x]);
	vig = 256 - (((((u32)(dx * dx) >> 4) + dy2) * vk) >> 16);
	return (((v * emul) >> 16) * vig) >> 8;
}

/* the shot noise's standard deviation at mean charge @e, PIX_SHOT_Q */
static __always_inline u32 shot_sigma(const struct pix_scene *s, u32 e)
{
	return s->shot[pix_min(e >> PIX_SHOT_STEP_SHIFT, PIX_SHOT_TABLE - 1)];
}

/*
 * The bounds isp_pixel_sensor.h states: the shot noise, at most two
 * draws' shot parts times the largest sigma, fits 16 bits and cannot
 * bring a charge kept as PIX_CHARGE_MAX back under the full well
 * (tests/host/sensor-noise.c checks the tables against them)
 */
static_assert(2 * PIX_DRAW_SHOT_MAX * PIX_SHOT_SIGMA_MAX < 32768);
static_assert(((2 * PIX_DRAW_SHOT_MAX * PIX_SHOT_SIGMA_MAX +
		(1 << (PIX_DRAW_SHOT_Q + PIX_SHOT_Q - 1))) >>
	       (PIX_DRAW_SHOT_Q + PIX_SHOT_Q)) < PIX_CHARGE_MAX - PIX_FULL_WELL);

/*
 * One pixel through the physical sensor, from its mean charge @e: the
 * shot noise (@sigma: shot_sigma() of @e, times the shot part of @d, the
 * sum of two draws), the full well, the read noise (@d's read part), the
 * gain and the ADC. pix_noise_line_neon() does the same in 16-bit lanes.
 */
static __always_inline u16 sensor_pixel(s32 e, u32 sigma, u32 gmul, s32 d,
					bool noise)
{
	s32 dn, r, n;

	if (noise) {
		/* @d's low PIX_DRAW_READ_BITS bits, signed, then the rest */
		r = ((d & ((1 << PIX_DRAW_READ_BITS) - 1)) ^
		     (1 << (PIX_DRAW_READ_BITS - 1))) -
		    (1 << (PIX_DRAW_READ_BITS - 1));
		n = (d - r) >> PIX_DRAW_READ_BITS;
		e += (n * (s32)sigma + (1 << (PIX_DRAW_SHOT_Q + PIX_SHOT_Q - 1))) >>
		     (PIX_DRAW_SHOT_Q + PIX_SHOT_Q);
		if (e < 0)
			e = 0;
	}
	if (e > PIX_FULL_WELL)
		e = PIX_FULL_WELL;
	if (noise)
		e += r;
	dn = PIX_PEDESTAL + ((e * (s32)gmul + (1 << (PIX_CONV_SHIFT - 1))) >>
			     PIX_CONV_SHIFT);
	return dn < 0 ? 0 : pix_min(dn, PIX_RAW_MAX);
}

/* the start of a line's shot sigmas in its run of the charge cache */
static inline u16 *cache_sigma(u16 *cache, unsigned int width)
{
	return cache + width + (width & 1);
}

/*
 * The windows of line @y's noise draws: two offsets into s->draw, from a
 * hash of the seed, the frame and the line, so that a line's noise is the
 * same whichever CPU renders it; the second at least PIX_MAX_WIDTH from
 * the first either way round the table, so that a pixel's two draws are
 * never another pixel's of the same line
 */
static void noise_windows(const struct pix_scene *s, unsigned int y,
			  struct pix_noise_line *p)
{
	u32 h = pix_hash(pix_hash(pix_hash(s->seed) + s->frame) + y);
	unsigned int a = h % PIX_NOISE_DRAWS;
	unsigned int b = (a + PIX_MAX_WIDTH +
			  (h >> 16) % (PIX_NOISE_DRAWS - 2 * PIX_MAX_WIDTH)) %
			 PIX_NOISE_DRAWS;

	p->draw[0] = s->draw + a;
	p->draw[1] = s->draw + b;
}

/*
 * Line @y's noise from its run @cache of the charge cache: its charges,
 * its sigmas, its windows of draws and the gain
 */
static void noise_line_init(const struct pix_scene *s, unsigned int y,
			    u16 *cache, struct pix_noise_line *p)
{
	p->charge = cache;
	p->sigma = cache_sigma(cache, s->width);
	p->gmul = 16 + s->gain;
	noise_windows(s, y, p);
}

/* the sum of a pixel's two draws in windows @w */
static inline s32 noise_draw(const s16 *const *w, unsigned int x)
{
	return w[0][x] + w[1][x];
}

/*
 * A line of the Image pattern through the physical sensor; @noise and
 * @direct (the scene at the frame's size: no interpolation) are constants
 * in each call of image_line_noise() and image_line_clean(), so that the
 * compiler drops what they skip. A line whose mean charges (and their
 * shot sigmas) the cache holds for this frame's tables
 * (pix_scene_set_cache()) reads them; another computes them and leaves
 * them there.
 */
static __always_inline void image_line(const struct pix_scene *s,
				       unsigned int y, u16 *out, bool noise,
				       bool direct)
{
	const struct pix_image *img = s->image;
	unsigned int w = s->width, h = s->height, sh = img->height, x;
	unsigned int row = img->width * 3, iy, fy;
	u32 step = ((u32)sh << 16) / h, gmul = 16 + s->gain;
	s32 pos = (s32)(y * step + step / 2) - 32768;
	s32 cy = h / 2, dy = (s32)y - cy;
	u32 dy2 = (u32)(dy * dy) >> 4;
	u32 r2max = ((u32)(w / 2) * (w / 2) + (u32)cy * cy) >> 4;
	u32 vk = (SCENE_VIGNETTE << 16) / (r2max ? r2max : 1);
	/* the channels of even and odd columns: G R on even lines, B G on odd */
	unsigned int c0 = y & 1 ? 2 : 1, c1 = y & 1 ? 1 : 0;
	u32 e0 = s->emul[c0], e1 = s->emul[c1];
	u16 *cache = s->charge ? s->charge + y * pix_charge_line_len(w) : NULL;
	u16 *sigs;
	struct pix_noise_line p;
	const u16 *r0, *r1;

	if (cache && s->charge_line[y] == s->charge_gen) {
		if (noise) {
			noise_line_init(s, y, cache, &p);
			pix_noise_line_from(&p, out, w, 0);
			return;
		}
		/* the charges alone, a pair a time */
		for (x = 0; x + 1 < w; x += 2) {
			u32 e = pair_load(cache + x);

			pair_store(out + x,
				   sensor_pixel(e & 0xffff, 0, gmul, 0, false),
				   sensor_pixel(e >> 16, 0, gmul, 0, false));
		}
		if (x < w)	/* an odd width's last pixel */
			out[x] = sensor_pixel(cache[x], 0, gmul, 0, false);
		return;
	}

	if (noise)
		noise_windows(s, y, &p);
	sigs = cache ? cache_sigma(cache, w) : NULL;
	scene_grid(pos, sh, &iy, &fy);
	r0 = s->src + (size_t)iy * row;
	r1 = fy ? r0 + row : r0;
	for (x = 0; x < w; x++) {
		unsigned int odd = x & 1;
		u32 e = pix_min(image_charge(s, r0, r1, fy, x, odd ? c1 : c0,
					     odd ? e1 : e0, dy2, vk, direct),
				PIX_CHARGE_MAX);
		u32 sig = shot_sigma(s, e);

		if (cache) {
			cache[x] = e;
			sigs[x] = sig;
		}
		out[x] = sensor_pixel(e, sig, gmul,
				      noise ? noise_draw(p.draw, x) : 0, noise);
	}
	if (cache)
		s->charge_line[y] = s->charge_gen;
}

/* image_line() with the sensor's noise, and without: a page each */
static noinline PIX_OWN_PAGE void image_line_noise(const struct pix_scene *s,
						   unsigned int y, u16 *out)
{
	if (s->direct)
		image_line(s, y, out, true, true);
	else
		image_line(s, y, out, true, false);
}

static noinline PIX_OWN_PAGE void image_line_clean(const struct pix_scene *s,
						   unsigned int y, u16 *out)
{
	if (s->direct)
		image_line(s, y, out, false, true);
	else
		image_line(s, y, out, false, false);
}

static void sensor_image_line(const struct pix_scene *s, unsigned int y,
			      u16 *out)
{
	if (s->noise)
		image_line_noise(s, y, out);
	else
		image_line_clean(s, y, out);
}

/**
 * pix_sensor_noise_prepare() - a cached line's noise, for the NEON loop
 * @s: the scene, prepared for this frame by pix_scene_prepare()
 * @y: the line, below @s->height
 * @p: set to the line's charges, sigmas, draws and gain
 *
 * Return: true when line @y is of the Image pattern with noise and its
 * charges are in the cache for this frame's tables: pix_noise_line_neon()
 * then renders it from @p, pix_noise_line_from() the rest. False
 * otherwise: pix_sensor_line() renders it.
 */
bool pix_sensor_noise_prepare(const struct pix_scene *s, unsigned int y,
			      struct pix_noise_line *p)
{
	if (s->pattern != PIX_PATTERN_IMAGE || !s->image || !s->noise ||
	    !s->charge || s->charge_line[y] != s->charge_gen)
		return false;
	noise_line_init(s, y, s->charge + y * pix_charge_line_len(s->width),
			p);
	return true;
}

/**
 * pix_noise_line_from() - a cached line with noise, from a column on
 * @p: the line (pix_sensor_noise_prepare())
 * @out: the line's @width samples
 * @width: the frame's width
 * @from: the first column to render (pix_noise_line_neon()'s return)
 *
 * A Bayer pair a time: its charges, its sigmas and its draws in each
 * window are a 32-bit load each.
 */
PIX_OWN_PAGE void pix_noise_line_from(const struct pix_noise_line *p,
				      u16 *out, unsigned int width,
				      unsigned int from)
{
	const u16 *da = (const u16 *)p->draw[0], *db = (const u16 *)p->draw[1];
	u32 g = p->gmul;
	unsigned int x;

	for (x = from; x + 1 < width; x += 2) {
		u32 e = pair_load(p->charge + x), sig = pair_load(p->sigma + x);
		u32 a = pair_load(da + x), b = pair_load(db + x);

		pair_store(out + x,
			   sensor_pixel(e & 0xffff, sig & 0xffff, g,
					(s16)a + (s16)b, true),
			   sensor_pixel(e >> 16, sig >> 16, g,
					(s16)(a >> 16) + (s16)(b >> 16), true));
	}
	if (x < width)	/* an odd width's last pixel */
		out[x] = sensor_pixel(p->charge[x], p->sigma[x], g,
				      noise_draw(p->draw, x), true);
}

/**
 * pix_scene_cache_size() - the room of a scene's charge cache
 * @width: the frame's width
 * @height: its height
 *
 * Return: the size of the cache pix_scene_set_cache() takes, in bytes: a
 * mean charge and its shot noise's sigma (16 bits each) for each pixel,
 * and a generation for each line.
 */
size_t pix_scene_cache_size(unsigned int width, unsigned int height)
{
	return (size_t)height * sizeof(u32) +
	       pix_charge_line_len(width) * height * sizeof(u16);
}

/**
 * pix_scene_set_cache() - give a scene the room to keep its charges
 * @s: the scene, its width and height set
 * @cache: pix_scene_cache_size() bytes for @s's size, or NULL (every line
 *	is then computed every frame)
 *
 * The Image pattern's mean charge of a pixel (scene, exposure, illuminant,
 * vignetting, lens: everything but the noise) is the same from frame to
 * frame until one of them changes: a line keeps its charges, and the shot
 * noise's standard deviation at each, in @cache and the next frame's line
 * reads them, as long as pix_scene_prepare() finds the same tables. The
 * frames are the same with or without a cache.
 */
void pix_scene_set_cache(struct pix_scene *s, void *cache)
{
	unsigned int y;

	s->charge_line = cache;
	s->charge = cache ? (u16 *)(s->charge_line + s->height) : NULL;
	for (y = 0; cache && y < s->height; y++)
		s->charge_line[y] = 0;
	s->charge_gen = 1;
	s->charge_src = NULL;
}

/**
 * pix_scene_prepare() - the per-frame tables of a scene, from its controls
 * @s: the scene, its controls set
 *
 * Called once a frame, before the frame's pix_sensor_line() calls (which
 * may then run on several CPUs at once, see there). For an image, the
 * blurred copy is computed again only when the image or the blur radius
 * changed.
 */
void pix_scene_prepare(struct pix_scene *s)
{
	unsigned int w = s->width, x, b, dist;
	s32 sum = 0;

	s->scale = s->exposure * (16 + s->gain) * 16 /
		   (s->exposure_ref ? s->exposure_ref : 1);
	dist = s->focus > PIX_FOCUS_SHARP ? s->focus - PIX_FOCUS_SHARP :
					    PIX_FOCUS_SHARP - s->focus;
	s->blur = pix_min(dist / PIX_FOCUS_STEP, 16);

	for (x = 0; x < w; x++) {
		/* the stripes, before blurring, kept in tex for now */
		s->tex[x] = x >= w / 4 && x < 3 * w / 4 ?
			    ((x >> 2) & 1 ? SCENE_TEX_AMPLITUDE :
					    -SCENE_TEX_AMPLITUDE) : 0;
	}

	/*
	 * Box blur of radius b, zero outside the frame, in place: a running
	 * sum over [x - b, x + b], with the inputs it still needs (from
	 * x - b - 1 on) in a ring, since tex[] is overwritten behind x.
	 */
	if (s->pattern == PIX_PATTERN_IMAGE && s->image)
		scene_prepare_image(s);
	b = s->blur;
	if (!b)
		return;
	{
		s32 ring[2 * 16 + 2];
		unsigned int n = 2 * b + 1, r = n + 1, k;

		for (k = 0; k < b && k < w; k++) {
			ring[k % r] = s->tex[k];
			sum += s->tex[k];
		}
		for (x = 0; x < w; x++) {
			s32 add = x + b < w ? s->tex[x + b] : 0;

			ring[(x + b) % r] = add;
			sum += add;
			if (x >= b + 1)
				sum -= ring[(x - b - 1) % r];
			s->tex[x] = sum / (s32)n;
		}
	}
}

/* 10-bit value of a colour bar's component for one Bayer site */
static u16 bars_sample(unsigned int bar, unsigned int site)
{
	unsigned int rgb = bars_rgb[bar & 7], bit;

	bit = site == PIX_R ? 4 : site == PIX_B ? 1 : 2;
	return rgb & bit ? BARS_ON : BARS_OFF;
}

/*
 * A pixel of the synthetic scene: its value @v, vignetted and exposed
 * (@scale is the scene's); @dx is its column's distance to the centre.
 */
static __always_inline u32 synthetic_pixel(u32 scale, s32 v, s32 dx, u32 dy2,
					   u32 vk)
{
	u32 vig, t;

	if (v < 0)
		v = 0;
	vig = 256 - (((((u32)(dx * dx) >> 4) + dy2) * vk) >> 16);
	t = ((u32)v * vig) >> 8;
	return pix_min((t * scale) >> 8, PIX_RAW_MAX);
}

/**
 * struct synthetic_line - the synthetic scene's constants of one line
 * @cx: the centre column
 * @dy2: the line's part of the squared distance to the centre, >> 4
 * @vk: the vignetting's scale, Q16
 * @rstep: R's ramp a column, Q16
 * @bstep: B's ramp a column, Q16
 * @g: G on this line
 * @tex: the target's texture, or NULL outside its lines
 */
struct synthetic_line {
	s32 cx;
	u32 dy2;
	u32 vk;
	u32 rstep;
	u32 bstep;
	s32 g;
	const s32 *tex;
};

static void synthetic_line_init(const struct pix_scene *s, unsigned int y,
				struct synthetic_line *l)
{
	unsigned int w = s->width, h = s->height;
	s32 cy = h / 2, dy = (s32)y - cy;
	u32 r2max = ((u32)(w / 2) * (w / 2) + (u32)cy * cy) >> 4;

	l->cx = w / 2;
	l->dy2 = (u32)(dy * dy) >> 4;
	l->vk = (SCENE_VIGNETTE << 16) / (r2max ? r2max : 1);
	l->rstep = (400 << 16) / w;
	l->bstep = (300 << 16) / w;
	l->g = 300 + 300 * (s32)y / (s32)h;
	l->tex = y >= h / 4 && y < 3 * h / 4 ? s->tex : NULL;
}

/*
 * The synthetic scene's line for an even width, a Bayer pair a time, one
 * store a pair. On @odd lines (B Gb) B is 500 - ramp at the even columns,
 * on the others (Gr R) R is 200 + ramp at the odd ones, the ramp being
 * (column * @step) >> 16; G is @g. @tex, when not NULL, adds the target's
 * texture. Every value the loop needs stays in a register, the columns
 * and the ramp advancing by addition.
 */
static __always_inline void synthetic_pairs(u16 *out, unsigned int w,
					    const s32 *tex, s32 cx, u32 dy2,
					    u32 vk, u32 scale, s32 g,
					    u32 step, bool odd)
{
	u32 ramp = odd ? 0 : step, step2 = 2 * step;
	u16 *end = out + w;
	s32 dx = -cx;

	for (; out < end; out += 2, dx += 2, ramp += step2) {
		s32 v0, v1;

		if (odd) {
			v0 = 500 - (s32)(ramp >> 16);
			v1 = g;
		} else {
			v0 = g;
			v1 = 200 + (s32)(ramp >> 16);
		}
		if (tex) {
			v0 += tex[0];
			v1 += tex[1];
			tex += 2;
		}
		put_unaligned_le32(synthetic_pixel(scale, v0, dx, dy2, vk) |
				   synthetic_pixel(scale, v1, dx + 1, dy2, vk) << 16,
				   out);
	}
}

/*
 * The synthetic scene's line for an even width: the samples of
 * pix_sensor_line()'s per-pixel loop (odd widths), a Bayer pair a time
 * (Gr R on even lines, B Gb on odd ones)
 */
static noinline PIX_OWN_PAGE void synthetic_line_pairs(const struct pix_scene *s,
						       unsigned int y, u16 *out)
{
	struct synthetic_line l;

	synthetic_line_init(s, y, &l);
	if (y & 1)
		synthetic_pairs(out, s->width, l.tex, l.cx, l.dy2, l.vk,
				s->scale, l.g, l.bstep, true);
	else
		synthetic_pairs(out, s->width, l.tex, l.cx, l.dy2, l.vk,
				s->scale, l.g, l.rstep, false);
}

/**
 * pix_sensor_line() - one line of the sensor's frame
 * @s: the scene, prepared for this frame by pix_scene_prepare()
 * @y: the line, below @s->height
 * @out: @s->width samples, 10 bits
 *
 * Calls for different lines of one frame may run on several CPUs at once,
 * between two pix_scene_prepare() calls: each reads @s, and writes only
 * its own line of the Image pattern's charge cache (pix_scene_set_cache()).
 */
void pix_sensor_line(const struct pix_scene *s, unsigned int y, u16 *out)
{
	unsigned int w = s->width, x;

	switch (s->pattern) {
	case PIX_PATTERN_BARS:
		for (x = 0; x < w; x++)
			out[x] = bars_sample(x * 8 / w, pix_site(x, y));
		return;
	case PIX_PATTERN_GRADIENT: {
		u32 step = w > 1 ? (PIX_RAW_MAX << 16) / (w - 1) : 0;

		for (x = 0; x < w; x++)
			out[x] = pix_min((x * step + 0x8000) >> 16, PIX_RAW_MAX);
		return;
	}
	case PIX_PATTERN_IMAGE:
		if (s->image) {
			sensor_image_line(s, y, out);
			return;
		}
		break;
	default:
		break;
	}

	if (!(w & 1)) {
		synthetic_line_pairs(s, y, out);
		return;
	}
	{
		struct synthetic_line l;
		s32 v;

		synthetic_line_init(s, y, &l);
		for (x = 0; x < w; x++) {
			unsigned int site = pix_site(x, y);

			if (site == PIX_R)
				v = 200 + (s32)((x * l.rstep) >> 16);
			else if (site == PIX_B)
				v = 500 - (s32)((x * l.bstep) >> 16);
			else
				v = l.g;
			if (l.tex)
				v += l.tex[x];
			out[x] = synthetic_pixel(s->scale, v, (s32)x - l.cx,
						 l.dy2, l.vk);
		}
	}
}

/* -----------------------------------------------------------------------------
 * CCDC
 */

static inline u32 ccdc_sample(u32 v, u32 black)
{
	return v > black ? v - black : 0;
}

void pix_ccdc_line(const struct pix_ccdc *c, const u16 *in, u16 *out,
		   unsigned int width)
{
	u32 black = c->black;
	unsigned int x;

	for (x = 0; x + 1 < width; x += 2) {
		u32 v = pair_load(in + x);

		pair_store(out + x, ccdc_sample(v & 0xffff, black),
			   ccdc_sample(v >> 16, black));
	}
	if (x < width)
		out[x] = ccdc_sample(in[x], black);
}

/* the data formatter's 10 to 8 bit: the 8 most significant bits */
void pix_raw10_to_raw8(const u16 *in, u8 *out, unsigned int width)
{
	unsigned int x;

	for (x = 0; x < width; x++)
		out[x] = in[x] >> 2;
}

/* a raw 8-bit frame read from memory, as 10-bit samples */
void pix_raw8_to_raw10(const u8 *in, u16 *out, unsigned int width)
{
	unsigned int x;

	for (x = 0; x < width; x++)
		out[x] = in[x] << 2;
}

/* -----------------------------------------------------------------------------
 * Lens shading correction
 */

void pix_lsc_prepare(struct pix_lsc *l)
{
	s32 cx = l->width / 2, cy = l->height / 2;
	u32 r2max = ((u32)cx * cx + (u32)cy * cy) >> 4;
	unsigned int gx, gy;

	l->grid_w = (l->width + PIX_LSC_CELL - 1) / PIX_LSC_CELL + 1;
	l->grid_h = (l->height + PIX_LSC_CELL - 1) / PIX_LSC_CELL + 1;
	if (!r2max)
		r2max = 1;
	for (gy = 0; gy < l->grid_h; gy++) {
		for (gx = 0; gx < l->grid_w; gx++) {
			s32 dx = (s32)(gx * PIX_LSC_CELL) - cx;
			s32 dy = (s32)(gy * PIX_LSC_CELL) - cy;
			u32 r2 = ((u32)(dx * dx) >> 4) + ((u32)(dy * dy) >> 4);

			/* r2 < 2^20 (grid points reach past the frame), strength < 2^12 */
			l->grid[gy * l->grid_w + gx] =
				256 + pix_min(l->strength, 4095) * r2 / r2max;
		}
	}
}

/* the gain at column @fx of a cell whose edges have gains @c0 and @c1 */
static __always_inline u32 lsc_gain(u32 c0, u32 c1, unsigned int fx)
{
	return (c0 * (PIX_LSC_CELL - fx) + c1 * fx) >> PIX_LSC_CELL_SHIFT;
}

static __always_inline u32 lsc_sample(u32 v, u32 gain)
{
	return pix_min((v * gain) >> 8, PIX_RAW_MAX);
}

/* the grid's gains at line @y, one a cell edge: the grid rows, blended */
static void lsc_columns(const struct pix_lsc *l, unsigned int y, u32 *col)
{
	unsigned int gy = y >> PIX_LSC_CELL_SHIFT, fy = y & (PIX_LSC_CELL - 1);
	const u16 *g0 = &l->grid[gy * l->grid_w], *g1 = g0 + l->grid_w;
	unsigned int gx;

	for (gx = 0; gx < l->grid_w; gx++)
		col[gx] = (g0[gx] * (PIX_LSC_CELL - fy) + g1[gx] * fy) >>
			  PIX_LSC_CELL_SHIFT;
}

void pix_lsc_line(const struct pix_lsc *l, unsigned int y, const u16 *in,
		  u16 *out)
{
	u32 col[PIX_LSC_GRID_MAX];
	unsigned int x, gx;

	if (!l->enable) {
		if (out != in)
			memcpy(out, in, l->width * sizeof(*out));
		return;
	}
	/* the grid row at y, then bilinear along it, a cell a time */
	lsc_columns(l, y, col);
	for (x = 0, gx = 0; x < l->width; gx++) {
		unsigned int end = pix_min(x + PIX_LSC_CELL, l->width);
		u32 c0 = col[gx], c1 = col[gx + 1], v;

		/* x is even and a cell even: x + 1 is in the same cell */
		for (; x + 1 < end; x += 2) {
			unsigned int fx = x & (PIX_LSC_CELL - 1);

			v = pair_load(in + x);
			pair_store(out + x,
				   lsc_sample(v & 0xffff, lsc_gain(c0, c1, fx)),
				   lsc_sample(v >> 16, lsc_gain(c0, c1, fx + 1)));
		}
		if (x < end) {	/* an odd width's last sample */
			unsigned int fx = x & (PIX_LSC_CELL - 1);

			out[x] = lsc_sample(in[x], lsc_gain(c0, c1, fx));
			x++;
		}
	}
}

/* -----------------------------------------------------------------------------
 * White balance: one multiply per sample, digital gain (Q8) and channel
 * gain (Q5) combined, rounded down once.
 */

/* the factor of the samples of line @y whose column has parity @odd */
static inline u32 wb_factor(const struct pix_wb *w, unsigned int y,
			    unsigned int odd)
{
	return w->dgain * w->gain[pix_site(odd, y)];
}

static __always_inline u32 wb_sample(u32 v, u32 factor)
{
	return pix_min((v * factor) >> 13, PIX_RAW_MAX);
}

void pix_wb_line(const struct pix_wb *w, unsigned int y, const u16 *in,
		 u16 *out, unsigned int width)
{
	u32 f0 = wb_factor(w, y, 0), f1 = wb_factor(w, y, 1);
	unsigned int x;

	for (x = 0; x + 1 < width; x += 2) {
		u32 v = pair_load(in + x);

		pair_store(out + x, wb_sample(v & 0xffff, f0),
			   wb_sample(v >> 16, f1));
	}
	if (x < width)
		out[x] = wb_sample(in[x], f0);
}

/* -----------------------------------------------------------------------------
 * The line stages in one pass
 */

/*
 * Pairs @x.. up to @end of a line: the black level, then with @lsc the
 * gains of a lens shading cell whose edges have @c0 and @c1 (@x in it),
 * then with @wb the white balance factors @f0 (even columns) and @f1; one
 * load and one store a pair. The cell's gain at column fx, lsc_gain(), is
 * (32 c0 + fx (c1 - c0)) >> 5: the sum advances by c1 - c0 a column
 * (modulo 2^32, and the true sum is below 2^32).
 */
static __always_inline void chain_pairs(u16 *line, unsigned int x,
					unsigned int end, u32 black, u32 c0,
					u32 c1, u32 f0, u32 f1, bool lsc,
					bool wb)
{
	u32 d = c1 - c0;
	u32 sum = (c0 << PIX_LSC_CELL_SHIFT) + (x & (PIX_LSC_CELL - 1)) * d;

	for (; x + 1 < end; x += 2, sum += 2 * d) {
		u32 v = pair_load(line + x);
		u32 s0 = ccdc_sample(v & 0xffff, black);
		u32 s1 = ccdc_sample(v >> 16, black);

		if (lsc) {
			s0 = lsc_sample(s0, sum >> PIX_LSC_CELL_SHIFT);
			s1 = lsc_sample(s1, (sum + d) >> PIX_LSC_CELL_SHIFT);
		}
		if (wb) {
			s0 = wb_sample(s0, f0);
			s1 = wb_sample(s1, f1);
		}
		pair_store(line + x, s0, s1);
	}
}

/* columns @from.. of a line, @from even, in the lens shading cells */
static __always_inline void chain_line(const struct pix_chain_line *p,
				       u16 *line, unsigned int width,
				       unsigned int from, bool lsc, bool wb)
{
	unsigned int x, gx;

	if (!lsc) {
		chain_pairs(line, from, width, p->black, 0, 0, p->f0, p->f1,
			    false, wb);
		return;
	}
	for (x = from, gx = from >> PIX_LSC_CELL_SHIFT; x < width; gx++) {
		unsigned int end = pix_min((gx + 1) << PIX_LSC_CELL_SHIFT,
					   width);

		chain_pairs(line, x, end, p->black, p->col[gx], p->col[gx + 1],
			    p->f0, p->f1, true, wb);
		x = end;
	}
}

/**
 * pix_line_chain_prepare() - the line stages' parameters on one line
 * @c: the stages
 * @y: the line
 * @col: room for PIX_LSC_GRID_MAX gains, which @p points to with lens
 *	shading
 * @p: filled in: the black level (0 without a CCDC), the lens shading
 *	gains at the cells' edges along line @y (NULL without lens
 *	shading), the white balance factors of its columns
 */
void pix_line_chain_prepare(const struct pix_line_chain *c, unsigned int y,
			    u32 *col, struct pix_chain_line *p)
{
	p->black = c->ccdc ? c->ccdc->black : 0;
	p->col = NULL;
	if (c->lsc && c->lsc->enable) {
		lsc_columns(c->lsc, y, col);
		p->col = col;
	}
	p->wb = !!c->wb;
	p->f0 = p->wb ? wb_factor(c->wb, y, 0) : 0;
	p->f1 = p->wb ? wb_factor(c->wb, y, 1) : 0;
}

/**
 * pix_line_chain_from() - pix_line_chain() on the columns from @from on
 * @p: the line's parameters, pix_line_chain_prepare()
 * @line: @width samples
 * @width: the line's width, even
 * @from: the first column to do, even: a faster loop has done those
 *	before (pix_line_chain_neon())
 */
void pix_line_chain_from(const struct pix_chain_line *p, u16 *line,
			 unsigned int width, unsigned int from)
{
	from &= ~1U;
	if (p->col && p->wb)
		chain_line(p, line, width, from, true, true);
	else if (p->col)
		chain_line(p, line, width, from, true, false);
	else if (p->wb)
		chain_line(p, line, width, from, false, true);
	else
		chain_line(p, line, width, from, false, false);
}

/**
 * pix_line_chain() - the line stages of a raw path on one line, in place
 * @c: the stages
 * @y: the line
 * @line: @width samples
 * @width: the line's width, that of @c->lsc's frame when it has one
 *
 * The same samples as pix_ccdc_line(), pix_lsc_line() (when @c->lsc is
 * enabled) and pix_wb_line() one after the other, each stage that @c has.
 * For an even @width (a frame's, in the driver) that is one pass over the
 * line, a load and a store a pixel pair: under TCG, every load and store a
 * stage saves counts. An odd @width runs the stages' own loops in turn.
 */
void pix_line_chain(const struct pix_line_chain *c, unsigned int y,
		    u16 *line, unsigned int width)
{
	u32 col[PIX_LSC_GRID_MAX];
	struct pix_chain_line p;

	if (width & 1) {	/* the stages' own loops, with an odd last sample */
		if (c->ccdc)
			pix_ccdc_line(c->ccdc, line, line, width);
		if (c->lsc && c->lsc->enable)
			pix_lsc_line(c->lsc, y, line, line);
		if (c->wb)
			pix_wb_line(c->wb, y, line, line, width);
		return;
	}
	pix_line_chain_prepare(c, y, col, &p);
	pix_line_chain_from(&p, line, width, 0);
}

/* -----------------------------------------------------------------------------
 * Preview: demosaic and RGB to YUV
 */

static inline u32 avg2(u32 a, u32 b)
{
	return (a + b + 1) >> 1;
}

static inline u32 avg4(u32 a, u32 b, u32 c, u32 d)
{
	return (a + b + c + d + 2) >> 2;
}

static inline u8 clamp8(s32 v)
{
	return v < 0 ? 0 : v > 255 ? 255 : v;
}

/* contrast (U8Q4) then brightness, on 8-bit luma */
static inline u8 pix_luma(u32 contrast, u32 brightness, s32 y)
{
	return clamp8((clamp8(y) * contrast >> 4) + brightness);
}

/*
 * One line of the preview; inlined twice by preview_line_from(), once with
 * @plain true, for the defaults (1.0, 0), where the luma is only clamped
 * (pix_luma() would give the same, a multiply and a clamp later), so that
 * the frames at the defaults cost what they did before the two controls.
 */
static __always_inline void preview_line(const u16 *above, const u16 *line,
					 const u16 *below, unsigned int y,
					 unsigned int width, u8 *out,
					 unsigned int uyvy, u32 contrast,
					 u32 brightness, bool plain)
{
	unsigned int x, ly = uyvy ? 1 : 0, lc = uyvy ? 0 : 1;
	s32 ysum[2], u = 0, v = 0;

	for (x = 0; x < width; x++) {
		/* mirrored at the edges: same colour two samples in */
		unsigned int xl = x ? x - 1 : 1;
		unsigned int xr = x + 1 < width ? x + 1 : x - 1;
		u32 c = line[x], r, g, b;
		s32 rr, gg, bb;

		switch (pix_site(x, y)) {
		case PIX_GR:
			g = c;
			r = avg2(line[xl], line[xr]);
			b = avg2(above[x], below[x]);
			break;
		case PIX_GB:
			g = c;
			b = avg2(line[xl], line[xr]);
			r = avg2(above[x], below[x]);
			break;
		case PIX_R:
			r = c;
			g = avg4(line[xl], line[xr], above[x], below[x]);
			b = avg4(above[xl], above[xr], below[xl], below[xr]);
			break;
		default: /* PIX_B */
			b = c;
			g = avg4(line[xl], line[xr], above[x], below[x]);
			r = avg4(above[xl], above[xr], below[xl], below[xr]);
			break;
		}
		rr = r >> 2;
		gg = g >> 2;
		bb = b >> 2;
		/* BT.601, limited range */
		ysum[x & 1] = ((66 * rr + 129 * gg + 25 * bb + 128) >> 8) + 16;
		u += ((-38 * rr - 74 * gg + 112 * bb + 128) >> 8) + 128;
		v += ((112 * rr - 94 * gg - 18 * bb + 128) >> 8) + 128;
		if (x & 1) {
			u8 *o = out + 2 * (x - 1);

			if (plain) {
				o[ly] = clamp8(ysum[0]);
				o[ly + 2] = clamp8(ysum[1]);
			} else {
				o[ly] = pix_luma(contrast, brightness, ysum[0]);
				o[ly + 2] = pix_luma(contrast, brightness, ysum[1]);
			}
			o[lc] = clamp8((u + 1) >> 1);
			o[lc + 2] = clamp8((v + 1) >> 1);
			u = 0;
			v = 0;
		}
	}
}

/* one output pixel pair (Y0 U Y1 V, or U Y0 V Y1 with @uyvy) of RGB */
static __always_inline void preview_pair(u8 *o, u32 r0, u32 g0, u32 b0,
					 u32 r1, u32 g1, u32 b1,
					 unsigned int uyvy, u32 contrast,
					 u32 brightness, bool plain)
{
	s32 rr0 = r0 >> 2, gg0 = g0 >> 2, bb0 = b0 >> 2;
	s32 rr1 = r1 >> 2, gg1 = g1 >> 2, bb1 = b1 >> 2;
	/* BT.601, limited range */
	s32 y0 = ((66 * rr0 + 129 * gg0 + 25 * bb0 + 128) >> 8) + 16;
	s32 y1 = ((66 * rr1 + 129 * gg1 + 25 * bb1 + 128) >> 8) + 16;
	s32 u = ((-38 * rr0 - 74 * gg0 + 112 * bb0 + 128) >> 8) + 128 +
		((-38 * rr1 - 74 * gg1 + 112 * bb1 + 128) >> 8) + 128;
	s32 v = ((112 * rr0 - 94 * gg0 - 18 * bb0 + 128) >> 8) + 128 +
		((112 * rr1 - 94 * gg1 - 18 * bb1 + 128) >> 8) + 128;

	u32 l0, l1, c0 = clamp8((u + 1) >> 1), c1 = clamp8((v + 1) >> 1);

	if (plain) {
		l0 = clamp8(y0);
		l1 = clamp8(y1);
	} else {
		l0 = pix_luma(contrast, brightness, y0);
		l1 = pix_luma(contrast, brightness, y1);
	}
	/* one store for the four bytes */
	if (uyvy)
		put_unaligned_le32(c0 | l0 << 8 | c1 << 16 | l1 << 24, o);
	else
		put_unaligned_le32(l0 | c0 << 8 | l1 << 16 | c1 << 24, o);
}

/*
 * The output pair at an even column x of a line whose colours are known
 * (@odd: B Gb, else Gr R), from columns x - 1 .. x + 2 of the line (l*),
 * the line above (a*) and the one below (b*), as preview_line() computes
 * it. B Gb lines do not use a3 and b3, Gr R lines not a0 and b0.
 */
static __always_inline void preview_window(u8 *o, u32 l0, u32 l1, u32 l2,
					   u32 l3, u32 a0, u32 a1, u32 a2,
					   u32 a3, u32 b0, u32 b1, u32 b2,
					   u32 b3, unsigned int uyvy,
					   u32 contrast, u32 brightness,
					   bool odd, bool plain)
{
	if (odd)	/* B Gb */
		preview_pair(o, avg4(a0, a2, b0, b2), avg4(l0, l2, a1, b1), l1,
			     avg2(a2, b2), l2, avg2(l1, l3),
			     uyvy, contrast, brightness, plain);
	else		/* Gr R */
		preview_pair(o, avg2(l0, l2), l1, avg2(a1, b1),
			     l2, avg4(l1, l3, a2, b2), avg4(a1, a3, b1, b3),
			     uyvy, contrast, brightness, plain);
}

/* the pair at column @x, mirrored at the edges as preview_line() does */
static __always_inline void preview_edge_pair(const u16 *above,
					      const u16 *line,
					      const u16 *below,
					      unsigned int width,
					      unsigned int x, u8 *out,
					      unsigned int uyvy, u32 contrast,
					      u32 brightness, bool odd,
					      bool plain)
{
	unsigned int xl = x ? x - 1 : 1, xr = x + 2 < width ? x + 2 : x;

	preview_window(out + 2 * x, line[xl], line[x], line[x + 1], line[xr],
		       above[xl], above[x], above[x + 1], above[xr],
		       below[xl], below[x], below[x + 1], below[xr],
		       uyvy, contrast, brightness, odd, plain);
}

/*
 * preview_line() for an even width, a Bayer pair at a time: the same
 * output. Between the edge pairs, each pair's window is read with six
 * loads: two 32-bit loads for the line's four columns, and for each of the
 * lines above and below a 32-bit and a 16-bit one for the three columns
 * the pair's colours use. No window is carried from pair to pair, so the
 * loop's values fit in registers: under TCG a load or store costs several
 * times an arithmetic instruction, and a spilled value costs two.
 */
static __always_inline void preview_line_pairs(const u16 *above,
					       const u16 *line,
					       const u16 *below,
					       unsigned int width,
					       unsigned int from, u8 *out,
					       unsigned int uyvy, u32 contrast,
					       u32 brightness, bool odd,
					       bool plain)
{
	unsigned int x;

	preview_edge_pair(above, line, below, width, 0, out, uyvy, contrast,
			  brightness, odd, plain);
	for (x = from; x + 2 < width; x += 2) {
		u32 lw = get_unaligned_le32(line + x - 1);
		u32 rw = get_unaligned_le32(line + x + 1);
		u32 aw, bw, a, b;

		if (odd) {	/* columns x - 1, x and x + 1 */
			aw = get_unaligned_le32(above + x - 1);
			bw = get_unaligned_le32(below + x - 1);
			a = above[x + 1];
			b = below[x + 1];
			preview_window(out + 2 * x, lw & 0xffff, lw >> 16,
				       rw & 0xffff, rw >> 16,
				       aw & 0xffff, aw >> 16, a, 0,
				       bw & 0xffff, bw >> 16, b, 0,
				       uyvy, contrast, brightness, odd, plain);
		} else {	/* columns x, x + 1 and x + 2 */
			a = above[x];
			b = below[x];
			aw = get_unaligned_le32(above + x + 1);
			bw = get_unaligned_le32(below + x + 1);
			preview_window(out + 2 * x, lw & 0xffff, lw >> 16,
				       rw & 0xffff, rw >> 16,
				       0, a, aw & 0xffff, aw >> 16,
				       0, b, bw & 0xffff, bw >> 16,
				       uyvy, contrast, brightness, odd, plain);
		}
	}
	if (width > 2)
		preview_edge_pair(above, line, below, width, width - 2, out,
				  uyvy, contrast, brightness, odd, plain);
}

/*
 * The inner pairs of a line inside the frame, at the default contrast and
 * brightness, as preview_line_pairs() computes them, two pixels a 32-bit
 * word (preview_word()): under TCG an integer instruction costs a tenth
 * of a NEON one, whose operands go through memory, and a load or store
 * twenty. The loop keeps every value in a register: it loads one word of
 * each of the three lines a pair, addressed from the line's (the line
 * above is @stride bytes before it, the one below @stride after, its
 * output at a fixed distance), and carries the rest, the line above and
 * the one below as their sum (the demosaic uses their samples only
 * summed). Exact for samples of at most 10 bits, which the caller
 * checks. Writes the pairs at columns 2 .. @width - 3 (@width even, at
 * least 4).
 */
static __always_inline void preview_inner_words(const u16 *line,
						long stride,
						unsigned int width, u8 *out,
						unsigned int uyvy, bool odd)
{
	const u16 *above = (const u16 *)((const u8 *)line - stride);
	const u16 *below = (const u16 *)((const u8 *)line + stride);
	/* columns x + 2 and x + 3 of the line, for the pair at x */
	const u8 *l = (const u8 *)(line + 4), *end = (const u8 *)(line + width);
	/*
	 * from there to the pair's output: an offset between two buffers,
	 * one register fewer than a second pointer advanced in the loop
	 */
	uintptr_t to_out = (uintptr_t)out - (uintptr_t)(line + 2);
	/* the line: columns x - 1 and x (lm), x and x + 1 (lc) */
	u32 lm = pair_load(line + 1), lc = pair_load(line + 2);
	/* above + below, the same columns */
	u32 sc = pair_load(above + 2) + pair_load(below + 2);
	u32 sm = (pair_load(above) + pair_load(below)) >> 16 | sc << 16;

	for (; l < end; l += 4) {
		u32 ln = get_unaligned_le32(l);
		u32 sn = get_unaligned_le32(l - stride) +
			 get_unaligned_le32(l + stride);
		u32 lp = lc >> 16 | ln << 16, sp = sc >> 16 | sn << 16;

		put_unaligned_le32(preview_word(lm, lc, lp, sm, sc, sp, uyvy,
						odd), (u8 *)((uintptr_t)l + to_out));
		lm = lp;
		lc = ln;
		sm = sp;
		sc = sn;
	}
}

/*
 * preview_inner_words(), made for each output order and line colours;
 * returns the first column it did not write
 */
static noinline PIX_OWN_PAGE unsigned int preview_inner(const u16 *line,
							long stride,
							unsigned int width,
							u8 *out,
							unsigned int uyvy,
							unsigned int odd)
{
	if (uyvy && odd)
		preview_inner_words(line, stride, width, out, 1, true);
	else if (uyvy)
		preview_inner_words(line, stride, width, out, 1, false);
	else if (odd)
		preview_inner_words(line, stride, width, out, 0, true);
	else
		preview_inner_words(line, stride, width, out, 0, false);
	return width - 2;
}

/*
 * whether lines @y0..@y1 - 1 of @in have no sample of more than 10 bits
 * (@width even)
 */
static bool preview_narrow(const u16 *in, size_t stride, unsigned int width,
			   unsigned int y0, unsigned int y1)
{
	unsigned int y, x;
	u32 seen = 0;

	for (y = y0; y < y1; y++) {
		const u16 *line = (const u16 *)((const u8 *)in + y * stride);

		for (x = 0; x + 2 <= width; x += 2)
			seen |= pair_load(line + x);
	}
	return !(seen & 0xfc00fc00);
}

/*
 * A line of the preview, but for the pairs at columns 2 .. @from - 1 (@from
 * even, at least 2), which preview_inner_words() has written. That loop
 * knows only even widths at the default contrast and brightness: at any
 * other, the whole line is computed.
 */
static void preview_line_from(const struct pix_preview *p, const u16 *above,
			      const u16 *line, const u16 *below,
			      unsigned int y, unsigned int width,
			      unsigned int from, u8 *out)
{
	bool plain = p->contrast == PIX_CONTRAST_DEF &&
		     p->brightness == PIX_BRIGHTNESS_DEF;

	if (width < 2 || (width & 1)) {
		if (plain)
			preview_line(above, line, below, y, width, out, p->uyvy,
				     PIX_CONTRAST_DEF, PIX_BRIGHTNESS_DEF, true);
		else
			preview_line(above, line, below, y, width, out, p->uyvy,
				     p->contrast, p->brightness, false);
	} else if (plain) {
		from = from < 2 ? 2 : from & ~1U;
		if (y & 1)
			preview_line_pairs(above, line, below, width, from,
					   out, p->uyvy, PIX_CONTRAST_DEF,
					   PIX_BRIGHTNESS_DEF, true, true);
		else
			preview_line_pairs(above, line, below, width, from,
					   out, p->uyvy, PIX_CONTRAST_DEF,
					   PIX_BRIGHTNESS_DEF, false, true);
	} else {
		if (y & 1)
			preview_line_pairs(above, line, below, width, 2, out,
					   p->uyvy, p->contrast, p->brightness,
					   true, false);
		else
			preview_line_pairs(above, line, below, width, 2, out,
					   p->uyvy, p->contrast, p->brightness,
					   false, false);
	}
}

#ifndef __KERNEL__
unsigned long pix_preview_word_lines;
#endif

/**
 * pix_preview_lines() - lines of a frame through the preview
 * @p: the preview's settings
 * @in: the frame, @height lines of @width samples, @stride bytes apart
 * @stride: bytes from a line to the next
 * @width: samples a line
 * @height: lines
 * @narrow: no sample of @in has more than 10 bits, as the caller knows
 *	(else the lines read are checked)
 * @y0: the first line to compute
 * @y1: the line after the last
 * @out: the frame's output, @out_stride bytes a line
 * @out_stride: bytes from an output line to the next
 *
 * Each line from the one above and the one below (mirrored at the
 * frame's edges), a pixel pair a time; the inner pairs of the lines
 * inside the frame two pixels a word (preview_inner_words()) where that
 * gives the same output: even widths, the default contrast and
 * brightness, and no sample of more than 10 bits in the lines read.
 */
void pix_preview_lines(const struct pix_preview *p, const u16 *in,
		       size_t stride, unsigned int width, unsigned int height,
		       bool narrow, unsigned int y0, unsigned int y1, u8 *out,
		       size_t out_stride)
{
	bool words = p->contrast == PIX_CONTRAST_DEF &&
		     p->brightness == PIX_BRIGHTNESS_DEF && width >= 4 &&
		     !(width & 1) && height >= 2 &&
		     (narrow || preview_narrow(in, stride, width,
					       y0 ? y0 - 1 : 0,
					       y1 < height ? y1 + 1 : height));
	unsigned int y;

	for (y = y0; y < y1; y++) {
		const u8 *base = (const u8 *)in;
		const u16 *line = (const u16 *)(base + y * stride);
		const u16 *above = (const u16 *)(base + (y ? y - 1 : 1) * stride);
		const u16 *below = (const u16 *)(base + (y + 1 < height ?
							 y + 1 : y - 1) *
						 stride);
		u8 *o = out + y * out_stride;
		unsigned int from = 2;

		if (words && y && y + 1 < height) {
			from = preview_inner(line, stride, width, o, p->uyvy,
					     y & 1);
			pix_preview_count_words();
		}
		preview_line_from(p, above, line, below, y, width, from, o);
	}
}

/* -----------------------------------------------------------------------------
 * Resizer
 */

void pix_resizer_prepare(struct pix_resizer *r)
{
	r->hstep = ((u32)r->in_w << 16) / r->out_w;
	r->vstep = ((u32)r->in_h << 16) / r->out_h;
}

unsigned int pix_resizer_src_line(const struct pix_resizer *r, unsigned int y)
{
	return (u32)((u64)y * r->vstep >> 16);
}

/*
 * Output pixels @x.. of a line, from the vertically blended input line
 * @tmp: an output pair (two lumas, U, V) a time, any pair at the right
 * edge included (the last input pixel repeated, an odd width's last luma)
 */
static void resizer_h_edge(const struct pix_resizer *r, const u8 *tmp,
			   u8 *out, unsigned int x, unsigned int uyvy)
{
	unsigned int ly = uyvy ? 1 : 0, lc = uyvy ? 0 : 1;
	unsigned int half = r->in_w / 2;

	for (; x < r->out_w; x += 2) {
		u32 luma[2], chroma[2], pos, ix, f, a, b;
		unsigned int k, j;

		/*
		 * luma, on the full-width grid: the lumas of input pixels ix
		 * and ix + 1 are bytes ly and ly + 2 of the word at 2 * ix
		 */
		for (k = 0; k < 2 && x + k < r->out_w; k++) {
			pos = (x + k) * r->hstep;
			ix = pos >> 16;
			f = (pos >> 8) & 0xff;
			if (ix + 1 < r->in_w) {
				u32 w = get_unaligned_le32(tmp + 2 * ix) >> (8 * ly);

				a = w & 0xff;
				b = (w >> 16) & 0xff;
			} else {
				a = tmp[2 * ix + ly];
				b = a;
			}
			luma[k] = words_blend(a, b, f);
		}
		if (x + 1 >= r->out_w) {	/* an odd width's last luma */
			out[2 * x + ly] = luma[0];
			break;
		}
		/* chroma, U and V of each pair, on the half-width grid */
		pos = x / 2 * r->hstep;
		ix = pos >> 16;
		f = (pos >> 8) & 0xff;
		j = ix + 1 < half ? ix + 1 : ix;
		/* U and V of a pair: bytes lc and lc + 2 of its word */
		a = get_unaligned_le32(tmp + 4 * ix) >> (8 * lc);
		b = get_unaligned_le32(tmp + 4 * j) >> (8 * lc);
		for (k = 0; k < 2; k++)
			chroma[k] = words_blend((a >> (16 * k)) & 0xff,
						(b >> (16 * k)) & 0xff, f);
		if (uyvy)
			put_unaligned_le32(chroma[0] | luma[0] << 8 |
					   chroma[1] << 16 | luma[1] << 24,
					   out + 2 * x);
		else
			put_unaligned_le32(luma[0] | chroma[0] << 8 |
					   luma[1] << 16 | chroma[1] << 24,
					   out + 2 * x);
	}
}

/*
 * resizer_h_edge() for the output pairs @x .. @end - 1 (@x, @end even),
 * whose two lumas each have a next input pixel: the same output
 * (resizer_word()), with every value the loop needs in a register (under
 * TCG a load or store costs twenty times an arithmetic instruction, and
 * a spilled value costs two). The positions advance by addition: pair x's
 * lumas sample at x * hstep and (x + 1) * hstep, its chroma at x / 2 *
 * hstep, half the first.
 */
static __always_inline void resizer_h_inner(const u8 *tmp, u8 *out,
					    unsigned int x, unsigned int end,
					    u32 hstep, unsigned int half,
					    unsigned int uyvy)
{
	u8 *o, *oend = out + 2 * end;
	u32 p0 = x * hstep;

	for (o = out + 2 * x; o < oend; o += 4, p0 += 2 * hstep) {
		u32 p1 = p0 + hstep, ic = p0 >> 17;
		u32 j = ic + 1 < half ? ic + 1 : ic;

		put_unaligned_le32(resizer_word(get_unaligned_le32(tmp + 2 * (p0 >> 16)),
						get_unaligned_le32(tmp + 2 * (p1 >> 16)),
						get_unaligned_le32(tmp + 4 * ic),
						get_unaligned_le32(tmp + 4 * j),
						p0, p1, uyvy), o);
	}
}

/**
 * pix_resizer_line() - one output line of the resizer
 * @r: the resizer's settings (pix_resizer_prepare())
 * @y: the output line
 * @in0: input line pix_resizer_src_line(@y)
 * @in1: the input line after it (the same line at the bottom edge)
 * @out: the output line, 2 * @r->out_w bytes
 * @tmp: room for one input line, 2 * @r->in_w bytes
 * @uyvy: UYVY, else YUYV
 * @fast: faster loops that do part of each pass (the resizer block's
 *	NEON ones, run between kernel_neon_begin() and kernel_neon_end()),
 *	or NULL
 *
 * The vertical blend of the two input lines into @tmp, on four bytes a
 * time (the line is 2 * in_w bytes, in_w even), then the horizontal one,
 * an output pair (two lumas, U, V) a time.
 */
PIX_OWN_PAGE void pix_resizer_line(const struct pix_resizer *r, unsigned int y,
				   const u8 *in0, const u8 *in1, u8 *out,
				   u8 *tmp, unsigned int uyvy,
				   const struct pix_resizer_fast *fast)
{
	u32 fy = ((u64)y * r->vstep >> 8) & 0xff;
	unsigned int i = 0, n = 2 * r->in_w, x = 0, end = r->out_w & ~1u;
	unsigned int half = r->in_w / 2;

	if (fast)
		i = fast->vblend(in0, in1, tmp, n, fy);
	for (; i + 4 <= n; i += 4)
		put_unaligned_le32(words_blend4(get_unaligned_le32(in0 + i),
						get_unaligned_le32(in1 + i), fy),
				   tmp + i);
	for (; i < n; i++)
		tmp[i] = words_blend(in0[i], in1[i], fy);

	/*
	 * the pairs before the first whose second luma has no next pixel:
	 * a luma's position grows with its column (no u32 wrap: it stays
	 * below in_w << 16), so every pair before @end has both next pixels
	 */
	while (end && ((end - 1) * r->hstep >> 16) + 1 >= r->in_w)
		end -= 2;
	if (fast)
		x = fast->hpairs(tmp, out, end, r->hstep, half, uyvy);
	if (uyvy)
		resizer_h_inner(tmp, out, x, end, r->hstep, half, 1);
	else
		resizer_h_inner(tmp, out, x, end, r->hstep, half, 0);
	resizer_h_edge(r, tmp, out, end, uyvy);
}

/* -----------------------------------------------------------------------------
 * Statistics
 */

void pix_aewb_init(struct n900_isp_aewb *a, unsigned int width,
		   unsigned int height)
{
	memset(a, 0, sizeof(*a));
	a->frame_width = width;
	a->frame_height = height;
	a->win_width = (width / N900_AEWB_WIN_H) & ~1U;
	a->win_height = (height / N900_AEWB_WIN_V) & ~1U;
}

void pix_aewb_line(struct n900_isp_aewb *a, unsigned int y, const u16 *line)
{
	unsigned int wy, wx, x;

	if (!a->win_width || !a->win_height)
		return;
	wy = y / a->win_height;
	if (wy >= N900_AEWB_WIN_V)
		return;
	for (wx = 0; wx < N900_AEWB_WIN_H; wx++) {
		u32 *sum = a->sum[wy][wx];
		unsigned int x0 = wx * a->win_width;

		for (x = x0; x < x0 + a->win_width; x++)
			sum[pix_site(x, y)] += line[x];
	}
}

void pix_af_init(struct n900_isp_af *af, unsigned int width,
		 unsigned int height)
{
	memset(af, 0, sizeof(*af));
	af->frame_width = width;
	af->frame_height = height;
	af->win_width = (width / N900_AF_WIN_H) & ~1U;
	af->win_height = (height / N900_AF_WIN_V) & ~1U;
}

/* green samples are at even x on even lines, odd x on odd lines */
void pix_af_line(struct n900_isp_af *af, unsigned int y, const u16 *line)
{
	unsigned int wy, wx, x;

	if (!af->win_width || !af->win_height)
		return;
	wy = y / af->win_height;
	if (wy >= N900_AF_WIN_V)
		return;
	for (wx = 0; wx < N900_AF_WIN_H; wx++) {
		unsigned int x0 = wx * af->win_width;
		u32 e = 0;

		for (x = x0 + 2 + (y & 1); x < x0 + af->win_width; x += 2)
			e += line[x] > line[x - 2] ? line[x] - line[x - 2] :
						     line[x - 2] - line[x];
		af->focus[wy][wx] += e;
		af->total += e;
	}
}

void pix_hist_init(struct n900_isp_hist *hs, unsigned int width,
		   unsigned int height)
{
	memset(hs, 0, sizeof(*hs));
	hs->frame_width = width;
	hs->frame_height = height;
}

void pix_hist_line(struct n900_isp_hist *hs, unsigned int y, const u16 *line)
{
	unsigned int x;

	for (x = 0; x < hs->frame_width; x++)
		hs->bins[pix_site(x, y)][(line[x] >> 4) & (N900_HIST_BINS - 1)]++;
}
