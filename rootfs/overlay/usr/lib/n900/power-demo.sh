#!/bin/sh
# A power experiment on the N900 main camera, recorded in the power-event
# log (./build.sh draws it as docs/power-timeline.png). Under the default
# policy, opening the raw-capture node powers the raw chain, enabling the
# processing links powers lens shading, white balance and preview while
# the node stays open, and closing the node powers everything down.
S='"et8ek8 3-003e"'
SW='"video-bus-switch"'
CCP2='"OMAP3 ISP CCP2"'
CCDC='"OMAP3 ISP CCDC"'
F=SGRBG10_1X10/1296x984
D=/sys/kernel/debug/n900-isp/media0
OUT='"OMAP3 ISP CCDC output"'

# the N900 topology only (not a generated stress topology)
media-ctl -p 2>/dev/null | grep -q 'OMAP3 ISP CCDC output' || exit 0
media-ctl -r
media-ctl -l "$S:0 -> $SW:0 [1], $SW:2 -> $CCP2:0 [1], $CCP2:1 -> $CCDC:0 [1], $CCDC:2 -> $OUT:0 [1]"
media-ctl -V "$S:0 [fmt:$F], $SW:2 [fmt:$F], $CCP2:1 [fmt:$F], $CCDC:1 [fmt:$F], $CCDC:2 [fmt:$F]"
dev=$(media-ctl -e 'OMAP3 ISP CCDC output')
v4l2-ctl -d "$dev" --set-fmt-video=width=1296,height=984,pixelformat=BA10

# the same sequence in tracefs: runtime PM, regulators, clocks and the
# driver's own n900_power events
T=/sys/kernel/tracing
echo 0 >$T/tracing_on
echo >$T/trace
for e in n900_power rpm regulator clk/clk_enable clk/clk_disable; do
	echo 1 >$T/events/$e/enable
done
echo 1 >$T/tracing_on
echo clear >$D/power-events
sleep 0.2
exec 3<"$dev"
sleep 0.3
media-ctl -l "$CCDC:1 -> \"OMAP3 ISP lens shading\":0 [1]"
media-ctl -l '"OMAP3 ISP white balance":1 -> "OMAP3 ISP preview":0 [1]'
sleep 0.3
v4l2-ctl -d "$dev" --stream-mmap --stream-count=5 --stream-to=/dev/null
media-ctl -l '"OMAP3 ISP white balance":1 -> "OMAP3 ISP preview":0 [0]'
sleep 0.2
media-ctl -l "$CCDC:1 -> \"OMAP3 ISP lens shading\":0 [0]"
sleep 0.2
exec 3<&-
sleep 0.2
echo 0 >$T/events/enable
# artefacts for the host (/init's N900_OUT: the virtio-9p share, or the
# console fallback)
if [ -n "${N900_OUT:-}" ]; then
	cp $D/power-events "$N900_OUT/power-events.tsv"
	cp $T/trace "$N900_OUT/power-trace.txt"
fi
echo "N900-POWER-EVENTS-BEGIN"
cat $D/power-events
echo "N900-POWER-EVENTS-END"
cat $D/power
