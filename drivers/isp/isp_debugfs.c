// SPDX-License-Identifier: GPL-2.0
/*
 * isp_debugfs.c - the power view of a media device
 *
 * /sys/kernel/debug/n900-isp/ceiling: the machine's compute ceiling
 * (isp_ceiling.c)
 *
 * /sys/kernel/debug/n900-isp/mediaN/
 *   power         one line per subdevice entity: pipeline use count,
 *                 power state, transitions, time powered, active power and
 *                 energy (n900emu,active-power-mw x time), then the total
 *   power-events  the ordered, timestamped power-event log of the media
 *                 device's entities; writing to it empties the log
 *   frames        per capture node that rendered frames since its last
 *                 STREAMON, per processing stage: time per frame and pixel
 *                 throughput
 */

#include <linux/debugfs.h>
#include <linux/seq_file.h>

#include "isp.h"
#include "n900_power.h"

static struct dentry *isp_debugfs_root;

static int power_show(struct seq_file *m, void *data)
{
	struct isp_device *isp = m->private;
	struct media_device *mdev = &isp->mdev;
	struct n900_power_stats st;
	struct media_entity *entity;
	struct v4l2_subdev *sd;
	u64 total = 0;

	seq_printf(m, "# policy: %s\n", n900_power_policy());
	seq_printf(m, "%-28s %4s %-5s %11s %12s %6s %12s\n", "# entity", "use",
		   "power", "transitions", "powered_us", "mW", "energy_uJ");
	mutex_lock(&mdev->graph_mutex);
	media_device_for_each_entity(entity, mdev) {
		if (!is_media_entity_v4l2_subdev(entity))
			continue;
		sd = media_entity_to_v4l2_subdev(entity);
		if (n900_power_get_stats(sd->dev, &st))
			continue;
		total += st.energy_uj;
		seq_printf(m, "%-28s %4d %-5s %11u %12llu %6u %12llu\n",
			   entity->name, entity->use_count,
			   st.powered ? "on" : "off", st.transitions,
			   div_u64(st.powered_ns, 1000), st.active_mw,
			   st.energy_uj);
	}
	mutex_unlock(&mdev->graph_mutex);
	seq_printf(m, "total_energy_uJ %llu\n", total);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(power);

static int events_show(struct seq_file *m, void *data)
{
	struct isp_device *isp = m->private;

	seq_puts(m, "# time_us\tentity\tevent\tdetail\n");
	n900_power_events_show(m, &isp->mdev);
	return 0;
}

static int events_open(struct inode *inode, struct file *file)
{
	return single_open(file, events_show, inode->i_private);
}

static ssize_t events_write(struct file *file, const char __user *buf,
			    size_t count, loff_t *ppos)
{
	n900_power_events_clear();
	return count;
}

static const struct file_operations events_fops = {
	.owner = THIS_MODULE,
	.open = events_open,
	.read = seq_read,
	.write = events_write,
	.llseek = seq_lseek,
	.release = single_release,
};

static const char * const isp_stage_names[ISP_STAGE_NUM] = {
	[ISP_STAGE_SOURCE] = "source",
	[ISP_STAGE_LINE] = "line",
	[ISP_STAGE_RAW_OUT] = "raw-out",
	[ISP_STAGE_PREVIEW] = "preview",
	[ISP_STAGE_RESIZER] = "resizer",
	[ISP_STAGE_STATS] = "statistics",
};

static int frames_show(struct seq_file *m, void *data)
{
	struct isp_device *isp = m->private;
	struct isp_stage_stats st;
	unsigned int i, s;
	u32 frames;

	seq_printf(m, "%-28s %-10s %7s %12s %10s %8s\n", "# node", "stage",
		   "frames", "pixels", "us/frame", "Mpx/s");
	for (i = 0; i < isp->num_videos; i++) {
		struct isp_video *video = &isp->videos[i];

		spin_lock_irq(&video->irqlock);
		frames = video->rendered;
		st = video->stages;
		spin_unlock_irq(&video->irqlock);
		for (s = 0; frames && s < ISP_STAGE_NUM; s++) {
			if (!st.pixels[s])
				continue;
			seq_printf(m, "%-28s %-10s %7u %12llu %10llu %8llu\n",
				   video->vdev.name, isp_stage_names[s], frames,
				   st.pixels[s], div64_u64(st.ns[s], frames * 1000ULL),
				   div64_u64(st.pixels[s] * 1000,
					     max_t(u64, st.ns[s], 1)));
		}
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(frames);

/**
 * isp_debugfs_init() - create the media device's debugfs directory
 * @isp: the ISP, its media device registered
 *
 * debugfs failures are not errors: the files are then simply missing.
 */
void isp_debugfs_init(struct isp_device *isp)
{
	isp->debugfs = debugfs_create_dir(dev_name(&isp->mdev.devnode->dev),
					  isp_debugfs_root);
	debugfs_create_file("power", 0444, isp->debugfs, isp, &power_fops);
	debugfs_create_file("power-events", 0644, isp->debugfs, isp,
			    &events_fops);
	debugfs_create_file("frames", 0444, isp->debugfs, isp, &frames_fops);
}

/**
 * isp_debugfs_cleanup() - remove what isp_debugfs_init() created
 * @isp: the ISP
 */
void isp_debugfs_cleanup(struct isp_device *isp)
{
	debugfs_remove_recursive(isp->debugfs);
	isp->debugfs = NULL;
}

/** isp_debugfs_root_init() - create /sys/kernel/debug/n900-isp */
void isp_debugfs_root_init(void)
{
	isp_debugfs_root = debugfs_create_dir("n900-isp", NULL);
	isp_ceiling_debugfs(isp_debugfs_root);
}

/** isp_debugfs_root_cleanup() - remove /sys/kernel/debug/n900-isp */
void isp_debugfs_root_cleanup(void)
{
	debugfs_remove_recursive(isp_debugfs_root);
}
