/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * n900_isp_controls.h - driver-specific V4L2 controls of the emulated
 * OMAP3 ISP (userspace may include this header)
 *
 * Gains follow include/uapi/linux/omap3isp.h: the white balance digital
 * gain is U10Q8 (256 = 1.0), the per-channel gains are U8Q5 (32 = 1.0).
 */
#ifndef N900_ISP_CONTROLS_H
#define N900_ISP_CONTROLS_H

#include <linux/v4l2-controls.h>

#define V4L2_CID_N900_ISP_BASE		(V4L2_CID_USER_BASE + 0x10e0)

/* white balance: per-channel gains, U8Q5 */
#define V4L2_CID_N900_WB_GAIN_GR	(V4L2_CID_N900_ISP_BASE + 0)
#define V4L2_CID_N900_WB_GAIN_R		(V4L2_CID_N900_ISP_BASE + 1)
#define V4L2_CID_N900_WB_GAIN_B		(V4L2_CID_N900_ISP_BASE + 2)
#define V4L2_CID_N900_WB_GAIN_GB	(V4L2_CID_N900_ISP_BASE + 3)
/* lens shading: on/off, and the strength of the gain grid, Q8 */
#define V4L2_CID_N900_LSC_ENABLE	(V4L2_CID_N900_ISP_BASE + 4)
#define V4L2_CID_N900_LSC_STRENGTH	(V4L2_CID_N900_ISP_BASE + 5)
/* CCDC: black level subtracted from 10-bit raw data */
#define V4L2_CID_N900_CCDC_BLACK_LEVEL	(V4L2_CID_N900_ISP_BASE + 6)
/*
 * sensors: free running, a frame as soon as the ISP has rendered the
 * previous one, whatever the blanking (benchmarks)
 */
#define V4L2_CID_N900_SENSOR_FREE_RUN	(V4L2_CID_N900_ISP_BASE + 7)
/*
 * sensors, the "Image" test pattern (n900_scene.h, README: Frames): the
 * scene file (a menu of the files the device tree names), the
 * illuminant's colour temperature in kelvin (6500: neutral), shot and
 * read noise on or off, and the noise generator's seed (a frame's noise is
 * a function of the seed, the buffer's sequence number and the position)
 */
#define V4L2_CID_N900_SENSOR_SCENE	(V4L2_CID_N900_ISP_BASE + 8)
#define V4L2_CID_N900_SENSOR_ILLUMINANT	(V4L2_CID_N900_ISP_BASE + 9)
#define V4L2_CID_N900_SENSOR_NOISE	(V4L2_CID_N900_ISP_BASE + 10)
#define V4L2_CID_N900_SENSOR_NOISE_SEED	(V4L2_CID_N900_ISP_BASE + 11)

#endif /* N900_ISP_CONTROLS_H */
