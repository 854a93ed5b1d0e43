// SPDX-License-Identifier: GPL-2.0
/*
 * rebind-nomem COMPATIBLE DRIVER: a device that comes back to a running
 * ISP, bound with each slab allocation of its bind failing in turn. The
 * platform device whose DT node is COMPATIBLE is unbound from DRIVER, then
 * bound again from sysfs once per allocation (the bind runs in this thread:
 * /proc/thread-self/fail-nth, CONFIG_FAILSLAB, the debug kernel). Its bind
 * ends in the ISP's notifier, which registers the node of each subdevice
 * that has none (v4l2_device_register_subdev_nodes()). KTAP:
 *
 *   1 rebind_nomem  every failed bind leaves the other subdevices' nodes
 *                   as they were (the same names: no failure of the
 *                   returning device's node takes them away), a bind that
 *                   succeeds brings every node back, and so does a last
 *                   bind without a failure (also after a failed check)
 *   2 no_splat      no kernel splat since the start
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "failslab.h"
#include "kmsg.h"
#include "ktap.h"

#define PLATFORM	"/sys/bus/platform/devices/"
#define MAX_CALLS	3000	/* allocations of one bind, at most */

static char dev[256], drv[256];

/* the platform device whose DT node is compatible with @compat, into dev */
static int find_device(const char *compat)
{
	DIR *d = opendir(PLATFORM);
	struct dirent *e;
	int found = 0;

	while (d && !found && (e = readdir(d))) {
		char path[512], c[256] = "";
		int fd;
		ssize_t n;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), PLATFORM "%s/of_node/compatible",
			 e->d_name);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			continue;
		n = read(fd, c, sizeof(c) - 1);
		close(fd);
		/* the first string of the property */
		if (n > 0 && !strcmp(c, compat)) {
			snprintf(dev, sizeof(dev), "%s", e->d_name);
			found = 1;
		}
	}
	if (d)
		closedir(d);
	return found;
}

static int bound(void)
{
	char path[512];

	snprintf(path, sizeof(path), PLATFORM "%s/driver", dev);
	return !access(path, F_OK);
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* the names of the subdevice nodes there are now, sorted, in @set */
static void subdev_nodes(char *set, size_t len)
{
	DIR *d = opendir("/sys/class/video4linux");
	char *names[256];
	struct dirent *e;
	unsigned int n = 0, i;
	size_t used = 0;

	while (d && n < 256 && (e = readdir(d)))
		if (!strncmp(e->d_name, "v4l-subdev", 10))
			names[n++] = strdup(e->d_name);
	if (d)
		closedir(d);
	qsort(names, n, sizeof(names[0]), cmp_name);
	set[0] = 0;
	for (i = 0; i < n; i++) {
		if (names[i] && used < len)
			used += snprintf(set + used, len - used, "%s%s",
					 used ? " " : "", names[i]);
		free(names[i]);
	}
}

/* how many names @set has */
static unsigned int nodes(const char *set)
{
	unsigned int n = 0;

	while ((set = strstr(set, "v4l-subdev"))) {
		n++;
		set++;
	}
	return n;
}

/* bind the device with the @nth allocation failing (0: none); its errno */
static int bind_failing(unsigned int nth, int *hit)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/bind", drv);
	return write_failing(path, dev, nth, hit);
}

static int unbind(void)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/unbind", drv);
	return write_str(path, dev);
}

/*
 * Each allocation of the bind failing in turn, until three binds in a row
 * met no failure: 1 when every failed bind left the other subdevices'
 * nodes as they were, and every bind that succeeded brought all back.
 */
static int each_allocation(const char *all)
{
	static char others[4096], now[4096];
	unsigned int n, refused = 0, misses = 0;
	int err, hit;

	if (unbind()) {
		ktap_diag("cannot unbind %s from %s", dev, drv);
		return 0;
	}
	subdev_nodes(others, sizeof(others));
	ktap_diag("%s: %u subdevice nodes bound, %u with it unbound", dev,
		  nodes(all), nodes(others));
	for (n = 1; n <= MAX_CALLS && misses < 3; n++) {
		if (bound() && unbind()) {
			ktap_diag("allocation %u: cannot unbind %s", n, dev);
			return 0;
		}
		err = bind_failing(n, &hit);
		subdev_nodes(now, sizeof(now));
		if (!bound() && strcmp(now, others)) {
			ktap_diag("allocation %u failing: the bind failed (%s) with %u subdevice nodes left, not %u: %s",
				  n, strerror(err), nodes(now), nodes(others), now);
			return 0;
		}
		if (bound() && strcmp(now, all)) {
			ktap_diag("allocation %u failing: bound, with %u subdevice nodes, not %u: %s",
				  n, nodes(now), nodes(all), now);
			return 0;
		}
		refused += !bound();
		misses = hit ? 0 : misses + 1;
	}
	ktap_diag("%u slab allocations of the bind, each failed in turn: %u binds refused",
		  n - 1 - misses, refused);
	return misses == 3 && refused > 0;
}

int main(int argc, char **argv)
{
	static char all[4096], now[4096];
	int kmsg, kmsg_err, ok, err, hit;

	setvbuf(stdout, NULL, _IOLBF, 0);
	ktap_plan(2);
	if (argc != 3 || !find_device(argv[1])) {
		ktap_diag(argc != 3 ? "usage: rebind-nomem COMPATIBLE DRIVER" :
				      "no platform device compatible with %s", argv[1]);
		ktap_result(0, "rebind_nomem");
		ktap_result(0, "no_splat");
		return 1;
	}
	snprintf(drv, sizeof(drv), "/sys/bus/platform/drivers/%s", argv[2]);
	if (failslab_setup()) {
		ktap_diag("no fail-nth or failslab: a kernel without CONFIG_FAILSLAB and CONFIG_FAULT_INJECTION_DEBUG_FS checks nothing here");
		ktap_result(0, "rebind_nomem");
		ktap_result(0, "no_splat");
		return 1;
	}
	kmsg = kmsg_open();
	kmsg_err = errno;
	subdev_nodes(all, sizeof(all));
	ok = each_allocation(all);
	/* bound again without a failure, whatever happened: all back */
	if (bound())
		unbind();
	err = bind_failing(0, &hit);
	subdev_nodes(now, sizeof(now));
	if (!bound() || strcmp(now, all)) {
		ktap_diag("then without a failure: %s (%s), %u subdevice nodes, not %u: %s",
			  bound() ? "bound" : "not bound", strerror(err),
			  nodes(now), nodes(all), now);
		ok = 0;
	}
	ktap_result(ok, "rebind_nomem");
	if (kmsg < 0)
		ktap_skip("no_splat", "/dev/kmsg: %s", strerror(kmsg_err));
	else
		ktap_result(!splats_since(kmsg), "no_splat");
	return 0;
}
