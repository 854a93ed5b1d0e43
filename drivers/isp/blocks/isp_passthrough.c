// SPDX-License-Identifier: GPL-2.0
/*
 * isp_passthrough.c - a generic pass-through block for stress topologies
 *
 * Not an OMAP3 block: the entity that dts/stress.sh repeats to build long
 * chains, wide fan-outs and meshes. Pad 0 is a sink, every other port of
 * its node a source that carries the sink format. Like every block it has
 * its own struct device, power (drivers/include/n900_power.h) and formats.
 */

#include "isp.h"

static const u32 passthrough_codes[] = {
	MEDIA_BUS_FMT_SGRBG10_1X10,
	MEDIA_BUS_FMT_SGRBG8_1X8,
	MEDIA_BUS_FMT_YUYV8_1X16,
	MEDIA_BUS_FMT_UYVY8_1X16,
};

const struct isp_block_type isp_passthrough_type = {
	.name = "passthrough",
	.function = MEDIA_ENT_F_PROC_VIDEO_PIXEL_FORMATTER,
	.num_pads = 0,	/* from the device tree */
	.codes = passthrough_codes,
	.num_codes = ARRAY_SIZE(passthrough_codes),
};
