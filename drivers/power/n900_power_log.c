// SPDX-License-Identifier: GPL-2.0
/*
 * n900_power_log.c - the power event log of the N900 camera devices: a
 * ring of the last events (debugfs "power-events" of the ISP), and the
 * n900_power trace event
 */

#include <linux/device.h>
#include <linux/export.h>
#include <linux/math64.h>
#include <linux/seq_file.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <media/media-device.h>

#include "n900_power.h"
#include "n900_power_priv.h"

#define CREATE_TRACE_POINTS
#include "n900_power_trace.h"

#define N900_POWER_LOG_SIZE	2048

/**
 * struct n900_power_event - one entry of the event log
 * @ts_ns: ktime_get_ns() when it happened
 * @mdev: media device of the entity (compared, never dereferenced; cleared
 *	by n900_power_events_forget() before the media device is freed, so
 *	that a media device allocated at the same address later does not
 *	show these events as its own)
 * @entity: entity name
 * @event: what happened
 * @detail: supply name, clock rate or delay
 */
struct n900_power_event {
	u64 ts_ns;
	const struct media_device *mdev;
	char entity[32];
	char event[16];
	char detail[24];
};

static struct n900_power_event log_buf[N900_POWER_LOG_SIZE];
static unsigned int log_first;
static unsigned int log_count;
static unsigned long log_dropped;
static DEFINE_SPINLOCK(log_lock);

/* the entity's name, or the device's once the entity may be gone */
const char *n900_power_name(const struct n900_power *pw)
{
	return pw->entity && pw->entity->name ? pw->entity->name :
						 dev_name(pw->dev);
}

void n900_power_log_event(struct n900_power *pw, const char *event,
			  const char *fmt, ...)
{
	struct n900_power_event *e;
	char detail[24];
	unsigned long flags;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	trace_n900_power(n900_power_name(pw), event, detail);

	spin_lock_irqsave(&log_lock, flags);
	if (log_count == N900_POWER_LOG_SIZE) {
		log_first = (log_first + 1) % N900_POWER_LOG_SIZE;
		log_count--;
		log_dropped++;
	}
	e = &log_buf[(log_first + log_count++) % N900_POWER_LOG_SIZE];
	e->ts_ns = ktime_get_ns();
	e->mdev = pw->entity ? pw->entity->graph_obj.mdev : NULL;
	strscpy(e->entity, n900_power_name(pw), sizeof(e->entity));
	strscpy(e->event, event, sizeof(e->event));
	strscpy(e->detail, detail, sizeof(e->detail));
	spin_unlock_irqrestore(&log_lock, flags);
}

/**
 * n900_power_events_show() - print the event log of one media device
 * @m: the seq_file to print to
 * @mdev: the media device whose entities' events are printed
 *
 * One event per line, oldest first: time in microseconds (CLOCK_MONOTONIC),
 * entity, event and detail, separated by tabs.
 */
void n900_power_events_show(struct seq_file *m, const struct media_device *mdev)
{
	const struct n900_power_event *e;
	unsigned long flags;
	unsigned int i;

	spin_lock_irqsave(&log_lock, flags);
	if (log_dropped)
		seq_printf(m, "# %lu older events dropped\n", log_dropped);
	for (i = 0; i < log_count; i++) {
		e = &log_buf[(log_first + i) % N900_POWER_LOG_SIZE];
		if (e->mdev != mdev)
			continue;
		seq_printf(m, "%llu\t%s\t%s\t%s\n", div_u64(e->ts_ns, 1000),
			   e->entity, e->event, e->detail);
	}
	spin_unlock_irqrestore(&log_lock, flags);
}
EXPORT_SYMBOL_GPL(n900_power_events_show);

/**
 * n900_power_events_clear() - empty the event log
 */
void n900_power_events_clear(void)
{
	unsigned long flags;

	spin_lock_irqsave(&log_lock, flags);
	log_first = 0;
	log_count = 0;
	log_dropped = 0;
	spin_unlock_irqrestore(&log_lock, flags);
}
EXPORT_SYMBOL_GPL(n900_power_events_clear);

/**
 * n900_power_events_forget() - disown the events of a media device
 * @mdev: the media device, about to be freed
 *
 * The log tells media devices apart by their address, which a media device
 * allocated later may have again. Called by the owner of @mdev once its
 * entities are unregistered (they log their events with no media device
 * from then on) and before it frees @mdev: its events stay in the log for
 * the trace, and show under no media device any more.
 */
void n900_power_events_forget(const struct media_device *mdev)
{
	unsigned long flags;
	unsigned int i;

	spin_lock_irqsave(&log_lock, flags);
	for (i = 0; i < log_count; i++) {
		struct n900_power_event *e =
			&log_buf[(log_first + i) % N900_POWER_LOG_SIZE];

		if (e->mdev == mdev)
			e->mdev = NULL;
	}
	spin_unlock_irqrestore(&log_lock, flags);
}
EXPORT_SYMBOL_GPL(n900_power_events_forget);

