// SPDX-License-Identifier: GPL-2.0
/*
 * n900_power.c - entity power for the N900 camera devices
 *
 * The sequence, the policies and the records are described in
 * n900_power.h; this file powers a device up and down. The event log is
 * in n900_power_log.c, fault injection in n900_power_fault.c, and the
 * subdevice lifetime helpers in n900_subdev.c. This module is a library:
 * the ISP blocks, the sensors, the switch, the lens and the flash call
 * n900_power_init() at probe and use n900_power_pm_ops as their runtime PM
 * callbacks.
 */

#include <linux/clk.h>
#include <linux/delay.h>
#include <linux/gpio/consumer.h>
#include <linux/limits.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/of.h>
#include <linux/pm_runtime.h>
#include <linux/property.h>
#include <linux/regulator/consumer.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/spinlock.h>
#include <media/media-device.h>

#include "n900_power.h"
#include "n900_power_priv.h"

static char *policy = "pipeline";
module_param(policy, charp, 0444);
MODULE_PARM_DESC(policy,
		 "Who powers the entities: \"pipeline\" (default: open video nodes and enabled links, the seed semantics), \"streaming\" (only while streaming) or \"autosuspend\" (while streaming and autosuspend_delay_ms after)");

static unsigned int autosuspend_delay_ms = 1000;
module_param(autosuspend_delay_ms, uint, 0444);
MODULE_PARM_DESC(autosuspend_delay_ms,
		 "Under the \"autosuspend\" policy, how long a device stays powered after its last user (default 1000)");

static bool policy_autosuspend(void)
{
	return !strcmp(policy, "autosuspend");
}

/* -----------------------------------------------------------------------------
 * The sequence
 */

static void record(struct n900_power *pw, bool on)
{
	u64 now = ktime_get_ns();
	unsigned long flags;

	spin_lock_irqsave(&pw->lock, flags);
	if (on)
		pw->on_since = now;
	else
		pw->powered_ns += now - pw->on_since;
	pw->powered = on;
	pw->transitions++;
	spin_unlock_irqrestore(&pw->lock, flags);
}

static void power_off(struct n900_power *pw)
{
	unsigned int i;

	n900_power_log_event(pw, "power-off", "-");
	if (pw->reset) {
		gpiod_set_value_cansleep(pw->reset, 1);
		n900_power_log_event(pw, "reset-asserted", "-");
	}
	if (pw->off_delay_us)
		fsleep(pw->off_delay_us);
	if (pw->clk) {
		clk_disable_unprepare(pw->clk);
		clk_put(pw->clk);
		pw->clk = NULL;
		n900_power_log_event(pw, "clock-off", "-");
	}
	for (i = pw->num_supplies; i--;) {
		regulator_disable(pw->supplies[i].consumer);
		n900_power_log_event(pw, "supply-off", "%s", pw->supplies[i].supply);
	}
	record(pw, false);
	n900_power_log_event(pw, "unpowered", "%u us", pw->off_delay_us);
}

static int clock_on(struct n900_power *pw)
{
	struct clk *clk;
	int ret;

	clk = clk_get(pw->dev, NULL);
	if (IS_ERR(clk)) {
		dev_err(pw->dev, "%pOF: cannot get the clock (%ld)\n",
			pw->dev->of_node, PTR_ERR(clk));
		return PTR_ERR(clk);
	}
	if (pw->clk_rate) {
		ret = clk_set_rate(clk, pw->clk_rate);
		if (ret) {
			dev_err(pw->dev, "%pOF: cannot set the clock to %u Hz (%d)\n",
				pw->dev->of_node, pw->clk_rate, ret);
			goto err_put;
		}
	}
	ret = clk_prepare_enable(clk);
	if (ret) {
		dev_err(pw->dev, "%pOF: cannot enable the clock (%d)\n",
			pw->dev->of_node, ret);
		goto err_put;
	}
	pw->clk = clk;
	return 0;

err_put:
	clk_put(clk);
	return ret;
}

static int power_on(struct n900_power *pw)
{
	unsigned int i;
	int ret;

	n900_power_log_event(pw, "power-on", "-");
	for (i = 0; i < pw->num_supplies; i++) {
		ret = i + 1 == pw->num_supplies ?
		      n900_power_fault(pw, N900_FAULT_SUPPLY) : 0;
		if (!ret)
			ret = regulator_enable(pw->supplies[i].consumer);
		if (ret) {
			dev_err(pw->dev, "%pOF: cannot enable supply %s (%d)\n",
				pw->dev->of_node, pw->supplies[i].supply, ret);
			goto err_supplies;
		}
		n900_power_log_event(pw, "supply-on", "%s", pw->supplies[i].supply);
	}
	if (pw->has_clk) {
		ret = n900_power_fault(pw, N900_FAULT_CLOCK);
		if (!ret)
			ret = clock_on(pw);
		if (ret)
			goto err_supplies;
		n900_power_log_event(pw, "clock-on", "%lu Hz", clk_get_rate(pw->clk));
	}
	if (pw->reset) {
		gpiod_set_value_cansleep(pw->reset, 0);
		n900_power_log_event(pw, "reset-released", "-");
	}
	if (pw->on_delay_us)
		fsleep(pw->on_delay_us);
	record(pw, true);
	n900_power_log_event(pw, "powered", "%u us", pw->on_delay_us);
	return 0;

err_supplies:
	while (i--) {
		regulator_disable(pw->supplies[i].consumer);
		n900_power_log_event(pw, "supply-off", "%s", pw->supplies[i].supply);
	}
	n900_power_log_event(pw, "power-on-failed", "%d", ret);
	return ret;
}

/* -----------------------------------------------------------------------------
 * Runtime PM and subdevice operations
 */

static void n900_power_release(struct device *dev, void *res)
{
}

static struct n900_power *n900_power_of(struct device *dev)
{
	return devres_find(dev, n900_power_release, NULL, NULL);
}

/*
 * Only our users power the device up (@refs counts them): the driver core
 * also resumes a device around unbinding it, and that must not run the
 * sequence (the clock provider may already be gone).
 */
static int n900_power_runtime_resume(struct device *dev)
{
	struct n900_power *pw = n900_power_of(dev);

	if (!pw || !atomic_read(&pw->refs))
		return 0;
	return power_on(pw);
}

static int n900_power_runtime_suspend(struct device *dev)
{
	struct n900_power *pw = n900_power_of(dev);

	if (pw && pw->powered)
		power_off(pw);
	return 0;
}

/*
 * System sleep: the PM core suspends the devices in the reverse of its
 * device list (consumers before their suppliers: fw_devlink links each
 * device to the providers of its "clocks", "*-supply" and "reset-gpios",
 * and the blocks are children of the ISP), every powered one through its
 * power-off sequence, and resumes them in the list's order, powering up
 * again those that our users still hold. Processes are frozen first and
 * the ISP parks its frame threads in its prepare, so no stream renders
 * while powered down, and no user takes or gives back power in between.
 */
const struct dev_pm_ops n900_power_pm_ops = {
	SYSTEM_SLEEP_PM_OPS(pm_runtime_force_suspend, pm_runtime_force_resume)
	RUNTIME_PM_OPS(n900_power_runtime_suspend, n900_power_runtime_resume,
		       NULL)
};
EXPORT_SYMBOL_GPL(n900_power_pm_ops);

/*
 * A subdevice's node may be closed (the lens's and the flash's give their
 * power back then) while its driver unbinds, which frees the power record
 * (devres): the record is looked up and used, and torn down, under this
 * lock.
 */
static DEFINE_MUTEX(use_lock);

/*
 * The power record of a subdevice's device, while the driver that made
 * the subdevice is bound: NULL after an unbind, and NULL for a stale
 * subdevice of an earlier binding (a node kept open across an unbind and
 * a new bind must not give back the new binding's references).
 */
static struct n900_power *n900_power_of_sd(struct v4l2_subdev *sd)
{
	struct n900_power *pw = n900_power_of(sd->dev);

	lockdep_assert_held(&use_lock);
	return pw && pw->entity == &sd->entity ? pw : NULL;
}

/* Take or give back one runtime PM reference, synchronously. */
static int n900_power_use(struct v4l2_subdev *sd, bool on)
{
	struct device *dev = sd->dev;
	struct n900_power *pw;
	int ret = 0;

	mutex_lock(&use_lock);
	pw = n900_power_of_sd(sd);
	if (pw && on) {
		atomic_inc(&pw->refs);
		ret = pm_runtime_resume_and_get(dev);
		if (ret) {
			atomic_dec(&pw->refs);
			/* the sequence undid itself; clear the runtime error */
			pm_runtime_set_suspended(dev);
		}
	} else if (pw && atomic_dec_if_positive(&pw->refs) >= 0) {
		if (pw->autosuspend) {
			pm_runtime_mark_last_busy(dev);
			pm_runtime_put_autosuspend(dev);
		} else {
			pm_runtime_put_sync(dev);
		}
	}
	mutex_unlock(&use_lock);
	return ret;
}

/**
 * n900_power_policy_streaming() - do the subdevices take their power in
 *	s_stream?
 *
 * Return: true under the "streaming" and "autosuspend" policies (entities
 * powered while they stream, and under "autosuspend" for a delay after),
 * false for the default pipeline (seed) semantics.
 */
bool n900_power_policy_streaming(void)
{
	return strcmp(policy, "pipeline");
}
EXPORT_SYMBOL_GPL(n900_power_policy_streaming);

/**
 * n900_power_policy() - the name of the power policy in force
 *
 * Return: "pipeline", "streaming" or "autosuspend".
 */
const char *n900_power_policy(void)
{
	return policy;
}
EXPORT_SYMBOL_GPL(n900_power_policy);

/**
 * n900_power_subdev_s_power() - the s_power core operation of every
 *	N900 camera subdevice
 * @sd: the subdevice
 * @on: power up (1) or down (0)
 *
 * v4l2_pipeline_pm_get/put() and v4l2_pipeline_link_notify() call it when
 * the subdevice's entity becomes reachable from an open video node, or
 * stops being reachable. Under the "pipeline" policy it takes or gives
 * back runtime PM; under "streaming" and "autosuspend" it does nothing.
 *
 * Return: 0, or the errno of a failed power-up.
 */
int n900_power_subdev_s_power(struct v4l2_subdev *sd, int on)
{
	if (n900_power_policy_streaming())
		return 0;
	return n900_power_use(sd, on);
}
EXPORT_SYMBOL_GPL(n900_power_subdev_s_power);

/**
 * n900_power_subdev_s_stream() - the power part of s_stream
 * @sd: the subdevice
 * @enable: streaming starts (1) or stops (0)
 *
 * Under the "streaming" and "autosuspend" policies, takes runtime PM for
 * as long as the subdevice streams (under "autosuspend" the device powers
 * down only autosuspend_delay_ms later); under "pipeline" it does nothing
 * (the entity is already powered).
 *
 * Return: 0, or the errno of a failed power-up.
 */
int n900_power_subdev_s_stream(struct v4l2_subdev *sd, int enable)
{
	if (!n900_power_policy_streaming())
		return 0;
	return n900_power_use(sd, enable);
}
EXPORT_SYMBOL_GPL(n900_power_subdev_s_stream);

/**
 * n900_power_subdev_open() - power a subdevice while its node is open
 * @sd: the subdevice
 * @fh: the file handle being opened
 *
 * For devices off the data path (lens, flash), which no pipeline powers.
 *
 * Return: 0, or the errno of a failed power-up.
 */
int n900_power_subdev_open(struct v4l2_subdev *sd, struct v4l2_subdev_fh *fh)
{
	return n900_power_use(sd, true);
}
EXPORT_SYMBOL_GPL(n900_power_subdev_open);

/**
 * n900_power_subdev_close() - undo n900_power_subdev_open()
 * @sd: the subdevice
 * @fh: the file handle being closed
 *
 * Return: 0.
 */
int n900_power_subdev_close(struct v4l2_subdev *sd, struct v4l2_subdev_fh *fh)
{
	n900_power_use(sd, false);
	return 0;
}
EXPORT_SYMBOL_GPL(n900_power_subdev_close);

/*
 * A device with no user that waits for its autosuspend powers down now:
 * the PM workqueue's pending or running power-down is cancelled or over
 * first, then a synchronous suspend runs (-EAGAIN, nothing done, while a
 * user holds the device).
 */
static void suspend_now(struct device *dev)
{
	pm_runtime_barrier(dev);
	pm_runtime_suspend(dev);
}

/**
 * n900_power_settle() - power down now what waits for its autosuspend
 * @dev: a subdevice's device, which its ISP unbinds from the graph
 *
 * Under the "autosuspend" policy a device may be powered with no user, its
 * power-down due later from the PM workqueue, when the provider of its
 * clock (the ISP) may be gone. The ISP calls this once the streams through
 * the subdevice have stopped and its links are disabled.
 */
void n900_power_settle(struct device *dev)
{
	struct n900_power *pw;

	mutex_lock(&use_lock);
	pw = n900_power_of(dev);
	if (pw && pw->autosuspend)
		suspend_now(dev);
	mutex_unlock(&use_lock);
}
EXPORT_SYMBOL_GPL(n900_power_settle);

/**
 * n900_power_unregister() - stop autosuspend before a subdevice goes
 * @dev: the subdevice's device, in its driver's remove()
 *
 * Under the "autosuspend" policy a device may be powered with no user,
 * its power-down due later from the PM workqueue; that must not run once
 * its entity, whose name the power records use, is freed. From here on
 * power is given back synchronously, and a device waiting for its
 * autosuspend powers down now.
 */
void n900_power_unregister(struct device *dev)
{
	struct n900_power *pw;

	mutex_lock(&use_lock);
	pw = n900_power_of(dev);
	if (pw && pw->autosuspend) {
		pw->autosuspend = false;
		pm_runtime_dont_use_autosuspend(dev);
		/* dont_use_autosuspend() does not suspend past a pending request */
		suspend_now(dev);
	}
	mutex_unlock(&use_lock);
}
EXPORT_SYMBOL_GPL(n900_power_unregister);

/**
 * n900_power_get_stats() - read a device's power record
 * @dev: the device
 * @st: filled in
 *
 * Return: 0, or -ENODEV when @dev has no n900_power_init() record.
 */
int n900_power_get_stats(struct device *dev, struct n900_power_stats *st)
{
	struct n900_power *pw = n900_power_of(dev);
	unsigned long flags;

	if (!pw)
		return -ENODEV;
	spin_lock_irqsave(&pw->lock, flags);
	st->powered = pw->powered;
	st->transitions = pw->transitions;
	st->powered_ns = pw->powered_ns;
	if (pw->powered)
		st->powered_ns += ktime_get_ns() - pw->on_since;
	spin_unlock_irqrestore(&pw->lock, flags);
	st->active_mw = pw->active_mw;
	/* ns x mW = 1e-12 J, the product wider than 64 bits */
	st->energy_uj = mul_u64_u32_div(st->powered_ns, pw->active_mw, 1000000);
	return 0;
}
EXPORT_SYMBOL_GPL(n900_power_get_stats);

/* -----------------------------------------------------------------------------
 * Initialization
 */

/* The length of <name> when @prop is "<name>-supply", else 0. */
static size_t supply_name_len(const struct property *prop)
{
	size_t len = strlen(prop->name);

	return len > 7 && !strcmp(prop->name + len - 7, "-supply") ? len - 7 : 0;
}

/* Every "<name>-supply" property of the node, in property order. */
static int get_supplies(struct n900_power *pw)
{
	struct device_node *np = pw->dev->of_node, *supply;
	struct property *prop;
	unsigned int n = 0;
	size_t len;

	for_each_property_of_node(np, prop)
		n += !!supply_name_len(prop);
	if (!n)
		return 0;

	pw->supplies = devm_kcalloc(pw->dev, n, sizeof(*pw->supplies),
				    GFP_KERNEL);
	if (!pw->supplies)
		return -ENOMEM;
	for_each_property_of_node(np, prop) {
		len = supply_name_len(prop);
		if (!len)
			continue;
		/* the regulator core would hand out a dummy for a bad phandle */
		supply = of_parse_phandle(np, prop->name, 0);
		of_node_put(supply);
		if (!supply) {
			dev_err(pw->dev, "%pOF: %s does not name a regulator node\n",
				np, prop->name);
			return -EINVAL;
		}
		pw->supplies[pw->num_supplies].supply =
			devm_kasprintf(pw->dev, GFP_KERNEL, "%.*s", (int)len,
				       prop->name);
		if (!pw->supplies[pw->num_supplies++].supply)
			return -ENOMEM;
	}
	return devm_regulator_bulk_get(pw->dev, pw->num_supplies, pw->supplies);
}

/* Unbinding a powered device: power it down, drop our references. */
static void n900_power_teardown(void *data)
{
	struct n900_power *pw = data;

	mutex_lock(&use_lock);
	/*
	 * The driver's remove() has run: its entity may be freed already (it
	 * lives until the last close of its node), so the records name the
	 * device from now on, and no subdevice finds this record any more.
	 */
	pw->entity = NULL;
	/* devm_pm_runtime_enable()'s action has disabled runtime PM */
	if (pw->powered) {
		power_off(pw);
		pm_runtime_set_suspended(pw->dev);
	}
	while (atomic_dec_if_positive(&pw->refs) >= 0)
		pm_runtime_put_noidle(pw->dev);
	mutex_unlock(&use_lock);
}

/**
 * n900_power_init() - set up a device's power from its device tree node
 * @dev: the device, during probe
 * @entity: its media entity (the name of its records)
 *
 * Gets the supplies, clock and reset GPIO (with devm), reads the delays
 * and the active power, and enables runtime PM with the device suspended
 * and its reset asserted. The device's driver must use n900_power_pm_ops.
 *
 * Return: 0 or a negative errno (-EPROBE_DEFER while a supply or the
 * clock provider is missing), after a dev_err() naming the node.
 */
int n900_power_init(struct device *dev, struct media_entity *entity)
{
	struct n900_power *pw;
	struct clk *clk;
	int ret;

	pw = devres_alloc(n900_power_release, sizeof(*pw), GFP_KERNEL);
	if (!pw)
		return -ENOMEM;
	devres_add(dev, pw);
	pw->dev = dev;
	pw->entity = entity;
	spin_lock_init(&pw->lock);

	ret = get_supplies(pw);
	if (ret)
		return dev_err_probe(dev, ret, "%pOF: cannot get the supplies\n",
				     dev->of_node);
	/* checked now (probe defers until the provider is there), taken later */
	clk = clk_get_optional(dev, NULL);
	if (IS_ERR(clk))
		return dev_err_probe(dev, PTR_ERR(clk),
				     "%pOF: cannot get the clock\n", dev->of_node);
	pw->has_clk = clk;
	clk_put(clk);
	device_property_read_u32(dev, "clock-frequency", &pw->clk_rate);
	pw->reset = devm_gpiod_get_optional(dev, "reset", GPIOD_OUT_HIGH);
	if (IS_ERR(pw->reset))
		return dev_err_probe(dev, PTR_ERR(pw->reset),
				     "%pOF: cannot get the reset GPIO\n",
				     dev->of_node);
	device_property_read_u32(dev, "n900emu,power-on-delay-us",
				 &pw->on_delay_us);
	device_property_read_u32(dev, "n900emu,power-off-delay-us",
				 &pw->off_delay_us);
	device_property_read_u32(dev, "n900emu,active-power-mw", &pw->active_mw);
	if (pw->on_delay_us > USEC_PER_SEC || pw->off_delay_us > USEC_PER_SEC)
		return dev_err_probe(dev, -EINVAL,
				     "%pOF: power delays above 1 s are refused\n",
				     dev->of_node);
	if (pw->active_mw > N900_POWER_MAX_MW)
		return dev_err_probe(dev, -EINVAL,
				     "%pOF: an active power above %u W is refused\n",
				     dev->of_node, N900_POWER_MAX_MW / 1000);

	/* registered first, so it runs after runtime PM is disabled */
	ret = devm_add_action_or_reset(dev, n900_power_teardown, pw);
	if (ret)
		return ret;
	if (policy_autosuspend()) {
		pm_runtime_set_autosuspend_delay(dev, autosuspend_delay_ms);
		pm_runtime_use_autosuspend(dev);
		pw->autosuspend = true;
	}
	/* its action also stops autosuspend */
	ret = devm_pm_runtime_enable(dev);
	if (ret)
		return dev_err_probe(dev, ret, "%pOF: cannot enable runtime PM\n",
				     dev->of_node);
	return 0;
}
EXPORT_SYMBOL_GPL(n900_power_init);

static int __init n900_power_module_init(void)
{
	if (strcmp(policy, "pipeline") && strcmp(policy, "streaming") &&
	    !policy_autosuspend()) {
		pr_err("n900-power: policy=%s: must be \"pipeline\", \"streaming\" or \"autosuspend\"\n",
		       policy);
		return -EINVAL;
	}
	if (autosuspend_delay_ms > INT_MAX) {
		pr_err("n900-power: autosuspend_delay_ms=%u is out of range\n",
		       autosuspend_delay_ms);
		return -EINVAL;
	}
	if (policy_autosuspend())
		pr_info("n900-power: autosuspend power policy, %u ms\n",
			autosuspend_delay_ms);
	else
		pr_info("n900-power: %s power policy\n", policy);
	n900_power_fault_init();
	return 0;
}
module_init(n900_power_module_init);

static void __exit n900_power_module_exit(void)
{
	n900_power_fault_exit();
}
module_exit(n900_power_module_exit);

MODULE_DESCRIPTION("Entity power (runtime PM, supplies, clocks, resets) of the emulated N900 camera");
MODULE_LICENSE("GPL");
