#!/bin/sh
# Faults, as one KTAP document:
#  - the ISP platform device unbound and bound 100 times while /dev/media0
#    and a video node are held open (stream-stop.sh unbinds it mid-stream);
#  - every module of the camera removed and loaded again 50 times;
#  - power-up failures injected (debugfs n900-power/fail) at the main
#    sensor's supply, at its clock, and at the CCDC's clock: opening the
#    pipeline's video node fails with EIO, and afterwards nothing is left
#    powered (runtime PM, the regulator, the clocks, the reset line); with
#    the fault cleared, the same pipeline streams;
#  - kmemleak has nothing to report after all that.
# Splats fail the run (tests/host/harness.sh); kmemleak is checked at its end.
# shellcheck source=rootfs/overlay/etc/n900/functions
. /etc/n900/functions
# shellcheck source=tests/guest/lib/ktap.sh
. /usr/lib/n900/tests/lib/ktap.sh
T=/usr/lib/n900/tests
FAIL=/sys/kernel/debug/n900-power/fail
S='et8ek8 3-003e'

# platform device of the node whose compatible is $1
pdev() {
	f=$(grep -l "$1" /sys/bus/platform/devices/*/of_node/compatible | head -n 1)
	f=${f%/of_node/compatible}
	echo "${f##*/}"
}
# the ISP's media node, once registered (up to 20 s)
isp_media() {
	i=0
	while [ $i -lt 200 ]; do
		for m in "/sys/bus/platform/devices/$ISP"/media*; do
			[ -e "$m" ] && { echo "/dev/${m##*/}"; return 0; }
		done
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}
# "ENTITIES PADS LINKS INTERFACES" of media device $1 (MEDIA_IOC_G_TOPOLOGY;
# mc-count fails when the records written are not as many as counted)
graph() { "$T/mc-count" "$1" 2>&1; }

ISP=$(pdev n900emu,omap3-isp)
DRV=/sys/bus/platform/drivers/n900-isp
want=$(graph /dev/media0)
ktap_plan 6

# 1. unbind/bind x100 with the media node and a video node held open
video=$(media-ctl -d /dev/media0 -e 'OMAP3 ISP CCDC output')
exec 3</dev/media0 4<"$video"
ok=1 bad="" t0=$(cut -d' ' -f1 /proc/uptime)
for i in $(seq 100); do
	echo "$ISP" >$DRV/unbind || { ok=0 bad="unbind $i failed"; break; }
	echo "$ISP" >$DRV/bind || { ok=0 bad="bind $i failed"; break; }
	m=$(isp_media) || { ok=0 bad="no media device after bind $i"; break; }
	got=$(graph "$m")
	[ "$got" = "$want" ] || { ok=0 bad="$m: graph \"$got\" after bind $i, not \"$want\""; break; }
done
t1=$(cut -d' ' -f1 /proc/uptime)
exec 3<&- 4<&-
# with nothing held, the media node is media0 again after one more cycle
echo "$ISP" >$DRV/unbind && echo "$ISP" >$DRV/bind
m=$(isp_media)
[ "$m" = /dev/media0 ] || { ok=0 bad="${bad:+$bad; }the media node is $m after the fds closed"; }
ktap_result $ok isp_rebind_100_nodes_open "$i cycles in $(echo "$t0 $t1" | awk '{ printf "%.1f", $2 - $1 }') s, the same graph each time (entities pads links interfaces: $want)" "$bad"

# 2. rmmod/modprobe x50
ok=1 bad="" t0=$(cut -d' ' -f1 /proc/uptime)
for i in $(seq 50); do
	n900_unload_drivers || { ok=0 bad="unload $i failed"; break; }
	left=$(grep -c '^n900' /proc/modules)
	[ "$left" = 0 ] || { ok=0 bad="$left n900 modules still loaded after unload $i"; break; }
	n900_load_drivers || { ok=0 bad="load $i failed"; break; }
	got=$(graph /dev/media0)
	[ "$got" = "$want" ] || { ok=0 bad="media0: graph \"$got\" after load $i, not \"$want\""; break; }
done
t1=$(cut -d' ' -f1 /proc/uptime)
ktap_result $ok modules_reload_50 "$i cycles in $(echo "$t0 $t1" | awk '{ printf "%.1f", $2 - $1 }') s, the same graph each time ($want)" "$bad"

# 3-5. power-up faults: FAULT ENTITY NAME
ISP=$(pdev n900emu,omap3-isp)
fault() {
	ok=1
	dev=$(/usr/lib/n900/main-pipeline.sh 648x492 320x240 2>/dev/null | tail -n 1)
	echo "$1 $2" >$FAIL
	"$T/capture" "$dev" 3 /dev/null >/tmp/fault.log 2>&1 && ok=0
	err=$(tail -n 1 /tmp/fault.log)
	case $err in *"Input/output error"*) ;; *) ok=0 ;; esac
	hits=$(sed -n 's/^hits //p' $FAIL)
	[ "$hits" -ge 1 ] || ok=0
	left=$(n900_power_left)
	[ -z "$left" ] || ok=0
	echo none >$FAIL
	"$T/capture" "$dev" 3 /dev/null >/tmp/fault-again.log 2>&1 || ok=0
	again=$(grep -c '^frame' /tmp/fault-again.log)
	left2=$(n900_power_left)
	[ -z "$left2" ] || ok=0
	ktap_result $ok "$3" "$1 fault at \"$2\": ${err#capture: }, $hits power-up(s) failed" \
		"left on after the failure: ${left:-nothing}; after a clean capture: ${left2:-nothing}" \
		"fault cleared: $again frames"
}
fault supply "$S" sensor_supply_fault_undone
fault clock "$S" sensor_clock_fault_undone
fault clock "OMAP3 ISP CCDC" ccdc_clock_fault_undone

# kmemleak has nothing to report after all that
ktap_no_leak
