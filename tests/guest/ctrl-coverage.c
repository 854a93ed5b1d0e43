// SPDX-License-Identifier: GPL-2.0
/*
 * ctrl-coverage [SPEC]: every writable control of every subdevice acts on
 * the frames as the reference model says, or says why it does not.
 *
 * Each control that VIDIOC_QUERYCTRL (V4L2_CTRL_FLAG_NEXT_CTRL) lists on a
 * /dev/v4l-subdev* node, and that is writable, must either
 *
 *  - stand in non_pixel[] below, with its reason (the flash, blanking and
 *    the other controls of timing), or
 *  - be set to a value other than its default by a case of SPEC
 *    (/etc/n900/frames.spec, tests/data/frames.spec), whose frames
 *    frames.sh compares with those the host reference model computes for
 *    it. That case is run here (frames.sh with N900_FRAMES_SET): its frame
 *    must be the model's, and with only this control put back to its
 *    default, the next frame must not be: the driver reads the control,
 *    as the model says. The controls that the same case sets are checked
 *    in one run of it, one after the other, each put back to the case's
 *    value before the next; the case's frame must then be the model's
 *    again, or none of them passes.
 *
 * So a control that nothing reads fails, whether or not a case sets it.
 * Output is KTAP, one result per writable control.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <linux/videodev2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "ktap.h"
#include <unistd.h>

#include "../../drivers/include/uapi/n900_isp_controls.h"

#define FRAMES_SH	"/usr/lib/n900/tests/frames.sh"

/* the controls that do not act on pixels, and why */
static const struct {
	unsigned int id;
	const char *reason;
} non_pixel[] = {
	{ V4L2_CID_HBLANK, "blanking: the frame interval, not the pixels" },
	{ V4L2_CID_VBLANK, "blanking: the frame interval, not the pixels" },
	{ V4L2_CID_PIXEL_RATE, "bus timing" },
	{ V4L2_CID_LINK_FREQ, "bus timing" },
	{ V4L2_CID_N900_SENSOR_FREE_RUN, "timing: frames as fast as the ISP renders them" },
	{ V4L2_CID_FLASH_LED_MODE, "the flash: the emulated scene has no light of its own" },
	{ V4L2_CID_FLASH_STROBE_SOURCE, "the flash: the emulated scene has no light of its own" },
	{ V4L2_CID_FLASH_STROBE, "the flash: the emulated scene has no light of its own" },
	{ V4L2_CID_FLASH_STROBE_STOP, "the flash: the emulated scene has no light of its own" },
	{ V4L2_CID_FLASH_TIMEOUT, "the flash: the emulated scene has no light of its own" },
	{ V4L2_CID_FLASH_INTENSITY, "the flash: the emulated scene has no light of its own" },
	{ V4L2_CID_FLASH_TORCH_INTENSITY, "the flash: the emulated scene has no light of its own" },
	{ V4L2_CID_FLASH_INDICATOR_INTENSITY, "the flash: the emulated scene has no light of its own" },
	{ V4L2_CID_FLASH_FAULT, "the flash's fault status" },
};

/* a "ctrl ENTITY NAME=VALUE,..." setting of a frames.spec case */
struct setting {
	unsigned int index;	/* the case's, from 1, as frames.sh counts */
	char case_name[64];
	char entity[64];
	char var[64];
	long long value;
};

static struct setting settings[256];
static unsigned int nsettings;

/* v4l2-ctl's name of a control: lower case, runs of others as one '_' */
static void name2var(const char *name, char *var, size_t size)
{
	size_t n = 0;
	int sep = 0;

	for (; *name && n + 2 < size; name++) {
		if (isalnum((unsigned char)*name)) {
			if (sep && n)
				var[n++] = '_';
			sep = 0;
			var[n++] = tolower((unsigned char)*name);
		} else {
			sep = 1;
		}
	}
	var[n] = 0;
}

static int load_spec(const char *path)
{
	char line[1024], name[64] = "";
	unsigned int index = 0;
	FILE *fp = fopen(path, "r");

	if (!fp)
		return -1;
	while (fgets(line, sizeof(line), fp)) {
		char *ctrls, *tok, *save;

		line[strcspn(line, "\n")] = 0;
		if (!strncmp(line, "case ", 5)) {
			index++;
			snprintf(name, sizeof(name), "%.63s", line + 5);
			continue;
		}
		if (strncmp(line, "ctrl ", 5))
			continue;
		/* the last word is the list, the words before it the entity */
		ctrls = strrchr(line, ' ');
		*ctrls++ = 0;
		for (tok = strtok_r(ctrls, ",", &save); tok;
		     tok = strtok_r(NULL, ",", &save)) {
			struct setting *s = &settings[nsettings];
			char *eq = strchr(tok, '=');

			if (!eq || nsettings == sizeof(settings) / sizeof(*s))
				continue;
			*eq = 0;
			s->index = index;
			snprintf(s->case_name, sizeof(s->case_name), "%.63s", name);
			snprintf(s->entity, sizeof(s->entity), "%.63s", line + 5);
			snprintf(s->var, sizeof(s->var), "%.63s", tok);
			s->value = strtoll(eq + 1, NULL, 0);
			nsettings++;
		}
	}
	fclose(fp);
	return 0;
}

/* the first case that sets the control to something else than @def */
static const struct setting *find_case(const char *entity, const char *var,
				       long long def)
{
	unsigned int i;

	for (i = 0; i < nsettings; i++)
		if (!strcmp(settings[i].entity, entity) &&
		    !strcmp(settings[i].var, var) && settings[i].value != def)
			return &settings[i];
	return NULL;
}

static const char *non_pixel_reason(unsigned int id)
{
	unsigned int i;

	for (i = 0; i < sizeof(non_pixel) / sizeof(non_pixel[0]); i++)
		if (non_pixel[i].id == id)
			return non_pixel[i].reason;
	return NULL;
}

/* a writable control of a subdevice */
struct control {
	char entity[64];
	char evar[64];
	char var[64];
	unsigned int id;
	int def;
	const struct setting *s;	/* the case that sets it */
	int verdict;	/* -1: its case not run yet; then 1 if it acts, else 0 */
};

static struct control controls[256];
static unsigned int ncontrols;

/* the writable controls of the subdevice @path, whose entity is @entity */
static int list_controls(const char *path, const char *entity)
{
	struct v4l2_queryctrl q = { .id = V4L2_CTRL_FLAG_NEXT_CTRL };
	int fd = open(path, O_RDWR);

	if (fd < 0) {
		printf("# %s (%s): %s\n", path, entity, strerror(errno));
		return -1;
	}
	while (!ioctl(fd, VIDIOC_QUERYCTRL, &q) &&
	       ncontrols < sizeof(controls) / sizeof(controls[0])) {
		struct control *c = &controls[ncontrols];

		if (q.type != V4L2_CTRL_TYPE_CTRL_CLASS &&
		    !(q.flags & (V4L2_CTRL_FLAG_READ_ONLY |
				 V4L2_CTRL_FLAG_DISABLED))) {
			snprintf(c->entity, sizeof(c->entity), "%s", entity);
			name2var(entity, c->evar, sizeof(c->evar));
			name2var((const char *)q.name, c->var, sizeof(c->var));
			c->id = q.id;
			c->def = q.default_value;
			ncontrols++;
		}
		q.id |= V4L2_CTRL_FLAG_NEXT_CTRL;
	}
	close(fd);
	return 0;
}

/*
 * Run the case of control @first once (frames.sh, one frame a capture),
 * with every control from @first on that the same case sets: its frame
 * must be the reference model's, and with each control in turn back at
 * its default, the next must not be. Sets each one's verdict; prints
 * frames.sh's diagnostics.
 */
static void run_case(unsigned int first)
{
	static char set[8192];
	unsigned int idx = controls[first].s->index, members[64];
	unsigned int seen[64] = { 0 }, oks[64] = { 0 };
	unsigned int i, n = 0, k;
	char cmd[512], line[512];
	size_t len = 0;
	FILE *p;

	for (i = first; i < ncontrols && n < 64; i++) {
		const struct control *c = &controls[i];
		int w;

		if (!c->s || c->s->index != idx)
			continue;
		w = snprintf(set + len, sizeof(set) - len, "%s %s=%d %s=%lld\n",
			     c->entity, c->var, c->def, c->var, c->s->value);
		if (w < 0 || (size_t)w >= sizeof(set) - len) {
			set[len] = 0;	/* the rest: a run of their own */
			break;
		}
		len += w;
		members[n++] = i;
	}
	for (k = 0; k < n; k++)
		controls[members[k]].verdict = 0;
	if (setenv("N900_FRAMES_SET", set, 1) || setenv("N900_FRAMES", "1", 1))
		return;
	snprintf(cmd, sizeof(cmd), FRAMES_SH " %u %u 2>&1", idx, idx);
	p = popen(cmd, "r");
	if (!p)
		return;
	/* one "# ctrl-set K ok" line, and no other of set K, for a pass */
	while (fgets(line, sizeof(line), p)) {
		char word[8] = "";

		if (sscanf(line, "# ctrl-set %u %7s", &k, word) == 2 &&
		    k >= 1 && k <= n) {
			seen[k - 1]++;
			oks[k - 1] += !strcmp(word, "ok:");
		}
		if (line[0] == '#')
			printf("# frames.sh: %s", line + 2);
	}
	pclose(p);
	for (k = 0; k < n; k++)
		controls[members[k]].verdict = seen[k] == 1 && oks[k] == 1;
}

/* whether control @i acts on the frames as the model says, or need not */
static int check_control(unsigned int i)
{
	struct control *c = &controls[i];
	const char *reason = non_pixel_reason(c->id);

	if (reason) {
		printf("# %s: %s: not on pixels: %s\n", c->entity, c->var,
		       reason);
		return 1;
	}
	if (!c->s) {
		printf("# %s: %s: no case of frames.spec sets it to other than its default %d, and it is not listed as acting on no pixels\n",
		       c->entity, c->var, c->def);
		return 0;
	}
	printf("# %s: %s: case %s sets %lld; in a run of it, back at its default %d\n",
	       c->entity, c->var, c->s->case_name, c->s->value, c->def);
	if (c->verdict < 0)	/* its case not run yet: with the others it sets */
		run_case(i);
	if (c->verdict > 0)
		return 1;
	printf("# %s: %s: the frames of case %s are not the reference model's for %lld, or do not change with the control back at its default\n",
	       c->entity, c->var, c->s->case_name, c->s->value);
	return 0;
}

int main(int argc, char **argv)
{
	const char *spec = argc > 1 ? argv[1] : "/etc/n900/frames.spec";
	unsigned int i, failed = 0;
	int broken = 0;
	glob_t g;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (load_spec(spec)) {
		ktap_plan(1);
		ktap_result(0, "ctrl-coverage # cannot read %s", spec);
		return 1;
	}
	if (glob("/sys/class/video4linux/v4l-subdev*/name", 0, NULL, &g)) {
		ktap_plan(1);
		ktap_result(0, "ctrl-coverage # no subdevice nodes");
		return 1;
	}
	for (i = 0; i < g.gl_pathc; i++) {
		char name[64] = "", path[300];
		FILE *fp = fopen(g.gl_pathv[i], "r");

		if (!fp || !fgets(name, sizeof(name), fp))
			name[0] = 0;
		if (fp)
			fclose(fp);
		name[strcspn(name, "\n")] = 0;
		snprintf(path, sizeof(path), "/dev/%s",
			 strstr(g.gl_pathv[i], "v4l-subdev"));
		*strrchr(path, '/') = 0;
		if (list_controls(path, name))
			broken = 1;
	}
	globfree(&g);
	ktap_plan(ncontrols + 1);
	ktap_result(!broken, "ctrl-coverage.subdevices # %u writable controls",
		    ncontrols);
	for (i = 0; i < ncontrols; i++) {
		struct control *c = &controls[i];

		c->verdict = -1;
		c->s = non_pixel_reason(c->id) ? NULL :
		       find_case(c->entity, c->var, c->def);
	}
	for (i = 0; i < ncontrols; i++) {
		int ok = check_control(i);

		failed += !ok;
		ktap_result(ok, "ctrl-coverage.%s.%s", controls[i].evar,
			    controls[i].var);
	}
	ktap_diag("%u writable controls, %u failed", ncontrols, failed);
	return failed || broken;
}
