// SPDX-License-Identifier: GPL-2.0
/*
 * isp_entity.c - the generic ISP block: a V4L2 subdevice built from a
 * struct isp_block_type and a device tree node, and the links between
 * entities built from the OF graph.
 */

#include <linux/module.h>
#include <linux/of.h>
#include <linux/property.h>
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

static void fill_format(struct v4l2_mbus_framefmt *fmt, u32 code,
			u32 width, u32 height)
{
	fmt->code = code;
	fmt->width = clamp_t(u32, width, ISP_MIN_WIDTH, ISP_MAX_WIDTH);
	fmt->height = clamp_t(u32, height, ISP_MIN_HEIGHT, ISP_MAX_HEIGHT);
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
 * The top-left corner is even, so a Bayer crop keeps the colour order.
 */
static void clamp_crop(struct v4l2_rect *r,
		       const struct v4l2_mbus_framefmt *sink)
{
	r->width = clamp_t(u32, r->width, ISP_MIN_WIDTH, sink->width);
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

/**
 * isp_link_setup() - enforce one enabled input per sink pad
 * @entity: the entity whose link changes
 * @local: the pad of @entity at this end of the link
 * @remote: the pad at the other end
 * @flags: the requested link flags
 *
 * A sink pad of the OMAP3 ISP takes data from one source at a time, so
 * enabling a second link into a sink pad that already has an enabled one
 * fails with -EBUSY, as on the real hardware. Enabling a link that would
 * close a loop of enabled links fails with -EINVAL: frames in a loop have
 * no source (the mesh stress topologies have such loops of links).
 *
 * Return: 0, -EBUSY or -EINVAL.
 */
int isp_link_setup(struct media_entity *entity, const struct media_pad *local,
		   const struct media_pad *remote, u32 flags)
{
	struct media_link *link;

	if (!(local->flags & MEDIA_PAD_FL_SINK) ||
	    !(flags & MEDIA_LNK_FL_ENABLED))
		return 0;

	for_each_media_entity_data_link(entity, link) {
		if (link->sink != local || link->source == remote)
			continue;
		if (link->flags & MEDIA_LNK_FL_ENABLED)
			return -EBUSY;
	}
	if (isp_enabled_path(entity, remote->entity))
		return -EINVAL;
	return 0;
}

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

/* -----------------------------------------------------------------------------
 * Links from the OF graph
 */

/**
 * isp_find_entity() - find the media entity a DT node describes
 * @isp: the ISP device
 * @fwnode: a device node (the parent of ports/endpoints)
 *
 * Return: the video node's or bound subdevice's entity, or NULL when no
 * entity for @fwnode is registered (yet).
 */
struct media_entity *isp_find_entity(struct isp_device *isp,
				     struct fwnode_handle *fwnode)
{
	struct v4l2_subdev *sd;
	unsigned int i;

	for (i = 0; i < isp->num_videos; i++)
		if (isp->videos[i].fwnode == fwnode)
			return &isp->videos[i].vdev.entity;

	list_for_each_entry(sd, &isp->v4l2_dev.subdevs, list)
		if (sd->fwnode == fwnode)
			return &sd->entity;
	return NULL;
}

static u32 endpoint_link_flags(struct fwnode_handle *ep)
{
	u32 flags = 0;

	if (fwnode_property_read_bool(ep, ISP_DT_LINK_ENABLED))
		flags |= MEDIA_LNK_FL_ENABLED;
	if (fwnode_property_read_bool(ep, ISP_DT_LINK_IMMUTABLE))
		flags |= MEDIA_LNK_FL_IMMUTABLE;
	return flags;
}

static bool sink_has_enabled_link(struct media_pad *sink)
{
	struct media_link *link;

	for_each_media_entity_data_link(sink->entity, link)
		if (link->sink == sink && (link->flags & MEDIA_LNK_FL_ENABLED))
			return true;
	return false;
}

/**
 * isp_enabled_path() - whether enabled links lead from one entity to another
 * @from: the entity where data would start
 * @to: the entity it would reach
 *
 * Follows enabled links downstream from @from. Enabling a link from an
 * entity A into an entity B closes a loop when isp_enabled_path(B, A): the
 * frames of such a loop would have no source. The walk visits each entity
 * at most once (entities are marked in a bitmap of the graph's ids).
 *
 * Return: true when @to is reached, false otherwise or when out of memory.
 */
bool isp_enabled_path(struct media_entity *from, struct media_entity *to)
{
	struct media_device *mdev = from->graph_obj.mdev;
	struct media_entity **stack, *entity;
	struct media_link *link;
	unsigned long *seen;
	unsigned int n = 0, max;
	bool found = false;

	if (from == to)
		return true;
	if (!mdev)
		return false;
	max = mdev->entity_internal_idx_max + 1;
	seen = bitmap_zalloc(max, GFP_KERNEL);
	stack = kcalloc(max, sizeof(*stack), GFP_KERNEL);
	if (!seen || !stack)
		goto out;

	stack[n++] = from;
	__set_bit(from->internal_idx, seen);
	while (n && !found) {
		entity = stack[--n];
		for_each_media_entity_data_link(entity, link) {
			struct media_entity *next = link->sink->entity;

			if (link->source->entity != entity ||
			    !(link->flags & MEDIA_LNK_FL_ENABLED) ||
			    next->internal_idx >= max ||
			    __test_and_set_bit(next->internal_idx, seen))
				continue;
			if (next == to) {
				found = true;
				break;
			}
			stack[n++] = next;
		}
	}
out:
	kfree(stack);
	bitmap_free(seen);
	return found;
}

/*
 * Enable a link just made (disabled) from the device tree, as SETUP_LINK
 * would: the entities' link_setup may refuse it, and link_notify powers
 * what it joins to an open video node. A refusal after the graph has been
 * complete is the user's configuration winning (another input of the sink
 * was enabled while this end was unbound): the link stays disabled. An
 * immutable link is made immutable once enabled.
 */
static int enable_new_link(struct isp_device *isp, struct fwnode_handle *ep,
			   struct media_link *link, u32 flags)
{
	int ret;

	ret = __media_entity_setup_link(link, MEDIA_LNK_FL_ENABLED);
	if (ret && (!isp->registered || (flags & MEDIA_LNK_FL_IMMUTABLE))) {
		dev_err(isp->dev, "%pfw: cannot enable %s:%u -> %s:%u (%d)\n",
			ep, link->source->entity->name, link->source->index,
			link->sink->entity->name, link->sink->index, ret);
		return ret;
	}
	if (ret) {
		dev_info(isp->dev, "%pfw: %s:%u -> %s:%u left disabled (%d)\n",
			 ep, link->source->entity->name, link->source->index,
			 link->sink->entity->name, link->sink->index, ret);
		return 0;
	}
	if (flags & MEDIA_LNK_FL_IMMUTABLE) {
		link->flags |= MEDIA_LNK_FL_IMMUTABLE;
		link->reverse->flags = link->flags;
	}
	return 0;
}

static int create_endpoint_link(struct isp_device *isp,
				struct media_entity *entity,
				struct fwnode_handle *ep)
{
	struct fwnode_handle *rep, *rparent, *back;
	struct v4l2_fwnode_endpoint vep = {}, rvep = {};
	struct media_entity *remote;
	struct media_pad *lpad, *rpad, *src, *sink;
	u32 flags;
	int ret = 0;

	fwnode_graph_parse_endpoint(ep, &vep.base);
	if (vep.base.port >= entity->num_pads) {
		dev_err(isp->dev, "%pfw: port %u, but %s has %u pads\n",
			ep, vep.base.port, entity->name, entity->num_pads);
		return -EINVAL;
	}

	rep = fwnode_graph_get_remote_endpoint(ep);
	if (!rep) {
		dev_err(isp->dev, "%pfw: no remote-endpoint\n", ep);
		return -EINVAL;
	}

	back = fwnode_graph_get_remote_endpoint(rep);
	fwnode_handle_put(back);
	if (back != ep) {
		dev_err(isp->dev, "%pfw: remote-endpoint %pfw does not point back\n",
			ep, rep);
		ret = -EINVAL;
		goto put_rep;
	}

	rparent = fwnode_graph_get_port_parent(rep);
	remote = isp_find_entity(isp, rparent);
	fwnode_handle_put(rparent);
	if (remote == entity) {
		dev_err(isp->dev, "%pfw: links %s to itself\n", ep, entity->name);
		ret = -EINVAL;
		goto put_rep;
	}
	if (!remote)
		goto put_rep;	/* linked when the remote end binds */

	fwnode_graph_parse_endpoint(rep, &rvep.base);
	if (rvep.base.port >= remote->num_pads) {
		dev_err(isp->dev, "%pfw: port %u, but %s has %u pads\n",
			rep, rvep.base.port, remote->name, remote->num_pads);
		ret = -EINVAL;
		goto put_rep;
	}

	lpad = &entity->pads[vep.base.port];
	rpad = &remote->pads[rvep.base.port];
	if ((lpad->flags & MEDIA_PAD_FL_SOURCE) &&
	    (rpad->flags & MEDIA_PAD_FL_SINK)) {
		src = lpad;
		sink = rpad;
	} else if ((lpad->flags & MEDIA_PAD_FL_SINK) &&
		   (rpad->flags & MEDIA_PAD_FL_SOURCE)) {
		src = rpad;
		sink = lpad;
	} else {
		dev_err(isp->dev, "%pfw -> %pfw: link must join a source pad to a sink pad\n",
			ep, rep);
		ret = -EINVAL;
		goto put_rep;
	}

	flags = endpoint_link_flags(ep) | endpoint_link_flags(rep);
	if ((flags & MEDIA_LNK_FL_IMMUTABLE) && !(flags & MEDIA_LNK_FL_ENABLED)) {
		dev_err(isp->dev, "%pfw: an immutable link must be enabled\n", ep);
		ret = -EINVAL;
		goto put_rep;
	}
	/*
	 * A tree whose enabled links conflict is malformed. Once the graph
	 * has been complete, the conflict is with the user's configuration
	 * (a device coming back after an unbind): link_setup decides then.
	 */
	if (!isp->registered && (flags & MEDIA_LNK_FL_ENABLED) &&
	    sink_has_enabled_link(sink)) {
		dev_err(isp->dev, "%pfw: %s pad %u already has an enabled input\n",
			ep, sink->entity->name, sink->index);
		ret = -EINVAL;
		goto put_rep;
	}
	if (!isp->registered && (flags & MEDIA_LNK_FL_ENABLED) &&
	    isp_enabled_path(sink->entity, src->entity)) {
		dev_err(isp->dev, "%pfw: enabled links would loop through %s and %s\n",
			ep, src->entity->name, sink->entity->name);
		ret = -EINVAL;
		goto put_rep;
	}

	ret = media_create_pad_link(src->entity, src->index, sink->entity,
				    sink->index, 0);
	if (ret) {
		dev_err(isp->dev, "%pfw: cannot link %s:%u -> %s:%u (%d)\n", ep,
			src->entity->name, src->index, sink->entity->name,
			sink->index, ret);
		goto put_rep;
	}
	if (flags & MEDIA_LNK_FL_ENABLED)
		ret = enable_new_link(isp, ep, media_entity_find_link(src, sink),
				      flags);
put_rep:
	fwnode_handle_put(rep);
	return ret;
}

/* isp_unlink_entity(), with the graph mutex held */
static void unlink_entity(struct media_entity *entity)
{
	struct media_link *link;

	for_each_media_entity_data_link(entity, link) {
		if (!(link->flags & MEDIA_LNK_FL_ENABLED))
			continue;
		link->flags &= ~(MEDIA_LNK_FL_ENABLED | MEDIA_LNK_FL_IMMUTABLE);
		link->reverse->flags = link->flags;
		media_entity_call(link->source->entity, link_setup,
				  link->source, link->sink, link->flags);
		media_entity_call(link->sink->entity, link_setup,
				  link->sink, link->source, link->flags);
		isp_link_notify(link, link->flags,
				MEDIA_DEV_NOTIFY_POST_LINK_CH);
	}
	__media_entity_remove_links(entity);
}

/**
 * isp_create_links() - create the links of one entity from the OF graph
 * @isp: the ISP device
 * @entity: the entity just registered
 * @fwnode: the DT node that describes @entity
 *
 * Every endpoint of @fwnode whose remote entity is already registered
 * becomes a data link; the others are created when their remote end is
 * registered, so the result does not depend on probe order. Port N is pad
 * N. The flags come from the "n900emu,link-enabled" and
 * "n900emu,link-immutable" properties of either endpoint; an enabled link
 * is enabled through link_setup and link_notify, as from userspace. Takes
 * the graph mutex: userspace may be walking the links (G_TOPOLOGY).
 *
 * Return: 0, or a negative errno after a dev_err() naming the endpoint.
 */
int isp_create_links(struct isp_device *isp, struct media_entity *entity,
		     struct fwnode_handle *fwnode)
{
	struct fwnode_handle *ep;
	int ret = 0;

	mutex_lock(&isp->mdev.graph_mutex);
	fwnode_graph_for_each_endpoint(fwnode, ep) {
		ret = create_endpoint_link(isp, entity, ep);
		if (ret) {
			fwnode_handle_put(ep);
			/* the bind fails: undo the links made, and their power */
			unlink_entity(entity);
			break;
		}
	}
	mutex_unlock(&isp->mdev.graph_mutex);
	return ret;
}

/**
 * isp_unlink_entity() - remove the links of an entity that goes away
 * @isp: the ISP device
 * @entity: an entity about to be unregistered, no longer streaming
 *
 * Unregistering an entity removes its links without telling anyone, and
 * not at once: until then, SETUP_LINK could enable them again and a
 * STREAMON reach the entity through them. So, in one hold of the graph
 * mutex, disable its enabled data links as SETUP_LINK would (the entity at
 * the other end hears it through link_setup, and the bus switch forgets
 * its input; link_notify powers down what the link joined to an open video
 * node, the departing entity included, so that no use count is left
 * behind), immutable ones too, then remove every link of the entity: no
 * path leads to it any more.
 */
void isp_unlink_entity(struct isp_device *isp, struct media_entity *entity)
{
	mutex_lock(&isp->mdev.graph_mutex);
	unlink_entity(entity);
	mutex_unlock(&isp->mdev.graph_mutex);
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
