// SPDX-License-Identifier: GPL-2.0
/*
 * isp_video.c - ISP video nodes: the memory inputs and outputs
 *
 * Each "n900emu,isp-video" child of the ISP is one /dev/videoN. A node whose
 * "n900emu,direction" is "capture" receives frames from the block its port
 * links to; an "output" node feeds frames from memory into a block. This
 * file is the node (formats, ioctls, registration); its streaming is in
 * isp_stream.c.
 */

#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/log2.h>
#include <linux/property.h>
#include <media/v4l2-common.h>
#include <media/v4l2-ioctl.h>
#include <media/v4l2-mc.h>
#include <media/videobuf2-vmalloc.h>

#include "isp.h"
#include "isp_pixel.h"
#include "n900_isp_stats.h"
#include "n900_power.h"

/**
 * struct isp_video_format - a pixel format of the ISP video nodes
 * @pixelformat: V4L2 pixel format
 * @code: the media bus code of the pad it comes from or goes to
 * @bpp: bytes per pixel in memory
 * @colorspace: colorspace reported with it
 */
struct isp_video_format {
	u32 pixelformat;
	u32 code;
	u8 bpp;
	u32 colorspace;
};

static const struct isp_video_format isp_video_formats[] = {
	{ V4L2_PIX_FMT_SGRBG10, MEDIA_BUS_FMT_SGRBG10_1X10, 2, V4L2_COLORSPACE_RAW },
	{ V4L2_PIX_FMT_SGRBG8, MEDIA_BUS_FMT_SGRBG8_1X8, 1, V4L2_COLORSPACE_RAW },
	{ V4L2_PIX_FMT_YUYV, MEDIA_BUS_FMT_YUYV8_1X16, 2, V4L2_COLORSPACE_SRGB },
	{ V4L2_PIX_FMT_UYVY, MEDIA_BUS_FMT_UYVY8_1X16, 2, V4L2_COLORSPACE_SRGB },
};

static const struct isp_meta_format isp_meta_formats[] = {
	{ "aewb", V4L2_META_FMT_N900_AEWB, "N900 ISP AEWB statistics",
	  sizeof(struct n900_isp_aewb) },
	{ "af", V4L2_META_FMT_N900_AF, "N900 ISP AF statistics",
	  sizeof(struct n900_isp_af) },
	{ "hist", V4L2_META_FMT_N900_HIST, "N900 ISP histogram",
	  sizeof(struct n900_isp_hist) },
};

/* -----------------------------------------------------------------------------
 * Formats
 *
 * The video nodes set V4L2_CAP_IO_MC: what a node offers does not depend on
 * the configuration of its pipeline (vidioc-enum-fmt.rst). An image node
 * offers the pixel formats whose media bus code the pad its DT port links
 * to can ever give (capture) or take (output), read once from that block's
 * type (isp_video_dt_formats()); ENUM_FMT's mbus_code narrows them to the
 * format of that code. TRY_FMT and S_FMT fit any request into those
 * formats and the node's DMA limits (ISP_VIDEO_*). Whether the node's
 * format matches its pipeline is checked at STREAMON, where a mismatch is
 * EPIPE (isp_video_check_format()).
 */

#define ISP_VIDEO_ALL_FORMATS	GENMASK(ARRAY_SIZE(isp_video_formats) - 1, 0)

/* the frame program's line buffers hold the widest frame a node takes */
static_assert(ISP_VIDEO_MAX_WIDTH <= PIX_MAX_WIDTH);
static_assert(ISP_VIDEO_MIN_WIDTH % ISP_VIDEO_STEP_WIDTH == 0 &&
	      ISP_VIDEO_MAX_WIDTH % ISP_VIDEO_STEP_WIDTH == 0);
/* v4l_bound_align_image() aligns to powers of 2 */
static_assert(!(ISP_VIDEO_STEP_WIDTH & (ISP_VIDEO_STEP_WIDTH - 1)) &&
	      !(ISP_VIDEO_STEP_HEIGHT & (ISP_VIDEO_STEP_HEIGHT - 1)));

/* The entry of @video's formats for @pixelformat, or NULL. */
static const struct isp_video_format *
isp_video_find_format(const struct isp_video *video, u32 pixelformat)
{
	unsigned int i;

	for_each_set_bit(i, &video->formats, ARRAY_SIZE(isp_video_formats))
		if (isp_video_formats[i].pixelformat == pixelformat)
			return &isp_video_formats[i];
	return NULL;
}

/*
 * The @index-th format of @video, among those of media bus code @code (0:
 * any code). NULL past the last one.
 */
static const struct isp_video_format *
isp_video_nth_format(const struct isp_video *video, u32 code,
		     unsigned int index)
{
	const struct isp_video_format *f;
	unsigned int i, n = 0;

	for_each_set_bit(i, &video->formats, ARRAY_SIZE(isp_video_formats)) {
		f = &isp_video_formats[i];
		if (code && f->code != code)
			continue;
		if (n++ == index)
			return f;
	}
	return NULL;
}

/*
 * Fill in @pix for format @f at its requested size, fitted into the DMA
 * limits: clamped, then rounded to the nearest step.
 */
static void fill_pix_format(struct v4l2_pix_format *pix,
			    const struct isp_video_format *f)
{
	pix->pixelformat = f->pixelformat;
	v4l_bound_align_image(&pix->width, ISP_VIDEO_MIN_WIDTH,
			      ISP_VIDEO_MAX_WIDTH, ilog2(ISP_VIDEO_STEP_WIDTH),
			      &pix->height, ISP_VIDEO_MIN_HEIGHT,
			      ISP_VIDEO_MAX_HEIGHT, ilog2(ISP_VIDEO_STEP_HEIGHT),
			      0);
	pix->field = V4L2_FIELD_NONE;
	pix->bytesperline = pix->width * f->bpp;
	pix->sizeimage = pix->bytesperline * pix->height;
	pix->colorspace = f->colorspace;
	pix->ycbcr_enc = V4L2_YCBCR_ENC_DEFAULT;
	pix->quantization = V4L2_QUANTIZATION_DEFAULT;
	pix->xfer_func = V4L2_XFER_FUNC_DEFAULT;
	pix->flags = 0;
	pix->priv = 0;
}

/* Adjust @pix to a format of @video: its own, or the node's first one. */
static void isp_video_try_pix(const struct isp_video *video,
			      struct v4l2_pix_format *pix)
{
	const struct isp_video_format *f;

	f = isp_video_find_format(video, pix->pixelformat);
	fill_pix_format(pix, f ? f : isp_video_nth_format(video, 0, 0));
}

/**
 * isp_video_dt_formats() - the pixel formats of an image node
 * @fwnode: the node's DT node
 *
 * The formats whose media bus code the pad at the other end of one of the
 * node's DT endpoints can ever carry (isp_block_pad_can_carry()), taken
 * from the block type of the remote node's compatible: they depend neither
 * on the formats the pipeline has nor on whether the block is bound. A node
 * linked to no ISP block, or to one that carries none of them, offers
 * every format the ISP writes to memory.
 *
 * Return: BIT(i) for each entry i of isp_video_formats[] the node offers.
 */
static unsigned long isp_video_dt_formats(struct fwnode_handle *fwnode)
{
	const struct isp_block_type *type;
	struct fwnode_handle *ep, *rep, *parent;
	struct fwnode_endpoint fep;
	unsigned long formats = 0;
	unsigned int i;

	fwnode_graph_for_each_endpoint(fwnode, ep) {
		rep = fwnode_graph_get_remote_endpoint(ep);
		if (!rep)
			continue;
		parent = fwnode_graph_get_port_parent(rep);
		type = parent ? isp_block_type_of(parent) : NULL;
		if (type && !fwnode_graph_parse_endpoint(rep, &fep))
			for (i = 0; i < ARRAY_SIZE(isp_video_formats); i++)
				if (isp_block_pad_can_carry(type, fep.port,
							    isp_video_formats[i].code))
					formats |= BIT(i);
		fwnode_handle_put(parent);
		fwnode_handle_put(rep);
	}
	return formats ? formats : ISP_VIDEO_ALL_FORMATS;
}

/* -----------------------------------------------------------------------------
 * The format of the linked pad
 *
 * Callers hold the media graph mutex, so the link and its subdevice stay
 * in place.
 */

/* The subdevice pad at the other end of the video node's link, or NULL. */
static struct media_pad *isp_video_remote_pad(struct isp_video *video)
{
	struct media_link *link;
	struct media_pad *remote;

	for_each_media_entity_data_link(&video->vdev.entity, link) {
		remote = link->source == &video->pad ? link->sink : link->source;
		if (is_media_entity_v4l2_subdev(remote->entity))
			return remote;
	}
	return NULL;
}

/**
 * isp_video_init_format() - start from the format of the linked pad
 * @video: a registered video node whose link exists
 *
 * Called once the graph is complete, so that G_FMT on a fresh node reports
 * what the subdevice at the other end of its link has in its ACTIVE state,
 * when the node offers that code (fitted into the node's DMA limits). The
 * node was registered at probe, so a process may already have set its
 * format and be streaming with buffers of that size: a busy node keeps its
 * format.
 */
void isp_video_init_format(struct isp_video *video)
{
	struct v4l2_subdev_format fmt = {
		.which = V4L2_SUBDEV_FORMAT_ACTIVE,
	};
	const struct isp_video_format *f = NULL;
	struct media_pad *remote;
	struct v4l2_subdev *sd;

	if (video->meta)
		return;
	mutex_lock(&video->isp->mdev.graph_mutex);
	remote = isp_video_remote_pad(video);
	if (remote) {
		sd = media_entity_to_v4l2_subdev(remote->entity);
		fmt.pad = remote->index;
		if (!v4l2_subdev_call_state_active(sd, pad, get_fmt, &fmt))
			f = isp_video_nth_format(video, fmt.format.code, 0);
	}
	mutex_unlock(&video->isp->mdev.graph_mutex);
	if (!f)
		return;

	mutex_lock(&video->lock);
	if (!vb2_is_busy(&video->queue)) {
		video->format.width = fmt.format.width;
		video->format.height = fmt.format.height;
		fill_pix_format(&video->format, f);
	}
	mutex_unlock(&video->lock);
}

static inline struct isp_video *to_isp_video(struct file *file)
{
	return video_drvdata(file);
}

/**
 * isp_video_check_format() - check a node's format against its link, at STREAMON
 * @video: the video node that starts streaming
 *
 * The node's format must be what the subdevice pad at the other end of its
 * enabled link gives (capture) or takes (output): the pixel format of the
 * pad's media bus code, and the pad's size. Its size is within the node's
 * DMA limits (S_FMT fitted it), so a pad outside them never matches. A node
 * with no enabled link streams on its own; an output node has one at most
 * (isp_link_setup()). Called with the graph mutex held.
 *
 * Return: 0, or -EPIPE on a mismatch, after a message that names the node
 * and says what the pad has.
 */
int isp_video_check_format(struct isp_video *video)
{
	const struct v4l2_pix_format *pix = &video->format;
	const struct isp_video_format *f;
	struct v4l2_subdev_format fmt = {
		.which = V4L2_SUBDEV_FORMAT_ACTIVE,
	};
	struct media_pad *remote;
	struct v4l2_subdev *sd;

	remote = media_pad_remote_pad_first(&video->pad);
	if (!remote)
		return 0;
	if (!is_media_entity_v4l2_subdev(remote->entity)) {
		dev_info_ratelimited(video->isp->dev,
				     "%s: linked to %s, not to a block: EPIPE\n",
				     video->vdev.name, remote->entity->name);
		return -EPIPE;
	}
	sd = media_entity_to_v4l2_subdev(remote->entity);
	fmt.pad = remote->index;
	if (v4l2_subdev_call_state_active(sd, pad, get_fmt, &fmt)) {
		dev_info_ratelimited(video->isp->dev,
				     "%s: no format on %s pad %u: EPIPE\n",
				     video->vdev.name, sd->name, remote->index);
		return -EPIPE;
	}
	if (video->meta) {
		if (fmt.format.code == MEDIA_BUS_FMT_METADATA_FIXED)
			return 0;
		dev_info_ratelimited(video->isp->dev,
				     "%s: %s pad %u has code 0x%04x, not statistics: EPIPE\n",
				     video->vdev.name, sd->name, remote->index,
				     fmt.format.code);
		return -EPIPE;
	}
	f = isp_video_find_format(video, pix->pixelformat);
	if (!f || fmt.format.code != f->code ||
	    fmt.format.width != pix->width ||
	    fmt.format.height != pix->height) {
		dev_info_ratelimited(video->isp->dev,
				     "%s: format %ux%u %p4cc, but %s pad %u has %ux%u code 0x%04x: EPIPE\n",
				     video->vdev.name, pix->width, pix->height,
				     &pix->pixelformat, sd->name, remote->index,
				     fmt.format.width, fmt.format.height,
				     fmt.format.code);
		return -EPIPE;
	}
	return 0;
}

/*
 * The nodes of one pipeline start one by one (a raw and a YUV capture, an
 * input and a capture node), and the media core validates the links only
 * when the first one starts. So each node checks its own link at its own
 * STREAMON (isp_video_check_format()), and this validates nothing; it
 * tells v4l2_subdev_link_validate() that an output node's link is handled.
 */
static int isp_video_link_validate(struct media_link *link)
{
	return 0;
}

/* -----------------------------------------------------------------------------
 * V4L2 ioctls
 */

static int isp_querycap(struct file *file, void *fh, struct v4l2_capability *cap)
{
	struct isp_video *video = to_isp_video(file);

	strscpy(cap->driver, ISP_DRIVER_NAME, sizeof(cap->driver));
	strscpy(cap->card, video->isp->mdev.model, sizeof(cap->card));
	strscpy(cap->bus_info, video->isp->mdev.bus_info, sizeof(cap->bus_info));
	return 0;
}

/*
 * The node's formats, whatever its pipeline; with mbus_code, those of that
 * media bus code. None of them is compressed, and the node converts no
 * colorspace (S_FMT sets none): no V4L2_FMT_FLAG_* applies.
 */
static int isp_enum_fmt(struct file *file, void *fh, struct v4l2_fmtdesc *f)
{
	const struct isp_video_format *fmt;

	fmt = isp_video_nth_format(to_isp_video(file), f->mbus_code, f->index);
	if (!fmt)
		return -EINVAL;
	f->pixelformat = fmt->pixelformat;
	f->flags = 0;
	return 0;
}

/* One stepwise range, the node's DMA limits, for each of its formats. */
static int isp_enum_framesizes(struct file *file, void *fh,
			       struct v4l2_frmsizeenum *fsize)
{
	struct isp_video *video = to_isp_video(file);

	if (fsize->index ||
	    !isp_video_find_format(video, fsize->pixel_format))
		return -EINVAL;
	fsize->type = V4L2_FRMSIZE_TYPE_STEPWISE;
	fsize->stepwise.min_width = ISP_VIDEO_MIN_WIDTH;
	fsize->stepwise.max_width = ISP_VIDEO_MAX_WIDTH;
	fsize->stepwise.step_width = ISP_VIDEO_STEP_WIDTH;
	fsize->stepwise.min_height = ISP_VIDEO_MIN_HEIGHT;
	fsize->stepwise.max_height = ISP_VIDEO_MAX_HEIGHT;
	fsize->stepwise.step_height = ISP_VIDEO_STEP_HEIGHT;
	return 0;
}

static int isp_g_fmt(struct file *file, void *fh, struct v4l2_format *f)
{
	f->fmt.pix = to_isp_video(file)->format;
	return 0;
}

static int isp_try_fmt(struct file *file, void *fh, struct v4l2_format *f)
{
	isp_video_try_pix(to_isp_video(file), &f->fmt.pix);
	return 0;
}

static int isp_s_fmt(struct file *file, void *fh, struct v4l2_format *f)
{
	struct isp_video *video = to_isp_video(file);

	if (vb2_is_busy(&video->queue))
		return -EBUSY;
	isp_video_try_pix(video, &f->fmt.pix);
	video->format = f->fmt.pix;
	return 0;
}

/* buffer and streaming ioctls: vb2 does them for every kind of node */
#define ISP_VB2_IOCTL_OPS					\
	.vidioc_reqbufs = vb2_ioctl_reqbufs,			\
	.vidioc_create_bufs = vb2_ioctl_create_bufs,		\
	.vidioc_prepare_buf = vb2_ioctl_prepare_buf,		\
	.vidioc_querybuf = vb2_ioctl_querybuf,			\
	.vidioc_qbuf = vb2_ioctl_qbuf,				\
	.vidioc_dqbuf = vb2_ioctl_dqbuf,			\
	.vidioc_expbuf = vb2_ioctl_expbuf,			\
	.vidioc_streamon = vb2_ioctl_streamon,			\
	.vidioc_streamoff = vb2_ioctl_streamoff

/* metadata capture nodes: one fixed format, the statistics buffer */
static int isp_enum_fmt_meta(struct file *file, void *fh,
			     struct v4l2_fmtdesc *f)
{
	struct isp_video *video = to_isp_video(file);

	if (f->index || (f->mbus_code &&
			 f->mbus_code != MEDIA_BUS_FMT_METADATA_FIXED))
		return -EINVAL;
	f->pixelformat = video->meta->dataformat;
	strscpy(f->description, video->meta->description,
		sizeof(f->description));
	return 0;
}

static int isp_g_fmt_meta(struct file *file, void *fh, struct v4l2_format *f)
{
	struct isp_video *video = to_isp_video(file);

	memset(&f->fmt.meta, 0, sizeof(f->fmt.meta));
	f->fmt.meta.dataformat = video->meta->dataformat;
	f->fmt.meta.buffersize = video->meta->buffersize;
	return 0;
}

static const struct v4l2_ioctl_ops isp_meta_ioctl_ops = {
	.vidioc_querycap = isp_querycap,
	.vidioc_enum_fmt_meta_cap = isp_enum_fmt_meta,
	.vidioc_g_fmt_meta_cap = isp_g_fmt_meta,
	.vidioc_s_fmt_meta_cap = isp_g_fmt_meta,
	.vidioc_try_fmt_meta_cap = isp_g_fmt_meta,
	ISP_VB2_IOCTL_OPS,
};

static const struct v4l2_ioctl_ops isp_video_ioctl_ops = {
	.vidioc_querycap = isp_querycap,
	.vidioc_enum_fmt_vid_cap = isp_enum_fmt,
	.vidioc_g_fmt_vid_cap = isp_g_fmt,
	.vidioc_s_fmt_vid_cap = isp_s_fmt,
	.vidioc_try_fmt_vid_cap = isp_try_fmt,
	.vidioc_enum_fmt_vid_out = isp_enum_fmt,
	.vidioc_g_fmt_vid_out = isp_g_fmt,
	.vidioc_s_fmt_vid_out = isp_s_fmt,
	.vidioc_try_fmt_vid_out = isp_try_fmt,
	.vidioc_enum_framesizes = isp_enum_framesizes,
	ISP_VB2_IOCTL_OPS,
};

/*
 * The seed semantics: an open video node powers every entity it reaches
 * over enabled links (v4l2_pipeline_pm_get), until it is closed. Under the
 * "streaming" and "autosuspend" power policies, opening powers nothing.
 *
 * The ISP may unbind while the node is open: its subdevices' links are
 * disabled first, which powers them down, and the media device is
 * unregistered under isp->pm_lock. The open and the close read
 * isp->unregistered under that lock, so the pipeline power they take and
 * give back is always on a registered graph.
 */
static int isp_video_open(struct file *file)
{
	struct isp_video *video = video_drvdata(file);
	struct isp_device *isp = video->isp;
	int ret;

	ret = v4l2_fh_open(file);
	if (ret || n900_power_policy_streaming())
		return ret;

	mutex_lock(&isp->pm_lock);
	if (isp->unregistered) {
		ret = -ENODEV;
	} else {
		atomic_inc(&isp->open_nodes);
		ret = v4l2_pipeline_pm_get(&video->vdev.entity);
		if (ret)
			atomic_dec(&isp->open_nodes);
	}
	mutex_unlock(&isp->pm_lock);
	if (ret)
		v4l2_fh_release(file);
	return ret;
}

static int isp_video_release(struct file *file)
{
	struct isp_video *video = video_drvdata(file);
	struct isp_device *isp = video->isp;
	int ret;

	ret = vb2_fop_release(file);
	if (n900_power_policy_streaming())
		return ret;

	mutex_lock(&isp->pm_lock);
	if (!isp->unregistered) {
		v4l2_pipeline_pm_put(&video->vdev.entity);
		atomic_dec(&isp->open_nodes);
	}
	mutex_unlock(&isp->pm_lock);
	return ret;
}

static const struct v4l2_file_operations isp_video_fops = {
	.owner = THIS_MODULE,
	.open = isp_video_open,
	.release = isp_video_release,
	.poll = vb2_fop_poll,
	.mmap = vb2_fop_mmap,
	.unlocked_ioctl = video_ioctl2,
};

/* -----------------------------------------------------------------------------
 * Initialization and Cleanup
 */

static const struct media_entity_operations isp_video_entity_ops = {
	.link_setup = isp_link_setup,
	.link_validate = isp_video_link_validate,
};

/**
 * isp_video_init() - set up a video node from its DT node
 * @isp: the ISP the node belongs to
 * @video: the video node, zeroed
 * @fwnode: its DT node: "label" names it, "n900emu,direction" is
 *	"capture" or "output", and the optional "n900emu,metadata" makes a
 *	capture node a statistics (metadata) node
 *
 * Return: 0, or a negative errno after a dev_err() naming the node.
 */
int isp_video_init(struct isp_device *isp, struct isp_video *video,
		   struct fwnode_handle *fwnode)
{
	struct video_device *vdev = &video->vdev;
	struct vb2_queue *q = &video->queue;
	const char *label, *dir, *meta;
	unsigned int i;
	bool capture;
	int ret;

	if (fwnode_property_read_string(fwnode, "label", &label)) {
		dev_err(isp->dev, "%pfw: missing label\n", fwnode);
		return -EINVAL;
	}
	if (fwnode_property_read_string(fwnode, "n900emu,direction", &dir) ||
	    (strcmp(dir, "capture") && strcmp(dir, "output"))) {
		dev_err(isp->dev, "%pfw: n900emu,direction must be \"capture\" or \"output\"\n",
			fwnode);
		return -EINVAL;
	}
	capture = !strcmp(dir, "capture");
	if (!fwnode_property_read_string(fwnode, "n900emu,metadata", &meta)) {
		for (i = 0; i < ARRAY_SIZE(isp_meta_formats); i++)
			if (!strcmp(meta, isp_meta_formats[i].name))
				video->meta = &isp_meta_formats[i];
		if (!video->meta || !capture) {
			dev_err(isp->dev, "%pfw: n900emu,metadata must be \"aewb\", \"af\" or \"hist\", on a capture node\n",
				fwnode);
			return -EINVAL;
		}
	}

	video->isp = isp;
	video->fwnode = fwnode;
	mutex_init(&video->lock);
	mutex_init(&video->feed_lock);
	spin_lock_init(&video->irqlock);
	INIT_LIST_HEAD(&video->dmaqueue);
	video->formats = isp_video_dt_formats(fwnode);
	video->format.width = ISP_DEF_WIDTH;
	video->format.height = ISP_DEF_HEIGHT;
	fill_pix_format(&video->format, isp_video_nth_format(video, 0, 0));
	if (video->meta)
		video->format.sizeimage = video->meta->buffersize;

	q->type = video->meta ? V4L2_BUF_TYPE_META_CAPTURE :
		  capture ? V4L2_BUF_TYPE_VIDEO_CAPTURE :
			    V4L2_BUF_TYPE_VIDEO_OUTPUT;
	q->io_modes = VB2_MMAP | VB2_DMABUF;
	q->drv_priv = video;
	q->buf_struct_size = sizeof(struct isp_buffer);
	q->ops = &isp_video_queue_ops;
	q->mem_ops = &vb2_vmalloc_memops;
	q->timestamp_flags = V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC;
	q->lock = &video->lock;
	q->dev = isp->dev;
	ret = vb2_queue_init(q);
	if (ret) {
		dev_err(isp->dev, "%pfw: cannot init vb2 queue\n", fwnode);
		goto err_mutex;
	}

	video->pad.flags = capture ? MEDIA_PAD_FL_SINK : MEDIA_PAD_FL_SOURCE;
	vdev->entity.ops = &isp_video_entity_ops;
	ret = media_entity_pads_init(&vdev->entity, 1, &video->pad);
	if (ret)
		goto err_mutex;

	strscpy(vdev->name, label, sizeof(vdev->name));
	vdev->fops = &isp_video_fops;
	vdev->ioctl_ops = video->meta ? &isp_meta_ioctl_ops :
					&isp_video_ioctl_ops;
	vdev->release = video_device_release_empty;
	vdev->v4l2_dev = &isp->v4l2_dev;
	vdev->queue = q;
	vdev->lock = &video->lock;
	vdev->vfl_dir = capture ? VFL_DIR_RX : VFL_DIR_TX;
	vdev->device_caps = V4L2_CAP_STREAMING | V4L2_CAP_IO_MC |
			    (video->meta ? V4L2_CAP_META_CAPTURE :
			     capture ? V4L2_CAP_VIDEO_CAPTURE :
				       V4L2_CAP_VIDEO_OUTPUT);
	video_set_drvdata(vdev, video);
	return 0;

err_mutex:
	mutex_destroy(&video->feed_lock);
	mutex_destroy(&video->lock);
	video->isp = NULL;	/* nothing for isp_video_cleanup() */
	return ret;
}

/**
 * isp_video_register() - register an initialised video node
 * @video: the video node
 *
 * Return: 0 or a negative errno.
 */
int isp_video_register(struct isp_video *video)
{
	int ret;

	ret = video_register_device(&video->vdev, VFL_TYPE_VIDEO, -1);
	if (ret)
		dev_err(video->isp->dev, "%pfw: cannot register video device (%d)\n",
			video->fwnode, ret);
	return ret;
}

/**
 * isp_video_unregister() - unregister a video node
 * @video: the video node
 *
 * A process may keep the node open: its memory stays until the ISP's
 * v4l2_device is released (isp_video_cleanup()).
 */
void isp_video_unregister(struct isp_video *video)
{
	vb2_video_unregister_device(&video->vdev);
}

/**
 * isp_video_cleanup() - free what isp_video_init() set up
 * @video: the video node, unregistered and released, or never initialised
 */
void isp_video_cleanup(struct isp_video *video)
{
	if (!video->isp)
		return;
	media_entity_cleanup(&video->vdev.entity);
	mutex_destroy(&video->feed_lock);
	mutex_destroy(&video->lock);
}
