#!/bin/sh
# Stopping a stream every way while frames flow through the main pipeline
# (main-pipeline.sh, 648x492 -> 320x240): STREAMOFF, close by a killed
# process, unbinding the main sensor, the lens (not in the pipeline, read
# at every frame), an ISP block, and the whole ISP. After each, the device
# must stream again. Splats fail the run (tests/host/harness.sh) and kmemleak
# reports leaked buffers at its end. One KTAP document.
# shellcheck source=rootfs/overlay/etc/n900/functions
. /etc/n900/functions
# shellcheck source=tests/guest/lib/ktap.sh
. /usr/lib/n900/tests/lib/ktap.sh
# shellcheck source=tests/guest/lib/capture.sh
. /usr/lib/n900/tests/lib/capture.sh
T=/usr/lib/n900/tests
LOG=/tmp/stream-stop.log

# start: capture in the background, and wait until frames flow
start() {
	dev=$(/usr/lib/n900/main-pipeline.sh 648x492 320x240 2>/dev/null | tail -n 1)
	"$T/capture" "$dev" 1000000 /dev/null >$LOG 2>&1 &
	pid=$!
	wait_frames $LOG 3 $pid || :
}
# stopped: the background capture has ended (within 10 s), or is killed
stopped() {
	i=0
	while kill -0 "$pid" 2>/dev/null && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	if kill -0 "$pid" 2>/dev/null; then
		kill -9 "$pid"
		wait "$pid"
		return 1
	fi
	wait "$pid"
	return 0
}
# streams_again: 3 frames from a freshly configured main pipeline
streams_again() {
	dev=$(/usr/lib/n900/main-pipeline.sh 648x492 320x240 2>/dev/null | tail -n 1)
	"$T/capture" "$dev" 3 /dev/null >/tmp/stream-stop-again.log 2>&1
}
# platform device of the node whose compatible is $1, and its driver
pdev() {
	f=$(grep -l "$1" /sys/bus/platform/devices/*/of_node/compatible | head -n 1)
	f=${f%/of_node/compatible}
	echo "${f##*/}"
}
# unbind_mid_stream NAME COMPATIBLE DRIVER: unbind the device while the
# main pipeline streams, expect the capture to end with an error, bind
# it again and stream again
unbind_mid_stream() {
	d=$(pdev "$2")
	start
	n=$(grep -c '^frame' $LOG)
	echo "$d" >"/sys/bus/platform/drivers/$3/unbind"
	ended=0
	stopped && ended=1
	echo "$d" >"/sys/bus/platform/drivers/$3/bind"
	n900_wait_media 20
	sleep 0.5
	ok=1
	streams_again || ok=0
	[ -e "/sys/bus/platform/drivers/$3/$d" ] || ok=0
	[ $ended = 1 ] || ok=0
	ktap_result $ok "$1" "$d unbound after $n frames; capture ended: $ended ($(tail -n 1 $LOG)); streams again after rebind: $(grep -c '^frame' /tmp/stream-stop-again.log) frames"
}

ktap_plan 6

# STREAMOFF with buffers still queued: capture stops after 5 of 8 buffers
streams_again
dev=$(/usr/lib/n900/main-pipeline.sh 648x492 320x240 2>/dev/null | tail -n 1)
v4l2-ctl -d "$dev" --stream-mmap=8 --stream-count=5 >/dev/null 2>&1
streams_again
ktap_result $(($? == 0)) streamoff_mid_stream "STREAMOFF after 5 frames with 3 buffers queued, then $(grep -c '^frame' /tmp/stream-stop-again.log) frames"

start
kill -9 "$pid"
wait "$pid"
streams_again
ktap_result $(($? == 0)) close_mid_stream "capture killed after $(grep -c '^frame' $LOG) frames; then $(grep -c '^frame' /tmp/stream-stop-again.log) frames"

unbind_mid_stream unbind_sensor_mid_stream n900emu,et8ek8 n900-sensor
# the lens is not in the pipeline: the stream goes on without it
d=$(pdev n900emu,ad5820)
start
echo "$d" >/sys/bus/platform/drivers/n900-ad5820/unbind
sleep 1
alive=0
kill -0 "$pid" 2>/dev/null && alive=1
n=$(grep -c '^frame' $LOG)
kill -9 "$pid"
wait "$pid"
echo "$d" >/sys/bus/platform/drivers/n900-ad5820/bind
sleep 0.5
streams_again
ok=$(($? == 0))
[ $alive = 1 ] || ok=0
ktap_result $ok unbind_lens_mid_stream "lens $d unbound while streaming: capture alive $alive after $n frames; rebound, then $(grep -c '^frame' /tmp/stream-stop-again.log) frames"
unbind_mid_stream unbind_isp_block_mid_stream n900emu,isp-preview n900-isp-block
unbind_mid_stream unbind_isp_mid_stream n900emu,omap3-isp n900-isp
