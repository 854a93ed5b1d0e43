// SPDX-License-Identifier: GPL-2.0
/*
 * isp_h3a_aewb.c - OMAP3 ISP AEWB
 *
 * H3A auto exposure / auto white balance statistics: window sums of the
 * raw frame from the CCDC video port.
 */

#include "isp.h"

enum {
	AEWB_PAD_SINK,
	AEWB_PADS_NUM
};

static const u32 h3a_aewb_codes[] = {
	MEDIA_BUS_FMT_SGRBG10_1X10,
	MEDIA_BUS_FMT_SGRBG8_1X8,
};

const struct isp_block_type isp_h3a_aewb_type = {
	.name = "OMAP3 ISP AEWB",
	.function = MEDIA_ENT_F_PROC_VIDEO_STATISTICS,
	.num_pads = AEWB_PADS_NUM,
	.pad_flags = {
		[AEWB_PAD_SINK] = MEDIA_PAD_FL_SINK | MEDIA_PAD_FL_MUST_CONNECT,
	},
	.codes = h3a_aewb_codes,
	.num_codes = ARRAY_SIZE(h3a_aewb_codes),
	.any_input = true,
};
