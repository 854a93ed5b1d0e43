// SPDX-License-Identifier: GPL-2.0
/*
 * isp_resizer.c - OMAP3 ISP resizer
 *
 * The resizer: YUV scaling from 1/4x to 4x, fed by the preview engine, the
 * CCDC video port or memory ("resizer input").
 */

#include <asm/neon.h>

#include "isp.h"
#include "isp_pixel.h"
#include "isp_pixel_neon.h"

enum {
	RESZ_PAD_SINK,
	RESZ_PAD_SOURCE,
	RESZ_PADS_NUM
};

static const u32 resizer_codes[] = {
	MEDIA_BUS_FMT_YUYV8_1X16,
	MEDIA_BUS_FMT_UYVY8_1X16,
};

/*
 * The resizer scales each direction by 1/4x to 4x (OMAP3 ISP TRM: the
 * ratio register spans 64..1024 in 1/256 units), within the ISP's size
 * limits. A request outside that range is clamped, not refused. The input
 * is the crop rectangle on the sink pad, so the ratio is taken from it.
 */
static void resizer_source_size(u32 in_width, u32 in_height, u32 *width,
				u32 *height)
{
	*width = clamp_t(u32, *width, max_t(u32, DIV_ROUND_UP(in_width, 4),
					    ISP_MIN_WIDTH),
			 min_t(u32, in_width * 4, ISP_MAX_WIDTH));
	*height = clamp_t(u32, *height, max_t(u32, DIV_ROUND_UP(in_height, 4),
					      ISP_MIN_HEIGHT),
			  min_t(u32, in_height * 4, ISP_MAX_HEIGHT));
}

/* -----------------------------------------------------------------------------
 * Frames
 */

/**
 * struct resizer_params - the resizer's parameters of a stream
 * @crop: its input, the crop rectangle of its sink pad
 * @rsz: scaling from @crop to the capture node's size
 * @uyvy: YUV in UYVY order (the capture node's format), not YUYV
 * @tmp: one input line of YUV per part of a pass
 */
struct resizer_params {
	struct v4l2_rect crop;
	struct pix_resizer rsz;
	bool uyvy;
	u8 tmp[ISP_FRAME_PARTS][PIX_MAX_WIDTH * 2];
};

/* the output is the capture node's size, scaled from the sink crop */
static int resizer_start(struct isp_frame_stage *stage)
{
	const struct v4l2_pix_format *pix = &stage->video->format;
	struct resizer_params *p = stage->priv;
	int ret;

	isp_block_source_rect(stage->block, stage->pad, &p->crop);
	ret = isp_frame_check_rect(stage, "crop", &p->crop);
	if (ret)
		return ret;
	p->uyvy = pix->pixelformat == V4L2_PIX_FMT_UYVY;
	p->rsz.in_w = p->crop.width;
	p->rsz.in_h = p->crop.height;
	p->rsz.out_w = pix->width;
	p->rsz.out_h = pix->height;
	pix_resizer_prepare(&p->rsz);
	stage->out.width = p->rsz.out_w;
	stage->out.height = p->rsz.out_h;
	return 0;
}

/* the loads and stores of 64 bits, between kernel_neon_begin() and _end() */
static const struct pix_resizer_fast resizer_neon = {
	.vblend = pix_resizer_vblend_neon,
	.hpairs = pix_resizer_hpairs_neon,
};

/* output lines @y0..@y1 - 1, with @fast's loops */
static void resizer_lines(struct isp_frame_stage *stage, unsigned int part,
			  unsigned int y0, unsigned int y1,
			  const struct pix_resizer_fast *fast)
{
	struct resizer_params *p = stage->priv;
	size_t stride = stage->in.stride;
	const u8 *base = stage->in.data + p->crop.top * stride +
			 p->crop.left * 2;
	unsigned int y;

	for (y = y0; y < y1; y++) {
		unsigned int sy = pix_resizer_src_line(&p->rsz, y);
		unsigned int sy1 = sy + 1 < p->rsz.in_h ? sy + 1 : sy;

		pix_resizer_line(&p->rsz, y, base + sy * stride,
				 base + sy1 * stride,
				 stage->out.data + (size_t)y * stage->out.stride,
				 p->tmp[part], p->uyvy, fast);
	}
}

/* with NEON's loads and stores where it can run, ISP_NEON_LINES a section */
static void resizer_process_lines(struct isp_frame_stage *stage,
				  unsigned int part, unsigned int y0,
				  unsigned int y1)
{
	unsigned int y, n;

	if (!IS_ENABLED(CONFIG_KERNEL_MODE_NEON) || !isp_frame_neon_usable()) {
		resizer_lines(stage, part, y0, y1, NULL);
		return;
	}
	for (y = y0; y < y1; y += n) {
		n = min(y1 - y, ISP_NEON_LINES);
		kernel_neon_begin();
		resizer_lines(stage, part, y, y + n, &resizer_neon);
		kernel_neon_end();
	}
}

static const struct isp_frame_ops resizer_frame_ops = {
	.input = ISP_DATA_YUV,
	.output = ISP_DATA_YUV,
	.stage = ISP_STAGE_RESIZER,
	.priv_size = sizeof(struct resizer_params),
	.start = resizer_start,
	.process_lines = resizer_process_lines,
};

const struct isp_block_type isp_resizer_type = {
	.name = "OMAP3 ISP resizer",
	.function = MEDIA_ENT_F_PROC_VIDEO_SCALER,
	.num_pads = RESZ_PADS_NUM,
	.pad_flags = {
		[RESZ_PAD_SINK] = MEDIA_PAD_FL_SINK,
		[RESZ_PAD_SOURCE] = MEDIA_PAD_FL_SOURCE,
	},
	.codes = resizer_codes,
	.num_codes = ARRAY_SIZE(resizer_codes),
	.crop_pads = BIT(RESZ_PAD_SINK),
	.source_size = resizer_source_size,
	.frame_ops = &resizer_frame_ops,
};
