// SPDX-License-Identifier: GPL-2.0
/*
 * ad5820.c - Analog Devices AD5820 voice-coil lens driver (N900 main camera focus)
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
#include <media/v4l2-subdev.h>

/* -----------------------------------------------------------------------------
 * Subdev Ops
 */

static const struct v4l2_subdev_ops ad5820_subdev_ops = {};

/* -----------------------------------------------------------------------------
 * Initialization and Cleanup
 */

static int ad5820_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct v4l2_subdev *sd;
	const char *label;
	int ret;

	sd = devm_kzalloc(dev, sizeof(*sd), GFP_KERNEL);
	if (!sd)
		return -ENOMEM;

	v4l2_subdev_init(sd, &ad5820_subdev_ops);
	sd->flags |= V4L2_SUBDEV_FL_HAS_DEVNODE;
	sd->dev = dev;
	sd->owner = THIS_MODULE;
	if (device_property_read_string(dev, "label", &label))
		label = "ad5820";
	strscpy(sd->name, label, sizeof(sd->name));
	sd->entity.function = MEDIA_ENT_F_LENS;
	ret = media_entity_pads_init(&sd->entity, 0, NULL);
	if (ret)
		return ret;

	ret = v4l2_async_register_subdev(sd);
	if (ret) {
		media_entity_cleanup(&sd->entity);
		return dev_err_probe(dev, ret, "%pOF: cannot register subdev\n",
				     dev->of_node);
	}
	platform_set_drvdata(pdev, sd);
	return 0;
}

static void ad5820_remove(struct platform_device *pdev)
{
	struct v4l2_subdev *sd = platform_get_drvdata(pdev);

	v4l2_async_unregister_subdev(sd);
	media_entity_cleanup(&sd->entity);
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
	},
};
module_platform_driver(ad5820_driver);

MODULE_DESCRIPTION("Emulated Analog Devices AD5820 voice-coil lens driver (N900 main camera focus)");
MODULE_LICENSE("GPL");
