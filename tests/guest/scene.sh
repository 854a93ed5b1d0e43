#!/bin/sh
# The Image pattern's scene files (README: Frames, "Scenes from pictures"):
# a scene file that is missing, or is not a scene, gives a dev_err naming
# it, and the frame is the synthetic scene's (the reference model's frame
# of frames.spec's raw10 case, same controls); the stream does not fail.
# Then the main pipeline's frame rate with an image scene and noise
# against the synthetic scene without noise, in this boot (diagnostics).
T=/usr/lib/n900/tests
FW=/lib/firmware/n900
FILE=scene-foliage.bin
EXPECTED=/etc/n900/frames.expected
# shellcheck source=tests/guest/lib/ktap.sh
. /usr/lib/n900/tests/lib/ktap.sh

S=$(media-ctl -e 'et8ek8 3-003e')
L=$(media-ctl -e 'ad5820 3-000c')

raw_path() { # the main sensor at 648x492 into the CCDC output, 10-bit
	F=SGRBG10_1X10/648x492
	# one media-ctl (each enumerates the graph): reset, links, formats
	LINKS='"et8ek8 3-003e":0 -> "video-bus-switch":0 [1]'
	LINKS="$LINKS, \"video-bus-switch\":2 -> \"OMAP3 ISP CCP2\":0 [1]"
	LINKS="$LINKS, \"OMAP3 ISP CCP2\":1 -> \"OMAP3 ISP CCDC\":0 [1]"
	LINKS="$LINKS, \"OMAP3 ISP CCDC\":2 -> \"OMAP3 ISP CCDC output\":0 [1]"
	FMTS="\"et8ek8 3-003e\":0 [fmt:$F], \"video-bus-switch\":2 [fmt:$F], \"OMAP3 ISP CCP2\":1 [fmt:$F]"
	FMTS="$FMTS, \"OMAP3 ISP CCDC\":2 [fmt:$F crop:(0,0)/648x492]"
	media-ctl -r -l "$LINKS" -V "$FMTS"
	dev=$(media-ctl -e 'OMAP3 ISP CCDC output')
	v4l2-ctl -d "$dev" --set-fmt-video=width=648,height=492,pixelformat=BA10
	v4l2-ctl -d "$(media-ctl -e 'OMAP3 ISP CCDC')" --set-ctrl black_level=64
}

# fallback NAME WHAT MESSAGE: with $FW/$FILE made WHAT (by the caller),
# one frame of the Image pattern with scene=1 must be the synthetic
# scene's, and the kernel must have said MESSAGE
fallback() {
	before=$(dmesg | grep -c "$3")
	if ! log=$("$T/capture" "$dev" 1 /tmp/scene.bin 2>&1); then
		ktap_result 0 "$1" "the capture failed with the scene file $2: $(echo "$log" | tail -n 1)"
		return
	fi
	got=$(md5sum </tmp/scene.bin | cut -d' ' -f1)
	rm -f /tmp/scene.bin
	after=$(dmesg | grep -c "$3")
	if [ "$after" -le "$before" ]; then
		ktap_result 0 "$1" "with the scene file $2, the kernel did not say \"$3\""
	elif [ "$got" != "$want" ]; then
		ktap_result 0 "$1" "with the scene file $2, the frame's md5 is $got, not the synthetic scene's $want"
	else
		ktap_result 1 "$1" "$(dmesg | grep "$3" | tail -n 1)"
	fi
}

ktap_plan 2
want=$(sed -n 's/^raw10 //p' $EXPECTED)
raw_path
v4l2-ctl -d "$L" --set-ctrl focus_absolute=0
v4l2-ctl -d "$S" --set-ctrl exposure=1000,analogue_gain=0,test_pattern=3,sensor_noise=0,scene=1

mv "$FW/$FILE" "/tmp/$FILE"
fallback missing_scene_falls_back missing \
	"cannot load the scene file /lib/firmware/n900/$FILE (-2)"
# a scene cut short: its header says more samples than it has
dd if="/tmp/$FILE" of="$FW/$FILE" bs=1000 count=1 2>/dev/null
fallback bad_scene_falls_back "cut to 1000 bytes" \
	"scene file /lib/firmware/n900/$FILE: a file size that does not match its header"
mv "/tmp/$FILE" "$FW/$FILE"

# the frame rate of the main pipeline (1296x984 to the resizer, 640x480),
# the sensor running free: the synthetic scene without noise, then the
# default scene with noise (diagnostics: timings of a shared machine)
# (main-pipeline.sh: lens shading on, white balance gains, lens in focus)
dev=$(/usr/lib/n900/main-pipeline.sh 1296x984 640x480 2>/dev/null | tail -n 1)

rate() { # the frames per second of 12 frames, from the 2nd to the last
	"$T/capture" "$dev" 12 /dev/null |
		awk '/^frame/ { t[n++] = $8 } END { if (n > 2) printf "%.2f", (n - 2) * 1e6 / (t[n - 1] - t[1]); else print 0 }'
}
v4l2-ctl -d "$S" --set-ctrl free_running=1,test_pattern=0,sensor_noise=0,scene=0
synthetic=$(rate)
v4l2-ctl -d "$S" --set-ctrl test_pattern=3,sensor_noise=1
image=$(rate)
v4l2-ctl -d "$S" --set-ctrl free_running=0,test_pattern=0
# the suites after this one (3a.sh) find lens shading and the white
# balance gains at their defaults: main-pipeline.sh changed them (and
# left the lens at 512, which 3a.sh sets itself)
v4l2-ctl -d "$(media-ctl -e 'OMAP3 ISP lens shading')" --set-ctrl lens_shading_correction=0
v4l2-ctl -d "$(media-ctl -e 'OMAP3 ISP white balance')" \
	--set-ctrl white_balance_gain_r=32,white_balance_gain_b=32
ktap_diag "main pipeline 1296x984 -> 640x480: synthetic scene, no noise: $synthetic fps; default scene with noise: $image fps ($(awk -v a="$image" -v b="$synthetic" 'BEGIN { if (b > 0) printf "%.0f", 100 * a / b }') %)"
