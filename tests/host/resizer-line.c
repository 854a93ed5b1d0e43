// SPDX-License-Identifier: GPL-2.0
/*
 * resizer-line.c: pix_resizer_line() (drivers/isp/isp_pixel.c), as the
 * driver and the host model call it, gives, byte for byte, the scaling
 * that struct pix_resizer documents, computed here one byte at a time:
 * the two input lines blended by the output line's fraction, then each
 * output luma from the two input lumas around its position and each
 * pair's U and V from the two input pairs around its position on the
 * half-width grid (the last input pixel or pair repeated at the right
 * edge). Over random lines, YUYV and UYVY, input widths (even) from 2 to
 * PIX_MAX_WIDTH and output widths (even and odd) from a quarter of them
 * to four times (the resizer's range); and nothing written past the
 * output line. The lines end at an unmapped page, so a loop that reads
 * past them crashes the test. On the host with the C loops (tests/host/
 * pixel-test.sh resizer-line), which the host model runs; built for
 * armhf and run under qemu-arm (pixel-test.sh --neon) with the NEON
 * loops the driver runs (pix_resizer_vblend_neon(),
 * pix_resizer_hpairs_neon()), which must have done most of each line.
 * KTAP on stdout.
 */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "isp_pixel.h"
#include "chain-case.h"

#ifdef __ARM_NEON
#include "isp_pixel_neon.h"

/* the bytes and output columns the NEON loops did, of how many */
static unsigned long vblend_done, vblend_all, hpairs_done, hpairs_all;

static unsigned int vblend(const u8 *in0, const u8 *in1, u8 *tmp,
			   unsigned int n, unsigned int f)
{
	unsigned int done = pix_resizer_vblend_neon(in0, in1, tmp, n, f);

	vblend_done += done;
	vblend_all += n;
	return done;
}

static unsigned int hpairs(const u8 *tmp, u8 *out, unsigned int end,
			   unsigned int hstep, unsigned int half,
			   unsigned int uyvy)
{
	unsigned int done = pix_resizer_hpairs_neon(tmp, out, end, hstep,
						    half, uyvy);

	hpairs_done += done;
	hpairs_all += end;
	return done;
}

static const struct pix_resizer_fast fast = {
	.vblend = vblend,
	.hpairs = hpairs,
};

#define FAST	(&fast)
#define TESTS	2
#else
#define FAST	NULL
#define TESTS	1
#endif

#define CASES	4000
#define LINE	(2 * PIX_MAX_WIDTH)

static u8 want[4 * LINE], got[4 * LINE + 64];

/*
 * A buffer of @size bytes ending at an unmapped page; NULL if the mapping
 * fails
 */
static u8 *guarded(size_t size)
{
	size_t page = sysconf(_SC_PAGESIZE);
	size_t len = (size + page - 1) / page * page;
	u8 *m = mmap(NULL, len + page, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED || mprotect(m + len, page, PROT_NONE))
		return NULL;
	return m + len - size;
}

static u32 mix(u32 a, u32 b, u32 f)
{
	return (a * (256 - f) + b * f) / 256;
}

/* output line @y of @r from input lines @in0 and @in1, byte by byte */
static void reference(const struct pix_resizer *r, unsigned int y,
		      const u8 *in0, const u8 *in1, unsigned int uyvy)
{
	unsigned int ly = uyvy ? 1 : 0, lc = uyvy ? 0 : 1, half = r->in_w / 2;
	u32 fy = (u32)((u64)y * r->vstep >> 8) & 0xff;
	static u8 v[LINE];
	unsigned int i, x;

	for (i = 0; i < 2 * r->in_w; i++)
		v[i] = mix(in0[i], in1[i], fy);
	for (x = 0; x < r->out_w; x++) {
		u32 pos = x * r->hstep, ix = pos >> 16;
		u32 next = ix + 1 < r->in_w ? ix + 1 : ix;

		want[2 * x + ly] = mix(v[2 * ix + ly], v[2 * next + ly],
				       (pos >> 8) & 0xff);
		if ((x & 1) || x + 1 == r->out_w)
			continue;
		/* the pair's U and V, on the half-width grid */
		pos = x / 2 * r->hstep;
		ix = pos >> 16;
		next = ix + 1 < half ? ix + 1 : ix;
		for (i = 0; i < 2; i++)
			want[2 * x + lc + 2 * i] =
				mix(v[4 * ix + lc + 2 * i],
				    v[4 * next + lc + 2 * i], (pos >> 8) & 0xff);
	}
}

/* one case of input width @in_w: whether the output is the reference's */
static bool one(unsigned int in_w, u8 *in0, u8 *in1, u8 *tmp)
{
	unsigned int lo = (in_w + 3) / 4, hi = 4 * in_w, i, y;
	struct pix_resizer r = {
		.in_w = in_w,
		.in_h = 2 + next(2000),
	};
	unsigned int uyvy = next(2);
	u8 *a, *b, *t;

	if (hi > 2 * PIX_MAX_WIDTH)
		hi = 2 * PIX_MAX_WIDTH;
	r.out_w = lo + next(hi - lo + 1);
	r.out_h = (r.in_h + 3) / 4 + next(4 * r.in_h - (r.in_h + 3) / 4);
	pix_resizer_prepare(&r);
	y = next(r.out_h);
	/* the lines and the blend's room end at the unmapped page */
	a = in0 + LINE - 2 * in_w;
	b = in1 + LINE - 2 * in_w;
	t = tmp + LINE - 2 * in_w;
	for (i = 0; i < 2 * in_w; i++) {
		a[i] = next(256);
		b[i] = next(256);
	}
	memset(want, 0xa5, sizeof(want));
	memset(got, 0xa5, sizeof(got));
	reference(&r, y, a, b, uyvy);
	pix_resizer_line(&r, y, a, b, got, t, uyvy, FAST);
	return !memcmp(want, got, sizeof(want)) &&
	       got[sizeof(want)] == 0xa5;
}

int main(void)
{
	u8 *in0 = guarded(LINE), *in1 = guarded(LINE), *tmp = guarded(LINE);
	unsigned int n, bad = 0, first = 0;

	printf("KTAP version 1\n1..%u\n", TESTS);
	if (!in0 || !in1 || !tmp) {
		printf("not ok 1 resizer_line # no guarded buffers\n");
		return 1;
	}
	for (n = 0; n < CASES; n++) {
		unsigned int in_w = 2 + 2 * next(PIX_MAX_WIDTH / 2);

		if (!one(in_w, in0, in1, tmp) && !bad++)
			first = in_w;
	}
	printf("%sok 1 resizer_line # %u of %u lines differ from the reference\n",
	       bad ? "not " : "", bad, CASES);
	if (bad)
		printf("# first at input width %u\n", first);
#ifdef __ARM_NEON
	/*
	 * a test that the NEON loops did most of the work: else the one
	 * above proves nothing about them
	 */
	if (vblend_done * 10 < vblend_all * 9 ||
	    hpairs_done * 10 < hpairs_all * 9)
		bad++;
	printf("%sok 2 neon_ran # the vertical blend did %lu of %lu bytes, the horizontal pass %lu of %lu output columns\n",
	       vblend_done * 10 < vblend_all * 9 ||
	       hpairs_done * 10 < hpairs_all * 9 ? "not " : "",
	       vblend_done, vblend_all, hpairs_done, hpairs_all);
#endif
	return !!bad;
}
