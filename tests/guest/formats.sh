#!/bin/sh
# Format propagation along the main pipeline, the OMAP3 ISP limits, crop
# rectangles and the formats of the video nodes, as one KTAP document. The
# expected values follow from the hardware rules (sizes pass through; CCDC
# output formatter 10 to 8 bit and cropping to memory; preview Bayer in,
# YUV out; resizer 1/4x..4x of its sink crop within 32..4096; a crop starts
# on an even pixel so that the Bayer order holds; a video node offers every
# format its linked pad can ever give or take, whatever the pad has now:
# V4L2_CAP_IO_MC), not from the driver.
# shellcheck source=tests/guest/lib/ktap.sh
. /usr/lib/n900/tests/lib/ktap.sh
S='"et8ek8 3-003e"'
SW='"video-bus-switch"'
CCP2='"OMAP3 ISP CCP2"'
CCDC='"OMAP3 ISP CCDC"'
LSC='"OMAP3 ISP lens shading"'
WB='"OMAP3 ISP white balance"'
PRV='"OMAP3 ISP preview"'
RSZ='"OMAP3 ISP resizer"'
W=2592
H=1968

# snapshot: every pad's format as "ENTITY:PAD CODE/WxH", from one media-ctl -p
snapshot() {
	media-ctl -p | awk '
		/^- entity [0-9]+:/ { sub(/^- entity [0-9]+: /, ""); sub(/ \(.*$/, ""); e = $0 }
		/^\tpad[0-9]+:/ { p = $1; sub(/^pad/, "", p); sub(/:$/, "", p) }
		/fmt:/ { f = $0; sub(/.*fmt:/, "", f); sub(/ .*/, "", f); print e ":" p " " f }'
}
check() { # NAME ENTITY PAD EXPECTED (against $snap)
	name=$(echo "$2" | tr -d '"')
	got=$(echo "$snap" | grep -F "$name:$3 " | cut -d' ' -f2- | sed 's/.* //')
	if [ "$got" = "$4" ]; then
		ktap_result 1 "$1"
	else
		ktap_result 0 "$1" "$name:$3 is '$got', expected '$4'"
	fi
}
ceil4() { echo $((($1 + 3) / 4)); }
clamp() { v=$1; [ "$v" -ge "$2" ] || v=$2; [ "$v" -le "$3" ] || v=$3; echo "$v"; }

ktap_plan 27
# The links of the main pipeline, as the device tree enables them at boot:
# set here, as any suite before this one may have changed them.
media-ctl -r
media-ctl -l "$S:0 -> $SW:0 [1], $SW:2 -> $CCP2:0 [1], $CCP2:1 -> $CCDC:0 [1]"
media-ctl -l "$CCDC:1 -> $LSC:0 [1], $WB:1 -> $PRV:0 [1], $PRV:1 -> $RSZ:0 [1]"
media-ctl -l "$RSZ:1 -> \"OMAP3 ISP resizer output\":0 [1]"
B10=SGRBG10_1X10/${W}x$H
YUV=UYVY8_1X16/${W}x$H
# Each source format is set in turn; media-ctl carries it over every
# enabled link to the next sink, the block carries it to its sources.
v="$S:0 [fmt:$B10], $SW:2 [fmt:$B10], $CCP2:1 [fmt:$B10]"
v="$v, $CCDC:2 [fmt:SGRBG8_1X8/${W}x$H], $CCDC:1 [fmt:$B10], $LSC:1 [fmt:$B10]"
v="$v, $WB:1 [fmt:$B10], $PRV:1 [fmt:$YUV], $RSZ:1 [fmt:UYVY8_1X16/320x240]"
media-ctl -V "$v"
snap=$(snapshot)
check sensor_to_switch "$SW" 0 "$B10"
check switch_passes_through "$SW" 2 "$B10"
check switch_to_ccp2 "$CCP2" 0 "$B10"
check ccp2_to_ccdc "$CCDC" 0 "$B10"
check ccdc_video_port "$CCDC" 1 "$B10"
check ccdc_of_10_to_8_bit "$CCDC" 2 "SGRBG8_1X8/${W}x$H"
check ccdc_to_lsc "$LSC" 0 "$B10"
check wb_to_preview "$PRV" 0 "$B10"
check preview_bayer_to_yuv "$PRV" 1 "$YUV"
check preview_to_resizer "$RSZ" 0 "$YUV"
check resizer_downscale_clamped_to_quarter "$RSZ" 1 \
	"UYVY8_1X16/$(clamp "$(ceil4 $W)" 32 4096)x$(clamp "$(ceil4 $H)" 32 4096)"

v="$PRV:1 [fmt:$B10], $RSZ:0 [fmt:UYVY8_1X16/640x480]"
v="$v, $RSZ:1 [fmt:UYVY8_1X16/9999x9999], $CCDC:0 [fmt:SGRBG10_1X10/8x8]"
media-ctl -V "$v"
snap=$(snapshot)
check preview_source_refuses_bayer "$PRV" 1 "YUYV8_1X16/${W}x$H"
check resizer_upscale_clamped_to_4x "$RSZ" 1 \
	"UYVY8_1X16/$(clamp $((640 * 4)) 32 4096)x$(clamp $((480 * 4)) 32 4096)"
check sink_size_clamped_to_min "$CCDC" 0 "SGRBG10_1X10/32x32"
# an odd width rounds to the nearest even one, as the video nodes' do (the
# frame code works on pixel pairs): 641 -> 642
media-ctl -V "$CCDC:0 [fmt:SGRBG10_1X10/641x481]"
snap=$(snapshot)
check odd_width_rounded_to_even "$CCDC" 0 "SGRBG10_1X10/$((641 + 1))x481"

# Crop: the CCDC output formatter writes its crop rectangle to memory, the
# video port keeps the whole frame; the resizer scales its sink crop.
crop() { # ENTITY PAD: the pad's crop rectangle, "(x,y)/WxH"
	media-ctl --get-v4l2 "$1:$2" | grep -o 'crop:([0-9,]*)/[0-9x]*' | cut -d: -f2
}
check_crop() { # NAME ENTITY PAD EXPECTED
	got=$(crop "$2" "$3")
	if [ "$got" = "$4" ]; then
		ktap_result 1 "$1"
	else
		ktap_result 0 "$1" "$2:$3 crop is '$got', expected '$4'"
	fi
}
media-ctl -V "$CCDC:0 [fmt:SGRBG10_1X10/1296x984], $CCDC:2 [crop:(101,51)/640x480]"
snap=$(snapshot)
check_crop ccdc_crop_even_origin "$CCDC" 2 "(100,50)/640x480"
# (the output formatter keeps the 8-bit code set on it above)
check ccdc_of_is_crop_size "$CCDC" 2 "SGRBG8_1X8/640x480"
check ccdc_vp_not_cropped "$CCDC" 1 "SGRBG10_1X10/1296x984"
media-ctl -V "$CCDC:2 [crop:(1000,900)/2000x2000]"
check_crop ccdc_crop_clamped_to_frame "$CCDC" 2 "(0,0)/1296x984"
media-ctl -V "$CCDC:2 [crop:(0,0)/320x240]"
media-ctl -V "$CCDC:0 [fmt:SGRBG10_1X10/800x600]"
check_crop sink_format_resets_crop "$CCDC" 2 "(0,0)/800x600"

media-ctl -V "$RSZ:0 [fmt:UYVY8_1X16/1296x984 crop:(0,0)/400x300], $RSZ:1 [fmt:UYVY8_1X16/50x50]"
snap=$(snapshot)
check_crop resizer_sink_crop "$RSZ" 0 "(0,0)/400x300"
check resizer_ratio_from_crop_min "$RSZ" 1 \
	"UYVY8_1X16/$(clamp "$(ceil4 400)" 32 4096)x$(clamp "$(ceil4 300)" 32 4096)"
media-ctl -V "$RSZ:1 [fmt:UYVY8_1X16/4000x4000]"
snap=$(snapshot)
check resizer_ratio_from_crop_max "$RSZ" 1 \
	"UYVY8_1X16/$(clamp $((400 * 4)) 32 4096)x$(clamp $((300 * 4)) 32 4096)"

# Video nodes: ENUM_FMT and TRY_FMT offer what the pad at the other end can
# ever carry, not what it has now (the CCDC sink is raw 10-bit here).
fourccs() { # ENTITY: the pixel formats its video node enumerates
	v4l2-ctl -d "$(media-ctl -e "$1")" --list-formats | grep -o "'[A-Z0-9 ]*'" | tr -d "'" | sort | tr '\n' ' '
}
check_list() { # NAME GOT EXPECTED
	if [ "$2" = "$3" ]; then
		ktap_result 1 "$1"
	else
		ktap_result 0 "$1" "got '$2', expected '$3'"
	fi
}
check_list preview_output_offers_yuv "$(fourccs 'OMAP3 ISP preview output')" "UYVY YUYV "
# the output formatter writes 10 or 8-bit Bayer, or passes YUV through
check_list ccdc_output_offers_raw_and_yuv "$(fourccs 'OMAP3 ISP CCDC output')" "BA10 GRBG UYVY YUYV "
check_list csi2a_output_offers_raw "$(fourccs 'OMAP3 ISP CSI2a output')" "BA10 GRBG "
tried=$(/usr/lib/n900/tests/try-fmt "$(media-ctl -e 'OMAP3 ISP CSI2a output')" YUYV 640 480)
check_list csi2a_output_try_adjusts_yuv_to_raw "$tried" "BA10 640x480"
