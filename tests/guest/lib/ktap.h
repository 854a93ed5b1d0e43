/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ktap.h - KTAP output for the guest test programs (the C files of
 * tests/guest/), the C side of tests/guest/lib/ktap.sh. build.sh compiles
 * them with -I tests/guest/lib.
 *
 *	ktap_plan(2);
 *	ktap_diag("%u entities", n);
 *	failed += !ktap_result(ok, "controls: %s", entity);
 *	ktap_skip("no_splat", "/dev/kmsg: %s", strerror(err));
 *
 * Results are numbered in order from 1, or from the number given to
 * ktap_first() by a program that continues its caller's document. The
 * harness (tests/host/harness.sh) compares results by name across runs:
 * a result's name is its identity. A name may end in " # COMMENT", KTAP's
 * diagnostic on the result line itself.
 *
 * Everything goes to stdout, from one thread or process at a time.
 */
#ifndef N900_KTAP_H
#define N900_KTAP_H

#include <stdarg.h>
#include <stdio.h>

#define KTAP_PRINTF(f, a) __attribute__((format(printf, f, a)))

/* the number of the last result printed */
static inline unsigned int *ktap_count(void)
{
	static unsigned int n;

	return &n;
}

/* ktap_plan - the document's header, for @n results */
static inline void ktap_plan(unsigned int n)
{
	*ktap_count() = 0;
	printf("KTAP version 1\n1..%u\n", n);
}

/* ktap_first - the next result is number @n (no header: the caller's) */
static inline void ktap_first(unsigned int n)
{
	*ktap_count() = n - 1;
}

/* ktap_diag - one diagnostic line, "# " and @fmt */
KTAP_PRINTF(1, 2)
static inline void ktap_diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/*
 * ktap_result - the next result, "ok" when @ok is non-zero, named by @fmt;
 * returns 1 when it passed, 0 when it failed
 */
KTAP_PRINTF(2, 3)
static inline int ktap_result(int ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s %u ", ok ? "ok" : "not ok", ++*ktap_count());
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	return !!ok;
}

/* ktap_skip - the next result, @name, skipped for the reason @fmt */
KTAP_PRINTF(2, 3)
static inline void ktap_skip(const char *name, const char *fmt, ...)
{
	va_list ap;

	printf("ok %u %s # SKIP ", ++*ktap_count(), name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

#endif /* N900_KTAP_H */
