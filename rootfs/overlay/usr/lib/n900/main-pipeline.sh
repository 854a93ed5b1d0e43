#!/bin/sh
# main-pipeline.sh [SENSOR OUTPUT]: configure the main pipeline,
#   et8ek8 -> switch -> CCP2 -> CCDC -> lens shading -> white balance
#   -> preview -> resizer -> memory ("OMAP3 ISP resizer output", UYVY),
# with lens shading on, white balance gains for the scene and the lens in
# focus. SENSOR is the sensor mode (default 1296x984), OUTPUT the resizer
# output size (default 640x480). Prints the resizer output's device node.
S=${1:-1296x984}
O=${2:-640x480}
F=SGRBG10_1X10/$S

# one media-ctl: it resets the links, sets these, then the formats in order
L='"et8ek8 3-003e":0 -> "video-bus-switch":0 [1]'
L="$L, \"video-bus-switch\":2 -> \"OMAP3 ISP CCP2\":0 [1]"
L="$L, \"OMAP3 ISP CCP2\":1 -> \"OMAP3 ISP CCDC\":0 [1]"
L="$L, \"OMAP3 ISP CCDC\":1 -> \"OMAP3 ISP lens shading\":0 [1]"
L="$L, \"OMAP3 ISP white balance\":1 -> \"OMAP3 ISP preview\":0 [1]"
L="$L, \"OMAP3 ISP preview\":1 -> \"OMAP3 ISP resizer\":0 [1]"
L="$L, \"OMAP3 ISP resizer\":1 -> \"OMAP3 ISP resizer output\":0 [1]"
V="\"et8ek8 3-003e\":0 [fmt:$F], \"video-bus-switch\":2 [fmt:$F], \"OMAP3 ISP CCP2\":1 [fmt:$F]"
V="$V, \"OMAP3 ISP CCDC\":1 [fmt:$F], \"OMAP3 ISP lens shading\":1 [fmt:$F], \"OMAP3 ISP white balance\":1 [fmt:$F]"
V="$V, \"OMAP3 ISP preview\":1 [fmt:UYVY8_1X16/$S], \"OMAP3 ISP resizer\":1 [fmt:UYVY8_1X16/$O]"
media-ctl -r -l "$L" -V "$V"
v4l2-ctl -d "$(media-ctl -e 'OMAP3 ISP lens shading')" --set-ctrl lens_shading_correction=1
v4l2-ctl -d "$(media-ctl -e 'OMAP3 ISP white balance')" \
	--set-ctrl white_balance_gain_r=44,white_balance_gain_b=40
v4l2-ctl -d "$(media-ctl -e 'ad5820 3-000c')" --set-ctrl focus_absolute=512
out=$(media-ctl -e 'OMAP3 ISP resizer output')
v4l2-ctl -d "$out" --set-fmt-video="width=${O%x*},height=${O#*x},pixelformat=UYVY"
echo "$out"
