// SPDX-License-Identifier: GPL-2.0
/*
 * isp_preview.c - OMAP3 ISP preview
 *
 * The preview engine: Bayer in, demosaic, RGB to YUV, contrast and
 * brightness on luma, YUYV/UYVY out to memory ("preview output") or to the
 * resizer. It also reads raw frames from memory ("preview input").
 */

#include <asm/neon.h>

#include "isp.h"
#include "isp_pixel.h"
#include "isp_pixel_neon.h"

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
 * demosaic: each line from the one above and the one below, mirrored;
 * with @neon, the inner pairs with NEON, the rest in C
 */
static void preview_lines(struct isp_frame_stage *stage, unsigned int y0,
			  unsigned int y1, bool neon)
{
	const struct pix_preview *p = stage->priv;
	const struct isp_image *in = &stage->in;
	unsigned int h = in->height, w = in->width, y;

	for (y = y0; y < y1; y++) {
		const u16 *above = (const u16 *)(in->data +
						 (y ? y - 1 : 1) * in->stride);
		const u16 *line = (const u16 *)(in->data + y * in->stride);
		const u16 *below = (const u16 *)(in->data +
						 (y + 1 < h ? y + 1 : y - 1) *
						 in->stride);
		u8 *out = stage->out.data + y * stage->out.stride;
		unsigned int from = 2;

		if (IS_ENABLED(CONFIG_KERNEL_MODE_NEON) && neon)
			from = pix_preview_inner_neon(above, line, below, w,
						      out, p->uyvy, y & 1);
		pix_preview_line_from(p, above, line, below, y, w, from, out);
	}
}

/*
 * NEON where it gives the C's output (even widths, the default contrast
 * and brightness), ISP_NEON_LINES lines a section
 */
static void preview_process_lines(struct isp_frame_stage *stage,
				  unsigned int part, unsigned int y0,
				  unsigned int y1)
{
	const struct pix_preview *p = stage->priv;
	unsigned int y, n;

	if (!IS_ENABLED(CONFIG_KERNEL_MODE_NEON) || (stage->in.width & 1) ||
	    p->contrast != PIX_CONTRAST_DEF ||
	    p->brightness != PIX_BRIGHTNESS_DEF || !isp_frame_neon_usable()) {
		preview_lines(stage, y0, y1, false);
		return;
	}
	for (y = y0; y < y1; y += n) {
		n = min(y1 - y, ISP_NEON_LINES);
		kernel_neon_begin();
		preview_lines(stage, y, y + n, true);
		kernel_neon_end();
	}
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
