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
 * refused enable is a step too). After every step, each subdevice must be
 * powered (power/runtime_status "active") exactly when it is reachable
 * from an open video node over enabled data links, in either direction.
 *
 * Each flip must also get the answer the ISP's link rules give: a disable
 * succeeds; an enable fails with EBUSY when its sink pad already has an
 * enabled input (one source at a time; a video mux, the N900's camera
 * bus switch, routes one of its inputs at a time) or its source is a
 * memory input node that already feeds a block, with EINVAL when
 * enabled links already lead from its sink back to its source (a loop:
 * frames without a source), with either when both hold, and succeeds
 * otherwise. On a stress mesh, full of loops of links, that checks the
 * loop rule after every step of a long random walk; on a graph with loops
 * of links, a walk that never met a refused loop fails (it proved
 * nothing).
 *
 * The expected power and answers are computed here, from
 * MEDIA_IOC_G_TOPOLOGY, never from the driver's own state. Output is KTAP.
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

#define MAX_ENT		1024

struct ent {
	uint32_t id;
	uint32_t function;
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

/*
 * Per G_TOPOLOGY: the entity (index in ents) of each entity or pad id, by
 * the id's low bits; and the enabled data links as directed edges, grouped
 * by source entity (edge[first[x]] .. edge[first[x + 1] - 1]).
 */
#define ID_MASK		0xffffff
static int *ent_of_id;
static unsigned int n_ids;
static unsigned int first[MAX_ENT + 1];
static unsigned int *edge;

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

static int ent_of(uint32_t id)
{
	return (id & ID_MASK) < n_ids ? ent_of_id[id & ID_MASK] : -1;
}

/* The entity of a data link's source and sink pads; false for another link. */
static int link_ents(const struct media_v2_link *l, int *x, int *y)
{
	if (!is_data(l))
		return 0;
	*x = ent_of(l->source_id);
	*y = ent_of(l->sink_id);
	return *x >= 0 && *y >= 0;
}

/* ent_of_id and the edges, from the topology just fetched */
static int index_topology(void)
{
	unsigned int i, max = 0, pos[MAX_ENT];
	int x, y;

	for (i = 0; i < n_ents; i++)
		if ((ents[i].id & ID_MASK) > max)
			max = ents[i].id & ID_MASK;
	for (i = 0; i < topo.num_pads; i++)
		if ((t_pads[i].id & ID_MASK) > max)
			max = t_pads[i].id & ID_MASK;
	n_ids = max + 1;
	ent_of_id = realloc(ent_of_id, n_ids * sizeof(*ent_of_id));
	edge = realloc(edge, (topo.num_links + 1) * sizeof(*edge));
	if (!ent_of_id || !edge)
		return -1;
	memset(ent_of_id, 0xff, n_ids * sizeof(*ent_of_id));
	for (i = 0; i < n_ents; i++)
		ent_of_id[ents[i].id & ID_MASK] = i;
	for (i = 0; i < topo.num_pads; i++)
		ent_of_id[t_pads[i].id & ID_MASK] = ent_of(t_pads[i].entity_id);

	memset(first, 0, sizeof(first));
	for (i = 0; i < topo.num_links; i++)
		if (link_ents(&t_links[i], &x, &y) &&
		    (t_links[i].flags & MEDIA_LNK_FL_ENABLED))
			first[x + 1]++;
	for (i = 0; i < n_ents; i++) {
		first[i + 1] += first[i];
		pos[i] = first[i];
	}
	for (i = 0; i < topo.num_links; i++)
		if (link_ents(&t_links[i], &x, &y) &&
		    (t_links[i].flags & MEDIA_LNK_FL_ENABLED))
			edge[pos[x]++] = y;
	return 0;
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
		e->function = t_ents[i].function;
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
	if (n_ents < topo.num_entities) {
		ktap_diag("%u entities, more than the %u this test handles",
			  topo.num_entities, MAX_ENT);
		return -1;
	}
	return index_topology();
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

static int root(int *up, int x)
{
	while (up[x] != x)
		x = up[x] = up[up[x]];
	return x;
}

/* Reachable from an open video node over enabled data links, undirected. */
static void expected(int *reach)
{
	int up[MAX_ENT], open[MAX_ENT];
	unsigned int x, e;

	for (x = 0; x < n_ents; x++) {
		up[x] = x;
		open[x] = 0;
	}
	for (x = 0; x < n_ents; x++)
		for (e = first[x]; e < first[x + 1]; e++)
			up[root(up, x)] = root(up, edge[e]);
	for (x = 0; x < n_ents; x++)
		if (ents[x].open_fd >= 0)
			open[root(up, x)] = 1;
	for (x = 0; x < n_ents; x++)
		reach[x] = open[root(up, x)];
}

/* Whether enabled data links lead from entity @from to entity @to. */
static int leads_to(int from, int to)
{
	int stack[MAX_ENT], n = 0, x;
	char seen[MAX_ENT] = { 0 };
	unsigned int e;

	stack[n++] = from;
	seen[from] = 1;
	while (n) {
		x = stack[--n];
		if (x == to)
			return 1;
		for (e = first[x]; e < first[x + 1]; e++)
			if (!seen[edge[e]]) {
				seen[edge[e]] = 1;
				stack[n++] = edge[e];
			}
	}
	return 0;
}

/* 0 when every subdevice's power matches; prints the differences. */
static int check(unsigned int step, const char *action)
{
	int reach[MAX_ENT], bad = 0, p;
	unsigned int i;

	if (get_topology() || index_topology()) {
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
	int i = ent_of(pad_id);

	return i < 0 ? "?" : ents[i].name;
}

/*
 * Another enabled data link into the sink pad of @l, or for a video mux,
 * into any of its sink pads; or out of @l's source pad when that is a
 * memory input (output) video node's, a DMA read port that feeds one
 * block.
 */
static int sink_busy(const struct media_v2_link *l)
{
	int x, y, mux, input, ox, oy;
	unsigned int i;

	if (!link_ents(l, &x, &y))
		return 0;
	mux = ents[y].function == MEDIA_ENT_F_VID_MUX;
	input = ents[x].function == MEDIA_ENT_F_IO_V4L;
	for (i = 0; i < topo.num_links; i++) {
		const struct media_v2_link *o = &t_links[i];

		if (o->id == l->id || !(o->flags & MEDIA_LNK_FL_ENABLED) ||
		    !link_ents(o, &ox, &oy))
			continue;
		if (mux ? oy == y : o->sink_id == l->sink_id)
			return 1;
		if (input && o->source_id == l->source_id)
			return 1;
	}
	return 0;
}

enum { ANSWER_OK = 1, ANSWER_EBUSY = 2, ANSWER_EINVAL = 4 };

/* The answers the link rules allow to SETUP_LINK of @l with @flags (top). */
static unsigned int rule_answers(const struct media_v2_link *l, uint32_t flags)
{
	unsigned int want = 0;
	int x, y;

	if (!(flags & MEDIA_LNK_FL_ENABLED) || !link_ents(l, &x, &y))
		return ANSWER_OK;
	if (sink_busy(l))
		want |= ANSWER_EBUSY;
	if (leads_to(y, x))
		want |= ANSWER_EINVAL;
	return want ? want : ANSWER_OK;
}

static unsigned int answer_of(int err)
{
	return !err ? ANSWER_OK : err == EBUSY ? ANSWER_EBUSY :
	       err == EINVAL ? ANSWER_EINVAL : 0;
}

static const char *answers_name(unsigned int a)
{
	static const char *const names[] = {
		"nothing", "ok", "EBUSY", "ok or EBUSY", "EINVAL", "ok or EINVAL",
		"EBUSY or EINVAL", "anything",
	};

	return names[a & 7];
}

/* Whether the data links, enabled or not, can form a loop (Kahn). */
static int has_loop(void)
{
	int indeg[MAX_ENT] = { 0 }, gone[MAX_ENT] = { 0 };
	int x, y, s, t, left = n_ents, changed = 1;
	unsigned int i;

	for (i = 0; i < topo.num_links; i++)
		if (link_ents(&t_links[i], &s, &t))
			indeg[t]++;
	/* take away the entities without inputs: what is left is in loops */
	while (changed) {
		changed = 0;
		for (x = 0; x < (int)n_ents; x++) {
			if (gone[x] || indeg[x])
				continue;
			gone[x] = 1;
			left--;
			changed = 1;
			for (i = 0; i < topo.num_links; i++)
				if (link_ents(&t_links[i], &s, &y) && s == x)
					indeg[y]--;
		}
	}
	return left > 0;
}

/* Flip a random mutable data link; count the refused enables. */
static int flip_link(char *action, size_t len, unsigned int *busy,
		     unsigned int *loops)
{
	struct media_link_desc d;
	const struct media_v2_link *l;
	const struct media_v2_pad *src, *sink;
	unsigned int i, n = 0, pick;
	uint32_t flags;
	unsigned int want;
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
	want = rule_answers(l, flags);
	ret = ioctl(mfd, MEDIA_IOC_SETUP_LINK, &d);
	err = ret ? errno : 0;
	snprintf(action, len, "%s '%s':%u -> '%s':%u: %s",
		 flags ? "enable" : "disable", ent_name(l->source_id),
		 src->index, ent_name(l->sink_id), sink->index,
		 err ? strerror(err) : "ok");
	*busy += err == EBUSY;
	*loops += err == EINVAL;
	if (!(answer_of(err) & want)) {
		ktap_diag("%s: the link rules say %s", action,
			  answers_name(want));
		return -1;
	}
	return 0;
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
	unsigned int step, busy = 0, loops = 0, opens = 0, subdevs = 0, i;
	int cyclic;
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
	cyclic = has_loop();
	ktap_diag("%u entities, %u subdevices with a power state; the data links %s",
		  n_ents, subdevs, cyclic ? "can form loops" : "form no loop");

	if (check(0, "start"))
		ok = 0;
	for (step = 1; ok && step <= steps; step++) {
		int ret;

		if (rnd() % 4 == 0) {
			ret = toggle_video(action, sizeof(action));
			opens++;
		} else {
			ret = flip_link(action, sizeof(action), &busy, &loops);
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
	ktap_diag("%u steps done, %u video open/close, %u enables refused with EBUSY, %u with EINVAL",
		  step - 1, opens, busy, loops);
	if (ok && cyclic && !loops) {
		ktap_diag("no enable closed a loop: the walk checked nothing of the loop rule");
		ok = 0;
	}
	ktap_result(ok, "power_follows_reachability");
	return ok ? 0 : 1;
}
