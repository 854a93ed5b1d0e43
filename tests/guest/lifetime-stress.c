// SPDX-License-Identifier: GPL-2.0
/*
 * lifetime-stress SECONDS SEED [WORKERS] - devices come and go while
 * processes use their nodes (issue 17), for SECONDS, as one KTAP document.
 *
 * WORKERS processes (default 3) loop until the time is up: each picks a
 * random node among /dev/media*, /dev/v4l-subdev* and /dev/video* (the
 * directory is read again every time: nodes come and go), opens it and
 * issues a few random ioctls of its kind:
 *   media     DEVICE_INFO, ENUM_ENTITIES (MEDIA_ENT_ID_FLAG_NEXT), the
 *             ENUM_LINKS of one entity, G_TOPOLOGY, and now and then a
 *             SETUP_LINK of a random data link, to its flags or toggled;
 *   subdev    SUBDEV_QUERYCAP, G_FMT/S_FMT/ENUM_MBUS_CODE on pad 0..3,
 *             the QUERY_EXT_CTRL loop, a control event subscribed;
 *   video     QUERYCAP, G_FMT, ENUM_FMT (video or metadata, capture or
 *             output, from the device caps), and sometimes a stream: two
 *             MMAP buffers mapped and queued, STREAMON, up to 200 ms of
 *             poll, DQBUF, then STREAMOFF and REQBUFS 0, or the fd closed
 *             while it streams and the buffers unmapped only after that.
 * A worker sometimes keeps its fd for a few iterations (one ioctl on it
 * each time, however stale), then closes it. Every errno is expected
 * (ENODEV, EPIPE, EBUSY, EIO, EINVAL, ENXIO, ENOENT...); a worker must only
 * never hang: alarm() ends an iteration that takes 30 s, and the parent
 * kills what is still running 40 s after the end.
 *
 * Meanwhile this process unbinds: every 100-500 ms it picks one of the
 * drivers n900-isp, n900-isp-block, n900-sensor, n900-ad5820,
 * n900-adp1653 and n900-video-bus-switch that has a device bound, one of
 * its devices, writes the name to the driver's unbind, waits 0-300 ms and
 * writes it to bind (an ISP's blocks are its children: they go with it and
 * come back with it, and a bind of a device that went away fails: both
 * are fine). The sysfs writes run in a child process, with a time limit.
 *
 * At the end the workers are stopped, every device this test unbound that
 * is still unbound is bound again (the ISP first), the ISP is cycled once
 * more if its media device is no longer /dev/media0, and:
 *   1 workers_finished  no worker hung or died of a signal (and no sysfs
 *                       write hung);
 *   2 graph_back        /dev/media0 is back, with as many entities
 *                       (G_TOPOLOGY) as before the test;
 *   3 nothing_powered   with every node closed: no subdevice and no bound
 *                       N900 device runtime-active (a bound one must read
 *                       "suspended"), no regulator enabled (all of them
 *                       are the camera's), the camera clocks' enable
 *                       counts 0, every reset line asserted;
 *   4 no_splat          the kernel logged no splat (/dev/kmsg, from the
 *                       start of the test).
 * The seed is printed; the random choices follow from it (a xorshift
 * stream per process), the interleavings do not.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/media.h>
#include <linux/v4l2-subdev.h>
#include <linux/videodev2.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kmsg.h"
#include "ktap.h"

#define MAX_WORKERS	16
#define MAX_HELD	3
#define MAX_DEVS	512
#define MAX_UNBOUND	64
#define NBUF		2
#define NAME_LEN	256	/* a directory entry's name */
#define PATH_LEN	(NAME_LEN + 128)
#define ITER_ALARM	30	/* s: an iteration longer than this hangs */
#define STOP_WAIT	40	/* s: for the workers to stop at the end */
/* ms: a sysfs write longer than this hangs (binding a big topology is slow) */
#define WRITE_TIMEOUT	60000

#define PLATFORM	"/sys/bus/platform"

static const char *const drivers[] = {
	"n900-isp", "n900-isp-block", "n900-sensor", "n900-ad5820",
	"n900-adp1653", "n900-video-bus-switch",
};
#define NDRV	(sizeof(drivers) / sizeof(drivers[0]))

/* what a worker did, in memory shared with the parent */
struct stats {
	unsigned long iterations;
	unsigned long opens;
	unsigned long open_fails;
	unsigned long ioctls;
	unsigned long ioctl_fails;
	unsigned long setup_links;
	unsigned long streams;		/* STREAMON that succeeded */
	unsigned long frames;		/* buffers dequeued */
	unsigned long held;		/* fds kept across iterations */
	unsigned long closed_busy;	/* closed with buffers, maybe streaming */
};

enum kind { K_MEDIA, K_SUBDEV, K_VIDEO };

/* an fd a worker keeps, and the buffers it left mapped */
struct held {
	int fd;
	enum kind kind;
	int left;		/* iterations to go */
	void *map[NBUF];
	size_t len[NBUF];
};

static volatile sig_atomic_t stop;

/* -------------------------------------------------------------------------
 * Random numbers: xorshift64*, one stream per process
 */

static uint64_t splitmix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* the stream of process @idx (0 the parent, 1.. the workers) */
static uint64_t stream_seed(unsigned long seed, unsigned int idx)
{
	uint64_t s = splitmix64(splitmix64(seed) + idx);

	return s ? s : 1;
}

static uint32_t rnd(uint64_t *s, uint32_t n)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return n ? (uint32_t)((*s * 0x2545f4914f6cdd1dULL) >> 32) % n : 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR && !stop)
		;
}

/* -------------------------------------------------------------------------
 * The workers
 */

static int xioctl(struct stats *st, int fd, unsigned long req, void *arg)
{
	int ret = ioctl(fd, req, arg);

	st->ioctls++;
	if (ret < 0)
		st->ioctl_fails++;
	return ret;
}

static int node_kind(const char *name, enum kind *kind)
{
	static const struct { const char *prefix; enum kind kind; } k[] = {
		{ "media", K_MEDIA }, { "v4l-subdev", K_SUBDEV },
		{ "video", K_VIDEO },
	};
	unsigned int i;
	size_t n;

	for (i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
		n = strlen(k[i].prefix);
		if (!strncmp(name, k[i].prefix, n) &&
		    name[n] >= '0' && name[n] <= '9') {
			*kind = k[i].kind;
			return 0;
		}
	}
	return -1;
}

/* a random node of /dev, read now (reservoir sampling); -1 when none */
static int pick_node(uint64_t *rng, char *path, size_t len, enum kind *kind)
{
	struct dirent *e;
	unsigned int n = 0;
	enum kind k;
	DIR *d;

	d = opendir("/dev");
	if (!d)
		return -1;
	while ((e = readdir(d))) {
		if (node_kind(e->d_name, &k))
			continue;
		if (rnd(rng, ++n) == 0) {
			snprintf(path, len, "/dev/%s", e->d_name);
			*kind = k;
		}
	}
	closedir(d);
	return n ? 0 : -1;
}

/* G_TOPOLOGY with arrays; the caller frees them */
static int get_topology(struct stats *st, int fd, struct media_v2_topology *t)
{
	struct media_v2_pad *pads;
	struct media_v2_link *links;
	struct media_v2_entity *ents;
	uint32_t ne, np, nl;

	memset(t, 0, sizeof(*t));
	if (xioctl(st, fd, MEDIA_IOC_G_TOPOLOGY, t) < 0)
		return -1;
	/* room for a graph that grows in between */
	ne = t->num_entities + 32;
	np = t->num_pads + 64;
	nl = t->num_links + 128;
	ents = calloc(ne, sizeof(*ents));
	pads = calloc(np, sizeof(*pads));
	links = calloc(nl, sizeof(*links));
	memset(t, 0, sizeof(*t));
	t->ptr_entities = (uintptr_t)ents;
	t->ptr_pads = (uintptr_t)pads;
	t->ptr_links = (uintptr_t)links;
	t->num_entities = ne;
	t->num_pads = np;
	t->num_links = nl;
	if (!ents || !pads || !links ||
	    xioctl(st, fd, MEDIA_IOC_G_TOPOLOGY, t) < 0) {
		free(ents);
		free(pads);
		free(links);
		t->ptr_entities = t->ptr_pads = t->ptr_links = 0;
		return -1;
	}
	return 0;
}

static void free_topology(struct media_v2_topology *t)
{
	free((void *)(uintptr_t)t->ptr_entities);
	free((void *)(uintptr_t)t->ptr_pads);
	free((void *)(uintptr_t)t->ptr_links);
}

static const struct media_v2_pad *find_pad(const struct media_v2_topology *t,
					   uint32_t id)
{
	const struct media_v2_pad *pads = (void *)(uintptr_t)t->ptr_pads;
	uint32_t i;

	for (i = 0; i < t->num_pads; i++)
		if (pads[i].id == id)
			return &pads[i];
	return NULL;
}

/* SETUP_LINK of a random data link, to its own flags or toggled */
static void setup_random_link(struct stats *st, uint64_t *rng, int fd,
			      const struct media_v2_topology *t)
{
	const struct media_v2_link *links = (void *)(uintptr_t)t->ptr_links;
	const struct media_v2_link *l = NULL;
	const struct media_v2_pad *src, *sink;
	struct media_link_desc d;
	uint32_t i, n = 0;

	for (i = 0; i < t->num_links; i++) {
		if ((links[i].flags & MEDIA_LNK_FL_LINK_TYPE) !=
		    MEDIA_LNK_FL_DATA_LINK)
			continue;
		if (rnd(rng, ++n) == 0)
			l = &links[i];
	}
	if (!l)
		return;
	src = find_pad(t, l->source_id);
	sink = find_pad(t, l->sink_id);
	if (!src || !sink)
		return;
	memset(&d, 0, sizeof(d));
	d.source.entity = src->entity_id;
	d.source.index = src->index;
	d.source.flags = MEDIA_PAD_FL_SOURCE;
	d.sink.entity = sink->entity_id;
	d.sink.index = sink->index;
	d.sink.flags = MEDIA_PAD_FL_SINK;
	d.flags = l->flags & (MEDIA_LNK_FL_ENABLED | MEDIA_LNK_FL_IMMUTABLE);
	if (!(l->flags & MEDIA_LNK_FL_IMMUTABLE) && rnd(rng, 2))
		d.flags ^= MEDIA_LNK_FL_ENABLED;
	st->setup_links++;
	xioctl(st, fd, MEDIA_IOC_SETUP_LINK, &d);
}

static void media_ops(struct stats *st, uint64_t *rng, int fd)
{
	struct media_device_info info;
	struct media_entity_desc e, pick;
	struct media_v2_topology t;
	struct media_links_enum le;
	unsigned int n = 0, guard;

	memset(&info, 0, sizeof(info));
	xioctl(st, fd, MEDIA_IOC_DEVICE_INFO, &info);

	memset(&e, 0, sizeof(e));
	memset(&pick, 0, sizeof(pick));
	e.id = MEDIA_ENT_ID_FLAG_NEXT;
	for (guard = 0; guard < 8192 && !stop; guard++) {
		if (xioctl(st, fd, MEDIA_IOC_ENUM_ENTITIES, &e) < 0)
			break;
		if (rnd(rng, ++n) == 0)
			pick = e;
		e.id |= MEDIA_ENT_ID_FLAG_NEXT;
	}
	if (n) {
		memset(&le, 0, sizeof(le));
		le.entity = pick.id;
		/* room for links made in between (the kernel has no size) */
		le.pads = calloc(pick.pads + 16, sizeof(*le.pads));
		le.links = calloc(pick.links + 64, sizeof(*le.links));
		if (le.pads && le.links)
			xioctl(st, fd, MEDIA_IOC_ENUM_LINKS, &le);
		free(le.pads);
		free(le.links);
	}

	if (get_topology(st, fd, &t) == 0) {
		if (rnd(rng, 8) == 0)
			setup_random_link(st, rng, fd, &t);
		free_topology(&t);
	}
}

static void subdev_ops(struct stats *st, uint64_t *rng, int fd)
{
	struct v4l2_subdev_capability cap;
	struct v4l2_subdev_mbus_code_enum mc;
	struct v4l2_subdev_format f;
	struct v4l2_query_ext_ctrl qc;
	struct v4l2_event_subscription sub;
	struct v4l2_event ev;
	struct v4l2_control c;
	uint32_t pad = rnd(rng, 4), ctrl = 0;
	unsigned int i;

	memset(&cap, 0, sizeof(cap));
	xioctl(st, fd, VIDIOC_SUBDEV_QUERYCAP, &cap);

	memset(&f, 0, sizeof(f));
	f.pad = pad;
	f.which = rnd(rng, 2) ? V4L2_SUBDEV_FORMAT_TRY : V4L2_SUBDEV_FORMAT_ACTIVE;
	/* the same format back: the graph stays configured */
	if (xioctl(st, fd, VIDIOC_SUBDEV_G_FMT, &f) == 0 && rnd(rng, 3) == 0)
		xioctl(st, fd, VIDIOC_SUBDEV_S_FMT, &f);
	for (i = 0; i < 8; i++) {
		memset(&mc, 0, sizeof(mc));
		mc.pad = pad;
		mc.index = i;
		mc.which = V4L2_SUBDEV_FORMAT_ACTIVE;
		if (xioctl(st, fd, VIDIOC_SUBDEV_ENUM_MBUS_CODE, &mc) < 0)
			break;
	}

	memset(&qc, 0, sizeof(qc));
	qc.id = V4L2_CTRL_FLAG_NEXT_CTRL | V4L2_CTRL_FLAG_NEXT_COMPOUND;
	for (i = 0; i < 64; i++) {
		if (xioctl(st, fd, VIDIOC_QUERY_EXT_CTRL, &qc) < 0)
			break;
		if (qc.type != V4L2_CTRL_TYPE_CTRL_CLASS &&
		    (!ctrl || rnd(rng, i + 1) == 0))
			ctrl = qc.id;
		qc.id |= V4L2_CTRL_FLAG_NEXT_CTRL | V4L2_CTRL_FLAG_NEXT_COMPOUND;
	}
	if (!ctrl)
		return;
	memset(&c, 0, sizeof(c));
	c.id = ctrl;
	xioctl(st, fd, VIDIOC_G_CTRL, &c);
	if (rnd(rng, 2)) {
		memset(&sub, 0, sizeof(sub));
		sub.type = V4L2_EVENT_CTRL;
		sub.id = ctrl;
		sub.flags = V4L2_EVENT_SUB_FL_SEND_INITIAL;
		xioctl(st, fd, VIDIOC_SUBSCRIBE_EVENT, &sub);
		if (rnd(rng, 2)) {
			memset(&ev, 0, sizeof(ev));
			xioctl(st, fd, VIDIOC_DQEVENT, &ev);
		}
	}
}

/*
 * A short stream on a video node: 2 MMAP buffers, STREAMON, up to 200 ms
 * of poll, DQBUF, STREAMOFF, REQBUFS 0. Or, one time in 6, it stops before
 * STREAMOFF and returns 1: the fd is left with its buffers (streaming if
 * STREAMON succeeded) and them mapped (in @h), for the caller to close as
 * it is and unmap after that.
 */
static int stream(struct stats *st, uint64_t *rng, int fd, uint32_t type,
		  struct held *h)
{
	struct v4l2_requestbuffers req;
	struct pollfd pfd = { .fd = fd };
	struct v4l2_buffer buf;
	unsigned int i, n;
	int leave = rnd(rng, 6) == 0;

	memset(&req, 0, sizeof(req));
	req.count = NBUF;
	req.type = type;
	req.memory = V4L2_MEMORY_MMAP;
	if (xioctl(st, fd, VIDIOC_REQBUFS, &req) < 0 || !req.count)
		return 0;
	n = req.count < NBUF ? req.count : NBUF;
	for (i = 0; i < n; i++) {
		memset(&buf, 0, sizeof(buf));
		buf.index = i;
		buf.type = type;
		buf.memory = V4L2_MEMORY_MMAP;
		if (xioctl(st, fd, VIDIOC_QUERYBUF, &buf) < 0)
			break;
		h->map[i] = mmap(NULL, buf.length, PROT_READ | PROT_WRITE,
				 MAP_SHARED, fd, buf.m.offset);
		if (h->map[i] == MAP_FAILED) {
			h->map[i] = NULL;
			break;
		}
		h->len[i] = buf.length;
		if (type == V4L2_BUF_TYPE_VIDEO_OUTPUT)
			buf.bytesused = buf.length;
		xioctl(st, fd, VIDIOC_QBUF, &buf);
	}
	if (xioctl(st, fd, VIDIOC_STREAMON, &type) == 0) {
		st->streams++;
		pfd.events = type == V4L2_BUF_TYPE_VIDEO_OUTPUT ? POLLOUT : POLLIN;
		if (poll(&pfd, 1, 200) > 0) {
			memset(&buf, 0, sizeof(buf));
			buf.type = type;
			buf.memory = V4L2_MEMORY_MMAP;
			if (xioctl(st, fd, VIDIOC_DQBUF, &buf) == 0)
				st->frames++;
		}
		if (leave)
			return 1;
		xioctl(st, fd, VIDIOC_STREAMOFF, &type);
	} else if (leave) {
		return 1;
	}
	for (i = 0; i < NBUF; i++) {
		if (h->map[i])
			munmap(h->map[i], h->len[i]);
		h->map[i] = NULL;
	}
	req.count = 0;
	xioctl(st, fd, VIDIOC_REQBUFS, &req);
	return 0;
}

/* Returns 1 when the fd is left with its buffers (see stream()). */
static int video_ops(struct stats *st, uint64_t *rng, int fd, struct held *h)
{
	struct v4l2_capability cap;
	struct v4l2_fmtdesc fd_desc;
	struct v4l2_format f;
	uint32_t caps, type;
	unsigned int i;

	memset(&cap, 0, sizeof(cap));
	if (xioctl(st, fd, VIDIOC_QUERYCAP, &cap) < 0)
		return 0;
	caps = cap.capabilities & V4L2_CAP_DEVICE_CAPS ? cap.device_caps :
							  cap.capabilities;
	type = caps & V4L2_CAP_META_CAPTURE ? V4L2_BUF_TYPE_META_CAPTURE :
	       caps & V4L2_CAP_VIDEO_OUTPUT ? V4L2_BUF_TYPE_VIDEO_OUTPUT :
	       V4L2_BUF_TYPE_VIDEO_CAPTURE;

	memset(&f, 0, sizeof(f));
	f.type = type;
	xioctl(st, fd, VIDIOC_G_FMT, &f);
	for (i = 0; i < 32; i++) {
		memset(&fd_desc, 0, sizeof(fd_desc));
		fd_desc.index = i;
		fd_desc.type = type;
		if (xioctl(st, fd, VIDIOC_ENUM_FMT, &fd_desc) < 0)
			break;
	}
	if (rnd(rng, 4) == 0)
		return stream(st, rng, fd, type, h);
	return 0;
}

/* one ioctl on a kept fd, which may be stale by now */
static void poke(struct stats *st, struct held *h)
{
	struct media_device_info info;
	struct v4l2_subdev_capability scap;
	struct v4l2_capability cap;

	switch (h->kind) {
	case K_MEDIA:
		memset(&info, 0, sizeof(info));
		xioctl(st, h->fd, MEDIA_IOC_DEVICE_INFO, &info);
		break;
	case K_SUBDEV:
		memset(&scap, 0, sizeof(scap));
		xioctl(st, h->fd, VIDIOC_SUBDEV_QUERYCAP, &scap);
		break;
	case K_VIDEO:
		memset(&cap, 0, sizeof(cap));
		xioctl(st, h->fd, VIDIOC_QUERYCAP, &cap);
		break;
	}
}

/* close, then unmap what was left mapped */
static void release(struct held *h)
{
	unsigned int i;

	if (h->fd >= 0)
		close(h->fd);
	h->fd = -1;
	for (i = 0; i < NBUF; i++) {
		if (h->map[i])
			munmap(h->map[i], h->len[i]);
		h->map[i] = NULL;
	}
}

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

static void worker(unsigned int idx, unsigned long seed, double deadline,
		   struct stats *st)
{
	struct held held[MAX_HELD], cur;
	struct sigaction sa;
	uint64_t rng = stream_seed(seed, idx);
	char path[PATH_LEN];
	enum kind kind;
	unsigned int i;
	int busy;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_term;	/* no SA_RESTART: poll() returns */
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGALRM, SIG_DFL);	/* a hung iteration ends the worker */
	signal(SIGPIPE, SIG_IGN);
	memset(held, 0, sizeof(held));
	for (i = 0; i < MAX_HELD; i++)
		held[i].fd = -1;

	while (!stop && now() < deadline) {
		alarm(ITER_ALARM);
		st->iterations++;
		for (i = 0; i < MAX_HELD; i++) {
			if (held[i].fd < 0)
				continue;
			poke(st, &held[i]);
			if (--held[i].left <= 0)
				release(&held[i]);
		}
		if (pick_node(&rng, path, sizeof(path), &kind)) {
			sleep_ms(20);
			continue;
		}
		memset(&cur, 0, sizeof(cur));
		cur.kind = kind;
		cur.fd = open(path, O_RDWR | O_NONBLOCK);
		if (cur.fd < 0) {
			st->open_fails++;
			sleep_ms(rnd(&rng, 5));
			continue;
		}
		st->opens++;
		busy = 0;
		switch (kind) {
		case K_MEDIA:
			media_ops(st, &rng, cur.fd);
			break;
		case K_SUBDEV:
			subdev_ops(st, &rng, cur.fd);
			break;
		case K_VIDEO:
			busy = video_ops(st, &rng, cur.fd, &cur);
			break;
		}
		/* keep it for a few iterations, or close it now */
		if (rnd(&rng, 4) == 0) {
			for (i = 0; i < MAX_HELD; i++) {
				if (held[i].fd >= 0)
					continue;
				cur.left = 1 + rnd(&rng, 4);
				held[i] = cur;
				cur.fd = -1;
				st->held++;
				break;
			}
		}
		if (cur.fd >= 0) {
			st->closed_busy += busy;
			release(&cur);
		}
	}
	alarm(0);
	for (i = 0; i < MAX_HELD; i++)
		release(&held[i]);
	_exit(0);
}

/* -------------------------------------------------------------------------
 * The unbinder
 */

struct dev_ref {
	unsigned int drv;
	char name[NAME_LEN];
};

static struct dev_ref unbound[MAX_UNBOUND];
static unsigned int n_unbound;
static unsigned long unbinds[NDRV], unbind_fails[NDRV], binds[NDRV],
		     bind_fails[NDRV];
static char hung[2 * PATH_LEN + 64];

/* the devices bound to driver @drv (its directory's device links) */
static unsigned int bound_devices(unsigned int drv, struct dev_ref *out,
				  unsigned int max)
{
	char dir[128], path[PATH_LEN];
	struct dirent *e;
	unsigned int n = 0;
	struct stat sb;
	DIR *d;

	snprintf(dir, sizeof(dir), PLATFORM "/drivers/%s", drivers[drv]);
	d = opendir(dir);
	if (!d)
		return 0;
	while ((e = readdir(d)) && n < max) {
		if (e->d_name[0] == '.' || !strcmp(e->d_name, "module"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (lstat(path, &sb) || !S_ISLNK(sb.st_mode))
			continue;
		out[n].drv = drv;
		snprintf(out[n].name, sizeof(out[n].name), "%s", e->d_name);
		n++;
	}
	closedir(d);
	return n;
}

/*
 * Write @val to @path from a child process, for at most WRITE_TIMEOUT ms.
 * Returns 0, an errno, or ETIMEDOUT (and notes the hang) when it hangs.
 */
static int sysfs_write(const char *path, const char *val)
{
	double end = now() + WRITE_TIMEOUT / 1000.0;
	int status, fd, err;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return errno;
	if (pid == 0) {
		fd = open(path, O_WRONLY);
		if (fd < 0)
			_exit(errno > 255 ? 255 : errno);
		err = write(fd, val, strlen(val)) < 0 ? errno : 0;
		_exit(err > 255 ? 255 : err);
	}
	while (waitpid(pid, &status, WNOHANG) == 0) {
		if (now() > end) {
			kill(pid, SIGKILL);
			if (!hung[0])
				snprintf(hung, sizeof(hung),
					 "writing %s to %s did not end in %d s",
					 val, path, WRITE_TIMEOUT / 1000);
			return ETIMEDOUT;
		}
		sleep_ms(5);
	}
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return EINTR;	/* the child died: an oops in the write */
}

static int drv_write(unsigned int drv, const char *what, const char *name)
{
	char path[PATH_LEN];

	snprintf(path, sizeof(path), PLATFORM "/drivers/%s/%s", drivers[drv],
		 what);
	return sysfs_write(path, name);
}

static void note_unbound(const struct dev_ref *r)
{
	unsigned int i;

	for (i = 0; i < n_unbound; i++)
		if (unbound[i].drv == r->drv && !strcmp(unbound[i].name, r->name))
			return;
	if (n_unbound < MAX_UNBOUND)
		unbound[n_unbound++] = *r;
}

/* one unbind and bind of a random device of a random driver */
static void unbind_one(uint64_t *rng)
{
	static struct dev_ref devs[MAX_DEVS];
	unsigned int have[NDRV], n_have = 0, drv, n, i;
	struct dev_ref r;

	for (i = 0; i < NDRV; i++)
		if (bound_devices(i, devs, 1))
			have[n_have++] = i;
	if (!n_have)
		return;
	drv = have[rnd(rng, n_have)];
	n = bound_devices(drv, devs, MAX_DEVS);
	if (!n)
		return;
	r = devs[rnd(rng, n)];
	if (drv_write(drv, "unbind", r.name)) {
		unbind_fails[drv]++;
		return;
	}
	unbinds[drv]++;
	note_unbound(&r);
	if (hung[0])
		return;
	sleep_ms(rnd(rng, 301));
	if (drv_write(drv, "bind", r.name))
		bind_fails[drv]++;	/* gone with its ISP, or deferred */
	else
		binds[drv]++;
}

static int is_bound(const char *name)
{
	char path[PATH_LEN];

	snprintf(path, sizeof(path), PLATFORM "/devices/%s/driver", name);
	return access(path, F_OK) == 0;
}

static int exists(const char *name)
{
	char path[PATH_LEN];

	snprintf(path, sizeof(path), PLATFORM "/devices/%s", name);
	return access(path, F_OK) == 0;
}

/* bind what this test unbound and is still unbound, the ISP first */
static unsigned int rebind_all(void)
{
	unsigned int i, pass, n = 0;

	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < n_unbound && !hung[0]; i++) {
			if ((unbound[i].drv == 0) != (pass == 0))
				continue;
			if (!exists(unbound[i].name) || is_bound(unbound[i].name))
				continue;
			if (!drv_write(unbound[i].drv, "bind", unbound[i].name))
				n++;
		}
		/* the ISP's blocks come back with it */
		if (pass == 0 && n)
			sleep_ms(500);
	}
	return n;
}

/* the media node of the ISP @isp ("media0"), or "" while it has none */
static void isp_media(const char *isp, char *out, size_t len)
{
	char dir[PATH_LEN];
	struct dirent *e;
	DIR *d;

	out[0] = 0;
	snprintf(dir, sizeof(dir), PLATFORM "/devices/%s", isp);
	d = opendir(dir);
	if (!d)
		return;
	while ((e = readdir(d)))
		if (!strncmp(e->d_name, "media", 5) && e->d_name[5] >= '0' &&
		    e->d_name[5] <= '9')
			snprintf(out, len, "%s", e->d_name);
	closedir(d);
}

/* the entities of /dev/media0 (G_TOPOLOGY), or -1 */
static long entity_count(void)
{
	struct media_v2_topology t;
	int fd = open("/dev/media0", O_RDWR);
	long n = -1;

	if (fd < 0)
		return -1;
	memset(&t, 0, sizeof(t));
	if (!ioctl(fd, MEDIA_IOC_G_TOPOLOGY, &t))
		n = t.num_entities;
	close(fd);
	return n;
}

/* -------------------------------------------------------------------------
 * What is left powered
 */

static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	buf[0] = 0;
	if (!f)
		return -1;
	if (!fgets(buf, len, f))
		buf[0] = 0;
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

static void append(char *out, size_t len, const char *fmt, const char *a,
		   const char *b)
{
	size_t n = strlen(out);

	if (n < len)
		snprintf(out + n, len - n, fmt, a, b);
}

/* what is still powered into @out ("" when nothing) */
static void power_left(char *out, size_t len)
{
	static const char *const clocks[] = { "cam_xclka", "cam_xclkb", "cam_mclk" };
	char path[PATH_LEN], val[128], name[128], line[256];
	struct dirent *e;
	unsigned int i;
	FILE *f;
	DIR *d;

	out[0] = 0;
	d = opendir("/sys/class/video4linux");
	while (d && (e = readdir(d))) {
		if (strncmp(e->d_name, "v4l-subdev", 10))
			continue;
		snprintf(path, sizeof(path),
			 "/sys/class/video4linux/%s/device/power/runtime_status",
			 e->d_name);
		if (read_line(path, val, sizeof(val)) || strcmp(val, "active"))
			continue;
		snprintf(path, sizeof(path), "/sys/class/video4linux/%s/name",
			 e->d_name);
		read_line(path, name, sizeof(name));
		append(out, len, "subdevice %s %s, ", name, val);
	}
	if (d)
		closedir(d);

	/* bound N900 devices, those without a node too: suspended */
	d = opendir(PLATFORM "/devices");
	while (d && (e = readdir(d))) {
		snprintf(path, sizeof(path), PLATFORM "/devices/%s/of_node/compatible",
			 e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		i = fread(line, 1, sizeof(line) - 1, f);
		fclose(f);
		line[i] = 0;
		if (strncmp(line, "n900emu,", 8) || !is_bound(e->d_name))
			continue;
		snprintf(path, sizeof(path), PLATFORM "/devices/%s/power/runtime_status",
			 e->d_name);
		read_line(path, val, sizeof(val));
		if (strcmp(val, "suspended"))
			append(out, len, "device %s %s, ", e->d_name, val);
	}
	if (d)
		closedir(d);

	d = opendir("/sys/class/regulator");
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/class/regulator/%s/state",
			 e->d_name);
		if (read_line(path, val, sizeof(val)) || strcmp(val, "enabled"))
			continue;
		snprintf(path, sizeof(path), "/sys/class/regulator/%s/name",
			 e->d_name);
		read_line(path, name, sizeof(name));
		append(out, len, "regulator %s %s, ", name, val);
	}
	if (d)
		closedir(d);

	for (i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++) {
		snprintf(path, sizeof(path),
			 "/sys/kernel/debug/clk/%s/clk_enable_count", clocks[i]);
		if (read_line(path, val, sizeof(val)) || !strcmp(val, "0"))
			continue;
		append(out, len, "clock %s enabled %s, ", clocks[i], val);
	}

	/* reset-gpios are active low: "out lo" is asserted */
	f = fopen("/sys/kernel/debug/gpio", "r");
	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		if (strstr(line, "gpio-") && strstr(line, "reset") &&
		    !strstr(line, "out lo"))
			append(out, len, "%s%s, ", "reset line released: ", line);
	}
	if (f)
		fclose(f);
}

/* -------------------------------------------------------------------------
 * The test
 */

int main(int argc, char **argv)
{
	unsigned int seconds, nworkers = 3, i, alive, rebound, cycles = 0;
	unsigned long seed, unbinder_rounds = 0;
	pid_t pids[MAX_WORKERS];
	int status[MAX_WORKERS], done[MAX_WORKERS], killed[MAX_WORKERS];
	long before, after = -1;
	char isp[NAME_LEN] = "", media[NAME_LEN], left[2048];
	struct dev_ref r;
	struct stats *st, sum;
	uint64_t rng;
	double deadline, t;
	int kmsg, kmsg_err, ok, failed = 0;

	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: lifetime-stress SECONDS SEED [WORKERS]\n");
		return 2;
	}
	seconds = strtoul(argv[1], NULL, 0);
	seed = strtoul(argv[2], NULL, 0);
	if (argc == 4)
		nworkers = strtoul(argv[3], NULL, 0);
	if (nworkers < 1 || nworkers > MAX_WORKERS) {
		fprintf(stderr, "lifetime-stress: 1 to %d workers\n", MAX_WORKERS);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGPIPE, SIG_IGN);
	rng = stream_seed(seed, 0);

	ktap_plan(4);
	ktap_diag("seed %lu", seed);
	ktap_diag("%u s, %u workers", seconds, nworkers);

	for (t = now() + 20; (before = entity_count()) < 0 && now() < t;)
		sleep_ms(100);
	if (bound_devices(0, &r, 1))
		snprintf(isp, sizeof(isp), "%s", r.name);
	ktap_diag("/dev/media0: %ld entities; the ISP: %s", before,
		  isp[0] ? isp : "none");

	kmsg = kmsg_open();
	kmsg_err = errno;

	st = mmap(NULL, MAX_WORKERS * sizeof(*st), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (st == MAP_FAILED) {
		perror("lifetime-stress: mmap");
		return 1;
	}
	memset(st, 0, MAX_WORKERS * sizeof(*st));

	deadline = now() + seconds;
	fflush(stdout);
	for (i = 0; i < nworkers; i++) {
		pids[i] = fork();
		if (pids[i] == 0)
			worker(i + 1, seed, deadline, &st[i]);
		done[i] = pids[i] < 0;
		killed[i] = 0;
		status[i] = pids[i] < 0 ? 1 << 8 : 0;	/* no fork: "exit 1" */
	}

	/* the unbinder, until the time is up or a write hangs */
	while (now() < deadline && !hung[0]) {
		sleep_ms(100 + rnd(&rng, 401));
		if (now() >= deadline)
			break;
		unbind_one(&rng);
		unbinder_rounds++;
	}

	/* stop the workers: SIGTERM, STOP_WAIT s, then SIGKILL */
	for (i = 0; i < nworkers; i++)
		if (!done[i])
			kill(pids[i], SIGTERM);
	for (t = now() + STOP_WAIT;;) {
		alive = 0;
		for (i = 0; i < nworkers; i++) {
			if (done[i])
				continue;
			if (waitpid(pids[i], &status[i], WNOHANG) == pids[i])
				done[i] = 1;
			else
				alive++;
		}
		if (!alive)
			break;
		if (now() > t) {
			for (i = 0; i < nworkers; i++) {
				if (done[i] || killed[i])
					continue;
				kill(pids[i], SIGKILL);
				killed[i] = 1;
			}
			if (now() > t + 5)
				break;	/* unkillable: stuck in the kernel */
		}
		sleep_ms(20);
	}

	/* put back what we took away, and media0 */
	rebound = rebind_all();
	for (t = now() + 20; isp[0] && now() < t; sleep_ms(100)) {
		isp_media(isp, media, sizeof(media));
		if (!media[0])
			continue;
		if (!strcmp(media, "media0") || cycles || hung[0])
			break;
		/* registered while an old /dev/media0 was open: cycle it */
		ktap_diag("the ISP's media device is %s: unbind and bind it once more",
			  media);
		cycles++;
		if (!drv_write(0, "unbind", isp))
			drv_write(0, "bind", isp);
	}
	for (t = now() + 20; now() < t; sleep_ms(100)) {
		after = entity_count();
		if (after == before)
			break;
	}

	/* the diagnostics */
	memset(&sum, 0, sizeof(sum));
	for (i = 0; i < nworkers; i++) {
		ktap_diag("worker %u: %lu iterations, %lu opens (%lu failed), %lu ioctls (%lu failed), %lu SETUP_LINK, %lu streams started, %lu frames dequeued, %lu fds kept, %lu closed with their buffers",
			  i + 1, st[i].iterations, st[i].opens, st[i].open_fails,
			  st[i].ioctls, st[i].ioctl_fails, st[i].setup_links,
			  st[i].streams, st[i].frames, st[i].held,
			  st[i].closed_busy);
		sum.iterations += st[i].iterations;
		sum.ioctls += st[i].ioctls;
		sum.streams += st[i].streams;
		sum.frames += st[i].frames;
	}
	ktap_diag("in all: %lu iterations, %lu ioctls, %lu streams started, %lu frames dequeued",
		  sum.iterations, sum.ioctls, sum.streams, sum.frames);
	ktap_diag("%lu unbinder rounds", unbinder_rounds);
	for (i = 0; i < NDRV; i++)
		if (unbinds[i] || unbind_fails[i])
			ktap_diag("%s: %lu unbinds (%lu failed), %lu binds (%lu failed)",
				  drivers[i], unbinds[i], unbind_fails[i], binds[i],
				  bind_fails[i]);
	ktap_diag("%u devices bound again at the end", rebound);

	/* 1: workers_finished */
	ok = !hung[0];
	if (hung[0])
		ktap_diag("%s", hung);
	for (i = 0; i < nworkers; i++) {
		if (!done[i]) {
			ktap_diag("worker %u (pid %d) could not be killed: stuck in the kernel",
				  i + 1, pids[i]);
			ok = 0;
		} else if (killed[i]) {
			ktap_diag("worker %u did not stop in %d s: killed", i + 1,
				  STOP_WAIT);
			ok = 0;
		} else if (WIFSIGNALED(status[i])) {
			ktap_diag("worker %u died of signal %d (%s)%s", i + 1,
				  WTERMSIG(status[i]), strsignal(WTERMSIG(status[i])),
				  WTERMSIG(status[i]) == SIGALRM ?
				  ": an iteration hung" : "");
			ok = 0;
		} else if (WEXITSTATUS(status[i])) {
			ktap_diag("worker %u exited with %d", i + 1,
				  WEXITSTATUS(status[i]));
			ok = 0;
		}
	}
	failed += !ktap_result(ok, "workers_finished");

	/* 2: graph_back */
	ok = before >= 0 && after == before;
	ktap_diag("/dev/media0: %ld entities before, %ld after%s", before, after,
		  after < 0 ? " (no media device)" : "");
	failed += !ktap_result(ok, "graph_back");

	/* 3: nothing_powered (a moment for a late power-off) */
	for (t = now() + 2;; sleep_ms(100)) {
		power_left(left, sizeof(left));
		if (!left[0] || now() > t)
			break;
	}
	ktap_diag("left powered: %s", left[0] ? left : "nothing");
	failed += !ktap_result(!left[0], "nothing_powered");

	/* 4: no_splat */
	if (kmsg < 0) {
		ktap_skip("no_splat", "/dev/kmsg: %s", strerror(kmsg_err));
	} else {
		i = splats_since(kmsg);
		ktap_diag("%u kernel splats since the start", i);
		failed += !ktap_result(!i, "no_splat");
	}
	return failed ? 1 : 0;
}
