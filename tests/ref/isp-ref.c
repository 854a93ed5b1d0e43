// SPDX-License-Identifier: GPL-2.0
/*
 * isp-ref: the host reference model of the emulated OMAP3 ISP. It runs the
 * pixel code of the driver (drivers/isp/isp_pixel.c, compiled here unchanged)
 * over a configured pipeline and writes the frames the driver must produce.
 *
 *   isp-ref [options] > frames.raw
 *
 *   -s WxH        sensor frame size (default 640x480)
 *   -p PATTERN    scene, bars, gradient or image (default scene)
 *   -S FILE       the scene file (n900_scene.h) of the image pattern
 *   -T KELVIN     the illuminant's colour temperature (default 6500)
 *   -N SEED       sensor noise on (image pattern), with this seed
 *   -F FRAME      the frame number of the first frame, part of the noise
 *                 generator's key (default 0; each frame adds 1)
 *   -e LINES      exposure (default 1000)  -E LINES  the sensor's default
 *                 exposure, of nominal brightness (default 1000)
 *   -g GAIN       analogue gain (default 0)
 *   -f POS        lens position (default 512)
 *   -k LEVEL      CCDC black level (default 0)
 *   -l STRENGTH   lens shading on, with this strength (default off)
 *   -w D,GR,R,B,GB  white balance gains: digital U10Q8, channels U8Q5
 *   -b LEVEL      preview brightness, a luma offset (default 0)
 *   -C GAIN       preview contrast, a luma gain U8Q4 (default 16, 1.0)
 *   -o OUTPUT     raw10, raw8 (CCDC), yuyv, uyvy (preview),
 *                 resizer-yuyv, resizer-uyvy, or the statistics buffers
 *                 aewb, af, hist (n900_isp_stats.h) (default raw10)
 *   -c L,T,W,H    the CCDC output formatter's crop (raw10, raw8)
 *   -r WxH        resizer output size (default: the input size)
 *   -n FRAMES     frames to write (default 1)
 *   -i FMT:FILE   memory-to-memory: the input frame (-s size) comes from
 *                 FILE instead of the sensor; raw10 or raw8 enters where
 *                 the sensor's frames do, yuyv or uyvy enters the resizer
 *
 * The stages run in the order the N900 device tree links them: sensor,
 * CCDC, lens shading, white balance, preview, resizer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../drivers/isp/isp_pixel.h"

static void usage(void)
{
	fprintf(stderr,
		"usage: isp-ref [-s WxH] [-p scene|bars|gradient|image] [-S SCENE-FILE]\n"
		"               [-T KELVIN] [-N SEED] [-F FRAME] [-e EXP] [-E EXP] [-g GAIN]\n"
		"               [-f FOCUS] [-k BLACK] [-l STRENGTH] [-w D,GR,R,B,GB]\n"
		"               [-b BRIGHTNESS] [-C CONTRAST]\n"
		"               [-o raw10|raw8|yuyv|uyvy|resizer-yuyv|resizer-uyvy|aewb|af|hist]\n"
		"               [-c L,T,W,H] [-r WxH] [-n FRAMES]\n"
		"               [-i raw10|raw8|yuyv|uyvy:FILE]\n");
	exit(2);
}

static void parse_size(const char *arg, unsigned int *w, unsigned int *h)
{
	if (sscanf(arg, "%ux%u", w, h) != 2 || *w < 2 || *h < 2 ||
	    *w > PIX_MAX_WIDTH || *h > PIX_MAX_WIDTH || (*w & 1))
		usage();
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n, size);

	if (!p) {
		perror("isp-ref");
		exit(1);
	}
	return p;
}

/* the input frame of -i FMT:FILE, @size bytes */
static void *read_input(const char *path, size_t size)
{
	void *buf = xcalloc(size, 1);
	FILE *f = fopen(path, "rb");

	if (!f || fread(buf, 1, size, f) != size) {
		fprintf(stderr, "isp-ref: %s: cannot read a %zu-byte input frame\n",
			path, size);
		exit(1);
	}
	fclose(f);
	return buf;
}

/* the scene file of -S, checked by the driver's own pix_image_parse() */
static void read_scene(const char *path, struct pix_image *img)
{
	FILE *f = fopen(path, "rb");
	const char *why;
	long size;
	void *buf;

	if (!f || fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET)) {
		fprintf(stderr, "isp-ref: %s: cannot read the scene file\n", path);
		exit(1);
	}
	buf = xcalloc(size ? size : 1, 1);
	if (fread(buf, 1, size, f) != (size_t)size) {
		fprintf(stderr, "isp-ref: %s: cannot read the scene file\n", path);
		exit(1);
	}
	fclose(f);
	why = pix_image_parse(buf, size, img);
	if (why) {
		fprintf(stderr, "isp-ref: %s: %s\n", path, why);
		exit(1);
	}
}

static void put(const void *buf, size_t size)
{
	if (fwrite(buf, 1, size, stdout) != size) {
		perror("isp-ref: write");
		exit(1);
	}
}

int main(int argc, char **argv)
{
	static struct pix_scene scene = {
		.width = 640, .height = 480, .exposure = 1000,
		.exposure_ref = 1000,
		.focus = PIX_FOCUS_SHARP, .kelvin = PIX_KELVIN_DEF,
	};
	static struct pix_image image;
	const char *scene_file = NULL;
	unsigned int frame0 = 0;
	static struct pix_lsc lsc;
	struct pix_ccdc ccdc = { 0 };
	struct pix_wb wb = { 256, { 32, 32, 32, 32 } };
	struct pix_resizer rsz = { 0 };
	struct pix_preview prv = {
		.contrast = PIX_CONTRAST_DEF,
		.brightness = PIX_BRIGHTNESS_DEF,
	};
	const char *output = "raw10";
	unsigned int frames = 1, w, h, y, f, yuv, resize, uyvy;
	unsigned int cl = 0, ct = 0, cw = 0, ch = 0, stat;
	static struct n900_isp_aewb aewb;
	static struct n900_isp_af af;
	static struct n900_isp_hist hist;
	const char *input = NULL;
	unsigned int in_raw8 = 0, in_yuv = 0;
	u16 *raw, *line;
	u8 *yuvbuf, *out, *tmp, *in = NULL;
	int opt;

	while ((opt = getopt(argc, argv, "s:p:S:T:N:F:e:E:g:f:k:l:w:b:C:o:c:r:n:i:")) != -1) {
		switch (opt) {
		case 's':
			parse_size(optarg, &scene.width, &scene.height);
			break;
		case 'p':
			if (!strcmp(optarg, "scene"))
				scene.pattern = PIX_PATTERN_SCENE;
			else if (!strcmp(optarg, "bars"))
				scene.pattern = PIX_PATTERN_BARS;
			else if (!strcmp(optarg, "gradient"))
				scene.pattern = PIX_PATTERN_GRADIENT;
			else if (!strcmp(optarg, "image"))
				scene.pattern = PIX_PATTERN_IMAGE;
			else
				usage();
			break;
		case 'S':
			scene_file = optarg;
			break;
		case 'T':
			scene.kelvin = strtoul(optarg, NULL, 0);
			break;
		case 'N':
			scene.noise = 1;
			scene.seed = strtoul(optarg, NULL, 0);
			break;
		case 'F':
			frame0 = strtoul(optarg, NULL, 0);
			break;
		case 'e':
			scene.exposure = strtoul(optarg, NULL, 0);
			break;
		case 'E':
			scene.exposure_ref = strtoul(optarg, NULL, 0);
			break;
		case 'g':
			scene.gain = strtoul(optarg, NULL, 0);
			break;
		case 'f':
			scene.focus = strtoul(optarg, NULL, 0);
			break;
		case 'k':
			ccdc.black = strtoul(optarg, NULL, 0);
			break;
		case 'l':
			lsc.enable = 1;
			lsc.strength = strtoul(optarg, NULL, 0);
			break;
		case 'w':
			if (sscanf(optarg, "%u,%u,%u,%u,%u", &wb.dgain, &wb.gain[PIX_GR],
				   &wb.gain[PIX_R], &wb.gain[PIX_B],
				   &wb.gain[PIX_GB]) != 5)
				usage();
			break;
		case 'b':
			prv.brightness = strtoul(optarg, NULL, 0);
			break;
		case 'C':
			prv.contrast = strtoul(optarg, NULL, 0);
			break;
		case 'o':
			output = optarg;
			break;
		case 'c':
			if (sscanf(optarg, "%u,%u,%u,%u", &cl, &ct, &cw, &ch) != 4)
				usage();
			break;
		case 'r':
			parse_size(optarg, &rsz.out_w, &rsz.out_h);
			break;
		case 'n':
			frames = strtoul(optarg, NULL, 0);
			break;
		case 'i':
			input = optarg;
			break;
		default:
			usage();
		}
	}
	w = scene.width;
	h = scene.height;
	stat = !strcmp(output, "aewb") || !strcmp(output, "af") ||
	       !strcmp(output, "hist");
	yuv = strcmp(output, "raw10") && strcmp(output, "raw8") && !stat;
	resize = !strncmp(output, "resizer-", 8);
	uyvy = !strcmp(output, "uyvy") || !strcmp(output, "resizer-uyvy");
	prv.uyvy = uyvy;
	if (yuv && !resize && strcmp(output, "yuyv") && !uyvy)
		usage();
	if (!resize && rsz.out_w)
		usage();
	if (!cw) {
		cw = scene.width;
		ch = scene.height;
	}
	if (input) {
		const char *file = strchr(input, ':');
		size_t bpp = 2;

		if (!file)
			usage();
		file++;
		if (!strncmp(input, "raw8:", 5))
			in_raw8 = 1, bpp = 1;
		else if (!strncmp(input, "yuyv:", 5) || !strncmp(input, "uyvy:", 5))
			in_yuv = 1;
		else if (strncmp(input, "raw10:", 6))
			usage();
		if (in_yuv && !resize)
			usage();
		in = read_input(file, (size_t)w * h * bpp);
	}
	if (cl + cw > scene.width || ct + ch > scene.height || (yuv && cw != scene.width))
		usage();

	if (scene_file) {
		read_scene(scene_file, &image);
		pix_scene_set_image(&scene, &image,
				    xcalloc(pix_image_blur_size(&image), 1));
		/* as the driver: the frames after the first read the charges */
		pix_scene_set_cache(&scene,
				    xcalloc(pix_scene_cache_size(scene.width,
								 scene.height), 1));
	}
	lsc.width = w;
	lsc.height = h;
	pix_scene_prepare(&scene);
	pix_lsc_prepare(&lsc);
	rsz.in_w = w;
	rsz.in_h = h;
	if (!rsz.out_w) {
		rsz.out_w = w;
		rsz.out_h = h;
	}
	pix_resizer_prepare(&rsz);

	/* the whole raw frame after CCDC, LSC and WB, then the YUV stages */
	raw = xcalloc((size_t)w * h, sizeof(*raw));
	line = xcalloc(w, sizeof(*line));
	yuvbuf = xcalloc((size_t)w * h * 2, 1);
	out = xcalloc((size_t)rsz.out_w * 2 > w * 2 ? rsz.out_w * 2 : w * 2, 1);
	/*
	 * the resizer's line buffer; its chroma is read a U V pair at a time,
	 * and an odd width (which the driver never passes) has a half pair
	 */
	tmp = xcalloc(((size_t)w + 1) * 2, 1);

	for (f = 0; f < frames; f++) {
		scene.frame = frame0 + f;
		for (y = 0; y < h && !in_yuv; y++) {
			u16 *r = raw + (size_t)y * w;

			if (!in)
				pix_sensor_line(&scene, y, line);
			else if (in_raw8)
				pix_raw8_to_raw10(in + (size_t)y * w, line, w);
			else
				memcpy(line, in + (size_t)y * w * 2, (size_t)w * 2);
			pix_ccdc_line(&ccdc, line, r, w);
			if (!yuv)
				continue;
			pix_lsc_line(&lsc, y, r, line);
			pix_wb_line(&wb, y, line, r, w);
		}
		if (stat) {
			pix_aewb_init(&aewb, w, h);
			pix_af_init(&af, w, h);
			pix_hist_init(&hist, w, h);
			for (y = 0; y < h; y++) {
				pix_aewb_line(&aewb, y, raw + (size_t)y * w);
				pix_af_line(&af, y, raw + (size_t)y * w);
				pix_hist_line(&hist, y, raw + (size_t)y * w);
			}
			if (!strcmp(output, "aewb"))
				put(&aewb, sizeof(aewb));
			else if (!strcmp(output, "af"))
				put(&af, sizeof(af));
			else
				put(&hist, sizeof(hist));
			continue;
		}
		if (!strcmp(output, "raw10")) {
			for (y = ct; y < ct + ch; y++)
				put(raw + (size_t)y * w + cl, (size_t)cw * 2);
			continue;
		}
		if (!strcmp(output, "raw8")) {
			for (y = ct; y < ct + ch; y++) {
				pix_raw10_to_raw8(raw + (size_t)y * w + cl, out, cw);
				put(out, cw);
			}
			continue;
		}
		if (!in_yuv)
			pix_preview_lines(&prv, raw, (size_t)w * 2, w, h, false,
					  0, h, yuvbuf, (size_t)w * 2);
		if (!resize) {
			put(yuvbuf, (size_t)w * h * 2);
			continue;
		}
		for (y = 0; y < rsz.out_h; y++) {
			unsigned int sy = pix_resizer_src_line(&rsz, y);
			unsigned int sy1 = sy + 1 < h ? sy + 1 : sy;
			const u8 *src = in_yuv ? in : yuvbuf;

			pix_resizer_line(&rsz, y, src + (size_t)sy * w * 2,
					 src + (size_t)sy1 * w * 2, out, tmp,
					 uyvy, NULL);
			put(out, (size_t)rsz.out_w * 2);
		}
	}
	return 0;
}
