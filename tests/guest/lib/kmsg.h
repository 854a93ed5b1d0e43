/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmsg.h - kernel splats, from /dev/kmsg, for the guest test programs that
 * check for them themselves (the harness checks the whole console too):
 *
 *	int fd = kmsg_open();		// at the start of what is checked
 *	...
 *	if (splats_since(fd))		// prints the first ones (ktap_diag)
 */
#ifndef N900_KMSG_H
#define N900_KMSG_H

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "ktap.h"

static const char *const splats[] = {
	"BUG:", "WARNING:", "Oops", "Unable to handle", "KASAN", "UBSAN",
	"possible circular", "inconsistent lock", "kernel BUG",
	"Internal error:",
	/* hung tasks and RCU stalls: the harness's kinds too */
	"blocked for more than", "detected stall", "expedited stall",
	/* a checker switched off finds nothing more */
	"Kernel memory leak detector disabled", "ODEBUG: Out of memory",
};

/* /dev/kmsg at its end (what is logged from now on), or -1 and errno */
static inline int kmsg_open(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);

	if (fd >= 0)
		lseek(fd, 0, SEEK_END);
	return fd;
}

/* read the records logged since @fd was opened; print the first splats */
static inline unsigned int splats_since(int fd)
{
	char rec[2048], *msg;
	unsigned int found = 0, shown = 0, ctx = 0, i;
	ssize_t n;

	for (;;) {
		n = read(fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)
			continue;	/* overwritten records: go on */
		if (n <= 0)
			break;
		rec[n] = 0;
		msg = strchr(rec, ';');
		if (!msg)
			continue;
		msg++;
		msg[strcspn(msg, "\n")] = 0;
		for (i = 0; i < sizeof(splats) / sizeof(splats[0]); i++)
			if (strstr(msg, splats[i]))
				break;
		if (i < sizeof(splats) / sizeof(splats[0]) && !ctx) {
			found++;
			if (found <= 3)
				ctx = 3;
		}
		if (ctx && shown < 8) {
			ktap_diag("splat: %s", msg);
			shown++;
		}
		if (ctx)
			ctx--;
	}
	return found;
}

#endif
