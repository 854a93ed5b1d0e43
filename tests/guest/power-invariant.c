// SPDX-License-Identifier: GPL-2.0
/*
 * power-invariant - the seed's power semantics, checked after every step
 * of a long random walk.
 *
 * usage: power-invariant [MEDIA] [STEPS] [SEED]   (defaults /dev/media0,
 *        2000, 1)
 *
 * "Enabling a link will have the side effect of powering up all
 * components reachable via that link, while disabling the last link to an
 * entity will cause that entity to be powered down." Each step opens or
 * closes a random video node, or flips a random mutable data link (a
 * refused enable, EBUSY, is a step too). After every step, each subdevice
 * must be powered (power/runtime_status "active") exactly when it is
 * reachable from an open video node over enabled data links, in either
 * direction. The expected set is computed here, from MEDIA_IOC_G_TOPOLOGY,
 * never from the driver's own power state. Output is KTAP.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/media.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "ktap.h"
#include "media.h"

#define MAX_ENT		256

struct ent {
	uint32_t id;
	char name[64];
	int video;		/* a video node: path of its /dev node */
	char dev[160];
	int status_fd;		/* a subdevice: its power/runtime_status */
	int open_fd;		/* a video node we hold open, or -1 */
};

static int mfd;
static struct ent ents[MAX_ENT];
static unsigned int n_ents;
static struct media_v2_entity *t_ents;
static struct media_v2_interface *t_intfs;
static struct media_v2_pad *t_pads;
static struct media_v2_link *t_links;
static struct media_v2_topology topo;
static uint64_t rng;

static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng >> 32;
}

/* Fetch the whole topology again (the link flags are what changes). */
static int get_topology(void)
{
	memset(&topo, 0, sizeof(topo));
	if (ioctl(mfd, MEDIA_IOC_G_TOPOLOGY, &topo))
		return -1;
	t_ents = realloc(t_ents, (topo.num_entities + 1) * sizeof(*t_ents));
	t_intfs = realloc(t_intfs, (topo.num_interfaces + 1) * sizeof(*t_intfs));
	t_pads = realloc(t_pads, (topo.num_pads + 1) * sizeof(*t_pads));
	t_links = realloc(t_links, (topo.num_links + 1) * sizeof(*t_links));
	if (!t_ents || !t_intfs || !t_pads || !t_links)
		return -1;
	topo.ptr_entities = (uintptr_t)t_ents;
	topo.ptr_interfaces = (uintptr_t)t_intfs;
	topo.ptr_pads = (uintptr_t)t_pads;
	topo.ptr_links = (uintptr_t)t_links;
	return ioctl(mfd, MEDIA_IOC_G_TOPOLOGY, &topo);
}

static int ent_index(uint32_t id)
{
	unsigned int i;

	for (i = 0; i < n_ents; i++)
		if (ents[i].id == id)
			return i;
	return -1;
}

static const struct media_v2_pad *pad_by_id(uint32_t id)
{
	unsigned int i;

	for (i = 0; i < topo.num_pads; i++)
		if (t_pads[i].id == id)
			return &t_pads[i];
	return NULL;
}

static int setup(void)
{
	unsigned int i, j;
	char path[128];

	if (get_topology())
		return -1;
	for (i = 0; i < topo.num_entities && n_ents < MAX_ENT; i++) {
		struct ent *e = &ents[n_ents++];

		memset(e, 0, sizeof(*e));
		e->id = t_ents[i].id;
		e->status_fd = -1;
		e->open_fd = -1;
		snprintf(e->name, sizeof(e->name), "%s", t_ents[i].name);
		/* its interface, through an interface link */
		for (j = 0; j < topo.num_links; j++) {
			const struct media_v2_link *l = &t_links[j];
			const struct media_v2_interface *intf = NULL;
			unsigned int k;

			if ((l->flags & MEDIA_LNK_FL_LINK_TYPE) !=
			    MEDIA_LNK_FL_INTERFACE_LINK || l->sink_id != e->id)
				continue;
			for (k = 0; k < topo.num_interfaces; k++)
				if (t_intfs[k].id == l->source_id)
					intf = &t_intfs[k];
			if (!intf)
				continue;
			if (intf->intf_type == MEDIA_INTF_T_V4L_VIDEO) {
				e->video = 1;
				if (devname(intf->devnode.major, intf->devnode.minor,
					    e->dev, sizeof(e->dev)))
					return -1;
			} else if (intf->intf_type == MEDIA_INTF_T_V4L_SUBDEV) {
				snprintf(path, sizeof(path),
					 "/sys/dev/char/%u:%u/device/power/runtime_status",
					 intf->devnode.major, intf->devnode.minor);
				e->status_fd = open(path, O_RDONLY);
				if (e->status_fd < 0) {
					ktap_diag("%s: %s: %s", e->name, path,
						  strerror(errno));
					return -1;
				}
			}
		}
	}
	return 0;
}

static int powered(const struct ent *e)
{
	char buf[32];
	ssize_t n;

	n = pread(e->status_fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	return !strncmp(buf, "active", 6);
}

/* Reachable from an open video node over enabled data links, undirected. */
static void expected(int *reach)
{
	unsigned int i, changed = 1;

	for (i = 0; i < n_ents; i++)
		reach[i] = ents[i].open_fd >= 0;
	while (changed) {
		changed = 0;
		for (i = 0; i < topo.num_links; i++) {
			const struct media_v2_link *l = &t_links[i];
			const struct media_v2_pad *a, *b;
			int x, y;

			if (!is_data(l) || !(l->flags & MEDIA_LNK_FL_ENABLED))
				continue;
			a = pad_by_id(l->source_id);
			b = pad_by_id(l->sink_id);
			if (!a || !b)
				continue;
			x = ent_index(a->entity_id);
			y = ent_index(b->entity_id);
			if (x < 0 || y < 0 || reach[x] == reach[y])
				continue;
			reach[x] = reach[y] = 1;
			changed = 1;
		}
	}
}

/* 0 when every subdevice's power matches; prints the differences. */
static int check(unsigned int step, const char *action)
{
	int reach[MAX_ENT], bad = 0, p;
	unsigned int i;

	if (get_topology()) {
		ktap_diag("step %u: G_TOPOLOGY failed: %s", step, strerror(errno));
		return -1;
	}
	expected(reach);
	for (i = 0; i < n_ents; i++) {
		if (ents[i].status_fd < 0)
			continue;
		p = powered(&ents[i]);
		if (p == reach[i])
			continue;
		if (!bad)
			ktap_diag("step %u (%s): mismatch", step, action);
		ktap_diag("  %s: powered %d, reachable from an open video node %d",
			  ents[i].name, p, reach[i]);
		bad = 1;
	}
	return bad ? -1 : 0;
}

static const char *ent_name(uint32_t pad_id)
{
	const struct media_v2_pad *p = pad_by_id(pad_id);
	int i = p ? ent_index(p->entity_id) : -1;

	return i < 0 ? "?" : ents[i].name;
}

/* Flip a random mutable data link. */
static int flip_link(char *action, size_t len, unsigned int *refused)
{
	struct media_link_desc d;
	const struct media_v2_link *l;
	const struct media_v2_pad *src, *sink;
	unsigned int i, n = 0, pick;
	uint32_t flags;
	int ret, err;

	for (i = 0; i < topo.num_links; i++)
		n += is_data(&t_links[i]) &&
		     !(t_links[i].flags & MEDIA_LNK_FL_IMMUTABLE);
	if (!n)
		return 0;
	pick = rnd() % n;
	for (i = 0; i < topo.num_links; i++) {
		if (!is_data(&t_links[i]) ||
		    (t_links[i].flags & MEDIA_LNK_FL_IMMUTABLE))
			continue;
		if (!pick--)
			break;
	}
	l = &t_links[i];
	src = pad_by_id(l->source_id);
	sink = pad_by_id(l->sink_id);
	flags = (l->flags & MEDIA_LNK_FL_ENABLED) ? 0 : MEDIA_LNK_FL_ENABLED;
	memset(&d, 0, sizeof(d));
	d.source.entity = src->entity_id;
	d.source.index = src->index;
	d.sink.entity = sink->entity_id;
	d.sink.index = sink->index;
	d.flags = flags;
	ret = ioctl(mfd, MEDIA_IOC_SETUP_LINK, &d);
	err = ret ? errno : 0;
	snprintf(action, len, "%s '%s':%u -> '%s':%u: %s",
		 flags ? "enable" : "disable", ent_name(l->source_id),
		 src->index, ent_name(l->sink_id), sink->index,
		 err ? strerror(err) : "ok");
	if (err == EBUSY && flags) {
		(*refused)++;
		return 0;
	}
	return err ? -1 : 0;
}

static int toggle_video(char *action, size_t len)
{
	unsigned int i, n = 0, pick;
	struct ent *e = NULL;

	for (i = 0; i < n_ents; i++)
		n += ents[i].video;
	if (!n)
		return 0;
	pick = rnd() % n;
	for (i = 0; i < n_ents && !e; i++)
		if (ents[i].video && !pick--)
			e = &ents[i];
	if (e->open_fd >= 0) {
		close(e->open_fd);
		e->open_fd = -1;
		snprintf(action, len, "close '%s'", e->name);
		return 0;
	}
	e->open_fd = open(e->dev, O_RDWR);
	snprintf(action, len, "open '%s': %s", e->name,
		 e->open_fd < 0 ? strerror(errno) : "ok");
	return e->open_fd < 0 ? -1 : 0;
}

int main(int argc, char **argv)
{
	const char *media = argc > 1 ? argv[1] : "/dev/media0";
	unsigned int steps = argc > 2 ? strtoul(argv[2], NULL, 0) : 2000;
	unsigned long seed = argc > 3 ? strtoul(argv[3], NULL, 0) : 1;
	unsigned int step, refused = 0, opens = 0, subdevs = 0, i;
	char action[256];
	int ok = 1;

	rng = 0x9e3779b97f4a7c15ULL ^ seed;
	ktap_plan(1);
	ktap_diag("seed %lu, %u steps", seed, steps);
	mfd = open(media, O_RDWR);
	if (mfd < 0 || setup()) {
		ktap_diag("cannot read the topology of %s", media);
		ktap_result(0, "power_follows_reachability");
		return 1;
	}
	for (i = 0; i < n_ents; i++)
		subdevs += ents[i].status_fd >= 0;
	ktap_diag("%u entities, %u subdevices with a power state", n_ents,
		  subdevs);

	if (check(0, "start"))
		ok = 0;
	for (step = 1; ok && step <= steps; step++) {
		int ret;

		if (rnd() % 4 == 0) {
			ret = toggle_video(action, sizeof(action));
			opens++;
		} else {
			ret = flip_link(action, sizeof(action), &refused);
		}
		if (ret) {
			ktap_diag("step %u: %s: unexpected failure", step, action);
			ok = 0;
		} else if (check(step, action)) {
			ok = 0;
		}
	}
	for (i = 0; i < n_ents; i++) {
		if (ents[i].open_fd >= 0)
			close(ents[i].open_fd);
		ents[i].open_fd = -1;
	}
	if (ok && check(step, "all closed"))
		ok = 0;
	ktap_diag("%u steps done, %u video open/close, %u refused enables (EBUSY)",
		  step - 1, opens, refused);
	ktap_result(ok, "power_follows_reachability");
	return ok ? 0 : 1;
}
