/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * n900_isp_stats.h - statistics buffers of the emulated OMAP3 ISP
 * (userspace may include this header)
 *
 * The H3A AEWB, H3A AF and histogram engines sample the raw frame at the
 * CCDC video port (after black level subtraction, 10-bit GRBG Bayer). The
 * frame is divided into a grid of equal windows, starting at the top left;
 * the pixels right of and below the last whole window are not counted.
 */
#ifndef N900_ISP_STATS_H
#define N900_ISP_STATS_H

#include <linux/types.h>
#include <linux/videodev2.h>

/* metadata formats of the statistics capture nodes (V4L2_BUF_TYPE_META_CAPTURE) */
#define V4L2_META_FMT_N900_AEWB	v4l2_fourcc('N', '9', 'A', 'W') /* struct n900_isp_aewb */
#define V4L2_META_FMT_N900_AF	v4l2_fourcc('N', '9', 'A', 'F') /* struct n900_isp_af */
#define V4L2_META_FMT_N900_HIST	v4l2_fourcc('N', '9', 'H', 'S') /* struct n900_isp_hist */

/* Bayer channels, in the order of the sums below */
#define N900_STAT_GR		0
#define N900_STAT_R		1
#define N900_STAT_B		2
#define N900_STAT_GB		3

#define N900_AEWB_WIN_H		8
#define N900_AEWB_WIN_V		8

/**
 * struct n900_isp_aewb - auto exposure / white balance statistics
 * @frame_width: width of the sampled frame
 * @frame_height: height of the sampled frame
 * @win_width: width of one window in pixels (even)
 * @win_height: height of one window in lines (even)
 * @sum: per window (row, column), the sum of the samples of each Bayer
 *	channel (N900_STAT_*)
 */
struct n900_isp_aewb {
	__u32 frame_width;
	__u32 frame_height;
	__u32 win_width;
	__u32 win_height;
	__u32 sum[N900_AEWB_WIN_V][N900_AEWB_WIN_H][4];
};

#define N900_AF_WIN_H		4
#define N900_AF_WIN_V		4

/**
 * struct n900_isp_af - auto focus statistics
 * @frame_width: width of the sampled frame
 * @frame_height: height of the sampled frame
 * @win_width: width of one window in pixels (even)
 * @win_height: height of one window in lines (even)
 * @focus: per window, the high-pass energy of the green samples: the sum
 *	of |G(x) - G(x - 2)| along each line, over the window
 * @total: the sum of @focus
 */
struct n900_isp_af {
	__u32 frame_width;
	__u32 frame_height;
	__u32 win_width;
	__u32 win_height;
	__u32 focus[N900_AF_WIN_V][N900_AF_WIN_H];
	__u32 total;
};

#define N900_HIST_BINS		64

/**
 * struct n900_isp_hist - histogram of the whole frame
 * @frame_width: width of the sampled frame
 * @frame_height: height of the sampled frame
 * @bins: per Bayer channel (N900_STAT_*), the number of samples whose
 *	10-bit value >> 4 is the bin index
 */
struct n900_isp_hist {
	__u32 frame_width;
	__u32 frame_height;
	__u32 bins[4][N900_HIST_BINS];
};

#endif /* N900_ISP_STATS_H */
