// SPDX-License-Identifier: GPL-2.0
/*
 * isp_hist.c - OMAP3 ISP histogram
 *
 * Histogram statistics of the raw frame from the CCDC video port.
 */

#include "isp.h"

static const u32 hist_codes[] = {
	MEDIA_BUS_FMT_SGRBG10_1X10,
	MEDIA_BUS_FMT_SGRBG8_1X8,
};

const struct isp_block_type isp_hist_type = {
	.name = "OMAP3 ISP histogram",
	.function = MEDIA_ENT_F_PROC_VIDEO_STATISTICS,
	.num_pads = ISP_STAT_PADS_NUM,
	.pad_flags = {
		[ISP_STAT_PAD_SINK] = MEDIA_PAD_FL_SINK | MEDIA_PAD_FL_MUST_CONNECT,
		[ISP_STAT_PAD_SOURCE] = MEDIA_PAD_FL_SOURCE,
	},
	.codes = hist_codes,
	.num_codes = ARRAY_SIZE(hist_codes),
	.any_input = true,
	.code_map = isp_stat_code_map,
	.num_code_maps = ARRAY_SIZE(isp_stat_code_map),
};
