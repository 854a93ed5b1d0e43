// SPDX-License-Identifier: GPL-2.0
/*
 * isp_ccdc.c - OMAP3 ISP CCDC
 *
 * The CCD controller: raw data in from CSI2a, CCP2 or the parallel port;
 * out through the video port (VP) to lens shading, the statistics engines
 * and the resizer, and through the output formatter (OF) to memory
 * ("CCDC output").
 */

#include "isp.h"
#include "isp_pixel.h"
#include "n900_isp_controls.h"

enum {
	CCDC_PAD_SINK,
	CCDC_PAD_SOURCE_VP,
	CCDC_PAD_SOURCE_OF,
	CCDC_PADS_NUM
};

static const u32 ccdc_codes[] = {
	MEDIA_BUS_FMT_SGRBG10_1X10,
	MEDIA_BUS_FMT_SGRBG8_1X8,
	MEDIA_BUS_FMT_YUYV8_1X16,
	MEDIA_BUS_FMT_UYVY8_1X16,
};

/*
 * The output formatter can drop the two least significant bits of 10-bit
 * raw data (the data lane shifter): 10 to 8 bit on the way to memory. The
 * video port always carries the sink format; the output formatter writes
 * the crop rectangle set on its pad (CCDC_PAD_SOURCE_OF) to memory.
 */
static const struct isp_code_map ccdc_code_map[] = {
	{ CCDC_PAD_SOURCE_OF, MEDIA_BUS_FMT_SGRBG10_1X10, MEDIA_BUS_FMT_SGRBG10_1X10 },
	{ CCDC_PAD_SOURCE_OF, MEDIA_BUS_FMT_SGRBG10_1X10, MEDIA_BUS_FMT_SGRBG8_1X8 },
};

/* -----------------------------------------------------------------------------
 * Controls
 */

/* Subtracted from every 10-bit sample; 64 is the et8ek8 pedestal. */
static const struct v4l2_ctrl_config ccdc_black_level = {
	.ops = &isp_block_ctrl_ops,
	.id = V4L2_CID_N900_CCDC_BLACK_LEVEL,
	.name = "Black Level",
	.type = V4L2_CTRL_TYPE_INTEGER,
	.max = 1023,
	.step = 1,
	.def = 64,
};

static void ccdc_init_controls(struct v4l2_ctrl_handler *hdl)
{
	v4l2_ctrl_new_custom(hdl, &ccdc_black_level, NULL);
}

/* -----------------------------------------------------------------------------
 * Frames
 */

/*
 * The output formatter writes the crop rectangle of its pad to memory; the
 * video port carries the whole frame (its rectangle is the sink format).
 */
static int ccdc_start(struct isp_frame_stage *stage)
{
	isp_block_source_rect(stage->block, stage->pad, &stage->crop);
	return isp_frame_check_rect(stage, "crop", &stage->crop);
}

static void ccdc_configure_frame(struct isp_frame_stage *stage)
{
	struct pix_ccdc *ccdc = stage->priv;

	ccdc->black = isp_block_ctrl_value(stage->block,
					   V4L2_CID_N900_CCDC_BLACK_LEVEL, 0);
}

static void ccdc_process_line(struct isp_frame_stage *stage, unsigned int y,
			      u16 *line)
{
	pix_ccdc_line(stage->priv, line, line, stage->in.width);
}

static const struct isp_frame_ops ccdc_frame_ops = {
	.input = ISP_DATA_RAW,
	.output = ISP_DATA_RAW,
	.chain = ISP_CHAIN_CCDC,
	.priv_size = sizeof(struct pix_ccdc),
	.start = ccdc_start,
	.configure_frame = ccdc_configure_frame,
	.process_line = ccdc_process_line,
};

const struct isp_block_type isp_ccdc_type = {
	.name = "OMAP3 ISP CCDC",
	.function = MEDIA_ENT_F_PROC_VIDEO_PIXEL_FORMATTER,
	.num_pads = CCDC_PADS_NUM,
	.pad_flags = {
		[CCDC_PAD_SINK] = MEDIA_PAD_FL_SINK | MEDIA_PAD_FL_MUST_CONNECT,
		[CCDC_PAD_SOURCE_VP] = MEDIA_PAD_FL_SOURCE,
		[CCDC_PAD_SOURCE_OF] = MEDIA_PAD_FL_SOURCE,
	},
	.codes = ccdc_codes,
	.num_codes = ARRAY_SIZE(ccdc_codes),
	.init_controls = ccdc_init_controls,
	.code_map = ccdc_code_map,
	.num_code_maps = ARRAY_SIZE(ccdc_code_map),
	.crop_pads = BIT(CCDC_PAD_SOURCE_OF),
	.frame_ops = &ccdc_frame_ops,
};
