#!/bin/sh
# stream-nomem-streaming.sh [MEDIA]: stream-nomem under the "streaming"
# power policy, where each subdevice takes its power in s_stream(): a
# STREAMON refused for want of memory, and every STREAMOFF, must give back
# what the started subdevices took. Its KTAP document is stream-nomem's;
# the default policy is back afterwards.
# shellcheck source=rootfs/overlay/etc/n900/functions
. /etc/n900/functions
# shellcheck source=tests/guest/lib/ktap.sh
. /usr/lib/n900/tests/lib/ktap.sh
if n900_unload_drivers && modprobe n900-power policy=streaming &&
	n900_load_drivers; then
	/usr/lib/n900/tests/stream-nomem "$@"
else
	ktap_plan 1
	ktap_result 0 streaming_policy_loaded "cannot reload the drivers with policy=streaming"
fi
n900_unload_drivers && modprobe n900-power && n900_load_drivers
