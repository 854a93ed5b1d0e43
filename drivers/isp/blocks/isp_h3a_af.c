// SPDX-License-Identifier: GPL-2.0
/*
 * isp_h3a_af.c - OMAP3 ISP AF
 *
 * H3A autofocus statistics: high-pass focus values of the raw frame from
 * the CCDC video port.
 */

#include "isp.h"

static const u32 h3a_af_codes[] = {
	MEDIA_BUS_FMT_SGRBG10_1X10,
	MEDIA_BUS_FMT_SGRBG8_1X8,
};

const struct isp_block_type isp_h3a_af_type = {
	.name = "OMAP3 ISP AF",
	.function = MEDIA_ENT_F_PROC_VIDEO_STATISTICS,
	.num_pads = ISP_STAT_PADS_NUM,
	.pad_flags = {
		[ISP_STAT_PAD_SINK] = MEDIA_PAD_FL_SINK | MEDIA_PAD_FL_MUST_CONNECT,
		[ISP_STAT_PAD_SOURCE] = MEDIA_PAD_FL_SOURCE,
	},
	.codes = h3a_af_codes,
	.num_codes = ARRAY_SIZE(h3a_af_codes),
	.any_input = true,
	.code_map = isp_stat_code_map,
	.num_code_maps = ARRAY_SIZE(isp_stat_code_map),
};
