// SPDX-License-Identifier: GPL-2.0
/*
 * stream-nomem [MEDIA]: STREAMON and STREAMOFF of a capture node with each
 * of their slab allocations failing in turn, through the task's
 * /proc/thread-self/fail-nth (CONFIG_FAILSLAB, the debug kernel): the Nth
 * slab allocation that the calling thread makes in its next system calls
 * fails, for N = 1, 2, ... until a call makes fewer than N. (Not the page
 * allocator's or vmalloc's, nor those of other threads; kmemleak's own
 * objects count, which falls back on its reserve pool.)
 *
 *   1 streamon_nomem   a STREAMON whose allocation failed streams, or
 *                      fails with ENOMEM and then streams when called
 *                      again; one with no allocation failed streams; and
 *                      after the node is closed, it streams again;
 *   2 streamoff_nomem  STREAMOFF cannot fail: it returns 0 and stops the
 *                      whole pipeline, which then streams again;
 *   3 power_given_back no entity of MEDIA is powered after each case's
 *                      file is closed, nor, under the "streaming" power
 *                      policy (stream-nomem-streaming.sh), after a refused
 *                      STREAMON or a STREAMOFF, the file still open; and
 *                      a stream about to be stopped is powered (the ISP's
 *                      debugfs "power" view; skipped under "autosuspend",
 *                      which keeps power for a delay);
 *   4 no_splat         the kernel logged no splat meanwhile. A subdevice
 *                      left streaming (a stop given up for want of memory)
 *                      makes the next start's s_stream() warn.
 *
 * The capture node is the first one of MEDIA (default /dev/media0) that
 * streams as it is configured. Output is KTAP.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/media.h>
#include <linux/videodev2.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "failslab.h"
#include "kmsg.h"
#include "ktap.h"
#include "media.h"

#define ISP_DEBUGFS	"/sys/kernel/debug/n900-isp/"
#define MAX_CALLS	500	/* allocations of one call, at most */

static char dev[160];
/* the ISP's "power" view of MEDIA, and its policy */
static char power_view[160];
static enum { POLICY_NONE, POLICY_PIPELINE, POLICY_STREAMING } policy;
/* power checks failed: entities powered, or the view unreadable */
static unsigned int power_failed;

/* @dev open, with two MMAP buffers queued, or -1 */
static int prepare(void)
{
	struct v4l2_requestbuffers req = {
		.count = 2, .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.memory = V4L2_MEMORY_MMAP,
	};
	unsigned int i;
	int fd;

	fd = open(dev, O_RDWR | O_NONBLOCK);
	if (fd < 0)
		return -1;
	if (ioctl(fd, VIDIOC_REQBUFS, &req) || req.count < 1)
		goto err;
	for (i = 0; i < req.count; i++) {
		struct v4l2_buffer buf = {
			.index = i, .type = req.type, .memory = req.memory,
		};

		if (ioctl(fd, VIDIOC_QBUF, &buf))
			goto err;
	}
	return fd;
err:
	close(fd);
	return -1;
}

/* dequeue and queue again @n buffers, each within 5 s */
static int frames(int fd, unsigned int n)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	while (n--) {
		struct v4l2_buffer buf = {
			.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
			.memory = V4L2_MEMORY_MMAP,
		};

		if (poll(&p, 1, 5000) != 1 || ioctl(fd, VIDIOC_DQBUF, &buf) ||
		    ioctl(fd, VIDIOC_QBUF, &buf))
			return -1;
	}
	return 0;
}

/*
 * The entities of MEDIA that are powered, or -1 when the power view cannot
 * be read; the first of them into @first. A line of the view is the
 * entity's name (which may hold spaces), then six columns: use, power
 * ("on" or "off"), transitions, time powered, active power, energy.
 */
static int powered(char *first, size_t len)
{
	char line[256], *tok[32], *save;
	FILE *f = fopen(power_view, "r");
	unsigned int t, i;
	int n = 0, err = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#' || !strncmp(line, "total_energy_uJ ", 16))
			continue;
		t = 0;
		for (tok[t] = strtok_r(line, " \t\n", &save); tok[t] && t < 31;
		     tok[t] = strtok_r(NULL, " \t\n", &save))
			t++;
		if (t < 7 || (strcmp(tok[t - 5], "on") &&
			      strcmp(tok[t - 5], "off"))) {
			err = EPROTO;	/* not a line of the view */
			break;
		}
		if (strcmp(tok[t - 5], "on"))
			continue;
		if (n++)
			continue;
		first[0] = 0;
		for (i = 0; i + 6 < t; i++)	/* the name's words */
			snprintf(first + strlen(first), len - strlen(first),
				 "%s%s", i ? " " : "", tok[i]);
	}
	if (!err && ferror(f))
		err = EIO;
	fclose(f);
	errno = err;
	return err ? -1 : n;
}

/*
 * After @what in case @n of @call: entities powered (@want_on) or none,
 * or a diagnostic (the first three).
 */
static void check_power(const char *call, unsigned int n, const char *what,
			int want_on)
{
	char first[64] = "";
	int on = powered(first, sizeof(first));

	if (on >= 0 && !on == !want_on)
		return;
	if (power_failed++ >= 3)
		return;
	if (on < 0)
		ktap_diag("%s, allocation %u failing, %s: %s: %s", call, n,
			  what, power_view, strerror(errno));
	else if (on)
		ktap_diag("%s, allocation %u failing, %s: %d entities powered (%s first)",
			  call, n, what, on, first);
	else
		ktap_diag("%s, allocation %u failing, %s: nothing powered", call,
			  n, what);
}

static int streamon(int fd)
{
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;

	return ioctl(fd, VIDIOC_STREAMON, &type);
}

static int streamoff(int fd)
{
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;

	return ioctl(fd, VIDIOC_STREAMOFF, &type);
}

/* a whole session of 3 frames: 0 when the node streams */
static int streams(void)
{
	int fd = prepare(), ret = -1;

	if (fd < 0)
		return -1;
	if (!streamon(fd) && !frames(fd, 3) && !streamoff(fd))
		ret = 0;
	close(fd);
	return ret;
}

/* the first capture node of @media that streams, into dev */
static int find_node(const char *media)
{
	struct media_v2_topology topo = { 0 };
	struct media_v2_interface *intf;
	unsigned int i;
	int mfd, ret = -1;

	mfd = open(media, O_RDWR);
	if (mfd < 0 || ioctl(mfd, MEDIA_IOC_G_TOPOLOGY, &topo))
		goto out;
	intf = calloc(topo.num_interfaces + 1, sizeof(*intf));
	if (!intf)
		goto out;
	topo.ptr_interfaces = (uintptr_t)intf;
	if (ioctl(mfd, MEDIA_IOC_G_TOPOLOGY, &topo))
		goto out_free;
	for (i = 0; i < topo.num_interfaces && ret; i++) {
		struct v4l2_capability cap;
		int fd;

		if (intf[i].intf_type != MEDIA_INTF_T_V4L_VIDEO ||
		    devname(intf[i].devnode.major, intf[i].devnode.minor,
			    dev, sizeof(dev)))
			continue;
		fd = open(dev, O_RDWR);
		if (fd < 0)
			continue;
		if (!ioctl(fd, VIDIOC_QUERYCAP, &cap) &&
		    (cap.device_caps & V4L2_CAP_VIDEO_CAPTURE)) {
			close(fd);
			ret = streams();
		} else {
			close(fd);
		}
	}
out_free:
	free(intf);
out:
	if (mfd >= 0)
		close(mfd);
	return ret;
}

/*
 * Fail each allocation of STREAMON (@off false) or STREAMOFF (@off true)
 * in turn. 1 when every case ended as the top says.
 */
static int each_allocation(int off)
{
	const char *call = off ? "STREAMOFF" : "STREAMON";
	unsigned int n, refused = 0, went_on = 0;
	int fd, ret, err, hit, ok = 1;

	for (n = 1; n <= MAX_CALLS; n++) {
		fd = prepare();
		if (fd < 0 || (off && (streamon(fd) || frames(fd, 1)))) {
			ktap_diag("%s: %s: cannot stream before the call: %s",
				  call, dev, strerror(errno));
			if (fd >= 0)
				close(fd);
			return 0;
		}
		if (fail_nth(n)) {
			ktap_diag("fail-nth: %s", strerror(errno));
			close(fd);
			return 0;
		}
		/* the control: what streams is powered, under either policy */
		if (off && n == 1 && policy != POLICY_NONE)
			check_power(call, n, "streaming before the call", 1);
		ret = off ? streamoff(fd) : streamon(fd);
		err = errno;
		hit = failed_yet();
		if (ret && off) {
			ktap_diag("STREAMOFF, allocation %u failing: %s", n,
				  strerror(err));
			ok = 0;
		} else if (ret && (!hit || err != ENOMEM)) {
			ktap_diag("STREAMON, allocation %u %s: %s", n,
				  hit ? "failing" : "(none failed)",
				  strerror(err));
			ok = 0;
		} else if (ret) {
			refused++;
			if (refused <= 3)
				ktap_diag("STREAMON, allocation %u failing: %s",
					  n, strerror(err));
			if (policy == POLICY_STREAMING)
				check_power(call, n, "refused", 0);
			/* nothing left behind that the same file would see */
			if (streamon(fd) || frames(fd, 1) || streamoff(fd)) {
				ktap_diag("STREAMON, allocation %u failing: refused, then does not stream on the same file: %s",
					  n, strerror(errno));
				ok = 0;
			}
		} else if (!off && hit) {
			went_on++;
			if (frames(fd, 1)) {
				ktap_diag("STREAMON, allocation %u failing: started, but no frame",
					  n);
				ok = 0;
			}
		}
		if (off && !ret && policy == POLICY_STREAMING)
			check_power(call, n, "stopped", 0);
		close(fd);
		if (policy != POLICY_NONE)
			check_power(call, n, "closed", 0);
		if (streams()) {
			ktap_diag("%s, allocation %u failing: %s streams no more",
				  call, n, dev);
			return 0;
		}
		if (!hit)
			break;
	}
	ktap_diag("%s: %u slab allocations (kmemleak's own among them), each failed in turn: %u refused, %u started anyway",
		  call, n - 1, refused, went_on);
	if (n == 1) {
		ktap_diag("%s made no allocation that could fail: this checked nothing",
			  call);
		ok = off;	/* STREAMOFF need not allocate */
	}
	return ok && n <= MAX_CALLS;
}

int main(int argc, char **argv)
{
	const char *media = argc > 1 ? argv[1] : "/dev/media0";
	char policy_line[64] = "";
	int kmsg, kmsg_err;
	struct stat st;
	FILE *f;

	setvbuf(stdout, NULL, _IOLBF, 0);
	ktap_plan(4);
	/* the debug kernel, which ./build.sh test runs, has them */
	if (failslab_setup()) {
		ktap_diag("no fail-nth or failslab: a kernel without CONFIG_FAILSLAB and CONFIG_FAULT_INJECTION_DEBUG_FS checks nothing here");
		ktap_result(0, "streamon_nomem");
		ktap_result(0, "streamoff_nomem");
		ktap_result(0, "power_given_back");
		ktap_result(0, "no_splat");
		return 1;
	}
	if (find_node(media)) {
		ktap_diag("%s: no capture node streams as configured", media);
		ktap_result(0, "streamon_nomem");
		ktap_result(0, "streamoff_nomem");
		ktap_result(0, "power_given_back");
		ktap_result(0, "no_splat");
		return 1;
	}
	/* the view's directory is named after the media device (media<minor>) */
	if (!stat(media, &st))
		snprintf(power_view, sizeof(power_view),
			 ISP_DEBUGFS "media%u/power", minor(st.st_rdev));
	f = fopen(power_view, "r");
	if (f) {
		if (!fgets(policy_line, sizeof(policy_line), f))
			policy_line[0] = 0;
		fclose(f);
	}
	policy_line[strcspn(policy_line, "\n")] = 0;
	if (!strcmp(policy_line, "# policy: pipeline"))
		policy = POLICY_PIPELINE;
	else if (!strcmp(policy_line, "# policy: streaming"))
		policy = POLICY_STREAMING;
	ktap_diag("%s streams; %s", dev,
		  policy_line[0] ? policy_line + 2 : "no power view");
	kmsg = kmsg_open();
	kmsg_err = errno;
	ktap_result(each_allocation(0), "streamon_nomem");
	ktap_result(each_allocation(1), "streamoff_nomem");
	if (policy == POLICY_NONE && policy_line[0]) {
		/* power is held for the delay after the last user */
		ktap_skip("power_given_back", "%s: power not checked",
			  policy_line + 2);
	} else if (policy == POLICY_NONE) {
		ktap_diag("no power view at %s", power_view);
		ktap_result(0, "power_given_back");
	} else {
		ktap_result(!power_failed, "power_given_back");
	}
	if (power_failed)
		ktap_diag("%u power checks failed", power_failed);
	if (kmsg < 0)
		ktap_skip("no_splat", "/dev/kmsg: %s", strerror(kmsg_err));
	else
		ktap_result(!splats_since(kmsg), "no_splat");
	return 0;
}
