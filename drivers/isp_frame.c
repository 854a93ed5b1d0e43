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

#include <linux/math64.h>
#include <linux/vmalloc.h>
#include <media/v4l2-ctrls.h>

#include "isp.h"
#include "isp_pixel.h"
#include "n900-isp-controls.h"

/**
 * struct isp_frame - the stages of one capture node's path, and buffers
 * @sensor: the sensor at the start of the path, or NULL
 * @input: the memory input (output) node at the start of the path, or NULL
 * @in_code: the media bus code of @input's frames
 * @lens: the sensor's lens (ancillary link), or NULL
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
 * @raw8: the CCDC writes 8-bit samples to memory
 * @rsz_crop: the resizer input crop
 * @uyvy: YUV output is UYVY rather than YUYV
 * @scene: the sensor's scene and its per-frame tables
 * @pix_lsc: the lens shading gain grid
 * @rsz: resizer scaling
 * @raw: one raw frame, 16-bit samples
 * @yuv: one preview output frame
 * @line: one raw line
 * @tmp: one YUV line for the resizer
 */
struct isp_frame {
	struct v4l2_subdev *sensor;
	struct isp_video *input;
	u32 in_code;
	struct v4l2_subdev *lens;
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
	u16 *line;
	u8 *tmp;
};

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

/* the lens the sensor's ancillary link points at */
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

	while (pad) {
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

/**
 * isp_frame_create() - read a capture node's path from the media graph
 * @video: a capture node whose pipeline has just been started
 *
 * The frames of a memory input node are those of the sink pad it feeds: the
 * input node's own format matches it when the input node streams (link
 * validation), and each of its buffers is checked for size.
 *
 * Return: the frame program, NULL when the path starts neither at a sensor
 * nor at a memory input node (the node then gets a test ramp), or an
 * ERR_PTR() on allocation failure.
 */
struct isp_frame *isp_frame_create(struct isp_video *video)
{
	struct v4l2_mbus_framefmt fmt;
	struct media_pad *sink;
	struct isp_frame *f;
	size_t pixels;

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
	if (f->ccdc) {
		get_format(&f->ccdc->sd, f->ccdc_pad, &fmt);
		f->raw8 = fmt.code == MEDIA_BUS_FMT_SGRBG8_1X8;
		isp_block_source_rect(f->ccdc, f->ccdc_pad, &f->crop);
	}
	f->uyvy = video->format.pixelformat == V4L2_PIX_FMT_UYVY;
	if (f->resizer) {
		isp_block_source_rect(f->resizer, f->resizer_pad, &f->rsz_crop);
		f->rsz.in_w = f->rsz_crop.width;
		f->rsz.in_h = f->rsz_crop.height;
		f->rsz.out_w = video->format.width;
		f->rsz.out_h = video->format.height;
		pix_resizer_prepare(&f->rsz);
	}

	pixels = (size_t)f->width * f->height;
	f->scene = vzalloc(sizeof(*f->scene));
	f->pix_lsc = vzalloc(sizeof(*f->pix_lsc));
	f->raw = vmalloc_array(pixels, sizeof(*f->raw));
	f->yuv = vmalloc(pixels * 2);
	f->line = vmalloc_array(f->width, sizeof(*f->line));
	f->tmp = vmalloc(f->width * 2);
	if (!f->scene || !f->pix_lsc || !f->raw || !f->yuv || !f->line ||
	    !f->tmp) {
		isp_frame_destroy(f);
		return ERR_PTR(-ENOMEM);
	}
	f->scene->width = f->width;
	f->scene->height = f->height;
	f->pix_lsc->width = f->width;
	f->pix_lsc->height = f->height;
	if (f->sensor)
		f->lens = sensor_lens(f->sensor);
	return f;
}

/**
 * isp_frame_destroy() - free what isp_frame_create() allocated
 * @f: the frame program, may be NULL or an ERR_PTR()
 */
void isp_frame_destroy(struct isp_frame *f)
{
	if (IS_ERR_OR_NULL(f))
		return;
	vfree(f->tmp);
	vfree(f->line);
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
	struct v4l2_subdev *sd;
	struct v4l2_ctrl *ctrl;

	if (f->sensor) {
		s->pattern = ctrl_value(f->sensor, V4L2_CID_TEST_PATTERN, 0);
		ctrl = find_ctrl(f->sensor, V4L2_CID_EXPOSURE);
		s->exposure = ctrl ? v4l2_ctrl_g_ctrl(ctrl) : 1;
		s->exposure_ref = ctrl ? ctrl->default_value : 1;
		s->gain = ctrl_value(f->sensor, V4L2_CID_ANALOGUE_GAIN, 0);
		s->focus = ctrl_value(f->lens, V4L2_CID_FOCUS_ABSOLUTE,
				      PIX_FOCUS_SHARP);
		pix_scene_prepare(s);
	}

	sd = f->ccdc ? &f->ccdc->sd : NULL;
	ccdc->black = ctrl_value(sd, V4L2_CID_N900_CCDC_BLACK_LEVEL, 0);

	sd = f->lsc ? &f->lsc->sd : NULL;
	f->pix_lsc->enable = f->lsc &&
			     ctrl_value(sd, V4L2_CID_N900_LSC_ENABLE, 0);
	f->pix_lsc->strength = ctrl_value(sd, V4L2_CID_N900_LSC_STRENGTH, 0);
	if (f->pix_lsc->enable)
		pix_lsc_prepare(f->pix_lsc);

	sd = f->wb ? &f->wb->sd : NULL;
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
static void isp_frame_source_line(struct isp_frame *f, const u8 *in,
				  unsigned int y, u16 *line)
{
	unsigned int w = f->width;

	if (!f->input)
		pix_sensor_line(f->scene, y, line);
	else if (f->in_code == MEDIA_BUS_FMT_SGRBG8_1X8)
		pix_raw8_to_raw10(in + (size_t)y * w, line, w);
	else
		memcpy(line, in + (size_t)y * w * 2, w * 2);
}

/* the source, CCDC, LSC and WB: the whole raw frame into f->raw */
static void isp_frame_raw(struct isp_frame *f, const u8 *in,
			  const struct pix_ccdc *ccdc, const struct pix_wb *wb)
{
	unsigned int w = f->width, y;

	for (y = 0; y < f->height; y++) {
		u16 *r = f->raw + (size_t)y * w;

		isp_frame_source_line(f, in, y, f->line);
		pix_ccdc_line(ccdc, f->line, r, w);
		if (f->pix_lsc->enable)
			pix_lsc_line(f->pix_lsc, y, r, r);
		if (f->wb)
			pix_wb_line(wb, y, r, r, w);
	}
}

/* raw to memory: the CCDC output formatter's crop, 10 or 8 bit */
static void isp_frame_raw_out(struct isp_frame *f,
			      const struct v4l2_pix_format *pix, u8 *mem)
{
	unsigned int cw = min(f->crop.width, pix->width);
	unsigned int ch = min(f->crop.height, pix->height);
	unsigned int y;

	for (y = 0; y < ch; y++) {
		const u16 *r = f->raw + (size_t)(f->crop.top + y) * f->width +
			       f->crop.left;
		u8 *out = mem + (size_t)y * pix->bytesperline;

		if (f->raw8)
			pix_raw10_to_raw8(r, out, cw);
		else
			memcpy(out, r, cw * sizeof(*r));
	}
}

/* preview: @lines lines of YUV into @out, @stride bytes apart */
static void isp_frame_preview(struct isp_frame *f, u8 *out, size_t stride,
			      unsigned int lines)
{
	unsigned int w = f->width, h = f->height, y;

	for (y = 0; y < lines && y < h; y++) {
		const u16 *above = f->raw + (size_t)(y ? y - 1 : 1) * w;
		const u16 *below = f->raw + (size_t)(y + 1 < h ? y + 1 : y - 1) * w;

		pix_preview_line(above, f->raw + (size_t)y * w, below, y, w,
				 out + y * stride, f->uyvy);
	}
}

/* the resizer, from a YUV frame of the source's size, into memory */
static void isp_frame_resize(struct isp_frame *f, const u8 *yuv,
			     const struct v4l2_pix_format *pix, u8 *mem)
{
	size_t stride = (size_t)f->width * 2;
	const u8 *base = yuv + f->rsz_crop.top * stride + f->rsz_crop.left * 2;
	unsigned int y;

	for (y = 0; y < f->rsz.out_h && y < pix->height; y++) {
		unsigned int sy = pix_resizer_src_line(&f->rsz, y);
		unsigned int sy1 = sy + 1 < f->rsz.in_h ? sy + 1 : sy;

		pix_resizer_line(&f->rsz, y, base + sy * stride,
				 base + sy1 * stride,
				 mem + (size_t)y * pix->bytesperline, f->tmp,
				 f->uyvy);
	}
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
	struct pix_ccdc ccdc;
	struct pix_wb wb;

	isp_frame_controls(f, &ccdc, &wb);
	if (f->input && !f->preview && f->resizer) {
		/* YUV from memory straight into the resizer */
		isp_frame_resize(f, in, pix, mem);
		isp_frame_stage(st, ISP_STAGE_RESIZER, t,
				(u64)f->rsz.out_w * f->rsz.out_h);
		return;
	}

	isp_frame_raw(f, in, &ccdc, &wb);
	t = isp_frame_stage(st, ISP_STAGE_RAW, t, pixels);
	if (f->stat) {
		isp_frame_stats(f, mem);
		isp_frame_stage(st, ISP_STAGE_STATS, t, pixels);
	} else if (!f->preview) {
		isp_frame_raw_out(f, pix, mem);
		isp_frame_stage(st, ISP_STAGE_RAW_OUT, t,
				(u64)f->crop.width * f->crop.height);
	} else if (f->resizer) {
		isp_frame_preview(f, f->yuv, (size_t)f->width * 2, f->height);
		t = isp_frame_stage(st, ISP_STAGE_PREVIEW, t, pixels);
		isp_frame_resize(f, f->yuv, pix, mem);
		isp_frame_stage(st, ISP_STAGE_RESIZER, t,
				(u64)f->rsz.out_w * f->rsz.out_h);
	} else if (f->width <= pix->width) {
		isp_frame_preview(f, mem, pix->bytesperline, pix->height);
		isp_frame_stage(st, ISP_STAGE_PREVIEW, t, pixels);
	}
}
