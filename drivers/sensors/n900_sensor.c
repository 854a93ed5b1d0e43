// SPDX-License-Identifier: GPL-2.0
/*
 * n900_sensor.c - the N900 camera sensors: Toshiba et8ek8 (main camera, 5 MP)
 * and ST vs6555 (front camera, VGA)
 *
 * A sensor is a separate device with its own driver, as on the real board:
 * it registers a subdevice with v4l2-async and the ISP picks it up through
 * the OF graph. Its lens ("lens-focus") and flash ("flash-leds") bind to it
 * through v4l2_async_register_subdev_sensor(), which also creates the
 * ancillary links.
 */

#include <linux/mod_devicetable.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/property.h>
#include <media/v4l2-async.h>
#include <media/v4l2-ctrls.h>
#include <media/v4l2-event.h>
#include <media/v4l2-subdev.h>

#include "n900_isp_controls.h"
#include "n900_subdev.h"

/* the scene files a sensor offers (n900emu,scene), at most */
#define SENSOR_SCENES_MAX	8
/* and the longest name of one, with its NUL */
#define SENSOR_SCENE_NAME_MAX	64

/**
 * struct sensor_mode - a readout mode
 * @width: output width
 * @height: output height
 * @line_length: pixels per line, horizontal blanking included
 * @frame_length: lines per frame at the mode's nominal frame rate,
 *	vertical blanking included
 */
struct sensor_mode {
	u32 width;
	u32 height;
	u32 line_length;
	u32 frame_length;
};

/**
 * struct sensor_model - what distinguishes one sensor model
 * @name: default entity name (the node's "label" overrides it)
 * @code: media bus code of the pixel array output
 * @modes: readout modes, largest first
 * @num_modes: number of entries in @modes
 * @pixel_rate: pixel rate in pixels per second
 * @link_freq: bus link frequency in Hz
 * @exposure_max: longest exposure, in lines
 * @gain_max: highest analogue gain code
 */
struct sensor_model {
	const char *name;
	u32 code;
	const struct sensor_mode *modes;
	unsigned int num_modes;
	s64 pixel_rate;
	s64 link_freq;
	u32 exposure_max;
	u32 gain_max;
};

/**
 * struct sensor - one sensor instance
 * @subdev: the subdevice and its lifetime (n900_subdev.h)
 * @pad: its source pad
 * @model: the sensor model
 * @ctrls: exposure, analogue gain, test pattern, pixel rate, link
 *	frequency, blanking, free running
 * @hblank: horizontal blanking (read-only: the line length is fixed)
 * @vblank: vertical blanking, which sets the frame interval
 * @scenes: the scene files of the device tree (n900emu,scene), the items
 *	of the Scene menu, which the ISP loads (request_firmware()) when it
 *	renders the Image pattern; NULL-terminated, freed with the sensor
 * @num_scenes: the number of @scenes
 */
struct sensor {
	struct n900_subdev subdev;
	struct media_pad pad;
	const struct sensor_model *model;
	struct v4l2_ctrl_handler ctrls;
	struct v4l2_ctrl *hblank;
	struct v4l2_ctrl *vblank;
	const char *scenes[SENSOR_SCENES_MAX + 1];
	unsigned int num_scenes;
};

static inline struct sensor *to_sensor(struct v4l2_subdev *sd)
{
	return container_of(sd, struct sensor, subdev.sd);
}

/*
 * The et8ek8 modes the N900 used, with their line and frame lengths
 * (drivers/media/i2c/et8ek8/et8ek8_mode.c: mode width and height).
 */
static const struct sensor_mode et8ek8_modes[] = {
	{ 2592, 1968, 3288, 2016 },
	{ 1296, 984, 3192, 1008 },
	{ 864, 656, 3984, 672 },
	{ 648, 492, 5304, 504 },
};

/* VGA at 30 frames per second from the 12 MHz pixel rate */
static const struct sensor_mode vs6555_modes[] = {
	{ 640, 480, 800, 500 },
};

static const struct sensor_model et8ek8_model = {
	.name = "et8ek8",
	.code = MEDIA_BUS_FMT_SGRBG10_1X10,
	.modes = et8ek8_modes,
	.num_modes = ARRAY_SIZE(et8ek8_modes),
	.pixel_rate = 79200000,
	.link_freq = 396000000,
	.exposure_max = 2000,
	.gain_max = 79,
};

static const struct sensor_model vs6555_model = {
	.name = "vs6555",
	.code = MEDIA_BUS_FMT_SGRBG10_1X10,
	.modes = vs6555_modes,
	.num_modes = ARRAY_SIZE(vs6555_modes),
	.pixel_rate = 12000000,
	.link_freq = 96000000,
	.exposure_max = 500,
	.gain_max = 255,
};

/* -----------------------------------------------------------------------------
 * Controls
 */

static const char * const sensor_test_pattern_menu[] = {
	"Normal (synthetic scene)",
	"Vertical colour bars",
	"Gradient",
	"Image (scene file)",
};

/* The emulated sensor applies its controls when it renders a frame. */
static int sensor_s_ctrl(struct v4l2_ctrl *ctrl)
{
	return 0;
}

static const struct v4l2_ctrl_ops sensor_ctrl_ops = {
	.s_ctrl = sensor_s_ctrl,
};

/*
 * The frame interval is (width + hblank) * (height + vblank) / pixel rate,
 * as for any raw sensor (Documentation/driver-api/media/camera-sensor.rst).
 * A mode has a fixed line length (hblank is read-only) and starts at its
 * nominal frame length; vblank stretches it.
 */
#define SENSOR_VBLANK_MIN	8
#define SENSOR_FRAME_LENGTH_MAX	65535

static void sensor_update_blanking(struct sensor *sensor,
				   const struct sensor_mode *mode)
{
	u32 hblank = mode->line_length - mode->width;
	u32 vblank = max(mode->frame_length - mode->height, SENSOR_VBLANK_MIN);

	v4l2_ctrl_modify_range(sensor->hblank, hblank, hblank, 1, hblank);
	v4l2_ctrl_modify_range(sensor->vblank, SENSOR_VBLANK_MIN,
			       SENSOR_FRAME_LENGTH_MAX - mode->height, 1,
			       vblank);
	v4l2_ctrl_s_ctrl(sensor->vblank, vblank);
}

/* frames as fast as the ISP renders them, for benchmarks */
static const struct v4l2_ctrl_config sensor_free_run = {
	.ops = &sensor_ctrl_ops,
	.id = V4L2_CID_N900_SENSOR_FREE_RUN,
	.name = "Free Running",
	.type = V4L2_CTRL_TYPE_BOOLEAN,
	.max = 1,
	.step = 1,
};

/* the physical model of the Image pattern (isp_pixel.h) */
static const struct v4l2_ctrl_config sensor_illuminant = {
	.ops = &sensor_ctrl_ops,
	.id = V4L2_CID_N900_SENSOR_ILLUMINANT,
	.name = "Illuminant Temperature",
	.type = V4L2_CTRL_TYPE_INTEGER,
	.min = 2000,
	.max = 10000,
	.step = 100,
	.def = 6500,
};

static const struct v4l2_ctrl_config sensor_noise = {
	.ops = &sensor_ctrl_ops,
	.id = V4L2_CID_N900_SENSOR_NOISE,
	.name = "Sensor Noise",
	.type = V4L2_CTRL_TYPE_BOOLEAN,
	.max = 1,
	.step = 1,
	.def = 1,
};

static const struct v4l2_ctrl_config sensor_noise_seed = {
	.ops = &sensor_ctrl_ops,
	.id = V4L2_CID_N900_SENSOR_NOISE_SEED,
	.name = "Noise Seed",
	.type = V4L2_CTRL_TYPE_INTEGER,
	.max = S32_MAX,
	.step = 1,
};

/* the Scene menu: the files of n900emu,scene, the first the default */
static void sensor_scene_control(struct sensor *sensor)
{
	struct v4l2_ctrl_config scene = {
		.ops = &sensor_ctrl_ops,
		.id = V4L2_CID_N900_SENSOR_SCENE,
		.name = "Scene",
		.type = V4L2_CTRL_TYPE_MENU,
		.max = sensor->num_scenes - 1,
		.qmenu = sensor->scenes,
	};

	if (sensor->num_scenes)
		v4l2_ctrl_new_custom(&sensor->ctrls, &scene, NULL);
}

static int sensor_init_controls(struct sensor *sensor)
{
	const struct sensor_model *model = sensor->model;
	struct v4l2_ctrl_handler *hdl = &sensor->ctrls;
	struct v4l2_ctrl *link_freq;

	v4l2_ctrl_handler_init(hdl, 12);
	v4l2_ctrl_new_std(hdl, &sensor_ctrl_ops, V4L2_CID_EXPOSURE, 1,
			  model->exposure_max, 1, model->exposure_max / 2);
	v4l2_ctrl_new_std(hdl, &sensor_ctrl_ops, V4L2_CID_ANALOGUE_GAIN, 0,
			  model->gain_max, 1, 0);
	v4l2_ctrl_new_std_menu_items(hdl, &sensor_ctrl_ops, V4L2_CID_TEST_PATTERN,
				     ARRAY_SIZE(sensor_test_pattern_menu) - 1,
				     0, 0, sensor_test_pattern_menu);
	v4l2_ctrl_new_std(hdl, &sensor_ctrl_ops, V4L2_CID_PIXEL_RATE,
			  model->pixel_rate, model->pixel_rate, 1,
			  model->pixel_rate);
	link_freq = v4l2_ctrl_new_int_menu(hdl, &sensor_ctrl_ops,
					   V4L2_CID_LINK_FREQ, 0, 0,
					   &model->link_freq);
	/* the ranges of the first (default) mode follow */
	sensor->hblank = v4l2_ctrl_new_std(hdl, &sensor_ctrl_ops,
					   V4L2_CID_HBLANK, 0, 0, 1, 0);
	sensor->vblank = v4l2_ctrl_new_std(hdl, &sensor_ctrl_ops,
					   V4L2_CID_VBLANK, SENSOR_VBLANK_MIN,
					   SENSOR_VBLANK_MIN, 1,
					   SENSOR_VBLANK_MIN);
	v4l2_ctrl_new_custom(hdl, &sensor_free_run, NULL);
	sensor_scene_control(sensor);
	v4l2_ctrl_new_custom(hdl, &sensor_illuminant, NULL);
	v4l2_ctrl_new_custom(hdl, &sensor_noise, NULL);
	v4l2_ctrl_new_custom(hdl, &sensor_noise_seed, NULL);
	if (hdl->error)
		return hdl->error;
	link_freq->flags |= V4L2_CTRL_FLAG_READ_ONLY;
	sensor->hblank->flags |= V4L2_CTRL_FLAG_READ_ONLY;
	sensor_update_blanking(sensor, &model->modes[0]);
	return 0;
}

/* -----------------------------------------------------------------------------
 * Pad Ops
 */

static void sensor_fill_format(const struct sensor_model *model,
			       const struct sensor_mode *mode,
			       struct v4l2_mbus_framefmt *fmt)
{
	*fmt = (struct v4l2_mbus_framefmt) {
		.code = model->code,
		.width = mode->width,
		.height = mode->height,
		.field = V4L2_FIELD_NONE,
		.colorspace = V4L2_COLORSPACE_RAW,
	};
}

static int sensor_enum_mbus_code(struct v4l2_subdev *sd,
				 struct v4l2_subdev_state *state,
				 struct v4l2_subdev_mbus_code_enum *code)
{
	if (code->index)
		return -EINVAL;
	code->code = to_sensor(sd)->model->code;
	return 0;
}

static int sensor_enum_frame_size(struct v4l2_subdev *sd,
				  struct v4l2_subdev_state *state,
				  struct v4l2_subdev_frame_size_enum *fse)
{
	const struct sensor_model *model = to_sensor(sd)->model;

	if (fse->index >= model->num_modes || fse->code != model->code)
		return -EINVAL;
	fse->min_width = model->modes[fse->index].width;
	fse->max_width = fse->min_width;
	fse->min_height = model->modes[fse->index].height;
	fse->max_height = fse->min_height;
	return 0;
}

/* Pick the mode closest in size to the request; it sets the blanking. */
static int sensor_set_fmt(struct v4l2_subdev *sd,
			  struct v4l2_subdev_state *state,
			  struct v4l2_subdev_format *format)
{
	struct sensor *sensor = to_sensor(sd);
	const struct sensor_model *model = sensor->model;
	const struct sensor_mode *mode;
	struct v4l2_mbus_framefmt *fmt;

	mode = v4l2_find_nearest_size(model->modes, model->num_modes, width,
				      height, format->format.width,
				      format->format.height);
	fmt = v4l2_subdev_state_get_format(state, format->pad);
	sensor_fill_format(model, mode, fmt);
	format->format = *fmt;
	if (format->which == V4L2_SUBDEV_FORMAT_ACTIVE)
		sensor_update_blanking(sensor, mode);
	return 0;
}

static int sensor_init_state(struct v4l2_subdev *sd,
			     struct v4l2_subdev_state *state)
{
	const struct sensor_model *model = to_sensor(sd)->model;

	sensor_fill_format(model, &model->modes[0],
			   v4l2_subdev_state_get_format(state, 0));
	return 0;
}

static const struct v4l2_subdev_pad_ops sensor_pad_ops = {
	.enum_mbus_code = sensor_enum_mbus_code,
	.enum_frame_size = sensor_enum_frame_size,
	.get_fmt = v4l2_subdev_get_fmt,
	.set_fmt = sensor_set_fmt,
};

/* -----------------------------------------------------------------------------
 * Subdev Ops
 */

static const struct v4l2_subdev_core_ops sensor_core_ops = {
	.s_power = n900_power_subdev_s_power,
	.log_status = v4l2_ctrl_subdev_log_status,
	.subscribe_event = v4l2_ctrl_subdev_subscribe_event,
	.unsubscribe_event = v4l2_event_subdev_unsubscribe,
};

static const struct v4l2_subdev_video_ops sensor_video_ops = {
	.s_stream = n900_power_subdev_s_stream,
};

static const struct v4l2_subdev_ops sensor_subdev_ops = {
	.core = &sensor_core_ops,
	.video = &sensor_video_ops,
	.pad = &sensor_pad_ops,
};

static const struct v4l2_subdev_internal_ops sensor_internal_ops = {
	.init_state = sensor_init_state,
	.registered = n900_subdev_registered,
	.release = n900_subdev_release,
};

/* -----------------------------------------------------------------------------
 * Initialization and Cleanup
 */

static void sensor_free(struct n900_subdev *nsd)
{
	struct sensor *sensor = container_of(nsd, struct sensor, subdev);
	unsigned int i;

	for (i = 0; i < sensor->num_scenes; i++)
		kfree(sensor->scenes[i]);
	kfree(sensor);
}

/*
 * The scene files of n900emu,scene (firmware names, loaded only when the
 * Image pattern streams), copied: the Scene menu outlives the device tree
 * node when the node comes from an overlay.
 */
static int sensor_read_scenes(struct sensor *sensor, struct device *dev)
{
	const char *names[SENSOR_SCENES_MAX];
	int n, i;

	n = device_property_string_array_count(dev, "n900emu,scene");
	if (n == -EINVAL)
		return 0;	/* none: the Image pattern is the synthetic scene */
	if (n <= 0 || n > SENSOR_SCENES_MAX)
		return dev_err_probe(dev, -EINVAL,
				     "%pOF: n900emu,scene must be 1 to %d file names\n",
				     dev->of_node, SENSOR_SCENES_MAX);
	n = device_property_read_string_array(dev, "n900emu,scene", names, n);
	if (n < 0)
		return dev_err_probe(dev, n, "%pOF: cannot read n900emu,scene\n",
				     dev->of_node);
	for (i = 0; i < n; i++) {
		if (!*names[i] || strlen(names[i]) >= SENSOR_SCENE_NAME_MAX)
			return dev_err_probe(dev, -EINVAL,
					     "%pOF: n900emu,scene: \"%s\" is empty or longer than %d characters\n",
					     dev->of_node, names[i],
					     SENSOR_SCENE_NAME_MAX - 1);
		sensor->scenes[i] = kstrdup(names[i], GFP_KERNEL);
		if (!sensor->scenes[i])
			return -ENOMEM;
		sensor->num_scenes++;
	}
	return 0;
}

static int sensor_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct sensor *sensor;
	struct v4l2_subdev *sd;
	int ret;

	/* not devm: an open subdevice node keeps it (n900_subdev.h) */
	sensor = kzalloc(sizeof(*sensor), GFP_KERNEL);
	if (!sensor)
		return -ENOMEM;
	sensor->model = device_get_match_data(dev);

	n900_subdev_init(&sensor->subdev, dev, &sensor_subdev_ops,
			 &sensor_internal_ops, sensor_free);
	sd = &sensor->subdev.sd;
	ret = sensor_read_scenes(sensor, dev);
	if (ret)
		goto err_put;
	ret = sensor_init_controls(sensor);
	sd->ctrl_handler = &sensor->ctrls;
	if (ret) {
		dev_err_probe(dev, ret, "%pOF: cannot create controls\n",
			      dev->of_node);
		goto err_put;
	}
	sd->entity.function = MEDIA_ENT_F_CAM_SENSOR;
	sensor->pad.flags = MEDIA_PAD_FL_SOURCE;
	ret = n900_subdev_register(sd, dev, sensor->model->name, 1,
				   &sensor->pad, true);
	if (ret)
		goto err_put;
	platform_set_drvdata(pdev, sensor);
	return 0;

err_put:
	n900_subdev_put(&sensor->subdev);
	return ret;
}

static void sensor_remove(struct platform_device *pdev)
{
	struct sensor *sensor = platform_get_drvdata(pdev);

	n900_subdev_unregister(&sensor->subdev);
}

static const struct of_device_id sensor_of_match[] = {
	{ .compatible = "n900emu,et8ek8", .data = &et8ek8_model },
	{ .compatible = "n900emu,vs6555", .data = &vs6555_model },
	{ }
};
MODULE_DEVICE_TABLE(of, sensor_of_match);

static struct platform_driver sensor_driver = {
	.probe = sensor_probe,
	.remove = sensor_remove,
	.driver = {
		.name = "n900-sensor",
		.of_match_table = sensor_of_match,
		.pm = pm_ptr(&n900_power_pm_ops),
	},
};
module_platform_driver(sensor_driver);

MODULE_DESCRIPTION("Emulated N900 camera sensors (et8ek8, vs6555)");
MODULE_LICENSE("GPL");
