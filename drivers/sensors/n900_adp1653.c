// SPDX-License-Identifier: GPL-2.0
/*
 * n900_adp1653.c - Analog Devices ADP1653 LED flash controller (N900 main camera)
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
#include <media/v4l2-ctrls.h>
#include <media/v4l2-event.h>
#include <media/v4l2-subdev.h>

#include "n900_subdev.h"

/*
 * Ranges of the ADP1653 (include/media/i2c/adp1653.h), capped at what the
 * N900 wires up (omap3-n900.dts: 500 ms, 320 mA flash, 50 mA torch,
 * 17.5 mA indicator). The timer counts down from 820 ms in 54.6 ms steps,
 * so the longest timeout within 500 ms is 492.4 ms.
 */
#define ADP1653_TIMEOUT_MIN_US		1000
#define ADP1653_TIMEOUT_STEP_US		54600
#define ADP1653_TIMEOUT_MAX_US		492400
#define ADP1653_FLASH_MIN_MA		215
#define ADP1653_FLASH_MAX_MA		320
#define ADP1653_CURRENT_STEP_MA		15
#define ADP1653_TORCH_MIN_MA		50
#define ADP1653_TORCH_MAX_MA		50
#define ADP1653_INDICATOR_STEP_UA	2500
#define ADP1653_INDICATOR_MAX_UA	17500

/**
 * struct adp1653 - the flash controller
 * @subdev: the subdevice and its lifetime (n900_subdev.h)
 * @ctrls: the V4L2 flash class controls
 */
struct adp1653 {
	struct n900_subdev subdev;
	struct v4l2_ctrl_handler ctrls;
};

/* -----------------------------------------------------------------------------
 * Controls
 */

/* The emulated LED never faults. */
static int adp1653_g_volatile_ctrl(struct v4l2_ctrl *ctrl)
{
	if (ctrl->id == V4L2_CID_FLASH_FAULT)
		ctrl->val = 0;
	return 0;
}

static int adp1653_s_ctrl(struct v4l2_ctrl *ctrl)
{
	return 0;
}

static const struct v4l2_ctrl_ops adp1653_ctrl_ops = {
	.g_volatile_ctrl = adp1653_g_volatile_ctrl,
	.s_ctrl = adp1653_s_ctrl,
};

static int adp1653_init_controls(struct adp1653 *flash)
{
	struct v4l2_ctrl_handler *hdl = &flash->ctrls;
	const struct v4l2_ctrl_ops *ops = &adp1653_ctrl_ops;
	struct v4l2_ctrl *fault;

	v4l2_ctrl_handler_init(hdl, 9);
	v4l2_ctrl_new_std_menu(hdl, ops, V4L2_CID_FLASH_LED_MODE,
			       V4L2_FLASH_LED_MODE_TORCH, ~0x7,
			       V4L2_FLASH_LED_MODE_NONE);
	v4l2_ctrl_new_std_menu(hdl, ops, V4L2_CID_FLASH_STROBE_SOURCE,
			       V4L2_FLASH_STROBE_SOURCE_SOFTWARE, ~0x1,
			       V4L2_FLASH_STROBE_SOURCE_SOFTWARE);
	v4l2_ctrl_new_std(hdl, ops, V4L2_CID_FLASH_STROBE, 0, 0, 0, 0);
	v4l2_ctrl_new_std(hdl, ops, V4L2_CID_FLASH_STROBE_STOP, 0, 0, 0, 0);
	v4l2_ctrl_new_std(hdl, ops, V4L2_CID_FLASH_TIMEOUT,
			  ADP1653_TIMEOUT_MIN_US, ADP1653_TIMEOUT_MAX_US,
			  ADP1653_TIMEOUT_STEP_US, ADP1653_TIMEOUT_MAX_US);
	v4l2_ctrl_new_std(hdl, ops, V4L2_CID_FLASH_INTENSITY,
			  ADP1653_FLASH_MIN_MA, ADP1653_FLASH_MAX_MA,
			  ADP1653_CURRENT_STEP_MA, ADP1653_FLASH_MIN_MA);
	v4l2_ctrl_new_std(hdl, ops, V4L2_CID_FLASH_TORCH_INTENSITY,
			  ADP1653_TORCH_MIN_MA, ADP1653_TORCH_MAX_MA,
			  ADP1653_CURRENT_STEP_MA, ADP1653_TORCH_MIN_MA);
	v4l2_ctrl_new_std(hdl, ops, V4L2_CID_FLASH_INDICATOR_INTENSITY, 0,
			  ADP1653_INDICATOR_MAX_UA, ADP1653_INDICATOR_STEP_UA, 0);
	fault = v4l2_ctrl_new_std(hdl, ops, V4L2_CID_FLASH_FAULT, 0,
				  V4L2_FLASH_FAULT_OVER_VOLTAGE |
				  V4L2_FLASH_FAULT_OVER_TEMPERATURE |
				  V4L2_FLASH_FAULT_SHORT_CIRCUIT, 0, 0);
	if (hdl->error)
		return hdl->error;
	fault->flags |= V4L2_CTRL_FLAG_VOLATILE;
	return 0;
}

/* -----------------------------------------------------------------------------
 * Subdev Ops
 */

static const struct v4l2_subdev_core_ops adp1653_core_ops = {
	.log_status = v4l2_ctrl_subdev_log_status,
	.subscribe_event = v4l2_ctrl_subdev_subscribe_event,
	.unsubscribe_event = v4l2_event_subdev_unsubscribe,
};

static const struct v4l2_subdev_ops adp1653_subdev_ops = {
	.core = &adp1653_core_ops,
};

/*
 * Not on the data path, so no pipeline powers it: like the real adp1653
 * driver, it is powered while its subdevice node is open.
 */
static const struct v4l2_subdev_internal_ops adp1653_internal_ops = {
	.open = n900_power_subdev_open,
	.close = n900_power_subdev_close,
	.registered = n900_subdev_registered,
	.release = n900_subdev_release,
};

/* -----------------------------------------------------------------------------
 * Initialization and Cleanup
 */

static void adp1653_free(struct n900_subdev *nsd)
{
	kfree(container_of(nsd, struct adp1653, subdev));
}

static int adp1653_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct adp1653 *flash;
	struct v4l2_subdev *sd;
	int ret;

	/* not devm: an open subdevice node keeps it (n900_subdev.h) */
	flash = kzalloc(sizeof(*flash), GFP_KERNEL);
	if (!flash)
		return -ENOMEM;

	n900_subdev_init(&flash->subdev, dev, &adp1653_subdev_ops,
			 &adp1653_internal_ops, adp1653_free);
	sd = &flash->subdev.sd;
	sd->ctrl_handler = &flash->ctrls;
	ret = adp1653_init_controls(flash);
	if (ret) {
		dev_err_probe(dev, ret, "%pOF: cannot create controls\n",
			      dev->of_node);
		goto err_put;
	}
	sd->entity.function = MEDIA_ENT_F_FLASH;
	ret = n900_subdev_register(sd, dev, "adp1653", 0, NULL, false);
	if (ret)
		goto err_put;
	platform_set_drvdata(pdev, flash);
	return 0;

err_put:
	n900_subdev_put(&flash->subdev);
	return ret;
}

static void adp1653_remove(struct platform_device *pdev)
{
	struct adp1653 *flash = platform_get_drvdata(pdev);

	n900_subdev_unregister(&flash->subdev);
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
		.pm = pm_ptr(&n900_power_pm_ops),
	},
};
module_platform_driver(adp1653_driver);

MODULE_DESCRIPTION("Emulated Analog Devices ADP1653 LED flash controller (N900 main camera)");
MODULE_LICENSE("GPL");
