// SPDX-License-Identifier: GPL-2.0
/*
 * isp_csi2.c - OMAP3 ISP CSI2a
 *
 * The CSI-2 receiver A: serial camera data into the ISP, forwarded to the
 * CCDC or written to memory through the "CSI2a output" video node.
 */

#include "isp.h"

enum {
	CSI2_PAD_SINK,
	CSI2_PAD_SOURCE,
	CSI2_PADS_NUM
};

static const u32 csi2_codes[] = {
	MEDIA_BUS_FMT_SGRBG10_1X10,
	MEDIA_BUS_FMT_SGRBG8_1X8,
};

const struct isp_block_type isp_csi2_type = {
	.name = "OMAP3 ISP CSI2a",
	.function = MEDIA_ENT_F_VID_IF_BRIDGE,
	.num_pads = CSI2_PADS_NUM,
	.pad_flags = {
		[CSI2_PAD_SINK] = MEDIA_PAD_FL_SINK,
		[CSI2_PAD_SOURCE] = MEDIA_PAD_FL_SOURCE,
	},
	.codes = csi2_codes,
	.num_codes = ARRAY_SIZE(csi2_codes),
};
