// SPDX-License-Identifier: GPL-2.0
/*
 * probe-nomem DTBO: the ISP's probe with each of its slab allocations
 * failing in turn. DTBO is a test overlay adding a second ISP without
 * blocks, /isp-under-test, whose probe registers its media device itself
 * (the model is the node's label); it is applied through
 * drivers/test/n900_overlay.c (as dt-malformed.sh does), then the ISP is
 * unbound and bound again from sysfs, once for each allocation of its
 * probe (which runs in this thread: /proc/thread-self/fail-nth,
 * CONFIG_FAILSLAB, the debug kernel), and the overlay is removed. KTAP:
 *
 *   1 probe_nomem   a bind that fails leaves no media device of the ISP
 *                   registered (nor its node and debugfs files over a
 *                   freed ISP), a bind that succeeds does; after the last
 *                   case the ISP binds and registers again
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

#define OVERLAY		"/sys/kernel/debug/n900-overlay/"
#define ISP_NAME	"isp-under-test"
#define ISP_DEV		"/sys/bus/platform/devices/" ISP_NAME
#define ISP_DRV		"/sys/bus/platform/drivers/n900-isp/"
#define LIVE_LABEL	"/sys/firmware/devicetree/base/" ISP_NAME "/label"
#define MAX_CALLS	2000	/* allocations of one probe, at most */

/* the ISP's label in the live tree: its media device's model */
static char label[64];

static int bound(void)
{
	return !access(ISP_DEV "/driver", F_OK);
}

/* the media device whose model is LABEL, into @name ("media1"), or 0 */
static int registered(char *name, size_t len)
{
	DIR *d = opendir("/sys/bus/media/devices");
	struct dirent *e;
	int found = 0;

	while (d && !found && (e = readdir(d))) {
		char path[300], model[64] = "";

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/bus/media/devices/%s/model",
			 e->d_name);
		read_str(path, model, sizeof(model));
		if (!strcmp(model, label)) {
			snprintf(name, len, "%s", e->d_name);
			found = 1;
		}
	}
	if (d)
		closedir(d);
	return found;
}

/* apply the overlay in @path; 0 once its media device is registered */
static int apply(const char *path)
{
	char buf[65536], name[256];
	int in = open(path, O_RDONLY), out, i;
	ssize_t n;

	if (in < 0)
		return -1;
	n = read(in, buf, sizeof(buf));
	close(in);
	out = open(OVERLAY "apply", O_WRONLY);
	if (n <= 0 || out < 0 || write(out, buf, n) != n) {
		if (out >= 0)
			close(out);
		return -1;
	}
	close(out);
	read_str(LIVE_LABEL, label, sizeof(label));
	if (!label[0])
		return -1;
	for (i = 0; i < 100 && !registered(name, sizeof(name)); i++)
		usleep(100000);
	return registered(name, sizeof(name)) ? 0 : -1;
}

/* bind the ISP with the @nth allocation failing (0: none); its errno */
static int bind_failing(unsigned int nth, int *hit)
{
	return write_failing(ISP_DRV "bind", ISP_NAME, nth, hit);
}

/* each allocation of the probe failing in turn: 1 when nothing was left */
static int each_allocation(void)
{
	unsigned int n, refused = 0, left = 0;
	char name[256];
	int err, hit = 0;

	for (n = 1; n <= MAX_CALLS; n++) {
		if (bound() && write_str(ISP_DRV "unbind", ISP_NAME)) {
			ktap_diag("allocation %u: cannot unbind %s", n, ISP_NAME);
			return 0;
		}
		err = bind_failing(n, &hit);
		if (!bound() && registered(name, sizeof(name))) {
			if (++left <= 3)
				ktap_diag("allocation %u failing: the probe failed (%s), but %s (\"%s\") is still registered",
					  n, strerror(err), name, label);
			/* a freed ISP's node: nothing more is safe to do */
			return 0;
		}
		if (bound() && !registered(name, sizeof(name))) {
			ktap_diag("allocation %u failing: bound, but no media device \"%s\"",
				  n, label);
			return 0;
		}
		refused += !bound();
		if (!hit)
			break;
	}
	ktap_diag("%u slab allocations of the probe, each failed in turn: %u binds refused",
		  n - 1, refused);
	if (bound())
		write_str(ISP_DRV "unbind", ISP_NAME);
	err = bind_failing(0, &hit);
	if (!bound() || !registered(name, sizeof(name))) {
		ktap_diag("then without a failure: %s, %s", bound() ? "bound" : "not bound",
			  strerror(err));
		return 0;
	}
	return n > 1 && n <= MAX_CALLS;
}

int main(int argc, char **argv)
{
	int kmsg, kmsg_err, ok, loaded = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	ktap_plan(2);
	if (argc != 2) {
		ktap_diag("usage: probe-nomem DTBO");
		ktap_result(0, "probe_nomem");
		ktap_result(0, "no_splat");
		return 1;
	}
	if (access(OVERLAY "apply", W_OK)) {
		if (system("modprobe n900-overlay")) {
			ktap_diag("cannot load n900-overlay (needs a kernel with CONFIG_OF_OVERLAY)");
			ktap_result(0, "probe_nomem");
			ktap_result(0, "no_splat");
			return 1;
		}
		loaded = 1;
	}
	if (failslab_setup()) {
		ktap_diag("no fail-nth or failslab: a kernel without CONFIG_FAILSLAB and CONFIG_FAULT_INJECTION_DEBUG_FS checks nothing here");
		ktap_result(0, "probe_nomem");
		ktap_result(0, "no_splat");
		return 1;
	}
	kmsg = kmsg_open();
	kmsg_err = errno;
	if (apply(argv[1])) {
		ktap_diag("%s: not applied, or no media device \"%s\" from it",
			  argv[1], label);
		ok = 0;
	} else {
		ok = each_allocation();
	}
	ktap_result(ok, "probe_nomem");
	if (write_str(OVERLAY "remove", "1"))
		ktap_diag("the overlay could not be removed: %s", strerror(errno));
	if (loaded && system("modprobe -r n900-overlay"))
		ktap_diag("cannot unload n900-overlay");
	if (kmsg < 0)
		ktap_skip("no_splat", "/dev/kmsg: %s", strerror(kmsg_err));
	else
		ktap_result(!splats_since(kmsg), "no_splat");
	return 0;
}
