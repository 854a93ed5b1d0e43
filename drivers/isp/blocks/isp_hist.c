// SPDX-License-Identifier: GPL-2.0
/*
 * isp_hist.c - OMAP3 ISP histogram
 *
 * Histogram statistics of the raw frame from the CCDC video port.
 */

#include "isp.h"
#include "isp_pixel.h"
#include "n900_isp_stats.h"

static const u32 hist_codes[] = {
	MEDIA_BUS_FMT_SGRBG10_1X10,
	MEDIA_BUS_FMT_SGRBG8_1X8,
};

/* the statistics of the whole raw frame, line by line */
static void hist_process_stats(struct isp_frame_stage *stage, void *buf)
{
	const struct isp_image *in = &stage->in;
	unsigned int y;

	pix_hist_init(buf, in->width, in->height);
	for (y = 0; y < in->height; y++)
		pix_hist_line(buf, y, in->data + y * in->stride);
}

static const struct isp_frame_ops hist_frame_ops = {
	.input = ISP_DATA_RAW,
	.output = ISP_DATA_STATS,
	.stage = ISP_STAGE_STATS,
	.stats_size = sizeof(struct n900_isp_hist),
	.process_stats = hist_process_stats,
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
	.frame_ops = &hist_frame_ops,
};
