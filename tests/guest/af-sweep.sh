#!/bin/sh
# AF statistics peak where the scene is sharp: sweep the ad5820 over its
# range in steps of 64, read the AF buffer's total (struct n900_isp_af,
# n900_isp_stats.h) at each position, and check that the largest total is
# within one step of the scene's in-focus position, 512 (README: Frames).
# Also checks that the AEWB green sums grow with exposure.
T=/usr/lib/n900/tests
STEP=64
SHARP=512
# shellcheck source=tests/guest/lib/ktap.sh
. /usr/lib/n900/tests/lib/ktap.sh

ktap_plan 2
media-ctl -r
media-ctl -l '"et8ek8 3-003e":0 -> "video-bus-switch":0 [1]'
media-ctl -l '"video-bus-switch":2 -> "OMAP3 ISP CCP2":0 [1]'
media-ctl -l '"OMAP3 ISP CCP2":1 -> "OMAP3 ISP CCDC":0 [1]'
F=SGRBG10_1X10/648x492
media-ctl -V "\"et8ek8 3-003e\":0 [fmt:$F], \"video-bus-switch\":2 [fmt:$F], \"OMAP3 ISP CCP2\":1 [fmt:$F], \"OMAP3 ISP CCDC\":1 [fmt:$F]"
S=$(media-ctl -e 'et8ek8 3-003e')
L=$(media-ctl -e 'ad5820 3-000c')
AF=$(media-ctl -e 'OMAP3 ISP AF output')
AEWB=$(media-ctl -e 'OMAP3 ISP AEWB output')
v4l2-ctl -d "$S" --set-ctrl exposure=1000,analogue_gain=0,test_pattern=0

# u32 OFFSET FILE: the little-endian 32-bit word at OFFSET
u32() { od -An -tu4 -j "$1" -N 4 "$2" | tr -d ' '; }

best=-1 bestpos=-1 curve=
pos=0
while [ $pos -le 1023 ]; do
	v4l2-ctl -d "$L" --set-ctrl focus_absolute=$pos
	"$T/capture" "$AF" 1 /tmp/af.bin >/dev/null || break
	total=$(u32 80 /tmp/af.bin)	# after 4 words and 16 windows
	curve="$curve $pos:$total"
	if [ "$total" -gt "$best" ]; then best=$total bestpos=$pos; fi
	pos=$((pos + STEP))
done
echo "# AF total by lens position:$curve"
d=$((bestpos - SHARP))
[ $d -lt 0 ] && d=$((-d))
if [ "$bestpos" -ge 0 ] && [ $d -le $STEP ]; then
	ktap_result 1 "af_peaks_at_focus # peak at $bestpos"
else
	ktap_result 0 "af_peaks_at_focus # peak at $bestpos, the scene is sharp at $SHARP"
fi

# AEWB: the sum of every green sample (all windows) at three exposures
prev=-1 ok=1 sums=
for e in 250 500 1000 1500; do
	v4l2-ctl -d "$S" --set-ctrl exposure=$e
	"$T/capture" "$AEWB" 1 /tmp/aewb.bin >/dev/null || { ok=0; break; }
	g=$(od -An -tu4 -j 16 -v /tmp/aewb.bin | tr -s ' ' '\n' | sed '/^$/d' |
		awk '{ if ((NR - 1) % 4 == 0 || (NR - 1) % 4 == 3) s += $1 } END { print s }')
	sums="$sums $e:$g"
	[ "$g" -gt "$prev" ] || ok=0
	prev=$g
done
ktap_result $ok aewb_follows_exposure "AEWB green sum by exposure:$sums"
rm -f /tmp/af.bin /tmp/aewb.bin
v4l2-ctl -d "$S" --set-ctrl exposure=1000
