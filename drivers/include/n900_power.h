/* SPDX-License-Identifier: GPL-2.0 */
/*
 * n900_power.h - entity power for the N900 camera devices (n900-power.ko)
 *
 * Every device of the camera (ISP block, sensor, switch, lens, flash) has
 * its own struct device, and its power goes through runtime PM on it. The
 * runtime PM callbacks run the sequence the device tree describes:
 *
 *   power on:  each "*-supply" in property order (regulator-fixed waits
 *              its startup-delay-us), then the first of "clocks" (at
 *              "clock-frequency" when given), then "reset-gpios" released,
 *              then "n900emu,power-on-delay-us"
 *   power off: the reverse, "reset-gpios" asserted first, then
 *              "n900emu,power-off-delay-us" after the last supply
 *
 * Who takes runtime PM depends on the policy (module parameter "policy"):
 *   "pipeline"  the seed semantics: the media controller powers what an
 *               open video node reaches over enabled links
 *               (v4l2_pipeline_pm_get/put, v4l2_pipeline_link_notify), and
 *               the subdevices' s_power takes runtime PM
 *   "streaming" runtime PM is taken in s_stream only, while a pipeline
 *               streams
 *   "autosuspend" as "streaming", but a device powers down only
 *               "autosuspend_delay_ms" (module parameter, default 1000)
 *               after its last user, as real sensor drivers do: a stream
 *               restarted within the delay pays no power-up
 *
 * System sleep (suspend to idle) powers every powered device down through
 * its sequence and, at resume, back up those that a user still holds (a
 * device powered only for its autosuspend delay stays down).
 *
 * Every transition and every step is recorded in an ordered, timestamped
 * event log and as an n900_power trace event; per device the library
 * counts transitions, time powered and energy ("n900emu,active-power-mw").
 */
#ifndef N900_POWER_H
#define N900_POWER_H

#include <linux/device.h>
#include <linux/pm.h>
#include <linux/seq_file.h>
#include <media/media-entity.h>
#include <media/v4l2-subdev.h>

/**
 * struct n900_power_stats - a device's power record
 * @powered: powered now
 * @transitions: power-ups plus power-downs so far
 * @powered_ns: time spent powered, the current period included
 * @active_mw: active power from the device tree, 0 when not given
 * @energy_uj: @powered_ns x @active_mw, in microjoules
 */
struct n900_power_stats {
	bool powered;
	unsigned int transitions;
	u64 powered_ns;
	u32 active_mw;
	u64 energy_uj;
};

extern const struct dev_pm_ops n900_power_pm_ops;

int n900_power_init(struct device *dev, struct media_entity *entity);
bool n900_power_policy_streaming(void);
const char *n900_power_policy(void);
int n900_power_subdev_s_power(struct v4l2_subdev *sd, int on);
int n900_power_subdev_s_stream(struct v4l2_subdev *sd, int enable);
int n900_power_subdev_open(struct v4l2_subdev *sd, struct v4l2_subdev_fh *fh);
int n900_power_subdev_close(struct v4l2_subdev *sd, struct v4l2_subdev_fh *fh);
void n900_power_settle(struct device *dev);
void n900_power_unregister(struct device *dev);
int n900_power_get_stats(struct device *dev, struct n900_power_stats *st);
void n900_power_events_show(struct seq_file *m,
			    const struct media_device *mdev);
void n900_power_events_clear(void);
void n900_power_events_forget(const struct media_device *mdev);

#endif /* N900_POWER_H */
