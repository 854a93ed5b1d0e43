// SPDX-License-Identifier: GPL-2.0
/*
 * node-formats - the formats of the video nodes follow the V4L2 rules for
 * V4L2_CAP_IO_MC nodes (vidioc-enum-fmt.rst): what a node enumerates does
 * not depend on the active configuration of the pipeline, and mbus_code
 * narrows the list to the formats the node can make of (or turn into)
 * that media bus code.
 *
 * usage: node-formats [MEDIA]   (default /dev/media0)
 *
 * The video nodes are those of the media device's V4L_VIDEO interfaces
 * (MEDIA_IOC_G_TOPOLOGY), each with the subdevice pad at the other end of
 * its data link. For every node:
 *
 *  - ENUM_FMT, without and with each media bus code, gives exactly the
 *    pixel formats of the codes the linked pad can carry: all the codes
 *    its sink pad (pad 0) takes for a pad that is the sink, or for a
 *    source pad the union of what it gives for each of them, as the
 *    subdevice itself enumerates them (VIDIOC_SUBDEV_ENUM_MBUS_CODE);
 *  - everything the node answers (ENUM_FMT with and without each code,
 *    ENUM_FRAMESIZES, TRY_FMT of every format at several sizes) is the
 *    same after the formats of the linked subdevices change (each code of
 *    their sink pad in turn, other sizes, another code on the linked pad)
 *    and after the data links change (every mutable one disabled, then
 *    every one enabled that can be); that check proves something only if
 *    the changes were made, so every SUBDEV_S_FMT must succeed, each
 *    round must change some linked pad's ACTIVE format or the codes it
 *    enumerates, and disabling the links must disable at least one;
 *  - an image node's ENUM_FRAMESIZES is the documented DMA range below,
 *    TRY_FMT clamps and rounds to it (too small, too big, odd sizes, an
 *    unknown pixel format), and S_FMT gives what TRY_FMT gave;
 *  - a metadata node has no ENUM_FRAMESIZES.
 *
 * The formats, links and crop rectangles changed are put back, and the
 * last result checks that they were. Output is KTAP.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/media.h>
#include <linux/media-bus-format.h>
#include <linux/v4l2-subdev.h>
#include <linux/videodev2.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "ktap.h"
#include "media.h"

/*
 * The DMA limits of an image node, as README ("Video nodes: formats and
 * frame sizes") and drivers/isp/isp.h document them: widths of 32 to 4096
 * pixels in steps of 2, heights of 32 to 4096 lines in steps of 1.
 */
#define DMA_MIN_W	32
#define DMA_MAX_W	4096
#define DMA_STEP_W	2
#define DMA_MIN_H	32
#define DMA_MAX_H	4096
#define DMA_STEP_H	1

/*
 * The media bus codes of the ISP and the pixel format each one is in
 * memory, with its bytes per pixel (the V4L2 format definitions).
 */
static const struct spec_fmt {
	__u32 code;
	__u32 fourcc;
	unsigned int bpp;
} spec_fmts[] = {
	{ MEDIA_BUS_FMT_SGRBG10_1X10, V4L2_PIX_FMT_SGRBG10, 2 },
	{ MEDIA_BUS_FMT_SGRBG8_1X8, V4L2_PIX_FMT_SGRBG8, 1 },
	{ MEDIA_BUS_FMT_YUYV8_1X16, V4L2_PIX_FMT_YUYV, 2 },
	{ MEDIA_BUS_FMT_UYVY8_1X16, V4L2_PIX_FMT_UYVY, 2 },
};
#define N_SPEC	(sizeof(spec_fmts) / sizeof(spec_fmts[0]))

/* the codes ENUM_FMT is asked with: the ISP's, metadata, and a stranger */
static const __u32 probe_codes[] = {
	MEDIA_BUS_FMT_SGRBG10_1X10, MEDIA_BUS_FMT_SGRBG8_1X8,
	MEDIA_BUS_FMT_YUYV8_1X16, MEDIA_BUS_FMT_UYVY8_1X16,
	MEDIA_BUS_FMT_METADATA_FIXED, MEDIA_BUS_FMT_RGB888_1X24,
};
#define N_PROBE	(sizeof(probe_codes) / sizeof(probe_codes[0]))

/* TRY_FMT sizes: too small, too big, odd, near each end */
static const unsigned int try_sizes[][2] = {
	{ 1, 1 }, { 100000, 100000 }, { 641, 481 }, { 33, 33 },
	{ 4095, 4095 }, { 0, 0 },
};
#define N_TRY	(sizeof(try_sizes) / sizeof(try_sizes[0]))

/* a pixel format no node of the ISP has */
#define UNKNOWN_FOURCC	V4L2_PIX_FMT_RGB24

#define MAX_NODES	32
#define MAX_SUBDEVS	32
#define MAX_PADS	8
#define MAX_CODES	16
#define ANSWER_LEN	16384

struct subdev {
	uint32_t ent_id;
	char name[64];
	char dev[160];
	int fd;
	unsigned int num_pads;
	struct v4l2_subdev_format fmt[MAX_PADS];
	struct v4l2_subdev_selection crop[MAX_PADS];
	int has_crop[MAX_PADS];
	__u32 sink_codes[MAX_CODES];
	unsigned int num_sink_codes;
};

struct node {
	char name[64];
	char dev[160];
	uint32_t ent_id;
	int fd;
	int meta;
	__u32 type;		/* the buffer type of its formats */
	struct subdev *sd;	/* the subdevice at the other end, or NULL */
	unsigned int pad;	/* its pad there */
	__u32 codes[MAX_CODES];	/* the codes that pad carried */
	unsigned int num_codes;
	char *before;		/* its answers in the initial state */
	char formats_diff[200];	/* where the answers differed, or "" */
	char links_diff[200];
};

static int mfd;
static struct media_v2_topology topo;
static struct media_v2_entity *t_ents;
static struct media_v2_interface *t_intfs;
static struct media_v2_pad *t_pads;
static struct media_v2_link *t_links;
static struct node nodes[MAX_NODES];
static unsigned int n_nodes;
static struct subdev subdevs[MAX_SUBDEVS];
static unsigned int n_subdevs;
static char *answer;

static int get_topology(void)
{
	memset(&topo, 0, sizeof(topo));
	if (ioctl(mfd, MEDIA_IOC_G_TOPOLOGY, &topo))
		return -1;
	t_ents = realloc(t_ents, (topo.num_entities + 1) * sizeof(*t_ents));
	t_intfs = realloc(t_intfs, (topo.num_interfaces + 1) * sizeof(*t_intfs));
	t_pads = realloc(t_pads, (topo.num_pads + 1) * sizeof(*t_pads));
	t_links = realloc(t_links, (topo.num_links + 1) * sizeof(*t_links));
	if (!t_ents || !t_intfs || !t_pads || !t_links)
		return -1;
	topo.ptr_entities = (uintptr_t)t_ents;
	topo.ptr_interfaces = (uintptr_t)t_intfs;
	topo.ptr_pads = (uintptr_t)t_pads;
	topo.ptr_links = (uintptr_t)t_links;
	return ioctl(mfd, MEDIA_IOC_G_TOPOLOGY, &topo);
}

static const struct media_v2_pad *pad_by_id(uint32_t id)
{
	unsigned int i;

	for (i = 0; i < topo.num_pads; i++)
		if (t_pads[i].id == id)
			return &t_pads[i];
	return NULL;
}

static const char *ent_name(uint32_t id)
{
	unsigned int i;

	for (i = 0; i < topo.num_entities; i++)
		if (t_ents[i].id == id)
			return t_ents[i].name;
	return "?";
}

/* The /dev node of the interface of type @type linked to entity @id. */
static int ent_devnode(uint32_t id, uint32_t type, char *out, size_t len)
{
	unsigned int i, k;

	for (i = 0; i < topo.num_links; i++) {
		const struct media_v2_link *l = &t_links[i];

		if ((l->flags & MEDIA_LNK_FL_LINK_TYPE) !=
		    MEDIA_LNK_FL_INTERFACE_LINK || l->sink_id != id)
			continue;
		for (k = 0; k < topo.num_interfaces; k++)
			if (t_intfs[k].id == l->source_id &&
			    t_intfs[k].intf_type == type)
				return devname(t_intfs[k].devnode.major,
					       t_intfs[k].devnode.minor, out, len);
	}
	return -1;
}

static unsigned int ent_num_pads(uint32_t id)
{
	unsigned int i, n = 0;

	for (i = 0; i < topo.num_pads; i++)
		n += t_pads[i].entity_id == id;
	return n;
}

static struct subdev *get_subdev(uint32_t id)
{
	struct subdev *sd;
	unsigned int i;
	char dev[160];

	for (i = 0; i < n_subdevs; i++)
		if (subdevs[i].ent_id == id)
			return &subdevs[i];
	if (n_subdevs == MAX_SUBDEVS ||
	    ent_devnode(id, MEDIA_INTF_T_V4L_SUBDEV, dev, sizeof(dev)))
		return NULL;
	sd = &subdevs[n_subdevs];
	memset(sd, 0, sizeof(*sd));
	sd->ent_id = id;
	snprintf(sd->name, sizeof(sd->name), "%s", ent_name(id));
	snprintf(sd->dev, sizeof(sd->dev), "%s", dev);
	sd->num_pads = ent_num_pads(id);
	if (sd->num_pads > MAX_PADS)
		sd->num_pads = MAX_PADS;
	sd->fd = open(dev, O_RDWR);
	if (sd->fd < 0) {
		ktap_diag("%s: %s: %s", sd->name, dev, strerror(errno));
		return NULL;
	}
	n_subdevs++;
	return sd;
}

/* Every video node, and the subdevice pad its data link goes to. */
static int find_nodes(void)
{
	struct v4l2_capability cap;
	unsigned int i, j;

	for (i = 0; i < topo.num_entities && n_nodes < MAX_NODES; i++) {
		struct node *n = &nodes[n_nodes];

		memset(n, 0, sizeof(*n));
		if (ent_devnode(t_ents[i].id, MEDIA_INTF_T_V4L_VIDEO, n->dev,
				sizeof(n->dev)))
			continue;
		n->ent_id = t_ents[i].id;
		snprintf(n->name, sizeof(n->name), "%s", t_ents[i].name);
		n->fd = open(n->dev, O_RDWR);
		if (n->fd < 0 || ioctl(n->fd, VIDIOC_QUERYCAP, &cap)) {
			ktap_diag("%s: %s: %s", n->name, n->dev, strerror(errno));
			return -1;
		}
		if (cap.device_caps & V4L2_CAP_META_CAPTURE) {
			n->meta = 1;
			n->type = V4L2_BUF_TYPE_META_CAPTURE;
		} else if (cap.device_caps & V4L2_CAP_VIDEO_OUTPUT) {
			n->type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
		} else {
			n->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
		}
		if (!(cap.device_caps & V4L2_CAP_IO_MC))
			ktap_diag("%s: no V4L2_CAP_IO_MC", n->name);

		for (j = 0; j < topo.num_links; j++) {
			const struct media_v2_link *l = &t_links[j];
			const struct media_v2_pad *a, *b, *r;

			if (!is_data(l))
				continue;
			a = pad_by_id(l->source_id);
			b = pad_by_id(l->sink_id);
			if (!a || !b)
				continue;
			if (a->entity_id == n->ent_id)
				r = b;
			else if (b->entity_id == n->ent_id)
				r = a;
			else
				continue;
			n->sd = get_subdev(r->entity_id);
			n->pad = r->index;
			break;
		}
		n_nodes++;
	}
	return 0;
}

/* -----------------------------------------------------------------------------
 * A node's answers, as text
 */

static size_t alen;

KTAP_PRINTF(1, 2)
static void add(const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vsnprintf(answer + alen, ANSWER_LEN - alen, fmt, ap);
	va_end(ap);
	if (r > 0)
		alen = alen + r < ANSWER_LEN ? alen + r : ANSWER_LEN - 1;
}

static const char *fourcc(__u32 f, char *buf)
{
	unsigned int i;

	for (i = 0; i < 4; i++) {
		char c = (f >> (8 * i)) & 0xff;

		buf[i] = c >= ' ' && c <= '~' ? c : '.';
	}
	buf[4] = 0;
	return buf;
}

/*
 * The pixel formats ENUM_FMT gives with @code (0: all), into @out (up to
 * @max); their flags into @flags when not NULL. Returns their number, or
 * -errno when the enumeration ended with another error than EINVAL.
 */
static int enum_fmt(struct node *n, __u32 code, __u32 *out, __u32 *flags,
		    unsigned int max)
{
	struct v4l2_fmtdesc d;
	unsigned int i;

	for (i = 0; i < max; i++) {
		memset(&d, 0, sizeof(d));
		d.index = i;
		d.type = n->type;
		d.mbus_code = code;
		if (ioctl(n->fd, VIDIOC_ENUM_FMT, &d))
			return errno == EINVAL ? (int)i : -errno;
		out[i] = d.pixelformat;
		if (flags)
			flags[i] = d.flags;
	}
	return i;
}

static const struct spec_fmt *spec_of_fourcc(__u32 f)
{
	unsigned int i;

	for (i = 0; i < N_SPEC; i++)
		if (spec_fmts[i].fourcc == f)
			return &spec_fmts[i];
	return NULL;
}

static int try_fmt(struct node *n, __u32 pf, unsigned int w, unsigned int h,
		   struct v4l2_format *f)
{
	memset(f, 0, sizeof(*f));
	f->type = n->type;
	f->fmt.pix.pixelformat = pf;
	f->fmt.pix.width = w;
	f->fmt.pix.height = h;
	f->fmt.pix.field = V4L2_FIELD_ANY;
	return ioctl(n->fd, VIDIOC_TRY_FMT, f) ? -errno : 0;
}

static void add_pix(const struct v4l2_pix_format *p)
{
	char b[5];

	add(" %s %ux%u bpl %u size %u field %u cs %u flags 0x%x;",
	    fourcc(p->pixelformat, b), p->width, p->height, p->bytesperline,
	    p->sizeimage, p->field, p->colorspace, p->flags);
}

/* Everything node @n answers about formats, into answer[] (alen). */
static void node_answers(struct node *n)
{
	__u32 pf[16], fl[16];
	struct v4l2_frmsizeenum fs;
	struct v4l2_format f;
	unsigned int i, j;
	char b[5];
	int r;

	alen = 0;
	answer[0] = 0;
	r = enum_fmt(n, 0, pf, fl, 16);
	add("formats:");
	for (i = 0; r > 0 && i < (unsigned int)r; i++)
		add(" %s/0x%x", fourcc(pf[i], b), fl[i]);
	if (r < 0)
		add(" error %d", r);
	add("\n");
	for (j = 0; j < N_PROBE; j++) {
		__u32 pc[16];
		int rc = enum_fmt(n, probe_codes[j], pc, NULL, 16);

		add("code 0x%04x:", probe_codes[j]);
		for (i = 0; rc > 0 && i < (unsigned int)rc; i++)
			add(" %s", fourcc(pc[i], b));
		if (rc < 0)
			add(" error %d", rc);
		add("\n");
	}
	if (n->meta) {
		memset(&f, 0, sizeof(f));
		f.type = n->type;
		r = ioctl(n->fd, VIDIOC_TRY_FMT, &f) ? -errno : 0;
		add("try meta: %d %s %u\n", r, fourcc(f.fmt.meta.dataformat, b),
		    f.fmt.meta.buffersize);
		return;
	}
	for (i = 0; r > 0 && i < (unsigned int)r; i++) {
		memset(&fs, 0, sizeof(fs));
		fs.pixel_format = pf[i];
		if (ioctl(n->fd, VIDIOC_ENUM_FRAMESIZES, &fs))
			add("framesizes %s: error %d\n", fourcc(pf[i], b), errno);
		else
			add("framesizes %s: type %u %u-%u/%u x %u-%u/%u\n",
			    fourcc(pf[i], b), fs.type, fs.stepwise.min_width,
			    fs.stepwise.max_width, fs.stepwise.step_width,
			    fs.stepwise.min_height, fs.stepwise.max_height,
			    fs.stepwise.step_height);
	}
	for (i = 0; r >= 0 && i <= (unsigned int)r; i++) {
		__u32 want = i < (unsigned int)r ? pf[i] : UNKNOWN_FOURCC;

		for (j = 0; j < N_TRY; j++) {
			int e = try_fmt(n, want, try_sizes[j][0],
					try_sizes[j][1], &f);

			add("try %s %ux%u:", fourcc(want, b), try_sizes[j][0],
			    try_sizes[j][1]);
			if (e)
				add(" error %d", e);
			else
				add_pix(&f.fmt.pix);
			add("\n");
		}
	}
}

/* The first line where @a and @b differ, into @out. */
static void first_diff(const char *a, const char *b, char *out, size_t len)
{
	while (*a && *a == *b) {
		const char *na = strchr(a, '\n'), *nb = strchr(b, '\n');

		if (!na || !nb || na - a != nb - b || memcmp(a, b, na - a))
			break;
		a = na + 1;
		b = nb + 1;
	}
	snprintf(out, len, "was '%.*s', now '%.*s'", (int)strcspn(a, "\n"), a,
		 (int)strcspn(b, "\n"), b);
}

/* Compare every node's answers with its initial ones, after @what. */
static void compare_all(int links, const char *what)
{
	unsigned int i;

	for (i = 0; i < n_nodes; i++) {
		struct node *n = &nodes[i];
		char *diff = links ? n->links_diff : n->formats_diff;
		char d[160];

		node_answers(n);
		if (!strcmp(answer, n->before) || diff[0])
			continue;
		first_diff(n->before, answer, d, sizeof(d));
		snprintf(diff, sizeof(n->formats_diff), "after %s: %s", what, d);
	}
}

/* -----------------------------------------------------------------------------
 * The pipeline's formats and links: changed, and put back
 */

static int sd_fmt(struct subdev *sd, unsigned int pad, int set,
		  struct v4l2_subdev_format *f)
{
	f->which = V4L2_SUBDEV_FORMAT_ACTIVE;
	f->pad = pad;
	return ioctl(sd->fd, set ? VIDIOC_SUBDEV_S_FMT : VIDIOC_SUBDEV_G_FMT, f);
}

/* The codes pad @pad of @sd enumerates now (ACTIVE), into @out. */
static unsigned int sd_codes(struct subdev *sd, unsigned int pad, __u32 *out,
			     unsigned int max)
{
	struct v4l2_subdev_mbus_code_enum mc;
	unsigned int i;

	for (i = 0; i < max; i++) {
		memset(&mc, 0, sizeof(mc));
		mc.which = V4L2_SUBDEV_FORMAT_ACTIVE;
		mc.pad = pad;
		mc.index = i;
		if (ioctl(sd->fd, VIDIOC_SUBDEV_ENUM_MBUS_CODE, &mc))
			break;
		out[i] = mc.code;
	}
	return i;
}

static void save_subdev(struct subdev *sd)
{
	unsigned int p;

	for (p = 0; p < sd->num_pads; p++) {
		memset(&sd->fmt[p], 0, sizeof(sd->fmt[p]));
		sd_fmt(sd, p, 0, &sd->fmt[p]);
		memset(&sd->crop[p], 0, sizeof(sd->crop[p]));
		sd->crop[p].which = V4L2_SUBDEV_FORMAT_ACTIVE;
		sd->crop[p].pad = p;
		sd->crop[p].target = V4L2_SEL_TGT_CROP;
		sd->has_crop[p] = !ioctl(sd->fd, VIDIOC_SUBDEV_G_SELECTION,
					 &sd->crop[p]);
	}
	sd->num_sink_codes = sd_codes(sd, 0, sd->sink_codes, MAX_CODES);
}

/* The saved formats and crops: the sink's first, then the sources'. */
static void restore_subdev(struct subdev *sd)
{
	struct v4l2_subdev_selection sel;
	struct v4l2_subdev_format f;
	unsigned int p, pass;

	for (pass = 0; pass < 2; pass++) {
		for (p = pass; p < (pass ? sd->num_pads : 1); p++) {
			f = sd->fmt[p];
			sd_fmt(sd, p, 1, &f);
			if (!sd->has_crop[p])
				continue;
			sel = sd->crop[p];
			ioctl(sd->fd, VIDIOC_SUBDEV_S_SELECTION, &sel);
			f = sd->fmt[p];
			sd_fmt(sd, p, 1, &f);
		}
	}
}

static int subdev_restored(struct subdev *sd)
{
	struct v4l2_subdev_selection sel;
	struct v4l2_subdev_format f;
	unsigned int p;
	int ok = 1;

	for (p = 0; p < sd->num_pads; p++) {
		memset(&f, 0, sizeof(f));
		if (sd_fmt(sd, p, 0, &f) || f.format.code != sd->fmt[p].format.code ||
		    f.format.width != sd->fmt[p].format.width ||
		    f.format.height != sd->fmt[p].format.height) {
			ktap_diag("%s pad %u: 0x%04x/%ux%u, was 0x%04x/%ux%u",
				  sd->name, p, f.format.code, f.format.width,
				  f.format.height, sd->fmt[p].format.code,
				  sd->fmt[p].format.width, sd->fmt[p].format.height);
			ok = 0;
		}
		if (!sd->has_crop[p])
			continue;
		sel = sd->crop[p];
		if (ioctl(sd->fd, VIDIOC_SUBDEV_G_SELECTION, &sel) ||
		    memcmp(&sel.r, &sd->crop[p].r, sizeof(sel.r))) {
			ktap_diag("%s pad %u: crop not restored", sd->name, p);
			ok = 0;
		}
	}
	return ok;
}

static void add_code(struct node *n, __u32 code)
{
	unsigned int i;

	for (i = 0; i < n->num_codes; i++)
		if (n->codes[i] == code)
			return;
	if (n->num_codes < MAX_CODES)
		n->codes[n->num_codes++] = code;
}

/* every S_FMT of the format rounds succeeded; else the first failure */
static int fmt_failed;
static char fmt_failure[200];

/* S_FMT through format_round: a failure is recorded (the first one kept) */
static void round_s_fmt(struct subdev *sd, unsigned int pad,
			struct v4l2_subdev_format *f)
{
	if (!sd_fmt(sd, pad, 1, f))
		return;
	ktap_diag("%s: SUBDEV_S_FMT pad %u: %s", sd->name, pad,
		  strerror(errno));
	if (!fmt_failed++)
		snprintf(fmt_failure, sizeof(fmt_failure),
			 "%s pad %u: SUBDEV_S_FMT: %s", sd->name, pad,
			 strerror(errno));
}

/*
 * What the nodes' linked pads carry now: each one's ACTIVE format
 * (SUBDEV_G_FMT) and the codes it enumerates, into @out.
 */
static void linked_pads(char *out, size_t len)
{
	struct v4l2_subdev_format f;
	__u32 codes[MAX_CODES];
	unsigned int i, j, nc;
	size_t o = 0;

	out[0] = '\0';
	for (i = 0; i < n_nodes && o < len; i++) {
		struct node *n = &nodes[i];

		if (!n->sd)
			continue;
		memset(&f, 0, sizeof(f));
		if (sd_fmt(n->sd, n->pad, 0, &f))
			f.format.code = 0;
		o += snprintf(out + o, len - o, "%s:%u 0x%04x/%ux%u [",
			      n->sd->name, n->pad, f.format.code,
			      f.format.width, f.format.height);
		nc = sd_codes(n->sd, n->pad, codes, MAX_CODES);
		for (j = 0; j < nc && o < len; j++)
			o += snprintf(out + o, len - o, "%s0x%04x", j ? " " : "",
				      codes[j]);
		if (o < len)
			o += snprintf(out + o, len - o, "]; ");
	}
}

/*
 * Round @round of the format changes: the sink pad of every subdevice
 * linked to a node takes its @round-th code (when it has that many) at
 * another size, and each linked source pad its last code for it. Records
 * the codes each node's linked pad carries, and every S_FMT that fails
 * (fmt_failed). Returns whether any subdevice took part.
 */
static int format_round(unsigned int round)
{
	static const unsigned int sizes[][2] = {
		{ 320, 240 }, { 648, 492 }, { 1024, 768 }, { 64, 64 },
	};
	struct v4l2_subdev_format f;
	__u32 codes[MAX_CODES];
	unsigned int i, nc;
	int changed = 0;

	for (i = 0; i < n_subdevs; i++) {
		struct subdev *sd = &subdevs[i];

		if (round >= sd->num_sink_codes)
			continue;
		memset(&f, 0, sizeof(f));
		f.format.code = sd->sink_codes[round];
		f.format.width = sizes[round % 4][0];
		f.format.height = sizes[round % 4][1];
		f.format.field = V4L2_FIELD_NONE;
		round_s_fmt(sd, 0, &f);
		changed = 1;
	}
	for (i = 0; i < n_nodes; i++) {
		struct node *n = &nodes[i];

		if (!n->sd || (n->pad == 0 && round))
			continue;
		nc = sd_codes(n->sd, n->pad, codes, MAX_CODES);
		while (nc)
			add_code(n, codes[--nc]);
		if (n->pad == 0)
			continue;
		memset(&f, 0, sizeof(f));
		sd_fmt(n->sd, n->pad, 0, &f);
		nc = sd_codes(n->sd, n->pad, codes, MAX_CODES);
		if (nc)
			f.format.code = codes[nc - 1];
		f.format.width = f.format.width > 64 ? f.format.width / 2 : 256;
		f.format.height = f.format.height > 64 ? f.format.height / 2 : 192;
		round_s_fmt(n->sd, n->pad, &f);
	}
	return changed;
}

static int setup_link(const struct media_v2_link *l, __u32 flags)
{
	const struct media_v2_pad *a = pad_by_id(l->source_id);
	const struct media_v2_pad *b = pad_by_id(l->sink_id);
	struct media_link_desc ld;

	if (!a || !b)
		return -EINVAL;
	memset(&ld, 0, sizeof(ld));
	ld.source.entity = a->entity_id;
	ld.source.index = a->index;
	ld.sink.entity = b->entity_id;
	ld.sink.index = b->index;
	ld.flags = flags;
	return ioctl(mfd, MEDIA_IOC_SETUP_LINK, &ld) ? -errno : 0;
}

/* The data links' flags as they were at the start (G_TOPOLOGY order). */
static struct media_v2_link *saved_links;
static unsigned int n_saved_links;

static int mutable(const struct media_v2_link *l)
{
	return is_data(l) && !(l->flags & MEDIA_LNK_FL_IMMUTABLE);
}

/* Set every mutable data link to @on (1, 0), or to its saved state (-1). */
static unsigned int set_links(int on)
{
	unsigned int i, pass, done = 0;

	/* disable before enabling: a sink takes one enabled input */
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < n_saved_links; i++) {
			const struct media_v2_link *l = &saved_links[i];
			int want = on < 0 ? !!(l->flags & MEDIA_LNK_FL_ENABLED) : on;

			if (!mutable(l) || want != (int)pass)
				continue;
			done += !setup_link(l, want ? MEDIA_LNK_FL_ENABLED : 0);
		}
	}
	return done;
}

/*
 * How many of the data links enabled at the start are disabled now (the
 * media device's topology, read again); -1 if it cannot be read.
 */
static int links_disabled(void)
{
	unsigned int i, j;
	int n = 0;

	if (get_topology())
		return -1;
	for (i = 0; i < n_saved_links; i++) {
		const struct media_v2_link *l = &saved_links[i];

		if (!is_data(l) || !(l->flags & MEDIA_LNK_FL_ENABLED))
			continue;
		for (j = 0; j < topo.num_links; j++)
			if (t_links[j].id == l->id &&
			    !(t_links[j].flags & MEDIA_LNK_FL_ENABLED))
				n++;
	}
	return n;
}

static int links_restored(void)
{
	unsigned int i, j;
	int ok = 1;

	if (get_topology())
		return 0;
	for (i = 0; i < n_saved_links; i++) {
		const struct media_v2_link *l = &saved_links[i];

		for (j = 0; j < topo.num_links; j++)
			if (t_links[j].id == l->id)
				break;
		if (j == topo.num_links ||
		    (t_links[j].flags & MEDIA_LNK_FL_ENABLED) !=
		    (l->flags & MEDIA_LNK_FL_ENABLED)) {
			ktap_diag("link %u: not restored", l->id);
			ok = 0;
		}
	}
	return ok;
}

/* -----------------------------------------------------------------------------
 * The checks
 */

static int has(const __u32 *list, int n, __u32 v)
{
	int i;

	for (i = 0; i < n; i++)
		if (list[i] == v)
			return 1;
	return 0;
}

/* ENUM_FMT, with and without each code, against the linked pad's codes. */
static int check_enum(struct node *n)
{
	__u32 all[16], fl[16], got[16];
	int na, ng, ok = 1;
	unsigned int i, k;
	char b[5], c[5];

	na = enum_fmt(n, 0, all, fl, 16);
	if (na <= 0) {
		ktap_diag("%s: ENUM_FMT gives nothing (%d)", n->name, na);
		return 0;
	}
	for (i = 0; i < (unsigned int)na; i++)
		if (fl[i] & V4L2_FMT_FLAG_COMPRESSED) {
			ktap_diag("%s: %s flagged compressed", n->name,
				  fourcc(all[i], b));
			ok = 0;
		}
	if (!n->sd) {
		ktap_diag("%s: no subdevice node at the other end of its link",
			  n->name);
		return 0;
	}
	for (k = 0; k < n->num_codes; k++)
		if (!has(probe_codes, N_PROBE, n->codes[k])) {
			ktap_diag("%s: %s pad %u carries 0x%04x, unknown here",
				  n->name, n->sd->name, n->pad, n->codes[k]);
			ok = 0;
		}
	if (n->meta) {
		if (na != 1) {
			ktap_diag("%s: %d metadata formats", n->name, na);
			ok = 0;
		}
	} else {
		/* all: exactly the pixel formats of the pad's codes */
		for (i = 0; i < (unsigned int)na; i++) {
			const struct spec_fmt *s = spec_of_fourcc(all[i]);

			if (!s || !has(n->codes, n->num_codes, s->code)) {
				ktap_diag("%s: offers %s, which %s pad %u never gives",
					  n->name, fourcc(all[i], b), n->sd->name,
					  n->pad);
				ok = 0;
			}
		}
	}
	for (k = 0; k < N_PROBE; k++) {
		__u32 code = probe_codes[k];
		const struct spec_fmt *s = NULL;
		int want;

		for (i = 0; i < N_SPEC; i++)
			if (spec_fmts[i].code == code)
				s = &spec_fmts[i];
		want = has(n->codes, n->num_codes, code) && (n->meta || s);
		ng = enum_fmt(n, code, got, NULL, 16);
		if (ng < 0) {
			ktap_diag("%s: ENUM_FMT code 0x%04x: error %d", n->name,
				  code, ng);
			ok = 0;
		} else if (!want && ng) {
			ktap_diag("%s: code 0x%04x, which %s pad %u never carries, gives %s",
				  n->name, code, n->sd->name, n->pad,
				  fourcc(got[0], b));
			ok = 0;
		} else if (want && n->meta && (ng != 1 || got[0] != all[0])) {
			ktap_diag("%s: code 0x%04x gives %d formats", n->name,
				  code, ng);
			ok = 0;
		} else if (want && !n->meta && (ng != 1 || got[0] != s->fourcc)) {
			ktap_diag("%s: code 0x%04x gives %d formats (%s), not %s",
				  n->name, code, ng, ng ? fourcc(got[0], b) : "-",
				  fourcc(s->fourcc, c));
			ok = 0;
		}
	}
	return ok;
}

/* @got is what TRY_FMT may make of @req within [min, max] in @step steps. */
static int fits(unsigned int req, unsigned int got, unsigned int min,
		unsigned int max, unsigned int step)
{
	unsigned int c = req < min ? min : req > max ? max : req;

	return got >= min && got <= max && (got - min) % step == 0 &&
	       (got > c ? got - c : c - got) < step;
}

static int check_framesizes(struct node *n)
{
	struct v4l2_frmsizeenum fs;
	__u32 pf[16];
	int np, i, ok = 1;
	char b[5];

	np = enum_fmt(n, 0, pf, NULL, 16);
	for (i = 0; i < np; i++) {
		memset(&fs, 0, sizeof(fs));
		fs.pixel_format = pf[i];
		if (ioctl(n->fd, VIDIOC_ENUM_FRAMESIZES, &fs)) {
			ktap_diag("%s: ENUM_FRAMESIZES %s: %s", n->name,
				  fourcc(pf[i], b), strerror(errno));
			ok = 0;
			continue;
		}
		if (fs.type != V4L2_FRMSIZE_TYPE_STEPWISE ||
		    fs.stepwise.min_width != DMA_MIN_W ||
		    fs.stepwise.max_width != DMA_MAX_W ||
		    fs.stepwise.step_width != DMA_STEP_W ||
		    fs.stepwise.min_height != DMA_MIN_H ||
		    fs.stepwise.max_height != DMA_MAX_H ||
		    fs.stepwise.step_height != DMA_STEP_H) {
			ktap_diag("%s: %s: type %u, %u-%u/%u x %u-%u/%u", n->name,
				  fourcc(pf[i], b), fs.type,
				  fs.stepwise.min_width, fs.stepwise.max_width,
				  fs.stepwise.step_width, fs.stepwise.min_height,
				  fs.stepwise.max_height, fs.stepwise.step_height);
			ok = 0;
		}
		fs.index = 1;
		if (!ioctl(n->fd, VIDIOC_ENUM_FRAMESIZES, &fs) || errno != EINVAL) {
			ktap_diag("%s: %s: a second frame size range", n->name,
				  fourcc(pf[i], b));
			ok = 0;
		}
	}
	memset(&fs, 0, sizeof(fs));
	fs.pixel_format = UNKNOWN_FOURCC;
	if (!ioctl(n->fd, VIDIOC_ENUM_FRAMESIZES, &fs) || errno != EINVAL) {
		ktap_diag("%s: ENUM_FRAMESIZES of a format it has not: %s",
			  n->name, strerror(errno));
		ok = 0;
	}
	return np > 0 && ok;
}

static int check_try(struct node *n)
{
	const struct spec_fmt *s;
	struct v4l2_format f;
	unsigned int j, w, h;
	__u32 pf[16];
	int np, i, ok = 1;
	char b[5], c[5];

	np = enum_fmt(n, 0, pf, NULL, 16);
	for (i = 0; i <= np; i++) {
		__u32 want = i < np ? pf[i] : UNKNOWN_FOURCC;

		for (j = 0; j < N_TRY; j++) {
			w = try_sizes[j][0];
			h = try_sizes[j][1];
			if (try_fmt(n, want, w, h, &f)) {
				ktap_diag("%s: TRY_FMT %s %ux%u: %s", n->name,
					  fourcc(want, b), w, h, strerror(errno));
				ok = 0;
				continue;
			}
			s = spec_of_fourcc(f.fmt.pix.pixelformat);
			if ((i < np && f.fmt.pix.pixelformat != want) ||
			    !has(pf, np, f.fmt.pix.pixelformat) || !s ||
			    !fits(w, f.fmt.pix.width, DMA_MIN_W, DMA_MAX_W,
				  DMA_STEP_W) ||
			    !fits(h, f.fmt.pix.height, DMA_MIN_H, DMA_MAX_H,
				  DMA_STEP_H) ||
			    f.fmt.pix.field != V4L2_FIELD_NONE ||
			    f.fmt.pix.bytesperline < f.fmt.pix.width * s->bpp ||
			    f.fmt.pix.sizeimage <
			    f.fmt.pix.bytesperline * f.fmt.pix.height) {
				ktap_diag("%s: TRY_FMT %s %ux%u gave %s %ux%u bpl %u size %u field %u",
					  n->name, fourcc(want, b), w, h,
					  fourcc(f.fmt.pix.pixelformat, c),
					  f.fmt.pix.width, f.fmt.pix.height,
					  f.fmt.pix.bytesperline,
					  f.fmt.pix.sizeimage, f.fmt.pix.field);
				ok = 0;
			}
		}
	}
	return np > 0 && ok;
}

static int same_pix(const struct v4l2_pix_format *a,
		    const struct v4l2_pix_format *b)
{
	return a->pixelformat == b->pixelformat && a->width == b->width &&
	       a->height == b->height && a->bytesperline == b->bytesperline &&
	       a->sizeimage == b->sizeimage;
}

/* S_FMT gives what TRY_FMT gave, G_FMT reads it back; then put it back. */
static int check_s_fmt(struct node *n)
{
	struct v4l2_format saved, t, s, g;
	__u32 pf[16];
	int np, ok = 1;
	char b[5];

	np = enum_fmt(n, 0, pf, NULL, 16);
	memset(&saved, 0, sizeof(saved));
	saved.type = n->type;
	if (np <= 0 || ioctl(n->fd, VIDIOC_G_FMT, &saved))
		return 0;
	if (try_fmt(n, pf[np - 1], 641, 481, &t))
		return 0;
	s = t;
	s.fmt.pix.width = 641;
	s.fmt.pix.height = 481;
	memset(&g, 0, sizeof(g));
	g.type = n->type;
	if (ioctl(n->fd, VIDIOC_S_FMT, &s) || ioctl(n->fd, VIDIOC_G_FMT, &g) ||
	    !same_pix(&s.fmt.pix, &t.fmt.pix) ||
	    !same_pix(&g.fmt.pix, &t.fmt.pix)) {
		ktap_diag("%s: S_FMT %s 641x481: %s %ux%u, TRY_FMT %ux%u, G_FMT %ux%u",
			  n->name, fourcc(pf[np - 1], b), strerror(errno),
			  s.fmt.pix.width, s.fmt.pix.height, t.fmt.pix.width,
			  t.fmt.pix.height, g.fmt.pix.width, g.fmt.pix.height);
		ok = 0;
	}
	s = saved;
	memset(&g, 0, sizeof(g));
	g.type = n->type;
	if (ioctl(n->fd, VIDIOC_S_FMT, &s) || ioctl(n->fd, VIDIOC_G_FMT, &g) ||
	    !same_pix(&g.fmt.pix, &saved.fmt.pix)) {
		ktap_diag("%s: its format is not back", n->name);
		ok = 0;
	}
	return ok;
}

int main(int argc, char **argv)
{
	const char *media = argc > 1 ? argv[1] : "/dev/media0";
	static char pads_before[2048], pads_now[2048];
	unsigned int i, round, n_image = 0, same_rounds = 0;
	struct v4l2_frmsizeenum fs;
	int restored, disabled;

	setvbuf(stdout, NULL, _IOLBF, 0);
	answer = malloc(ANSWER_LEN);
	mfd = open(media, O_RDWR);
	if (!answer || mfd < 0 || get_topology() || find_nodes() || !n_nodes) {
		ktap_plan(1);
		ktap_result(0, "node_formats # %s: %s, %u video nodes", media,
			    strerror(errno), n_nodes);
		return 1;
	}
	for (i = 0; i < n_nodes; i++)
		n_image += !nodes[i].meta;
	ktap_plan(3 + 3 * n_nodes + 3 * n_image + (n_nodes - n_image) + 1);
	ktap_diag("%u video nodes, %u of them image nodes, %u subdevices linked",
		  n_nodes, n_image, n_subdevs);

	n_saved_links = topo.num_links;
	saved_links = malloc((n_saved_links + 1) * sizeof(*saved_links));
	if (!saved_links)
		return 1;
	memcpy(saved_links, t_links, n_saved_links * sizeof(*saved_links));
	for (i = 0; i < n_subdevs; i++)
		save_subdev(&subdevs[i]);

	/* the answers in the initial state */
	for (i = 0; i < n_nodes; i++) {
		node_answers(&nodes[i]);
		nodes[i].before = strdup(answer);
		if (!nodes[i].before)
			return 1;
	}

	/*
	 * the formats of the linked subdevices, each sink code in turn; each
	 * round must have changed what some linked pad carries (its ACTIVE
	 * format or its codes), else the nodes' answers are compared under
	 * the same pipeline and prove nothing
	 */
	linked_pads(pads_before, sizeof(pads_before));
	for (round = 0; format_round(round); round++) {
		linked_pads(pads_now, sizeof(pads_now));
		if (!strcmp(pads_now, pads_before)) {
			ktap_diag("format round %u: no linked pad changed: %s",
				  round, pads_now);
			same_rounds++;
		}
		compare_all(0, "a change of the linked subdevices' formats");
	}
	for (i = 0; i < n_subdevs; i++)
		restore_subdev(&subdevs[i]);
	compare_all(0, "their formats restored");

	/* the links: every mutable one off, then every one on that can be */
	ktap_diag("%u links disabled", set_links(0));
	disabled = links_disabled();
	compare_all(1, "every mutable data link disabled");
	ktap_diag("%u links enabled", set_links(1));
	compare_all(1, "every data link that can be enabled enabled");
	set_links(-1);
	compare_all(1, "the links restored");

	/* the changes the independence results below rest on were made */
	if (fmt_failed)
		ktap_result(0, "format_changes_applied # %d SUBDEV_S_FMT failed, first %s",
			    fmt_failed, fmt_failure);
	else
		ktap_result(1, "format_changes_applied");
	if (!round || same_rounds)
		ktap_result(0, "format_changes_change_linked_pads # %u of %u rounds changed nothing",
			    same_rounds, round);
	else
		ktap_result(1, "format_changes_change_linked_pads # %u rounds", round);
	if (disabled > 0)
		ktap_result(1, "links_disabled # %d enabled at the start", disabled);
	else
		ktap_result(0, "links_disabled # %d of the links enabled at the start disabled",
			    disabled);

	for (i = 0; i < n_nodes; i++) {
		struct node *n = &nodes[i];

		ktap_result(check_enum(n), "enum_fmt_is_linked_pad_codes: %s",
			    n->name);
		if (n->formats_diff[0])
			ktap_diag("%s: %s", n->name, n->formats_diff);
		ktap_result(!n->formats_diff[0],
			    "independent_of_pad_formats: %s", n->name);
		if (n->links_diff[0])
			ktap_diag("%s: %s", n->name, n->links_diff);
		ktap_result(!n->links_diff[0], "independent_of_links: %s",
			    n->name);
		if (n->meta) {
			memset(&fs, 0, sizeof(fs));
			fs.pixel_format = V4L2_PIX_FMT_SGRBG10;
			ktap_result(ioctl(n->fd, VIDIOC_ENUM_FRAMESIZES, &fs) &&
				    errno == ENOTTY, "meta_no_framesizes: %s",
				    n->name);
			continue;
		}
		ktap_result(check_framesizes(n), "framesizes_dma_limits: %s",
			    n->name);
		ktap_result(check_try(n), "try_fmt_clamps: %s", n->name);
		ktap_result(check_s_fmt(n), "s_fmt_is_try_fmt: %s", n->name);
	}

	for (i = 0; i < n_subdevs; i++)
		restore_subdev(&subdevs[i]);
	restored = links_restored();
	for (i = 0; i < n_subdevs; i++)
		restored &= subdev_restored(&subdevs[i]);
	ktap_result(restored, "pipeline_restored");

	for (i = 0; i < n_nodes; i++)
		close(nodes[i].fd);
	for (i = 0; i < n_subdevs; i++)
		close(subdevs[i].fd);
	close(mfd);
	return 0;
}
