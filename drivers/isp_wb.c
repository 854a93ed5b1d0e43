// SPDX-License-Identifier: GPL-2.0
/*
 * isp_wb.c - OMAP3 ISP white balance
 *
 * White balance: a digital gain and per-channel (Gr, R, B, Gb) gains on the
 * raw frame before the preview engine.
 */

#include "isp.h"

enum {
	WB_PAD_SINK,
	WB_PAD_SOURCE,
	WB_PADS_NUM
};

static const u32 wb_codes[] = {
	MEDIA_BUS_FMT_SGRBG10_1X10,
	MEDIA_BUS_FMT_SGRBG8_1X8,
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
};
