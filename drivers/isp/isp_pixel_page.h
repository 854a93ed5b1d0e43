/* SPDX-License-Identifier: GPL-2.0 */
/*
 * isp_pixel_page.h - a page of its own for a per-pixel loop
 *
 * QEMU's TCG jumps from one translated block straight to the next only
 * when the target lies in the same 4 KiB guest page as the block's start;
 * any other jump looks its target up in a hash table. A loop whose body
 * straddles a page boundary pays that lookup on every pass, and where the
 * boundaries fall depends only on how the module happens to be laid out.
 *
 * PIX_OWN_PAGE places a function that holds a per-pixel loop of the
 * streaming path at the start of a page; a static one is also noinline,
 * else its callers take its code in and the alignment is lost. Each such
 * function is smaller than a page (drivers/build.sh checks the release
 * module, and that none was inlined), so none of its loops can straddle
 * one. The module loader keeps the alignment (the module's text starts
 * on a page). The cost is the padding: about 20 KiB of module text.
 */
#ifndef ISP_PIXEL_PAGE_H
#define ISP_PIXEL_PAGE_H

#define PIX_PAGE_SIZE	4096
#define PIX_OWN_PAGE	__aligned(PIX_PAGE_SIZE)

#endif /* ISP_PIXEL_PAGE_H */
