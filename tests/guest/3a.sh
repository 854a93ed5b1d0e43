#!/bin/sh
# The 3A example (n900-3a, tests/guest/n900-3a.c) converges from a bad start
# (issue 20, "Done means" 1), on the default scene and on the foliage scene
# (mostly green: grey-world alone cannot balance it), with sensor noise on:
#
#   start  exposure 1/8 of the scene's correct one (the exposure at which
#          the mean luma is the target, measured here with noise off at
#          6500 K), analogue gain 1x, white balance gains at unity under a
#          3000 K illuminant, the lens at 0 (one end of its range)
#   ae     at frames 20 and 30 the preview's mean luma is within 5 % of the
#          target and under 1 % of the samples are clipped (the frame's
#          histogram buffer, against the sensor's saturation level)
#   awb    at frames 20 and 30 the scene's grey patch (its rectangle is in
#          the scene file's header), measured in the preview output (YUV
#          back to RGB), has R/G and B/G within 3 % of 1.0
#   af     after 30 frames the lens is within the range of positions whose
#          noise-free frame is the sharpest: found here by a sweep with
#          noise off (3a-measure sweep: the frames there are identical;
#          the sharpness is the mean squared luma difference of neighbours)
#
# Everything is measured on the buffers the driver filled (n900-3a --save
# keeps frames 20 and 30 of the preview output and the histogram), by
# 3a-measure, not taken from n900-3a's own estimates. Each loop's
# convergence frame, as n900-3a reports it, is in the diagnostics.
#
# Each check must fail when its loop is off: on the default scene, n900-3a
# runs again with --no-ae, --no-awb and --no-af in turn, and the check of
# the loop that was off must then fail (3a.default.<loop>_fails_without_it).
# The default scene's run is left in N900_OUT/3a/ for the host to draw.
T=/usr/lib/n900/tests
W=648
H=492
TARGET=30
KELVIN=3000
SEED=20261205
OUT=${N900_OUT:-/tmp/out}/3a
# shellcheck source=tests/guest/lib/ktap.sh
. /usr/lib/n900/tests/lib/ktap.sh

ktap_plan 9
t_start=$(cut -d' ' -f1 /proc/uptime)

# one media-ctl (each enumerates the graph): reset, links, formats
LINKS='"et8ek8 3-003e":0 -> "video-bus-switch":0 [1]'
LINKS="$LINKS, \"video-bus-switch\":2 -> \"OMAP3 ISP CCP2\":0 [1]"
LINKS="$LINKS, \"OMAP3 ISP CCP2\":1 -> \"OMAP3 ISP CCDC\":0 [1]"
LINKS="$LINKS, \"OMAP3 ISP CCDC\":1 -> \"OMAP3 ISP lens shading\":0 [1]"
LINKS="$LINKS, \"OMAP3 ISP white balance\":1 -> \"OMAP3 ISP preview\":0 [1]"
LINKS="$LINKS, \"OMAP3 ISP preview\":1 -> \"OMAP3 ISP preview output\":0 [1]"
F=SGRBG10_1X10/${W}x$H
FMTS="\"et8ek8 3-003e\":0 [fmt:$F], \"video-bus-switch\":2 [fmt:$F], \"OMAP3 ISP CCP2\":1 [fmt:$F]"
FMTS="$FMTS, \"OMAP3 ISP CCDC\":1 [fmt:$F], \"OMAP3 ISP lens shading\":1 [fmt:$F], \"OMAP3 ISP white balance\":1 [fmt:$F]"
FMTS="$FMTS, \"OMAP3 ISP preview\":1 [fmt:UYVY8_1X16/${W}x$H]"
media-ctl -r -l "$LINKS" -V "$FMTS"
PREVIEW=$(media-ctl -e 'OMAP3 ISP preview output')
v4l2-ctl -d "$PREVIEW" --set-fmt-video=width=$W,height=$H,pixelformat=UYVY
S=$(media-ctl -e 'et8ek8 3-003e')
L=$(media-ctl -e 'ad5820 3-000c')
WB=$(media-ctl -e 'OMAP3 ISP white balance')
BLACK=$(v4l2-ctl -d "$(media-ctl -e 'OMAP3 ISP CCDC')" --get-ctrl black_level | cut -d' ' -f2)

# key KEY: the value after the word KEY in 3a-measure's line on stdin
key() { awk -v k="$1" '{ for (i = 1; i < NF; i++) if ($i == k) print $(i + 1) }'; }
# u16 OFFSET FILE: the little-endian 16-bit word at OFFSET
u16() { od -An -tu2 -j "$1" -N 2 "$2" | tr -d ' '; }
elapsed() { awk -v t0="$1" '{ printf "%.0f", $1 - t0 }' /proc/uptime; }

LSC=$(media-ctl -e 'OMAP3 ISP lens shading')
# lens shading off (n900-3a predicts the preview's luma from the AEWB
# sums, taken before it), white balance gains at unity
wb_unity() {
	v4l2-ctl -d "$LSC" --set-ctrl lens_shading_correction=0
	v4l2-ctl -d "$WB" --set-ctrl digital_gain=256,white_balance_gain_gr=32,white_balance_gain_r=32,white_balance_gain_b=32,white_balance_gain_gb=32
}

# run_3a SCENE FRAMES ARGS...: n900-3a from the bad start, FRAMES frames,
# frames 1, 20 and 30 kept as /tmp/3a-1.*, /tmp/3a-20.*, /tmp/3a-30.*; its
# log in /tmp/3a.tsv
run_3a() {
	scene=$1 frames=$2
	shift 2
	v4l2-ctl -d "$S" --set-ctrl test_pattern=3,scene="$scene",sensor_noise=1,noise_seed=$SEED,illuminant_temperature=$KELVIN,exposure=$START,analogue_gain=0
	v4l2-ctl -d "$L" --set-ctrl focus_absolute=0
	wb_unity
	rm -f /tmp/3a-1.* /tmp/3a-20.* /tmp/3a-30.*
	n900-3a --no-setup -n "$frames" -t $TARGET --log /tmp/3a.tsv \
		--save 1:/tmp/3a-1 --save 20:/tmp/3a-20 --save 30:/tmp/3a-30 "$@" \
		>/tmp/3a.out 2>&1
}

# check_ae, check_awb, check_af: the verdict of a run (status), and why
# in $why; AE and AWB on the frames of $FRAMES_CHECKED
check_ae() {
	why='' ok=0
	for f in $FRAMES_CHECKED; do
		code=$(awk -F'\t' -v f="$f" '$1 == f { printf "%d", $3 * 16 - 16 + 0.5 }' /tmp/3a.tsv)
		m=$("$T/3a-measure" frame "/tmp/3a-$f.uyvy" $W $H)
		luma=$(echo "$m" | key luma)
		clip=$("$T/3a-measure" clip "/tmp/3a-$f.hist" "$code" "$BLACK" | key clipped)
		why="$why frame $f: luma $luma (metered $(echo "$m" | key metered), target $TARGET), clipped $clip;"
		awk -v l="$luma" -v t=$TARGET -v c="$clip" \
			'BEGIN { d = l / t - 1; exit !(d < 0.05 && d > -0.05 && c < 0.01) }' ||
			ok=1
	done
	return $ok
}

check_awb() {
	why='' ok=0
	for f in $FRAMES_CHECKED; do
		# shellcheck disable=SC2086 # $PATCH is four numbers
		m=$("$T/3a-measure" frame "/tmp/3a-$f.uyvy" $W $H $PATCH)
		rg=$(echo "$m" | key patch_rg)
		bg=$(echo "$m" | key patch_bg)
		why="$why frame $f: patch R/G $rg B/G $bg;"
		awk -v r="$rg" -v b="$bg" \
			'BEGIN { exit !(r > 0.97 && r < 1.03 && b > 0.97 && b < 1.03) }' ||
			ok=1
	done
	return $ok
}

check_af() {
	lens=$(v4l2-ctl -d "$L" --get-ctrl focus_absolute | cut -d' ' -f2)
	why="lens at $lens at the end, sharpest $SHARP_LO..$SHARP_HI"
	[ "$lens" -ge "$SHARP_LO" ] && [ "$lens" -le "$SHARP_HI" ]
}

for sc in 0:default 1:foliage; do
	scene=${sc%%:*} name=${sc#*:}
	t0=$(cut -d' ' -f1 /proc/uptime)
	file=/lib/firmware/n900/scene-$name.bin
	# the grey patch, from the header, 8 pixels in from its edges
	gx=$(u16 18 "$file") gy=$(u16 20 "$file") gw=$(u16 22 "$file") gh=$(u16 24 "$file")
	PATCH="$((gx + 8)) $((gy + 8)) $((gw - 16)) $((gh - 16))"

	# the correct exposure: the target luma at 1x, noise off, 6500 K
	v4l2-ctl -d "$S" --set-ctrl test_pattern=3,scene="$scene",sensor_noise=0,illuminant_temperature=6500,exposure=1000,analogue_gain=0
	v4l2-ctl -d "$L" --set-ctrl focus_absolute=0
	wb_unity
	"$T/capture" "$PREVIEW" 1 /tmp/3a-ref.uyvy >/dev/null
	luma=$("$T/3a-measure" frame /tmp/3a-ref.uyvy $W $H | key luma)
	correct=$(awk -v l="$luma" -v t=$TARGET 'BEGIN { printf "%d", 1000 * t / l + 0.5 }')
	START=$((correct / 8))
	echo "# $name: luma $luma at exposure 1000: correct exposure $correct, start at $START"

	# the sharpest lens positions, noise off, at the run's illuminant
	v4l2-ctl -d "$S" --set-ctrl illuminant_temperature=$KELVIN,exposure="$correct"
	"$T/3a-measure" sweep "$PREVIEW" "$L" >/tmp/3a-sweep.txt
	grep '^#' /tmp/3a-sweep.txt
	SHARP_LO=$(key sharpest </tmp/3a-sweep.txt)
	SHARP_HI=$(awk '$1 == "sharpest" { print $3 }' /tmp/3a-sweep.txt)
	echo "# $name: sharpest at lens ${SHARP_LO:=-1}..${SHARP_HI:=-1} ($(elapsed "$t0") s so far)"

	t1=$(cut -d' ' -f1 /proc/uptime)
	FRAMES_CHECKED="20 30"
	run_3a "$scene" 30
	rc=$?
	sed 's/^/# /' /tmp/3a.out
	echo "# $name: n900-3a took $(elapsed "$t1") s for 30 frames"
	conv=$(sed -n 's/^converged: //p' /tmp/3a.out)
	if [ $rc -ne 0 ]; then
		ktap_result 0 "3a.$name.ae" "n900-3a failed ($rc)"
		ktap_result 0 "3a.$name.awb" "n900-3a failed ($rc)"
		ktap_result 0 "3a.$name.af" "n900-3a failed ($rc)"
		continue
	fi
	check_ae
	ktap_result $(($? == 0)) "3a.$name.ae # converged: $conv" "$why"
	check_awb
	ktap_result $(($? == 0)) "3a.$name.awb # converged: $conv" "$why"
	check_af
	ktap_result $(($? == 0)) "3a.$name.af # converged: $conv" "$why"

	[ "$name" = default ] || continue
	# for the host to draw (tests/host/render.sh 3a): frames 1 and 30, the log
	mkdir -p "$OUT"
	cp /tmp/3a.tsv "$OUT/3a.tsv"
	cp /tmp/3a.out "$OUT/3a.txt"
	cp /tmp/3a-1.uyvy "$OUT/before.uyvy"
	cp /tmp/3a-30.uyvy "$OUT/after.uyvy"
	echo "$W $H uyvy" >"$OUT/before.info"
	echo "$W $H uyvy" >"$OUT/after.info"
	# each check fails with its loop off (the same start; 20 frames, the
	# checks of frame 20 and of the lens at the end)
	FRAMES_CHECKED=20
	for loop in ae awb af; do
		run_3a "$scene" 20 --no-$loop
		rc=$?
		echo "# --no-$loop: $(sed -n 's/^converged: /converged: /p' /tmp/3a.out)"
		if [ $rc -ne 0 ]; then
			ktap_result 0 "3a.$name.${loop}_fails_without_it" "n900-3a --no-$loop failed ($rc)"
			continue
		fi
		"check_$loop"
		ktap_result $(($? != 0)) "3a.$name.${loop}_fails_without_it" "with --no-$loop:$why"
	done
done

# the suites after this one find the controls as they were
v4l2-ctl -d "$S" --set-ctrl test_pattern=0,scene=0,sensor_noise=1,noise_seed=0,illuminant_temperature=6500,exposure=1000,analogue_gain=0
v4l2-ctl -d "$L" --set-ctrl focus_absolute=0
wb_unity
rm -f /tmp/3a-*.uyvy /tmp/3a-*.hist /tmp/3a.tsv /tmp/3a.out /tmp/3a-sweep.txt
echo "# 3a.sh: $(elapsed "$t_start") s"
