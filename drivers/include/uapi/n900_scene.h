/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * n900_scene.h - the scene files the emulated sensors render (their
 * "Image" test pattern); userspace may include this header
 *
 * A scene is a picture in linear light, loaded by the sensor with
 * request_firmware() from /lib/firmware (the sensor's device tree property
 * n900emu,scene names the files; its Scene control picks one). A file is
 * a struct n900_scene_header, then @width x @height pixels of @channels
 * little-endian unsigned samples of @bits bits each (R, G, B), row by
 * row from the top left:
 *
 *   offset  size  field
 *        0     4  magic, "N9SC"
 *        4     2  version, 1
 *        6     2  header_size, 32: the samples start there
 *        8     2  width (2..4096), pixels
 *       10     2  height (2..4096), pixels
 *       12     2  bits per sample, 16
 *       14     2  channels, 3 (R, G, B)
 *       16     2  focus: the lens position (0..1023) at which it is sharp
 *       18     8  grey_x, grey_y, grey_w, grey_h: a neutral grey patch,
 *                 in scene pixels (grey_w = 0: none), for AWB tests
 *       26     6  reserved, zero
 *
 * A sample is the fraction of the pixel's full well that the light of that
 * point fills at the sensor's default exposure under the neutral (6500 K)
 * illuminant: 65535 fills it exactly. The sensor scales the scene to its
 * mode's size (bilinear), so a 648x492 scene serves every mode.
 */
#ifndef N900_SCENE_H
#define N900_SCENE_H

#include <linux/types.h>

#define N900_SCENE_MAGIC	0x4353394eU	/* "N9SC", little-endian */
#define N900_SCENE_VERSION	1
#define N900_SCENE_BITS		16
#define N900_SCENE_CHANNELS	3
#define N900_SCENE_MAX_SIZE	4096

/**
 * struct n900_scene_header - the header of a scene file (little-endian)
 * @magic: N900_SCENE_MAGIC
 * @version: N900_SCENE_VERSION
 * @header_size: bytes before the samples, sizeof(struct n900_scene_header)
 * @width: pixels per row
 * @height: rows
 * @bits: bits per sample, N900_SCENE_BITS
 * @channels: samples per pixel, N900_SCENE_CHANNELS (R, G, B)
 * @focus: the lens position (ad5820, 0..1023) at which the scene is sharp
 * @grey_x: left of a neutral grey patch, in scene pixels
 * @grey_y: top of the patch
 * @grey_w: width of the patch; 0 when the scene names none
 * @grey_h: height of the patch
 * @reserved: zero
 */
struct n900_scene_header {
	__u32 magic;
	__u16 version;
	__u16 header_size;
	__u16 width;
	__u16 height;
	__u16 bits;
	__u16 channels;
	__u16 focus;
	__u16 grey_x;
	__u16 grey_y;
	__u16 grey_w;
	__u16 grey_h;
	__u16 reserved[3];
};

#endif /* N900_SCENE_H */
