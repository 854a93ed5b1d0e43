// SPDX-License-Identifier: GPL-2.0
/*
 * n900_ad5820.c - Analog Devices AD5820 voice-coil lens driver (N900 main camera focus)
 *
 * A separate device with its own driver. It has no pads: it joins the
 * media graph through an ancillary link from the sensor whose
 * "lens-focus" property points at it, created by v4l2-async when the
 * sensor's sub-notifier binds it.
 */

#include <linux/mod_devicetable.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/property.h>
#include <media/v4l2-async.h>
#include <media/v4l2-ctrls.h>
#include <media/v4l2-event.h>
#include <media/v4l2-subdev.h>

#include "n900_subdev.h"

/* The AD5820 takes a 10-bit current code for its voice coil. */
#define AD5820_FOCUS_MAX	1023

/**
 * struct ad5820 - the lens driver
 * @subdev: the subdevice and its lifetime (n900_subdev.h)
 * @ctrls: V4L2_CID_FOCUS_ABSOLUTE
 */
struct ad5820 {
	struct n900_subdev subdev;
	struct v4l2_ctrl_handler ctrls;
};

/* -----------------------------------------------------------------------------
 * Controls
 */

/*
 * The emulated coil settles at once; the sensor reads the lens position
 * through the ancillary link when it renders its scene.
 */
static int ad5820_s_ctrl(struct v4l2_ctrl *ctrl)
{
	return 0;
}

static const struct v4l2_ctrl_ops ad5820_ctrl_ops = {
	.s_ctrl = ad5820_s_ctrl,
};

/* -----------------------------------------------------------------------------
 * Subdev Ops
 */

static const struct v4l2_subdev_core_ops ad5820_core_ops = {
	.log_status = v4l2_ctrl_subdev_log_status,
	.subscribe_event = v4l2_ctrl_subdev_subscribe_event,
	.unsubscribe_event = v4l2_event_subdev_unsubscribe,
};

static const struct v4l2_subdev_ops ad5820_subdev_ops = {
	.core = &ad5820_core_ops,
};

/*
 * Not on the data path, so no pipeline powers it: like the real ad5820
 * driver, it is powered while its subdevice node is open.
 */
static const struct v4l2_subdev_internal_ops ad5820_internal_ops = {
	.open = n900_power_subdev_open,
	.close = n900_power_subdev_close,
	.registered = n900_subdev_registered,
	.release = n900_subdev_release,
};

/* -----------------------------------------------------------------------------
 * Initialization and Cleanup
 */

static void ad5820_free(struct n900_subdev *nsd)
{
	kfree(container_of(nsd, struct ad5820, subdev));
}

static int ad5820_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct ad5820 *lens;
	struct v4l2_subdev *sd;
	int ret;

	/* not devm: an open subdevice node keeps it (n900_subdev.h) */
	lens = kzalloc(sizeof(*lens), GFP_KERNEL);
	if (!lens)
		return -ENOMEM;

	n900_subdev_init(&lens->subdev, dev, &ad5820_subdev_ops,
			 &ad5820_internal_ops, ad5820_free);
	sd = &lens->subdev.sd;
	sd->ctrl_handler = &lens->ctrls;
	v4l2_ctrl_handler_init(&lens->ctrls, 1);
	v4l2_ctrl_new_std(&lens->ctrls, &ad5820_ctrl_ops, V4L2_CID_FOCUS_ABSOLUTE,
			  0, AD5820_FOCUS_MAX, 1, 0);
	ret = lens->ctrls.error;
	if (ret) {
		dev_err_probe(dev, ret, "%pOF: cannot create controls\n",
			      dev->of_node);
		goto err_put;
	}

	sd->entity.function = MEDIA_ENT_F_LENS;
	ret = n900_subdev_register(sd, dev, "ad5820", 0, NULL, false);
	if (ret)
		goto err_put;
	platform_set_drvdata(pdev, lens);
	return 0;

err_put:
	n900_subdev_put(&lens->subdev);
	return ret;
}

static void ad5820_remove(struct platform_device *pdev)
{
	struct ad5820 *lens = platform_get_drvdata(pdev);

	n900_subdev_unregister(&lens->subdev);
}

static const struct of_device_id ad5820_of_match[] = {
	{ .compatible = "n900emu,ad5820" },
	{ }
};
MODULE_DEVICE_TABLE(of, ad5820_of_match);

static struct platform_driver ad5820_driver = {
	.probe = ad5820_probe,
	.remove = ad5820_remove,
	.driver = {
		.name = "n900-ad5820",
		.of_match_table = ad5820_of_match,
		.pm = pm_ptr(&n900_power_pm_ops),
	},
};
module_platform_driver(ad5820_driver);

MODULE_DESCRIPTION("Emulated Analog Devices AD5820 voice-coil lens driver (N900 main camera focus)");
MODULE_LICENSE("GPL");
