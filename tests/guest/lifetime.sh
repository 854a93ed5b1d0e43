#!/bin/sh
# Memory safety when devices come and go (issue 17), as one KTAP document:
# the reproductions of its items 1-5, each a test that decides its own
# verdict from what it sees (a kernel splat logged since it started, a
# wrong errno, a wrong power state, a process that does not end), besides
# tests/host/harness.sh failing the run on any splat.
#  - subdev_fd_outlives_unbind.*: a subdevice node held open (fd-hold, with
#    control events subscribed for the lens and the flash) while its device
#    is unbound; an ioctl on the stale fd fails with ENODEV, the close is
#    clean, and the entity comes back on rebind (item 1);
#  - subdev_node_back_while_old_open: the lens's node held open while its
#    sensor is rebound twice: the lens gets a new node each time and every
#    registration is released (its module's count comes back);
#  - power_across_sensor_rebind, power_across_isp_unbind: the resizer
#    output held open across a sensor rebind or an ISP unbind: once it is
#    closed nothing is left powered, and every bound N900 device is
#    runtime-suspended (item 5);
#  - switch_one_input_after_rebind: the front camera selected, the main
#    sensor rebound: the bus switch still has one enabled input (item 5);
#  - stream_before_camera_binds: a node streams while the camera modules
#    load and the ISP's notifier completes (item 4);
#  - isp_unbind_standalone_stream: the ISP unbound while a node with no
#    enabled link streams (item 2);
#  - media_ioctl_across_isp_unbind: an ioctl on the media node sleeps in
#    the copy of its argument while the ISP unbinds, then goes on, with no
#    other node open (patch 0013: the media node keeps the media device);
#  - media_fd_across_vimc_unbind: vimc's media node held open while vimc
#    unbinds (a driver without the release callback of patch 0013, whose
#    media device is freed at the unbind): the close is clean;
#  - stream_node_left_without_links: the CCDC unbound, its output node (no
#    link left) streams on its own (patch 0009);
#  - frame_sizes_checked: pad formats that do not match the real source: the
#    stream is refused or renders, and the guest still answers (item 3);
#  - frame_odd_width_checked: an odd width asked of every pad and node from
#    memory is rounded to the same even width everywhere (the frame code
#    works on pixel pairs), and the stream renders;
#  - module_pinned_while_node_open: a device module cannot be removed
#    while its subdevice node is open (the node's release runs its code);
#  - kmemleak has nothing to report after all that.
# The tests that oops on the faulty code run last (the frame size one wedges
# the guest), and every sysfs write runs in a child process with a time
# limit, so that an oops there kills the child, not this script.
# shellcheck source=rootfs/overlay/etc/n900/functions
. /etc/n900/functions
# shellcheck source=tests/guest/lib/ktap.sh
. /usr/lib/n900/tests/lib/ktap.sh
# shellcheck source=tests/guest/lib/capture.sh
. /usr/lib/n900/tests/lib/capture.sh
T=/usr/lib/n900/tests
D=/sys/bus/platform/drivers
S='et8ek8 3-003e'
FIFO=/tmp/lifetime.fifo
OUT=/tmp/lifetime.out
LOG=/tmp/lifetime.log

# platform device of the node whose compatible is $1
pdev() {
	f=$(grep -l "$1" /sys/bus/platform/devices/*/of_node/compatible | head -n 1)
	f=${f%/of_node/compatible}
	echo "${f##*/}"
}
# "ENTITIES PADS LINKS INTERFACES" of /dev/media0 (MEDIA_IOC_G_TOPOLOGY;
# mc-count fails when the records written are not as many as counted)
graph() { "$T/mc-count" /dev/media0 2>&1; }
# wait_graph TENTHS: wait until /dev/media0 has the whole graph again
wait_graph() {
	i=0
	while [ "$(graph)" != "$WANT" ]; do
		[ $i -lt "$1" ] || return 1
		sleep 0.1
		i=$((i + 1))
	done
}
# wait_entities TENTHS: the same, its interfaces aside (the node of an
# unregistered subdevice keeps its interface until its last close)
wait_entities() {
	i=0
	while [ "$(graph | cut -d' ' -f1-3)" != "$(echo "$WANT" | cut -d' ' -f1-3)" ]; do
		[ $i -lt "$1" ] || return 1
		sleep 0.1
		i=$((i + 1))
	done
}
# gone PID TENTHS: wait until the background process PID has ended;
# status 1 when it still runs
gone() {
	i=0
	while kill -0 "$1" 2>/dev/null; do
		[ $i -lt "$2" ] || return 1
		sleep 0.1
		i=$((i + 1))
	done
}
# bounded TENTHS CMD...: run CMD (output in $LOG), killed after TENTHS
# tenths of a second; its status, or 124 when it had to be killed
bounded() {
	t=$1
	shift
	"$@" >$LOG 2>&1 &
	bpid=$!
	if ! gone $bpid "$t"; then
		kill -9 $bpid 2>/dev/null
		return 124
	fi
	wait $bpid
}
# sysfs_write VALUE FILE: write VALUE to FILE from a child process (an
# oops in the write kills the child, not this script), for at most 10 s;
# the child does not keep the nodes this script holds open (fds 3 and 5)
sysfs_write() {
	(exec 3<&- 5<&-; echo "$1" >"$2") 2>/dev/null &
	wpid=$!
	gone $wpid 100 || return 124
	wait $wpid
}
# hold_start ARG...: run fd-hold ARG... in the background ($pid), its stdin
# the FIFO that fd 5 holds open, its output in $OUT; status 1 when it has
# not printed "ready" within 10 s
hold_start() {
	rm -f $FIFO $OUT
	mkfifo $FIFO
	# read-write: this open does not wait for fd-hold to open its end
	exec 5<>$FIFO
	"$T/fd-hold" "$@" <$FIFO >$OUT 2>&1 &
	pid=$!
	i=0
	while ! grep -q '^ready' $OUT && kill -0 $pid 2>/dev/null && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	grep -q '^ready' $OUT
}
# hold_end: let fd-hold go on and wait for it (killed after 10 s); status 1
# when it did not end, or did not print "closed"
hold_end() {
	echo go >&5
	exec 5>&-
	if ! gone "$pid" 100; then
		kill -9 "$pid" 2>/dev/null
		return 1
	fi
	grep -q '^closed' $OUT
}
# no_splat: status 0 when the kernel logged no splat since n900_dmesg_mark;
# else print its first lines as diagnostics, status 1
no_splat() {
	splat=$(n900_splats_since) && return 0
	echo "$splat" | sed 's/^/# splat: /'
	return 1
}
# pm_states: "DEVICE STATUS, " for every N900 platform device, its
# power/runtime_status or "unbound"; status 1 when a bound one is not
# runtime-suspended
pm_states() {
	st_bad=0
	for f in /sys/bus/platform/devices/*/of_node/compatible; do
		grep -q n900emu "$f" 2>/dev/null || continue
		p=${f%/of_node/compatible}
		if [ -e "$p/driver" ]; then
			st=$(cat "$p/power/runtime_status" 2>/dev/null)
			[ "$st" = suspended ] || st_bad=1
		else
			st=unbound
		fi
		printf '%s %s, ' "${p##*/}" "$st"
	done
	return $st_bad
}
# switch_inputs: the enabled links into the bus switch's sink pads
switch_inputs() {
	media-ctl -p 2>/dev/null | awk '
		/^- entity / { sw = index($0, ": video-bus-switch (") > 0 }
		sw && /<-/ && /ENABLED/ {
			sub(/^[ \t]*<- /, "")
			sub(/ \[.*/, "")
			out = out (out == "" ? "" : ", ") $0
		}
		END { print out }'
}
# main_pipeline: configure the main pipeline (648x492 -> 320x240), print
# the resizer output's node
main_pipeline() {
	/usr/lib/n900/main-pipeline.sh 648x492 320x240 2>/dev/null | tail -n 1
}

# hold_across_unbind NAME COMPATIBLE DRIVER ENTITY [-e]: hold ENTITY's
# subdevice node open (fd-hold, with -e control events subscribed) and
# unbind its device; an ioctl on the stale fd must fail with ENODEV, the
# close must be clean, and after a rebind the whole graph is back, with
# nothing left powered
hold_across_unbind() {
	n900_dmesg_mark
	ok=1 bad="" ev="" during=""
	d=$(pdev "$2")
	node=$(media-ctl -e "$4")
	# shellcheck disable=SC2086 # $5 is the option -e, or nothing
	hold_start $5 "$node" || { ok=0 bad="fd-hold $node: $(tail -n 1 $OUT)"; }
	if [ -n "$5" ]; then
		ev=$(sed -n 's/^events //p' $OUT)
		[ "${ev:-0}" -ge 1 ] || { ok=0 bad="${bad:+$bad; }no control event subscribed on $node"; }
	fi
	if sysfs_write "$d" "$D/$3/unbind"; then
		# media-ctl -e prints "Entity ... not found" and exits 0
		case $(media-ctl -e "$4" 2>/dev/null) in /dev/*) during="still there" ;; esac
	else
		ok=0 bad="${bad:+$bad; }unbind of $d failed"
	fi
	closed=yes
	hold_end || { ok=0 closed=no bad="${bad:+$bad; }fd-hold did not end, or not closed: $(tail -n 1 $OUT)"; }
	res=$(sed -n 's/^ioctl: //p' $OUT)
	case $res in *"(errno 19)") ;; *) ok=0 ;; esac
	sysfs_write "$d" "$D/$3/bind" || { ok=0 bad="${bad:+$bad; }bind of $d failed"; }
	wait_graph 100 || { ok=0 bad="${bad:+$bad; }graph \"$(graph)\" after the rebind, not \"$WANT\""; }
	back=$(media-ctl -e "$4" 2>/dev/null)
	case $back in /dev/*) ;; *) back="" ok=0 ;; esac
	left=$(n900_power_left)
	[ -z "$left" ] || ok=0
	no_splat || ok=0
	rm -f $FIFO
	ktap_result $ok "subdev_fd_outlives_unbind.$1" \
		"$4 ($d, $3): $node held open${ev:+, $ev control events subscribed}; unbound${during:+ (the entity $during)}" \
		"ioctl on the stale fd: ${res:-none} (ENODEV expected); closed: $closed; the entity back at ${back:-nothing}; left powered: ${left:-nothing}" \
		"$bad"
}

# The tests, by name. "n900.lifetime=NAME,NAME" on the kernel command line
# (or the arguments of this script) runs only those, in this order: a
# reproduction that wedges a guest (on a faulty driver) can be run alone.
t_subdev_fd_outlives_unbind_ccdc() {
	hold_across_unbind ccdc n900emu,isp-ccdc n900-isp-block 'OMAP3 ISP CCDC'
}
t_subdev_fd_outlives_unbind_sensor() {
	hold_across_unbind sensor n900emu,et8ek8 n900-sensor "$S"
}
t_subdev_fd_outlives_unbind_lens() {
	hold_across_unbind lens n900emu,ad5820 n900-ad5820 'ad5820 3-000c' -e
}
t_subdev_fd_outlives_unbind_flash() {
	hold_across_unbind flash n900emu,adp1653 n900-adp1653 'adp1653 2-0030' -e
}
t_subdev_fd_outlives_unbind_switch() {
	hold_across_unbind switch n900emu,video-bus-switch n900-video-bus-switch video-bus-switch
}
t_subdev_node_back_while_old_open() {
	# the lens's node held open while its sensor (whose notifier binds
	# the lens) is unbound and bound twice: the lens must get a new node
	# each time, and every registration must be released (the module
	# count comes back, kmemleak finds nothing)
	n900_dmesg_mark
	ok=1 bad="" new="" ctrls=""
	d=$(pdev n900emu,et8ek8)
	node=$(media-ctl -e 'ad5820 3-000c')
	refs0=$(cat /sys/module/n900_ad5820/refcnt)
	hold_start "$node" none || { ok=0 bad="fd-hold $node: $(tail -n 1 $OUT)"; }
	for round in 1 2; do
		sysfs_write "$d" $D/n900-sensor/unbind || { ok=0 bad="${bad:+$bad; }unbind $round of $d failed"; }
		sysfs_write "$d" $D/n900-sensor/bind || { ok=0 bad="${bad:+$bad; }bind $round of $d failed"; }
		# the old node's interface stays in the graph until its close
		wait_entities 100 || { ok=0 bad="${bad:+$bad; }graph \"$(graph)\" after bind $round, not \"$WANT\" (interfaces aside)"; }
		new=$(media-ctl -e 'ad5820 3-000c' 2>/dev/null)
		if [ -c "$new" ] && v4l2-ctl -d "$new" --list-ctrls 2>/dev/null | grep -q focus_absolute; then
			ctrls="$ctrls $new"
		else
			ok=0 bad="${bad:+$bad; }no usable lens node after bind $round (\"$new\")"
		fi
	done
	hold_end || { ok=0 bad="${bad:+$bad; }fd-hold did not end, or not closed: $(tail -n 1 $OUT)"; }
	wait_graph 50 || { ok=0 bad="${bad:+$bad; }graph \"$(graph)\" after the close, not \"$WANT\""; }
	refs1=$(cat /sys/module/n900_ad5820/refcnt)
	[ "$refs1" = "$refs0" ] || ok=0
	no_splat || ok=0
	rm -f $FIFO
	ktap_result $ok subdev_node_back_while_old_open \
		"ad5820 3-000c: $node held open while $d was unbound and bound twice; the lens's node after each bind:${ctrls:- none}" \
		"n900_ad5820 module references: $refs0 before, $refs1 after the close" "$bad"
}
t_stream_node_left_without_links() {
	# the CCDC unbound: its output node has no link left, and streams on
	# its own (found by lifetime-stress: the pipeline walk read the
	# node's entity as a link)
	n900_dmesg_mark
	ok=1 bad=""
	media-ctl -r
	d=$(pdev n900emu,isp-ccdc)
	node=$(media-ctl -e 'OMAP3 ISP CCDC output')
	sysfs_write "$d" $D/n900-isp-block/unbind || { ok=0 bad="unbind of $d failed"; }
	bounded 150 "$T/capture" "$node" 3 /dev/null
	rc=$?
	got="$(grep -c '^frame' $LOG) frames ($(tail -n 1 $LOG))"
	[ $rc = 0 ] || { ok=0 bad="${bad:+$bad; }the capture failed ($rc)"; }
	sysfs_write "$d" $D/n900-isp-block/bind || { ok=0 bad="${bad:+$bad; }bind of $d failed"; }
	wait_graph 100 || { ok=0 bad="${bad:+$bad; }graph \"$(graph)\" after the rebind, not \"$WANT\""; }
	no_splat || ok=0
	ktap_result $ok stream_node_left_without_links \
		"$node with $d unbound (no link left): $got" "$bad"
}
t_power_across_sensor_rebind() {
	# item 5: pipeline power across a sensor rebind with the resizer output open
	n900_dmesg_mark
	ok=1 bad=""
	d=$(pdev n900emu,et8ek8)
	dev=$(main_pipeline)
	# a failed "exec" redirection would end this script
	[ -c "$dev" ] || { ok=0 bad="main-pipeline.sh: no node" dev=/dev/null; }
	exec 3<"$dev"
	open=$(n900_power_left)
	sysfs_write "$d" $D/n900-sensor/unbind || { ok=0 bad="unbind of $d failed"; }
	sysfs_write "$d" $D/n900-sensor/bind || { ok=0 bad="${bad:+$bad; }bind of $d failed"; }
	wait_graph 100 || { ok=0 bad="${bad:+$bad; }graph \"$(graph)\" after the rebind, not \"$WANT\""; }
	exec 3<&-
	left=$(n900_power_left)
	[ -z "$left" ] || ok=0
	states=$(pm_states) || ok=0
	no_splat || ok=0
	media-ctl -r
	ktap_result $ok power_across_sensor_rebind \
		"$dev held open (powered: ${open:-nothing}), $d unbound and bound, then closed" \
		"left powered: ${left:-nothing}" "runtime PM: $states" "$bad"
}
t_power_across_isp_unbind() {
	# item 5: pipeline power across an ISP unbind with the resizer output open
	n900_dmesg_mark
	ok=1 bad=""
	dev=$(main_pipeline)
	[ -c "$dev" ] || { ok=0 bad="main-pipeline.sh: no node" dev=/dev/null; }
	exec 3<"$dev"
	sysfs_write "$ISP" $D/n900-isp/unbind || { ok=0 bad="unbind of $ISP failed"; }
	exec 3<&-
	left=$(n900_power_left)
	[ -z "$left" ] || ok=0
	states=$(pm_states) || ok=0
	sysfs_write "$ISP" $D/n900-isp/bind || { ok=0 bad="${bad:+$bad; }bind of $ISP failed"; }
	wait_graph 200 || { ok=0 bad="${bad:+$bad; }graph \"$(graph)\" after the rebind, not \"$WANT\""; }
	no_splat || ok=0
	media-ctl -r
	ktap_result $ok power_across_isp_unbind \
		"$dev held open, $ISP unbound, then closed: left powered: ${left:-nothing}" \
		"runtime PM with the ISP unbound: $states" "$bad"
}
t_switch_one_input_after_rebind() {
	# item 5: links recreated at bind must not give the switch a second input
	n900_dmesg_mark
	ok=1 bad=""
	media-ctl -r
	media-ctl -l "\"$S\":0 -> \"video-bus-switch\":0 [0]"
	media-ctl -l '"vs6555 2-0010":0 -> "video-bus-switch":1 [1]'
	before=$(switch_inputs)
	d=$(pdev n900emu,et8ek8)
	sysfs_write "$d" $D/n900-sensor/unbind || { ok=0 bad="unbind of $d failed"; }
	sysfs_write "$d" $D/n900-sensor/bind || { ok=0 bad="${bad:+$bad; }bind of $d failed"; }
	wait_graph 100 || { ok=0 bad="${bad:+$bad; }graph \"$(graph)\" after the rebind, not \"$WANT\""; }
	after=$(switch_inputs)
	[ "$before" = '"vs6555 2-0010":0' ] || { ok=0 bad="${bad:+$bad; }the front camera could not be selected"; }
	[ "$after" = '"vs6555 2-0010":0' ] || ok=0
	no_splat || ok=0
	media-ctl -r
	ktap_result $ok switch_one_input_after_rebind \
		"enabled inputs of the switch: ${before:-none} before $d was rebound, ${after:-none} after (the front camera's only expected)" \
		"$bad"
}
t_stream_before_camera_binds() {
	# item 4: a node streams while the camera modules load
	n900_dmesg_mark
	ok=1 bad="" node="" n0=0 n1=0 alive=0
	n900_unload_drivers || { ok=0 bad="the modules could not be unloaded"; }
	if ! modprobe n900-power || ! modprobe n900-isp; then
		ok=0 bad="${bad:+$bad; }modprobe n900-power n900-isp failed"
	fi
	i=0
	while [ -z "$node" ] && [ $i -lt 100 ]; do
		for v in /sys/class/video4linux/video*; do
			[ "$(cat "$v/name" 2>/dev/null)" = 'OMAP3 ISP CSI2a output' ] && node=/dev/${v##*/}
		done
		[ -n "$node" ] || sleep 0.1
		i=$((i + 1))
	done
	if [ -n "$node" ]; then
		v4l2-ctl -d "$node" --set-fmt-video=width=320,height=240 >/dev/null 2>&1
		"$T/capture" "$node" 1000000 /dev/null >$LOG 2>&1 &
		pid=$!
		wait_frames $LOG 3 $pid || { ok=0 bad="${bad:+$bad; }$node did not stream: $(tail -n 1 $LOG)"; }
		n0=$(grep -c '^frame' $LOG)
		for m in n900-video-bus-switch n900-sensor n900-ad5820 n900-adp1653; do
			modprobe $m || { ok=0 bad="${bad:+$bad; }modprobe $m failed"; }
		done
		n900_wait_media 10 || { ok=0 bad="${bad:+$bad; }no /dev/media0 with every module loaded"; }
		sleep 2
		kill -0 $pid 2>/dev/null && alive=1
		n1=$(grep -c '^frame' $LOG)
		kill $pid 2>/dev/null
		if ! gone $pid 50; then
			kill -9 $pid 2>/dev/null
			ok=0 bad="${bad:+$bad; }the capture did not end"
		fi
		# the format of a streaming node must not change under it
		if grep -q '^capture: payload' $LOG; then
			ok=0 bad="${bad:+$bad; }the node's format changed while it streamed"
		fi
	else
		ok=0 bad="${bad:+$bad; }no 'OMAP3 ISP CSI2a output' node with n900-isp alone"
	fi
	n900_load_drivers || { ok=0 bad="${bad:+$bad; }n900_load_drivers failed"; }
	wait_graph 100 || { ok=0 bad="${bad:+$bad; }graph \"$(graph)\" with every module loaded, not \"$WANT\""; }
	no_splat || ok=0
	ktap_result $ok stream_before_camera_binds \
		"${node:-no node}: $n0 frames before the camera modules loaded, $n1 two seconds after /dev/media0 came; still streaming then: $alive ($(tail -n 1 $LOG 2>/dev/null))" \
		"$bad"
}
t_isp_unbind_standalone_stream() {
	# item 2: the ISP unbound while a node with no enabled link streams
	n900_dmesg_mark
	ok=1 bad="" ended=0
	media-ctl -r
	node=$(media-ctl -e 'OMAP3 ISP CSI2a output')
	"$T/capture" "$node" 1000000 /dev/null >$LOG 2>&1 &
	pid=$!
	wait_frames $LOG 3 $pid || { ok=0 bad="$node did not stream: $(tail -n 1 $LOG)"; }
	n=$(grep -c '^frame' $LOG)
	sysfs_write "$ISP" $D/n900-isp/unbind || { ok=0 bad="${bad:+$bad; }unbind of $ISP failed"; }
	if gone $pid 100; then
		ended=1
	else
		kill -9 $pid 2>/dev/null
		ok=0
	fi
	sysfs_write "$ISP" $D/n900-isp/bind || { ok=0 bad="${bad:+$bad; }bind of $ISP failed"; }
	wait_graph 200 || { ok=0 bad="${bad:+$bad; }graph \"$(graph)\" after the rebind, not \"$WANT\""; }
	no_splat || ok=0
	ktap_result $ok isp_unbind_standalone_stream \
		"$node streamed $n frames with no link enabled, $ISP unbound: the capture ended within 10 s: $ended ($(tail -n 1 $LOG))" \
		"$bad"
}
t_media_ioctl_across_isp_unbind() {
	# an ioctl on the media node sleeping in the copy of its argument
	# (fd-hold -u: userfaultfd holds the page) while the ISP unbinds, no
	# other node open: it goes on after the unbind, on the media device
	# that the node keeps until its last user is gone (patches/0013)
	n900_dmesg_mark
	ok=1 bad=""
	hold_start -u /dev/media0 device-info || { ok=0 bad="fd-hold -u /dev/media0: $(tail -n 1 $OUT)"; }
	sysfs_write "$ISP" $D/n900-isp/unbind || { ok=0 bad="${bad:+$bad; }unbind of $ISP failed"; }
	closed=yes
	hold_end || { ok=0 closed=no bad="${bad:+$bad; }fd-hold did not end, or not closed: $(tail -n 1 $OUT)"; }
	# begun before the unbind: it answers, or fails as on a gone node
	res=$(sed -n 's/^ioctl: //p' $OUT)
	case $res in OK | *"(errno 19)" | *"(errno 5)") ;; *) ok=0 ;; esac
	sysfs_write "$ISP" $D/n900-isp/bind || { ok=0 bad="${bad:+$bad; }bind of $ISP failed"; }
	wait_graph 200 || { ok=0 bad="${bad:+$bad; }graph \"$(graph)\" after the rebind, not \"$WANT\""; }
	no_splat || ok=0
	rm -f $FIFO
	ktap_result $ok media_ioctl_across_isp_unbind \
		"MEDIA_IOC_DEVICE_INFO on /dev/media0 held in the copy of its argument while $ISP unbound" \
		"the ioctl then: ${res:-none} (OK, ENODEV or EIO expected); closed: $closed" "$bad"
}
t_media_fd_across_vimc_unbind() {
	# a driver without the media device's release callback: vimc frees
	# its media device when it unbinds. Its media node held open across
	# the unbind: the ioctl on the stale fd fails with EIO (the node is
	# unregistered), and the close reads nothing of the freed media device
	# (patches/0013: media_device_unregister() clears the node's pointer
	# to it when the driver has no release callback; a read of it is a
	# KASAN use-after-free report on the debug kernel, a splat)
	n900_dmesg_mark
	ok=1 bad="" m=""
	bounded 100 modprobe vimc || { ok=0 bad="modprobe vimc: $(tail -n 1 $LOG)"; }
	i=0
	while [ -z "$m" ] && [ $i -lt 100 ]; do
		for d in /dev/media*; do
			media-ctl -d "$d" -p 2>/dev/null | grep -q '^driver *vimc$' && m=$d
		done
		[ -n "$m" ] || sleep 0.1
		i=$((i + 1))
	done
	[ -n "$m" ] || { ok=0 bad="${bad:+$bad; }vimc registered no media device"; }
	res="" closed=no
	if [ -n "$m" ]; then
		hold_start "$m" device-info || { ok=0 bad="${bad:+$bad; }fd-hold $m: $(tail -n 1 $OUT)"; }
		sysfs_write vimc.0 $D/vimc/unbind || { ok=0 bad="${bad:+$bad; }unbind of vimc.0 failed"; }
		closed=yes
		hold_end || { ok=0 closed=no bad="${bad:+$bad; }fd-hold did not end, or not closed: $(tail -n 1 $OUT)"; }
		res=$(sed -n 's/^ioctl: //p' $OUT)
		case $res in *"(errno 5)") ;; *) ok=0 ;; esac
		sysfs_write vimc.0 $D/vimc/bind || { ok=0 bad="${bad:+$bad; }bind of vimc.0 failed"; }
	fi
	bounded 100 rmmod vimc || { ok=0 bad="${bad:+$bad; }rmmod vimc: $(tail -n 1 $LOG)"; }
	no_splat || ok=0
	rm -f $FIFO
	ktap_result $ok media_fd_across_vimc_unbind \
		"vimc's ${m:-media node} held open while vimc.0 unbound" \
		"the ioctl then: ${res:-none} (EIO expected); closed: $closed" "$bad"
}
t_frame_odd_width_checked() {
	# item 3, odd width: from memory through CCP2 and the CCDC, 641x481
	n900_dmesg_mark
	ok=1 bad=""
	F=SGRBG10_1X10/641x481
	media-ctl -r
	err=$({
		media-ctl -l '"OMAP3 ISP CCP2 input":0 -> "OMAP3 ISP CCP2":0 [1]'
		media-ctl -l '"OMAP3 ISP CCP2":1 -> "OMAP3 ISP CCDC":0 [1]'
		media-ctl -l '"OMAP3 ISP CCDC":2 -> "OMAP3 ISP CCDC output":0 [1]'
		media-ctl -V "\"OMAP3 ISP CCP2\":0 [fmt:$F], \"OMAP3 ISP CCP2\":1 [fmt:$F], \"OMAP3 ISP CCDC\":0 [fmt:$F]"
		media-ctl -V "\"OMAP3 ISP CCDC\":2 [fmt:$F crop:(0,0)/641x481]"
	} 2>&1 | head -n 2 | tr '\n' ' ')
	in=$(media-ctl -e 'OMAP3 ISP CCP2 input')
	out=$(media-ctl -e 'OMAP3 ISP CCDC output')
	v4l2-ctl -d "$in" --set-fmt-video-out=width=641,height=481,pixelformat=BA10 >/dev/null 2>&1
	v4l2-ctl -d "$out" --set-fmt-video=width=641,height=481,pixelformat=BA10 >/dev/null 2>&1
	size=$(v4l2-ctl -d "$in" --get-fmt-video-out | sed -n 's/.*Size Image *: *//p')
	dd if=/dev/zero of=/tmp/lifetime-in.raw bs="${size:-1}" count=1 2>/dev/null
	# the even width (641 rounds to 642), on the pads and the nodes alike
	for e in "OMAP3 ISP CCP2\":0" "OMAP3 ISP CCDC\":0" "OMAP3 ISP CCDC\":2"; do
		media-ctl --get-v4l2 "\"$e" | grep -q 'fmt:SGRBG10_1X10/642x481' ||
			{ ok=0 bad="${bad:+$bad; }\"$e is $(media-ctl --get-v4l2 "\"$e" | grep -o 'fmt:[^ ]*'), not 642x481"; }
	done
	for n in "$in --get-fmt-video-out" "$out --get-fmt-video"; do
		# shellcheck disable=SC2086 # node and option
		v4l2-ctl -d $n | grep -q 'Width/Height *: *642/481' ||
			{ ok=0 bad="${bad:+$bad; }${n%% *} is not 642/481"; }
	done
	bounded 150 "$T/capture" "$out" 2 /dev/null "$in" /tmp/lifetime-in.raw
	rc=$?
	[ $rc != 124 ] || { ok=0 bad="${bad:+$bad; }the capture hung"; }
	[ "$(grep -c '^frame' $LOG)" = 2 ] || { ok=0 bad="${bad:+$bad; }the stream did not render its 2 frames (exit $rc)"; }
	got="$(grep -c '^frame' $LOG) frames ($(tail -n 1 $LOG))"
	rm -f /tmp/lifetime-in.raw
	bounded 100 media-ctl -p || { ok=0 bad="${bad:+$bad; }media-ctl -p does not answer"; }
	no_splat || ok=0
	media-ctl -r
	ktap_result $ok frame_odd_width_checked \
		"CCP2 input -> CCP2 -> CCDC -> CCDC output at 641x481 BA10, a $size-byte input frame: $got" \
		"${err:+setup: $err}" "$bad"
}
t_frame_sizes_checked() {
	# item 3: pad formats that do not match the real source (2592x1968 on the
	# disabled input of the switch and after it, 648x492 from the sensor)
	n900_dmesg_mark
	ok=1 bad=""
	F=SGRBG10_1X10/2592x1968
	media-ctl -r
	err=$({
		media-ctl -l "\"$S\":0 -> \"video-bus-switch\":0 [1]"
		media-ctl -l '"video-bus-switch":2 -> "OMAP3 ISP CCP2":0 [1]'
		media-ctl -l '"OMAP3 ISP CCP2":1 -> "OMAP3 ISP CCDC":0 [1]'
		media-ctl -l '"OMAP3 ISP CCDC":2 -> "OMAP3 ISP CCDC output":0 [1]'
		media-ctl -V "\"$S\":0 [fmt:SGRBG10_1X10/648x492]"
		media-ctl -V "\"video-bus-switch\":1 [fmt:$F]"
		media-ctl -V "\"OMAP3 ISP CCP2\":0 [fmt:$F]"
		media-ctl -V "\"OMAP3 ISP CCDC\":0 [fmt:$F]"
		media-ctl -V "\"OMAP3 ISP CCDC\":2 [fmt:$F]"
	} 2>&1 | head -n 2 | tr '\n' ' ')
	sw=$(media-ctl --get-v4l2 '"video-bus-switch":2' 2>/dev/null | tr -s ' \t' ' ')
	out=$(media-ctl -e 'OMAP3 ISP CCDC output')
	v4l2-ctl -d "$out" --set-fmt-video=width=2592,height=1968,pixelformat=BA10 >/dev/null 2>&1
	bounded 150 "$T/capture" "$out" 1 /dev/null
	rc=$?
	last=$(tail -n 1 $LOG)
	case $rc:$last in
	0:frame*) what="one frame rendered" ;;
	*:*VIDIOC_STREAMON*) what="STREAMON refused (${last#capture: })" ;;
	124:*) what="the capture hung"; ok=0 ;;
	*) what="the capture failed after STREAMON: $last"; ok=0 ;;
	esac
	bounded 100 media-ctl -p || { ok=0 bad="media-ctl -p does not answer"; }
	no_splat || ok=0
	media-ctl -r
	ktap_result $ok frame_sizes_checked \
		"et8ek8 648x492 -> switch:0; switch:1 (disabled), CCP2, CCDC at 2592x1968; switch:2 reads$sw" \
		"${err:+setup: $err}" "2592x1968 BA10 from $out: $what" "$bad"
}
t_module_pinned_while_node_open() {
	# each device module (sensor, lens, flash, switch) with its node held
	# open: its module cannot be removed, since the node's release runs
	# the module's code (the subdevice's operations, its free callback)
	n900_dmesg_mark
	ok=1 bad="" what=""
	for pair in "n900-sensor:$S" "n900-ad5820:ad5820 3-000c" \
		"n900-adp1653:adp1653 2-0030" "n900-video-bus-switch:video-bus-switch"; do
		mod=${pair%%:*}
		node=$(media-ctl -e "${pair#*:}")
		exec 3<"$node"
		if bounded 100 rmmod "$mod"; then
			ok=0 bad="${bad:+$bad; }$mod removed while $node was open"
			exec 3<&-
			bounded 100 modprobe "$mod"
			wait_graph 100
		else
			exec 3<&-
		fi
		what="$what $mod: $(cat "/sys/module/$(echo "$mod" | tr - _)/refcnt" 2>/dev/null || echo gone),"
	done
	no_splat || ok=0
	ktap_result $ok module_pinned_while_node_open \
		"module references with the node closed again:$what" "$bad"
}
t_no_leak() {
	# kmemleak has nothing to report after all that
	ktap_no_leak
}
TESTS="subdev_fd_outlives_unbind.ccdc subdev_fd_outlives_unbind.sensor subdev_fd_outlives_unbind.lens subdev_fd_outlives_unbind.flash subdev_fd_outlives_unbind.switch subdev_node_back_while_old_open power_across_sensor_rebind power_across_isp_unbind switch_one_input_after_rebind stream_before_camera_binds isp_unbind_standalone_stream media_ioctl_across_isp_unbind media_fd_across_vimc_unbind stream_node_left_without_links module_pinned_while_node_open frame_odd_width_checked frame_sizes_checked no_leak"

want=$*
if [ -z "$want" ]; then
	read -r cmdline </proc/cmdline
	for arg in $cmdline; do
		case $arg in n900.lifetime=*) want=$(echo "${arg#n900.lifetime=}" | tr , ' ') ;; esac
	done
fi
run=
for t in $TESTS; do
	case " ${want:-$TESTS} " in *" $t "*) run="$run $t" ;; esac
done

ISP=$(pdev n900emu,omap3-isp)
WANT=$(graph)
n=0
for t in $run; do n=$((n + 1)); done
ktap_plan $n
ktap_diag "graph (entities pads links interfaces): $WANT; ISP $ISP"
for t in $run; do
	"t_$(echo "$t" | tr . _)"
done
