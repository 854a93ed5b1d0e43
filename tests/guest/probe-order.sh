#!/bin/sh
# Probe-order independence and sensor unbind/rebind, as one KTAP document.
#
# v4l2-async must give the same graph whatever order the modules load in:
# reload them in several orders and check the whole seed ABI against the
# device tree again (mc-seed-abi, run as a sub-test). Then unbind the main
# sensor while /dev/media0 is held open: its entity, and its lens and
# flash (bound through its sub-notifier), go away and come back on rebind.
# shellcheck source=rootfs/overlay/etc/n900/functions
. /etc/n900/functions
# shellcheck source=tests/guest/lib/ktap.sh
. /usr/lib/n900/tests/lib/ktap.sh
T=/usr/lib/n900/tests
EXP=/etc/n900/topology.expected

orders="n900-adp1653 n900-ad5820 n900-sensor n900-video-bus-switch n900-isp
n900-sensor n900-isp n900-ad5820 n900-video-bus-switch n900-adp1653"

entities() { media-ctl -d /dev/media0 -p 2>/dev/null | grep -c '^- entity'; }
expected=$(grep -c '^entity' "$EXP")

ktap_plan 4
i=0
while read -r order; do
	i=$((i + 1))
	ok=1
	n900_unload_drivers || ok=0
	for m in $order; do
		modprobe "$m" || ok=0
	done
	n900_wait_media 20 || ok=0
	ktap_diag "load order: $order"
	if [ $ok = 1 ] && "$T/mc-seed-abi" /dev/media0 "$EXP" >/tmp/abi.txt 2>&1; then
		sed 's/^/# /' /tmp/abi.txt | grep -E '^# (ok|not ok|# )' | tail -n 3
		ktap_result 1 "probe_order.$i"
	else
		sed 's/^/# /' /tmp/abi.txt 2>/dev/null
		ktap_result 0 "probe_order.$i"
	fi
done <<EOF
$orders
EOF

# Unbind and rebind the main camera with /dev/media0 open.
compat=$(grep -l 'n900emu,et8ek8' /sys/bus/platform/devices/*/of_node/compatible | head -n 1)
dev=${compat%/of_node/compatible}
dev=${dev##*/}
label=$(tr -d '\0' </sys/bus/platform/devices/"$dev"/of_node/label)
# its lens and flash bind through the sensor's sub-notifier: they go too
anc=$(grep -c "^ancillary	$label	" "$EXP")
exec 3</dev/media0
before=$(entities)
echo "$dev" >/sys/bus/platform/drivers/n900-sensor/unbind
during=$(entities)
echo "$dev" >/sys/bus/platform/drivers/n900-sensor/bind
sleep 0.2
after=$(entities)
exec 3<&-
ok=0
[ "$before" = "$expected" ] && [ "$during" = $((expected - 1 - anc)) ] && ok=1
ktap_result $ok sensor_unbind_removes_entity \
	"$dev ($label, $anc ancillary): $before entities, $during unbound, $after rebound (device tree: $expected)"
if [ "$after" = "$expected" ] && "$T/mc-seed-abi" /dev/media0 "$EXP" >/tmp/abi.txt 2>&1; then
	ktap_result 1 sensor_rebind_restores_graph
else
	sed 's/^/# /' /tmp/abi.txt
	ktap_result 0 sensor_rebind_restores_graph
fi
