// SPDX-License-Identifier: GPL-2.0
/*
 * scene-cache.c: the Image pattern's charge cache (pix_scene_set_cache() in
 * drivers/isp/isp_pixel.c) never changes a frame. Two scenes see the same
 * picture through the same controls, frame after frame, one with a cache
 * and one without; every line of every frame must be the same. The frames
 * change what the cache depends on (exposure, illuminant, lens, a new
 * picture at the same address) and what it does not (gain, noise, frame
 * number: noise turned on reads what a frame without noise cached),
 * render only part of a frame or its lines from the last, and run at the
 * picture's size and scaled, to an even and to an odd width. KTAP on
 * stdout (tests/host/pixel-test.sh scene-cache).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isp_pixel.h"

#define SW	64
#define SH	48

struct step {
	const char *name;
	unsigned int exposure;
	unsigned int kelvin;
	unsigned int focus;
	unsigned int gain;
	unsigned int noise;
	unsigned int picture;	/* the content at the same address */
	unsigned int lines;	/* lines rendered: 0 all, else the first N */
	unsigned int reverse;	/* the lines from the last to the first */
};

static const struct step steps[] = {
	{ "first", 1000, 6500, 512, 0, 1, 0, 0, 0 },
	{ "same", 1000, 6500, 512, 0, 1, 0, 0, 0 },
	{ "bottom_up", 1000, 6500, 512, 0, 1, 0, 0, 1 },
	{ "part_of_a_frame", 1000, 6500, 512, 0, 1, 0, 20, 0 },
	{ "whole_again", 1000, 6500, 512, 0, 1, 0, 0, 0 },
	{ "exposure", 500, 6500, 512, 0, 1, 0, 5, 0 },
	{ "exposure_back", 1000, 6500, 512, 0, 1, 0, 0, 0 },
	{ "illuminant", 1000, 3000, 512, 0, 1, 0, 0, 1 },
	{ "lens", 1000, 3000, 700, 0, 1, 0, 0, 0 },
	{ "lens_further", 1000, 3000, 900, 0, 1, 0, 0, 0 },
	{ "lens_back", 1000, 3000, 512, 0, 0, 0, 0, 0 },
	{ "gain", 1000, 3000, 512, 16, 0, 0, 0, 0 },
	{ "noise_on", 1000, 3000, 512, 16, 1, 0, 0, 0 },
	{ "new_picture_same_address", 1000, 3000, 512, 16, 1, 1, 0, 0 },
	{ "same_again", 1000, 3000, 512, 16, 1, 1, 0, 0 },
	{ "old_picture_same_address", 1000, 3000, 512, 16, 1, 0, 0, 0 },
};

static u16 picture[2][SW * SH * 3];

static void fill(u16 *p, unsigned int seed)
{
	unsigned int i;

	for (i = 0; i < SW * SH * 3; i++) {
		seed = seed * 1103515245u + 12345u;
		p[i] = seed >> 16;
	}
}

static int run(unsigned int w, unsigned int h, int *n)
{
	static u16 samples[SW * SH * 3];
	struct pix_image img = {
		.width = SW, .height = SH, .focus = 512, .samples = samples,
	};
	struct pix_scene *s[2];
	u16 *line[2];
	void *cache;
	unsigned int i, k, y;
	int failed = 0;

	for (k = 0; k < 2; k++) {
		s[k] = calloc(1, sizeof(*s[k]));
		line[k] = calloc(w, sizeof(u16));
		if (!s[k] || !line[k])
			return -1;
		s[k]->width = w;
		s[k]->height = h;
		s[k]->pattern = PIX_PATTERN_IMAGE;
		s[k]->exposure_ref = 1000;
		s[k]->seed = 7;
		pix_scene_set_image(s[k], &img, calloc(pix_image_blur_size(&img), 1));
	}
	cache = calloc(1, pix_scene_cache_size(w, h));
	if (!cache)
		return -1;
	pix_scene_set_cache(s[0], cache);
	memcpy(samples, picture[0], sizeof(samples));

	for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		const struct step *t = &steps[i];
		unsigned int lines = t->lines ? t->lines : h, bad = 0;

		if (i && t->picture != steps[i - 1].picture) {
			memcpy(samples, picture[t->picture], sizeof(samples));
			for (k = 0; k < 2; k++)
				pix_scene_set_image(s[k], &img, s[k]->blurred);
		}
		for (k = 0; k < 2; k++) {
			s[k]->exposure = t->exposure;
			s[k]->kelvin = t->kelvin;
			s[k]->focus = t->focus;
			s[k]->gain = t->gain;
			s[k]->noise = t->noise;
			s[k]->frame = i;
			pix_scene_prepare(s[k]);
		}
		for (k = 0; k < lines; k++) {
			/* as a second CPU would: any order */
			y = t->reverse ? lines - 1 - k : k;
			pix_sensor_line(s[0], y, line[0]);
			pix_sensor_line(s[1], y, line[1]);
			bad += !!memcmp(line[0], line[1], w * sizeof(u16));
		}
		++*n;
		if (bad) {
			failed = 1;
			printf("not ok %d %ux%u.%s # %u of %u lines differ from the uncached scene's\n",
			       *n, w, h, t->name, bad, lines);
		} else {
			printf("ok %d %ux%u.%s\n", *n, w, h, t->name);
		}
	}
	return failed;
}

int main(void)
{
	unsigned int steps_n = sizeof(steps) / sizeof(steps[0]);
	int n = 0, failed = 0;

	fill(picture[0], 1);
	fill(picture[1], 2);
	printf("KTAP version 1\n1..%u\n", 3 * steps_n);
	/* the picture's own size (no interpolation), then scaled, then to an
	 * odd width (each run of the cache padded to an even length)
	 */
	failed |= run(SW, SH, &n);
	failed |= run(SW * 2 - 10, SH * 2 - 6, &n);
	failed |= run(SW + 13, SH + 7, &n);
	return failed ? 1 : 0;
}
