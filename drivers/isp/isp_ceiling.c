// SPDX-License-Identifier: GPL-2.0
/*
 * isp_ceiling.c - the compute ceiling of this machine, for the benchmarks
 *
 * /sys/kernel/debug/n900-isp/ceiling: reading it runs a plain integer
 * filter, a 3-tap (1 2 1) / 4 over each line of a 16-bit frame, compiled
 * with the driver's own flags, on one CPU and then split over two (the
 * second half of the lines in a work item on another CPU, as the frame
 * program splits a pass), at the benchmarks' output sizes, and prints the
 * median time per frame of ISP_CEILING_RUNS runs and the output pixels per
 * second. BENCHMARKS.md gives each processing stage's throughput as a
 * fraction of it (tests/guest/stream-bench.sh).
 *
 * The filter is the yardstick: keep it as it is, or the fractions measured
 * against it stop meaning anything.
 */

#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/ktime.h>
#include <linux/preempt.h>
#include <linux/seq_file.h>
#include <linux/sort.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>

#include "isp.h"
#include "isp_pixel_page.h"

#define ISP_CEILING_RUNS	7
/* frames a run: one split of the work for all, so that it is not timed */
#define ISP_CEILING_FRAMES	8

static const struct {
	unsigned int width;
	unsigned int height;
} isp_ceiling_sizes[] = {
	{ 640, 480 },
	{ 1280, 960 },
};

/**
 * struct isp_ceiling - one measurement
 * @in: the input frame, @width x @height
 * @out: the output frame
 * @width: pixels per line
 * @height: lines
 * @work: the second CPU's half
 * @done: completed when @work is done
 */
struct isp_ceiling {
	const u16 *in;
	u16 *out;
	unsigned int width;
	unsigned int height;
	struct work_struct work;
	struct completion done;
};

/* the yardstick: (1 2 1) / 4 along each line, the edges repeated */
static void isp_ceiling_filter(const u16 *in, u16 *out, unsigned int w)
{
	unsigned int x;

	out[0] = (3 * in[0] + in[1] + 2) >> 2;
	for (x = 1; x < w - 1; x++)
		out[x] = (in[x - 1] + 2 * in[x] + in[x + 1] + 2) >> 2;
	out[w - 1] = (in[w - 2] + 3 * in[w - 1] + 2) >> 2;
}

/*
 * lines @y0..@y1 of ISP_CEILING_FRAMES frames; PIX_OWN_PAGE as the stages'
 * loops, so that where the module's layout puts it cannot slow it
 */
static noinline PIX_OWN_PAGE void isp_ceiling_lines(struct isp_ceiling *c,
						    unsigned int y0,
						    unsigned int y1)
{
	size_t w = c->width;
	unsigned int y, n;

	for (n = 0; n < ISP_CEILING_FRAMES; n++)
		for (y = y0; y < y1; y++)
			isp_ceiling_filter(c->in + y * w, c->out + y * w, w);
}

static void isp_ceiling_work(struct work_struct *work)
{
	struct isp_ceiling *c = container_of(work, struct isp_ceiling, work);

	isp_ceiling_lines(c, c->height / 2, c->height);
	complete(&c->done);
}

/* ISP_CEILING_FRAMES frames on @cpus CPUs (1 or 2); the time of one, ns */
static u64 isp_ceiling_frame(struct isp_ceiling *c, unsigned int cpus)
{
	unsigned int cpu = nr_cpu_ids;
	u64 t0, ns;

	/* the reader stays on its CPU, so that the halves run on two */
	migrate_disable();
	t0 = ktime_get_ns();
	if (cpus > 1)
		cpu = cpumask_any_but(cpu_online_mask, raw_smp_processor_id());
	if (cpu >= nr_cpu_ids) {
		isp_ceiling_lines(c, 0, c->height);
	} else {
		reinit_completion(&c->done);
		queue_work_on(cpu, system_highpri_wq, &c->work);
		isp_ceiling_lines(c, 0, c->height / 2);
		wait_for_completion(&c->done);
	}
	ns = ktime_get_ns() - t0;
	migrate_enable();
	return div_u64(ns, ISP_CEILING_FRAMES);
}

static int isp_ceiling_cmp(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static int ceiling_show(struct seq_file *m, void *data)
{
	struct isp_ceiling *c;
	u64 ns[ISP_CEILING_RUNS];
	unsigned int i, r, cpus;
	size_t px;
	u16 *in;

	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	INIT_WORK(&c->work, isp_ceiling_work);
	init_completion(&c->done);
	seq_printf(m, "# the compute ceiling: (1 2 1) / 4 along the lines of a 16-bit frame, median of %d runs; %u CPUs online\n",
		   ISP_CEILING_RUNS, num_online_cpus());
	seq_printf(m, "# %-8s %6s %4s %10s %8s\n", "width", "height", "cpus",
		   "us/frame", "Mpx/s");
	for (i = 0; i < ARRAY_SIZE(isp_ceiling_sizes); i++) {
		c->width = isp_ceiling_sizes[i].width;
		c->height = isp_ceiling_sizes[i].height;
		px = (size_t)c->width * c->height;
		in = vmalloc_array(px, sizeof(*in));
		c->out = vmalloc_array(px, sizeof(*c->out));
		if (!in || !c->out) {
			vfree(in);
			vfree(c->out);
			kfree(c);
			return -ENOMEM;
		}
		/* a ramp with some texture: every value of 10 bits */
		for (r = 0; r < px; r++)
			in[r] = (r * 37 + (r >> 7)) & 0x3ff;
		c->in = in;
		for (cpus = 1; cpus <= 2; cpus++) {
			/* the first run warms the caches and the TLB */
			isp_ceiling_frame(c, cpus);
			for (r = 0; r < ISP_CEILING_RUNS; r++)
				ns[r] = isp_ceiling_frame(c, cpus);
			sort(ns, ISP_CEILING_RUNS, sizeof(ns[0]),
			     isp_ceiling_cmp, NULL);
			seq_printf(m, "%-10u %6u %4u %10llu %8llu\n", c->width,
				   c->height, cpus > 1 && num_online_cpus() > 1 ?
				   2 : 1, div_u64(ns[ISP_CEILING_RUNS / 2], 1000),
				   div64_u64((u64)px * 1000,
					     max_t(u64, ns[ISP_CEILING_RUNS / 2], 1)));
		}
		vfree(in);
		vfree(c->out);
	}
	kfree(c);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ceiling);

/**
 * isp_ceiling_debugfs() - create the ceiling file
 * @root: /sys/kernel/debug/n900-isp
 */
void isp_ceiling_debugfs(struct dentry *root)
{
	debugfs_create_file("ceiling", 0444, root, NULL, &ceiling_fops);
}
