// SPDX-License-Identifier: GPL-2.0
/*
 * n900_power_fault.c - power-up failures on demand, from debugfs
 *
 * /sys/kernel/debug/n900-power/fail takes "supply ENTITY" or "clock ENTITY":
 * from then on, every power-up of the entity named ENTITY fails with -EIO
 * where its last supply or its clock would be enabled, so that the undo of
 * a partial power-up can be tested. "none" ends it. Reading it gives the
 * fault and how many power-ups it has failed.
 */

#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "n900_power_priv.h"

static const char * const fault_names[] = {
	[N900_FAULT_NONE] = "none",
	[N900_FAULT_SUPPLY] = "supply",
	[N900_FAULT_CLOCK] = "clock",
};

static DEFINE_MUTEX(fault_lock);	/* protects the fault below */
static enum n900_fault fault_at;
static char fault_entity[32];
static unsigned int fault_hits;
static struct dentry *fault_dir;

/* -EIO, after a dev_err(), when a fault is injected at @at for @pw */
int n900_power_fault(struct n900_power *pw, enum n900_fault at)
{
	int ret = 0;

	mutex_lock(&fault_lock);
	if (fault_at == at && !strcmp(fault_entity, n900_power_name(pw))) {
		fault_hits++;
		ret = -EIO;
	}
	mutex_unlock(&fault_lock);
	if (ret)
		dev_err(pw->dev, "%pOF: %s fault injected (debugfs n900-power/fail)\n",
			pw->dev->of_node, fault_names[at]);
	return ret;
}

static int fail_show(struct seq_file *m, void *unused)
{
	mutex_lock(&fault_lock);
	seq_printf(m, "%s%s%s\nhits %u\n", fault_names[fault_at],
		   fault_at ? " " : "", fault_entity, fault_hits);
	mutex_unlock(&fault_lock);
	return 0;
}

static ssize_t fail_write(struct file *file, const char __user *ubuf,
			  size_t count, loff_t *ppos)
{
	char buf[48], *entity;
	int at;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	strim(buf);
	entity = strchr(buf, ' ');
	if (entity)
		*entity++ = '\0';
	at = match_string(fault_names, ARRAY_SIZE(fault_names), buf);
	/* an entity with "supply" and "clock", none with "none" */
	if (at < 0 || !entity == !!at ||
	    (entity && strlen(entity) >= sizeof(fault_entity)))
		return -EINVAL;

	mutex_lock(&fault_lock);
	fault_at = at;
	strscpy(fault_entity, entity ?: "", sizeof(fault_entity));
	fault_hits = 0;
	mutex_unlock(&fault_lock);
	return count;
}

DEFINE_SHOW_STORE_ATTRIBUTE(fail);

void n900_power_fault_init(void)
{
	fault_dir = debugfs_create_dir("n900-power", NULL);
	debugfs_create_file("fail", 0644, fault_dir, NULL, &fail_fops);
}

void n900_power_fault_exit(void)
{
	debugfs_remove_recursive(fault_dir);
}

