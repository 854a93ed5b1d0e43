// SPDX-License-Identifier: GPL-2.0
/*
 * n900_subdev.c - the registration sequence and the lifetime every N900
 * camera subdevice shares (see n900_subdev.h)
 */

#include <linux/device.h>
#include <linux/export.h>
#include <linux/kref.h>
#include <linux/kstrtox.h>
#include <linux/of.h>
#include <linux/property.h>
#include <linux/string.h>
#include <media/v4l2-async.h>
#include <media/v4l2-ctrls.h>
#include <media/v4l2-subdev.h>

#include "n900_power.h"
#include "n900_subdev.h"

/**
 * n900_subdev_init() - initialise a subdevice and take the driver's
 *	reference to it
 * @nsd: the structure, zeroed, in memory from kzalloc() (never devm: it
 *	may outlive the driver's binding)
 * @dev: the device it belongs to; a reference is held until the end
 * @ops: the subdevice operations
 * @internal_ops: internal operations, with .registered =
 *	n900_subdev_registered and .release = n900_subdev_release
 * @free: frees the memory that embeds @nsd
 *
 * From here on, n900_subdev_put() (on a probe failure) or
 * n900_subdev_unregister() (at remove) gives the driver's reference back.
 */
void n900_subdev_init(struct n900_subdev *nsd, struct device *dev,
		      const struct v4l2_subdev_ops *ops,
		      const struct v4l2_subdev_internal_ops *internal_ops,
		      void (*free)(struct n900_subdev *nsd))
{
	v4l2_subdev_init(&nsd->sd, ops);
	nsd->sd.internal_ops = internal_ops;
	nsd->sd.dev = get_device(dev);
	kref_init(&nsd->ref);
	nsd->free = free;
}
EXPORT_SYMBOL_GPL(n900_subdev_init);

static void n900_subdev_free(struct kref *ref)
{
	struct n900_subdev *nsd = container_of(ref, struct n900_subdev, ref);
	struct device *dev = nsd->sd.dev;

	v4l2_subdev_cleanup(&nsd->sd);
	media_entity_cleanup(&nsd->sd.entity);
	v4l2_ctrl_handler_free(nsd->sd.ctrl_handler);
	nsd->free(nsd);
	put_device(dev);
}

/**
 * n900_subdev_put() - give a reference back; the last one frees
 * @nsd: the subdevice
 */
void n900_subdev_put(struct n900_subdev *nsd)
{
	kref_put(&nsd->ref, n900_subdev_free);
}
EXPORT_SYMBOL_GPL(n900_subdev_put);

/**
 * n900_subdev_registered() - the .registered internal operation: V4L2
 *	takes its reference
 * @sd: the subdevice, just registered with a v4l2_device
 *
 * Return: 0.
 */
int n900_subdev_registered(struct v4l2_subdev *sd)
{
	kref_get(&to_n900_subdev(sd)->ref);
	return 0;
}
EXPORT_SYMBOL_GPL(n900_subdev_registered);

/**
 * n900_subdev_release() - the .release internal operation: V4L2 gives
 *	its reference back
 * @sd: the subdevice, unregistered, its node (if any) released
 */
void n900_subdev_release(struct v4l2_subdev *sd)
{
	n900_subdev_put(to_n900_subdev(sd));
}
EXPORT_SYMBOL_GPL(n900_subdev_release);

/**
 * n900_ports_node() - the node whose "port" children are a device's pads
 * @dev: the device
 *
 * Return: its "ports" child, or its own node when it has none, with a
 * reference the caller drops with of_node_put().
 */
struct device_node *n900_ports_node(struct device *dev)
{
	struct device_node *ports = of_get_child_by_name(dev->of_node, "ports");

	return ports ?: of_node_get(dev->of_node);
}
EXPORT_SYMBOL_GPL(n900_ports_node);

/**
 * n900_check_ports() - check the OF graph ports of a device node
 * @dev: the device
 * @num_pads: the pads of its entity
 *
 * A "port@N" node must have "reg = <N>", and N must be a pad of the entity:
 * the OF graph helpers read a port without "reg" as port 0, which would
 * put its link on the wrong pad.
 *
 * Return: 0, or -EINVAL after a dev_err() naming the port.
 */
int n900_check_ports(struct device *dev, unsigned int num_pads)
{
	struct device_node *ports, *port;
	const char *unit;
	u32 reg, addr;
	int ret = 0;

	ports = n900_ports_node(dev);
	for_each_child_of_node(ports, port) {
		if (!of_node_name_eq(port, "port"))
			continue;
		unit = strchr(kbasename(port->full_name), '@');
		if (of_property_read_u32(port, "reg", &reg)) {
			if (!unit)
				continue;	/* a lone "port": port 0 */
			dev_err(dev, "%pOF: port without \"reg\"\n", port);
			ret = -EINVAL;
		} else if (unit && (kstrtou32(unit + 1, 16, &addr) || addr != reg)) {
			dev_err(dev, "%pOF: reg <%u> does not match the unit address\n",
				port, reg);
			ret = -EINVAL;
		} else if (reg >= num_pads) {
			dev_err(dev, "%pOF: port %u, but the entity has %u pads\n",
				port, reg, num_pads);
			ret = -EINVAL;
		}
		if (ret) {
			of_node_put(port);
			break;
		}
	}
	of_node_put(ports);
	return ret;
}
EXPORT_SYMBOL_GPL(n900_check_ports);

/**
 * __n900_subdev_register() - name a subdevice after its DT node and
 *	register it with v4l2-async (use n900_subdev_register())
 * @sd: a subdevice set up with n900_subdev_init(), its entity function
 *	and, if it has controls, its control handler; a shared
 *	@sd->state_lock, if any, is set
 * @dev: the device it belongs to
 * @name: entity name when the DT node has no "label"
 * @num_pads: number of pads
 * @pads: the pads, their flags set
 * @sensor: register as a sensor, so that its "lens-focus" and "flash-leds"
 *	devices bind to it (v4l2_async_register_subdev_sensor())
 * @owner: the driver's module (THIS_MODULE of the caller), which V4L2
 *	holds while the subdevice is registered or its node open
 * @lock_name: lockdep name of the lock of its active state
 * @key: lockdep class of that lock, one per caller
 *
 * Sets up the device's power from its DT node (n900_power_init(); the
 * driver uses n900_power_pm_ops and the n900_power_subdev_* operations),
 * checks its ports (n900_check_ports()), gives the subdevice a device node
 * (and events when it has controls),
 * initialises its pads and active state, and registers it. On failure the
 * error is reported with the DT node; the caller then drops its reference
 * (n900_subdev_put()), which frees what was set up.
 *
 * Return: 0 or a negative errno.
 */
int __n900_subdev_register(struct v4l2_subdev *sd, struct device *dev,
			   const char *name, u16 num_pads,
			   struct media_pad *pads, bool sensor,
			   struct module *owner, const char *lock_name,
			   struct lock_class_key *key)
{
	const char *label;
	int ret;

	sd->fwnode = dev_fwnode(dev);
	/* stress topologies have thousands: more than the V4L2 minors */
	if (!device_property_read_bool(dev, "n900emu,no-devnode"))
		sd->flags |= V4L2_SUBDEV_FL_HAS_DEVNODE;
	if (sd->ctrl_handler)
		sd->flags |= V4L2_SUBDEV_FL_HAS_EVENTS;
	if (device_property_read_string(dev, "label", &label))
		label = name;
	strscpy(sd->name, label, sizeof(sd->name));

	ret = n900_check_ports(dev, num_pads);
	if (ret)
		return ret;
	ret = n900_power_init(dev, &sd->entity);
	if (ret)
		return ret;

	ret = media_entity_pads_init(&sd->entity, num_pads, pads);
	if (ret)
		return dev_err_probe(dev, ret, "%pOF: cannot init pads\n",
				     dev->of_node);

	ret = __v4l2_subdev_init_finalize(sd, lock_name, key);
	if (ret)
		return dev_err_probe(dev, ret, "%pOF: cannot init state\n",
				     dev->of_node);

	/*
	 * The driver's module, not this one: V4L2 holds it (sd->owner) until
	 * the subdevice is released, after the last close of its node, whose
	 * operations and free callback are the driver's code.
	 */
	ret = sensor ? __v4l2_async_register_subdev_sensor(sd, owner) :
		       __v4l2_async_register_subdev(sd, owner);
	if (ret)
		return dev_err_probe(dev, ret, "%pOF: cannot register subdev\n",
				     dev->of_node);
	return 0;
}
EXPORT_SYMBOL_GPL(__n900_subdev_register);

/**
 * n900_subdev_unregister() - undo n900_subdev_register() at remove
 * @nsd: the subdevice
 *
 * Stops its device's autosuspend (n900_power_unregister()), unbinds it
 * from the ISP (which unregisters it from V4L2 and the media graph) and
 * drops the driver's reference: the memory goes with the last close of the
 * subdevice's node.
 */
void n900_subdev_unregister(struct n900_subdev *nsd)
{
	n900_power_unregister(nsd->sd.dev);
	v4l2_async_unregister_subdev(&nsd->sd);
	n900_subdev_put(nsd);
}
EXPORT_SYMBOL_GPL(n900_subdev_unregister);
