// SPDX-License-Identifier: GPL-2.0
/*
 * stream-busy - a streaming pipeline delivers frames and its links cannot
 * change until it stops.
 *
 * usage: stream-busy FIRST MEDIA VIDEO IN_PIPE TOUCHING
 *   FIRST     number of the first KTAP result (the caller's document
 *             continues)
 *   MEDIA     the media device, e.g. /dev/media0
 *   VIDEO     entity name of a configured capture video node
 *   IN_PIPE   an enabled, mutable link of its pipeline, "SRC:PAD>SINK:PAD"
 *   TOUCHING  a disabled link with one pad in the pipeline, same syntax
 *
 * The media controller documents EBUSY for MEDIA_IOC_SETUP_LINK on a link
 * whose pads are streaming; after STREAMOFF both links change freely (and
 * are put back). Prints KTAP results FIRST..FIRST+3, no header.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/media.h>
#include <linux/videodev2.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ktap.h"

#define NBUF	3

static int mfd;

static int entity_by_name(const char *name, struct media_entity_desc *out)
{
	struct media_entity_desc e;

	memset(&e, 0, sizeof(e));
	e.id = MEDIA_ENT_ID_FLAG_NEXT;
	while (!ioctl(mfd, MEDIA_IOC_ENUM_ENTITIES, &e)) {
		if (!strcmp(e.name, name)) {
			*out = e;
			return 0;
		}
		e.id |= MEDIA_ENT_ID_FLAG_NEXT;
	}
	return -1;
}

/* "SRC:PAD>SINK:PAD" into a link descriptor (flags left 0). */
static int parse_link(const char *spec, struct media_link_desc *l)
{
	char buf[256], *gt, *colon;
	struct media_entity_desc e;

	memset(l, 0, sizeof(*l));
	snprintf(buf, sizeof(buf), "%s", spec);
	gt = strchr(buf, '>');
	if (!gt)
		return -1;
	*gt++ = 0;
	colon = strrchr(buf, ':');
	if (!colon)
		return -1;
	*colon = 0;
	if (entity_by_name(buf, &e))
		return -1;
	l->source.entity = e.id;
	l->source.index = atoi(colon + 1);
	colon = strrchr(gt, ':');
	if (!colon)
		return -1;
	*colon = 0;
	if (entity_by_name(gt, &e))
		return -1;
	l->sink.entity = e.id;
	l->sink.index = atoi(colon + 1);
	return 0;
}

/* The link's current flags, or -1 when ENUM_LINKS does not list it. */
static int link_flags(const struct media_link_desc *l)
{
	struct media_link_desc links[64];
	struct media_pad_desc pads[16];
	struct media_links_enum le;
	struct media_entity_desc e;
	unsigned int i;

	memset(&e, 0, sizeof(e));
	e.id = l->source.entity;
	if (ioctl(mfd, MEDIA_IOC_ENUM_ENTITIES, &e) || e.pads > 16 || e.links > 64)
		return -1;
	memset(&le, 0, sizeof(le));
	le.entity = e.id;
	le.pads = pads;
	le.links = links;
	if (ioctl(mfd, MEDIA_IOC_ENUM_LINKS, &le))
		return -1;
	for (i = 0; i < e.links; i++)
		if (links[i].source.index == l->source.index &&
		    links[i].sink.entity == l->sink.entity &&
		    links[i].sink.index == l->sink.index)
			return links[i].flags;
	return -1;
}

/* SETUP_LINK with @flags: 0, or the errno it failed with. */
static int setup(const struct media_link_desc *l, __u32 flags)
{
	struct media_link_desc d = *l;

	d.flags = flags;
	return ioctl(mfd, MEDIA_IOC_SETUP_LINK, &d) ? errno : 0;
}

static int dqbuf(int vfd, struct v4l2_buffer *b)
{
	struct pollfd p = { .fd = vfd, .events = POLLIN };

	if (poll(&p, 1, 5000) != 1)
		return -1;
	memset(b, 0, sizeof(*b));
	b->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	b->memory = V4L2_MEMORY_MMAP;
	return ioctl(vfd, VIDIOC_DQBUF, b);
}

/* Open the device node of entity @name, found through its sysfs uevent. */
static int open_video(const char *name)
{
	struct media_entity_desc e;
	char path[128], line[128];
	FILE *fp;
	int fd = -1;

	if (entity_by_name(name, &e))
		return -1;
	snprintf(path, sizeof(path), "/sys/dev/char/%u:%u/uevent", e.dev.major,
		 e.dev.minor);
	fp = fopen(path, "r");
	if (!fp)
		return -1;
	while (fd < 0 && fgets(line, sizeof(line), fp)) {
		if (strncmp(line, "DEVNAME=", 8))
			continue;
		line[strcspn(line, "\n")] = 0;
		snprintf(path, sizeof(path), "/dev/%s", line + 8);
		fd = open(path, O_RDWR | O_NONBLOCK);
	}
	fclose(fp);
	return fd;
}

int main(int argc, char **argv)
{
	struct media_link_desc in_pipe, touching;
	struct v4l2_requestbuffers rb;
	struct v4l2_buffer b0, b1;
	struct timeval t0;
	struct v4l2_format fmt;
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	int vfd, ok, e1, e2, f1, f2;
	unsigned int i;

	if (argc != 6) {
		fprintf(stderr, "usage: %s FIRST MEDIA VIDEO IN_PIPE TOUCHING\n",
			argv[0]);
		return 2;
	}
	ktap_first(strtoul(argv[1], NULL, 0));
	mfd = open(argv[2], O_RDWR);
	if (mfd < 0 || parse_link(argv[4], &in_pipe) ||
	    parse_link(argv[5], &touching)) {
		ktap_diag("cannot open %s or find the links", argv[2]);
		return 1;
	}
	vfd = open_video(argv[3]);
	if (vfd < 0) {
		ktap_diag("cannot open the video node of '%s': %s", argv[3],
			  strerror(errno));
		return 1;
	}

	/* 1: two frames, in sequence, with payload and rising timestamps */
	memset(&fmt, 0, sizeof(fmt));
	fmt.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	memset(&rb, 0, sizeof(rb));
	rb.count = NBUF;
	rb.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	rb.memory = V4L2_MEMORY_MMAP;
	ok = !ioctl(vfd, VIDIOC_G_FMT, &fmt) && !ioctl(vfd, VIDIOC_REQBUFS, &rb);
	for (i = 0; ok && i < rb.count; i++) {
		memset(&b0, 0, sizeof(b0));
		b0.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
		b0.memory = V4L2_MEMORY_MMAP;
		b0.index = i;
		ok = !ioctl(vfd, VIDIOC_QBUF, &b0);
	}
	ok = ok && !ioctl(vfd, VIDIOC_STREAMON, &type);
	if (!ok)
		ktap_diag("setting up streaming failed: %s", strerror(errno));
	memset(&t0, 0, sizeof(t0));
	ok = ok && !dqbuf(vfd, &b0);
	t0 = b0.timestamp;	/* QBUF below rewrites b0 */
	ok = ok && !ioctl(vfd, VIDIOC_QBUF, &b0) && !dqbuf(vfd, &b1);
	if (ok) {
		ktap_diag("frames %u and %u, %u bytes (sizeimage %u), %lld us apart",
			  b0.sequence, b1.sequence, b1.bytesused,
			  fmt.fmt.pix.sizeimage,
			  (b1.timestamp.tv_sec - t0.tv_sec) * 1000000LL +
			  b1.timestamp.tv_usec - t0.tv_usec);
		ok = b0.sequence == 0 && b1.sequence == 1 &&
		     b1.bytesused == fmt.fmt.pix.sizeimage &&
		     !(b1.flags & V4L2_BUF_FLAG_ERROR) &&
		     (b1.timestamp.tv_sec > t0.tv_sec ||
		      (b1.timestamp.tv_sec == t0.tv_sec &&
		       b1.timestamp.tv_usec > t0.tv_usec));
	}
	ktap_result(ok, "streaming_delivers_frames");

	/* 2, 3: the links of a streaming pipeline do not change */
	e1 = setup(&in_pipe, 0);
	f1 = link_flags(&in_pipe);
	ktap_diag("disabling '%s' while streaming: %s, flags now %d", argv[4],
		  strerror(e1), f1);
	ktap_result(e1 == EBUSY && f1 == MEDIA_LNK_FL_ENABLED,
		    "link_disable_while_streaming_ebusy");
	e2 = setup(&touching, MEDIA_LNK_FL_ENABLED);
	f2 = link_flags(&touching);
	ktap_diag("enabling '%s' while streaming: %s, flags now %d", argv[5],
		  strerror(e2), f2);
	ktap_result(e2 == EBUSY && f2 == 0, "link_enable_while_streaming_ebusy");

	/* 4: after STREAMOFF they do, and are put back */
	ok = !ioctl(vfd, VIDIOC_STREAMOFF, &type);
	e1 = setup(&in_pipe, 0);
	f1 = link_flags(&in_pipe);
	e2 = setup(&touching, MEDIA_LNK_FL_ENABLED);
	f2 = link_flags(&touching);
	ktap_diag("after STREAMOFF: disable %s (flags %d), enable %s (flags %d)",
		  strerror(e1), f1, strerror(e2), f2);
	ok = ok && !e1 && f1 == 0 && !e2 && f2 == MEDIA_LNK_FL_ENABLED;
	ok = !setup(&touching, 0) && !setup(&in_pipe, MEDIA_LNK_FL_ENABLED) && ok;
	ktap_result(ok, "links_change_after_streamoff");

	close(vfd);
	close(mfd);
	return 0;
}
