/* SPDX-License-Identifier: GPL-2.0 */
/*
 * n900_subdev.h - the registration sequence every N900 camera subdevice
 * shares: the ISP blocks, the sensors, the switch, the lens and the flash.
 *
 * The functions are in n900-power (power/n900_subdev.c), the library
 * module every device module already loads after, so that the device
 * drivers stay independent of the ISP module.
 *
 * Lifetime: a process may keep a subdevice node open across an unbind of
 * its driver (or of the ISP). The subdevice, its control handler and its
 * state must stay until the node is released, so a driver's state lives
 * in a struct n900_subdev, freed when the last of two references goes:
 * the driver's own, dropped by n900_subdev_unregister() at remove, and
 * V4L2's, taken when the subdevice is registered with the ISP's
 * v4l2_device (.registered) and dropped when V4L2 releases it (.release,
 * after the last close of its node).
 */
#ifndef N900_SUBDEV_H
#define N900_SUBDEV_H

#include <linux/device.h>
#include <linux/kref.h>
#include <linux/module.h>
#include <linux/kstrtox.h>
#include <linux/of.h>
#include <linux/property.h>
#include <media/v4l2-async.h>
#include <media/v4l2-ctrls.h>
#include <media/v4l2-subdev.h>

#include "n900_power.h"

/* the media core refuses more pads than this (mc-entity.c) */
#define N900_MAX_PADS	511

/**
 * struct n900_subdev - a subdevice whose memory outlives its file handles
 * @sd: the subdevice
 * @ref: the driver's reference and V4L2's (see the top of this file)
 * @free: frees the driver's state that embeds this structure, once the
 *	subdevice, its control handler and its state are cleaned up
 */
struct n900_subdev {
	struct v4l2_subdev sd;
	struct kref ref;
	void (*free)(struct n900_subdev *nsd);
};

static inline struct n900_subdev *to_n900_subdev(struct v4l2_subdev *sd)
{
	return container_of(sd, struct n900_subdev, sd);
}

void n900_subdev_init(struct n900_subdev *nsd, struct device *dev,
		      const struct v4l2_subdev_ops *ops,
		      const struct v4l2_subdev_internal_ops *internal_ops,
		      void (*free)(struct n900_subdev *nsd));

void n900_subdev_put(struct n900_subdev *nsd);

int n900_subdev_registered(struct v4l2_subdev *sd);

void n900_subdev_release(struct v4l2_subdev *sd);

struct device_node *n900_ports_node(struct device *dev);

int n900_check_ports(struct device *dev, unsigned int num_pads);

int __n900_subdev_register(struct v4l2_subdev *sd, struct device *dev,
			   const char *name, u16 num_pads,
			   struct media_pad *pads, bool sensor,
			   struct module *owner, const char *lock_name,
			   struct lock_class_key *key);

/**
 * n900_subdev_register() - name a subdevice after its DT node and register
 *	it with v4l2-async (see __n900_subdev_register())
 * @sd: the subdevice
 * @dev: the device it belongs to
 * @name: entity name when the DT node has no "label"
 * @num_pads: number of pads
 * @pads: the pads, their flags set
 * @sensor: register as a sensor (its lens and flash bind to it)
 *
 * A macro, as v4l2_subdev_init_finalize() and v4l2_async_register_subdev()
 * are: the caller's module is the subdevice's owner, which V4L2 holds while
 * its node is open, and each driver's subdevice states get a lock class of
 * their own, so that lockdep tells a sensor's state lock from the switch's
 * when a link between them is validated with both held.
 *
 * Return: 0 or a negative errno.
 */
#define n900_subdev_register(sd, dev, name, num_pads, pads, sensor)	\
	({								\
		static struct lock_class_key __key;			\
		__n900_subdev_register(sd, dev, name, num_pads, pads,	\
				       sensor, THIS_MODULE,		\
				       KBUILD_BASENAME			\
				       ":sd->active_state->lock",	\
				       &__key);				\
	})

void n900_subdev_unregister(struct n900_subdev *nsd);

#endif /* N900_SUBDEV_H */
