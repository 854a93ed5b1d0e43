#!/bin/sh
# autosuspend-stress.sh SECONDS SEED: lifetime-stress (devices unbound and
# bound while processes use their nodes) under the "autosuspend" power
# policy with a 20 ms delay, so that power-downs due from the PM workqueue
# meet unbinds at every moment. Its KTAP document is lifetime-stress's;
# the default policy is back afterwards.
# shellcheck source=rootfs/overlay/etc/n900/functions
. /etc/n900/functions
# shellcheck source=tests/guest/lib/ktap.sh
. /usr/lib/n900/tests/lib/ktap.sh
if n900_power_reload policy=autosuspend autosuspend_delay_ms=20; then
	/usr/lib/n900/tests/lifetime-stress "$@"
else
	ktap_plan 1
	ktap_result 0 autosuspend_policy_loaded "cannot reload the drivers with policy=autosuspend"
fi
n900_power_reload
