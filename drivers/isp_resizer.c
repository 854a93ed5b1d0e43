// SPDX-License-Identifier: GPL-2.0
/*
 * isp_resizer.c - OMAP3 ISP resizer
 *
 * The resizer: YUV scaling from 1/4x to 4x, fed by the preview engine, the
 * CCDC video port or memory ("resizer input").
 */

#include "isp.h"

enum {
	RESZ_PAD_SINK,
	RESZ_PAD_SOURCE,
	RESZ_PADS_NUM
};

static const u32 resizer_codes[] = {
	MEDIA_BUS_FMT_YUYV8_1X16,
	MEDIA_BUS_FMT_UYVY8_1X16,
};

const struct isp_block_type isp_resizer_type = {
	.name = "OMAP3 ISP resizer",
	.function = MEDIA_ENT_F_PROC_VIDEO_SCALER,
	.num_pads = RESZ_PADS_NUM,
	.pad_flags = {
		[RESZ_PAD_SINK] = MEDIA_PAD_FL_SINK,
		[RESZ_PAD_SOURCE] = MEDIA_PAD_FL_SOURCE,
	},
	.codes = resizer_codes,
	.num_codes = ARRAY_SIZE(resizer_codes),
};
