// SPDX-License-Identifier: GPL-2.0
/*
 * uapi-layout.c - the layout of the statistics buffers that userspace reads
 * (drivers/include/uapi/n900_isp_stats.h), the same on every ABI.
 *
 * tests/host/uapi-layout.sh compiles this file for armhf, arm64 and the
 * host: a compile error names the field whose size or offset moved. The
 * numbers are the documented layout, written by hand: every field is a
 * __u32, in declaration order, with no padding.
 */
#include <stddef.h>

#include "n900_isp_stats.h"

#define U32 4

_Static_assert(offsetof(struct n900_isp_aewb, frame_width) == 0, "aewb.frame_width");
_Static_assert(offsetof(struct n900_isp_aewb, frame_height) == 1 * U32, "aewb.frame_height");
_Static_assert(offsetof(struct n900_isp_aewb, win_width) == 2 * U32, "aewb.win_width");
_Static_assert(offsetof(struct n900_isp_aewb, win_height) == 3 * U32, "aewb.win_height");
_Static_assert(offsetof(struct n900_isp_aewb, sum) == 4 * U32, "aewb.sum");
_Static_assert(sizeof(struct n900_isp_aewb) == (4 + 8 * 8 * 4) * U32, "aewb size");

_Static_assert(offsetof(struct n900_isp_af, frame_width) == 0, "af.frame_width");
_Static_assert(offsetof(struct n900_isp_af, frame_height) == 1 * U32, "af.frame_height");
_Static_assert(offsetof(struct n900_isp_af, win_width) == 2 * U32, "af.win_width");
_Static_assert(offsetof(struct n900_isp_af, win_height) == 3 * U32, "af.win_height");
_Static_assert(offsetof(struct n900_isp_af, focus) == 4 * U32, "af.focus");
_Static_assert(offsetof(struct n900_isp_af, total) == (4 + 4 * 4) * U32, "af.total");
_Static_assert(sizeof(struct n900_isp_af) == (4 + 4 * 4 + 1) * U32, "af size");

_Static_assert(offsetof(struct n900_isp_hist, frame_width) == 0, "hist.frame_width");
_Static_assert(offsetof(struct n900_isp_hist, frame_height) == 1 * U32, "hist.frame_height");
_Static_assert(offsetof(struct n900_isp_hist, bins) == 2 * U32, "hist.bins");
_Static_assert(sizeof(struct n900_isp_hist) == (2 + 4 * 64) * U32, "hist size");

/* the grid sizes the layout above was written for */
_Static_assert(N900_AEWB_WIN_H == 8 && N900_AEWB_WIN_V == 8, "AEWB grid");
_Static_assert(N900_AF_WIN_H == 4 && N900_AF_WIN_V == 4, "AF grid");
_Static_assert(N900_HIST_BINS == 64, "histogram bins");

int main(void)
{
	return 0;
}
