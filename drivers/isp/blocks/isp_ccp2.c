// SPDX-License-Identifier: GPL-2.0
/*
 * isp_ccp2.c - OMAP3 ISP CCP2
 *
 * The CCP2 (CSI-1) receiver: the N900 main and front cameras reach the ISP
 * through it, via the camera bus switch. Its sink also takes frames from
 * memory through the "CCP2 input" video node.
 */

#include "isp.h"

enum {
	CCP2_PAD_SINK,
	CCP2_PAD_SOURCE,
	CCP2_PADS_NUM
};

static const u32 ccp2_codes[] = {
	MEDIA_BUS_FMT_SGRBG10_1X10,
	MEDIA_BUS_FMT_SGRBG8_1X8,
};

const struct isp_block_type isp_ccp2_type = {
	.name = "OMAP3 ISP CCP2",
	.function = MEDIA_ENT_F_VID_IF_BRIDGE,
	.num_pads = CCP2_PADS_NUM,
	.pad_flags = {
		[CCP2_PAD_SINK] = MEDIA_PAD_FL_SINK,
		[CCP2_PAD_SOURCE] = MEDIA_PAD_FL_SOURCE,
	},
	.codes = ccp2_codes,
	.num_codes = ARRAY_SIZE(ccp2_codes),
};
