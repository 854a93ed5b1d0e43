#!/bin/sh
# stream-nomem-streaming.sh [MEDIA]: stream-nomem under the "streaming"
# power policy, where each subdevice takes its power in s_stream(): a
# STREAMON refused for want of memory, and every STREAMOFF, must give back
# what the started subdevices took. Its KTAP document is stream-nomem's,
# and so is its exit status; the default policy is back afterwards (the
# suites after it in the shard need it: a failure to restore it is said).
# shellcheck source=rootfs/overlay/etc/n900/functions
. /etc/n900/functions
# shellcheck source=tests/guest/lib/ktap.sh
. /usr/lib/n900/tests/lib/ktap.sh
if n900_power_reload policy=streaming; then
	/usr/lib/n900/tests/stream-nomem "$@"
	rc=$?
else
	ktap_plan 1
	ktap_result 0 streaming_policy_loaded "cannot reload the drivers with policy=streaming"
	rc=1
fi
n900_power_reload || echo "stream-nomem-streaming.sh: the default power policy is not restored" >&2
exit $rc
