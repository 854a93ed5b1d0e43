// SPDX-License-Identifier: GPL-2.0
/*
 * isp_frame.c - frames through the pipeline of a streaming capture node
 *
 * At STREAMON the path of the node is read back from the media graph: from
 * the node's pad over enabled links to its source, a sensor or a memory
 * input node, noting the blocks on the way that act on frames (those with
 * &isp_block_type.frame_ops) as stages, in data-flow order. Each block
 * describes itself (drivers/isp/blocks/): what it takes and gives, and its
 * operations; this program knows no block by name. Each frame then runs:
 *
 *   source (sensor, or memory): a raw frame
 *   -> line stages, one pass, line by line, in place (e.g. black level,
 *      lens shading, white balance; fused in one loop by pix_line_chain()
 *      when the chain knows them all)
 *   -> frame stages, one pass each, each from the whole of the previous
 *      frame (e.g. demosaic to YUV, then scaling)
 *   -> memory: the last frame stage writes the capture buffer; a raw frame
 *      is written as the node's format says (16 or 8 bits), cropped as the
 *      last line stage says; or a statistics engine fills it
 *
 * The blocks' arithmetic is the pixel code of isp_pixel.c, the same code
 * the host reference model runs (tests/ref/isp-ref.c).
 *
 * A path from a memory input node is memory-to-memory: each frame takes
 * one buffer of the input node and one of the capture node. Raw input
 * enters where a sensor's frames do, YUV input goes to the first stage.
 *
 * Controls are read at every frame, so a changed gain shows in the next one.
 */

#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/firmware.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/vmalloc.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <media/v4l2-ctrls.h>

#include <asm/neon.h>
#include <asm/simd.h>

#include "isp.h"
#include "isp_pixel.h"
#include "isp_pixel_neon.h"
#include "n900_isp_controls.h"

/*
 * A pass of fewer than 2 * ISP_FRAME_PART_MIN lines is not worth a second
 * CPU (ISP_FRAME_PARTS, isp.h).
 */
#define ISP_FRAME_PART_MIN	16

/*
 * How long the frame thread and its helper spin for each other's next
 * step before they sleep (isp_frame_wait_seq()): a hand-over between
 * passes takes microseconds, the helper's start up to ~200 us under TCG
 */
#define ISP_FRAME_SPIN_NS	(300 * NSEC_PER_USEC)

/*
 * The frame helpers' workqueue: a helper runs a whole frame without
 * sleeping between passes, so it is CPU-intensive (it holds no worker
 * that other high-priority work of its CPU waits for)
 */
static struct workqueue_struct *isp_frame_wq;

static int isp_frame_parallel = 1;
module_param_named(parallel, isp_frame_parallel, int, 0644);
MODULE_PARM_DESC(parallel, "split each processing pass in two halves, the second on a helper: 0 never, 1 on another CPU when one is online (default), 2 (or more) always, on this CPU when it is the only one (the frame tests' single-vCPU guests)");

static bool isp_frame_fuse_lines = true;
module_param_named(fuse_lines, isp_frame_fuse_lines, bool, 0644);
MODULE_PARM_DESC(fuse_lines, "run the line stages in one loop, pix_line_chain(), when they allow it (default: on; off: each stage's own loop, the same frames)");

static bool isp_frame_neon = true;
module_param_named(neon, isp_frame_neon, bool, 0644);
MODULE_PARM_DESC(neon, "run the pixel loops that have a NEON version with it (default: on; off: their C, the same frames)");

/**
 * isp_frame_neon_usable() - whether a stage may run its NEON loop
 *
 * The stage brackets the loop with kernel_neon_begin() and
 * kernel_neon_end() (isp_pixel_neon.h).
 *
 * Return: true with kernel-mode NEON on a CPU that has it, unless
 * n900_isp.neon=0 asks for the C.
 */
bool isp_frame_neon_usable(void)
{
	return IS_ENABLED(CONFIG_KERNEL_MODE_NEON) &&
	       READ_ONCE(isp_frame_neon) && cpu_has_neon() && may_use_simd();
}

/**
 * isp_frame_init() - at module load: the frame helpers' workqueue
 *
 * Return: 0, or -ENOMEM.
 */
int isp_frame_init(void)
{
	isp_frame_wq = alloc_workqueue("n900-isp-frame",
				       WQ_HIGHPRI | WQ_CPU_INTENSIVE, 0);
	return isp_frame_wq ? 0 : -ENOMEM;
}

/**
 * isp_frame_exit() - at module unload: waits for the last helper to return
 */
void isp_frame_exit(void)
{
	destroy_workqueue(isp_frame_wq);
}

/* the passes of a frame */
enum isp_frame_pass {
	ISP_PASS_SOURCE,	/* the source's raw frame */
	ISP_PASS_LINE,		/* the line stages */
	ISP_PASS_STAGE,		/* one frame stage */
	ISP_PASS_RAW_OUT,	/* the raw frame to memory */
	ISP_PASS_END,		/* none: the frame is done */
};

/**
 * struct isp_frame - the stages of one capture node's path, and buffers
 * @video: the capture node
 * @sensor: the sensor at the start of the path, or NULL
 * @input: the memory input (output) node at the start of the path, or NULL
 * @in_code: the media bus code of @input's frames
 * @stages: the blocks on the path that act on frames, in data-flow order
 * @num_stages: the number of @stages
 * @num_line: the number of line stages, the first of @stages
 * @chain: the line stages, for pix_line_chain()
 * @chained: @chain holds every line stage, in their order
 * @source: what the source gives: raw, or YUV from memory
 * @output: what the last stage gives
 * @width: width of the frames at the source (sensor or memory input)
 * @height: their height
 * @crop: the part of the raw frame the memory writer takes
 * @raw8: raw samples go to memory as 8 bits (the node's format), not 16
 * @scene: the sensor's scene and its per-frame tables
 * @raw: one raw frame, 16-bit samples, when the source gives raw
 * @work: the helper: the second half of each pass of a frame, on another
 *	CPU (isp_frame_work())
 * @done: the helper has ended (the frame's last pass is done)
 * @helper: the helper runs for this frame
 * @pass_seq: passes of the frame published to the helper
 * @helper_seq: passes of the frame the helper has done its part of
 * @wait: where the frame thread or the helper sleeps when a wait for the
 *	other's sequence number outlasts its spin
 * @pass: the current pass
 * @pass_stage: the frame stage of an %ISP_PASS_STAGE pass
 * @pass_lines: the number of lines of the current pass
 * @pix: the capture format, while a frame renders
 * @mem: the capture buffer, while a frame renders
 * @in: the input frame of a memory-to-memory path, while a frame renders
 * @scene_name: the scene file of the sensor's Scene control that was
 *	loaded, or failed to load (empty: none yet)
 * @scene_fw: the scene file, while the stream lasts; NULL when none is
 *	loaded (the Image pattern is then the synthetic scene)
 * @image: @scene_fw's picture
 * @blurred: room for @image blurred, or NULL (it is then never blurred)
 * @charge: the scene's charge cache (pix_scene_set_cache()), or NULL
 *	(every frame then computes every charge)
 */
struct isp_frame {
	struct isp_video *video;
	struct v4l2_subdev *sensor;
	struct isp_video *input;
	u32 in_code;
	struct isp_frame_stage *stages;
	unsigned int num_stages;
	unsigned int num_line;
	struct pix_line_chain chain;
	bool chained;
	enum isp_data source;
	enum isp_data output;
	unsigned int width;
	unsigned int height;
	struct v4l2_rect crop;
	bool raw8;
	struct pix_scene *scene;
	u16 *raw;
	struct work_struct work;
	struct completion done;
	bool helper;
	unsigned int pass_seq;
	unsigned int helper_seq;
	wait_queue_head_t wait;
	enum isp_frame_pass pass;
	struct isp_frame_stage *pass_stage;
	unsigned int pass_lines;
	const struct v4l2_pix_format *pix;
	u8 *mem;
	const u8 *in;
	char scene_name[64];
	const struct firmware *scene_fw;
	struct pix_image image;
	u16 *blurred;
	void *charge;
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

/**
 * isp_block_ctrl_value() - the current value of one of a block's controls
 * @block: the block
 * @id: the control's ID
 * @def: the value when @block has no such control
 *
 * Return: the control's value, or @def.
 */
s32 isp_block_ctrl_value(struct isp_block *block, u32 id, s32 def)
{
	return ctrl_value(&block->subdev.sd, id, def);
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
 * Find the start of @video's path, and the blocks on it that act on frames:
 * their number, into @f->num_stages, or with @f->stages allocated, the
 * stages themselves, in data-flow order. False when the path starts
 * neither at a sensor nor at a memory input node.
 */
static bool isp_frame_walk(struct isp_video *video, struct isp_frame *f)
{
	struct media_pad *pad = media_pad_remote_pad_first(&video->pad);
	/* link_notify refuses loops of enabled links; bound the walk anyway */
	unsigned int steps = video->vdev.entity.graph_obj.mdev->entity_internal_idx_max;
	unsigned int n = 0;

	while (pad && steps--) {
		struct media_entity *entity = pad->entity;
		struct isp_block *block = isp_block_of(entity);

		if (entity->function == MEDIA_ENT_F_CAM_SENSOR &&
		    is_media_entity_v4l2_subdev(entity)) {
			f->sensor = media_entity_to_v4l2_subdev(entity);
			f->num_stages = n;
			return true;
		}
		if (is_media_entity_v4l2_video_device(entity)) {
			f->input = container_of(media_entity_to_video_device(entity),
						struct isp_video, vdev);
			f->num_stages = n;
			return true;
		}
		if (block && block->type->frame_ops) {
			n++;
			if (f->stages) {
				struct isp_frame_stage *s = &f->stages[f->num_stages - n];

				s->block = block;
				s->pad = pad->index;
				s->video = video;
			}
		}
		pad = upstream(entity);
	}
	return false;
}

static const char *isp_data_name(enum isp_data data)
{
	switch (data) {
	case ISP_DATA_RAW:
		return "raw";
	case ISP_DATA_YUV:
		return "YUV";
	default:
		return "statistics";
	}
}

/* whether @r lies inside a @width x @height frame */
static bool rect_inside(const struct v4l2_rect *r, unsigned int width,
			unsigned int height)
{
	return r->left >= 0 && r->top >= 0 &&
	       r->width <= width && r->left <= width - r->width &&
	       r->height <= height && r->top <= height - r->height;
}

/**
 * isp_frame_check_rect() - check a block's rectangle against its input
 * @stage: a stage, at its &isp_frame_ops.start
 * @what: what @r is, for the message
 * @r: a rectangle of @stage->in, read from the block's pads
 *
 * The crop rectangles come from the blocks' own pads, which link
 * validation compares link by link only: a stage checks them against the
 * frame they cut, so that no pass reads or writes outside its buffer,
 * whatever the pads say.
 *
 * Return: 0, or -EPIPE (with a message) when @r is not inside @stage->in.
 */
int isp_frame_check_rect(struct isp_frame_stage *stage, const char *what,
			 const struct v4l2_rect *r)
{
	if (rect_inside(r, stage->in.width, stage->in.height))
		return 0;
	dev_err_ratelimited(stage->video->isp->dev,
			    "%s: the %s %s (%d,%d)/%ux%u is outside the %ux%u frame of the path: the pads' formats disagree\n",
			    stage->video->vdev.name,
			    stage->block->subdev.sd.name, what, r->left,
			    r->top, r->width, r->height, stage->in.width,
			    stage->in.height);
	return -EPIPE;
}

/* the size of the pixel parameters each place of the chain points to */
static const size_t isp_chain_priv_size[] = {
	[ISP_CHAIN_CCDC] = sizeof(struct pix_ccdc),
	[ISP_CHAIN_LSC] = sizeof(struct pix_lsc),
	[ISP_CHAIN_WB] = sizeof(struct pix_wb),
};

/*
 * The line stages as one pix_line_chain(), when there are some, each has
 * its place there and they come in the chain's order (each place once, at
 * most); f->chained stays false otherwise
 */
static void isp_frame_chain(struct isp_frame *f)
{
	struct pix_line_chain chain = { };
	enum isp_chain last = ISP_CHAIN_NONE;
	unsigned int i;

	for (i = 0; i < f->num_line; i++) {
		struct isp_frame_stage *s = &f->stages[i];
		const struct isp_frame_ops *ops = s->block->type->frame_ops;
		enum isp_chain place = ops->chain;

		if (place <= last || place >= ARRAY_SIZE(isp_chain_priv_size))
			return;
		/* a block whose parameters are not the chain's own */
		if (WARN_ON_ONCE(ops->priv_size != isp_chain_priv_size[place]))
			return;
		switch (place) {
		case ISP_CHAIN_CCDC:
			chain.ccdc = s->priv;
			break;
		case ISP_CHAIN_LSC:
			chain.lsc = s->priv;
			break;
		case ISP_CHAIN_WB:
			chain.wb = s->priv;
			break;
		default:
			return;
		}
		last = place;
	}
	f->chain = chain;
	f->chained = f->num_line > 0;
}

/*
 * Set up the stages in data-flow order: what each takes must be what the
 * one before gives, line stages come first (one pass after the source's),
 * each stage checks its pads against its input, and what is
 * written to the capture buffer is bounded by the node's own format (its
 * width, height and bytes per line): the last frame stage's lines and the
 * statistics need room for what they write.
 */
static int isp_frame_setup(struct isp_video *video, struct isp_frame *f)
{
	const struct v4l2_pix_format *pix = &video->format;
	struct device *dev = video->isp->dev;
	const char *name = video->vdev.name;
	struct isp_image img = {
		.width = f->width,
		.height = f->height,
		.stride = (size_t)f->width * 2,
		/* the sensor clamps, and 8-bit samples widen to 10 */
		.narrow = !f->input || f->in_code == MEDIA_BUS_FMT_SGRBG8_1X8,
	};
	struct v4l2_rect crop = { 0, 0, f->width, f->height };
	enum isp_data data = f->source;
	unsigned int i;
	int ret;

	for (i = 0; i < f->num_stages; i++) {
		struct isp_frame_stage *s = &f->stages[i];
		const struct isp_frame_ops *ops = s->block->type->frame_ops;
		const char *block = s->block->subdev.sd.name;

		if (ops->input != data) {
			dev_err_ratelimited(dev, "%s: %s takes %s data, the path gives it %s\n",
					    name, block,
					    isp_data_name(ops->input),
					    isp_data_name(data));
			return -EPIPE;
		}
		if (ops->process_line && i != f->num_line) {
			dev_err_ratelimited(dev, "%s: %s works on the source's lines, after a frame stage\n",
					    name, block);
			return -EPIPE;
		}
		if (!!ops->process_line + !!ops->process_lines +
		    !!ops->process_stats != 1) {
			dev_err_ratelimited(dev, "%s: %s has not exactly one process operation\n",
					    name, block);
			return -EINVAL;
		}
		if (ops->process_line)
			f->num_line++;
		s->in = img;
		s->out = img;
		s->crop = crop;
		if (ops->priv_size) {
			s->priv = vzalloc(ops->priv_size);
			if (!s->priv)
				return -ENOMEM;
		}
		ret = ops->start ? ops->start(s) : 0;
		if (ret)
			return ret;
		/* a line stage works in place, on the source's lines */
		if (ops->process_line && (s->out.width != s->in.width ||
					  s->out.height != s->in.height)) {
			dev_err_ratelimited(dev, "%s: %s works in place, but sizes its output %ux%u\n",
					    name, block, s->out.width,
					    s->out.height);
			return -EPIPE;
		}
		/* a frame stage's output: its own size, packed */
		s->out.stride = (size_t)s->out.width * 2;
		data = ops->output;
		img = s->out;
		crop = ops->process_line ? s->crop : (struct v4l2_rect){
			0, 0, img.width, img.height };
	}
	f->output = data;
	f->crop = crop;
	isp_frame_chain(f);

	if (video->meta && data != ISP_DATA_STATS) {
		dev_err_ratelimited(dev, "%s: no statistics engine on the path\n",
				    name);
		return -EPIPE;
	}
	if (!f->num_stages)
		return 0;
	if (data == ISP_DATA_STATS) {
		struct isp_frame_stage *s = &f->stages[f->num_stages - 1];
		size_t size = s->block->type->frame_ops->stats_size;

		if (size > pix->sizeimage) {
			dev_err_ratelimited(dev, "%s: %u-byte buffers, too small for the %zu bytes of %s\n",
					    name, pix->sizeimage, size,
					    s->block->subdev.sd.name);
			return -EPIPE;
		}
	} else if (f->num_stages > f->num_line &&
		   img.stride > pix->bytesperline) {
		dev_err_ratelimited(dev, "%s: %u bytes per line, too few for the %u pixels of %s\n",
				    name, pix->bytesperline, img.width,
				    f->stages[f->num_stages - 1].block->subdev.sd.name);
		return -EPIPE;
	}
	return 0;
}

/**
 * isp_frame_create() - read a capture node's path from the media graph
 * @video: a capture node whose pipeline has just been started
 *
 * The frames of a memory input node are those of the one sink pad it feeds
 * (isp_link_setup()): the input node's own format matches it when the
 * input node streams (link validation), and each of its buffers is checked
 * for size. Called with the graph mutex held: the links cannot change
 * under the walk.
 *
 * Return: the frame program, NULL when the path starts neither at a sensor
 * nor at a memory input node (the node then gets a test ramp), or an
 * ERR_PTR(): -ENOMEM, or -EPIPE when the stages do not fit together or the
 * blocks' pads do not fit the frame of the path (isp_frame_setup()).
 */
struct isp_frame *isp_frame_create(struct isp_video *video)
{
	struct v4l2_mbus_framefmt fmt;
	struct media_pad *sink;
	struct isp_frame *f;
	unsigned int i;
	int ret;

	lockdep_assert_held(&video->isp->mdev.graph_mutex);
	f = kzalloc(sizeof(*f), GFP_KERNEL);
	if (!f)
		return ERR_PTR(-ENOMEM);
	f->video = video;
	if (!isp_frame_walk(video, f)) {
		kfree(f);
		return NULL;
	}
	if (f->num_stages) {
		f->stages = kcalloc(f->num_stages, sizeof(*f->stages),
				    GFP_KERNEL);
		if (!f->stages) {
			kfree(f);
			return ERR_PTR(-ENOMEM);
		}
		isp_frame_walk(video, f);
	}

	if (f->sensor) {
		get_format(f->sensor, 0, &fmt);
	} else {
		sink = media_pad_remote_pad_first(&f->input->pad);
		get_format(media_entity_to_v4l2_subdev(sink->entity),
			   sink->index, &fmt);
		f->in_code = fmt.code;
	}
	f->source = f->in_code == MEDIA_BUS_FMT_YUYV8_1X16 ||
		    f->in_code == MEDIA_BUS_FMT_UYVY8_1X16 ?
		    ISP_DATA_YUV : ISP_DATA_RAW;
	f->width = clamp_t(u32, fmt.width & ~1U, 2, PIX_MAX_WIDTH);
	f->height = clamp_t(u32, fmt.height, 2, PIX_MAX_WIDTH);
	/* the node's format is the size of what is written to its buffers */
	f->raw8 = video->format.pixelformat == V4L2_PIX_FMT_SGRBG8;
	ret = isp_frame_setup(video, f);
	if (ret)
		goto err;

	ret = -ENOMEM;
	f->scene = vzalloc(sizeof(*f->scene));
	if (!f->scene)
		goto err;
	if (f->source == ISP_DATA_RAW) {
		f->raw = vmalloc_array((size_t)f->width * f->height,
				       sizeof(*f->raw));
		if (!f->raw)
			goto err;
	}
	/* the frames between two frame stages */
	for (i = f->num_line; i < f->num_stages; i++) {
		struct isp_frame_stage *s = &f->stages[i];

		s->in.data = i > f->num_line ? f->stages[i - 1].out.data :
			     f->raw;
		if (i + 1 == f->num_stages)
			break;
		s->out.data = vmalloc(s->out.stride * s->out.height);
		if (!s->out.data)
			goto err;
	}
	INIT_WORK(&f->work, isp_frame_work);
	init_completion(&f->done);
	init_waitqueue_head(&f->wait);
	f->scene->width = f->width;
	f->scene->height = f->height;
	return f;

err:
	isp_frame_destroy(f);
	return ERR_PTR(ret);
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
	/* the last helper has completed f->done: let it return, too */
	if (f->work.func)
		flush_work(&f->work);
	for (i = 0; i < f->num_stages; i++) {
		/* the last stage writes the capture buffer */
		if (i >= f->num_line && i + 1 < f->num_stages)
			vfree(f->stages[i].out.data);
		vfree(f->stages[i].priv);
	}
	kfree(f->stages);
	vfree(f->raw);
	vfree(f->scene);
	release_firmware(f->scene_fw);
	vfree(f->blurred);
	vfree(f->charge);
	kfree(f);
}

/**
 * isp_frame_scene() - load the scene file the sensor's Scene control names
 * @f: a frame program whose sensor renders the Image pattern
 *
 * The file is loaded (request_firmware(), from /lib/firmware) when the
 * control names another file than the one loaded, and kept until the
 * stream stops (isp_frame_destroy()) or another is named: the frame
 * program owns it, so no stream ever reads a freed scene. A file that
 * cannot be loaded or is not a scene is named in a dev_err, once a stream,
 * and the Image pattern then renders the synthetic scene.
 */
static void isp_frame_scene(struct isp_frame *f)
{
	struct v4l2_ctrl *ctrl = find_ctrl(f->sensor, V4L2_CID_N900_SENSOR_SCENE);
	struct device *dev = f->sensor->dev;
	const struct firmware *fw;
	const char *name = NULL, *why;
	s32 i;
	int ret;

	if (ctrl && ctrl->qmenu) {
		i = v4l2_ctrl_g_ctrl(ctrl);
		if (i >= ctrl->minimum && i <= ctrl->maximum)
			name = ctrl->qmenu[i];
	}
	if (!name || !strcmp(name, f->scene_name))
		return;		/* none, or loaded (or failed) already */

	pix_scene_set_image(f->scene, NULL, NULL);
	release_firmware(f->scene_fw);
	f->scene_fw = NULL;
	vfree(f->blurred);
	f->blurred = NULL;
	strscpy(f->scene_name, name, sizeof(f->scene_name));

	ret = firmware_request_nowarn(&fw, name, dev);
	if (ret) {
		dev_err(dev, "%s: cannot load the scene file /lib/firmware/%s (%d): the Image pattern renders the synthetic scene\n",
			f->sensor->name, name, ret);
		return;
	}
	why = pix_image_parse(fw->data, fw->size, &f->image);
	if (why) {
		dev_err(dev, "%s: scene file /lib/firmware/%s: %s: the Image pattern renders the synthetic scene\n",
			f->sensor->name, name, why);
		release_firmware(fw);
		return;
	}
	f->scene_fw = fw;
	/*
	 * without the room, the scene is rendered sharp whatever the lens,
	 * and without a cache, each charge is computed every frame
	 */
	f->blurred = __vmalloc(pix_image_blur_size(&f->image),
			       GFP_KERNEL | __GFP_NOWARN);
	pix_scene_set_image(f->scene, &f->image, f->blurred);
	if (!f->charge)
		f->charge = __vmalloc(pix_scene_cache_size(f->width, f->height),
				      GFP_KERNEL | __GFP_NOWARN);
	pix_scene_set_cache(f->scene, f->charge);
	dev_dbg(dev, "%s: scene %s, %ux%u, sharp at lens position %u\n",
		f->sensor->name, name, f->image.width, f->image.height,
		f->image.focus);
}

/* the source's controls (a sensor's, and its lens'), into its scene */
static void isp_frame_source_controls(struct isp_frame *f, u32 sequence)
{
	struct pix_scene *s = f->scene;
	struct media_device *mdev;
	struct v4l2_ctrl *ctrl;

	if (!f->sensor)
		return;
	mdev = f->sensor->entity.graph_obj.mdev;
	s->pattern = ctrl_value(f->sensor, V4L2_CID_TEST_PATTERN, 0);
	if (s->pattern == PIX_PATTERN_IMAGE)
		isp_frame_scene(f);
	s->kelvin = ctrl_value(f->sensor, V4L2_CID_N900_SENSOR_ILLUMINANT,
			       PIX_KELVIN_DEF);
	s->noise = ctrl_value(f->sensor, V4L2_CID_N900_SENSOR_NOISE, 0);
	s->seed = ctrl_value(f->sensor, V4L2_CID_N900_SENSOR_NOISE_SEED, 0);
	s->frame = sequence;
	ctrl = find_ctrl(f->sensor, V4L2_CID_EXPOSURE);
	s->exposure = ctrl ? v4l2_ctrl_g_ctrl(ctrl) : 1;
	s->exposure_ref = ctrl ? ctrl->default_value : 1;
	s->gain = ctrl_value(f->sensor, V4L2_CID_ANALOGUE_GAIN, 0);
	mutex_lock(&mdev->graph_mutex);
	s->focus = ctrl_value(sensor_lens(f->sensor), V4L2_CID_FOCUS_ABSOLUTE,
			      PIX_FOCUS_SHARP);
	mutex_unlock(&mdev->graph_mutex);
	pix_scene_prepare(s);
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

/*
 * The source's raw lines @y0..@y1 into f->raw. A line of the Image
 * pattern with noise whose charges are in the cache is rendered with
 * NEON, in sections of at most ISP_NEON_LINES such lines; any other line
 * is the C's, outside a section.
 */
static void isp_frame_source(struct isp_frame *f, unsigned int y0,
			     unsigned int y1)
{
	bool neon = IS_ENABLED(CONFIG_KERNEL_MODE_NEON) && !f->input &&
		    f->scene->noise && isp_frame_neon_usable();
	unsigned int w = f->width, y, x, n = 0;
	struct pix_noise_line p;

	for (y = y0; y < y1; y++) {
		u16 *line = f->raw + (size_t)y * w;

		if (!neon || !pix_sensor_noise_prepare(f->scene, y, &p)) {
			if (n) {
				kernel_neon_end();
				n = 0;
			}
			isp_frame_source_line(f, y, line);
			continue;
		}
		if (!n)
			kernel_neon_begin();
		x = pix_noise_line_neon(&p, line, w);
		pix_noise_line_from(&p, line, w, x);
		if (++n == ISP_NEON_LINES) {
			kernel_neon_end();
			n = 0;
		}
	}
	if (n)
		kernel_neon_end();
}

/* the fused line stages on one line: with NEON, then the C for the rest */
static void isp_frame_line_neon(struct isp_frame *f, unsigned int y,
				u16 *line)
{
	u32 col[PIX_LSC_GRID_MAX];
	struct pix_chain_line p;
	unsigned int from;

	pix_line_chain_prepare(&f->chain, y, col, &p);
	from = pix_line_chain_neon(&p, line, f->width);
	pix_line_chain_from(&p, line, f->width, from);
}

/* the line stages on raw lines @y0..@y1 of f->raw, in place */
static void isp_frame_line(struct isp_frame *f, unsigned int y0,
			   unsigned int y1)
{
	bool fused = f->chained && READ_ONCE(isp_frame_fuse_lines);
	unsigned int y, i, n;

	/* NEON, ISP_NEON_LINES lines a section */
	if (IS_ENABLED(CONFIG_KERNEL_MODE_NEON) && fused &&
	    !(f->width & 1) && isp_frame_neon_usable()) {
		for (y = y0; y < y1; y += n) {
			n = min(y1 - y, ISP_NEON_LINES);
			kernel_neon_begin();
			for (i = y; i < y + n; i++)
				isp_frame_line_neon(f, i, f->raw +
						    (size_t)i * f->width);
			kernel_neon_end();
		}
		return;
	}
	for (y = y0; y < y1; y++) {
		u16 *line = f->raw + (size_t)y * f->width;

		if (fused) {
			pix_line_chain(&f->chain, y, line, f->width);
			continue;
		}
		for (i = 0; i < f->num_line; i++) {
			struct isp_frame_stage *s = &f->stages[i];

			s->block->type->frame_ops->process_line(s, y, line);
		}
	}
}

/* raw to memory, lines @y0..@y1 of the crop of the last line stage */
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

/* lines @y0..@y1 of the current pass, with the buffers of @part */
static void isp_frame_pass_lines(struct isp_frame *f, unsigned int part,
				 unsigned int y0, unsigned int y1)
{
	struct isp_frame_stage *s = f->pass_stage;

	switch (f->pass) {
	case ISP_PASS_SOURCE:
		isp_frame_source(f, y0, y1);
		break;
	case ISP_PASS_LINE:
		isp_frame_line(f, y0, y1);
		break;
	case ISP_PASS_RAW_OUT:
		isp_frame_raw_out(f, y0, y1);
		break;
	case ISP_PASS_STAGE:
		s->block->type->frame_ops->process_lines(s, part, y0, y1);
		break;
	case ISP_PASS_END:
		break;
	}
}

/*
 * Wait until *@seq, which the other side of the frame sets, reaches
 * @want: spinning for up to ISP_FRAME_SPIN_NS (a pass's hand-over, or the
 * helper's start), then asleep (a long wait: a statistics stage on the
 * frame thread alone), or at once when another thread wants this CPU
 * (the other side, sharing it, or another stream's)
 */
static void isp_frame_wait_seq(struct isp_frame *f, const unsigned int *seq,
			       unsigned int want)
{
	u64 end = ktime_get_ns() + ISP_FRAME_SPIN_NS;

	/* acquire: the other side's writes before it set *@seq are seen */
	while (smp_load_acquire(seq) != want) {
		/* the other side may be waiting for this CPU */
		if (need_resched() || ktime_get_ns() > end) {
			wait_event_idle(f->wait,
					/* acquire, as above */
					smp_load_acquire(seq) == want);
			return;
		}
		cpu_relax();
	}
}

/* set *@seq, which the other side of the frame waits on, to @value */
static void isp_frame_set_seq(struct isp_frame *f, unsigned int *seq,
			      unsigned int value)
{
	/* release: this side's writes (a pass, its lines) before @value */
	smp_store_release(seq, value);
	/* a full barrier: the sleeper sees @value, or is seen here */
	if (wq_has_sleeper(&f->wait))
		wake_up(&f->wait);
}

/* part @part of the current pass: its first half, or its second */
static void isp_frame_part(struct isp_frame *f, unsigned int part)
{
	unsigned int lines = f->pass_lines, half = lines / 2;

	if (lines < 2 * ISP_FRAME_PART_MIN)	/* the frame thread's alone */
		half = lines;
	if (!part)
		isp_frame_pass_lines(f, 0, 0, half);
	else if (half < lines)
		isp_frame_pass_lines(f, 1, half, lines);
}

/*
 * The helper: for each pass of the frame, once the frame thread publishes
 * it, the second half of its lines, until the frame's end. It and the
 * frame thread hand each pass over by spinning on their sequence numbers
 * (isp_frame_wait_seq()): through the scheduler (a work item a pass) each
 * hand-over took 100 to 400 us under TCG, mostly to wake an idle vCPU.
 */
static void isp_frame_work(struct work_struct *work)
{
	struct isp_frame *f = container_of(work, struct isp_frame, work);
	unsigned int seq = f->helper_seq;

	for (;;) {
		isp_frame_wait_seq(f, &f->pass_seq, ++seq);
		if (f->pass == ISP_PASS_END)
			break;
		isp_frame_part(f, 1);
		isp_frame_set_seq(f, &f->helper_seq, seq);
	}
	complete(&f->done);
}

/*
 * Start a frame: with isp_frame_parallel, the helper, which does the
 * second half of each pass, on another CPU than the frame thread's now
 * (with isp_frame_parallel 2 and a single CPU, on that one, for the
 * tests). Should the two come to share a CPU, each waits asleep.
 */
static void isp_frame_begin(struct isp_frame *f)
{
	int mode = READ_ONCE(isp_frame_parallel);
	unsigned int cpu, self = raw_smp_processor_id();

	f->helper = false;
	if (mode <= 0)
		return;
	cpu = cpumask_any_but(cpu_online_mask, self);
	if (cpu >= nr_cpu_ids) {
		if (mode < 2)
			return;
		cpu = self;
	}
	f->helper = true;
	f->helper_seq = f->pass_seq;
	reinit_completion(&f->done);
	queue_work_on(cpu, isp_frame_wq, &f->work);
}

/*
 * Run one pass over @lines lines. The lines of a pass are independent of
 * each other: with the helper, the frame thread does the first half and
 * the helper the second (a pass of fewer than 2 * ISP_FRAME_PART_MIN
 * lines, the frame thread alone); the pass ends when both are done.
 */
static void isp_frame_pass(struct isp_frame *f, enum isp_frame_pass pass,
			   struct isp_frame_stage *stage, unsigned int lines)
{
	f->pass = pass;
	f->pass_stage = stage;
	f->pass_lines = lines;
	if (!f->helper) {
		isp_frame_pass_lines(f, 0, 0, lines);
		return;
	}
	isp_frame_set_seq(f, &f->pass_seq, f->pass_seq + 1);
	isp_frame_part(f, 0);
	isp_frame_wait_seq(f, &f->helper_seq, f->pass_seq);
}

/* end a frame: the helper returns */
static void isp_frame_end(struct isp_frame *f)
{
	if (!f->helper)
		return;
	f->pass = ISP_PASS_END;
	isp_frame_set_seq(f, &f->pass_seq, f->pass_seq + 1);
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
 * @sequence: the sequence number the buffer will carry: the frame number
 *	of the sensor's noise generator
 * @st: the time and pixels of each stage are added to it
 */
void isp_frame_render(struct isp_frame *f, const struct v4l2_pix_format *pix,
		      u8 *mem, const u8 *in, u32 sequence,
		      struct isp_stage_stats *st)
{
	u64 t = ktime_get_ns();
	unsigned int i;

	f->pix = pix;
	f->mem = mem;
	f->in = in;
	isp_frame_source_controls(f, sequence);
	for (i = 0; i < f->num_stages; i++) {
		struct isp_frame_stage *s = &f->stages[i];

		if (s->block->type->frame_ops->configure_frame)
			s->block->type->frame_ops->configure_frame(s);
	}
	isp_frame_begin(f);

	if (f->source == ISP_DATA_RAW) {
		isp_frame_pass(f, ISP_PASS_SOURCE, NULL, f->height);
		t = isp_frame_stage(st, ISP_STAGE_SOURCE, t,
				    (u64)f->width * f->height);
	}
	if (f->num_line) {
		isp_frame_pass(f, ISP_PASS_LINE, NULL, f->height);
		t = isp_frame_stage(st, ISP_STAGE_LINE, t,
				    (u64)f->width * f->height);
	}
	for (i = f->num_line; i < f->num_stages; i++) {
		struct isp_frame_stage *s = &f->stages[i];
		const struct isp_frame_ops *ops = s->block->type->frame_ops;
		bool last = i + 1 == f->num_stages;
		unsigned int lines = s->out.height;

		if (i == f->num_line && f->source != ISP_DATA_RAW)
			s->in.data = (void *)in;
		if (ops->process_stats) {
			ops->process_stats(s, mem);
			t = isp_frame_stage(st, ops->stage, t,
					    (u64)s->in.width * s->in.height);
			continue;
		}
		if (last) {
			s->out.data = mem;
			s->out.stride = pix->bytesperline;
			lines = min(lines, pix->height);
		}
		isp_frame_pass(f, ISP_PASS_STAGE, s, lines);
		t = isp_frame_stage(st, ops->stage, t,
				    (u64)s->out.width * s->out.height);
	}
	if (f->output == ISP_DATA_RAW) {
		isp_frame_pass(f, ISP_PASS_RAW_OUT, NULL,
			       min(f->crop.height, pix->height));
		isp_frame_stage(st, ISP_STAGE_RAW_OUT, t,
				(u64)f->crop.width * f->crop.height);
	}
	isp_frame_end(f);
}
