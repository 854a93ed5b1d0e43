/* SPDX-License-Identifier: GPL-2.0 */
/*
 * n900_power_trace.h - trace events of entity power (n900-power.ko)
 *
 * One event per step of a power sequence, the same ones the event log in
 * debugfs records: "power-on", "supply-on", "clock-on", "reset-released",
 * "powered", and "power-off", "reset-asserted", "clock-off", "supply-off",
 * "unpowered". Record them with tracefs:
 *   echo 1 > /sys/kernel/tracing/events/n900_power/enable
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM n900_power

#if !defined(N900_POWER_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define N900_POWER_TRACE_H

#include <linux/tracepoint.h>

TRACE_EVENT(n900_power,
	    TP_PROTO(const char *entity, const char *event, const char *detail),
	    TP_ARGS(entity, event, detail),
	    TP_STRUCT__entry(__string(entity, entity)
			     __string(event, event)
			     __string(detail, detail)),
	    TP_fast_assign(__assign_str(entity);
			   __assign_str(event);
			   __assign_str(detail);),
	    TP_printk("%s: %s %s", __get_str(entity), __get_str(event),
		      __get_str(detail))
);

#endif /* N900_POWER_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE n900_power_trace
#include <trace/define_trace.h>
