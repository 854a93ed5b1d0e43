// SPDX-License-Identifier: GPL-2.0
/*
 * n900-3a - a 3A loop (auto-exposure, auto-white-balance, auto-focus) on the
 * emulated N900 camera, driven by the ISP's statistics: a starting point for
 * your own algorithms. Installed in the guest as /usr/bin/n900-3a.
 *
 *   n900-3a [-n FRAMES] [--no-ae] [--no-awb] [--no-af] [-e LINES] [-g CODE]
 *           [-w R,B] [-l POS] [-t LUMA] [--log FILE] [--save N:PREFIX]
 *           [--no-setup] [-d /dev/mediaN]
 *
 * The pipeline (set up with media-ctl unless --no-setup; README "3A"):
 *
 *   et8ek8 648x492 -> bus switch -> CCP2 -> CCDC -+-> LSC -> WB -> preview
 *                                                 |      -> preview output
 *                                                 +-> AEWB, AF, histogram
 *                                                       -> metadata nodes
 *
 * Each frame: one buffer is queued on each of the four capture nodes (the
 * preview output and the three statistics nodes); the emulator renders a
 * frame when a buffer is queued, reading the controls then, so a frame's
 * statistics always reflect the controls set after the previous frame. (A
 * real sensor applies a new exposure one or two frames later: a loop on
 * hardware keeps the controls of each frame in flight.) Then:
 *
 * - auto-exposure: the mean luma the preview will output is predicted from
 *   the AEWB window sums and the white balance gains, and driven to the
 *   target by the exposure (preferred: less noise) and the analogue gain.
 *   The histogram keeps highlights unclipped: the exposure may not take the
 *   brightest 0.3 % of samples past 92 % of the full well, nor the gain
 *   past the ADC's white level. The two clips differ: at 1x a full pixel
 *   reads 750 DN (after the black level), below the ADC's 959.
 * - auto-white-balance: the AEWB windows whose colour lies near the
 *   sensor's grey locus (the R/G, B/G of a grey surface under black bodies
 *   of 2000 K to 10000 K) are taken as grey; their sums give the gains,
 *   then again from those within 4 % of that estimate. A scene with
 *   nothing grey falls back to grey-world, moved onto the locus.
 * - auto-focus: once the exposure has settled, a contrast search of the
 *   lens (ad5820): a coarse sweep in steps of 128, then steps of 16 around
 *   the best, on the AF energy normalised by the mean green level; the
 *   lens ends in the middle of the positions within 0.5 % of the best.
 *
 * It prints one line per frame, and when a loop converges the frame at
 * which it did. --log FILE writes the same per frame, tab-separated with a
 * header line, for gnuplot (tests/host/3a-plot.sh). --save N:PREFIX writes
 * frame N's preview output (PREFIX.uyvy) and histogram buffer
 * (PREFIX.hist, struct n900_isp_hist) for offline measurement.
 *
 * Statistics layout: drivers/include/uapi/n900_isp_stats.h; controls:
 * drivers/include/uapi/n900_isp_controls.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <linux/media.h>
#include <linux/v4l2-controls.h>
#include <linux/videodev2.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../../drivers/include/uapi/n900_isp_controls.h"
#include "../../drivers/include/uapi/n900_isp_stats.h"

#define WIDTH		648
#define HEIGHT		492
#define NBUF		2

/* the et8ek8 model (README, "The physical sensor"): its tuning data */
#define FULL_WELL_DN	750.0	/* a full pixel at 1x, DN after the black level */
#define ADC_MAX		1023.0	/* the 10-bit ADC, before the black level */
#define GAIN_CODE(g)	(((g) - 1.0) * 16.0)	/* analogue_gain: (16 + code) / 16 */

/* AE: the clipped fraction it keeps under, and the highlights' headroom */
#define AE_CLIP_MAX	0.005
#define AE_HL_FRACTION	0.003
#define AE_HL_WELL	0.92
#define AE_HL_ADC	0.95
#define AE_TOLERANCE	0.02

/* AWB: the grey locus, R/G and B/G of a grey surface, 2000 K to 10000 K */
static const double locus_rg[] = {
	2.493, 1.910, 1.600, 1.409, 1.282, 1.192, 1.125, 1.073, 1.033,
	1.000, 0.973, 0.951, 0.932, 0.916, 0.902, 0.890, 0.879,
};

static const double locus_bg[] = {
	0.203, 0.323, 0.439, 0.547, 0.646, 0.733, 0.812, 0.882, 0.944,
	1.000, 1.050, 1.094, 1.134, 1.170, 1.203, 1.232, 1.259,
};

#define LOCUS_N		(sizeof(locus_rg) / sizeof(locus_rg[0]))
#define AWB_NEAR_LOCUS	0.06	/* in ln(R/G), ln(B/G) */
#define AWB_NEAR_GREY	0.04
#define AWB_SPEED	0.6
#define AWB_TOLERANCE	0.015

/* AF: the sweep */
#define AF_COARSE	128
#define AF_FINE		16
#define AF_FINE_SPAN	64
#define AF_TOP		0.005
#define AF_MAX_POS	1023

struct node {
	const char *entity;
	int fd;
	enum v4l2_buf_type type;
	unsigned int size;
	void *mem[NBUF];
	unsigned int index;	/* the buffer in flight */
};

enum { N_VIDEO, N_AEWB, N_AF, N_HIST, N_NODES };

struct state {
	/* the controls */
	int exposure, exposure_max, gain_code, gain_max, lens;
	double wb_r, wb_b;	/* R/G and B/G gains */
	int black;
	/* per loop: on, converged, the frame since which it is converged */
	int ae, awb, af;
	int ae_ok, awb_ok;
	int ae_frame, awb_frame, af_frame;
	/* AE */
	double target, luma, clip;
	/* AWB */
	double est_r, est_b;
	int grey_windows;
	/* AF */
	enum { AF_WAIT, AF_COARSE_SWEEP, AF_FINE_SWEEP, AF_DONE } af_state;
	int af_pos[32];
	double af_val[32];
	int af_n, af_next, af_count, af_final;
	double af_metric;
};

static const char *media = "/dev/media0";

static void die(const char *fmt, const char *arg)
{
	fprintf(stderr, "n900-3a: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "%s%s\n", errno ? ": " : "", errno ? strerror(errno) : "");
	exit(1);
}

/* the device node of the entity named @name, from the media device */
static int open_entity(const char *name)
{
	struct media_entity_desc ent = { .id = MEDIA_ENT_ID_FLAG_NEXT };
	char path[300], line[256];
	int fd, node = -1;
	FILE *f;

	fd = open(media, O_RDWR);
	if (fd < 0)
		die("cannot open %s", media);
	while (ioctl(fd, MEDIA_IOC_ENUM_ENTITIES, &ent) == 0) {
		if (!strcmp(ent.name, name))
			break;
		ent.id |= MEDIA_ENT_ID_FLAG_NEXT;
	}
	close(fd);
	if (strcmp(ent.name, name)) {
		errno = 0;
		die("no entity \"%s\" in the media graph", name);
	}
	snprintf(path, sizeof(path), "/sys/dev/char/%u:%u/uevent",
		 ent.dev.major, ent.dev.minor);
	f = fopen(path, "r");
	if (!f)
		die("cannot read %s", path);
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "DEVNAME=", 8)) {
			line[strcspn(line, "\n")] = 0;
			snprintf(path, sizeof(path), "/dev/%s", line + 8);
			node = open(path, O_RDWR);
		}
	fclose(f);
	if (node < 0)
		die("cannot open the node of \"%s\"", name);
	return node;
}

static int get_ctrl(int fd, unsigned int id, int *min, int *max)
{
	struct v4l2_queryctrl q = { .id = id };
	struct v4l2_control c = { .id = id };

	if (ioctl(fd, VIDIOC_G_CTRL, &c) < 0)
		die("VIDIOC_G_CTRL %s", "");
	if ((min || max) && ioctl(fd, VIDIOC_QUERYCTRL, &q) == 0) {
		if (min)
			*min = q.minimum;
		if (max)
			*max = q.maximum;
	}
	return c.value;
}

static void set_ctrl(int fd, unsigned int id, int value)
{
	struct v4l2_control c = { .id = id, .value = value };

	if (ioctl(fd, VIDIOC_S_CTRL, &c) < 0)
		die("VIDIOC_S_CTRL %s", "");
}

static void node_start(struct node *n)
{
	struct v4l2_requestbuffers req = { .count = NBUF,
					   .memory = V4L2_MEMORY_MMAP };
	struct v4l2_format fmt = { 0 };
	unsigned int i;

	n->fd = open_entity(n->entity);
	fmt.type = n->type;
	if (ioctl(n->fd, VIDIOC_G_FMT, &fmt) < 0)
		die("VIDIOC_G_FMT on %s", n->entity);
	n->size = n->type == V4L2_BUF_TYPE_META_CAPTURE ?
		  fmt.fmt.meta.buffersize : fmt.fmt.pix.sizeimage;
	req.type = n->type;
	if (ioctl(n->fd, VIDIOC_REQBUFS, &req) < 0 || req.count < NBUF)
		die("VIDIOC_REQBUFS on %s", n->entity);
	for (i = 0; i < NBUF; i++) {
		struct v4l2_buffer buf = { .index = i, .type = n->type,
					   .memory = V4L2_MEMORY_MMAP };

		if (ioctl(n->fd, VIDIOC_QUERYBUF, &buf) < 0)
			die("VIDIOC_QUERYBUF on %s", n->entity);
		n->mem[i] = mmap(NULL, buf.length, PROT_READ | PROT_WRITE,
				 MAP_SHARED, n->fd, buf.m.offset);
		if (n->mem[i] == MAP_FAILED)
			die("mmap on %s", n->entity);
	}
	if (ioctl(n->fd, VIDIOC_STREAMON, &n->type) < 0)
		die("VIDIOC_STREAMON on %s (with --no-setup, is the pipeline configured as README's \"3A\" says?)",
		    n->entity);
}

static void node_queue(struct node *n)
{
	struct v4l2_buffer buf = { .index = n->index, .type = n->type,
				   .memory = V4L2_MEMORY_MMAP };

	if (ioctl(n->fd, VIDIOC_QBUF, &buf) < 0)
		die("VIDIOC_QBUF on %s", n->entity);
}

/* wait for the buffer in flight; returns its sequence number */
static unsigned int node_dequeue(struct node *n)
{
	struct v4l2_buffer buf = { .type = n->type, .memory = V4L2_MEMORY_MMAP };
	struct pollfd pfd = { .fd = n->fd, .events = POLLIN };

	errno = 0;
	if (poll(&pfd, 1, 10000) <= 0)
		die("no frame from %s in 10 s", n->entity);
	if (ioctl(n->fd, VIDIOC_DQBUF, &buf) < 0)
		die("VIDIOC_DQBUF on %s", n->entity);
	if (buf.flags & V4L2_BUF_FLAG_ERROR) {
		errno = 0;
		die("a buffer of %s came back with an error", n->entity);
	}
	n->index = buf.index;
	return buf.sequence;
}

/* -----------------------------------------------------------------------------
 * White balance gains: R/G, B/G as the white balance block's registers
 */

/*
 * The block multiplies each sample by digital gain (U10Q8) x channel gain
 * (U8Q5): the channel gains' step of 1/32 alone is 3 % at 1.0. The green
 * gain is set as high as the largest gain allows and the digital gain
 * divides it back, which makes the steps up to 4 times finer.
 */
static void wb_codes(double r, double b, int code[4], int *dgain)
{
	double top = r > b ? r : b;
	int g;

	if (top < 1.0)
		top = 1.0;
	g = (int)(255.0 / top);
	if (g > 128)
		g = 128;
	code[N900_STAT_GR] = g;
	code[N900_STAT_GB] = g;
	code[N900_STAT_R] = (int)lround(g * r);
	code[N900_STAT_B] = (int)lround(g * b);
	*dgain = (int)lround(256.0 * 32.0 / g);
}

/* the gain the block applies to channel @c, as a factor */
static double wb_factor(double r, double b, int c)
{
	int code[4], dgain;

	wb_codes(r, b, code, &dgain);
	return dgain * code[c] / 8192.0;
}

static void wb_apply(int fd, double r, double b)
{
	int code[4], dgain;

	wb_codes(r, b, code, &dgain);
	set_ctrl(fd, V4L2_CID_DIGITAL_GAIN, dgain);
	set_ctrl(fd, V4L2_CID_N900_WB_GAIN_GR, code[N900_STAT_GR]);
	set_ctrl(fd, V4L2_CID_N900_WB_GAIN_R, code[N900_STAT_R]);
	set_ctrl(fd, V4L2_CID_N900_WB_GAIN_B, code[N900_STAT_B]);
	set_ctrl(fd, V4L2_CID_N900_WB_GAIN_GB, code[N900_STAT_GB]);
}

/* -----------------------------------------------------------------------------
 * Statistics
 */

/* the mean R, G, B of AEWB window (y, x), after the black level */
static void window_rgb(const struct n900_isp_aewb *a, int y, int x,
		       double rgb[3])
{
	double n = a->win_width * a->win_height / 4.0;
	const __u32 *s = a->sum[y][x];

	rgb[0] = s[N900_STAT_R] / n;
	rgb[1] = (s[N900_STAT_GR] + s[N900_STAT_GB]) / (2 * n);
	rgb[2] = s[N900_STAT_B] / n;
}

/* the saturation level in DN after the black level, at the current gain */
static double saturation(const struct state *s)
{
	double fw = FULL_WELL_DN * (16 + s->gain_code) / 16.0;
	double adc = ADC_MAX - s->black;

	return fw < adc ? fw : adc;
}

/* the fraction of samples (every channel) at or above @level DN */
static double hist_above(const struct n900_isp_hist *h, double level)
{
	double n = 0, total = 0;
	int c, b;

	for (c = 0; c < 4; c++)
		for (b = 0; b < N900_HIST_BINS; b++) {
			double lo = b * 16.0, hi = lo + 16;

			total += h->bins[c][b];
			if (lo >= level)
				n += h->bins[c][b];
			else if (hi > level)
				n += h->bins[c][b] * (hi - level) / 16;
		}
	return total ? n / total : 0;
}

/* the level in DN above which the brightest @fraction of samples lie */
static double hist_level(const struct n900_isp_hist *h, double fraction)
{
	double total = 0, need, n = 0;
	int c, b;

	for (c = 0; c < 4; c++)
		for (b = 0; b < N900_HIST_BINS; b++)
			total += h->bins[c][b];
	need = total * fraction;
	for (b = N900_HIST_BINS - 1; b >= 0; b--) {
		double here = 0;

		for (c = 0; c < 4; c++)
			here += h->bins[c][b];
		if (n + here >= need && here > 0)
			return b * 16.0 + 16.0 * (n + here - need) / here;
		n += here;
	}
	return 0;
}

/* -----------------------------------------------------------------------------
 * Auto-exposure
 */

/*
 * The mean luma the preview outputs (Y - 16, BT.601 limited range), from
 * the AEWB windows, white balanced: the preview takes 10-bit samples >> 2
 * and weighs R, G, B by 66, 129, 25 / 256.
 */
static double predict_luma(const struct n900_isp_aewb *a, const struct state *s)
{
	double gr = wb_factor(s->wb_r, s->wb_b, N900_STAT_R);
	double gg = wb_factor(s->wb_r, s->wb_b, N900_STAT_GR);
	double gb = wb_factor(s->wb_r, s->wb_b, N900_STAT_B);
	double sum = 0, rgb[3];
	int x, y;

	for (y = 0; y < N900_AEWB_WIN_V; y++)
		for (x = 0; x < N900_AEWB_WIN_H; x++) {
			window_rgb(a, y, x, rgb);
			sum += (66 * rgb[0] * gr + 129 * rgb[1] * gg +
				25 * rgb[2] * gb) / 256.0;
		}
	sum /= N900_AEWB_WIN_V * N900_AEWB_WIN_H;
	/*
	 * rounded down twice: the white balance's product (0.5 DN of 10
	 * bits) and the preview's >> 2 (0.375 of 8 bits), on each channel
	 */
	return sum / 4 - (0.125 + 0.375) * 220 / 256;
}

static void ae_update(struct state *s, const struct n900_isp_aewb *a,
		      const struct n900_isp_hist *h, int frame)
{
	double gain = (16 + s->gain_code) / 16.0, sat = saturation(s);
	double k, k_well, hl, total, e_lim, g, g_adc;
	int code, e;

	s->luma = predict_luma(a, s);
	s->clip = hist_above(h, 0.98 * sat);
	k = s->luma > 0.5 ? s->target / s->luma : 16;
	s->ae_ok = fabs(k - 1) < AE_TOLERANCE && s->clip < 2 * AE_CLIP_MAX;
	if (s->ae_ok && !s->ae_frame)
		s->ae_frame = frame;
	else if (!s->ae_ok)
		s->ae_frame = 0;
	if (!s->ae || (s->ae_ok && s->clip < AE_CLIP_MAX))
		return;
	if (k > 16)
		k = 16;
	if (k < 1 / 16.0)
		k = 1 / 16.0;

	/* the highlights: how far the exposure may go before they clip */
	hl = hist_level(h, AE_HL_FRACTION);
	if (s->clip > AE_CLIP_MAX)
		k_well = s->clip > 0.05 ? 0.5 : 0.8;
	else
		k_well = hl > 0 ? AE_HL_WELL * FULL_WELL_DN * gain / hl : 16;

	total = s->exposure * gain * k;
	e_lim = s->exposure * k_well;
	if (e_lim > s->exposure_max)
		e_lim = s->exposure_max;
	if (total <= e_lim) {
		e = (int)lround(total);
		code = 0;
	} else {
		g = total / e_lim;
		/* the ADC: the highlights at the new gain stay under it */
		g_adc = hl > 0 ? AE_HL_ADC * (ADC_MAX - s->black) * gain /
				 (hl * e_lim / s->exposure) : 16;
		if (g > g_adc)
			g = g_adc;
		code = (int)ceil(GAIN_CODE(g) - 1e-9);
		if (code < 0)
			code = 0;
		if (code > s->gain_max)
			code = s->gain_max;
		e = (int)lround(total / ((16 + code) / 16.0));
		if (e > e_lim)
			e = (int)e_lim;
	}
	if (e < 1)
		e = 1;
	if (e > s->exposure_max)
		e = s->exposure_max;
	s->exposure = e;
	s->gain_code = code;
}

/* -----------------------------------------------------------------------------
 * Auto-white-balance
 */

/* the distance of (u, v) = (ln R/G, ln B/G) to the grey locus */
static double locus_distance(double u, double v, double *lu, double *lv)
{
	double best = 1e9;
	unsigned int i;

	for (i = 0; i + 1 < LOCUS_N; i++) {
		double u0 = log(locus_rg[i]), v0 = log(locus_bg[i]);
		double du = log(locus_rg[i + 1]) - u0, dv = log(locus_bg[i + 1]) - v0;
		double t = ((u - u0) * du + (v - v0) * dv) / (du * du + dv * dv);
		double pu, pv, d;

		t = t < 0 ? 0 : t > 1 ? 1 : t;
		pu = u0 + t * du;
		pv = v0 + t * dv;
		d = hypot(u - pu, v - pv);
		if (d < best) {
			best = d;
			if (lu)
				*lu = pu;
			if (lv)
				*lv = pv;
		}
	}
	return best;
}

/*
 * The gains that make the windows near (cu, cv) grey, within @radius (or
 * near the locus when @radius is 0); the number of windows used
 */
static int grey_estimate(const struct n900_isp_aewb *a, double sat,
			 double radius, double cu, double cv, double *r,
			 double *b)
{
	double sum[3] = { 0 }, rgb[3];
	int x, y, n = 0;

	for (y = 0; y < N900_AEWB_WIN_V; y++)
		for (x = 0; x < N900_AEWB_WIN_H; x++) {
			double u, v, d, w, lim = radius ? radius : AWB_NEAR_LOCUS;

			window_rgb(a, y, x, rgb);
			/* too dark to tell, or near clipping */
			if (rgb[1] < 0.02 * sat || rgb[0] > 0.8 * sat ||
			    rgb[1] > 0.8 * sat || rgb[2] > 0.8 * sat ||
			    rgb[0] <= 0 || rgb[2] <= 0)
				continue;
			u = log(rgb[0] / rgb[1]);
			v = log(rgb[2] / rgb[1]);
			d = radius ? hypot(u - cu, v - cv) :
				     locus_distance(u, v, NULL, NULL);
			if (d >= lim)
				continue;
			w = rgb[1] * (1 - d / lim);
			sum[0] += w * rgb[0];
			sum[1] += w * rgb[1];
			sum[2] += w * rgb[2];
			n++;
		}
	if (!n)
		return 0;
	*r = sum[1] / sum[0];
	*b = sum[1] / sum[2];
	return n;
}

static void awb_update(struct state *s, const struct n900_isp_aewb *a,
		       int frame)
{
	double sat = saturation(s), r, b, rgb[3], sum[3] = { 0 }, lu, lv;
	int x, y, n;

	n = grey_estimate(a, sat, 0, 0, 0, &r, &b);
	if (n) {
		/* again, around the first estimate: only the greys near it */
		n = grey_estimate(a, sat, AWB_NEAR_GREY, log(1 / r),
				  log(1 / b), &r, &b);
	}
	if (!n) {
		/* nothing grey: grey-world, onto the locus */
		for (y = 0; y < N900_AEWB_WIN_V; y++)
			for (x = 0; x < N900_AEWB_WIN_H; x++) {
				window_rgb(a, y, x, rgb);
				sum[0] += rgb[0];
				sum[1] += rgb[1];
				sum[2] += rgb[2];
			}
		if (sum[0] <= 0 || sum[2] <= 0)
			return;
		locus_distance(log(sum[0] / sum[1]), log(sum[2] / sum[1]),
			       &lu, &lv);
		r = exp(-lu);
		b = exp(-lv);
	}
	s->grey_windows = n;
	s->est_r = r;
	s->est_b = b;
	s->awb_ok = fabs(r / s->wb_r - 1) < AWB_TOLERANCE &&
		    fabs(b / s->wb_b - 1) < AWB_TOLERANCE;
	if (s->awb_ok && !s->awb_frame)
		s->awb_frame = frame;
	else if (!s->awb_ok)
		s->awb_frame = 0;
	if (!s->awb)
		return;
	/* a step of AWB_SPEED of the way, in the log domain */
	s->wb_r *= pow(r / s->wb_r, AWB_SPEED);
	s->wb_b *= pow(b / s->wb_b, AWB_SPEED);
}

/* -----------------------------------------------------------------------------
 * Auto-focus
 */

static void af_plan_coarse(struct state *s)
{
	int p, i = 0;

	for (p = 0; p <= AF_MAX_POS + AF_COARSE - 1; p += AF_COARSE)
		s->af_pos[i++] = p > AF_MAX_POS ? AF_MAX_POS : p;
	s->af_count = i;
	/* from the end the lens is nearest */
	if (s->lens > AF_MAX_POS / 2)
		for (i = 0; i < s->af_count / 2; i++) {
			p = s->af_pos[i];
			s->af_pos[i] = s->af_pos[s->af_count - 1 - i];
			s->af_pos[s->af_count - 1 - i] = p;
		}
	s->af_n = 0;
}

static void af_plan_fine(struct state *s, int centre)
{
	int p, i = 0;

	for (p = centre - AF_FINE_SPAN; p <= centre + AF_FINE_SPAN; p += AF_FINE)
		if (p >= 0 && p <= AF_MAX_POS)
			s->af_pos[i++] = p;
	s->af_count = i;
	s->af_n = 0;
}

static int af_best(const struct state *s)
{
	int i, best = 0;

	for (i = 1; i < s->af_count; i++)
		if (s->af_val[i] > s->af_val[best])
			best = i;
	return best;
}

/* the middle of the positions within AF_TOP of the best */
static int af_middle(const struct state *s)
{
	double top = s->af_val[af_best(s)];
	int i, lo = AF_MAX_POS, hi = 0;

	for (i = 0; i < s->af_count; i++)
		if (s->af_val[i] >= top * (1 - AF_TOP)) {
			if (s->af_pos[i] < lo)
				lo = s->af_pos[i];
			if (s->af_pos[i] > hi)
				hi = s->af_pos[i];
		}
	return (lo + hi) / 2;
}

static void af_update(struct state *s, const struct n900_isp_af *af,
		      const struct n900_isp_aewb *a, int frame)
{
	double green = 0;
	int x, y;

	for (y = 0; y < N900_AEWB_WIN_V; y++)
		for (x = 0; x < N900_AEWB_WIN_H; x++)
			green += a->sum[y][x][N900_STAT_GR] +
				 a->sum[y][x][N900_STAT_GB];
	s->af_metric = green > 0 ? af->total / green : 0;
	if (!s->af)
		return;

	switch (s->af_state) {
	case AF_WAIT:
		/* the sweep wants a steady exposure */
		if (!s->ae_ok && s->ae && frame < 8)
			return;
		af_plan_coarse(s);
		s->af_state = AF_COARSE_SWEEP;
		s->lens = s->af_pos[0];
		return;
	case AF_COARSE_SWEEP:
	case AF_FINE_SWEEP:
		/* this frame was taken at af_pos[af_n] */
		s->af_val[s->af_n++] = s->af_metric;
		if (s->af_n < s->af_count) {
			s->lens = s->af_pos[s->af_n];
			return;
		}
		if (s->af_state == AF_COARSE_SWEEP) {
			af_plan_fine(s, s->af_pos[af_best(s)]);
			s->af_state = AF_FINE_SWEEP;
			s->lens = s->af_pos[0];
			return;
		}
		s->lens = af_middle(s);
		s->af_final = s->lens;
		s->af_state = AF_DONE;
		/* the next frame is the first at the final position */
		s->af_frame = frame + 1;
		return;
	case AF_DONE:
		return;
	}
}

/* -----------------------------------------------------------------------------
 * The loop
 */

static void setup_pipeline(void)
{
	static const char *const cmds[] = {
		"media-ctl -d %s -r",
		"media-ctl -d %s -l '\"et8ek8 3-003e\":0 -> \"video-bus-switch\":0 [1]'",
		"media-ctl -d %s -l '\"video-bus-switch\":2 -> \"OMAP3 ISP CCP2\":0 [1]'",
		"media-ctl -d %s -l '\"OMAP3 ISP CCP2\":1 -> \"OMAP3 ISP CCDC\":0 [1]'",
		"media-ctl -d %s -l '\"OMAP3 ISP CCDC\":1 -> \"OMAP3 ISP lens shading\":0 [1]'",
		"media-ctl -d %s -l '\"OMAP3 ISP white balance\":1 -> \"OMAP3 ISP preview\":0 [1]'",
		"media-ctl -d %s -l '\"OMAP3 ISP preview\":1 -> \"OMAP3 ISP preview output\":0 [1]'",
		"media-ctl -d %s -V '\"et8ek8 3-003e\":0 [fmt:SGRBG10_1X10/648x492], \"video-bus-switch\":2 [fmt:SGRBG10_1X10/648x492], \"OMAP3 ISP CCP2\":1 [fmt:SGRBG10_1X10/648x492]'",
		"media-ctl -d %s -V '\"OMAP3 ISP CCDC\":1 [fmt:SGRBG10_1X10/648x492], \"OMAP3 ISP lens shading\":1 [fmt:SGRBG10_1X10/648x492], \"OMAP3 ISP white balance\":1 [fmt:SGRBG10_1X10/648x492]'",
		"media-ctl -d %s -V '\"OMAP3 ISP preview\":1 [fmt:UYVY8_1X16/648x492]'",
	};
	struct v4l2_format fmt = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	char cmd[512];
	unsigned int i;
	int fd;

	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		snprintf(cmd, sizeof(cmd), cmds[i], media);
		if (system(cmd)) {
			errno = 0;
			die("failed: %s", cmd);
		}
	}
	fd = open_entity("OMAP3 ISP preview output");
	fmt.fmt.pix.width = WIDTH;
	fmt.fmt.pix.height = HEIGHT;
	fmt.fmt.pix.pixelformat = V4L2_PIX_FMT_UYVY;
	if (ioctl(fd, VIDIOC_S_FMT, &fmt) < 0)
		die("VIDIOC_S_FMT on %s", "OMAP3 ISP preview output");
	close(fd);
}

static void save(const char *prefix, const char *ext, const void *mem,
		 unsigned int size)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s.%s", prefix, ext);
	f = fopen(path, "w");
	if (!f || fwrite(mem, 1, size, f) != size || fclose(f))
		die("cannot write %s", path);
}

static const char *frame_or_dash(int frame, char buf[16])
{
	if (!frame)
		return "-";
	snprintf(buf, 16, "%d", frame);
	return buf;
}

static void usage(const char *argv0)
{
	fprintf(stderr,
		"usage: %s [options]\n"
		"  -n, --frames N       frames to run (default 30)\n"
		"      --no-ae          leave exposure and gain alone\n"
		"      --no-awb         leave the white balance gains alone\n"
		"      --no-af          leave the lens alone\n"
		"  -e, --exposure LINES starting exposure (default: as set)\n"
		"  -g, --gain CODE      starting analogue gain code (default: as set)\n"
		"  -w, --wb R,B         starting R/G, B/G gains (default: as set)\n"
		"  -l, --lens POS       starting lens position (default: as set)\n"
		"  -t, --target LUMA    target mean luma, Y - 16 (default 30)\n"
		"      --log FILE       per-frame log, tab-separated, for gnuplot\n"
		"      --save N:PREFIX  write frame N as PREFIX.uyvy, PREFIX.hist\n"
		"      --no-setup       use the pipeline as configured\n"
		"  -d, --device DEV     media device (default /dev/media0)\n",
		argv0);
	exit(2);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "frames", required_argument, NULL, 'n' },
		{ "no-ae", no_argument, NULL, 'A' },
		{ "no-awb", no_argument, NULL, 'W' },
		{ "no-af", no_argument, NULL, 'F' },
		{ "exposure", required_argument, NULL, 'e' },
		{ "gain", required_argument, NULL, 'g' },
		{ "wb", required_argument, NULL, 'w' },
		{ "lens", required_argument, NULL, 'l' },
		{ "target", required_argument, NULL, 't' },
		{ "log", required_argument, NULL, 'L' },
		{ "save", required_argument, NULL, 'S' },
		{ "no-setup", no_argument, NULL, 'N' },
		{ "device", required_argument, NULL, 'd' },
		{ NULL, 0, NULL, 0 },
	};
	struct node nodes[N_NODES] = {
		{ .entity = "OMAP3 ISP preview output",
		  .type = V4L2_BUF_TYPE_VIDEO_CAPTURE },
		{ .entity = "OMAP3 ISP AEWB output",
		  .type = V4L2_BUF_TYPE_META_CAPTURE },
		{ .entity = "OMAP3 ISP AF output",
		  .type = V4L2_BUF_TYPE_META_CAPTURE },
		{ .entity = "OMAP3 ISP histogram output",
		  .type = V4L2_BUF_TYPE_META_CAPTURE },
	};
	struct state s = { .ae = 1, .awb = 1, .af = 1, .target = 30,
			   .exposure = -1, .gain_code = -1, .lens = -1,
			   .wb_r = -1 };
	int frames = 30, setup = 1, save_n[4], nsave = 0, sensor, lens, wb, c;
	int ccdc, i, frame;
	char b0[16], b1[16], b2[16];
	const char *save_prefix[4], *logpath = NULL;
	FILE *log = NULL;

	while ((c = getopt_long(argc, argv, "n:e:g:w:l:t:d:", opts, NULL)) != -1) {
		switch (c) {
		case 'n': frames = atoi(optarg); break;
		case 'A': s.ae = 0; break;
		case 'W': s.awb = 0; break;
		case 'F': s.af = 0; break;
		case 'e': s.exposure = atoi(optarg); break;
		case 'g': s.gain_code = atoi(optarg); break;
		case 'w':
			if (sscanf(optarg, "%lf,%lf", &s.wb_r, &s.wb_b) != 2 ||
			    s.wb_r <= 0 || s.wb_b <= 0)
				usage(argv[0]);
			break;
		case 'l': s.lens = atoi(optarg); break;
		case 't': s.target = atof(optarg); break;
		case 'L': logpath = optarg; break;
		case 'S': {
			char *colon = strchr(optarg, ':');

			if (!colon || nsave == 4)
				usage(argv[0]);
			*colon = 0;
			save_n[nsave] = atoi(optarg);
			save_prefix[nsave++] = colon + 1;
			break;
		}
		case 'N': setup = 0; break;
		case 'd': media = optarg; break;
		default: usage(argv[0]);
		}
	}
	if (optind != argc || frames < 1 || s.target <= 0)
		usage(argv[0]);

	if (setup)
		setup_pipeline();
	sensor = open_entity("et8ek8 3-003e");
	lens = open_entity("ad5820 3-000c");
	wb = open_entity("OMAP3 ISP white balance");
	ccdc = open_entity("OMAP3 ISP CCDC");
	s.black = get_ctrl(ccdc, V4L2_CID_N900_CCDC_BLACK_LEVEL, NULL, NULL);
	close(ccdc);

	/* the starting point: given, or as the controls are */
	if (s.exposure < 0)
		s.exposure = get_ctrl(sensor, V4L2_CID_EXPOSURE, NULL, &s.exposure_max);
	else
		get_ctrl(sensor, V4L2_CID_EXPOSURE, NULL, &s.exposure_max);
	if (s.gain_code < 0)
		s.gain_code = get_ctrl(sensor, V4L2_CID_ANALOGUE_GAIN, NULL, &s.gain_max);
	else
		get_ctrl(sensor, V4L2_CID_ANALOGUE_GAIN, NULL, &s.gain_max);
	if (s.lens < 0)
		s.lens = get_ctrl(lens, V4L2_CID_FOCUS_ABSOLUTE, NULL, NULL);
	if (s.wb_r < 0) {
		int g = get_ctrl(wb, V4L2_CID_N900_WB_GAIN_GR, NULL, NULL);

		s.wb_r = (double)get_ctrl(wb, V4L2_CID_N900_WB_GAIN_R, NULL, NULL) / g;
		s.wb_b = (double)get_ctrl(wb, V4L2_CID_N900_WB_GAIN_B, NULL, NULL) / g;
	}
	set_ctrl(sensor, V4L2_CID_EXPOSURE, s.exposure);
	set_ctrl(sensor, V4L2_CID_ANALOGUE_GAIN, s.gain_code);
	set_ctrl(lens, V4L2_CID_FOCUS_ABSOLUTE, s.lens);
	wb_apply(wb, s.wb_r, s.wb_b);

	if (logpath) {
		log = fopen(logpath, "w");
		if (!log)
			die("cannot write %s", logpath);
		fprintf(log, "frame\texposure\tgain\twb_r\twb_b\tlens\tluma\tclip\t"
			"awb_est_r\tawb_est_b\taf_metric\tae_ok\tawb_ok\taf_done\n");
	}
	printf("n900-3a: target luma %.1f, exposure %d, gain %.3f, wb %.3f %.3f, "
	       "lens %d; loops:%s%s%s\n", s.target, s.exposure,
	       (16 + s.gain_code) / 16.0, s.wb_r, s.wb_b, s.lens,
	       s.ae ? " ae" : "", s.awb ? " awb" : "", s.af ? " af" : "");

	for (i = 0; i < N_NODES; i++)
		node_start(&nodes[i]);
	for (frame = 1; frame <= frames; frame++) {
		const struct n900_isp_aewb *a;
		const struct n900_isp_af *af;
		const struct n900_isp_hist *h;
		int exposure = s.exposure, code = s.gain_code, pos = s.lens;
		double wb_r = s.wb_r, wb_b = s.wb_b;
		int ae_was = s.ae_frame, awb_was = s.awb_frame;

		for (i = 0; i < N_NODES; i++)
			node_queue(&nodes[i]);
		for (i = 0; i < N_NODES; i++)
			node_dequeue(&nodes[i]);
		a = nodes[N_AEWB].mem[nodes[N_AEWB].index];
		af = nodes[N_AF].mem[nodes[N_AF].index];
		h = nodes[N_HIST].mem[nodes[N_HIST].index];

		ae_update(&s, a, h, frame);
		awb_update(&s, a, frame);
		af_update(&s, af, a, frame);

		printf("frame %2d exposure %4d gain %.3f wb %.3f %.3f lens %4d "
		       "luma %6.2f clip %5.2f%% grey %2d af %.4f%s%s%s\n",
		       frame, exposure, (16 + code) / 16.0, wb_r, wb_b, pos,
		       s.luma, 100 * s.clip, s.grey_windows, s.af_metric,
		       s.ae_ok ? " ae-ok" : "", s.awb_ok ? " awb-ok" : "",
		       s.af_state == AF_DONE && frame >= s.af_frame ? " af-ok" : "");
		if (s.ae_frame && !ae_was)
			printf("ae converged at frame %d\n", frame);
		if (s.awb_frame && !awb_was)
			printf("awb converged at frame %d\n", frame);
		if (s.af_state == AF_DONE && frame == s.af_frame)
			printf("af converged at frame %d (lens %d)\n", frame,
			       s.af_final);
		if (log)
			fprintf(log, "%d\t%d\t%.4f\t%.4f\t%.4f\t%d\t%.3f\t%.5f\t"
				"%.4f\t%.4f\t%.5f\t%d\t%d\t%d\n", frame,
				exposure, (16 + code) / 16.0, wb_r, wb_b, pos,
				s.luma, s.clip, s.est_r, s.est_b, s.af_metric,
				s.ae_ok, s.awb_ok,
				s.af_state == AF_DONE && frame >= s.af_frame);
		for (i = 0; i < nsave; i++)
			if (save_n[i] == frame) {
				save(save_prefix[i], "uyvy",
				     nodes[N_VIDEO].mem[nodes[N_VIDEO].index],
				     nodes[N_VIDEO].size);
				save(save_prefix[i], "hist", h, sizeof(*h));
			}

		if (frame == frames)
			break;
		if (s.exposure != exposure)
			set_ctrl(sensor, V4L2_CID_EXPOSURE, s.exposure);
		if (s.gain_code != code)
			set_ctrl(sensor, V4L2_CID_ANALOGUE_GAIN, s.gain_code);
		if (s.lens != pos)
			set_ctrl(lens, V4L2_CID_FOCUS_ABSOLUTE, s.lens);
		if (s.wb_r != wb_r || s.wb_b != wb_b)
			wb_apply(wb, s.wb_r, s.wb_b);
	}
	/* the frame since which each loop has stayed converged, or - */
	printf("converged: ae %s awb %s af %s\n", frame_or_dash(s.ae_frame, b0),
	       frame_or_dash(s.awb_frame, b1),
	       frame_or_dash(s.af_state == AF_DONE ? s.af_frame : 0, b2));
	if (log && fclose(log))
		die("cannot write %s", logpath);
	for (i = 0; i < N_NODES; i++)
		ioctl(nodes[i].fd, VIDIOC_STREAMOFF, &nodes[i].type);
	return 0;
}
