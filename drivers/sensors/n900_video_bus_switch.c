// SPDX-License-Identifier: GPL-2.0
/*
 * n900_video_bus_switch.c - the N900 camera bus switch
 *
 * The N900 wires both cameras to the single CCP2 receiver through a GPIO
 * controlled switch. It is a subdevice with two sink pads (one per camera)
 * and one source pad; only one input can be enabled at a time, and the
 * source pad carries the format of that input.
 */

#include <linux/mod_devicetable.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/property.h>
#include <media/v4l2-async.h>
#include <media/v4l2-subdev.h>

#include "n900_subdev.h"

enum {
	VBS_PAD_SINK_A,
	VBS_PAD_SINK_B,
	VBS_PAD_SOURCE,
	VBS_PADS_NUM
};

/**
 * struct vbs - the switch
 * @subdev: the subdevice and its lifetime (n900_subdev.h)
 * @pads: its pads
 * @input: the sink pad whose link is enabled, or -1 when none is. Written
 *	by link_setup under the graph mutex and the active state's lock.
 */
struct vbs {
	struct n900_subdev subdev;
	struct media_pad pads[VBS_PADS_NUM];
	int input;
};

static inline struct vbs *to_vbs(struct v4l2_subdev *sd)
{
	return container_of(sd, struct vbs, subdev.sd);
}

/* -----------------------------------------------------------------------------
 * Pad Ops
 */

static int vbs_enum_mbus_code(struct v4l2_subdev *sd,
			      struct v4l2_subdev_state *state,
			      struct v4l2_subdev_mbus_code_enum *code)
{
	if (code->index)
		return -EINVAL;
	code->code = MEDIA_BUS_FMT_SGRBG10_1X10;
	return 0;
}

/*
 * The switch does not touch the data: the source carries the format of the
 * enabled input. A format set on the other input stays on its sink pad, so
 * that link validation sees the frames that really reach the CCP2.
 */
static int vbs_set_fmt(struct v4l2_subdev *sd, struct v4l2_subdev_state *state,
		       struct v4l2_subdev_format *format)
{
	int input = READ_ONCE(to_vbs(sd)->input);

	if (format->pad == VBS_PAD_SOURCE)
		return v4l2_subdev_get_fmt(sd, state, format);

	format->format.code = MEDIA_BUS_FMT_SGRBG10_1X10;
	format->format.width = clamp_t(u32, format->format.width, 32, 4096);
	format->format.height = clamp_t(u32, format->format.height, 32, 4096);
	format->format.field = V4L2_FIELD_NONE;
	format->format.colorspace = V4L2_COLORSPACE_RAW;
	format->format.ycbcr_enc = V4L2_YCBCR_ENC_DEFAULT;
	format->format.quantization = V4L2_QUANTIZATION_DEFAULT;
	format->format.xfer_func = V4L2_XFER_FUNC_DEFAULT;
	format->format.flags = 0;
	*v4l2_subdev_state_get_format(state, format->pad) = format->format;
	if (input >= 0 && format->pad == (unsigned int)input)
		*v4l2_subdev_state_get_format(state, VBS_PAD_SOURCE) =
			format->format;
	return 0;
}

static int vbs_init_state(struct v4l2_subdev *sd,
			  struct v4l2_subdev_state *state)
{
	struct v4l2_subdev_format format = {
		.format = { .width = 2592, .height = 1968 },
	};

	for (format.pad = 0; format.pad < VBS_PAD_SOURCE; format.pad++)
		vbs_set_fmt(sd, state, &format);
	*v4l2_subdev_state_get_format(state, VBS_PAD_SOURCE) =
		*v4l2_subdev_state_get_format(state, VBS_PAD_SINK_A);
	return 0;
}

static const struct v4l2_subdev_pad_ops vbs_pad_ops = {
	.enum_mbus_code = vbs_enum_mbus_code,
	.get_fmt = v4l2_subdev_get_fmt,
	.set_fmt = vbs_set_fmt,
	.link_validate = v4l2_subdev_link_validate_default,
};

/* -----------------------------------------------------------------------------
 * Subdev Ops
 */

static const struct v4l2_subdev_core_ops vbs_core_ops = {
	.s_power = n900_power_subdev_s_power,
};

static const struct v4l2_subdev_video_ops vbs_video_ops = {
	.s_stream = n900_power_subdev_s_stream,
};

static const struct v4l2_subdev_ops vbs_subdev_ops = {
	.core = &vbs_core_ops,
	.video = &vbs_video_ops,
	.pad = &vbs_pad_ops,
};

static const struct v4l2_subdev_internal_ops vbs_internal_ops = {
	.init_state = vbs_init_state,
	.registered = n900_subdev_registered,
	.release = n900_subdev_release,
};

/* -----------------------------------------------------------------------------
 * Entity Ops
 */

/*
 * One camera at a time: enabling an input while another is on is -EBUSY.
 * The enabled input's format becomes the source pad's (ACTIVE state).
 * Called with the graph mutex held.
 */
static int vbs_link_setup(struct media_entity *entity,
			  const struct media_pad *local,
			  const struct media_pad *remote, u32 flags)
{
	struct v4l2_subdev *sd = media_entity_to_v4l2_subdev(entity);
	struct v4l2_subdev_state *state;
	struct vbs *vbs = to_vbs(sd);
	struct media_link *link;

	if (!(local->flags & MEDIA_PAD_FL_SINK))
		return 0;

	if (flags & MEDIA_LNK_FL_ENABLED) {
		for_each_media_entity_data_link(entity, link) {
			if (link->sink->entity != entity ||
			    link->source == remote)
				continue;
			if (link->flags & MEDIA_LNK_FL_ENABLED)
				return -EBUSY;
		}
	}

	state = v4l2_subdev_lock_and_get_active_state(sd);
	if (flags & MEDIA_LNK_FL_ENABLED) {
		WRITE_ONCE(vbs->input, local->index);
		*v4l2_subdev_state_get_format(state, VBS_PAD_SOURCE) =
			*v4l2_subdev_state_get_format(state, local->index);
	} else if (vbs->input == local->index) {
		WRITE_ONCE(vbs->input, -1);
	}
	v4l2_subdev_unlock_state(state);
	return 0;
}

static const struct media_entity_operations vbs_entity_ops = {
	.link_setup = vbs_link_setup,
	.link_validate = v4l2_subdev_link_validate,
};

/* -----------------------------------------------------------------------------
 * Initialization and Cleanup
 */

static void vbs_free(struct n900_subdev *nsd)
{
	kfree(container_of(nsd, struct vbs, subdev));
}

static int vbs_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct v4l2_subdev *sd;
	struct vbs *vbs;
	int ret;

	/* not devm: an open subdevice node keeps it (n900_subdev.h) */
	vbs = kzalloc(sizeof(*vbs), GFP_KERNEL);
	if (!vbs)
		return -ENOMEM;

	n900_subdev_init(&vbs->subdev, dev, &vbs_subdev_ops, &vbs_internal_ops,
			 vbs_free);
	sd = &vbs->subdev.sd;
	vbs->input = -1;	/* the links come at bind, through link_setup */
	sd->entity.function = MEDIA_ENT_F_VID_MUX;
	sd->entity.ops = &vbs_entity_ops;
	vbs->pads[VBS_PAD_SINK_A].flags = MEDIA_PAD_FL_SINK;
	vbs->pads[VBS_PAD_SINK_B].flags = MEDIA_PAD_FL_SINK;
	vbs->pads[VBS_PAD_SOURCE].flags = MEDIA_PAD_FL_SOURCE;
	ret = n900_subdev_register(sd, dev, "video-bus-switch", VBS_PADS_NUM,
				   vbs->pads, false);
	if (ret) {
		n900_subdev_put(&vbs->subdev);
		return ret;
	}
	platform_set_drvdata(pdev, vbs);
	return 0;
}

static void vbs_remove(struct platform_device *pdev)
{
	struct vbs *vbs = platform_get_drvdata(pdev);

	n900_subdev_unregister(&vbs->subdev);
}

static const struct of_device_id vbs_of_match[] = {
	{ .compatible = "n900emu,video-bus-switch" },
	{ }
};
MODULE_DEVICE_TABLE(of, vbs_of_match);

static struct platform_driver vbs_driver = {
	.probe = vbs_probe,
	.remove = vbs_remove,
	.driver = {
		.name = "n900-video-bus-switch",
		.of_match_table = vbs_of_match,
		.pm = pm_ptr(&n900_power_pm_ops),
	},
};
module_platform_driver(vbs_driver);

MODULE_DESCRIPTION("Emulated N900 camera bus switch");
MODULE_LICENSE("GPL");
