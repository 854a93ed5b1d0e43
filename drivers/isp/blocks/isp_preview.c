// SPDX-License-Identifier: GPL-2.0
/*
 * isp_preview.c - OMAP3 ISP preview
 *
 * The preview engine: Bayer in, demosaic, RGB to YUV, contrast and
 * brightness on luma, YUYV/UYVY out to memory ("preview output") or to the
 * resizer. It also reads raw frames from memory ("preview input").
 */

#include "isp.h"
#include "isp_pixel.h"

enum {
	PREV_PAD_SINK,
	PREV_PAD_SOURCE,
	PREV_PADS_NUM
};

static const u32 preview_codes[] = {
	MEDIA_BUS_FMT_SGRBG10_1X10,
	MEDIA_BUS_FMT_SGRBG8_1X8,
};

/* Bayer in, YUV 4:2:2 out, in either byte order. */
static const struct isp_code_map preview_code_map[] = {
	{ PREV_PAD_SOURCE, MEDIA_BUS_FMT_SGRBG10_1X10, MEDIA_BUS_FMT_YUYV8_1X16 },
	{ PREV_PAD_SOURCE, MEDIA_BUS_FMT_SGRBG10_1X10, MEDIA_BUS_FMT_UYVY8_1X16 },
	{ PREV_PAD_SOURCE, MEDIA_BUS_FMT_SGRBG8_1X8, MEDIA_BUS_FMT_YUYV8_1X16 },
	{ PREV_PAD_SOURCE, MEDIA_BUS_FMT_SGRBG8_1X8, MEDIA_BUS_FMT_UYVY8_1X16 },
};

/* -----------------------------------------------------------------------------
 * Controls
 */

/* The ranges of the OMAP3 preview engine (omap3isp ISPPRV_BRIGHT_*, _CONTRAST_*). */
static void preview_init_controls(struct v4l2_ctrl_handler *hdl)
{
	v4l2_ctrl_new_std(hdl, &isp_block_ctrl_ops, V4L2_CID_BRIGHTNESS,
			  0, 255, 1, 0);
	v4l2_ctrl_new_std(hdl, &isp_block_ctrl_ops, V4L2_CID_CONTRAST,
			  0, 255, 1, 16);
}

/* -----------------------------------------------------------------------------
 * Frames
 */

/* YUV out in the capture node's order */
static int preview_start(struct isp_frame_stage *stage)
{
	struct pix_preview *p = stage->priv;

	p->uyvy = stage->video->format.pixelformat == V4L2_PIX_FMT_UYVY;
	return 0;
}

/* Contrast is U8Q4 (16 = 1.0), brightness an offset: the CNT_BRT register. */
static void preview_configure_frame(struct isp_frame_stage *stage)
{
	struct pix_preview *p = stage->priv;

	p->contrast = isp_block_ctrl_value(stage->block, V4L2_CID_CONTRAST,
					   PIX_CONTRAST_DEF);
	p->brightness = isp_block_ctrl_value(stage->block, V4L2_CID_BRIGHTNESS,
					     PIX_BRIGHTNESS_DEF);
}

/*
 * demosaic: each line from the one above and the one below, mirrored (no
 * NEON: the loop on words of two pixels is faster under TCG, see
 * isp_pixel_neon.c)
 */
static void preview_process_lines(struct isp_frame_stage *stage,
				  unsigned int part, unsigned int y0,
				  unsigned int y1)
{
	const struct isp_image *in = &stage->in;

	pix_preview_lines(stage->priv, in->data, in->stride, in->width,
			  in->height, in->narrow, y0, y1, stage->out.data,
			  stage->out.stride);
}

static const struct isp_frame_ops preview_frame_ops = {
	.input = ISP_DATA_RAW,
	.output = ISP_DATA_YUV,
	.stage = ISP_STAGE_PREVIEW,
	.priv_size = sizeof(struct pix_preview),
	.start = preview_start,
	.configure_frame = preview_configure_frame,
	.process_lines = preview_process_lines,
};

const struct isp_block_type isp_preview_type = {
	.name = "OMAP3 ISP preview",
	.function = MEDIA_ENT_F_PROC_VIDEO_PIXEL_ENC_CONV,
	.num_pads = PREV_PADS_NUM,
	.pad_flags = {
		[PREV_PAD_SINK] = MEDIA_PAD_FL_SINK,
		[PREV_PAD_SOURCE] = MEDIA_PAD_FL_SOURCE,
	},
	.codes = preview_codes,
	.num_codes = ARRAY_SIZE(preview_codes),
	.init_controls = preview_init_controls,
	.code_map = preview_code_map,
	.num_code_maps = ARRAY_SIZE(preview_code_map),
	.frame_ops = &preview_frame_ops,
};
