// SPDX-License-Identifier: GPL-2.0
/*
 * adp1653.c - Analog Devices ADP1653 LED flash controller (N900 main camera)
 *
 * A separate device with its own driver. It has no pads: it joins the
 * media graph through an ancillary link from the sensor whose
 * "flash-leds" property points at it, created by v4l2-async when the
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

static const struct v4l2_subdev_ops adp1653_subdev_ops = {};

/* -----------------------------------------------------------------------------
 * Initialization and Cleanup
 */

static int adp1653_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct v4l2_subdev *sd;
	const char *label;
	int ret;

	sd = devm_kzalloc(dev, sizeof(*sd), GFP_KERNEL);
	if (!sd)
		return -ENOMEM;

	v4l2_subdev_init(sd, &adp1653_subdev_ops);
	sd->flags |= V4L2_SUBDEV_FL_HAS_DEVNODE;
	sd->dev = dev;
	sd->owner = THIS_MODULE;
	if (device_property_read_string(dev, "label", &label))
		label = "adp1653";
	strscpy(sd->name, label, sizeof(sd->name));
	sd->entity.function = MEDIA_ENT_F_FLASH;
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

static void adp1653_remove(struct platform_device *pdev)
{
	struct v4l2_subdev *sd = platform_get_drvdata(pdev);

	v4l2_async_unregister_subdev(sd);
	media_entity_cleanup(&sd->entity);
}

static const struct of_device_id adp1653_of_match[] = {
	{ .compatible = "n900emu,adp1653" },
	{ }
};
MODULE_DEVICE_TABLE(of, adp1653_of_match);

static struct platform_driver adp1653_driver = {
	.probe = adp1653_probe,
	.remove = adp1653_remove,
	.driver = {
		.name = "n900-adp1653",
		.of_match_table = adp1653_of_match,
	},
};
module_platform_driver(adp1653_driver);

MODULE_DESCRIPTION("Emulated Analog Devices ADP1653 LED flash controller (N900 main camera)");
MODULE_LICENSE("GPL");
