#!/bin/sh
# The sensor's frame interval (drivers/sensors/n900_sensor.c): a frame every
# (width + hblank) * (height + vblank) / pixel rate, from the sensor's
# controls, and as fast as the ISP renders when it runs free. Raw capture
# of et8ek8's 648x492 mode through the CCDC; the interval measured is the
# mean step of the buffer timestamps over frames 2..10. One KTAP document.
T=/usr/lib/n900/tests
F=SGRBG10_1X10/648x492
TOL=10	# per cent: timer slack of an emulated CPU
# shellcheck source=tests/guest/lib/ktap.sh
. /usr/lib/n900/tests/lib/ktap.sh

media-ctl -r
media-ctl -l '"et8ek8 3-003e":0 -> "video-bus-switch":0 [1], "video-bus-switch":2 -> "OMAP3 ISP CCP2":0 [1]'
media-ctl -l '"OMAP3 ISP CCP2":1 -> "OMAP3 ISP CCDC":0 [1], "OMAP3 ISP CCDC":2 -> "OMAP3 ISP CCDC output":0 [1]'
media-ctl -V "\"et8ek8 3-003e\":0 [fmt:$F], \"video-bus-switch\":2 [fmt:$F], \"OMAP3 ISP CCP2\":1 [fmt:$F], \"OMAP3 ISP CCDC\":2 [fmt:$F]"
dev=$(media-ctl -e 'OMAP3 ISP CCDC output')
sd=$(media-ctl -e 'et8ek8 3-003e')
v4l2-ctl -d "$dev" --set-fmt-video=width=648,height=492,pixelformat=BA10

ctrl() { v4l2-ctl -d "$sd" --get-ctrl "$1" | awk '{ print $NF }'; }
# the interval the controls give, in microseconds
expected_us() {
	echo "$(ctrl pixel_rate) $(ctrl horizontal_blanking) $(ctrl vertical_blanking)" |
		awk '{ printf "%d\n", (648 + $2) * (492 + $3) * 1000000 / $1 }'
}
# the mean timestamp step over frames 2..10, in microseconds
measured_us() {
	"$T/capture" "$dev" 10 /dev/null |
		awk '/^frame/ { us[++n] = $NF } END { if (n == 10) printf "%d\n", (us[10] - us[2]) / 8 }'
}
# paced WANT: up to 3 windows of measured_us, stopping at the first within
# TOL of WANT; prints the last window's value (or "none"), then all of
# them. Host load only delays frames at random, so one window of three on
# pace is the sensor's pace; a wrong frame length is off in every window.
paced() {
	tries=0 all=
	while [ $tries -lt 3 ]; do
		tries=$((tries + 1))
		m=$(measured_us)
		all="$all${all:+,}${m:-none}"
		within "$m" "$1" && break
	done
	echo "${m:-none} $all"
}
within() { # MEASURED EXPECTED: within TOL per cent
	[ -n "$1" ] && [ $(($1 * 100)) -ge $(($2 * (100 - TOL))) ] &&
		[ $(($1 * 100)) -le $(($2 * (100 + TOL))) ]
}

ktap_plan 4

# the mode's nominal frame length: 504 lines (et8ek8_mode.c), vblank 12
vb=$(ctrl vertical_blanking)
[ "$vb" = 12 ]
ktap_result $(($? == 0)) mode_sets_nominal_vblank "vertical_blanking $vb after setting 648x492, the mode table's 504 - 492 = 12"

want=$(expected_us)
# how fast this guest renders a frame at all: when it cannot render one
# within the nominal interval (three debug guests on two host cores), the
# pace cannot be checked there
v4l2-ctl -d "$sd" --set-ctrl free_running=1
render=$(measured_us)
v4l2-ctl -d "$sd" --set-ctrl free_running=0
# shellcheck disable=SC2046 # two words: the verdict, then every window
set -- $(paced "$want")
nominal=${1#none} windows=$2
if [ -n "$render" ] && [ "$render" -gt $((want * (100 - TOL) / 100)) ]; then
	ktap_diag "measured $windows us per frame, the controls give $want us"
	ktap_skip nominal_interval "this guest renders a frame in $render us, too slow for the nominal $want us (a loaded host)"
else
	within "$nominal" "$want"
	ktap_result $(($? == 0)) nominal_interval "measured $windows us per frame (up to 3 windows of 8 frames), the controls give $want us (±$TOL %; free running: ${render:-no} us)"
fi

v4l2-ctl -d "$sd" --set-ctrl vertical_blanking=755
want=$(expected_us)
# shellcheck disable=SC2046 # two words: the verdict, then every window
set -- $(paced "$want")
got=${1#none} windows=$2
within "$got" "$want"
ktap_result $(($? == 0)) vblank_stretches_interval "vertical_blanking 755: measured $windows us per frame (up to 3 windows), the controls give $want us (±$TOL %)"

# free running ignores the blanking: faster than the stretched interval
# (against the nominal one, a debug kernel on a loaded host may not be)
v4l2-ctl -d "$sd" --set-ctrl free_running=1
free=$(measured_us)
[ -n "$free" ] && [ -n "$got" ] && [ "$free" -lt $((got * 9 / 10)) ]
ktap_result $(($? == 0)) free_running_is_faster "free running with vertical_blanking 755: ${free:-no} us per frame, against ${got:-no} us without (nominal: ${nominal:-no} us)"
v4l2-ctl -d "$sd" --set-ctrl free_running=0,vertical_blanking=12
