#!/bin/sh
# System sleep (issue 21): suspend to idle ("echo freeze >
# /sys/power/state"), woken by the alarm of QEMU's PL031 RTC, with the
# camera in use, as one KTAP document:
#  - with a video node open (the raw chain powered by the default
#    "pipeline" policy);
#  - with the main pipeline streaming, under the "pipeline" policy and
#    under the "streaming" policy (power taken in s_stream): a capture
#    runs, the guest sleeps after its fifth frame, and the capture is
#    stopped once five frames have come after resume;
#  - under the "autosuspend" policy after a capture, its devices powered
#    only for the delay: they power down and stay down.
# Each time, from the power event log: every powered device powers down
# before any powers up again, each through its power-off sequence (the
# reverse of its power-on steps: reset, clock, supplies), the devices in
# the reverse of the order they power up at resume; the same devices are
# powered after resume as before; no frame is stamped while they are down,
# and a stream goes on after resume with no gap in its sequence numbers.
# shellcheck source=rootfs/overlay/etc/n900/functions
. /etc/n900/functions
# shellcheck source=tests/guest/lib/ktap.sh
. /usr/lib/n900/tests/lib/ktap.sh
# shellcheck source=tests/guest/lib/capture.sh
. /usr/lib/n900/tests/lib/capture.sh
T=/usr/lib/n900/tests
RTC=/sys/class/rtc/rtc0
DBG=/sys/kernel/debug/n900-isp/media0
LOG=/tmp/suspend-capture.log
EV=/tmp/suspend-events.tsv

# the names of the powered subdevices, sorted, comma separated
powered_set() {
	for s in /sys/class/video4linux/v4l-subdev*; do
		[ "$(cat "$s/device/power/runtime_status")" = active ] && cat "$s/name"
	done | sort | tr '\n' ','
}

# sleep_to_idle: suspend to idle, woken 2 s later by the RTC alarm; the
# power events of the sleep in $EV. Prints why it failed, if it did.
sleep_to_idle() {
	if [ ! -w $RTC/wakealarm ] || ! grep -qw freeze /sys/power/state; then
		echo "no RTC alarm or no suspend to idle: $(cat /sys/power/state 2>&1)"
		return 1
	fi
	echo 0 >$RTC/wakealarm
	echo +2 >$RTC/wakealarm
	echo >$DBG/power-events
	if ! echo freeze >/sys/power/state; then
		echo "echo freeze > /sys/power/state failed"
		return 1
	fi
	grep -v '^#' $DBG/power-events >$EV || true
}

# check_sleep BEFORE AFTER: the checks on $EV, BEFORE and AFTER the powered
# sets before and after the sleep; prints what is wrong, nothing when all
# is right
check_sleep() {
	awk -F'\t' -v before="$1" -v after="$2" '
		function rev(s) { return s == "clock-on" ? "clock-off" : s == "reset-released" ? "reset-asserted" : s ~ /^supply-on/ ? "supply-off" substr(s, 10) : "?" s }
		$3 == "unpowered" { off[++noff] = $2; if (up) bad = bad "; " $2 " powers down after a power-up" }
		$3 == "power-on" { up = 1 }
		$3 == "powered" { on[++non] = $2 }
		$3 ~ /^(supply|clock|reset)/ {
			step = $3 ($3 ~ /^supply/ ? " " $4 : "")
			if (up) onsteps[$2] = step "," onsteps[$2]
			else offsteps[$2] = offsteps[$2] step ","
		}
		$3 ~ /failed/ { bad = bad "; " $2 " " $3 " " $4 }
		END {
			n = split(before, b, ",") - 1
			if (n < 1) bad = bad "; nothing powered before the sleep"
			if (noff != n) bad = bad "; " noff " devices powered down, " n " were powered"
			if (non != noff) bad = bad "; " non " powered up at resume, " noff " down"
			for (i = 1; i <= noff; i++) {
				if (index(before, off[i] ",") == 0) bad = bad "; " off[i] " powered down, was not powered"
				if (on[noff + 1 - i] != off[i]) bad = bad "; down #" i " " off[i] ", up #" (noff + 1 - i) " " on[noff + 1 - i]
				m = split(onsteps[off[i]], s, ",")
				want = ""
				for (j = 1; j < m; j++) want = want rev(s[j]) ","
				if (offsteps[off[i]] != want) bad = bad "; " off[i] " powers down by " offsteps[off[i]] " not " want
			}
			if (after != before) bad = bad "; powered after: " after
			if (bad != "") print substr(bad, 3)
			order = ""
			for (i = 1; i <= noff; i++) order = order (i > 1 ? " > " : "") off[i]
			print "down: " order > "/tmp/suspend-order"
		}' $EV
}

# late: the frames of $LOG stamped after the last power-up of $EV (resume)
late() {
	awk -v t="$(awk -F'\t' '$3 == "powered" { t = $1 } END { print t + 0 }' $EV)" \
		'/^frame/ && $NF > t { n++ } END { print n + 0 }' $LOG
}

# stream_through_sleep VIDEO: capture from VIDEO, the sleep after its
# fifth frame, until five frames came after resume; prints what is wrong
stream_through_sleep() {
	"$T/capture" "$1" 1000000 /dev/null >$LOG 2>&1 &
	pid=$!
	wait_frames $LOG 5 $pid || :
	before=$(powered_set)
	n0=$(grep -c '^frame' $LOG)
	if ! why=$(sleep_to_idle); then
		kill $pid
		wait $pid 2>/dev/null
		echo "$why"
		return
	fi
	after=$(powered_set)
	i=0
	while [ "$(late)" -lt 5 ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	alive=0
	kill $pid 2>/dev/null && alive=1
	wait $pid 2>/dev/null
	n1=$(grep -c '^frame' $LOG)
	[ $alive = 1 ] || echo "the capture ended: $(tail -n 1 $LOG)"
	grep '^capture:' $LOG
	[ "$(late)" -ge 5 ] || echo "$(late) frames after resume (of $n1; $n0 before the sleep)"
	# no frame between the first power-down and the last power-up
	during=$(awk -v a="$(awk -F'\t' '$3 == "unpowered" { print $1; exit }' $EV)" \
		-v b="$(awk -F'\t' '$3 == "powered" { t = $1 } END { print t + 0 }' $EV)" \
		'/^frame/ && $NF > a + 0 && $NF < b + 0 { n++ } END { print n + 0 }' $LOG)
	[ "$during" = 0 ] || echo "$during frames stamped while the devices were down"
	check_sleep "$before" "$after"
	echo "# $n0 frames before the sleep, $n1 when stopped, $(late) after resume; powered: $before"
}

ktap_plan 4

# 1. A video node open: the raw chain powered (pipeline policy)
media-ctl -r
media-ctl -l '"et8ek8 3-003e":0 -> "video-bus-switch":0 [1], "video-bus-switch":2 -> "OMAP3 ISP CCP2":0 [1], "OMAP3 ISP CCP2":1 -> "OMAP3 ISP CCDC":0 [1]'
media-ctl -l '"OMAP3 ISP CCDC":2 -> "OMAP3 ISP CCDC output":0 [1]'
exec 3<"$(media-ctl -e 'OMAP3 ISP CCDC output')"
before=$(powered_set)
if bad=$(sleep_to_idle); then
	bad=$(check_sleep "$before" "$(powered_set)")
fi
exec 3<&-
ok=0; [ -n "$bad" ] || ok=1
ktap_result $ok node_open "${bad:-}" "powered: $before" "$(cat /tmp/suspend-order 2>/dev/null)"

# 2. The main pipeline streaming, pipeline policy
rm -f /tmp/suspend-order
dev=$(/usr/lib/n900/main-pipeline.sh 648x492 640x480 2>/dev/null | tail -n 1)
out=$(stream_through_sleep "$dev")
bad=$(echo "$out" | grep -v '^#')
ok=0; [ -n "$bad" ] || ok=1
ktap_result $ok streaming_pipeline_policy "$bad" "$(echo "$out" | grep '^#' | cut -c3-)" \
	"$(cat /tmp/suspend-order 2>/dev/null)"

# 3. The same under the streaming policy: power taken in s_stream
rm -f /tmp/suspend-order
if n900_power_reload policy=streaming; then
	dev=$(/usr/lib/n900/main-pipeline.sh 648x492 640x480 2>/dev/null | tail -n 1)
	out=$(stream_through_sleep "$dev")
	bad=$(echo "$out" | grep -v '^#')
else
	bad="cannot reload the drivers with policy=streaming"
fi
ok=0; [ -n "$bad" ] || ok=1
ktap_result $ok streaming_streaming_policy "$bad" "$(echo "$out" | grep '^#' | cut -c3-)" \
	"$(cat /tmp/suspend-order 2>/dev/null)"

# 4. The autosuspend policy (10 s): a capture ends, its devices wait for
# their power-down; the sleep powers them down, and they stay down
if n900_power_reload policy=autosuspend autosuspend_delay_ms=10000; then
	dev=$(/usr/lib/n900/main-pipeline.sh 648x492 640x480 2>/dev/null | tail -n 1)
	"$T/capture" "$dev" 3 /dev/null >$LOG 2>&1
	before=$(powered_set)
	if bad=$(sleep_to_idle); then
		after=$(powered_set)
		n=$(echo "$before" | tr ',' '\n' | grep -c .)
		down=$(grep -c '	unpowered	' $EV)
		up=$(grep -c '	powered	' $EV)
		bad=
		[ "$n" -ge 1 ] || bad="nothing powered after the capture"
		[ "$down" = "$n" ] || bad="${bad:+$bad; }$down devices powered down, $n were powered"
		[ "$up" = 0 ] || bad="${bad:+$bad; }$up devices powered up at resume"
		[ -z "$after" ] || bad="${bad:+$bad; }powered after: $after"
	fi
else
	bad="cannot reload the drivers with policy=autosuspend"
fi
ok=0; [ -n "$bad" ] || ok=1
ktap_result $ok autosuspend_delay_ends "$bad" "powered by the delay: $before"
n900_power_reload
media-ctl -r
