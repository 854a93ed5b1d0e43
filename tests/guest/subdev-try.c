// SPDX-License-Identifier: GPL-2.0
/*
 * subdev-try - the TRY state of every subdevice is left untouched by
 * ACTIVE format changes, and vice versa (V4L2 subdev state API).
 *
 * For each /dev/v4l-subdevN with pads: set a TRY format on pad 0, change
 * the ACTIVE format of pad 0 to something else, and check that the TRY
 * format read back on the same file handle is still what S_FMT(TRY)
 * returned, and the ACTIVE one what S_FMT(ACTIVE) returned. Output is KTAP.
 */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <linux/v4l2-subdev.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "ktap.h"

static int fmt(int fd, int set, __u32 which, struct v4l2_mbus_framefmt *f)
{
	struct v4l2_subdev_format sf;

	memset(&sf, 0, sizeof(sf));
	sf.which = which;
	sf.pad = 0;
	if (set)
		sf.format = *f;
	if (ioctl(fd, set ? VIDIOC_SUBDEV_S_FMT : VIDIOC_SUBDEV_G_FMT, &sf))
		return -errno;
	*f = sf.format;
	return 0;
}

static int same(const struct v4l2_mbus_framefmt *a,
		const struct v4l2_mbus_framefmt *b)
{
	return a->code == b->code && a->width == b->width &&
	       a->height == b->height;
}

static int check(const char *node, char *name, size_t len)
{
	struct v4l2_mbus_framefmt active, try, req, got;
	char path[300];
	FILE *fp;
	int fd, ok = 0;

	snprintf(path, sizeof(path), "/sys/class/video4linux/%s/name", node);
	fp = fopen(path, "r");
	if (!fp || !fgets(name, len, fp))
		snprintf(name, len, "%s", node);
	if (fp)
		fclose(fp);
	name[strcspn(name, "\n")] = 0;

	snprintf(path, sizeof(path), "/dev/%s", node);
	fd = open(path, O_RDWR);
	if (fd < 0)
		return -1;
	if (fmt(fd, 0, V4L2_SUBDEV_FORMAT_ACTIVE, &active)) {
		close(fd);
		return 1;	/* no pads: nothing to check */
	}

	req = active;
	req.width = 1024;
	req.height = 768;
	try = req;
	if (fmt(fd, 1, V4L2_SUBDEV_FORMAT_TRY, &try))
		goto out;
	req.width = 320;
	req.height = 240;
	if (fmt(fd, 1, V4L2_SUBDEV_FORMAT_ACTIVE, &req))
		goto out;
	active = req;

	if (fmt(fd, 0, V4L2_SUBDEV_FORMAT_TRY, &got) || !same(&got, &try)) {
		ktap_diag("%s: TRY %ux%u became %ux%u after an ACTIVE change",
			  name, try.width, try.height, got.width, got.height);
		goto out;
	}
	try.width = 640;
	try.height = 480;
	if (fmt(fd, 1, V4L2_SUBDEV_FORMAT_TRY, &try))
		goto out;
	if (fmt(fd, 0, V4L2_SUBDEV_FORMAT_ACTIVE, &got) || !same(&got, &active)) {
		ktap_diag("%s: ACTIVE %ux%u became %ux%u after a TRY change",
			  name, active.width, active.height, got.width, got.height);
		goto out;
	}
	ok = 1;
out:
	close(fd);
	return ok ? 0 : -1;
}

int main(void)
{
	char names[64][64];
	int res[64];
	glob_t g;
	size_t i, n = 0, tested = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	glob("/sys/class/video4linux/v4l-subdev*", 0, NULL, &g);
	for (i = 0; i < g.gl_pathc && n < 64; i++, n++)
		res[n] = check(strrchr(g.gl_pathv[i], '/') + 1, names[n],
			       sizeof(names[n]));
	for (i = 0; i < n; i++)
		tested += res[i] != 1;
	ktap_plan(tested ? tested : 1);
	if (!tested)
		ktap_result(0, "subdev_try # no subdevice with pads found");
	for (i = 0; i < n; i++)
		if (res[i] != 1)
			ktap_result(!res[i], "try_state_independent: %s", names[i]);
	globfree(&g);
	return 0;
}
