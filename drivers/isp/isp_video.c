// SPDX-License-Identifier: GPL-2.0
/*
 * isp_video.c - ISP video nodes: the memory inputs and outputs
 *
 * Each "n900emu,isp-video" child of the ISP is one /dev/videoN. A node whose
 * "n900emu,direction" is "capture" receives frames from the block its port
 * links to; an "output" node feeds frames from memory into a block.
 */

#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/property.h>
#include <media/v4l2-ioctl.h>
#include <media/v4l2-mc.h>
#include <media/videobuf2-vmalloc.h>

#include "isp.h"
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

/* The entry for @pixelformat, or NULL when the ISP has no such format. */
static const struct isp_video_format *find_format(u32 pixelformat)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(isp_video_formats); i++)
		if (isp_video_formats[i].pixelformat == pixelformat)
			return &isp_video_formats[i];
	return NULL;
}

static void fill_pix_format(struct v4l2_pix_format *pix,
			    const struct isp_video_format *f)
{
	pix->pixelformat = f->pixelformat;
	pix->width = clamp_t(u32, pix->width, ISP_MIN_WIDTH, ISP_MAX_WIDTH);
	pix->height = clamp_t(u32, pix->height, ISP_MIN_HEIGHT, ISP_MAX_HEIGHT);
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

/* -----------------------------------------------------------------------------
 * Formats of the linked pad
 *
 * A video node offers the pixel formats whose media bus code the subdevice
 * pad at the other end of its link can produce (capture) or accept
 * (output), as that pad's ACTIVE state enumerates them. Callers hold the
 * media graph mutex, so the link and its subdevice stay in place.
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

static bool isp_video_has_format(struct media_pad *remote,
				 const struct isp_video_format *f)
{
	struct v4l2_subdev_mbus_code_enum mc = {
		.which = V4L2_SUBDEV_FORMAT_ACTIVE,
	};
	struct v4l2_subdev *sd;

	if (!remote)
		return true;	/* not linked: every format is possible */

	sd = media_entity_to_v4l2_subdev(remote->entity);
	mc.pad = remote->index;
	for (mc.index = 0;
	     !v4l2_subdev_call_state_active(sd, pad, enum_mbus_code, &mc);
	     mc.index++)
		if (mc.code == f->code)
			return true;
	return false;
}

/*
 * The @index-th format the node offers, among those with media bus code
 * @code (0: any code). NULL past the last one.
 */
static const struct isp_video_format *
isp_video_nth_format(struct isp_video *video, u32 code, unsigned int index)
{
	struct mutex *graph = &video->isp->mdev.graph_mutex;
	const struct isp_video_format *f, *found = NULL;
	struct media_pad *remote;
	unsigned int i, n = 0;

	mutex_lock(graph);
	remote = isp_video_remote_pad(video);
	for (i = 0; i < ARRAY_SIZE(isp_video_formats) && !found; i++) {
		f = &isp_video_formats[i];
		if ((code && f->code != code) || !isp_video_has_format(remote, f))
			continue;
		if (n++ == index)
			found = f;
	}
	mutex_unlock(graph);
	return found;
}

/* Adjust @pix to a format the node offers: its own, or the first one. */
static void isp_video_try_pix(struct isp_video *video,
			      struct v4l2_pix_format *pix)
{
	const struct isp_video_format *f = find_format(pix->pixelformat);

	if (!f || !isp_video_nth_format(video, f->code, 0))
		f = isp_video_nth_format(video, 0, 0);
	fill_pix_format(pix, f ? f : &isp_video_formats[0]);
}

/**
 * isp_video_init_format() - start from the format of the linked pad
 * @video: a registered video node whose link exists
 *
 * Called once the graph is complete, so that G_FMT on a fresh node reports
 * what the subdevice at the other end of its link has in its ACTIVE state.
 * The node was registered at probe, so a process may already have set its
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
	unsigned int i;

	if (video->meta)
		return;
	mutex_lock(&video->isp->mdev.graph_mutex);
	remote = isp_video_remote_pad(video);
	if (remote) {
		sd = media_entity_to_v4l2_subdev(remote->entity);
		fmt.pad = remote->index;
		if (!v4l2_subdev_call_state_active(sd, pad, get_fmt, &fmt))
			for (i = 0; i < ARRAY_SIZE(isp_video_formats) && !f; i++)
				if (isp_video_formats[i].code == fmt.format.code)
					f = &isp_video_formats[i];
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

static inline struct isp_buffer *to_isp_buffer(struct vb2_v4l2_buffer *vbuf)
{
	return container_of(vbuf, struct isp_buffer, vb);
}

/* -----------------------------------------------------------------------------
 * vb2 queue
 */

static int isp_queue_setup(struct vb2_queue *q, unsigned int *num_buffers,
			   unsigned int *num_planes, unsigned int sizes[],
			   struct device *alloc_devs[])
{
	struct isp_video *video = vb2_get_drv_priv(q);
	unsigned int size = video->format.sizeimage;

	if (*num_planes)
		return sizes[0] < size ? -EINVAL : 0;
	*num_planes = 1;
	sizes[0] = size;
	return 0;
}

static int isp_buf_prepare(struct vb2_buffer *vb)
{
	struct isp_video *video = vb2_get_drv_priv(vb->vb2_queue);
	unsigned long size = video->format.sizeimage;

	if (vb2_plane_size(vb, 0) < size)
		return -EINVAL;
	if (V4L2_TYPE_IS_CAPTURE(vb->type))
		vb2_set_plane_payload(vb, 0, size);
	else if (vb2_get_plane_payload(vb, 0) != size)
		return -EINVAL;
	to_vb2_v4l2_buffer(vb)->field = V4L2_FIELD_NONE;
	return 0;
}

static void isp_buf_queue(struct vb2_buffer *vb)
{
	struct isp_video *video = vb2_get_drv_priv(vb->vb2_queue);
	struct isp_buffer *buf = to_isp_buffer(to_vb2_v4l2_buffer(vb));

	spin_lock_irq(&video->irqlock);
	list_add_tail(&buf->list, &video->dmaqueue);
	spin_unlock_irq(&video->irqlock);
}

static void isp_return_buffers(struct isp_video *video,
			       enum vb2_buffer_state state)
{
	struct isp_buffer *buf, *tmp;

	spin_lock_irq(&video->irqlock);
	list_for_each_entry_safe(buf, tmp, &video->dmaqueue, list) {
		list_del(&buf->list);
		vb2_buffer_done(&buf->vb.vb2_buf, state);
	}
	spin_unlock_irq(&video->irqlock);
}

/*
 * The video node's own link: its format must be what the subdevice pad at
 * the other end of its enabled link gives (capture) or takes (output). A
 * node with no enabled link streams on its own.
 */
static int isp_video_check_format(struct isp_video *video)
{
	const struct isp_video_format *f = find_format(video->format.pixelformat);
	struct v4l2_subdev_format fmt = {
		.which = V4L2_SUBDEV_FORMAT_ACTIVE,
	};
	struct media_pad *remote;
	struct v4l2_subdev *sd;

	remote = media_pad_remote_pad_first(&video->pad);
	if (!remote)
		return 0;
	if (!is_media_entity_v4l2_subdev(remote->entity))
		return -EPIPE;
	sd = media_entity_to_v4l2_subdev(remote->entity);
	fmt.pad = remote->index;
	if (v4l2_subdev_call_state_active(sd, pad, get_fmt, &fmt))
		return -EPIPE;
	if (video->meta)
		return fmt.format.code == MEDIA_BUS_FMT_METADATA_FIXED ? 0 : -EPIPE;
	if (fmt.format.code != f->code ||
	    fmt.format.width != video->format.width ||
	    fmt.format.height != video->format.height) {
		dev_dbg(video->isp->dev, "%s: %ux%u %p4cc, %s pad %u has %ux%u 0x%04x\n",
			video->vdev.name, video->format.width,
			video->format.height, &video->format.pixelformat,
			sd->name, remote->index, fmt.format.width,
			fmt.format.height, fmt.format.code);
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
 * Frames
 *
 * A streaming capture node whose path starts at a sensor receives the
 * frames isp_frame.c renders through the stages on its path. When the path
 * starts at a memory input node, it is memory-to-memory: each frame takes
 * one buffer of the input node as well, and waits for one. Any other
 * capture node (no enabled link, or no source upstream) receives a
 * horizontal ramp in its own format, and a streaming output node that no
 * capture node takes from has its buffers consumed. A node with no enabled
 * link streams on its own like that, so that its buffer handling can be
 * exercised (v4l2-compliance -s) whatever the configured pipeline.
 *
 * A path from a sensor runs at the sensor's frame interval, read at every
 * frame (a frame is due one interval after the previous one; a late frame
 * is not caught up), or as fast as it renders when the sensor runs free;
 * any other node at one frame every ISP_FRAME_INTERVAL_NS. Each buffer
 * carries a sequence number and a monotonic timestamp.
 */

static void isp_video_fill(const struct v4l2_pix_format *pix, u8 *mem)
{
	u16 *raw10 = (u16 *)mem;
	unsigned int x, y;

	if (pix->pixelformat == V4L2_PIX_FMT_SGRBG10) {
		for (x = 0; x < pix->width; x++)
			raw10[x] = x * 1023 / (pix->width - 1);
	} else {
		for (x = 0; x < pix->bytesperline; x++)
			mem[x] = x * 255 / (pix->bytesperline - 1);
	}
	for (y = 1; y < pix->height; y++)
		memcpy(mem + y * pix->bytesperline, mem, pix->bytesperline);
}

/* the first buffer queued on @video, taken off the queue; NULL if none */
static struct isp_buffer *isp_video_next_buffer(struct isp_video *video)
{
	struct isp_buffer *buf;

	spin_lock_irq(&video->irqlock);
	buf = list_first_entry_or_null(&video->dmaqueue, struct isp_buffer,
				       list);
	if (buf)
		list_del(&buf->list);
	spin_unlock_irq(&video->irqlock);
	return buf;
}

static void isp_video_buffer_done(struct isp_video *video,
				  struct isp_buffer *buf,
				  enum vb2_buffer_state state)
{
	buf->vb.sequence = video->sequence++;
	buf->vb.vb2_buf.timestamp = ktime_get_ns();
	vb2_buffer_done(&buf->vb.vb2_buf, state);
}

/*
 * One frame of a capture node, when it has a buffer (and its input one).
 * Returns whether it had.
 */
static bool isp_video_capture_frame(struct isp_video *video)
{
	struct isp_video *input = NULL;
	enum vb2_buffer_state state = VB2_BUF_STATE_DONE;
	struct isp_buffer *buf, *ibuf = NULL;
	struct isp_stage_stats st = {};
	const u8 *in = NULL;
	unsigned int i;
	u8 *mem;

	buf = isp_video_next_buffer(video);
	if (!buf)
		return false;
	if (video->frame)
		input = isp_frame_input(video->frame);
	if (input) {
		mutex_lock(&input->feed_lock);
		ibuf = isp_video_next_buffer(input);
		if (!ibuf) {
			/* wait for an input frame, the buffer first in line */
			mutex_unlock(&input->feed_lock);
			spin_lock_irq(&video->irqlock);
			list_add(&buf->list, &video->dmaqueue);
			spin_unlock_irq(&video->irqlock);
			return false;
		}
		if (vb2_get_plane_payload(&ibuf->vb.vb2_buf, 0) >=
		    isp_frame_input_size(video->frame))
			in = vb2_plane_vaddr(&ibuf->vb.vb2_buf, 0);
	}

	mem = vb2_plane_vaddr(&buf->vb.vb2_buf, 0);
	if (!mem || (input && !in))
		state = VB2_BUF_STATE_ERROR;
	else if (video->frame)
		isp_frame_render(video->frame, &video->format, mem, in, &st);
	else if (video->meta)
		memset(mem, 0, video->format.sizeimage);	/* nothing sampled */
	else
		isp_video_fill(&video->format, mem);

	if (ibuf) {
		isp_video_buffer_done(input, ibuf, in ? VB2_BUF_STATE_DONE :
							VB2_BUF_STATE_ERROR);
		mutex_unlock(&input->feed_lock);
	}

	spin_lock_irq(&video->irqlock);
	video->rendered++;
	for (i = 0; i < ISP_STAGE_NUM; i++) {
		video->stages.ns[i] += st.ns[i];
		video->stages.pixels[i] += st.pixels[i];
	}
	spin_unlock_irq(&video->irqlock);
	isp_video_buffer_done(video, buf, state);
	return true;
}

/*
 * An output node no capture node takes from consumes a buffer. Returns
 * whether it had one.
 */
static bool isp_video_consume(struct isp_video *video)
{
	struct isp_buffer *buf = NULL;

	mutex_lock(&video->feed_lock);
	if (!video->feeding)
		buf = isp_video_next_buffer(video);
	if (buf)
		isp_video_buffer_done(video, buf, VB2_BUF_STATE_DONE);
	mutex_unlock(&video->feed_lock);
	return buf;
}

static int isp_video_thread(void *data)
{
	struct isp_video *video = data;
	ktime_t next = ktime_get();
	bool done;
	u64 period;

	while (!kthread_should_stop()) {
		period = video->frame ? isp_frame_interval_ns(video->frame) :
					ISP_FRAME_INTERVAL_NS;
		next = ktime_add_ns(next, period);
		if (ktime_before(ktime_get(), next)) {
			set_current_state(TASK_INTERRUPTIBLE);
			schedule_hrtimeout(&next, HRTIMER_MODE_ABS);
			if (kthread_should_stop())
				break;
		} else {
			/* late, or running free: no catching up */
			next = ktime_get();
		}

		if (V4L2_TYPE_IS_CAPTURE(video->queue.type))
			done = isp_video_capture_frame(video);
		else
			done = isp_video_consume(video);
		/* running free with no buffer queued: wait a little for one */
		if (!done && !period)
			usleep_range(1000, 2000);
	}
	return 0;
}

/* a capture node starts or stops taking the buffers of its input node */
static void isp_video_feed(struct isp_video *video, bool feed)
{
	struct isp_video *input;

	if (!video->frame)
		return;
	input = isp_frame_input(video->frame);
	if (!input)
		return;
	mutex_lock(&input->feed_lock);
	if (feed)
		input->feeding++;
	else
		input->feeding--;
	mutex_unlock(&input->feed_lock);
}

/*
 * s_stream on every subdevice of the pipeline, when its first video node
 * starts and its last one stops. Stopping goes through the subdevices
 * that are streaming, so it also undoes a partial start.
 */
static int isp_pipeline_s_stream(struct media_pipeline *pipe, bool enable)
{
	struct media_pipeline_entity_iter iter;
	struct media_entity *entity;
	struct v4l2_subdev *sd;
	int ret;

	ret = media_pipeline_entity_iter_init(pipe, &iter);
	if (ret)
		return ret;
	media_pipeline_for_each_entity(pipe, &iter, entity) {
		if (!is_media_entity_v4l2_subdev(entity))
			continue;
		sd = media_entity_to_v4l2_subdev(entity);
		if (enable) {
			ret = v4l2_subdev_call(sd, video, s_stream, 1);
			if (ret && ret != -ENOIOCTLCMD)
				break;
			ret = 0;
		} else if (sd->s_stream_enabled) {
			v4l2_subdev_call(sd, video, s_stream, 0);
		}
	}
	media_pipeline_entity_iter_cleanup(&iter);
	if (ret)
		isp_pipeline_s_stream(pipe, false);
	return ret;
}

/*
 * STREAMON: start (or join) the media pipeline, which validates the format
 * on every enabled link between subdevices (-EPIPE on a mismatch), check
 * the node's own link and read its path into a frame program whose sizes
 * are checked (-EPIPE again), start the pipeline's subdevices (their
 * power, under the "streaming" policy), then the frame thread. While the
 * pipeline runs, the core refuses to change a link of any of its pads.
 */
static int isp_start_streaming(struct vb2_queue *q, unsigned int count)
{
	struct isp_video *video = vb2_get_drv_priv(q);
	struct isp_device *isp = video->isp;
	struct task_struct *thread;
	struct media_pipeline *pipe;
	int ret;

	mutex_lock(&isp->stream_lock);
	ret = video_device_pipeline_alloc_start(&video->vdev);
	if (ret)
		goto err_unlock;
	/* the links of the started pipeline cannot change, others can */
	mutex_lock(&isp->mdev.graph_mutex);
	ret = isp_video_check_format(video);
	if (!ret && V4L2_TYPE_IS_CAPTURE(q->type)) {
		video->frame = isp_frame_create(video);
		if (IS_ERR(video->frame)) {
			ret = PTR_ERR(video->frame);
			video->frame = NULL;
		}
	}
	mutex_unlock(&isp->mdev.graph_mutex);
	if (ret)
		goto err_stop;
	pipe = video_device_pipeline(&video->vdev);
	if (pipe->start_count == 1) {
		ret = isp_pipeline_s_stream(pipe, true);
		if (ret)
			goto err_frame;
	}
	isp_video_feed(video, true);

	mutex_lock(&video->feed_lock);
	video->sequence = 0;
	mutex_unlock(&video->feed_lock);
	spin_lock_irq(&video->irqlock);
	video->rendered = 0;
	memset(&video->stages, 0, sizeof(video->stages));
	spin_unlock_irq(&video->irqlock);
	thread = kthread_run(isp_video_thread, video, "n900-video%d",
			     video->vdev.num);
	if (IS_ERR(thread)) {
		ret = PTR_ERR(thread);
		goto err_s_stream;
	}
	video->thread = thread;
	mutex_unlock(&isp->stream_lock);
	return 0;

err_s_stream:
	isp_video_feed(video, false);
	if (pipe->start_count == 1)
		isp_pipeline_s_stream(pipe, false);
err_frame:
	isp_frame_destroy(video->frame);
	video->frame = NULL;
err_stop:
	video_device_pipeline_stop(&video->vdev);
err_unlock:
	mutex_unlock(&isp->stream_lock);
	isp_return_buffers(video, VB2_BUF_STATE_QUEUED);
	return ret;
}

/*
 * Stop the frame thread and the node's part of the pipeline: the
 * subdevices' s_stream when it is the last node of its pipeline, then the
 * media pipeline. Under isp->stream_lock; the node's buffers stay queued.
 */
static void isp_video_halt(struct isp_video *video)
{
	struct media_pipeline *pipe;

	kthread_stop(video->thread);
	video->thread = NULL;
	isp_video_feed(video, false);
	isp_frame_destroy(video->frame);
	video->frame = NULL;

	pipe = video_device_pipeline(&video->vdev);
	if (pipe->start_count == 1)
		isp_pipeline_s_stream(pipe, false);
	video_device_pipeline_stop(&video->vdev);
}

static void isp_stop_streaming(struct vb2_queue *q)
{
	struct isp_video *video = vb2_get_drv_priv(q);
	struct isp_device *isp = video->isp;

	mutex_lock(&isp->stream_lock);
	if (video->thread)	/* not halted by isp_video_entity_gone() */
		isp_video_halt(video);
	mutex_unlock(&isp->stream_lock);

	/* a capture node may be rendering from one of an input node's buffers */
	mutex_lock(&video->feed_lock);
	isp_return_buffers(video, VB2_BUF_STATE_ERROR);
	mutex_unlock(&video->feed_lock);
}

/* whether a pad of @entity is in @pipe */
static bool entity_in_pipeline(struct media_entity *entity,
			       struct media_pipeline *pipe)
{
	struct media_pad *pad;

	media_entity_for_each_pad(entity, pad)
		if (pad->pipe && pad->pipe == pipe)
			return true;
	return false;
}

/**
 * isp_video_entity_gone() - stop a stream whose pipeline loses an entity
 * @video: a video node
 * @entity: an entity about to be unregistered (its driver unbinds)
 *
 * A node streaming through @entity stops as if the hardware had failed
 * under it: its frame thread and pipeline stop while every entity of the
 * pipeline still exists, and its queue reports the error (vb2_queue_error():
 * DQBUF and QBUF fail with EIO) until STREAMOFF or close. Called with
 * isp->stream_lock held.
 */
void isp_video_entity_gone(struct isp_video *video,
			   struct media_entity *entity)
{
	struct isp_device *isp = video->isp;

	lockdep_assert_held(&isp->stream_lock);
	if (video->thread &&
	    entity_in_pipeline(entity, video_device_pipeline(&video->vdev))) {
		dev_warn(isp->dev, "%s: %s goes away, streaming stops\n",
			 video->vdev.name, entity->name);
		isp_video_halt(video);
		vb2_queue_error(&video->queue);
	}
}

static const struct vb2_ops isp_video_queue_ops = {
	.queue_setup = isp_queue_setup,
	.buf_prepare = isp_buf_prepare,
	.buf_queue = isp_buf_queue,
	.start_streaming = isp_start_streaming,
	.stop_streaming = isp_stop_streaming,
	.wait_prepare = vb2_ops_wait_prepare,
	.wait_finish = vb2_ops_wait_finish,
};

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

static int isp_enum_fmt(struct file *file, void *fh, struct v4l2_fmtdesc *f)
{
	const struct isp_video_format *fmt;

	fmt = isp_video_nth_format(to_isp_video(file), f->mbus_code, f->index);
	if (!fmt)
		return -EINVAL;
	f->pixelformat = fmt->pixelformat;
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
	ISP_VB2_IOCTL_OPS,
};

/*
 * The seed semantics: an open video node powers every entity it reaches
 * over enabled links (v4l2_pipeline_pm_get), until it is closed. Under the
 * "streaming" power policy, opening powers nothing.
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
	video->format.width = ISP_DEF_WIDTH;
	video->format.height = ISP_DEF_HEIGHT;
	fill_pix_format(&video->format, &isp_video_formats[0]);
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
