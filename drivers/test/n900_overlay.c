// SPDX-License-Identifier: GPL-2.0
/*
 * n900_overlay.c - apply device tree overlays at run time (a test aid)
 *
 * Mainline has no userspace interface to device tree overlays. The
 * malformed-topology tests (tests/guest/dt-malformed.sh) need one: each
 * bad topology is an overlay that adds a second ISP, is probed, then
 * removed again. This module gives them debugfs files:
 *
 *   /sys/kernel/debug/n900-overlay/apply    write a compiled overlay
 *                                           (.dtbo), in any number of
 *                                           writes; the write that
 *                                           completes it applies it and
 *                                           returns its errno
 *   /sys/kernel/debug/n900-overlay/remove   write anything: remove the
 *                                           last applied overlay
 *   /sys/kernel/debug/n900-overlay/applied  read: the changeset ids
 *
 * Unloading the module removes every overlay it applied, last first. It is
 * built only when the kernel has CONFIG_OF_OVERLAY (the debug flavour).
 */

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/libfdt.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/of.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#define OVERLAY_MAX_SIZE	SZ_1M
#define OVERLAY_MAX_APPLIED	16

static struct dentry *overlay_dir;
static DEFINE_MUTEX(overlay_lock);	/* protects the ids below */
static int overlay_ids[OVERLAY_MAX_APPLIED];
static unsigned int overlay_count;

/**
 * struct overlay_upload - one open file of "apply"
 * @buf: the overlay so far, allocated once the header gives its size
 * @size: fdt_totalsize() from the header, 0 until known
 * @len: bytes received
 * @head: the first bytes, until the size is known
 */
struct overlay_upload {
	void *buf;
	u32 size;
	size_t len;
	struct fdt_header head;
};

static int overlay_apply(const void *fdt, u32 size)
{
	int id = 0, ret;

	mutex_lock(&overlay_lock);
	if (overlay_count == OVERLAY_MAX_APPLIED) {
		pr_err("n900-overlay: %u overlays applied already, remove one first\n",
		       overlay_count);
		ret = -ENOSPC;
		goto out;
	}
	ret = of_overlay_fdt_apply(fdt, size, &id, NULL);
	if (ret) {
		pr_err("n900-overlay: cannot apply the overlay (%d)\n", ret);
		/* a partly applied changeset must be reverted */
		if (id)
			of_overlay_remove(&id);
		goto out;
	}
	overlay_ids[overlay_count++] = id;
	pr_info("n900-overlay: overlay %d applied (%u bytes)\n", id, size);
out:
	mutex_unlock(&overlay_lock);
	return ret;
}

static int overlay_remove_last(void)
{
	int ret, id;

	mutex_lock(&overlay_lock);
	if (!overlay_count) {
		ret = -ENOENT;
		goto out;
	}
	id = overlay_ids[overlay_count - 1];
	ret = of_overlay_remove(&overlay_ids[overlay_count - 1]);
	if (ret) {
		pr_err("n900-overlay: cannot remove overlay %d (%d)\n", id, ret);
		goto out;
	}
	overlay_count--;
	pr_info("n900-overlay: overlay %d removed\n", id);
out:
	mutex_unlock(&overlay_lock);
	return ret;
}

static int apply_open(struct inode *inode, struct file *file)
{
	struct overlay_upload *up = kzalloc(sizeof(*up), GFP_KERNEL);

	file->private_data = up;
	return up ? 0 : -ENOMEM;
}

static ssize_t apply_write(struct file *file, const char __user *ubuf,
			   size_t count, loff_t *ppos)
{
	struct overlay_upload *up = file->private_data;
	size_t n, done = 0;
	int ret;

	/* the header first: it gives the size */
	if (up->len < sizeof(up->head)) {
		n = min(count, sizeof(up->head) - up->len);
		if (copy_from_user((u8 *)&up->head + up->len, ubuf, n))
			return -EFAULT;
		up->len += n;
		done = n;
		if (up->len < sizeof(up->head))
			return done;
		up->size = fdt_totalsize(&up->head);
		if (fdt_magic(&up->head) != FDT_MAGIC ||
		    up->size < sizeof(up->head) || up->size > OVERLAY_MAX_SIZE) {
			pr_err("n900-overlay: not a device tree blob, or over %u bytes\n",
			       OVERLAY_MAX_SIZE);
			return -EINVAL;
		}
		up->buf = kvmalloc(up->size, GFP_KERNEL);
		if (!up->buf)
			return -ENOMEM;
		memcpy(up->buf, &up->head, sizeof(up->head));
	}
	if (!up->buf)
		return -EINVAL;		/* the header was refused */

	n = count - done;
	if (n > up->size - up->len) {
		pr_err("n900-overlay: %zu bytes past the blob's size %u\n",
		       n - (up->size - up->len), up->size);
		return -EINVAL;
	}
	if (copy_from_user(up->buf + up->len, ubuf + done, n))
		return -EFAULT;
	up->len += n;
	if (up->len == up->size && n) {
		ret = overlay_apply(up->buf, up->size);
		if (ret)
			return ret;
	}
	return count;
}

static int apply_release(struct inode *inode, struct file *file)
{
	struct overlay_upload *up = file->private_data;

	if (up->len && up->len != up->size)
		pr_err("n900-overlay: closed after %zu of %u bytes, nothing applied\n",
		       up->len, up->size);
	kvfree(up->buf);
	kfree(up);
	return 0;
}

static const struct file_operations apply_fops = {
	.owner = THIS_MODULE,
	.open = apply_open,
	.write = apply_write,
	.release = apply_release,
};

static ssize_t remove_write(struct file *file, const char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	int ret = overlay_remove_last();

	return ret ? ret : count;
}

static const struct file_operations remove_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = remove_write,
};

static int applied_show(struct seq_file *s, void *unused)
{
	unsigned int i;

	mutex_lock(&overlay_lock);
	for (i = 0; i < overlay_count; i++)
		seq_printf(s, "%d\n", overlay_ids[i]);
	mutex_unlock(&overlay_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(applied);

static int __init overlay_init(void)
{
	overlay_dir = debugfs_create_dir("n900-overlay", NULL);
	debugfs_create_file("apply", 0200, overlay_dir, NULL, &apply_fops);
	debugfs_create_file("remove", 0200, overlay_dir, NULL, &remove_fops);
	debugfs_create_file("applied", 0444, overlay_dir, NULL, &applied_fops);
	return 0;
}
module_init(overlay_init);

static void __exit overlay_exit(void)
{
	debugfs_remove_recursive(overlay_dir);
	while (overlay_count && !overlay_remove_last())
		;
}
module_exit(overlay_exit);

MODULE_DESCRIPTION("Device tree overlays from debugfs, for the N900 ISP malformed-topology tests");
MODULE_LICENSE("GPL");
