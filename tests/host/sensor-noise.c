// SPDX-License-Identifier: GPL-2.0
/*
 * sensor-noise.c: the Image pattern's noise (drivers/isp/isp_pixel.c) has
 * the documented statistics. A flat grey picture at the frame's size,
 * rendered without noise (the mean) and with it, frame after frame, the
 * first frame computing its charges and the next ones reading them from
 * the cache: in each frame, the difference's variance is the shot
 * noise's (the charge, recovered from the noise-free DN) plus the read
 * noise's (36 e-^2), through the gain, at a mid grey (about 2000 e-)
 * and at a dark one (about 50 e-, where the read noise is 40 % of the
 * variance); the noise of a pixel is not correlated with that of the 8
 * pixels on its right, of the pixels below, of the same pixel in the
 * next frame or with another seed; and the tables stay within the
 * bounds isp_pixel_sensor.h states. KTAP on stdout
 * (tests/host/pixel-test.sh sensor-noise).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isp_pixel.h"

#define W	640
#define H	480
#define FRAMES	4

static u16 samples[W * H * 3];
static u16 clean[H][W], noisy[2][H][W], other[H][W];

/* the frame of @s's @frame into @out */
static void render(struct pix_scene *s, unsigned int frame, u16 (*out)[W])
{
	unsigned int y;

	s->frame = frame;
	pix_scene_prepare(s);
	for (y = 0; y < H; y++)
		pix_sensor_line(s, y, out[y]);
}

/* the correlation of the noise of @a and @b, shifted by @dx, @dy in @b */
static double correlation(u16 (*a)[W], u16 (*b)[W], unsigned int dx,
			  unsigned int dy)
{
	double sab = 0, saa = 0, sbb = 0;
	unsigned int x, y;

	for (y = 0; y + dy < H; y++) {
		for (x = 0; x + dx < W; x++) {
			double u = (double)a[y][x] - clean[y][x];
			double v = (double)b[y + dy][x + dx] - clean[y + dy][x + dx];

			sab += u * v;
			saa += u * u;
			sbb += v * v;
		}
	}
	return sab / sqrt(saa * sbb);
}

static int t, failed;

static void check(int ok, const char *name, double v, const char *want)
{
	printf("%sok %d %s # %.4f (%s)\n", ok ? "" : "not ", ++t, name, v,
	       want);
	failed |= !ok;
}

/*
 * The worst frame's ratio of the noise's variance to the model's, over
 * FRAMES frames of a flat picture at @level: the first frame from the
 * scene (a new cache), the next ones from the cache
 */
static double variance_ratio(struct pix_scene *s, void *cache,
			     unsigned int level)
{
	double worst = 1, r;
	unsigned int i, x, y, f, g = 16 + s->gain;

	for (i = 0; i < W * H * 3; i++)
		samples[i] = level;
	s->noise = 0;
	pix_scene_set_cache(s, NULL);
	render(s, 0, clean);
	s->noise = 1;
	pix_scene_set_cache(s, cache);
	for (f = 0; f < FRAMES; f++) {
		double v = 0, w = 0;

		render(s, f, noisy[f & 1]);
		for (y = 0; y < H; y++) {
			for (x = 0; x < W; x++) {
				double d = (double)noisy[f & 1][y][x] - clean[y][x];
				/* the charge from the mean DN, then in DN^2 */
				double e = (clean[y][x] - PIX_PEDESTAL) * 128.0 / g;

				v += d * d;
				w += (e + PIX_READ_NOISE * PIX_READ_NOISE) *
				     g * g / (128.0 * 128.0) + 1.0 / 12;
			}
		}
		r = v / w;
		if (fabs(r - 1) > fabs(worst - 1))
			worst = r;
	}
	return worst;
}

int main(void)
{
	struct pix_image img = {
		.width = W, .height = H, .focus = 512, .samples = samples,
	};
	struct pix_scene *s = calloc(1, sizeof(*s));
	void *cache = calloc(1, pix_scene_cache_size(W, H));
	int shot = 0, read = 0, sigma = 0, d, ok;
	double r;
	unsigned int i, x;

	if (!s || !cache)
		return 2;
	s->width = W;
	s->height = H;
	s->pattern = PIX_PATTERN_IMAGE;
	s->exposure = 1000;
	s->exposure_ref = 1000;
	s->kelvin = PIX_KELVIN_DEF;
	s->focus = 512;
	s->gain = 16;
	s->seed = 7;
	pix_scene_set_image(s, &img, NULL);

	printf("KTAP version 1\n1..8\n");
	/* a dark grey, then a third of full scale, whose frames stay */
	r = variance_ratio(s, cache, 65535 / 120);
	check(fabs(r - 1) < 0.03, "variance_dark", r,
	      "charge plus read noise, within 3 % in each frame");
	r = variance_ratio(s, cache, 65535 / 3);
	check(fabs(r - 1) < 0.03, "variance_mid_grey", r,
	      "charge plus read noise, within 3 % in each frame");

	r = correlation(noisy[0], noisy[1], 0, 0);
	check(fabs(r) < 0.01, "next_frame_uncorrelated", r, "|r| < 0.01");
	/* the largest correlation with a pixel 1 to 8 columns on */
	for (r = 0, x = 1; x <= 8; x++) {
		double c = correlation(noisy[1], noisy[1], x, 0);

		if (fabs(c) > fabs(r))
			r = c;
	}
	check(fabs(r) < 0.01, "next_8_columns_uncorrelated", r,
	      "|r| < 0.01 at each");
	r = correlation(noisy[1], noisy[1], 0, 1);
	check(fabs(r) < 0.01, "line_below_uncorrelated", r, "|r| < 0.01");
	r = correlation(noisy[1], noisy[1], 0, 2);
	check(fabs(r) < 0.01, "same_colour_below_uncorrelated", r,
	      "|r| < 0.01");
	s->seed = 8;
	render(s, FRAMES - 1, other);
	r = correlation(noisy[(FRAMES - 1) & 1], other, 0, 0);
	check(fabs(r) < 0.01, "other_seed_uncorrelated", r, "|r| < 0.01");

	/* the tables against isp_pixel_sensor.h's bounds, the shot's reached */
	for (i = 0; i < PIX_NOISE_DRAWS + PIX_MAX_WIDTH; i++) {
		d = s->draw[i];
		x = d & ((1 << PIX_DRAW_READ_BITS) - 1);
		d = (int)(x ^ (1 << (PIX_DRAW_READ_BITS - 1))) -
		    (1 << (PIX_DRAW_READ_BITS - 1));
		read = abs(d) > read ? abs(d) : read;
		d = (s->draw[i] - d) / (1 << PIX_DRAW_READ_BITS);
		shot = abs(d) > shot ? abs(d) : shot;
	}
	for (i = 0; i < PIX_SHOT_TABLE; i++)
		sigma = s->shot[i] > sigma ? s->shot[i] : sigma;
	ok = shot == PIX_DRAW_SHOT_MAX && read <= 12 &&
	     sigma == PIX_SHOT_SIGMA_MAX;
	printf("%sok %d draws_within_bounds # shot part %d (PIX_DRAW_SHOT_MAX %d), read part %d (12), sigma %d (PIX_SHOT_SIGMA_MAX %d)\n",
	       ok ? "" : "not ", ++t, shot, PIX_DRAW_SHOT_MAX, read, sigma,
	       PIX_SHOT_SIGMA_MAX);
	failed |= !ok;
	return failed;
}
