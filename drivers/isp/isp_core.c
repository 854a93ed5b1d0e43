// SPDX-License-Identifier: GPL-2.0
/*
 * isp_core.c - emulated TI OMAP3 ISP with the Nokia N900 cameras
 *
 * The N900 camera pipeline as dts/n900.dtso describes it (the topology is
 * data: this file builds whatever graph the device tree gives):
 *
 *  et8ek8 ----+                        +-> [CSI2a output]
 *  (+ ad5820, |                        |
 *   adp1653)  +-> video-bus-switch     CSI2a --+
 *  vs6555 ----+        |                       |
 *                      v                       v
 *  [CCP2 input] ---> CCP2 ---------------> CCDC --OF--> [CCDC output]
 *                                            |
 *                  +-----------VP------------+---> AEWB, AF, histogram
 *                  |                         |     --> [AEWB | AF |
 *                  v                         |          histogram output]
 *                 LSC --> WB --> preview <---+----- [preview input]
 *                                  |  |      |
 *               [preview output] <-+  +-> resizer <-- [resizer input]
 *                                            |
 *                                            +-> [resizer output]
 *
 *  name    : a V4L2 subdevice (/dev/v4l-subdevN), one platform device each
 *  [name]  : a video node (/dev/videoN) for a memory input or output; the
 *            statistics outputs are metadata capture nodes
 *
 * Probe: the ISP node's children become platform devices. The ISP walks the
 * OF graph from its children and adds every device it reaches (blocks,
 * switch, sensors) to one v4l2-async notifier; sensors add their lens and
 * flash through their own sub-notifier ("lens-focus", "flash-leds"). Each
 * entity's links are created when it binds, from its endpoints, so any
 * probe order gives the same graph. /dev/mediaN appears once all are bound.
 */

#include <linux/module.h>
#include <linux/of.h>
#include <linux/of_graph.h>
#include <linux/of_platform.h>
#include <linux/pm_runtime.h>
#include <linux/property.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/xarray.h>
#include <media/v4l2-mc.h>

#include "isp.h"
#include "n900_power.h"

static bool inject_warn;
module_param(inject_warn, bool, 0444);
MODULE_PARM_DESC(inject_warn,
		 "Emit a kernel WARNING at probe (checks that the test harness catches splats)");

static inline struct isp_device *notifier_to_isp(struct v4l2_async_notifier *n)
{
	return container_of(n, struct isp_device, notifier);
}

static bool is_video_node(struct device_node *np)
{
	return of_device_is_compatible(np, "n900emu,isp-video");
}

/* -----------------------------------------------------------------------------
 * v4l2-async
 */

static int isp_subdev_bound(struct v4l2_async_notifier *notifier,
			    struct v4l2_subdev *sd,
			    struct v4l2_async_connection *asc)
{
	struct isp_device *isp = notifier_to_isp(notifier);
	unsigned int i;
	int ret;

	dev_dbg(isp->dev, "bound %s\n", sd->name);
	/*
	 * A link of a started pipeline cannot be enabled (-EBUSY), and the
	 * links the bind needs would fail it: the streams they join stop
	 * first, and, under the stream lock as in isp_subdev_unbind(), no
	 * STREAMON starts a pipeline until the links are made (a STREAMON
	 * starts its node's pipeline even when it then finds the node's
	 * path incomplete and stops it again).
	 */
	mutex_lock(&isp->stream_lock);
	for (i = 0; i < isp->num_videos; i++)
		isp_video_entity_joins(&isp->videos[i], sd);
	ret = isp_create_links(isp, &sd->entity, sd->fwnode);
	mutex_unlock(&isp->stream_lock);
	/*
	 * The blocks of a tree bind one after the other inside the ISP's
	 * probe (of_platform_populate()), each link a few phandle lookups
	 * that scan the whole tree: chain-4096 took 22 s without a schedule
	 * on a kernel without preemption, and RCU reported a stall.
	 */
	cond_resched();
	return ret;
}

static int isp_subdev_complete(struct v4l2_async_notifier *notifier)
{
	struct isp_device *isp = notifier_to_isp(notifier);
	struct media_entity *entity;
	unsigned int entities = 0, i;
	int ret;

	/*
	 * On failure the nodes registered so far stay with their subdevices
	 * (patches/0016), and what completed the notifier fails: the bind of
	 * the last subdevice, or the ISP's probe when none was missing.
	 */
	ret = v4l2_device_register_subdev_nodes(&isp->v4l2_dev);
	if (ret) {
		dev_err(isp->dev, "%pOF: cannot register the subdevice nodes: %d\n",
			isp->dev->of_node, ret);
		return ret;
	}
	if (isp->registered)
		return 0;	/* a subdevice came back after an unbind */

	for (i = 0; i < isp->num_videos; i++)
		isp_video_init_format(&isp->videos[i]);
	/* the media node keeps the ISP until its release: isp_media_release() */
	if (ISP_MEDIA_RELEASE)
		v4l2_device_get(&isp->v4l2_dev);
	ret = media_device_register(&isp->mdev);
	if (ret) {
		if (ISP_MEDIA_RELEASE)
			v4l2_device_put(&isp->v4l2_dev);
		return ret;
	}
	isp->registered = true;
	isp_debugfs_init(isp);
	media_device_for_each_entity(entity, &isp->mdev)
		entities++;
	dev_info(isp->dev, "%s: %u entities, %s\n", isp->mdev.model, entities,
		 dev_name(&isp->mdev.devnode->dev));
	return 0;
}

/*
 * A subdevice goes away (its driver unbinds, or the ISP's does): the
 * streams through it stop before its entity is unregistered, so that no
 * frame thread reads it and no started pipeline holds its pads; then its
 * links are disabled, which powers down what they joined to an open node,
 * and removed, and a power-down its autosuspend delay holds back happens
 * now. Both under the stream lock, so that no STREAMON can start a
 * pipeline through the entity in between: once its links are gone, no
 * path reaches it.
 */
static void isp_subdev_unbind(struct v4l2_async_notifier *notifier,
			      struct v4l2_subdev *sd,
			      struct v4l2_async_connection *asc)
{
	struct isp_device *isp = notifier_to_isp(notifier);
	unsigned int i;

	mutex_lock(&isp->stream_lock);
	for (i = 0; i < isp->num_videos; i++)
		isp_video_entity_gone(&isp->videos[i], &sd->entity);
	isp_unlink_entity(isp, &sd->entity);
	/* no power-down later, when the ISP's clocks may be gone */
	n900_power_settle(sd->dev);
	mutex_unlock(&isp->stream_lock);
}

static const struct v4l2_async_notifier_operations isp_async_ops = {
	.bound = isp_subdev_bound,
	.unbind = isp_subdev_unbind,
	.complete = isp_subdev_complete,
};

/**
 * struct node_stack - the device nodes still to visit in isp_collect_graph()
 * @nodes: node pointers, each holding a reference
 * @n: number of entries in use
 * @max: allocated entries
 */
struct node_stack {
	struct device_node **nodes;
	unsigned int n;
	unsigned int max;
};

/* Push @np (consuming its reference); drop it on failure. */
static int node_stack_push(struct node_stack *st, struct device_node *np)
{
	if (st->n == st->max) {
		unsigned int max = st->max ? st->max * 2 : 32;
		struct device_node **nodes;

		nodes = krealloc_array(st->nodes, max, sizeof(*nodes), GFP_KERNEL);
		if (!nodes) {
			of_node_put(np);
			return -ENOMEM;
		}
		st->nodes = nodes;
		st->max = max;
	}
	st->nodes[st->n++] = np;
	return 0;
}

/*
 * The device node at the other end of @ep, after checking that the link is
 * well formed: a remote-endpoint that is an endpoint (in a port) and points
 * back at @ep.
 */
static struct device_node *endpoint_remote_parent(struct isp_device *isp,
						  struct device_node *ep)
{
	struct device_node *rep, *back, *port;
	bool ok;

	rep = of_graph_get_remote_endpoint(ep);
	if (!rep) {
		dev_err(isp->dev, "%pOF: no remote-endpoint\n", ep);
		return ERR_PTR(-EINVAL);
	}
	port = of_get_parent(rep);
	back = of_graph_get_remote_endpoint(rep);
	ok = of_node_name_eq(rep, "endpoint") && port &&
	     of_node_name_eq(port, "port");
	of_node_put(port);
	of_node_put(back);
	if (!ok || back != ep) {
		dev_err(isp->dev, "%pOF: remote-endpoint %pOF is %s\n", ep, rep,
			ok ? "not linked back to it" : "not an endpoint in a port");
		of_node_put(rep);
		return ERR_PTR(-EINVAL);
	}
	of_node_put(rep);
	return of_graph_get_remote_port_parent(ep);
}

/*
 * Add every device node reachable over the OF graph from the ISP's block
 * children to the notifier. The walk is iterative (a chain of stress
 * entities may be thousands deep) and keeps the visited nodes in an xarray
 * indexed by node address.
 */
static int isp_collect_graph(struct isp_device *isp)
{
	struct node_stack st = {};
	struct device_node *np, *child, *ep, *remote;
	struct v4l2_async_connection *asc;
	const char *compat = "";
	struct xarray visited;
	int ret = 0;

	xa_init(&visited);
	for_each_available_child_of_node(isp->dev->of_node, child) {
		if (!of_property_present(child, "compatible") ||
		    is_video_node(child))
			continue;
		if (!of_match_node(isp_block_driver.driver.of_match_table, child)) {
			of_property_read_string(child, "compatible", &compat);
			dev_err(isp->dev, "%pOF: unknown ISP block compatible \"%s\"\n",
				child, compat);
			of_node_put(child);
			ret = -EINVAL;
			goto out;
		}
		ret = node_stack_push(&st, of_node_get(child));
		if (ret) {
			of_node_put(child);
			goto out;
		}
	}

	while (st.n) {
		np = st.nodes[--st.n];
		ret = xa_insert(&visited, (unsigned long)np, np, GFP_KERNEL);
		if (ret) {
			of_node_put(np);
			if (ret != -EBUSY)
				goto out;
			ret = 0;
			continue;	/* already visited */
		}
		asc = v4l2_async_nf_add_fwnode(&isp->notifier, of_fwnode_handle(np),
					       struct v4l2_async_connection);
		if (IS_ERR(asc)) {
			ret = PTR_ERR(asc);
			of_node_put(np);
			goto out;
		}

		for_each_endpoint_of_node(np, ep) {
			remote = endpoint_remote_parent(isp, ep);
			if (IS_ERR(remote)) {
				ret = PTR_ERR(remote);
			} else if (is_video_node(remote) ||
				   !of_device_is_available(remote)) {
				of_node_put(remote);
				continue;
			} else {
				ret = node_stack_push(&st, remote);
			}
			if (ret) {
				of_node_put(ep);
				break;
			}
		}
		of_node_put(np);
		if (ret)
			goto out;
	}
out:
	while (st.n)
		of_node_put(st.nodes[--st.n]);
	kfree(st.nodes);
	xa_destroy(&visited);
	return ret;
}

/* -----------------------------------------------------------------------------
 * Video nodes
 */

static int isp_create_videos(struct isp_device *isp)
{
	struct device_node *child;
	unsigned int i = 0, n = 0;
	int ret;

	for_each_available_child_of_node(isp->dev->of_node, child)
		n += is_video_node(child);

	/* freed with the ISP, by isp_release(): open nodes outlive an unbind */
	isp->videos = kcalloc(n, sizeof(*isp->videos), GFP_KERNEL);
	if (!isp->videos)
		return -ENOMEM;
	/* only now: isp_release() walks the array */
	isp->num_videos = n;

	for_each_available_child_of_node(isp->dev->of_node, child) {
		if (!is_video_node(child))
			continue;
		ret = isp_video_init(isp, &isp->videos[i], of_fwnode_handle(child));
		if (!ret)
			ret = isp_video_register(&isp->videos[i]);
		if (ret) {
			of_node_put(child);
			goto err;
		}
		i++;
	}
	return 0;

err:
	while (i--)
		isp_video_unregister(&isp->videos[i]);
	return ret;
}

static void isp_remove_videos(struct isp_device *isp)
{
	unsigned int i;

	for (i = 0; i < isp->num_videos; i++)
		isp_video_unregister(&isp->videos[i]);
}

/* -----------------------------------------------------------------------------
 * Initialization and Cleanup
 */

/**
 * isp_link_notify() - the media device's link_notify
 * @link: the link that changes
 * @flags: its new flags
 * @notification: MEDIA_DEV_NOTIFY_PRE_LINK_CH or _POST_LINK_CH
 *
 * A data link about to be enabled must not close a loop of enabled links
 * (isp_link_order()). The ISP's own entities check it in their link_setup,
 * after their one-input rule (isp_link_setup()); the links into other
 * entities (the video bus switch) are checked here, so that the order
 * covers every enabled link.
 *
 * The seed semantics: a link change powers up or down what it connects to
 * an open video node (v4l2_pipeline_link_notify). Under the "streaming"
 * and "autosuspend" power policies, links do not power anything. While no
 * video node is open, no use count can change: the power's graph walks
 * are skipped, which keeps the links of a 4096-entity graph cheap to make
 * at bind.
 *
 * Return: 0, -EINVAL for a loop, -ENOMEM, or the errno of a failed
 * power-up.
 */
int isp_link_notify(struct media_link *link, u32 flags,
		    unsigned int notification)
{
	struct isp_device *isp = container_of(link->graph_obj.mdev,
					      struct isp_device, mdev);
	int ret;

	if (notification == MEDIA_DEV_NOTIFY_PRE_LINK_CH &&
	    (flags & MEDIA_LNK_FL_ENABLED) &&
	    (link->flags & MEDIA_LNK_FL_LINK_TYPE) == MEDIA_LNK_FL_DATA_LINK &&
	    !isp_entity_checks_loops(link->sink->entity)) {
		ret = isp_link_order(isp, link->source->entity,
				     link->sink->entity);
		if (ret)
			return ret;
	}
	if (n900_power_policy_streaming() || !atomic_read(&isp->open_nodes))
		return 0;
	return v4l2_pipeline_link_notify(link, flags, notification);
}

#if ISP_MEDIA_RELEASE
/*
 * The media node's last user is gone: media_device_unregister() has run,
 * its last file handle is closed and no ioctl runs on it any more. An ioctl
 * that slept across the unbind ran on the media device embedded here, so the
 * node held a reference to the ISP until now.
 */
static void isp_media_release(struct media_device *mdev)
{
	struct isp_device *isp = container_of(mdev, struct isp_device, mdev);

	v4l2_device_put(&isp->v4l2_dev);
}
#endif

static const struct media_device_ops isp_media_ops = {
	.link_notify = isp_link_notify,
#if ISP_MEDIA_RELEASE
	.release = isp_media_release,
#endif
};

/*
 * The last reference to the ISP's v4l2_device is gone: every video node has
 * been released, including those a process kept open across an unbind.
 * Only then can the video nodes, the media device and the ISP be freed.
 */
static void isp_release(struct v4l2_device *v4l2_dev)
{
	struct isp_device *isp = container_of(v4l2_dev, struct isp_device,
					      v4l2_dev);
	unsigned int i;

	for (i = 0; i < isp->num_videos; i++)
		isp_video_cleanup(&isp->videos[i]);
	kfree(isp->videos);
	kfree(isp->ranks);
	n900_power_events_forget(&isp->mdev);
	media_device_cleanup(&isp->mdev);
	mutex_destroy(&isp->state_lock);
	mutex_destroy(&isp->pm_lock);
	mutex_destroy(&isp->stream_lock);
	kfree(isp);
}

/*
 * Unbinding the ISP, with any node open or streaming. In this order:
 *  - every subdevice unbinds (the streams through it stop, its links are
 *    disabled, which powers it down, and it is unregistered);
 *  - the video nodes are unregistered, which stops the streams left (a
 *    node with no enabled link streams on its own), while the media
 *    device still holds their pipelines' graph mutex;
 *  - the media device is unregistered, under pm_lock, so that an open
 *    node's close knows it has nothing to power down any more.
 * The memory goes with the last reference to the v4l2_device (an open
 * node, the media node's last user, or a block not yet released):
 * isp_release(). A probe that fails after its notifier completed undoes
 * the same.
 */
static void isp_teardown(struct isp_device *isp)
{
	v4l2_async_nf_unregister(&isp->notifier);
	v4l2_async_nf_cleanup(&isp->notifier);
	isp_debugfs_cleanup(isp);
	isp_remove_videos(isp);
	mutex_lock(&isp->pm_lock);
	if (isp->registered)
		media_device_unregister(&isp->mdev);
	isp->unregistered = true;
	mutex_unlock(&isp->pm_lock);
	v4l2_device_unregister(&isp->v4l2_dev);
	v4l2_device_put(&isp->v4l2_dev);
}

static int isp_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct isp_device *isp;
	const char *model;
	int ret;

	WARN(inject_warn, "%s: warning injected on request (inject_warn=1)\n",
	     dev_name(dev));

	/* not devm: it lives until isp_release() */
	isp = kzalloc(sizeof(*isp), GFP_KERNEL);
	if (!isp)
		return -ENOMEM;
	isp->dev = dev;
	platform_set_drvdata(pdev, isp);
	mutex_init(&isp->stream_lock);
	mutex_init(&isp->pm_lock);
	mutex_init(&isp->state_lock);

	/*
	 * The blocks are children of the ISP: with runtime PM enabled here
	 * too, the ISP is active whenever one of its blocks is.
	 */
	ret = devm_pm_runtime_enable(dev);
	if (ret) {
		dev_err_probe(dev, ret, "%pOF: cannot enable runtime PM\n",
			      dev->of_node);
		goto err_free;
	}
	ret = isp_clk_init(isp);
	if (ret)
		goto err_free;

	if (device_property_read_string(dev, "label", &model))
		model = ISP_MODEL;
	isp->mdev.dev = dev;
	isp->mdev.ops = &isp_media_ops;
	/* not dev->driver's: an ioctl may run on the node after the unbind */
	strscpy(isp->mdev.driver_name, ISP_DRIVER_NAME,
		sizeof(isp->mdev.driver_name));
	strscpy(isp->mdev.model, model, sizeof(isp->mdev.model));
	snprintf(isp->mdev.bus_info, sizeof(isp->mdev.bus_info), "platform:%s",
		 dev_name(dev));
	isp->mdev.hw_revision = 0x15;	/* OMAP3430 ES1.5-ish ISP_REVISION */
	media_device_init(&isp->mdev);

	isp->v4l2_dev.mdev = &isp->mdev;
	ret = v4l2_device_register(dev, &isp->v4l2_dev);
	if (ret) {
		dev_err_probe(dev, ret, "%pOF: cannot register v4l2 device\n",
			      dev->of_node);
		media_device_cleanup(&isp->mdev);
		goto err_free;
	}
	/* from here on, the last v4l2_device_put() frees the ISP */
	isp->v4l2_dev.release = isp_release;

	ret = isp_create_videos(isp);
	if (ret) {
		dev_err_probe(dev, ret, "%pOF: cannot create video nodes\n",
			      dev->of_node);
		goto err_v4l2;
	}

	v4l2_async_nf_init(&isp->notifier, &isp->v4l2_dev);
	isp->notifier.ops = &isp_async_ops;
	ret = isp_collect_graph(isp);
	if (ret)
		goto err_notifier;
	ret = v4l2_async_nf_register(&isp->notifier);
	if (ret) {
		dev_err_probe(dev, ret, "%pOF: cannot register notifier\n",
			      dev->of_node);
		goto err_notifier;
	}

	ret = devm_of_platform_populate(dev);
	if (ret) {
		dev_err_probe(dev, ret, "%pOF: cannot populate ISP blocks\n",
			      dev->of_node);
		/*
		 * An ISP without blocks has completed its notifier already:
		 * its media device is registered. Undo it all as an unbind.
		 */
		isp_teardown(isp);
		return ret;
	}
	return 0;

err_notifier:
	v4l2_async_nf_cleanup(&isp->notifier);
	isp_remove_videos(isp);
err_v4l2:
	v4l2_device_unregister(&isp->v4l2_dev);
	v4l2_device_put(&isp->v4l2_dev);
	return ret;

err_free:
	mutex_destroy(&isp->state_lock);
	mutex_destroy(&isp->pm_lock);
	mutex_destroy(&isp->stream_lock);
	kfree(isp);
	return ret;
}

static void isp_remove(struct platform_device *pdev)
{
	isp_teardown(platform_get_drvdata(pdev));
}

/*
 * System sleep, as the OMAP3 ISP driver stops its pipelines in prepare:
 * the frame threads park before any device suspends (userspace is frozen
 * and probing blocked by then) and go on after every device has resumed.
 */
static void isp_park_streams(struct device *dev, bool park)
{
	struct isp_device *isp = dev_get_drvdata(dev);
	unsigned int i;

	mutex_lock(&isp->stream_lock);
	for (i = 0; i < isp->num_videos; i++)
		isp_video_park(&isp->videos[i], park);
	mutex_unlock(&isp->stream_lock);
}

static int isp_pm_prepare(struct device *dev)
{
	isp_park_streams(dev, true);
	return 0;
}

static void isp_pm_complete(struct device *dev)
{
	isp_park_streams(dev, false);
}

/* the ISP itself has no power sequence: its clocks are its blocks' */
static const struct dev_pm_ops isp_pm_ops = {
	.prepare = pm_sleep_ptr(isp_pm_prepare),
	.complete = pm_sleep_ptr(isp_pm_complete),
	SYSTEM_SLEEP_PM_OPS(pm_runtime_force_suspend, pm_runtime_force_resume)
};

static const struct of_device_id isp_of_match[] = {
	{ .compatible = "n900emu,omap3-isp" },
	{ }
};
MODULE_DEVICE_TABLE(of, isp_of_match);

static struct platform_driver isp_driver = {
	.probe = isp_probe,
	.remove = isp_remove,
	.driver = {
		.name = ISP_DRIVER_NAME,
		.of_match_table = isp_of_match,
		.pm = pm_ptr(&isp_pm_ops),
	},
};

/**
 * isp_of_block() - the ISP an ISP block device belongs to
 * @dev: the device of an ISP block, during its probe
 *
 * Return: the ISP, bound to this driver, whose child @dev is; NULL when
 * the block's node is not a child of an ISP node (a malformed tree).
 */
struct isp_device *isp_of_block(struct device *dev)
{
	struct device *parent = dev->parent;

	if (!parent || parent->driver != &isp_driver.driver)
		return NULL;
	return dev_get_drvdata(parent);
}

static struct platform_driver * const isp_drivers[] = {
	&isp_block_driver,
	&isp_driver,
};

static int __init isp_init(void)
{
	int ret;

	ret = isp_frame_init();
	if (ret)
		return ret;
	isp_debugfs_root_init();
	ret = platform_register_drivers(isp_drivers, ARRAY_SIZE(isp_drivers));
	if (ret) {
		isp_debugfs_root_cleanup();
		isp_frame_exit();
	}
	return ret;
}
module_init(isp_init);

static void __exit isp_exit(void)
{
	platform_unregister_drivers(isp_drivers, ARRAY_SIZE(isp_drivers));
	isp_debugfs_root_cleanup();
	isp_frame_exit();
}
module_exit(isp_exit);

MODULE_DESCRIPTION("Emulated TI OMAP3 ISP with the Nokia N900 camera topology");
MODULE_LICENSE("GPL");
