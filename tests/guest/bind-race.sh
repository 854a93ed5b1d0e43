#!/bin/sh
# bind-race.sh: a block binds under a stream that its links join, as one
# KTAP document.
#
# A link of a started pipeline cannot be enabled (the core says EBUSY),
# and while the graph is not complete every link the tree enables must be
# enabled for a bind to succeed. Here the sensor module is not loaded (no
# /dev/media0), the resizer is unbound, and its output node streams on its
# own (it has no link left); then the resizer binds, and its link to that
# node is enabled in the tree. Before isp_video_entity_joins() the bind
# failed ("cannot enable OMAP3 ISP resizer:1 -> OMAP3 ISP resizer
# output:0 (-16)") and the graph could never complete (lifetime-stress
# graph_back, once in five runs). Now the stream stops with an error
# (EIO), the resizer binds, and the graph completes once the sensor loads.
# shellcheck source=rootfs/overlay/etc/n900/functions
. /etc/n900/functions
# shellcheck source=tests/guest/lib/ktap.sh
. /usr/lib/n900/tests/lib/ktap.sh
# shellcheck source=tests/guest/lib/capture.sh
. /usr/lib/n900/tests/lib/capture.sh
T=/usr/lib/n900/tests
LOG=/tmp/bind-race.log
BLK=/sys/bus/platform/drivers/n900-isp-block
DEV=isp:resizer

ktap_plan 1
lines=$(dmesg | wc -l)
n900_unload_drivers
for m in n900-power n900-isp n900-video-bus-switch n900-ad5820 n900-adp1653; do
	modprobe $m
done
echo $DEV >$BLK/unbind
node=
for v in /sys/class/video4linux/video*; do
	[ "$(cat "$v/name")" = "OMAP3 ISP resizer output" ] && node=/dev/${v##*/}
done
v4l2-ctl -d "$node" --set-fmt-video=width=640,height=480,pixelformat=UYVY
"$T/stream-hold" "$node" >$LOG 2>&1 &
pid=$!
wait_held $LOG || :
held=$(grep -c '^stream-hold: /dev/.* streams$' $LOG)
early=0; [ -e /dev/media0 ] && early=1
echo $DEV >$BLK/bind 2>/dev/null
bound=0; [ -e $BLK/$DEV ] && bound=1
kill $pid
wait $pid
stopped=$(grep -c 'DQBUF Input/output error' $LOG)
modprobe n900-sensor
media=0; n900_wait_media 10 && media=1
ok=0
[ "$held" = 1 ] && [ $early = 0 ] && [ $bound = 1 ] && [ "$stopped" = 1 ] && [ $media = 1 ] && ok=1
ktap_result $ok bind_into_streaming_pipeline \
	"${node:-no resizer output node}: streams on its own: $held (expected 1); media device then: $early (expected 0)" \
	"$DEV bound under the stream: $bound (expected 1); the stream stopped with EIO: $stopped (expected 1)" \
	"the media device once the sensor loaded: $media (expected 1)" \
	"$(dmesg | tail -n +$((lines + 1)) | grep -m 4 'cannot enable\|cannot register\|streaming stops')"
n900_unload_drivers
n900_load_drivers
