// SPDX-License-Identifier: GPL-2.0
/*
 * isp_block.c - the generic ISP block: a V4L2 subdevice built from a
 * struct isp_block_type (isp/blocks/) and a device tree node. The links
 * between entities, and the rules they follow, are in isp_links.c.
 */

#include <linux/log2.h>
#include <linux/module.h>
#include <linux/of.h>
#include <linux/property.h>
#include <media/v4l2-common.h>
#include <media/v4l2-event.h>
#include <media/v4l2-fwnode.h>

#include "isp.h"
#include "n900_power.h"
#include "n900_subdev.h"

static inline struct isp_block *to_isp_block(struct v4l2_subdev *sd)
{
	return container_of(sd, struct isp_block, subdev.sd);
}

/* -----------------------------------------------------------------------------
 * Formats
 */

static bool code_is_bayer(u32 code)
{
	switch (code) {
	case MEDIA_BUS_FMT_SGRBG10_1X10:
	case MEDIA_BUS_FMT_SGRBG8_1X8:
		return true;
	default:
		return false;
	}
}

/*
 * A pad format of @code at @width x @height, clamped to the ISP's limits and
 * its width rounded to the nearest even one, as the video nodes round theirs
 * (the frame code works on pixel pairs): a size a pad takes is one a node
 * can match.
 */
static void fill_format(struct v4l2_mbus_framefmt *fmt, u32 code,
			u32 width, u32 height)
{
	fmt->code = code;
	v4l_bound_align_image(&width, ISP_MIN_WIDTH, ISP_MAX_WIDTH,
			      ilog2(ISP_VIDEO_STEP_WIDTH), &height,
			      ISP_MIN_HEIGHT, ISP_MAX_HEIGHT, 0, 0);
	fmt->width = width;
	fmt->height = height;
	fmt->field = V4L2_FIELD_NONE;
	fmt->colorspace = code_is_bayer(code) ? V4L2_COLORSPACE_RAW :
						V4L2_COLORSPACE_SRGB;
	fmt->ycbcr_enc = V4L2_YCBCR_ENC_DEFAULT;
	fmt->quantization = V4L2_QUANTIZATION_DEFAULT;
	fmt->xfer_func = V4L2_XFER_FUNC_DEFAULT;
	fmt->flags = 0;
}

static bool block_has_code(const struct isp_block_type *type, u32 code)
{
	unsigned int i;

	for (i = 0; i < type->num_codes; i++)
		if (type->codes[i] == code)
			return true;
	return false;
}

/* -----------------------------------------------------------------------------
 * Pad Ops
 */

#define ISP_PAD_SINK	0

/*
 * The code source pad @pad outputs from sink code @sink: the @index-th
 * entry of the block's code map, or the sink code itself when the map has
 * no entry for it. Returns 0 past the last one.
 */
static u32 source_code(const struct isp_block_type *type, unsigned int pad,
		       u32 sink, unsigned int index)
{
	unsigned int i, n = 0;

	for (i = 0; i < type->num_code_maps; i++) {
		const struct isp_code_map *m = &type->code_map[i];

		if (m->pad == pad && m->sink == sink && n++ == index)
			return m->source;
	}
	return !n && !index ? sink : 0;
}

/*
 * The part of the sink frame that source pad @pad outputs, in @r. A source
 * pad that crops outputs its own crop rectangle: true. Any other source pad
 * takes the crop rectangle on the sink pad when the block crops there, the
 * whole sink frame otherwise, and scales (or passes) it: false.
 */
static bool source_rect(const struct isp_block_type *type,
			struct v4l2_subdev_state *state, unsigned int pad,
			struct v4l2_rect *r)
{
	const struct v4l2_mbus_framefmt *sink;

	if (type->crop_pads & BIT(pad)) {
		*r = *v4l2_subdev_state_get_crop(state, pad);
		return true;
	}
	if (type->crop_pads & BIT(ISP_PAD_SINK)) {
		*r = *v4l2_subdev_state_get_crop(state, ISP_PAD_SINK);
	} else {
		sink = v4l2_subdev_state_get_format(state, ISP_PAD_SINK);
		*r = (struct v4l2_rect){ 0, 0, sink->width, sink->height };
	}
	return false;
}

/**
 * isp_block_source_rect() - the input region of a block's source pad
 * @block: the block
 * @pad: one of its source pads
 * @r: the part of the sink frame @pad outputs (ACTIVE state)
 */
void isp_block_source_rect(struct isp_block *block, unsigned int pad,
			   struct v4l2_rect *r)
{
	struct v4l2_subdev_state *state;

	state = v4l2_subdev_lock_and_get_active_state(&block->subdev.sd);
	source_rect(block->type, state, pad, r);
	v4l2_subdev_unlock_state(state);
}

/* Set source pad @pad as close to @code, @width x @height as it can be. */
static void update_source(struct isp_block *block,
			  struct v4l2_subdev_state *state, unsigned int pad,
			  u32 code, u32 width, u32 height)
{
	const struct isp_block_type *type = block->type;
	const struct v4l2_mbus_framefmt *sink;
	struct v4l2_rect in;
	unsigned int i;
	u32 c, pick;

	sink = v4l2_subdev_state_get_format(state, ISP_PAD_SINK);
	pick = source_code(type, pad, sink->code, 0);
	for (i = 0; (c = source_code(type, pad, sink->code, i)); i++)
		if (c == code)
			pick = c;

	if (source_rect(type, state, pad, &in) || !type->source_size) {
		width = in.width;
		height = in.height;
	} else {
		type->source_size(in.width, in.height, &width, &height);
	}
	fill_format(v4l2_subdev_state_get_format(state, pad), pick, width,
		    height);
}

/* Re-derive every source pad, keeping its code and size where it can. */
static void update_sources(struct isp_block *block,
			   struct v4l2_subdev_state *state)
{
	struct v4l2_mbus_framefmt *src;
	unsigned int i;

	for (i = 1; i < block->num_pads; i++) {
		src = v4l2_subdev_state_get_format(state, i);
		update_source(block, state, i, src->code, src->width,
			      src->height);
	}
}

/*
 * Fit @r inside the sink frame, at least ISP_MIN_WIDTH x ISP_MIN_HEIGHT.
 * The top-left corner is even, so a Bayer crop keeps the colour order, and
 * so is the width, rounded as fill_format() rounds a pad's (641 -> 642; the
 * sink's width is even, so the clamp keeps it even).
 */
static void clamp_crop(struct v4l2_rect *r,
		       const struct v4l2_mbus_framefmt *sink)
{
	r->width = clamp_t(u32, ALIGN(r->width, ISP_VIDEO_STEP_WIDTH),
			   ISP_MIN_WIDTH, sink->width);
	r->height = clamp_t(u32, r->height, ISP_MIN_HEIGHT, sink->height);
	r->left = clamp_t(s32, r->left, 0, sink->width - r->width) & ~1;
	r->top = clamp_t(s32, r->top, 0, sink->height - r->height) & ~1;
}

/* A new sink format resets every crop rectangle to the whole frame. */
static void reset_crops(struct isp_block *block,
			struct v4l2_subdev_state *state)
{
	const struct v4l2_mbus_framefmt *sink;
	unsigned int i;

	sink = v4l2_subdev_state_get_format(state, ISP_PAD_SINK);
	for (i = 0; i < block->num_pads; i++) {
		if (!(block->type->crop_pads & BIT(i)))
			continue;
		*v4l2_subdev_state_get_crop(state, i) = (struct v4l2_rect) {
			.width = sink->width,
			.height = sink->height,
		};
	}
}

static int block_enum_mbus_code(struct v4l2_subdev *sd,
				struct v4l2_subdev_state *state,
				struct v4l2_subdev_mbus_code_enum *code)
{
	const struct isp_block_type *type = to_isp_block(sd)->type;
	const struct v4l2_mbus_framefmt *sink;

	if (code->pad == ISP_PAD_SINK) {
		if (code->index >= type->num_codes)
			return -EINVAL;
		code->code = type->codes[code->index];
		return 0;
	}

	sink = v4l2_subdev_state_get_format(state, ISP_PAD_SINK);
	code->code = source_code(type, code->pad, sink->code, code->index);
	return code->code ? 0 : -EINVAL;
}

static int block_enum_frame_size(struct v4l2_subdev *sd,
				 struct v4l2_subdev_state *state,
				 struct v4l2_subdev_frame_size_enum *fse)
{
	const struct isp_block_type *type = to_isp_block(sd)->type;
	const struct v4l2_mbus_framefmt *sink;
	struct v4l2_rect in;
	unsigned int i;
	bool cropped;
	u32 c;

	if (fse->index)
		return -EINVAL;

	if (fse->pad == ISP_PAD_SINK) {
		if (!block_has_code(type, fse->code))
			return -EINVAL;
		fse->min_width = ISP_MIN_WIDTH;
		fse->min_height = ISP_MIN_HEIGHT;
		fse->max_width = ISP_MAX_WIDTH;
		fse->max_height = ISP_MAX_HEIGHT;
		return 0;
	}

	sink = v4l2_subdev_state_get_format(state, ISP_PAD_SINK);
	for (i = 0; (c = source_code(type, fse->pad, sink->code, i)); i++)
		if (c == fse->code)
			break;
	if (!c)
		return -EINVAL;

	cropped = source_rect(type, state, fse->pad, &in);
	fse->min_width = in.width;
	fse->min_height = in.height;
	fse->max_width = in.width;
	fse->max_height = in.height;
	if (type->source_size && !cropped) {
		fse->min_width = 1;
		fse->min_height = 1;
		type->source_size(in.width, in.height, &fse->min_width,
				  &fse->min_height);
		fse->max_width = U32_MAX;
		fse->max_height = U32_MAX;
		type->source_size(in.width, in.height, &fse->max_width,
				  &fse->max_height);
		/* the widths a pad takes are even (fill_format()) */
		fse->min_width = ALIGN(fse->min_width, ISP_VIDEO_STEP_WIDTH);
		fse->max_width = ALIGN_DOWN(fse->max_width,
					    ISP_VIDEO_STEP_WIDTH);
	}
	return 0;
}

/*
 * A format set on the sink pad resets the crop rectangles and propagates
 * to the source pads, which keep their code and size where the new sink
 * format allows it. A source pad takes what the block can make of its
 * input.
 */
static int block_set_fmt(struct v4l2_subdev *sd,
			 struct v4l2_subdev_state *state,
			 struct v4l2_subdev_format *format)
{
	struct isp_block *block = to_isp_block(sd);
	const struct isp_block_type *type = block->type;
	struct v4l2_mbus_framefmt *fmt;
	u32 code;

	fmt = v4l2_subdev_state_get_format(state, format->pad);
	if (!fmt)
		return -EINVAL;

	if (format->pad != ISP_PAD_SINK) {
		update_source(block, state, format->pad, format->format.code,
			      format->format.width, format->format.height);
		format->format = *fmt;
		return 0;
	}

	code = format->format.code;
	if (!block_has_code(type, code))
		code = type->codes[0];
	fill_format(fmt, code, format->format.width, format->format.height);
	format->format = *fmt;

	reset_crops(block, state);
	update_sources(block, state);
	return 0;
}

/*
 * Blocks that crop (type->crop_pads) report CROP, CROP_BOUNDS and
 * CROP_DEFAULT; the bounds and the default are the whole sink frame.
 */
static int block_get_selection(struct v4l2_subdev *sd,
			       struct v4l2_subdev_state *state,
			       struct v4l2_subdev_selection *sel)
{
	const struct isp_block_type *type = to_isp_block(sd)->type;
	const struct v4l2_mbus_framefmt *sink;

	if (!(type->crop_pads & BIT(sel->pad)))
		return -EINVAL;

	switch (sel->target) {
	case V4L2_SEL_TGT_CROP:
		sel->r = *v4l2_subdev_state_get_crop(state, sel->pad);
		return 0;
	case V4L2_SEL_TGT_CROP_BOUNDS:
	case V4L2_SEL_TGT_CROP_DEFAULT:
		sink = v4l2_subdev_state_get_format(state, ISP_PAD_SINK);
		sel->r = (struct v4l2_rect) {
			.width = sink->width,
			.height = sink->height,
		};
		return 0;
	default:
		return -EINVAL;
	}
}

/* A new crop rectangle is fitted to the sink frame and sets the sources. */
static int block_set_selection(struct v4l2_subdev *sd,
			       struct v4l2_subdev_state *state,
			       struct v4l2_subdev_selection *sel)
{
	struct isp_block *block = to_isp_block(sd);

	if (!(block->type->crop_pads & BIT(sel->pad)) ||
	    sel->target != V4L2_SEL_TGT_CROP)
		return -EINVAL;

	clamp_crop(&sel->r, v4l2_subdev_state_get_format(state, ISP_PAD_SINK));
	*v4l2_subdev_state_get_crop(state, sel->pad) = sel->r;
	update_sources(block, state);
	return 0;
}

static int block_init_state(struct v4l2_subdev *sd,
			    struct v4l2_subdev_state *state)
{
	struct isp_block *block = to_isp_block(sd);
	unsigned int i;

	fill_format(v4l2_subdev_state_get_format(state, ISP_PAD_SINK),
		    block->type->codes[0], ISP_DEF_WIDTH, ISP_DEF_HEIGHT);
	reset_crops(block, state);
	for (i = 1; i < block->num_pads; i++)
		update_source(block, state, i, 0, ISP_DEF_WIDTH, ISP_DEF_HEIGHT);
	return 0;
}

static const struct v4l2_subdev_pad_ops block_pad_ops = {
	.enum_mbus_code = block_enum_mbus_code,
	.enum_frame_size = block_enum_frame_size,
	.get_fmt = v4l2_subdev_get_fmt,
	.set_fmt = block_set_fmt,
	.get_selection = block_get_selection,
	.set_selection = block_set_selection,
	.link_validate = v4l2_subdev_link_validate_default,
};

/* -----------------------------------------------------------------------------
 * Subdev Ops
 */

static const struct v4l2_subdev_core_ops block_core_ops = {
	.s_power = n900_power_subdev_s_power,
	.log_status = v4l2_ctrl_subdev_log_status,
	.subscribe_event = v4l2_ctrl_subdev_subscribe_event,
	.unsubscribe_event = v4l2_event_subdev_unsubscribe,
};

static const struct v4l2_subdev_video_ops block_video_ops = {
	.s_stream = n900_power_subdev_s_stream,
};

static const struct v4l2_subdev_ops block_subdev_ops = {
	.core = &block_core_ops,
	.video = &block_video_ops,
	.pad = &block_pad_ops,
};

/* -----------------------------------------------------------------------------
 * Controls
 */

/*
 * Control values are read by the processing stages when they handle a
 * frame; setting one needs no device access.
 */
static int block_s_ctrl(struct v4l2_ctrl *ctrl)
{
	return 0;
}

const struct v4l2_ctrl_ops isp_block_ctrl_ops = {
	.s_ctrl = block_s_ctrl,
};

static int block_init_controls(struct isp_block *block)
{
	if (!block->type->init_controls)
		return 0;
	/* freed with the block (n900_subdev_free()), also on an error */
	block->subdev.sd.ctrl_handler = &block->ctrls;
	v4l2_ctrl_handler_init(&block->ctrls, 8);
	block->type->init_controls(&block->ctrls);
	return block->ctrls.error;
}

static const struct v4l2_subdev_internal_ops block_internal_ops = {
	.init_state = block_init_state,
	.registered = n900_subdev_registered,
	.release = n900_subdev_release,
};

/* -----------------------------------------------------------------------------
 * Entity Ops
 */

static const struct media_entity_operations block_entity_ops = {
	.link_setup = isp_link_setup,
	.link_validate = v4l2_subdev_link_validate,
};

/*
 * The statistics engines sample whatever the CCDC video port sends, as on
 * the OMAP3: their (immutable) input link is not validated, so that a raw
 * capture need not configure them.
 */
static const struct media_entity_operations block_any_input_entity_ops = {
	.link_setup = isp_link_setup,
};

/* what the statistics engines' source pad gives, from either raw input */
const struct isp_code_map isp_stat_code_map[2] = {
	{ ISP_STAT_PAD_SOURCE, MEDIA_BUS_FMT_SGRBG10_1X10, MEDIA_BUS_FMT_METADATA_FIXED },
	{ ISP_STAT_PAD_SOURCE, MEDIA_BUS_FMT_SGRBG8_1X8, MEDIA_BUS_FMT_METADATA_FIXED },
};

/**
 * isp_block_of() - the ISP block behind a media entity
 * @entity: an entity of the ISP's media graph
 *
 * Return: the block, or NULL when @entity is not an ISP block.
 */
struct isp_block *isp_block_of(struct media_entity *entity)
{
	struct v4l2_subdev *sd;

	if (!is_media_entity_v4l2_subdev(entity))
		return NULL;
	sd = media_entity_to_v4l2_subdev(entity);
	return sd->internal_ops == &block_internal_ops ? to_isp_block(sd) : NULL;
}

/**
 * isp_block_type_of() - the block type a device tree node describes
 * @fwnode: a device tree node, an ISP block or anything else
 *
 * Read from the node's compatible, whether or not its device is bound.
 *
 * Return: the block type, or NULL when @fwnode is no ISP block.
 */
const struct isp_block_type *isp_block_type_of(struct fwnode_handle *fwnode)
{
	const struct of_device_id *id;

	id = of_match_node(isp_block_driver.driver.of_match_table,
			   to_of_node(fwnode));
	return id ? id->data : NULL;
}

/**
 * isp_block_pad_can_carry() - whether a pad of a block type can carry a code
 * @type: the block type
 * @pad: a pad of a block of that type: the sink (0) or a source
 * @code: a media bus code
 *
 * What the pad can ever take (the sink) or give (a source, from any code
 * the sink takes), whatever formats the block's pads have now: the codes a
 * video node linked to the pad may meet (isp_video.c).
 *
 * Return: true when @pad can carry @code.
 */
bool isp_block_pad_can_carry(const struct isp_block_type *type,
			     unsigned int pad, u32 code)
{
	unsigned int i, j;
	u32 c;

	if (pad == ISP_PAD_SINK)
		return block_has_code(type, code);
	for (i = 0; i < type->num_codes; i++)
		for (j = 0; (c = source_code(type, pad, type->codes[i], j)); j++)
			if (c == code)
				return true;
	return false;
}

/* -----------------------------------------------------------------------------
 * Initialization and Cleanup
 */

/*
 * The pad count of a block type whose pads come from the device tree:
 * the highest port number plus one, at least a sink and a source.
 */
static unsigned int dt_num_pads(struct device *dev)
{
	struct device_node *ports, *port;
	unsigned int n = 2;
	u32 reg;

	ports = n900_ports_node(dev);
	for_each_child_of_node(ports, port) {
		/* a port without "reg" is reported by n900_check_ports() */
		if (!of_node_name_eq(port, "port") ||
		    of_property_read_u32(port, "reg", &reg))
			continue;
		if (reg >= N900_MAX_PADS) {
			dev_err(dev, "%pOF: port %u, but an entity has at most %u pads\n",
				port, reg, N900_MAX_PADS);
			of_node_put(port);
			n = 0;
			break;
		}
		n = max(n, reg + 1);
	}
	of_node_put(ports);
	return n;
}

/* the last reference to the block is gone (n900_subdev.h) */
static void block_free(struct n900_subdev *nsd)
{
	struct isp_block *block = container_of(nsd, struct isp_block, subdev);

	kfree(block->pads);
	v4l2_device_put(&block->isp->v4l2_dev);
	kfree(block);
}

static int block_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	const struct isp_block_type *type = device_get_match_data(dev);
	struct isp_device *isp = isp_of_block(dev);
	struct isp_block *block;
	struct v4l2_subdev *sd;
	unsigned int i;
	int ret;

	if (!isp)
		return dev_err_probe(dev, -EINVAL,
				     "%pOF: an ISP block must be a child of an ISP node\n",
				     dev->of_node);

	/* not devm: an open subdevice node keeps it (n900_subdev.h) */
	block = kzalloc(sizeof(*block), GFP_KERNEL);
	if (!block)
		return -ENOMEM;
	block->isp = isp;
	v4l2_device_get(&isp->v4l2_dev);
	n900_subdev_init(&block->subdev, dev, &block_subdev_ops,
			 &block_internal_ops, block_free);
	sd = &block->subdev.sd;
	block->type = type;
	block->num_pads = type->num_pads ? type->num_pads : dt_num_pads(dev);
	block->pads = kcalloc(block->num_pads, sizeof(*block->pads),
			      GFP_KERNEL);
	if (!block->num_pads || !block->pads) {
		ret = block->num_pads ? -ENOMEM : -EINVAL;
		goto err_put;
	}

	v4l2_set_subdevdata(sd, block);
	/* one lock for the states of every block of the ISP (isp.h) */
	sd->state_lock = &isp->state_lock;
	sd->entity.function = type->function;
	sd->entity.ops = block->type->any_input ?
			 &block_any_input_entity_ops : &block_entity_ops;
	for (i = 0; i < block->num_pads; i++)
		block->pads[i].flags = !type->num_pads ?
			(i ? MEDIA_PAD_FL_SOURCE : MEDIA_PAD_FL_SINK) :
			type->pad_flags[i];
	ret = block_init_controls(block);
	if (ret) {
		dev_err_probe(dev, ret, "%pOF: cannot create controls\n",
			      dev->of_node);
		goto err_put;
	}

	ret = n900_subdev_register(sd, dev, type->name, block->num_pads,
				   block->pads, false);
	if (ret)
		goto err_put;
	platform_set_drvdata(pdev, block);
	return 0;

err_put:
	n900_subdev_put(&block->subdev);
	return ret;
}

static void block_remove(struct platform_device *pdev)
{
	struct isp_block *block = platform_get_drvdata(pdev);

	n900_subdev_unregister(&block->subdev);
}

static const struct of_device_id block_of_match[] = {
	{ .compatible = "n900emu,isp-csi2", .data = &isp_csi2_type },
	{ .compatible = "n900emu,isp-ccp2", .data = &isp_ccp2_type },
	{ .compatible = "n900emu,isp-ccdc", .data = &isp_ccdc_type },
	{ .compatible = "n900emu,isp-lsc", .data = &isp_lsc_type },
	{ .compatible = "n900emu,isp-wb", .data = &isp_wb_type },
	{ .compatible = "n900emu,isp-preview", .data = &isp_preview_type },
	{ .compatible = "n900emu,isp-resizer", .data = &isp_resizer_type },
	{ .compatible = "n900emu,isp-h3a-aewb", .data = &isp_h3a_aewb_type },
	{ .compatible = "n900emu,isp-h3a-af", .data = &isp_h3a_af_type },
	{ .compatible = "n900emu,isp-hist", .data = &isp_hist_type },
	{ .compatible = "n900emu,passthrough", .data = &isp_passthrough_type },
	{ }
};
MODULE_DEVICE_TABLE(of, block_of_match);

struct platform_driver isp_block_driver = {
	.probe = block_probe,
	.remove = block_remove,
	.driver = {
		.name = "n900-isp-block",
		.of_match_table = block_of_match,
		.pm = pm_ptr(&n900_power_pm_ops),
	},
};
