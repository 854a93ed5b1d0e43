// SPDX-License-Identifier: GPL-2.0
/*
 * mc-seed-abi - the media controller ABI of the 2010 series, checked
 * against the topology that the device tree describes.
 *
 * usage: mc-seed-abi [/dev/mediaN] [topology.expected]
 *
 * The expected topology comes from tests/host/dt-topology.sh, which reads the
 * compiled DTB on the host; nothing here is derived from the driver.
 * Output is KTAP.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/media.h>
#include <linux/version.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "ktap.h"

#define MAX_ENT		4096
#define MAX_LINKS	16384
#define NAME_LEN	64

struct exp_entity {
	char name[NAME_LEN];
	unsigned int pads;
};

struct exp_link {
	char a[NAME_LEN];
	unsigned int pa;
	char b[NAME_LEN];
	unsigned int pb;
	unsigned int flags;	/* 1 enabled, 2 immutable */
	unsigned int seen;
};

struct exp_anc {
	char primary[NAME_LEN];
	char ancillary[NAME_LEN];
	unsigned int seen;
};

/* What the driver reports, through ENUM_ENTITIES/ENUM_LINKS. */
struct act_link {
	struct media_link_desc d;
};

static char exp_model[NAME_LEN];
static struct exp_entity exp_ent[MAX_ENT];
static unsigned int n_exp_ent;
static struct exp_link exp_link[MAX_LINKS];
static unsigned int n_exp_link;

/*
 * Set by a test whose subject the device tree does not describe (a
 * generated stress topology has no immutable link and no sink with two
 * inputs): the test is skipped with this reason. Only the expected
 * topology decides it, never what the driver shows.
 */
static const char *skip_reason;

/* the device tree has an immutable link */
static int exp_has_immutable(void)
{
	unsigned int i;

	for (i = 0; i < n_exp_link; i++)
		if (exp_link[i].flags & 2)
			return 1;
	return 0;
}

/* the device tree has a pad at the end of two links */
static int exp_has_shared_pad(void)
{
	unsigned int i, j;

	for (i = 0; i < n_exp_link; i++)
		for (j = i + 1; j < n_exp_link; j++) {
			const struct exp_link *x = &exp_link[i], *y = &exp_link[j];

			if ((!strcmp(x->a, y->a) && x->pa == y->pa) ||
			    (!strcmp(x->a, y->b) && x->pa == y->pb) ||
			    (!strcmp(x->b, y->a) && x->pb == y->pa) ||
			    (!strcmp(x->b, y->b) && x->pb == y->pb))
				return 1;
		}
	return 0;
}
static struct exp_anc exp_anc[64];
static unsigned int n_exp_anc;

static struct media_entity_desc ent[MAX_ENT];
static unsigned int n_ent;
static struct act_link act[MAX_LINKS];
static unsigned int n_act;

static int fd;

static int load_expected(const char *path)
{
	char line[512], *f[6];
	FILE *fp = fopen(path, "r");
	int n;

	if (!fp) {
		ktap_diag("cannot open %s: %s", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), fp)) {
		char *save = NULL, *tok;

		line[strcspn(line, "\n")] = 0;
		for (n = 0, tok = strtok_r(line, "\t", &save); tok && n < 6;
		     tok = strtok_r(NULL, "\t", &save))
			f[n++] = tok;
		if (n == 2 && !strcmp(f[0], "model")) {
			snprintf(exp_model, sizeof(exp_model), "%s", f[1]);
		} else if (n == 3 && !strcmp(f[0], "entity") && n_exp_ent < MAX_ENT) {
			snprintf(exp_ent[n_exp_ent].name, NAME_LEN, "%s", f[1]);
			exp_ent[n_exp_ent++].pads = atoi(f[2]);
		} else if (n == 6 && !strcmp(f[0], "link") && n_exp_link < MAX_LINKS) {
			struct exp_link *l = &exp_link[n_exp_link++];

			snprintf(l->a, NAME_LEN, "%s", f[1]);
			l->pa = atoi(f[2]);
			snprintf(l->b, NAME_LEN, "%s", f[3]);
			l->pb = atoi(f[4]);
			l->flags = atoi(f[5]);
		} else if (n == 3 && !strcmp(f[0], "ancillary") && n_exp_anc < 64) {
			snprintf(exp_anc[n_exp_anc].primary, NAME_LEN, "%s", f[1]);
			snprintf(exp_anc[n_exp_anc++].ancillary, NAME_LEN, "%s", f[2]);
		}
	}
	fclose(fp);
	return n_exp_ent ? 0 : -1;
}

static const struct media_entity_desc *ent_by_id(uint32_t id)
{
	unsigned int i;

	for (i = 0; i < n_ent; i++)
		if (ent[i].id == id)
			return &ent[i];
	return NULL;
}

static const struct media_entity_desc *ent_by_name(const char *name)
{
	unsigned int i;

	for (i = 0; i < n_ent; i++)
		if (!strcmp(ent[i].name, name))
			return &ent[i];
	return NULL;
}

static unsigned int dt_flags(unsigned int f)
{
	return (f & 1 ? MEDIA_LNK_FL_ENABLED : 0) |
	       (f & 2 ? MEDIA_LNK_FL_IMMUTABLE : 0);
}

/* Read the current flags of the link source:spad -> sink:kpad. */
static int link_flags(uint32_t src, uint16_t spad, uint32_t sink, uint16_t kpad)
{
	const struct media_entity_desc *e = ent_by_id(src);
	struct media_links_enum le = { .entity = src };
	struct media_link_desc links[64];
	unsigned int i;

	if (!e || e->links > 64)
		return -1;
	le.links = links;
	if (ioctl(fd, MEDIA_IOC_ENUM_LINKS, &le))
		return -1;
	for (i = 0; i < e->links; i++)
		if (links[i].source.index == spad && links[i].sink.entity == sink &&
		    links[i].sink.index == kpad)
			return links[i].flags;
	return -1;
}

static int setup_link(const struct media_link_desc *d, uint32_t flags)
{
	struct media_link_desc l = *d;

	l.flags = flags;
	return ioctl(fd, MEDIA_IOC_SETUP_LINK, &l) ? errno : 0;
}

/* ------------------------------------------------------------------------ */

static int test_device_info(void)
{
	struct media_device_info info;
	struct utsname u;
	unsigned int maj, min, sub;
	uint32_t kv;
	int ok = 1;

	memset(&info, 0xa5, sizeof(info));
	if (ioctl(fd, MEDIA_IOC_DEVICE_INFO, &info)) {
		ktap_diag("MEDIA_IOC_DEVICE_INFO: %s", strerror(errno));
		return 0;
	}
	uname(&u);
	if (sscanf(u.release, "%u.%u.%u", &maj, &min, &sub) != 3)
		sub = 0;
	kv = KERNEL_VERSION(maj, min, sub > 255 ? 255 : sub);
	ktap_diag("driver '%s' model '%s' bus_info '%s' media_version %#x",
		  info.driver, info.model, info.bus_info, info.media_version);
	if (!info.driver[0] || strnlen(info.driver, sizeof(info.driver)) == sizeof(info.driver)) {
		ktap_diag("driver name empty or not terminated");
		ok = 0;
	}
	if (strcmp(info.model, exp_model)) {
		ktap_diag("model '%s', device tree says '%s'", info.model, exp_model);
		ok = 0;
	}
	if (strncmp(info.bus_info, "platform:", 9)) {
		ktap_diag("bus_info does not start with 'platform:'");
		ok = 0;
	}
	if (info.media_version != kv || info.driver_version != kv) {
		ktap_diag("media_version %#x driver_version %#x, kernel is %#x",
			  info.media_version, info.driver_version, kv);
		ok = 0;
	}
	for (unsigned int i = 0; i < sizeof(info.reserved) / sizeof(info.reserved[0]); i++)
		if (info.reserved[i]) {
			ktap_diag("reserved[%u] not zeroed", i);
			ok = 0;
		}
	return ok;
}

static int test_enum_entities(void)
{
	struct media_entity_desc e;
	uint32_t last = 0;
	unsigned int i, j;
	int ok = 1;

	n_ent = 0;
	memset(&e, 0, sizeof(e));
	e.id = MEDIA_ENT_ID_FLAG_NEXT;
	while (!ioctl(fd, MEDIA_IOC_ENUM_ENTITIES, &e)) {
		if (n_ent == MAX_ENT) {
			ktap_diag("more than %d entities", MAX_ENT);
			return 0;
		}
		if (n_ent && e.id <= last) {
			ktap_diag("id %u after %u: not ascending", e.id, last);
			ok = 0;
		}
		last = e.id;
		ent[n_ent++] = e;
		e.id |= MEDIA_ENT_ID_FLAG_NEXT;
	}
	if (errno != EINVAL) {
		ktap_diag("enumeration ended with %s, not EINVAL", strerror(errno));
		ok = 0;
	}
	ktap_diag("%u entities enumerated, %u in the device tree", n_ent, n_exp_ent);
	if (n_ent != n_exp_ent)
		ok = 0;
	for (i = 0; i < n_exp_ent; i++) {
		unsigned int seen = 0;

		for (j = 0; j < n_ent; j++)
			seen += !strcmp(ent[j].name, exp_ent[i].name);
		if (seen != 1) {
			ktap_diag("'%s' seen %u times", exp_ent[i].name, seen);
			ok = 0;
		}
	}
	for (j = 0; j < n_ent; j++) {
		for (i = 0; i < n_exp_ent; i++)
			if (!strcmp(ent[j].name, exp_ent[i].name))
				break;
		if (i == n_exp_ent) {
			ktap_diag("unexpected entity '%s'", ent[j].name);
			ok = 0;
		}
	}
	/* a lookup without the flag returns that entity */
	for (j = 0; j < n_ent; j++) {
		memset(&e, 0, sizeof(e));
		e.id = ent[j].id;
		if (ioctl(fd, MEDIA_IOC_ENUM_ENTITIES, &e) || strcmp(e.name, ent[j].name)) {
			ktap_diag("direct lookup of id %u failed", ent[j].id);
			ok = 0;
		}
	}
	return ok;
}

static int test_entity_pads(void)
{
	struct media_pad_desc pads[64];
	unsigned int i, p;
	int ok = 1;

	for (i = 0; i < n_exp_ent; i++) {
		const struct media_entity_desc *e = ent_by_name(exp_ent[i].name);
		struct media_links_enum le;

		if (!e) {
			ok = 0;
			continue;
		}
		if (e->pads != exp_ent[i].pads) {
			ktap_diag("'%s' has %u pads, device tree says %u", e->name,
				  e->pads, exp_ent[i].pads);
			ok = 0;
			continue;
		}
		memset(&le, 0, sizeof(le));
		memset(pads, 0xff, sizeof(pads));
		le.entity = e->id;
		le.pads = pads;
		if (e->pads > 64 || ioctl(fd, MEDIA_IOC_ENUM_LINKS, &le)) {
			ktap_diag("ENUM_LINKS pads of '%s' failed", e->name);
			ok = 0;
			continue;
		}
		for (p = 0; p < e->pads; p++) {
			unsigned int dir = pads[p].flags &
					   (MEDIA_PAD_FL_SINK | MEDIA_PAD_FL_SOURCE);

			if (pads[p].entity != e->id || pads[p].index != p ||
			    (dir != MEDIA_PAD_FL_SINK && dir != MEDIA_PAD_FL_SOURCE)) {
				ktap_diag("'%s' pad %u: entity %u index %u flags %#x",
					  e->name, p, pads[p].entity, pads[p].index,
					  pads[p].flags);
				ok = 0;
			}
		}
	}
	return ok;
}

static int match_exp_link(const struct media_link_desc *d)
{
	const struct media_entity_desc *s = ent_by_id(d->source.entity);
	const struct media_entity_desc *k = ent_by_id(d->sink.entity);
	unsigned int i;

	if (!s || !k)
		return -1;
	for (i = 0; i < n_exp_link; i++) {
		struct exp_link *l = &exp_link[i];

		if ((!strcmp(l->a, s->name) && l->pa == d->source.index &&
		     !strcmp(l->b, k->name) && l->pb == d->sink.index) ||
		    (!strcmp(l->b, s->name) && l->pb == d->source.index &&
		     !strcmp(l->a, k->name) && l->pa == d->sink.index))
			return i;
	}
	return -1;
}

static int test_enum_links(void)
{
	static struct media_link_desc links[256 + 8];
	unsigned int i, j;
	int ok = 1;

	n_act = 0;
	for (i = 0; i < n_exp_link; i++)
		exp_link[i].seen = 0;

	for (i = 0; i < n_ent; i++) {
		struct media_links_enum le = { .entity = ent[i].id };
		unsigned int written = 0;

		if (ent[i].links > 256) {
			ktap_diag("'%s' has %u links", ent[i].name, ent[i].links);
			ok = 0;
			continue;
		}
		/* guard entries catch a kernel that writes past .links */
		memset(links, 0xff, sizeof(links));
		le.links = links;
		if (ioctl(fd, MEDIA_IOC_ENUM_LINKS, &le)) {
			ktap_diag("ENUM_LINKS '%s': %s", ent[i].name, strerror(errno));
			ok = 0;
			continue;
		}
		for (j = 0; j < ent[i].links + 8u; j++)
			written += links[j].source.entity != 0xffffffff;
		if (written != ent[i].links) {
			ktap_diag("'%s': ENUM_ENTITIES says %u links, ENUM_LINKS wrote %u",
				  ent[i].name, ent[i].links, written);
			ok = 0;
		}
		for (j = 0; j < ent[i].links; j++) {
			const struct media_link_desc *d = &links[j];
			int m;

			if (d->source.entity != ent[i].id) {
				ktap_diag("'%s': backlink returned (source entity %u)",
					  ent[i].name, d->source.entity);
				ok = 0;
				continue;
			}
			if (!(d->source.flags & MEDIA_PAD_FL_SOURCE) ||
			    !(d->sink.flags & MEDIA_PAD_FL_SINK)) {
				ktap_diag("'%s' pad %u -> entity %u pad %u: pad flags %#x -> %#x",
					  ent[i].name, d->source.index, d->sink.entity,
					  d->sink.index, d->source.flags, d->sink.flags);
				ok = 0;
			}
			m = match_exp_link(d);
			if (m < 0) {
				ktap_diag("'%s' pad %u -> entity %u pad %u: not in the device tree",
					  ent[i].name, d->source.index, d->sink.entity,
					  d->sink.index);
				ok = 0;
				continue;
			}
			exp_link[m].seen++;
			if ((d->flags & (MEDIA_LNK_FL_ENABLED | MEDIA_LNK_FL_IMMUTABLE)) !=
			    dt_flags(exp_link[m].flags)) {
				ktap_diag("'%s':%u -> '%s':%u flags %#x, device tree says %#x",
					  exp_link[m].a, exp_link[m].pa, exp_link[m].b,
					  exp_link[m].pb, d->flags, dt_flags(exp_link[m].flags));
				ok = 0;
			}
			if (n_act < MAX_LINKS)
				act[n_act++].d = *d;
		}
	}
	for (i = 0; i < n_exp_link; i++) {
		if (exp_link[i].seen != 1) {
			ktap_diag("'%s':%u - '%s':%u seen %u times", exp_link[i].a,
				  exp_link[i].pa, exp_link[i].b, exp_link[i].pb,
				  exp_link[i].seen);
			ok = 0;
		}
	}
	ktap_diag("%u links enumerated, %u in the device tree", n_act, n_exp_link);
	return ok && n_act == n_exp_link;
}

static int test_setup_link_toggle(void)
{
	int toggled = 0, ok = 1;
	unsigned int i;

	/* Disable then re-enable every mutable enabled link. */
	for (i = 0; i < n_act; i++) {
		struct media_link_desc *d = &act[i].d;
		int f;

		if ((d->flags & MEDIA_LNK_FL_IMMUTABLE) ||
		    !(d->flags & MEDIA_LNK_FL_ENABLED))
			continue;
		if (setup_link(d, 0)) {
			ktap_diag("disabling link %u:%u -> %u:%u failed", d->source.entity,
				  d->source.index, d->sink.entity, d->sink.index);
			ok = 0;
			continue;
		}
		f = link_flags(d->source.entity, d->source.index,
			       d->sink.entity, d->sink.index);
		if (f < 0 || (f & MEDIA_LNK_FL_ENABLED)) {
			ktap_diag("link %u:%u -> %u:%u still enabled (%d) after disable",
				  d->source.entity, d->source.index, d->sink.entity,
				  d->sink.index, f);
			ok = 0;
		}
		if (setup_link(d, MEDIA_LNK_FL_ENABLED)) {
			ktap_diag("re-enabling link %u:%u -> %u:%u failed",
				  d->source.entity, d->source.index, d->sink.entity,
				  d->sink.index);
			ok = 0;
		}
		f = link_flags(d->source.entity, d->source.index,
			       d->sink.entity, d->sink.index);
		if (f < 0 || !(f & MEDIA_LNK_FL_ENABLED)) {
			ktap_diag("link %u:%u -> %u:%u not enabled after enable",
				  d->source.entity, d->source.index, d->sink.entity,
				  d->sink.index);
			ok = 0;
		}
		toggled++;
	}
	ktap_diag("%d mutable links toggled off and on", toggled);
	return ok && toggled > 0;
}

static int test_setup_link_immutable(void)
{
	int tried = 0, ok = 1, ret;
	unsigned int i;

	for (i = 0; i < n_act; i++) {
		struct media_link_desc *d = &act[i].d;

		if (!(d->flags & MEDIA_LNK_FL_IMMUTABLE))
			continue;
		tried++;
		ret = setup_link(d, 0);
		if (ret != EINVAL) {
			ktap_diag("disabling immutable link %u:%u -> %u:%u gave %s",
				  d->source.entity, d->source.index, d->sink.entity,
				  d->sink.index, ret ? strerror(ret) : "success");
			ok = 0;
		}
		if (!(link_flags(d->source.entity, d->source.index,
				 d->sink.entity, d->sink.index) & MEDIA_LNK_FL_ENABLED)) {
			ktap_diag("immutable link changed");
			ok = 0;
		}
	}
	ktap_diag("%d immutable links tried", tried);
	if (!tried && !exp_has_immutable())
		skip_reason = "the device tree has no immutable link";
	return ok && tried > 0;
}

static uint32_t unused_entity_id(void)
{
	uint32_t id = 1;

	while (ent_by_id(id))
		id++;
	return id;
}

static int test_setup_link_bad_entity(void)
{
	struct media_link_desc d;
	int ok = 1, ret;

	if (!n_act)
		return 0;
	d = act[0].d;
	d.source.entity = unused_entity_id();
	ret = setup_link(&d, MEDIA_LNK_FL_ENABLED);
	if (ret != EINVAL) {
		ktap_diag("unknown source entity %u: %s", d.source.entity,
			  ret ? strerror(ret) : "success");
		ok = 0;
	}
	d = act[0].d;
	d.sink.entity = 0x7fffffff;
	ret = setup_link(&d, MEDIA_LNK_FL_ENABLED);
	if (ret != EINVAL) {
		ktap_diag("unknown sink entity: %s", ret ? strerror(ret) : "success");
		ok = 0;
	}
	return ok;
}

static int test_setup_link_bad_pad(void)
{
	struct media_link_desc d;
	int ok = 1, ret;

	if (!n_act)
		return 0;
	d = act[0].d;
	d.source.index = ent_by_id(d.source.entity)->pads;
	ret = setup_link(&d, act[0].d.flags & MEDIA_LNK_FL_ENABLED);
	if (ret != EINVAL) {
		ktap_diag("source pad %u out of range: %s", d.source.index,
			  ret ? strerror(ret) : "success");
		ok = 0;
	}
	d = act[0].d;
	d.sink.index = ent_by_id(d.sink.entity)->pads;
	ret = setup_link(&d, act[0].d.flags & MEDIA_LNK_FL_ENABLED);
	if (ret != EINVAL) {
		ktap_diag("sink pad %u out of range: %s", d.sink.index,
			  ret ? strerror(ret) : "success");
		ok = 0;
	}
	return ok;
}

/*
 * For every sink pad with one enabled input and another, disabled, mutable
 * input: enabling the second must fail with EBUSY and change nothing.
 */
static int test_setup_link_ebusy(void)
{
	unsigned int i, j;
	int tried = 0, ok = 1, ret;

	for (i = 0; i < n_act; i++) {
		struct media_link_desc *on = &act[i].d;

		if (!(on->flags & MEDIA_LNK_FL_ENABLED))
			continue;
		for (j = 0; j < n_act; j++) {
			struct media_link_desc *off = &act[j].d;

			if (off->sink.entity != on->sink.entity ||
			    off->sink.index != on->sink.index ||
			    (off->flags & (MEDIA_LNK_FL_ENABLED | MEDIA_LNK_FL_IMMUTABLE)))
				continue;
			tried++;
			ret = setup_link(off, MEDIA_LNK_FL_ENABLED);
			if (ret != EBUSY) {
				ktap_diag("second input %u:%u into %u:%u gave %s, not EBUSY",
					  off->source.entity, off->source.index,
					  off->sink.entity, off->sink.index,
					  ret ? strerror(ret) : "success");
				ok = 0;
				if (!ret)
					setup_link(off, 0);
			}
			if (link_flags(off->source.entity, off->source.index,
				       off->sink.entity, off->sink.index) != 0 ||
			    !(link_flags(on->source.entity, on->source.index,
					 on->sink.entity, on->sink.index) &
			      MEDIA_LNK_FL_ENABLED)) {
				ktap_diag("links changed after the refused enable");
				ok = 0;
			}
		}
	}
	ktap_diag("%d second inputs tried", tried);
	if (!tried && !exp_has_shared_pad())
		skip_reason = "the device tree has no pad with two links";
	return ok && tried > 0;
}

/*
 * ENUM_ENTITIES reports the legacy MEDIA_ENT_T_* type: functions outside
 * the legacy range read as MEDIA_ENT_T_V4L2_SUBDEV_UNKNOWN (every such
 * entity here is a subdevice). See media_device_enum_entities().
 */
static uint32_t legacy_type(uint32_t function)
{
	if (function >= MEDIA_ENT_F_OLD_BASE && function <= MEDIA_ENT_F_TUNER)
		return function;
	return MEDIA_ENT_F_V4L2_SUBDEV_UNKNOWN;	/* == MEDIA_ENT_T_V4L2_SUBDEV_UNKNOWN */
}

static int test_g_topology(void)
{
	struct media_v2_topology t;
	struct media_v2_entity *te;
	struct media_v2_pad *tp;
	struct media_v2_link *tl;
	unsigned int i, j, data = 0, anc = 0;
	int ok = 1;

	memset(&t, 0, sizeof(t));
	if (ioctl(fd, MEDIA_IOC_G_TOPOLOGY, &t)) {
		ktap_diag("G_TOPOLOGY: %s", strerror(errno));
		return 0;
	}
	te = calloc(t.num_entities, sizeof(*te));
	tp = calloc(t.num_pads, sizeof(*tp));
	tl = calloc(t.num_links, sizeof(*tl));
	if (!te || !tp || !tl)
		return 0;
	t.ptr_entities = (uintptr_t)te;
	t.ptr_pads = (uintptr_t)tp;
	t.ptr_links = (uintptr_t)tl;
	t.ptr_interfaces = 0;
	if (ioctl(fd, MEDIA_IOC_G_TOPOLOGY, &t)) {
		ktap_diag("G_TOPOLOGY (2nd): %s", strerror(errno));
		ok = 0;
		goto out;
	}
	if (t.num_entities != n_ent) {
		ktap_diag("G_TOPOLOGY: %u entities, ENUM_ENTITIES: %u", t.num_entities, n_ent);
		ok = 0;
	}
	for (i = 0; i < t.num_entities; i++) {
		const struct media_entity_desc *e = ent_by_id(te[i].id);
		unsigned int np = 0;

		if (!e || strcmp(e->name, te[i].name) ||
		    e->type != legacy_type(te[i].function)) {
			ktap_diag("G_TOPOLOGY entity %u '%s' function %#x disagrees",
				  te[i].id, te[i].name, te[i].function);
			ok = 0;
			continue;
		}
		for (j = 0; j < t.num_pads; j++)
			np += tp[j].entity_id == te[i].id;
		if (np != e->pads) {
			ktap_diag("'%s': %u pads in G_TOPOLOGY, %u in ENUM_ENTITIES",
				  e->name, np, e->pads);
			ok = 0;
		}
	}
	for (i = 0; i < t.num_links; i++) {
		uint32_t type = tl[i].flags & MEDIA_LNK_FL_LINK_TYPE;
		const struct media_v2_pad *sp = NULL, *kp = NULL;

		if (type == MEDIA_LNK_FL_ANCILLARY_LINK) {
			const struct media_entity_desc *p = ent_by_id(tl[i].source_id);
			const struct media_entity_desc *a = ent_by_id(tl[i].sink_id);

			anc++;
			for (j = 0; p && a && j < n_exp_anc; j++)
				if (!strcmp(exp_anc[j].primary, p->name) &&
				    !strcmp(exp_anc[j].ancillary, a->name))
					break;
			if (!p || !a || j == n_exp_anc) {
				ktap_diag("ancillary link %u -> %u not in the device tree",
					  tl[i].source_id, tl[i].sink_id);
				ok = 0;
			}
			continue;
		}
		if (type != MEDIA_LNK_FL_DATA_LINK)
			continue;
		data++;
		for (j = 0; j < t.num_pads; j++) {
			if (tp[j].id == tl[i].source_id)
				sp = &tp[j];
			if (tp[j].id == tl[i].sink_id)
				kp = &tp[j];
		}
		if (!sp || !kp) {
			ktap_diag("data link %u: unknown pad", tl[i].id);
			ok = 0;
			continue;
		}
		for (j = 0; j < n_act; j++)
			if (act[j].d.source.entity == sp->entity_id &&
			    act[j].d.source.index == sp->index &&
			    act[j].d.sink.entity == kp->entity_id &&
			    act[j].d.sink.index == kp->index)
				break;
		if (j == n_act || (act[j].d.flags & ~MEDIA_LNK_FL_LINK_TYPE) !=
				  (tl[i].flags & ~MEDIA_LNK_FL_LINK_TYPE)) {
			ktap_diag("data link %u:%u -> %u:%u (flags %#x) not as ENUM_LINKS says",
				  sp->entity_id, sp->index, kp->entity_id, kp->index,
				  tl[i].flags);
			ok = 0;
		}
	}
	ktap_diag("G_TOPOLOGY: %u data links (ENUM_LINKS %u), %u ancillary (device tree %u)",
		  data, n_act, anc, n_exp_anc);
	if (data != n_act || anc != n_exp_anc)
		ok = 0;
out:
	free(te);
	free(tp);
	free(tl);
	return ok;
}

static const struct {
	const char *name;
	int (*fn)(void);
} tests[] = {
	{ "device_info", test_device_info },
	{ "enum_entities_next", test_enum_entities },
	{ "entity_pads", test_entity_pads },
	{ "enum_links_forward", test_enum_links },
	{ "setup_link_toggle", test_setup_link_toggle },
	{ "setup_link_immutable_einval", test_setup_link_immutable },
	{ "setup_link_bad_entity_einval", test_setup_link_bad_entity },
	{ "setup_link_bad_pad_einval", test_setup_link_bad_pad },
	{ "setup_link_second_input_ebusy", test_setup_link_ebusy },
	{ "g_topology_agrees", test_g_topology },
};

int main(int argc, char **argv)
{
	const char *dev = argc > 1 ? argv[1] : "/dev/media0";
	const char *exp = argc > 2 ? argv[2] : "/etc/n900/topology.expected";
	unsigned int i, n = sizeof(tests) / sizeof(tests[0]), failed = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	ktap_plan(n);
	fd = open(dev, O_RDWR);
	if (fd < 0 || load_expected(exp)) {
		ktap_diag("cannot open %s or read %s", dev, exp);
		for (i = 0; i < n; i++)
			ktap_result(0, "mc_seed_abi.%s", tests[i].name);
		return 1;
	}
	for (i = 0; i < n; i++) {
		char name[80];
		int ok;

		skip_reason = NULL;
		ok = tests[i].fn();
		snprintf(name, sizeof(name), "mc_seed_abi.%s", tests[i].name);
		if (skip_reason)
			ktap_skip(name, "%s", skip_reason);
		else
			failed += !ktap_result(ok, "%s", name);
	}
	close(fd);
	return failed ? 1 : 0;
}
