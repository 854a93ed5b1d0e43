// SPDX-License-Identifier: GPL-2.0
/*
 * isp_lsc.c - OMAP3 ISP lens shading
 *
 * Lens shading compensation: a gain grid applied to the raw frame on its way
 * from the CCDC video port to the white balance block.
 */

#include "isp.h"
#include "isp_pixel.h"
#include "n900_isp_controls.h"

enum {
	LSC_PAD_SINK,
	LSC_PAD_SOURCE,
	LSC_PADS_NUM
};

static const u32 lsc_codes[] = {
	MEDIA_BUS_FMT_SGRBG10_1X10,
	MEDIA_BUS_FMT_SGRBG8_1X8,
};

/* -----------------------------------------------------------------------------
 * Controls
 */

static const struct v4l2_ctrl_config lsc_enable = {
	.ops = &isp_block_ctrl_ops,
	.id = V4L2_CID_N900_LSC_ENABLE,
	.name = "Lens Shading Correction",
	.type = V4L2_CTRL_TYPE_BOOLEAN,
	.max = 1,
	.step = 1,
	.def = 0,
};

/* How much of the gain grid is applied, Q8: 0 = none, 256 = all of it. */
static const struct v4l2_ctrl_config lsc_strength = {
	.ops = &isp_block_ctrl_ops,
	.id = V4L2_CID_N900_LSC_STRENGTH,
	.name = "Lens Shading Strength",
	.type = V4L2_CTRL_TYPE_INTEGER,
	.max = 256,
	.step = 1,
	.def = 256,
};

static void lsc_init_controls(struct v4l2_ctrl_handler *hdl)
{
	v4l2_ctrl_new_custom(hdl, &lsc_enable, NULL);
	v4l2_ctrl_new_custom(hdl, &lsc_strength, NULL);
}

/* -----------------------------------------------------------------------------
 * Frames
 */

static int lsc_start(struct isp_frame_stage *stage)
{
	struct pix_lsc *lsc = stage->priv;

	lsc->width = stage->in.width;
	lsc->height = stage->in.height;
	return 0;
}

/* the gain grid, anew when the correction is on */
static void lsc_configure_frame(struct isp_frame_stage *stage)
{
	struct pix_lsc *lsc = stage->priv;

	lsc->enable = isp_block_ctrl_value(stage->block,
					   V4L2_CID_N900_LSC_ENABLE, 0);
	lsc->strength = isp_block_ctrl_value(stage->block,
					     V4L2_CID_N900_LSC_STRENGTH, 0);
	if (lsc->enable)
		pix_lsc_prepare(lsc);
}

static void lsc_process_line(struct isp_frame_stage *stage, unsigned int y,
			     u16 *line)
{
	const struct pix_lsc *lsc = stage->priv;

	if (lsc->enable)
		pix_lsc_line(lsc, y, line, line);
}

static const struct isp_frame_ops lsc_frame_ops = {
	.input = ISP_DATA_RAW,
	.output = ISP_DATA_RAW,
	.chain = ISP_CHAIN_LSC,
	.priv_size = sizeof(struct pix_lsc),
	.start = lsc_start,
	.configure_frame = lsc_configure_frame,
	.process_line = lsc_process_line,
};

const struct isp_block_type isp_lsc_type = {
	.name = "OMAP3 ISP lens shading",
	.function = MEDIA_ENT_F_PROC_VIDEO_LUT,
	.num_pads = LSC_PADS_NUM,
	.pad_flags = {
		[LSC_PAD_SINK] = MEDIA_PAD_FL_SINK,
		[LSC_PAD_SOURCE] = MEDIA_PAD_FL_SOURCE,
	},
	.codes = lsc_codes,
	.num_codes = ARRAY_SIZE(lsc_codes),
	.init_controls = lsc_init_controls,
	.frame_ops = &lsc_frame_ops,
};
