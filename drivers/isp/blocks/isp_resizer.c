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

/*
 * The resizer scales each direction by 1/4x to 4x (OMAP3 ISP TRM: the
 * ratio register spans 64..1024 in 1/256 units), within the ISP's size
 * limits. A request outside that range is clamped, not refused. The input
 * is the crop rectangle on the sink pad, so the ratio is taken from it.
 */
static void resizer_source_size(u32 in_width, u32 in_height, u32 *width,
				u32 *height)
{
	*width = clamp_t(u32, *width, max_t(u32, DIV_ROUND_UP(in_width, 4),
					    ISP_MIN_WIDTH),
			 min_t(u32, in_width * 4, ISP_MAX_WIDTH));
	*height = clamp_t(u32, *height, max_t(u32, DIV_ROUND_UP(in_height, 4),
					      ISP_MIN_HEIGHT),
			  min_t(u32, in_height * 4, ISP_MAX_HEIGHT));
}

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
	.crop_pads = BIT(RESZ_PAD_SINK),
	.source_size = resizer_source_size,
};
