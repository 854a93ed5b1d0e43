// SPDX-License-Identifier: GPL-2.0
/*
 * isp_stream.c - a streaming ISP video node: its vb2 queue, and the thread
 * that fills its buffers with the frames of its path (isp_frame.c), feeds
 * memory-to-memory paths from an output node, and paces a sensor path at
 * the sensor's frame interval. The node itself (formats, ioctls,
 * registration) is in isp_video.c.
 */

#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <media/v4l2-mc.h>
#include <media/videobuf2-vmalloc.h>

#include "isp.h"
#include "n900_power.h"

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
		ibuf = input->started ? isp_video_next_buffer(input) : NULL;
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
		isp_frame_render(video->frame, &video->format, mem, in,
				 video->sequence, &st);
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

/*
 * The frame thread parks for a system sleep (isp_video_park()): between
 * two frames, before the devices power down, until they are back; the
 * stream goes on from the next frame, its sequence unbroken.
 */
static int isp_video_thread(void *data)
{
	struct isp_video *video = data;
	ktime_t next = ktime_get();
	bool done;
	u64 period;

	while (!kthread_should_stop()) {
		if (kthread_should_park()) {
			kthread_parkme();
			/* the time parked is not a late frame */
			next = ktime_get();
			continue;
		}
		period = video->frame ? isp_frame_interval_ns(video->frame) :
					ISP_FRAME_INTERVAL_NS;
		next = ktime_add_ns(next, period);
		if (ktime_before(ktime_get(), next)) {
			/*
			 * kthread_park() sets its flag, then wakes the
			 * thread: a park asked for since the check above is
			 * seen here, after the state is set, or its wake-up
			 * ends the sleep. (A kthread_stop() also sets a
			 * notification signal, which no interruptible sleep
			 * waits through; it is checked here all the same.)
			 */
			set_current_state(TASK_INTERRUPTIBLE);
			if (kthread_should_stop() || kthread_should_park())
				__set_current_state(TASK_RUNNING);
			else
				schedule_hrtimeout(&next, HRTIMER_MODE_ABS);
			if (kthread_should_stop())
				break;
			/* woken to park: no frame before the sleep */
			if (kthread_should_park())
				continue;
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
 * Stop every subdevice of the pipeline that streams, when its last video
 * node stops, or after a partial start. It walks the pipeline's pads,
 * which takes no memory, so that it cannot fail and leave a subdevice
 * streaming; a subdevice with two pads in the pipeline is stopped at the
 * first (s_stream_enabled).
 */
static void isp_pipeline_stop(struct media_pipeline *pipe)
{
	struct media_pipeline_pad_iter iter;
	struct v4l2_subdev *sd;
	struct media_pad *pad;

	media_pipeline_for_each_pad(pipe, &iter, pad) {
		if (!is_media_entity_v4l2_subdev(pad->entity))
			continue;
		sd = media_entity_to_v4l2_subdev(pad->entity);
		if (sd->s_stream_enabled)
			v4l2_subdev_call(sd, video, s_stream, 0);
	}
}

/*
 * s_stream on every subdevice of the pipeline, when its first video node
 * starts; on an error, stop those already started.
 */
static int isp_pipeline_start(struct media_pipeline *pipe)
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
		ret = v4l2_subdev_call(sd, video, s_stream, 1);
		if (ret && ret != -ENOIOCTLCMD)
			break;
		ret = 0;
	}
	media_pipeline_entity_iter_cleanup(&iter);
	if (ret)
		isp_pipeline_stop(pipe);
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
		ret = isp_pipeline_start(pipe);
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
	/* a capture node fed by this one may take its buffers from now on */
	mutex_lock(&video->feed_lock);
	video->started = true;
	mutex_unlock(&video->feed_lock);
	mutex_unlock(&isp->stream_lock);
	return 0;

err_s_stream:
	isp_video_feed(video, false);
	if (pipe->start_count == 1)
		isp_pipeline_stop(pipe);
err_frame:
	isp_frame_destroy(video->frame);
	video->frame = NULL;
err_stop:
	video_device_pipeline_stop(&video->vdev);
err_unlock:
	mutex_unlock(&isp->stream_lock);
	mutex_lock(&video->feed_lock);
	isp_return_buffers(video, VB2_BUF_STATE_QUEUED);
	mutex_unlock(&video->feed_lock);
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

	/* no capture node takes a buffer of this one any more */
	mutex_lock(&video->feed_lock);
	video->started = false;
	mutex_unlock(&video->feed_lock);
	kthread_stop(video->thread);
	video->thread = NULL;
	isp_video_feed(video, false);
	isp_frame_destroy(video->frame);
	video->frame = NULL;

	pipe = video_device_pipeline(&video->vdev);
	if (pipe->start_count == 1)
		isp_pipeline_stop(pipe);
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

	/*
	 * Under the feed lock, as the failed start returns them: no capture
	 * node holds one of them now (isp_video_halt() cleared @started).
	 */
	mutex_lock(&video->feed_lock);
	isp_return_buffers(video, VB2_BUF_STATE_ERROR);
	mutex_unlock(&video->feed_lock);
}

/**
 * isp_entity_in_pipeline() - is a pad of an entity in a pipeline?
 * @entity: the entity
 * @pipe: the pipeline
 *
 * Return: true when one of @entity's pads belongs to @pipe.
 */
bool isp_entity_in_pipeline(struct media_entity *entity,
			    struct media_pipeline *pipe)
{
	struct media_pad *pad;

	media_entity_for_each_pad(entity, pad)
		if (pad->pipe && pad->pipe == pipe)
			return true;
	return false;
}

/*
 * Stop a stream as if the hardware had failed under it: its frame thread
 * and pipeline stop while every entity of the pipeline still exists, and
 * its queue reports the error (vb2_queue_error(): DQBUF and QBUF fail with
 * EIO) until STREAMOFF or close.
 */
static void isp_video_stop_error(struct isp_video *video, const char *name,
				 const char *why)
{
	dev_warn(video->isp->dev, "%s: %s %s, streaming stops\n",
		 video->vdev.name, name, why);
	isp_video_halt(video);
	vb2_queue_error(&video->queue);
}

/**
 * isp_video_park() - park or unpark a node's frame thread
 * @video: a video node
 * @park: park (true) or let it go on (false)
 *
 * For a system sleep: the ISP's prepare parks the frame threads, so that
 * no frame renders while the devices power down and up, and its complete
 * lets them go on. A node that does not stream has nothing to park.
 * Called with isp->stream_lock held.
 */
void isp_video_park(struct isp_video *video, bool park)
{
	lockdep_assert_held(&video->isp->stream_lock);
	if (!video->thread)
		return;
	if (park)
		kthread_park(video->thread);
	else
		kthread_unpark(video->thread);
}

/**
 * isp_video_entity_gone() - stop a stream whose pipeline loses an entity
 * @video: a video node
 * @entity: an entity about to be unregistered (its driver unbinds)
 *
 * A node streaming through @entity stops as if the hardware had failed
 * under it (see isp_video_stop_error()). Called with isp->stream_lock held.
 */
void isp_video_entity_gone(struct isp_video *video,
			   struct media_entity *entity)
{
	lockdep_assert_held(&video->isp->stream_lock);
	if (video->thread &&
	    isp_entity_in_pipeline(entity, video_device_pipeline(&video->vdev)))
		isp_video_stop_error(video, entity->name, "goes away");
}

/**
 * isp_video_entity_joins() - stop a stream that a binding subdevice joins
 * @video: a video node
 * @sd: a subdevice about to get its links (its driver binds)
 *
 * A link of a started pipeline cannot be enabled (the core says -EBUSY),
 * and a link the subdevice cannot do without (immutable, or any enabled
 * one while the graph is not yet complete) would fail its bind: a stream
 * of @video whose pipeline such a link joins stops first, as for an
 * unbind. A node streaming on its own before the camera has bound is one.
 * Called with isp->stream_lock held.
 */
void isp_video_entity_joins(struct isp_video *video, struct v4l2_subdev *sd)
{
	struct media_entity *remote;

	lockdep_assert_held(&video->isp->stream_lock);
	if (!video->thread)
		return;
	remote = isp_links_join(video->isp, sd->fwnode,
				video_device_pipeline(&video->vdev));
	if (remote)
		isp_video_stop_error(video, sd->name, "binds to its pipeline");
}

const struct vb2_ops isp_video_queue_ops = {
	.queue_setup = isp_queue_setup,
	.buf_prepare = isp_buf_prepare,
	.buf_queue = isp_buf_queue,
	.start_streaming = isp_start_streaming,
	.stop_streaming = isp_stop_streaming,
	.wait_prepare = vb2_ops_wait_prepare,
	.wait_finish = vb2_ops_wait_finish,
};
