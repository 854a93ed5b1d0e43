// SPDX-License-Identifier: GPL-2.0
/*
 * memcpy-bench [BYTES]: the guest's memcpy bandwidth, the yardstick of the
 * ISP stage throughputs in ./build.sh bench. Copies a BYTES-byte buffer
 * (default 614400, one 640x480 frame of 16-bit pixels) into another for
 * about a second, after a warm-up, and prints
 *
 *   BENCH memcpy bytes=614400 copies=N MBps=X
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	size_t bytes = argc > 1 ? strtoul(argv[1], NULL, 0) : 614400;
	unsigned long copies = 0;
	char *src = malloc(bytes), *dst = malloc(bytes);
	double t0, t;

	if (!src || !dst || !bytes) {
		fprintf(stderr, "memcpy-bench: cannot allocate %zu bytes\n", bytes);
		return 1;
	}
	memset(src, 0x5a, bytes);
	memcpy(dst, src, bytes);	/* warm-up: fault the pages in */
	t0 = now();
	do {
		memcpy(dst, src, bytes);
		/* keep the copy from being optimised away */
		src[copies % bytes] = dst[(copies * 7) % bytes] + 1;
		copies++;
		t = now();
	} while (t - t0 < 1.0);
	printf("BENCH memcpy bytes=%zu copies=%lu MBps=%.1f\n", bytes, copies,
	       (double)bytes * copies / (t - t0) / 1e6);
	return 0;
}
