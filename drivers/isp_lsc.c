// SPDX-License-Identifier: GPL-2.0
/*
 * isp_lsc.c - OMAP3 ISP lens shading
 *
 * Lens shading compensation: a gain grid applied to the raw frame on its way
 * from the CCDC video port to the white balance block.
 */

#include "isp.h"

enum {
	LSC_PAD_SINK,
	LSC_PAD_SOURCE,
	LSC_PADS_NUM
};

static const u32 lsc_codes[] = {
	MEDIA_BUS_FMT_SGRBG10_1X10,
	MEDIA_BUS_FMT_SGRBG8_1X8,
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
};
