// SPDX-License-Identifier: GPL-2.0
/*
 * isp_preview.c - OMAP3 ISP preview
 *
 * The preview engine: Bayer in, demosaic, RGB to YUV, YUYV/UYVY out to
 * memory ("preview output") or to the resizer. It also reads raw frames
 * from memory ("preview input").
 */

#include "isp.h"
#include "n900_isp_controls.h"

enum {
	PREV_PAD_SINK,
	PREV_PAD_SOURCE,
	PREV_PADS_NUM
};

static const u32 preview_codes[] = {
	MEDIA_BUS_FMT_SGRBG10_1X10,
	MEDIA_BUS_FMT_SGRBG8_1X8,
};

/* Bayer in, YUV 4:2:2 out, in either byte order. */
static const struct isp_code_map preview_code_map[] = {
	{ PREV_PAD_SOURCE, MEDIA_BUS_FMT_SGRBG10_1X10, MEDIA_BUS_FMT_YUYV8_1X16 },
	{ PREV_PAD_SOURCE, MEDIA_BUS_FMT_SGRBG10_1X10, MEDIA_BUS_FMT_UYVY8_1X16 },
	{ PREV_PAD_SOURCE, MEDIA_BUS_FMT_SGRBG8_1X8, MEDIA_BUS_FMT_YUYV8_1X16 },
	{ PREV_PAD_SOURCE, MEDIA_BUS_FMT_SGRBG8_1X8, MEDIA_BUS_FMT_UYVY8_1X16 },
};

/* -----------------------------------------------------------------------------
 * Controls
 */

/* The ranges of the OMAP3 preview engine (omap3isp ISPPRV_BRIGHT_*, _CONTRAST_*). */
static void preview_init_controls(struct v4l2_ctrl_handler *hdl)
{
	v4l2_ctrl_new_std(hdl, &isp_block_ctrl_ops, V4L2_CID_BRIGHTNESS,
			  0, 255, 1, 0);
	v4l2_ctrl_new_std(hdl, &isp_block_ctrl_ops, V4L2_CID_CONTRAST,
			  0, 255, 1, 16);
}

const struct isp_block_type isp_preview_type = {
	.name = "OMAP3 ISP preview",
	.function = MEDIA_ENT_F_PROC_VIDEO_PIXEL_ENC_CONV,
	.num_pads = PREV_PADS_NUM,
	.pad_flags = {
		[PREV_PAD_SINK] = MEDIA_PAD_FL_SINK,
		[PREV_PAD_SOURCE] = MEDIA_PAD_FL_SOURCE,
	},
	.codes = preview_codes,
	.num_codes = ARRAY_SIZE(preview_codes),
	.init_controls = preview_init_controls,
	.code_map = preview_code_map,
	.num_code_maps = ARRAY_SIZE(preview_code_map),
};
