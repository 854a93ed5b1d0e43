// SPDX-License-Identifier: GPL-2.0
/*
 * mc-bench MEDIA VIDEO [MEDIA2 VIDEO2]: time the media controller
 * operations that grow with the size of the graph (./build.sh bench boots
 * it on chain-N, and on chains-N with two media devices):
 *
 *   enum      full enumeration the way media-ctl does it: ENUM_ENTITIES
 *             with MEDIA_ENT_ID_FLAG_NEXT from id 0, then ENUM_LINKS on
 *             every entity
 *   topology  MEDIA_IOC_G_TOPOLOGY, both calls (counts, then the arrays)
 *   toggle    with VIDEO open (pipeline power on), disabling and enabling
 *             again the middle enabled data link: one SETUP_LINK pair
 *   toggle_idle  the same pair with VIDEO closed: SETUP_LINK's checks
 *             and graph walks without the power transitions
 *   power_on  open() of VIDEO, which powers up its whole pipeline
 *
 * and, per call, the ioctls of the enumeration against the cheapest one:
 *
 *   device_info    MEDIA_IOC_DEVICE_INFO, as many calls as entities
 *   enum_entities  ENUM_ENTITIES with MEDIA_ENT_ID_FLAG_NEXT from id 0 to
 *                  the end (entities + 1 calls, the last one EINVAL)
 *   enum_links     ENUM_LINKS on every entity (entities calls)
 *
 * Each is repeated until it has run at least MIN_RUNS times and for
 * BUDGET_US, at most MAX_RUNS times; one line per operation:
 *
 *   BENCH op=enum entities=1024 runs=9 median_us=123456 min_us=120000
 *   BENCH-CALL op=enum_links entities=1024 calls=1024 runs=9 median_us=52000 per_call_us=50.78
 *
 * With two media devices, each run on one is followed by the same run on
 * the other, so that a change of the machine's speed meets both alike
 * (in alternating order, each timed run after an untimed one of its own:
 * bench(); before each untimed run, two address-space switches, which let
 * QEMU size its software TLB to the graph: partner_start()):
 * a line per device, then the bigger graph's time over the smaller's,
 * the median (and extremes) of the run by run ratios (per call for the
 * per-call operations):
 *
 *   BENCH-PAIR op=enum entities=4097/1025 runs=31 ratio=4.21 min=3.90 max=4.80
 *
 * mc-bench --loop OP SECONDS MEDIA VIDEO runs the one operation OP (one
 * of the above but power_on) on MEDIA for SECONDS, for a profiler to watch
 * (after eight untimed runs, each followed by the switches):
 *
 *   BENCH-LOOP op=topology entities=4097 runs=4870 mean_us=2053.1
 *
 * mc-bench runs on the last CPU (and its partner process with it);
 * MC_BENCH_SWITCH=0 in the environment leaves the switches out.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/media.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#define MIN_RUNS	5
#define MAX_RUNS	31
#define BUDGET_US	3000000.0

/* a media device under test; two in the paired mode, timed in turn */
struct mcdev {
	int media_fd;
	const char *video_path;
	unsigned int num_entities;
	/* the entities' ids and sizes, from the first enumeration */
	struct media_entity_desc *descs;
	size_t descs_size;
	struct media_link_desc toggle_link;
	int video_fd;
};

static struct mcdev devs[2] = { { .video_fd = -1 }, { .video_fd = -1 } };
static struct mcdev *cur = devs;

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static void die(const char *what)
{
	fprintf(stderr, "mc-bench: %s: %s\n", what, strerror(errno));
	printf("BENCH-FAILED %s: %s\n", what, strerror(errno));
	exit(1);
}

static void *grow(void *buf, size_t *have, size_t want)
{
	if (want <= *have)
		return buf;
	buf = realloc(buf, want);
	if (!buf)
		die("realloc");
	*have = want;
	return buf;
}

/* one media-ctl style enumeration; returns the number of entities */
static unsigned int enumerate(void)
{
	static struct media_pad_desc *pads;
	static struct media_link_desc *links;
	static size_t pads_size, links_size;
	struct media_entity_desc ed;
	struct media_links_enum le;
	unsigned int n = 0;
	__u32 id = 0;

	for (;;) {
		memset(&ed, 0, sizeof(ed));
		ed.id = id | MEDIA_ENT_ID_FLAG_NEXT;
		if (ioctl(cur->media_fd, MEDIA_IOC_ENUM_ENTITIES, &ed) < 0) {
			if (errno == EINVAL)
				break;
			die("MEDIA_IOC_ENUM_ENTITIES");
		}
		id = ed.id;
		cur->descs = grow(cur->descs, &cur->descs_size, (n + 1) * sizeof(*cur->descs));
		cur->descs[n] = ed;
		pads = grow(pads, &pads_size, (ed.pads + 1) * sizeof(*pads));
		links = grow(links, &links_size, (ed.links + 1) * sizeof(*links));
		memset(&le, 0, sizeof(le));
		le.entity = id;
		le.pads = pads;
		le.links = links;
		if (ioctl(cur->media_fd, MEDIA_IOC_ENUM_LINKS, &le) < 0)
			die("MEDIA_IOC_ENUM_LINKS");
		n++;
	}
	return n;
}

static struct media_v2_topology topo;

/* MEDIA_IOC_G_TOPOLOGY the way v4l2-compliance does it: two calls */
static void get_topology(void)
{
	static struct media_v2_entity *ents;
	static struct media_v2_interface *intfs;
	static struct media_v2_pad *pads;
	static struct media_v2_link *links;
	static size_t es, is, ps, ls;

	memset(&topo, 0, sizeof(topo));
	if (ioctl(cur->media_fd, MEDIA_IOC_G_TOPOLOGY, &topo) < 0)
		die("MEDIA_IOC_G_TOPOLOGY");
	ents = grow(ents, &es, (topo.num_entities + 1) * sizeof(*ents));
	intfs = grow(intfs, &is, (topo.num_interfaces + 1) * sizeof(*intfs));
	pads = grow(pads, &ps, (topo.num_pads + 1) * sizeof(*pads));
	links = grow(links, &ls, (topo.num_links + 1) * sizeof(*links));
	topo.ptr_entities = (uintptr_t)ents;
	topo.ptr_interfaces = (uintptr_t)intfs;
	topo.ptr_pads = (uintptr_t)pads;
	topo.ptr_links = (uintptr_t)links;
	if (ioctl(cur->media_fd, MEDIA_IOC_G_TOPOLOGY, &topo) < 0)
		die("MEDIA_IOC_G_TOPOLOGY");
}


/* the middle enabled, mutable data link between two pads */
static void pick_link(void)
{
	struct media_v2_link *links;
	struct media_v2_pad *pads;
	unsigned int i, j, cand = 0, want, found = 0;

	/* the arrays of this call (they may have moved: grow()) */
	get_topology();
	links = (void *)(uintptr_t)topo.ptr_links;
	pads = (void *)(uintptr_t)topo.ptr_pads;
	for (i = 0; i < topo.num_links; i++)
		if ((links[i].flags & MEDIA_LNK_FL_LINK_TYPE) == MEDIA_LNK_FL_DATA_LINK &&
		    (links[i].flags & MEDIA_LNK_FL_ENABLED) &&
		    !(links[i].flags & MEDIA_LNK_FL_IMMUTABLE))
			cand++;
	if (!cand) {
		errno = ENOENT;
		die("no enabled mutable data link to toggle");
	}
	want = cand / 2;
	for (i = 0, cand = 0; i < topo.num_links; i++) {
		struct media_v2_link *l = &links[i];

		if ((l->flags & MEDIA_LNK_FL_LINK_TYPE) != MEDIA_LNK_FL_DATA_LINK ||
		    !(l->flags & MEDIA_LNK_FL_ENABLED) ||
		    (l->flags & MEDIA_LNK_FL_IMMUTABLE) || cand++ != want)
			continue;
		for (j = 0; j < topo.num_pads; j++) {
			if (pads[j].id == l->source_id) {
				cur->toggle_link.source.entity = pads[j].entity_id;
				cur->toggle_link.source.index = pads[j].index;
				found++;
			}
			if (pads[j].id == l->sink_id) {
				cur->toggle_link.sink.entity = pads[j].entity_id;
				cur->toggle_link.sink.index = pads[j].index;
				found++;
			}
		}
		break;
	}
	if (found != 2) {
		errno = ENOENT;
		die("the pads of the link to toggle");
	}
}

static void op_enum(void)
{
	if (enumerate() != cur->num_entities) {
		errno = EIO;
		die("the entity count changed");
	}
}

static void op_topology(void)
{
	get_topology();
}

static void op_toggle(void)
{
	cur->toggle_link.flags = 0;
	if (ioctl(cur->media_fd, MEDIA_IOC_SETUP_LINK, &cur->toggle_link) < 0)
		die("MEDIA_IOC_SETUP_LINK (disable)");
	cur->toggle_link.flags = MEDIA_LNK_FL_ENABLED;
	if (ioctl(cur->media_fd, MEDIA_IOC_SETUP_LINK, &cur->toggle_link) < 0)
		die("MEDIA_IOC_SETUP_LINK (enable)");
}

/* timed: the open; the close afterwards is not */
static double op_power_on(void)
{
	double t0 = now_us(), t;
	int fd = open(cur->video_path, O_RDWR);

	t = now_us() - t0;
	if (fd < 0)
		die(cur->video_path);
	close(fd);
	return t;
}

static void op_device_info(void)
{
	struct media_device_info info;
	unsigned int i;

	for (i = 0; i < cur->num_entities; i++)
		if (ioctl(cur->media_fd, MEDIA_IOC_DEVICE_INFO, &info) < 0)
			die("MEDIA_IOC_DEVICE_INFO");
}

static void op_enum_entities(void)
{
	struct media_entity_desc ed;
	__u32 id = 0;

	for (;;) {
		memset(&ed, 0, sizeof(ed));
		ed.id = id | MEDIA_ENT_ID_FLAG_NEXT;
		if (ioctl(cur->media_fd, MEDIA_IOC_ENUM_ENTITIES, &ed) < 0) {
			if (errno == EINVAL)
				break;
			die("MEDIA_IOC_ENUM_ENTITIES");
		}
		id = ed.id;
	}
}

static void op_enum_links(void)
{
	static struct media_pad_desc *pads;
	static struct media_link_desc *links;
	static size_t pads_size, links_size;
	struct media_links_enum le;
	unsigned int i;

	for (i = 0; i < cur->num_entities; i++) {
		pads = grow(pads, &pads_size, (cur->descs[i].pads + 1) * sizeof(*pads));
		links = grow(links, &links_size,
			     (cur->descs[i].links + 1) * sizeof(*links));
		memset(&le, 0, sizeof(le));
		le.entity = cur->descs[i].id;
		le.pads = pads;
		le.links = links;
		if (ioctl(cur->media_fd, MEDIA_IOC_ENUM_LINKS, &le) < 0)
			die("MEDIA_IOC_ENUM_LINKS");
	}
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static unsigned int ndevs = 1;

/*
 * The partner: a process on mc-bench's CPU that answers a byte with
 * a byte, so that partner_switch() makes the guest change address space
 * (ASID) twice. QEMU flushes its software TLB at each change, and sizes
 * that TLB only at a flush, from how full it was since the last one: a
 * process alone on its CPU never changes address space, and QEMU's TLB
 * keeps the size it had when mc-bench started, whatever graph it reads.
 * With MC_BENCH_SWITCH=0 in the environment there is no partner (mc-bench
 * is still pinned).
 */
static int to_partner[2] = { -1, -1 }, from_partner[2] = { -1, -1 };

static void partner_start(bool switches)
{
	const char *sw = getenv("MC_BENCH_SWITCH");
	long cpu = sysconf(_SC_NPROCESSORS_ONLN) - 1;
	cpu_set_t set;
	pid_t pid;
	char c;

	/* the last CPU: the first takes the virtio interrupts */
	CPU_ZERO(&set);
	CPU_SET(cpu > 0 ? cpu : 0, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
	if (!switches || (sw && !strcmp(sw, "0")))
		return;
	/* a partner gone: an error from write(), not a silent death */
	signal(SIGPIPE, SIG_IGN);
	if (pipe(to_partner) || pipe(from_partner))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid) {
		close(to_partner[0]);
		close(from_partner[1]);
		return;
	}
	/* the partner: until mc-bench's end of the pipe closes */
	close(to_partner[1]);
	close(from_partner[0]);
	while (read(to_partner[0], &c, 1) == 1 &&
	       write(from_partner[1], &c, 1) == 1)
		;
	_exit(0);
}

/* to the partner and back: two address-space switches on this CPU */
static void partner_switch(void)
{
	char c = 0;

	if (to_partner[1] < 0)
		return;
	if (write(to_partner[1], &c, 1) != 1 || read(from_partner[0], &c, 1) != 1)
		die("partner");
}

/* one run of @fn (timed here) or of @timed (which times itself) on @d */
static double run(struct mcdev *d, void (*fn)(void), double (*timed)(void))
{
	double t0 = now_us();

	cur = d;
	if (timed)
		return timed();
	fn();
	return now_us() - t0;
}

/*
 * Runs @fn (timed whole), or @timed (which times itself), until it has run
 * MIN_RUNS times and for BUDGET_US, at most MAX_RUNS times. With
 * @per_call, a run makes as many ioctls as the device has entities, plus
 * @extra_calls, and the figures are per call.
 *
 * With two devices, a run on each, one right after the other, so that a
 * change of the machine's speed meets both alike; the smaller graph first
 * in even runs, the bigger in odd ones, and each timed run right after an
 * untimed one of its own (as the run before it on one device, it warms
 * the caches up that the other graph's run evicted). The budget counts
 * the timed runs of both.
 *
 * One line per device: the median of its runs; with two, then the median
 * of the bigger graph's time over the smaller's, run by run.
 */
static void bench(const char *op, void (*fn)(void), double (*timed)(void),
		  bool per_call, unsigned int extra_calls)
{
	double t[2][MAX_RUNS], q[MAX_RUNS], total = 0;
	unsigned int runs = 0, i, d, c[2];

	for (d = 0; d < ndevs; d++)
		c[d] = per_call ? devs[d].num_entities + extra_calls : 1;
	while (runs < MAX_RUNS && (runs < MIN_RUNS || total < BUDGET_US)) {
		for (i = 0; i < ndevs; i++) {
			d = ndevs == 2 ? (i + runs) % 2 : 0;
			if (ndevs == 2) {
				partner_switch();
				run(&devs[d], fn, timed);
			}
			t[d][runs] = run(&devs[d], fn, timed);
			total += t[d][runs];
		}
		if (ndevs == 2)
			q[runs] = t[1][runs] / c[1] / (t[0][runs] / c[0]);
		runs++;
	}
	for (d = 0; d < ndevs; d++) {
		qsort(t[d], runs, sizeof(t[d][0]), cmp);
		if (per_call)
			printf("BENCH-CALL op=%s entities=%u calls=%u runs=%u median_us=%.0f per_call_us=%.2f\n",
			       op, devs[d].num_entities, c[d], runs,
			       t[d][runs / 2], t[d][runs / 2] / c[d]);
		else
			printf("BENCH op=%s entities=%u runs=%u median_us=%.0f min_us=%.0f\n",
			       op, devs[d].num_entities, runs, t[d][runs / 2],
			       t[d][0]);
	}
	if (ndevs == 2) {
		qsort(q, runs, sizeof(q[0]), cmp);
		printf("BENCH-PAIR op=%s entities=%u/%u runs=%u ratio=%.2f min=%.2f max=%.2f\n",
		       op, devs[1].num_entities, devs[0].num_entities, runs,
		       q[runs / 2], q[0], q[runs - 1]);
	}
	fflush(stdout);
}

/*
 * --loop: @fn on the current device over and over for @seconds, for a
 * profiler watching from outside (perf on QEMU's process, say); prints
 * how many runs and their mean.
 */
static void loop(const char *op, void (*fn)(void), double seconds)
{
	double t0, t;
	unsigned long n = 0;
	int k;

	/* runs and switches, for QEMU to size its TLB to what @fn reads */
	for (k = 0; k < 8; k++) {
		fn();
		partner_switch();
	}
	t0 = now_us();
	do {
		fn();
		n++;
		t = now_us() - t0;
	} while (t < seconds * 1e6);
	printf("BENCH-LOOP op=%s entities=%u runs=%lu mean_us=%.1f\n",
	       op, cur->num_entities, n, t / n);
}

static const struct {
	const char *name;
	void (*fn)(void);
	bool open_video;
} loop_ops[] = {
	{ "enum", op_enum, false },
	{ "device_info", op_device_info, false },
	{ "enum_entities", op_enum_entities, false },
	{ "enum_links", op_enum_links, false },
	{ "topology", op_topology, false },
	{ "toggle_idle", op_toggle, false },
	{ "toggle", op_toggle, true },
};
#define NLOOP_OPS	(sizeof(loop_ops) / sizeof(loop_ops[0]))

static int usage(const char *prog)
{
	unsigned int i;

	fprintf(stderr, "usage: %s /dev/mediaN /dev/videoN [/dev/mediaM /dev/videoM]\n"
		"       %s --loop OP SECONDS /dev/mediaN /dev/videoN\n"
		"OP:", prog, prog);
	for (i = 0; i < NLOOP_OPS; i++)
		fprintf(stderr, " %s", loop_ops[i].name);
	fprintf(stderr, "\n");
	return 2;
}

/* each device's capture node open (@open), or closed */
static void video_nodes(int open_them)
{
	unsigned int d;

	for (d = 0; d < ndevs; d++) {
		cur = &devs[d];
		if (!open_them) {
			close(cur->video_fd);
			cur->video_fd = -1;
			continue;
		}
		cur->video_fd = open(cur->video_path, O_RDWR);
		if (cur->video_fd < 0)
			die(cur->video_path);
	}
}

int main(int argc, char **argv)
{
	const char *prog = argv[0], *loop_op = NULL;
	double loop_s = 0;
	unsigned int d, op = 0;
	char *end;

	if (argc > 1 && !strcmp(argv[1], "--loop")) {
		if (argc != 6)
			return usage(prog);
		loop_op = argv[2];
		loop_s = strtod(argv[3], &end);
		if (end == argv[3] || *end || !isfinite(loop_s) || loop_s <= 0)
			return usage(prog);
		while (op < NLOOP_OPS && strcmp(loop_ops[op].name, loop_op))
			op++;
		if (op == NLOOP_OPS) {
			fprintf(stderr, "mc-bench: no operation %s\n", loop_op);
			return usage(prog);
		}
		argc -= 3;
		argv += 3;
	}
	if (argc != 3 && argc != 5)
		return usage(prog);
	ndevs = (argc - 1) / 2;
	/*
	 * Before any device is open: the partner holds only its pipes. The
	 * switches are before untimed runs, which only the paired mode and
	 * --loop make.
	 */
	partner_start(ndevs == 2 || loop_op);
	for (d = 0; d < ndevs; d++) {
		cur = &devs[d];
		cur->video_path = argv[2 + 2 * d];
		cur->media_fd = open(argv[1 + 2 * d], O_RDWR);
		if (cur->media_fd < 0)
			die(argv[1 + 2 * d]);
		cur->num_entities = enumerate();
	}
	if (loop_op) {
		if (loop_ops[op].fn == op_toggle)
			pick_link();
		if (loop_ops[op].open_video)
			video_nodes(1);
		loop(loop_op, loop_ops[op].fn, loop_s);
		return 0;
	}
	/* the smaller graph first: the ratios are the bigger's over it */
	if (ndevs == 2 && devs[0].num_entities > devs[1].num_entities) {
		struct mcdev x = devs[0];

		devs[0] = devs[1];
		devs[1] = x;
	}

	bench("enum", op_enum, NULL, false, 0);
	bench("device_info", op_device_info, NULL, true, 0);
	bench("enum_entities", op_enum_entities, NULL, true, 1);
	bench("enum_links", op_enum_links, NULL, true, 0);
	bench("topology", op_topology, NULL, false, 0);
	for (d = 0; d < ndevs; d++) {
		cur = &devs[d];
		pick_link();
	}
	bench("toggle_idle", op_toggle, NULL, false, 0);
	video_nodes(1);
	bench("toggle", op_toggle, NULL, false, 0);
	video_nodes(0);
	bench("power_on", NULL, op_power_on, false, 0);
	for (d = 0; d < ndevs; d++)
		close(devs[d].media_fd);
	return 0;
}
