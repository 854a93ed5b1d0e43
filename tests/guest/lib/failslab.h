/* SPDX-License-Identifier: GPL-2.0 */
/*
 * failslab.h - the Nth slab allocation of this thread failing, for the
 * guest test programs that fail each allocation of a call in turn
 * (CONFIG_FAILSLAB and CONFIG_FAULT_INJECTION_DEBUG_FS, in the debug
 * kernel):
 *
 *	if (failslab_setup())		// quiet failures; put back at exit
 *		...			// this kernel cannot
 *	fd = open(...);			// what the call needs, beforehand
 *	fail_nth(n);			// the n-th allocation from now fails
 *	ret = call(fd);
 *	hit = failed_yet();		// did it? (and disarm)
 *
 * or, for a write to a sysfs file: write_failing(path, val, n, &hit).
 */
#ifndef N900_FAILSLAB_H
#define N900_FAILSLAB_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FAILSLAB	"/sys/kernel/debug/failslab/"

static char failslab_old_wait[8] = "Y", failslab_old_verbose[8] = "2";

static inline int write_str(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY), ret;

	if (fd < 0)
		return -1;
	ret = write(fd, val, strlen(val)) == (ssize_t)strlen(val) ? 0 : -1;
	close(fd);
	return ret;
}

static inline void read_str(const char *path, char *val, size_t len)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return;
	n = read(fd, val, len - 1);
	close(fd);
	if (n > 0)
		val[strcspn(val, "\n")] = 0;
}

/* the failslab knobs as they were before the test */
static inline void failslab_restore(void)
{
	write_str(FAILSLAB "ignore-gfp-wait", failslab_old_wait);
	write_str(FAILSLAB "verbose", failslab_old_verbose);
}

/*
 * Sleeping allocations may fail too, and quietly (the failures are
 * expected: no message, no stack dump); both put back at exit. -1 when
 * this kernel has no fail-nth or failslab.
 */
static inline int failslab_setup(void)
{
	read_str(FAILSLAB "ignore-gfp-wait", failslab_old_wait,
		 sizeof(failslab_old_wait));
	read_str(FAILSLAB "verbose", failslab_old_verbose,
		 sizeof(failslab_old_verbose));
	atexit(failslab_restore);
	if (access("/proc/thread-self/fail-nth", W_OK) ||
	    write_str(FAILSLAB "ignore-gfp-wait", "N"))
		return -1;
	write_str(FAILSLAB "verbose", "0");
	return 0;
}

/* fail the @n-th allocation of this thread from now on (0: none) */
static inline int fail_nth(unsigned int n)
{
	char val[16];

	snprintf(val, sizeof(val), "%u", n);
	return write_str("/proc/thread-self/fail-nth", val);
}

/* whether the failure armed by fail_nth() has happened; disarms it */
static inline int failed_yet(void)
{
	char val[16] = "";
	int fd = open("/proc/thread-self/fail-nth", O_RDONLY);
	ssize_t n;

	/*
	 * The open allocates too: if it failed, the armed failure was still
	 * pending after the call, and the open has spent it.
	 */
	if (fd < 0)
		return 0;
	n = read(fd, val, sizeof(val) - 1);
	close(fd);
	fail_nth(0);
	return n > 0 && atoi(val) == 0;
}

/*
 * Write @val to the sysfs file @path (a driver's "bind", say) with the
 * @nth slab allocation of the write failing (0: none; the file is opened
 * first); *@hit says whether that allocation came. Returns 0 or an errno.
 */
static inline int write_failing(const char *path, const char *val,
				unsigned int nth, int *hit)
{
	int fd = open(path, O_WRONLY), err = 0;

	*hit = 0;
	if (fd < 0)
		return errno;
	if (nth && fail_nth(nth)) {
		err = errno;
		close(fd);
		return err;
	}
	if (write(fd, val, strlen(val)) < 0)
		err = errno;
	*hit = nth && failed_yet();
	close(fd);
	return err;
}

#endif
