// SPDX-License-Identifier: GPL-2.0
/*
 * isp_wb.c - OMAP3 ISP white balance
 *
 * White balance: a digital gain and per-channel (Gr, R, B, Gb) gains on the
 * raw frame before the preview engine.
 */

#include "isp.h"
#include "isp_pixel.h"
#include "n900_isp_controls.h"

enum {
	WB_PAD_SINK,
	WB_PAD_SOURCE,
	WB_PADS_NUM
};

static const u32 wb_codes[] = {
	MEDIA_BUS_FMT_SGRBG10_1X10,
	MEDIA_BUS_FMT_SGRBG8_1X8,
};

/* -----------------------------------------------------------------------------
 * Controls
 */

#define WB_CHANNEL_GAIN(cid, cname) {				\
	.ops = &isp_block_ctrl_ops,				\
	.id = (cid),						\
	.name = (cname),					\
	.type = V4L2_CTRL_TYPE_INTEGER,				\
	.min = 0,						\
	.max = 255,						\
	.step = 1,						\
	.def = 32,						\
}

/* Per-channel gains, U8Q5 as in struct omap3isp_prev_wbal (32 = 1.0). */
static const struct v4l2_ctrl_config wb_channel_gains[] = {
	WB_CHANNEL_GAIN(V4L2_CID_N900_WB_GAIN_GR, "White Balance Gain Gr"),
	WB_CHANNEL_GAIN(V4L2_CID_N900_WB_GAIN_R, "White Balance Gain R"),
	WB_CHANNEL_GAIN(V4L2_CID_N900_WB_GAIN_B, "White Balance Gain B"),
	WB_CHANNEL_GAIN(V4L2_CID_N900_WB_GAIN_GB, "White Balance Gain Gb"),
};

static void wb_init_controls(struct v4l2_ctrl_handler *hdl)
{
	unsigned int i;

	/* digital gain, U10Q8 (256 = 1.0) */
	v4l2_ctrl_new_std(hdl, &isp_block_ctrl_ops, V4L2_CID_DIGITAL_GAIN,
			  0, 1023, 1, 256);
	for (i = 0; i < ARRAY_SIZE(wb_channel_gains); i++)
		v4l2_ctrl_new_custom(hdl, &wb_channel_gains[i], NULL);
}

/* -----------------------------------------------------------------------------
 * Frames
 */

static void wb_configure_frame(struct isp_frame_stage *stage)
{
	struct isp_block *block = stage->block;
	struct pix_wb *wb = stage->priv;

	wb->dgain = isp_block_ctrl_value(block, V4L2_CID_DIGITAL_GAIN, 256);
	wb->gain[PIX_GR] = isp_block_ctrl_value(block, V4L2_CID_N900_WB_GAIN_GR, 32);
	wb->gain[PIX_R] = isp_block_ctrl_value(block, V4L2_CID_N900_WB_GAIN_R, 32);
	wb->gain[PIX_B] = isp_block_ctrl_value(block, V4L2_CID_N900_WB_GAIN_B, 32);
	wb->gain[PIX_GB] = isp_block_ctrl_value(block, V4L2_CID_N900_WB_GAIN_GB, 32);
}

static void wb_process_line(struct isp_frame_stage *stage, unsigned int y,
			    u16 *line)
{
	pix_wb_line(stage->priv, y, line, line, stage->in.width);
}

static const struct isp_frame_ops wb_frame_ops = {
	.input = ISP_DATA_RAW,
	.output = ISP_DATA_RAW,
	.chain = ISP_CHAIN_WB,
	.priv_size = sizeof(struct pix_wb),
	.configure_frame = wb_configure_frame,
	.process_line = wb_process_line,
};

const struct isp_block_type isp_wb_type = {
	.name = "OMAP3 ISP white balance",
	.function = MEDIA_ENT_F_PROC_VIDEO_LUT,
	.num_pads = WB_PADS_NUM,
	.pad_flags = {
		[WB_PAD_SINK] = MEDIA_PAD_FL_SINK,
		[WB_PAD_SOURCE] = MEDIA_PAD_FL_SOURCE,
	},
	.codes = wb_codes,
	.num_codes = ARRAY_SIZE(wb_codes),
	.init_controls = wb_init_controls,
	.frame_ops = &wb_frame_ops,
};
