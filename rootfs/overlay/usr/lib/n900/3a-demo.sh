#!/bin/sh
# 3a-demo.sh OUTDIR: the 3A example (n900-3a, README "3A") from a bad start
# on the default scene under a warm 3000 K light, noise on: exposure 100
# lines (about 1/8 of the right one), gain 1x, white balance gains at
# unity, the lens at 0. Leaves OUTDIR/3a/3a.tsv (the per-frame log),
# before.uyvy and after.uyvy (frames 1 and 30 of the preview output, with
# their .info: "WIDTH HEIGHT uyvy"), and 3a.txt (what it printed). The host
# draws them (tests/host/render.sh 3a).
set -u
out=$1/3a
mkdir -p "$out"
# the N900 topology only
media-ctl -p 2>/dev/null | grep -q 'OMAP3 ISP preview output' || exit 0
v4l2-ctl -d "$(media-ctl -e 'et8ek8 3-003e')" \
	--set-ctrl test_pattern=3,scene=0,illuminant_temperature=3000,sensor_noise=1
n900-3a -n 30 -e 100 -g 0 -w 1,1 -l 0 --log "$out/3a.tsv" \
	--save "1:$out/before" --save "30:$out/after" >"$out/3a.txt" 2>&1
rc=$?
echo "648 492 uyvy" >"$out/before.info"
echo "648 492 uyvy" >"$out/after.info"
v4l2-ctl -d "$(media-ctl -e 'et8ek8 3-003e')" \
	--set-ctrl test_pattern=0,illuminant_temperature=6500,exposure=1000,analogue_gain=0
v4l2-ctl -d "$(media-ctl -e 'OMAP3 ISP white balance')" \
	--set-ctrl digital_gain=256,white_balance_gain_gr=32,white_balance_gain_r=32,white_balance_gain_b=32,white_balance_gain_gb=32
tail -n 4 "$out/3a.txt"
exit $rc
