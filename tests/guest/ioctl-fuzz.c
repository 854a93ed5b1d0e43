// SPDX-License-Identifier: GPL-2.0
/*
 * ioctl-fuzz ERRNOS SEED CALLS SECONDS: random and mutated ioctls on the
 * media node, every subdevice node and every video node of /dev/media0.
 *
 * Each call is a known ioctl with a random argument (ids, pads, indices,
 * flags and sizes drawn near valid values or anywhere, reserved fields set
 * at random), a bad pointer, or an ioctl number whose size field is wrong.
 * Every failure must give an errno that the kernel's documentation lists
 * for that ioctl, or a generic one (ERRNOS, from tests/host/ioctl-errnos.sh).
 * Then two threads toggle links with SETUP_LINK while a third streams the
 * raw pipeline. At the end the graph must have the entities, pads and
 * links it had (links may be enabled or not). KTAP on stdout, with the
 * seed and a tally of the errnos seen.
 */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <linux/media.h>
#include <linux/v4l2-subdev.h>
#include <linux/videodev2.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "ktap.h"

#define MAX_FDS		64
#define MAX_LINKS	256

enum kind { MEDIA, SUBDEV, VIDEO };

struct ioc {
	const char *name;
	unsigned long req;
	enum kind kind;
	char allowed[160];	/* " EINVAL EBUSY ... " from the docs */
};

#define IOC(k, r) { #r, r, k, "" }
static struct ioc iocs[] = {
	IOC(MEDIA, MEDIA_IOC_DEVICE_INFO), IOC(MEDIA, MEDIA_IOC_ENUM_ENTITIES),
	IOC(MEDIA, MEDIA_IOC_ENUM_LINKS), IOC(MEDIA, MEDIA_IOC_SETUP_LINK),
	IOC(MEDIA, MEDIA_IOC_G_TOPOLOGY),
	IOC(SUBDEV, VIDIOC_SUBDEV_QUERYCAP), IOC(SUBDEV, VIDIOC_SUBDEV_G_FMT),
	IOC(SUBDEV, VIDIOC_SUBDEV_S_FMT), IOC(SUBDEV, VIDIOC_SUBDEV_ENUM_MBUS_CODE),
	IOC(SUBDEV, VIDIOC_SUBDEV_ENUM_FRAME_SIZE),
	IOC(SUBDEV, VIDIOC_SUBDEV_ENUM_FRAME_INTERVAL),
	IOC(SUBDEV, VIDIOC_SUBDEV_G_SELECTION), IOC(SUBDEV, VIDIOC_SUBDEV_S_SELECTION),
	IOC(SUBDEV, VIDIOC_SUBDEV_G_FRAME_INTERVAL),
	IOC(SUBDEV, VIDIOC_SUBDEV_S_FRAME_INTERVAL),
	IOC(SUBDEV, VIDIOC_QUERYCTRL), IOC(SUBDEV, VIDIOC_QUERY_EXT_CTRL),
	IOC(SUBDEV, VIDIOC_G_CTRL), IOC(SUBDEV, VIDIOC_S_CTRL),
	IOC(SUBDEV, VIDIOC_G_EXT_CTRLS), IOC(SUBDEV, VIDIOC_S_EXT_CTRLS),
	IOC(SUBDEV, VIDIOC_TRY_EXT_CTRLS), IOC(SUBDEV, VIDIOC_QUERYMENU),
	IOC(VIDEO, VIDIOC_QUERYCAP), IOC(VIDEO, VIDIOC_ENUM_FMT),
	IOC(VIDEO, VIDIOC_G_FMT), IOC(VIDEO, VIDIOC_S_FMT), IOC(VIDEO, VIDIOC_TRY_FMT),
	IOC(VIDEO, VIDIOC_REQBUFS), IOC(VIDEO, VIDIOC_QUERYBUF),
	IOC(VIDEO, VIDIOC_CREATE_BUFS), IOC(VIDEO, VIDIOC_PREPARE_BUF),
	IOC(VIDEO, VIDIOC_QBUF), IOC(VIDEO, VIDIOC_DQBUF), IOC(VIDEO, VIDIOC_EXPBUF),
	IOC(VIDEO, VIDIOC_STREAMON), IOC(VIDEO, VIDIOC_STREAMOFF),
	IOC(VIDEO, VIDIOC_G_PARM), IOC(VIDEO, VIDIOC_ENUM_FRAMESIZES),
	IOC(VIDEO, VIDIOC_G_SELECTION), IOC(VIDEO, VIDIOC_ENUMINPUT),
};
#define NIOCS (sizeof(iocs) / sizeof(iocs[0]))

static const struct { const char *name; int code; } errnames[] = {
	{ "EPERM", EPERM }, { "ENOENT", ENOENT }, { "EINTR", EINTR },
	{ "EIO", EIO }, { "ENXIO", ENXIO }, { "E2BIG", E2BIG },
	{ "EBADF", EBADF }, { "EAGAIN", EAGAIN }, { "EWOULDBLOCK", EWOULDBLOCK },
	{ "ENOMEM", ENOMEM }, { "EACCES", EACCES }, { "EFAULT", EFAULT },
	{ "EBUSY", EBUSY }, { "ENODEV", ENODEV }, { "EINVAL", EINVAL },
	{ "ENOSPC", ENOSPC }, { "ERANGE", ERANGE }, { "EPIPE", EPIPE },
	{ "ENOTTY", ENOTTY }, { "ENODATA", ENODATA }, { "ENOLINK", ENOLINK },
	{ "EBADR", EBADR }, { "EILSEQ", EILSEQ }, { "ENOSR", ENOSR },
	{ "ETIMEDOUT", ETIMEDOUT }, { "EOVERFLOW", EOVERFLOW },
};

static char generic[200];
static unsigned long tally[256];
static unsigned long violations;

static const char *errname(int e)
{
	unsigned int i;

	for (i = 0; i < sizeof(errnames) / sizeof(errnames[0]); i++)
		if (errnames[i].code == e)
			return errnames[i].name;
	return NULL;
}

static int allowed(const struct ioc *c, int e)
{
	const char *n = errname(e);
	char key[32];

	if (!n)
		return 0;
	snprintf(key, sizeof(key), " %s ", n);
	return strstr(generic, key) || strstr(c->allowed, key) ||
	       /* EWOULDBLOCK is EAGAIN */
	       (e == EAGAIN && (strstr(generic, " EWOULDBLOCK ")));
}

static void load_errnos(const char *path)
{
	char line[512], name[64];
	FILE *f = fopen(path, "r");
	unsigned int i;
	int off;

	if (!f) {
		printf("Bail out! %s: %s\n", path, strerror(errno));
		exit(1);
	}
	while (fgets(line, sizeof(line), f)) {
		char *nl = strchr(line, '\n');

		if (nl)
			*nl = ' ';
		if (sscanf(line, "%63s %n", name, &off) != 1)
			continue;
		if (!strcmp(name, "generic"))
			snprintf(generic, sizeof(generic), " %s", line + off);
		for (i = 0; i < NIOCS; i++)
			if (!strcmp(name, iocs[i].name))
				snprintf(iocs[i].allowed, sizeof(iocs[i].allowed),
					 " %s", line + off);
	}
	fclose(f);
}

/* xorshift: the whole run follows from the seed */
static uint64_t rng;
static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 11);
}

/* a value near the valid ones, or anything */
static uint32_t pick(uint32_t valid_max)
{
	switch (rnd() % 8) {
	case 0: return rnd();
	case 1: return ~0U - rnd() % 4;
	case 2: return valid_max + rnd() % 4;
	default: return valid_max ? rnd() % valid_max : 0;
	}
}

struct node { int fd; enum kind kind; char path[32]; };
static struct node nodes[MAX_FDS];
static unsigned int nnodes;
static uint32_t max_entity_id;

static void open_nodes(void)
{
	const char *pats[] = { "/dev/v4l-subdev*", "/dev/video*" };
	enum kind kinds[] = { SUBDEV, VIDEO };
	unsigned int p, i;
	glob_t g;

	nodes[0].fd = open("/dev/media0", O_RDWR | O_NONBLOCK);
	nodes[0].kind = MEDIA;
	strcpy(nodes[0].path, "/dev/media0");
	nnodes = 1;
	for (p = 0; p < 2; p++) {
		if (glob(pats[p], 0, NULL, &g))
			continue;
		for (i = 0; i < g.gl_pathc && nnodes < MAX_FDS; i++) {
			nodes[nnodes].fd = open(g.gl_pathv[i], O_RDWR | O_NONBLOCK);
			nodes[nnodes].kind = kinds[p];
			snprintf(nodes[nnodes].path, sizeof(nodes[0].path), "%s",
				 g.gl_pathv[i]);
			if (nodes[nnodes].fd >= 0)
				nnodes++;
		}
		globfree(&g);
	}
}

/* the graph: entity ids, pad ids, link endpoints (sorted text) */
struct graph {
	unsigned int nents, npads, nlinks;
	struct media_v2_entity ents[512];
	struct media_v2_pad pads[2048];
	struct media_v2_link links[4096];
};

static int topology(int fd, struct graph *g)
{
	struct media_v2_topology t = { 0 };

	if (ioctl(fd, MEDIA_IOC_G_TOPOLOGY, &t) < 0 || t.num_entities > 512 ||
	    t.num_pads > 2048 || t.num_links > 4096)
		return -1;
	t.ptr_entities = (uintptr_t)g->ents;
	t.ptr_pads = (uintptr_t)g->pads;
	t.ptr_links = (uintptr_t)g->links;
	if (ioctl(fd, MEDIA_IOC_G_TOPOLOGY, &t) < 0)
		return -1;
	g->nents = t.num_entities;
	g->npads = t.num_pads;
	g->nlinks = t.num_links;
	return 0;
}

static int same_graph(const struct graph *a, const struct graph *b)
{
	unsigned int i;

	if (a->nents != b->nents || a->npads != b->npads || a->nlinks != b->nlinks)
		return 0;
	for (i = 0; i < a->nents; i++)
		if (a->ents[i].id != b->ents[i].id)
			return 0;
	for (i = 0; i < a->npads; i++)
		if (a->pads[i].id != b->pads[i].id)
			return 0;
	for (i = 0; i < a->nlinks; i++)
		if (a->links[i].id != b->links[i].id ||
		    a->links[i].source_id != b->links[i].source_id ||
		    a->links[i].sink_id != b->links[i].sink_id)
			return 0;
	return 1;
}

static struct graph before, after;

/* data links, as SETUP_LINK wants them */
static struct media_link_desc links[MAX_LINKS];
static unsigned int nlinks;

static void collect_links(int fd)
{
	struct media_entity_desc ent = { .id = MEDIA_ENT_ID_FLAG_NEXT };
	static struct media_link_desc ld[64];
	static struct media_pad_desc pd[64];
	unsigned int i;

	while (!ioctl(fd, MEDIA_IOC_ENUM_ENTITIES, &ent)) {
		struct media_links_enum le = { .entity = ent.id, .pads = pd,
					       .links = ld };

		if (ent.id > max_entity_id)
			max_entity_id = ent.id;
		if (ent.links <= 64 && ent.pads <= 64 &&
		    !ioctl(fd, MEDIA_IOC_ENUM_LINKS, &le))
			for (i = 0; i < ent.links && nlinks < MAX_LINKS; i++)
				links[nlinks++] = ld[i];
		ent.id |= MEDIA_ENT_ID_FLAG_NEXT;
	}
}

static void check(const struct ioc *c, int ret, int e, const char *path)
{
	if (ret >= 0)
		return;
	tally[e & 255]++;
	if (!allowed(c, e)) {
		if (violations < 20)
			ktap_diag("%s on %s: errno %d (%s), not documented for it",
				  c->name, path, e, errname(e) ? errname(e) : "?");
		violations++;
	}
}

/* one random call */
static void fuzz_one(void)
{
	static unsigned char arg[4096];
	struct node *n = &nodes[rnd() % nnodes];
	struct ioc *c;
	unsigned long req;
	void *p = arg;
	unsigned int i, size;
	int ret;

	do
		c = &iocs[rnd() % NIOCS];
	while (c->kind != n->kind);
	req = c->req;
	size = _IOC_SIZE(req);

	/* a plausible argument: zeroes, a few fields near valid values */
	memset(arg, 0, sizeof(arg));
	for (i = 0; i < 6; i++) {
		unsigned int off = (rnd() % (size / 4 + 1)) * 4;

		if (off + 4 <= size)
			*(uint32_t *)(arg + off) = pick(rnd() % 2 ? 8 : max_entity_id + 1);
	}
	if (c->req == MEDIA_IOC_SETUP_LINK && nlinks && rnd() % 2) {
		struct media_link_desc *l = (void *)arg;

		*l = links[rnd() % nlinks];
		l->flags = rnd() % 4 ? (rnd() % 2) : rnd();
	}
	if (c->req == VIDIOC_REQBUFS || c->req == VIDIOC_CREATE_BUFS)
		((uint32_t *)arg)[c->req == VIDIOC_REQBUFS ? 0 : 1] %= 9;
	switch (rnd() % 16) {
	case 0: p = NULL; break;			/* bad pointers */
	case 1: p = (void *)(uintptr_t)0xfffff000; break;
	case 2:						/* wrong size */
		req = (req & ~((unsigned long)_IOC_SIZEMASK << _IOC_SIZESHIFT)) |
		      ((unsigned long)((size + 4 + rnd() % 64) & _IOC_SIZEMASK)
		       << _IOC_SIZESHIFT);
		break;
	case 3: memset(arg, 0xff, size); break;		/* reserved fields set */
	}
	ret = ioctl(n->fd, req, p);
	check(c, ret, errno, n->path);
}

/* --- concurrent SETUP_LINK while a pipeline streams --- */

static int media_fd;
static volatile int stop_threads;
static unsigned long link_calls[2];

static struct ioc *find_ioc(unsigned long req)
{
	unsigned int i;

	for (i = 0; i < NIOCS; i++)
		if (iocs[i].req == req)
			return &iocs[i];
	return NULL;
}

static void *toggler(void *data)
{
	long id = (long)data;
	uint64_t s = rng + id * 7919;
	struct ioc *c = find_ioc(MEDIA_IOC_SETUP_LINK);

	while (!stop_threads && nlinks) {
		struct media_link_desc l;
		int ret;

		s ^= s << 13; s ^= s >> 7; s ^= s << 17;
		l = links[(s >> 11) % nlinks];
		l.flags = (s >> 40) & 1;
		ret = ioctl(media_fd, MEDIA_IOC_SETUP_LINK, &l);
		check(c, ret, errno, "/dev/media0 (thread)");
		link_calls[id]++;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	unsigned long calls, done = 0, i;
	pthread_t t[2];
	time_t t0;
	double secs;
	int ok;

	if (argc != 5) {
		fprintf(stderr, "usage: %s ERRNOS SEED CALLS SECONDS\n", argv[0]);
		return 2;
	}
	load_errnos(argv[1]);
	rng = strtoull(argv[2], NULL, 0) | 1;
	calls = strtoul(argv[3], NULL, 0);
	secs = strtod(argv[4], NULL);
	open_nodes();
	media_fd = nodes[0].fd;

	ktap_plan(4);
	ktap_diag("seed %s, %u nodes", argv[2], nnodes);
	if (media_fd < 0 || topology(media_fd, &before)) {
		printf("Bail out! /dev/media0: %s\n", strerror(errno));
		return 1;
	}
	collect_links(media_fd);

	t0 = time(NULL);
	while (done < calls && difftime(time(NULL), t0) < secs) {
		fuzz_one();
		done++;
	}
	ktap_diag("%lu calls in %.0f s", done, difftime(time(NULL), t0));
	ktap_result(done >= calls, "fuzz_calls # %lu of %lu", done, calls);

	/* two link togglers, while the caller streams (see ioctl-fuzz.sh) */
	for (i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, toggler, (void *)i);
	sleep(5);
	stop_threads = 1;
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	ktap_diag("concurrent SETUP_LINK: %lu + %lu calls", link_calls[0],
		  link_calls[1]);
	ktap_result(link_calls[0] && link_calls[1], "concurrent_setup_link");

	for (i = 0; i < 256; i++)
		if (tally[i])
			ktap_diag("errno %s: %lu", errname(i) ? errname(i) : "?",
				  tally[i]);
	ktap_result(!violations, "documented_errnos # %lu undocumented",
		    violations);

	ok = !topology(media_fd, &after) && same_graph(&before, &after);
	ktap_diag("graph before: %u entities, %u pads, %u links; after: %u, %u, %u",
		  before.nents, before.npads, before.nlinks, after.nents,
		  after.npads, after.nlinks);
	ktap_result(ok, "topology_unchanged");
	return 0;
}
