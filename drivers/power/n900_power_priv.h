/* SPDX-License-Identifier: GPL-2.0 */
/*
 * n900_power_priv.h - what the files of n900-power share: a device's power
 * record, the event log and fault injection
 */
#ifndef N900_POWER_PRIV_H
#define N900_POWER_PRIV_H

#include <linux/atomic.h>
#include <linux/compiler_attributes.h>
#include <linux/spinlock.h>
#include <linux/types.h>

struct clk;
struct device;
struct gpio_desc;
struct media_entity;
struct regulator_bulk_data;

/* the most a device may draw (the probe refuses more), in mW: 100 W */
#define N900_POWER_MAX_MW	100000U

/**
 * struct n900_power - one device's power resources and record
 * @dev: the device
 * @entity: its media entity
 * @supplies: regulators, in device tree property order
 * @num_supplies: number of entries in @supplies
 * @has_clk: the node names a clock
 * @clk: the clock while powered, else NULL. It is taken at power-on only:
 *	a clock held from probe would pin the provider's module (the ISP),
 *	which itself holds the consumer's module through v4l2, so that
 *	neither could ever be unloaded.
 * @clk_rate: rate to set before enabling the clock, 0 to leave it
 * @reset: its reset GPIO, or NULL
 * @on_delay_us: wait after reset release
 * @off_delay_us: wait after reset assertion
 * @active_mw: power drawn while powered, at most %N900_POWER_MAX_MW
 * @autosuspend: runtime PM autosuspend in use (the "autosuspend" policy,
 *	until the device's subdevice unregisters)
 * @refs: runtime PM references taken by our users (s_power, s_stream, open)
 * @lock: protects the fields below
 * @powered: powered now
 * @transitions: power-ups plus power-downs
 * @on_since: ktime_get_ns() of the last power-up
 * @powered_ns: time powered before @on_since
 */
struct n900_power {
	struct device *dev;
	struct media_entity *entity;
	struct regulator_bulk_data *supplies;
	unsigned int num_supplies;
	bool has_clk;
	struct clk *clk;
	u32 clk_rate;
	struct gpio_desc *reset;
	u32 on_delay_us;
	u32 off_delay_us;
	u32 active_mw;
	bool autosuspend;
	atomic_t refs;

	spinlock_t lock;	/* protects the record below */
	bool powered;
	unsigned int transitions;
	u64 on_since;
	u64 powered_ns;
};

/* n900_power_log.c */
const char *n900_power_name(const struct n900_power *pw);
__printf(3, 4) void n900_power_log_event(struct n900_power *pw,
					 const char *event,
					 const char *fmt, ...);

/* n900_power_fault.c */
enum n900_fault { N900_FAULT_NONE, N900_FAULT_SUPPLY, N900_FAULT_CLOCK };

int n900_power_fault(struct n900_power *pw, enum n900_fault at);
void n900_power_fault_init(void);
void n900_power_fault_exit(void);

#endif /* N900_POWER_PRIV_H */
