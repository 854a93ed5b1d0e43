// SPDX-License-Identifier: GPL-2.0
/*
 * controls - every control of every subdevice against the documented
 * ranges in tests/data/controls.spec (installed as /etc/n900/controls.spec).
 *
 * Per subdevice named in the spec: each listed control exists with the
 * documented min/max/step/default, no undocumented control exists, and a
 * writable integer control clamps a value past its maximum to the maximum.
 * Output is KTAP, one result per subdevice.
 */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <linux/videodev2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "ktap.h"

struct spec {
	char entity[64];
	char name[64];
	long long min, max, step, def;
	int seen;
};

static struct spec spec[128];
static int nspec;

static int load(const char *path)
{
	char line[256];
	FILE *fp = fopen(path, "r");

	if (!fp)
		return -1;
	while (fgets(line, sizeof(line), fp) && nspec < 128) {
		struct spec *s = &spec[nspec];

		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (sscanf(line, "%63[^\t]\t%63[^\t]\t%lld\t%lld\t%lld\t%lld",
			   s->entity, s->name, &s->min, &s->max, &s->step,
			   &s->def) == 6)
			nspec++;
	}
	fclose(fp);
	return 0;
}

static int open_subdev(const char *entity)
{
	char name[64], path[300];
	glob_t g;
	size_t i;
	int fd = -1;

	glob("/sys/class/video4linux/v4l-subdev*/name", 0, NULL, &g);
	for (i = 0; i < g.gl_pathc && fd < 0; i++) {
		FILE *fp = fopen(g.gl_pathv[i], "r");

		if (!fp)
			continue;
		if (fgets(name, sizeof(name), fp)) {
			name[strcspn(name, "\n")] = 0;
			if (!strcmp(name, entity)) {
				snprintf(path, sizeof(path), "/dev/%s",
					 strstr(g.gl_pathv[i], "v4l-subdev"));
				*strrchr(path, '/') = 0;
				fd = open(path, O_RDWR);
			}
		}
		fclose(fp);
	}
	globfree(&g);
	return fd;
}

static int check_entity(const char *entity)
{
	struct v4l2_query_ext_ctrl q;
	int fd = open_subdev(entity), ok = 1, i;

	if (fd < 0) {
		ktap_diag("%s: no subdevice node", entity);
		return 0;
	}
	memset(&q, 0, sizeof(q));
	q.id = V4L2_CTRL_FLAG_NEXT_CTRL;
	while (!ioctl(fd, VIDIOC_QUERY_EXT_CTRL, &q)) {
		if (q.type != V4L2_CTRL_TYPE_CTRL_CLASS) {
			struct spec *s = NULL;

			for (i = 0; i < nspec; i++)
				if (!strcmp(spec[i].entity, entity) &&
				    !strcmp(spec[i].name, q.name))
					s = &spec[i];
			if (!s) {
				ktap_diag("%s: undocumented control '%s'", entity, q.name);
				ok = 0;
			} else {
				s->seen++;
				if (q.minimum != s->min || q.maximum != s->max ||
				    (long long)q.step != s->step ||
				    q.default_value != s->def) {
					ktap_diag("%s: '%s' is %lld..%lld step %llu default %lld, documented %lld..%lld step %lld default %lld",
						  entity, q.name, (long long)q.minimum,
						  (long long)q.maximum,
						  (unsigned long long)q.step,
						  (long long)q.default_value, s->min,
						  s->max, s->step, s->def);
					ok = 0;
				}
				if (q.type == V4L2_CTRL_TYPE_INTEGER &&
				    !(q.flags & (V4L2_CTRL_FLAG_READ_ONLY |
						 V4L2_CTRL_FLAG_VOLATILE)) &&
				    q.maximum < 0x7fffffff) {
					struct v4l2_control c = { .id = q.id,
						.value = (int)q.maximum + 1 };

					if (ioctl(fd, VIDIOC_S_CTRL, &c) ||
					    ioctl(fd, VIDIOC_G_CTRL, &c) ||
					    c.value != q.maximum) {
						ktap_diag("%s: '%s' set past max reads %d",
							  entity, q.name, c.value);
						ok = 0;
					}
					c.value = (int)q.default_value;
					ioctl(fd, VIDIOC_S_CTRL, &c);
				}
			}
		}
		q.id |= V4L2_CTRL_FLAG_NEXT_CTRL;
	}
	for (i = 0; i < nspec; i++)
		if (!strcmp(spec[i].entity, entity) && spec[i].seen != 1) {
			ktap_diag("%s: documented control '%s' seen %d times",
				  entity, spec[i].name, spec[i].seen);
			ok = 0;
		}
	close(fd);
	return ok;
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "/etc/n900/controls.spec";
	char entities[32][64];
	int n = 0, i, j;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (load(path) || !nspec) {
		ktap_plan(1);
		ktap_result(0, "controls # cannot read %s", path);
		return 1;
	}
	for (i = 0; i < nspec; i++) {
		for (j = 0; j < n; j++)
			if (!strcmp(entities[j], spec[i].entity))
				break;
		if (j == n && n < 32) {
			memcpy(entities[n], spec[i].entity, sizeof(entities[n]));
			n++;
		}
	}
	ktap_plan(n);
	for (i = 0; i < n; i++)
		ktap_result(check_entity(entities[i]), "controls: %s", entities[i]);
	return 0;
}
