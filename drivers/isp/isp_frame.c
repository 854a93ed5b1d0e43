// SPDX-License-Identifier: GPL-2.0
/*
 * isp_frame.c - frames through the pipeline of a streaming capture node
 *
 * At STREAMON the path of the node is read back from the media graph: from
 * the node's pad over enabled links to its source, a sensor or a memory
 * input node, noting the processing blocks on the way, their formats and
 * crop rectangles. Each frame then runs those stages in data-flow order
 * with the pixel code of isp_pixel.c, the same code the host reference
 * model runs (tests/ref/isp-ref.c):
 *
 *   sensor ---------+
 *   CCP2 input -----+-> [CCDC: black level] -+-> OF crop, 10/8 bit -> memory
 *                                            +-> VP -> [LSC] -> [WB] -+
 *                                            +-> VP -> [AEWB | AF | hist]
 *                                                      -> statistics buffer
 *   preview input (raw) ---------------------------------------------+
 *                                                                     |
 *                                    memory <- [resizer] <- [preview] <+
 *   resizer input (YUV) ------------------------^                     |
 *                                                                     v
 *                                                                   memory
 *
 * A path from a memory input node is memory-to-memory: each frame takes
 * one buffer of the input node and one of the capture node.
 *
 * Controls are read at every frame, so a changed gain shows in the next one.
 */

#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>
#include <media/v4l2-ctrls.h>

#include "isp.h"
#include "isp_pixel.h"
#include "n900_isp_controls.h"
#include "n900_isp_stats.h"

/*
 * Each pass over the lines of a frame is split in ISP_FRAME_PARTS parts,
 * one per vCPU of the guest; a pass of fewer than 2 * ISP_FRAME_PART_MIN
 * lines is not worth a second CPU.
 */
#define ISP_FRAME_PARTS		2
#define ISP_FRAME_PART_MIN	16

static bool isp_frame_parallel = true;
module_param_named(parallel, isp_frame_parallel, bool, 0644);
MODULE_PARM_DESC(parallel, "split each processing pass over two CPUs (default: on)");

/**
 * struct isp_frame - the stages of one capture node's path, and buffers
 * @sensor: the sensor at the start of the path, or NULL
 * @input: the memory input (output) node at the start of the path, or NULL
 * @in_code: the media bus code of @input's frames
 * @ccdc: the CCDC, when on the path
 * @ccdc_pad: the CCDC source pad the path leaves by
 * @lsc: lens shading, when on the path
 * @wb: white balance, when on the path
 * @preview: preview, when on the path
 * @resizer: resizer, when on the path
 * @resizer_pad: the resizer source pad the path leaves by
 * @stat: the statistics engine a metadata node takes its buffers from
 * @width: width of the frames at the source (sensor or memory input)
 * @height: their height
 * @crop: the CCDC output formatter crop (memory output of the CCDC)
 * @raw8: raw samples go to memory as 8 bits (the node's format), not 16
 * @rsz_crop: the resizer input crop
 * @uyvy: YUV output is UYVY rather than YUYV
 * @scene: the sensor's scene and its per-frame tables
 * @pix_lsc: the lens shading gain grid
 * @rsz: resizer scaling
 * @raw: one raw frame, 16-bit samples
 * @yuv: one preview output frame
 * @line: one raw line per part of a pass
 * @tmp: one YUV line for the resizer per part of a pass
 * @work: the helper's part of a pass, on another CPU
 * @done: the helper has done its part
 * @pass: the stage the current pass runs
 * @pass_lines: the number of lines of the current pass
 * @pix: the capture format, while a frame renders
 * @mem: the capture buffer, while a frame renders
 * @in: the input frame of a memory-to-memory path, while a frame renders
 * @rsz_src: the resizer's input frame, while a frame renders
 * @ccdc_params: the CCDC parameters of the frame
 * @wb_params: the white balance parameters of the frame
 */
struct isp_frame {
	struct v4l2_subdev *sensor;
	struct isp_video *input;
	u32 in_code;
	struct isp_block *ccdc;
	unsigned int ccdc_pad;
	struct isp_block *lsc;
	struct isp_block *wb;
	struct isp_block *preview;
	struct isp_block *resizer;
	unsigned int resizer_pad;
	struct isp_block *stat;
	unsigned int width;
	unsigned int height;
	struct v4l2_rect crop;
	bool raw8;
	struct v4l2_rect rsz_crop;
	bool uyvy;
	struct pix_scene *scene;
	struct pix_lsc *pix_lsc;
	struct pix_resizer rsz;
	u16 *raw;
	u8 *yuv;
	u16 *line[ISP_FRAME_PARTS];
	u8 *tmp[ISP_FRAME_PARTS];
	struct work_struct work;
	struct completion done;
	enum isp_stage pass;
	unsigned int pass_lines;
	const struct v4l2_pix_format *pix;
	u8 *mem;
	const u8 *in;
	const u8 *rsz_src;
	struct pix_ccdc ccdc_params;
	struct pix_wb wb_params;
};

static void isp_frame_work(struct work_struct *work);

static struct v4l2_ctrl *find_ctrl(struct v4l2_subdev *sd, u32 id)
{
	if (!sd || !sd->ctrl_handler)
		return NULL;
	return v4l2_ctrl_find(sd->ctrl_handler, id);
}

static s32 ctrl_value(struct v4l2_subdev *sd, u32 id, s32 def)
{
	struct v4l2_ctrl *ctrl = find_ctrl(sd, id);

	return ctrl ? v4l2_ctrl_g_ctrl(ctrl) : def;
}

/*
 * The lens the sensor's ancillary link points at. The lens is not part of
 * the pipeline and may unbind while it streams: call with the graph mutex
 * held, and use the lens only until it is released.
 */
static struct v4l2_subdev *sensor_lens(struct v4l2_subdev *sensor)
{
	struct media_link *link;

	list_for_each_entry(link, &sensor->entity.links, list) {
		struct media_entity *anc;

		if ((link->flags & MEDIA_LNK_FL_LINK_TYPE) !=
		    MEDIA_LNK_FL_ANCILLARY_LINK ||
		    link->gobj0 != &sensor->entity.graph_obj)
			continue;
		anc = container_of(link->gobj1, struct media_entity, graph_obj);
		if (anc->function == MEDIA_ENT_F_LENS &&
		    is_media_entity_v4l2_subdev(anc))
			return media_entity_to_v4l2_subdev(anc);
	}
	return NULL;
}

/* the remote end of the enabled link into one of @entity's sink pads */
static struct media_pad *upstream(struct media_entity *entity)
{
	struct media_pad *pad, *remote;

	media_entity_for_each_pad(entity, pad) {
		if (!(pad->flags & MEDIA_PAD_FL_SINK))
			continue;
		remote = media_pad_remote_pad_first(pad);
		if (remote)
			return remote;
	}
	return NULL;
}

static void get_format(struct v4l2_subdev *sd, unsigned int pad,
		       struct v4l2_mbus_framefmt *fmt)
{
	struct v4l2_subdev_state *state;

	state = v4l2_subdev_lock_and_get_active_state(sd);
	*fmt = *v4l2_subdev_state_get_format(state, pad);
	v4l2_subdev_unlock_state(state);
}

/*
 * Find the stages of @video's path; false when it starts neither at a
 * sensor nor at a memory input node.
 */
static bool isp_frame_walk(struct isp_video *video, struct isp_frame *f)
{
	struct media_pad *pad = media_pad_remote_pad_first(&video->pad);
	/* link_setup refuses loops of enabled links; bound the walk anyway */
	unsigned int steps = video->vdev.entity.graph_obj.mdev->entity_internal_idx_max;

	while (pad && steps--) {
		struct media_entity *entity = pad->entity;
		struct isp_block *block = isp_block_of(entity);

		if (entity->function == MEDIA_ENT_F_CAM_SENSOR &&
		    is_media_entity_v4l2_subdev(entity)) {
			f->sensor = media_entity_to_v4l2_subdev(entity);
			return true;
		}
		if (is_media_entity_v4l2_video_device(entity)) {
			f->input = container_of(media_entity_to_video_device(entity),
						struct isp_video, vdev);
			return true;
		}
		if (block && block->type == &isp_ccdc_type) {
			f->ccdc = block;
			f->ccdc_pad = pad->index;
		} else if (block && block->type == &isp_lsc_type) {
			f->lsc = block;
		} else if (block && block->type == &isp_wb_type) {
			f->wb = block;
		} else if (block && block->type == &isp_preview_type) {
			f->preview = block;
		} else if (block && block->type == &isp_resizer_type) {
			f->resizer = block;
			f->resizer_pad = pad->index;
		} else if (block && (block->type == &isp_h3a_aewb_type ||
				     block->type == &isp_h3a_af_type ||
				     block->type == &isp_hist_type)) {
			f->stat = block;
		}
		pad = upstream(entity);
	}
	return false;
}

/* whether @r lies inside a @width x @height frame */
static bool rect_inside(const struct v4l2_rect *r, unsigned int width,
			unsigned int height)
{
	return r->left >= 0 && r->top >= 0 &&
	       r->width <= width && r->left <= width - r->width &&
	       r->height <= height && r->top <= height - r->height;
}

/* the size of the statistics buffer that a statistics engine fills */
static size_t stat_size(const struct isp_block *stat)
{
	if (stat->type == &isp_h3a_aewb_type)
		return sizeof(struct n900_isp_aewb);
	if (stat->type == &isp_h3a_af_type)
		return sizeof(struct n900_isp_af);
	return sizeof(struct n900_isp_hist);
}

/*
 * Every buffer of a frame is sized from the source's frame (the sensor's,
 * or the input node's sink pad): the raw frame, the preview's YUV frame
 * and the lines. The crop rectangles come from the blocks' own pads, which
 * link validation compares link by link only: check them against the frame
 * they cut, so that no pass reads or writes outside its buffer, whatever
 * the pads say. What is written to the capture buffer is bounded by the
 * node's own format (its width, height and bytes per line): the resizer's
 * YUV lines and the statistics need room for what they write.
 */
static int isp_frame_check(struct isp_video *video, struct isp_frame *f)
{
	const struct v4l2_pix_format *pix = &video->format;
	struct device *dev = video->isp->dev;
	const char *name = video->vdev.name;
	const struct v4l2_rect *r = &f->crop;
	const char *what = "CCDC";

	if (rect_inside(r, f->width, f->height)) {
		r = &f->rsz_crop;
		what = "resizer";
		if (!f->resizer || rect_inside(r, f->width, f->height))
			r = NULL;
	}
	if (r) {
		dev_err_ratelimited(dev, "%s: the %s crop (%d,%d)/%ux%u is outside the %ux%u frame of the path: the pads' formats disagree\n",
				    name, what, r->left, r->top, r->width,
				    r->height, f->width, f->height);
		return -EPIPE;
	}
	if (f->resizer && (size_t)f->rsz.out_w * 2 > pix->bytesperline) {
		dev_err_ratelimited(dev, "%s: %u bytes per line, too few for the resizer's %u YUV pixels\n",
				    name, pix->bytesperline, f->rsz.out_w);
		return -EPIPE;
	}
	if (video->meta && !f->stat) {
		dev_err_ratelimited(dev, "%s: no statistics engine on the path\n",
				    name);
		return -EPIPE;
	}
	if (f->stat && stat_size(f->stat) > pix->sizeimage) {
		dev_err_ratelimited(dev, "%s: %u-byte buffers, too small for the %zu bytes of %s\n",
				    name, pix->sizeimage, stat_size(f->stat),
				    f->stat->subdev.sd.name);
		return -EPIPE;
	}
	return 0;
}

/**
 * isp_frame_create() - read a capture node's path from the media graph
 * @video: a capture node whose pipeline has just been started
 *
 * The frames of a memory input node are those of the sink pad it feeds: the
 * input node's own format matches it when the input node streams (link
 * validation), and each of its buffers is checked for size. Called with
 * the graph mutex held: the links cannot change under the walk.
 *
 * Return: the frame program, NULL when the path starts neither at a sensor
 * nor at a memory input node (the node then gets a test ramp), or an
 * ERR_PTR(): -ENOMEM, or -EPIPE when the blocks' crops do not fit the
 * frame of the path (isp_frame_check()).
 */
struct isp_frame *isp_frame_create(struct isp_video *video)
{
	struct v4l2_mbus_framefmt fmt;
	struct media_pad *sink;
	struct isp_frame *f;
	unsigned int i;
	size_t pixels;
	int ret;

	lockdep_assert_held(&video->isp->mdev.graph_mutex);
	f = kzalloc(sizeof(*f), GFP_KERNEL);
	if (!f)
		return ERR_PTR(-ENOMEM);
	if (!isp_frame_walk(video, f)) {
		kfree(f);
		return NULL;
	}

	if (f->sensor) {
		get_format(f->sensor, 0, &fmt);
	} else {
		sink = media_pad_remote_pad_first(&f->input->pad);
		get_format(media_entity_to_v4l2_subdev(sink->entity),
			   sink->index, &fmt);
		f->in_code = fmt.code;
	}
	f->width = clamp_t(u32, fmt.width & ~1U, 2, PIX_MAX_WIDTH);
	f->height = clamp_t(u32, fmt.height, 2, PIX_MAX_WIDTH);
	f->crop = (struct v4l2_rect){ 0, 0, f->width, f->height };
	/* the node's format is the size of what is written to its buffers */
	f->raw8 = video->format.pixelformat == V4L2_PIX_FMT_SGRBG8;
	if (f->ccdc)
		isp_block_source_rect(f->ccdc, f->ccdc_pad, &f->crop);
	f->uyvy = video->format.pixelformat == V4L2_PIX_FMT_UYVY;
	if (f->resizer) {
		isp_block_source_rect(f->resizer, f->resizer_pad, &f->rsz_crop);
		f->rsz.in_w = f->rsz_crop.width;
		f->rsz.in_h = f->rsz_crop.height;
		f->rsz.out_w = video->format.width;
		f->rsz.out_h = video->format.height;
		pix_resizer_prepare(&f->rsz);
	}
	ret = isp_frame_check(video, f);
	if (ret) {
		kfree(f);
		return ERR_PTR(ret);
	}

	pixels = (size_t)f->width * f->height;
	f->scene = vzalloc(sizeof(*f->scene));
	f->pix_lsc = vzalloc(sizeof(*f->pix_lsc));
	f->raw = vmalloc_array(pixels, sizeof(*f->raw));
	f->yuv = vmalloc(pixels * 2);
	for (i = 0; i < ISP_FRAME_PARTS; i++) {
		f->line[i] = vmalloc_array(f->width, sizeof(*f->line[i]));
		f->tmp[i] = vmalloc(f->width * 2);
		if (!f->line[i] || !f->tmp[i])
			goto err_nomem;
	}
	if (!f->scene || !f->pix_lsc || !f->raw || !f->yuv)
		goto err_nomem;
	INIT_WORK(&f->work, isp_frame_work);
	init_completion(&f->done);
	f->scene->width = f->width;
	f->scene->height = f->height;
	f->pix_lsc->width = f->width;
	f->pix_lsc->height = f->height;
	return f;

err_nomem:
	isp_frame_destroy(f);
	return ERR_PTR(-ENOMEM);
}

/**
 * isp_frame_destroy() - free what isp_frame_create() allocated
 * @f: the frame program, may be NULL or an ERR_PTR()
 */
void isp_frame_destroy(struct isp_frame *f)
{
	unsigned int i;

	if (IS_ERR_OR_NULL(f))
		return;
	for (i = 0; i < ISP_FRAME_PARTS; i++) {
		vfree(f->tmp[i]);
		vfree(f->line[i]);
	}
	vfree(f->yuv);
	vfree(f->raw);
	vfree(f->pix_lsc);
	vfree(f->scene);
	kfree(f);
}

/* this frame's controls, into the stages' parameters */
static void isp_frame_controls(struct isp_frame *f, struct pix_ccdc *ccdc,
			       struct pix_wb *wb)
{
	struct pix_scene *s = f->scene;
	struct media_device *mdev;
	struct v4l2_subdev *sd;
	struct v4l2_ctrl *ctrl;

	if (f->sensor) {
		mdev = f->sensor->entity.graph_obj.mdev;
		s->pattern = ctrl_value(f->sensor, V4L2_CID_TEST_PATTERN, 0);
		ctrl = find_ctrl(f->sensor, V4L2_CID_EXPOSURE);
		s->exposure = ctrl ? v4l2_ctrl_g_ctrl(ctrl) : 1;
		s->exposure_ref = ctrl ? ctrl->default_value : 1;
		s->gain = ctrl_value(f->sensor, V4L2_CID_ANALOGUE_GAIN, 0);
		mutex_lock(&mdev->graph_mutex);
		s->focus = ctrl_value(sensor_lens(f->sensor),
				      V4L2_CID_FOCUS_ABSOLUTE, PIX_FOCUS_SHARP);
		mutex_unlock(&mdev->graph_mutex);
		pix_scene_prepare(s);
	}

	sd = f->ccdc ? &f->ccdc->subdev.sd : NULL;
	ccdc->black = ctrl_value(sd, V4L2_CID_N900_CCDC_BLACK_LEVEL, 0);

	sd = f->lsc ? &f->lsc->subdev.sd : NULL;
	f->pix_lsc->enable = f->lsc &&
			     ctrl_value(sd, V4L2_CID_N900_LSC_ENABLE, 0);
	f->pix_lsc->strength = ctrl_value(sd, V4L2_CID_N900_LSC_STRENGTH, 0);
	if (f->pix_lsc->enable)
		pix_lsc_prepare(f->pix_lsc);

	sd = f->wb ? &f->wb->subdev.sd : NULL;
	wb->dgain = ctrl_value(sd, V4L2_CID_DIGITAL_GAIN, 256);
	wb->gain[PIX_GR] = ctrl_value(sd, V4L2_CID_N900_WB_GAIN_GR, 32);
	wb->gain[PIX_R] = ctrl_value(sd, V4L2_CID_N900_WB_GAIN_R, 32);
	wb->gain[PIX_B] = ctrl_value(sd, V4L2_CID_N900_WB_GAIN_B, 32);
	wb->gain[PIX_GB] = ctrl_value(sd, V4L2_CID_N900_WB_GAIN_GB, 32);
}

/* the statistics buffer of @f->stat, from the raw frame */
static void isp_frame_stats(struct isp_frame *f, u8 *mem)
{
	unsigned int w = f->width, h = f->height, y;

	if (f->stat->type == &isp_h3a_aewb_type) {
		pix_aewb_init((void *)mem, w, h);
		for (y = 0; y < h; y++)
			pix_aewb_line((void *)mem, y, f->raw + (size_t)y * w);
	} else if (f->stat->type == &isp_h3a_af_type) {
		pix_af_init((void *)mem, w, h);
		for (y = 0; y < h; y++)
			pix_af_line((void *)mem, y, f->raw + (size_t)y * w);
	} else {
		pix_hist_init((void *)mem, w, h);
		for (y = 0; y < h; y++)
			pix_hist_line((void *)mem, y, f->raw + (size_t)y * w);
	}
}

/**
 * isp_frame_interval_ns() - the time from one frame of a path to the next
 * @f: a frame program
 *
 * Read at every frame, like the other controls: a sensor's frame interval
 * is (width + hblank) * (height + vblank) / pixel rate.
 *
 * Return: the sensor's frame interval in ns, 0 when it runs free, or
 * ISP_FRAME_INTERVAL_NS for a memory-to-memory path.
 */
u64 isp_frame_interval_ns(struct isp_frame *f)
{
	struct v4l2_ctrl *rate;
	u64 pixels;

	if (!f->sensor)
		return ISP_FRAME_INTERVAL_NS;
	rate = find_ctrl(f->sensor, V4L2_CID_PIXEL_RATE);
	if (ctrl_value(f->sensor, V4L2_CID_N900_SENSOR_FREE_RUN, 0) || !rate)
		return 0;
	pixels = (u64)(f->width + ctrl_value(f->sensor, V4L2_CID_HBLANK, 0)) *
		 (f->height + ctrl_value(f->sensor, V4L2_CID_VBLANK, 0));
	return div64_u64(pixels * NSEC_PER_SEC,
			 max_t(s64, v4l2_ctrl_g_ctrl_int64(rate), 1));
}

/**
 * isp_frame_input() - the memory input node at the start of a path
 * @f: a frame program
 *
 * Return: the input node, or NULL when the path starts at a sensor.
 */
struct isp_video *isp_frame_input(struct isp_frame *f)
{
	return f->input;
}

/**
 * isp_frame_input_size() - the bytes one buffer of the input node holds
 * @f: a frame program whose path starts at a memory input node
 *
 * Return: the size of one input frame.
 */
size_t isp_frame_input_size(struct isp_frame *f)
{
	size_t bpp = f->in_code == MEDIA_BUS_FMT_SGRBG8_1X8 ? 1 : 2;

	return (size_t)f->width * f->height * bpp;
}

/* the raw line @y at the source: the sensor's, or the input frame's */
static void isp_frame_source_line(struct isp_frame *f, unsigned int y,
				  u16 *line)
{
	unsigned int w = f->width;

	if (!f->input)
		pix_sensor_line(f->scene, y, line);
	else if (f->in_code == MEDIA_BUS_FMT_SGRBG8_1X8)
		pix_raw8_to_raw10(f->in + (size_t)y * w, line, w);
	else
		memcpy(line, f->in + (size_t)y * w * 2, w * 2);
}

/* the source, CCDC, LSC and WB: raw lines @y0..@y1 into f->raw */
static void isp_frame_raw(struct isp_frame *f, unsigned int part,
			  unsigned int y0, unsigned int y1)
{
	unsigned int w = f->width, y;
	u16 *line = f->line[part];

	for (y = y0; y < y1; y++) {
		u16 *r = f->raw + (size_t)y * w;

		isp_frame_source_line(f, y, line);
		pix_ccdc_line(&f->ccdc_params, line, r, w);
		if (f->pix_lsc->enable)
			pix_lsc_line(f->pix_lsc, y, r, r);
		if (f->wb)
			pix_wb_line(&f->wb_params, y, r, r, w);
	}
}

/* raw to memory, lines @y0..@y1 of the CCDC output formatter's crop */
static void isp_frame_raw_out(struct isp_frame *f, unsigned int y0,
			      unsigned int y1)
{
	unsigned int cw = min(f->crop.width, f->pix->width);
	unsigned int y;

	for (y = y0; y < y1; y++) {
		const u16 *r = f->raw + (size_t)(f->crop.top + y) * f->width +
			       f->crop.left;
		u8 *out = f->mem + (size_t)y * f->pix->bytesperline;

		if (f->raw8)
			pix_raw10_to_raw8(r, out, cw);
		else
			memcpy(out, r, cw * sizeof(*r));
	}
}

/* preview: YUV lines @y0..@y1 into @out, @stride bytes apart */
static void isp_frame_preview(struct isp_frame *f, u8 *out, size_t stride,
			      unsigned int y0, unsigned int y1)
{
	unsigned int w = f->width, h = f->height, y;

	for (y = y0; y < y1; y++) {
		const u16 *above = f->raw + (size_t)(y ? y - 1 : 1) * w;
		const u16 *below = f->raw + (size_t)(y + 1 < h ? y + 1 : y - 1) * w;

		pix_preview_line(above, f->raw + (size_t)y * w, below, y, w,
				 out + y * stride, f->uyvy);
	}
}

/* the resizer: output lines @y0..@y1, from f->rsz_src (YUV, source size) */
static void isp_frame_resize(struct isp_frame *f, unsigned int part,
			     unsigned int y0, unsigned int y1)
{
	size_t stride = (size_t)f->width * 2;
	const u8 *base = f->rsz_src + f->rsz_crop.top * stride +
			 f->rsz_crop.left * 2;
	unsigned int y;

	for (y = y0; y < y1; y++) {
		unsigned int sy = pix_resizer_src_line(&f->rsz, y);
		unsigned int sy1 = sy + 1 < f->rsz.in_h ? sy + 1 : sy;

		pix_resizer_line(&f->rsz, y, base + sy * stride,
				 base + sy1 * stride,
				 f->mem + (size_t)y * f->pix->bytesperline,
				 f->tmp[part], f->uyvy);
	}
}

/* lines @y0..@y1 of the current pass, with the buffers of @part */
static void isp_frame_pass_lines(struct isp_frame *f, unsigned int part,
				 unsigned int y0, unsigned int y1)
{
	switch (f->pass) {
	case ISP_STAGE_RAW:
		isp_frame_raw(f, part, y0, y1);
		break;
	case ISP_STAGE_RAW_OUT:
		isp_frame_raw_out(f, y0, y1);
		break;
	case ISP_STAGE_PREVIEW:
		if (f->resizer)
			isp_frame_preview(f, f->yuv, (size_t)f->width * 2, y0, y1);
		else
			isp_frame_preview(f, f->mem, f->pix->bytesperline, y0, y1);
		break;
	case ISP_STAGE_RESIZER:
		isp_frame_resize(f, part, y0, y1);
		break;
	default:
		break;
	}
}

/* the helper's part of a pass: the second half of the lines */
static void isp_frame_work(struct work_struct *work)
{
	struct isp_frame *f = container_of(work, struct isp_frame, work);

	isp_frame_pass_lines(f, 1, f->pass_lines / 2, f->pass_lines);
	complete(&f->done);
}

/*
 * Run one pass over @lines lines. The lines of a pass are independent of
 * each other, so with isp_frame_parallel the second half runs on another
 * CPU, in a work item, while this thread does the first half.
 */
static void isp_frame_pass(struct isp_frame *f, enum isp_stage pass,
			   unsigned int lines)
{
	unsigned int cpu = nr_cpu_ids;

	f->pass = pass;
	f->pass_lines = lines;
	if (READ_ONCE(isp_frame_parallel) && lines >= 2 * ISP_FRAME_PART_MIN)
		cpu = cpumask_any_but(cpu_online_mask, raw_smp_processor_id());
	if (cpu >= nr_cpu_ids) {
		isp_frame_pass_lines(f, 0, 0, lines);
		return;
	}
	reinit_completion(&f->done);
	queue_work_on(cpu, system_highpri_wq, &f->work);
	isp_frame_pass_lines(f, 0, 0, lines / 2);
	wait_for_completion(&f->done);
}

/* account @pixels of stage @stage, started at @t0; returns the time now */
static u64 isp_frame_stage(struct isp_stage_stats *st, enum isp_stage stage,
			   u64 t0, u64 pixels)
{
	u64 now = ktime_get_ns();

	st->ns[stage] += now - t0;
	st->pixels[stage] += pixels;
	return now;
}

/**
 * isp_frame_render() - render one frame of a capture node
 * @f: the node's frame program
 * @pix: the node's format
 * @mem: the buffer, @pix->sizeimage bytes (for a metadata node, the size
 *	of its statistics buffer)
 * @in: for a memory-to-memory path, the input frame,
 *	isp_frame_input_size() bytes; NULL when the path starts at a sensor
 * @st: the time and pixels of each stage are added to it
 */
void isp_frame_render(struct isp_frame *f, const struct v4l2_pix_format *pix,
		      u8 *mem, const u8 *in, struct isp_stage_stats *st)
{
	u64 pixels = (u64)f->width * f->height, t = ktime_get_ns();
	unsigned int rsz_lines = min(f->rsz.out_h, pix->height);

	f->pix = pix;
	f->mem = mem;
	f->in = in;
	isp_frame_controls(f, &f->ccdc_params, &f->wb_params);
	if (f->input && !f->preview && f->resizer) {
		/* YUV from memory straight into the resizer */
		f->rsz_src = in;
		isp_frame_pass(f, ISP_STAGE_RESIZER, rsz_lines);
		isp_frame_stage(st, ISP_STAGE_RESIZER, t,
				(u64)f->rsz.out_w * f->rsz.out_h);
		return;
	}

	isp_frame_pass(f, ISP_STAGE_RAW, f->height);
	t = isp_frame_stage(st, ISP_STAGE_RAW, t, pixels);
	if (f->stat) {
		isp_frame_stats(f, mem);
		isp_frame_stage(st, ISP_STAGE_STATS, t, pixels);
	} else if (!f->preview) {
		isp_frame_pass(f, ISP_STAGE_RAW_OUT,
			       min(f->crop.height, pix->height));
		isp_frame_stage(st, ISP_STAGE_RAW_OUT, t,
				(u64)f->crop.width * f->crop.height);
	} else if (f->resizer) {
		isp_frame_pass(f, ISP_STAGE_PREVIEW, f->height);
		t = isp_frame_stage(st, ISP_STAGE_PREVIEW, t, pixels);
		f->rsz_src = f->yuv;
		isp_frame_pass(f, ISP_STAGE_RESIZER, rsz_lines);
		isp_frame_stage(st, ISP_STAGE_RESIZER, t,
				(u64)f->rsz.out_w * f->rsz.out_h);
	} else if ((size_t)f->width * 2 <= pix->bytesperline) {
		isp_frame_pass(f, ISP_STAGE_PREVIEW, min(f->height, pix->height));
		isp_frame_stage(st, ISP_STAGE_PREVIEW, t, pixels);
	}
}
