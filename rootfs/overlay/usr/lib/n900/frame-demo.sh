#!/bin/sh
# One frame through the whole main pipeline, brought back to the host over
# the console: et8ek8 (1296x984) -> switch -> CCP2 -> CCDC -> lens shading
# -> white balance -> preview -> resizer (640x480 UYVY) -> memory, with lens
# shading on, white balance gains for the scene and the lens in focus.
# ./build.sh turns the base64 between the N900-FRAME markers into
# build/frame.png (ImageMagick).
F=SGRBG10_1X10/1296x984

# the N900 topology only (not a generated stress topology)
media-ctl -p 2>/dev/null | grep -q 'OMAP3 ISP resizer output' || exit 0
media-ctl -r
media-ctl -l '"et8ek8 3-003e":0 -> "video-bus-switch":0 [1]'
media-ctl -l '"video-bus-switch":2 -> "OMAP3 ISP CCP2":0 [1]'
media-ctl -l '"OMAP3 ISP CCP2":1 -> "OMAP3 ISP CCDC":0 [1]'
media-ctl -l '"OMAP3 ISP CCDC":1 -> "OMAP3 ISP lens shading":0 [1]'
media-ctl -l '"OMAP3 ISP white balance":1 -> "OMAP3 ISP preview":0 [1]'
media-ctl -l '"OMAP3 ISP preview":1 -> "OMAP3 ISP resizer":0 [1]'
media-ctl -l '"OMAP3 ISP resizer":1 -> "OMAP3 ISP resizer output":0 [1]'
media-ctl -V "\"et8ek8 3-003e\":0 [fmt:$F], \"video-bus-switch\":2 [fmt:$F], \"OMAP3 ISP CCP2\":1 [fmt:$F]"
media-ctl -V "\"OMAP3 ISP CCDC\":1 [fmt:$F], \"OMAP3 ISP lens shading\":1 [fmt:$F], \"OMAP3 ISP white balance\":1 [fmt:$F]"
media-ctl -V '"OMAP3 ISP preview":1 [fmt:UYVY8_1X16/1296x984], "OMAP3 ISP resizer":1 [fmt:UYVY8_1X16/640x480]'
v4l2-ctl -d "$(media-ctl -e 'OMAP3 ISP lens shading')" --set-ctrl lens_shading_correction=1
v4l2-ctl -d "$(media-ctl -e 'OMAP3 ISP white balance')" \
	--set-ctrl white_balance_gain_r=44,white_balance_gain_b=40
v4l2-ctl -d "$(media-ctl -e 'ad5820 3-000c')" --set-ctrl focus_absolute=512
out=$(media-ctl -e 'OMAP3 ISP resizer output')
v4l2-ctl -d "$out" --set-fmt-video=width=640,height=480,pixelformat=UYVY
v4l2-ctl -d "$out" --stream-mmap --stream-count=1 --stream-to=/tmp/frame.uyvy
echo "N900-FRAME-BEGIN 640 480 uyvy"
base64 /tmp/frame.uyvy
echo "N900-FRAME-END"
rm -f /tmp/frame.uyvy
