#!/bin/sh
# capture-paths.sh OUTDIR: one frame from each main path of the N900
# camera into OUTDIR/frames/NAME.raw, with NAME.info ("WIDTH HEIGHT FORMAT",
# FORMAT as ImageMagick names it: uyvy or gray). The host turns them into
# PNG pictures (build.sh render_frames). Paths:
#   resizer  et8ek8 1296x984 -> ... -> preview -> resizer 640x480 UYVY
#   preview  et8ek8 648x492 -> ... -> preview output, UYVY
#   raw      et8ek8 648x492 -> CCP2 -> CCDC output, 8-bit Bayer (GRBG)
#   front    vs6555 640x480 -> ... -> preview -> resizer, UYVY
# Prints one line per path; exits non-zero if a path gives no frame.
set -u
# the N900 topology only (not a generated stress topology or your own)
media-ctl -p 2>/dev/null | grep -q 'OMAP3 ISP resizer output' || exit 0
out=$1/frames
mkdir -p "$out"
S='"et8ek8 3-003e"'
V='"vs6555 2-0010"'
SW='"video-bus-switch"'
CCP2='"OMAP3 ISP CCP2"'
CCDC='"OMAP3 ISP CCDC"'
LSC='"OMAP3 ISP lens shading"'
WB='"OMAP3 ISP white balance"'
PRV='"OMAP3 ISP preview"'
RSZ='"OMAP3 ISP resizer"'
rc=0

# path SENSOR SWITCH_PAD WxH [processed]: links from the sensor through the
# switch, CCP2 and CCDC (and, with "processed", lens shading, white
# balance and preview); then the formats, in pipeline order, so that
# media-ctl carries each source pad's format over to the next sink pad.
# Lens shading on and the white balance gains of the scene.
path() {
	f=SGRBG10_1X10/$3
	media-ctl -r
	media-ctl -l "$1:0 -> $SW:$2 [1], $SW:2 -> $CCP2:0 [1], $CCP2:1 -> $CCDC:0 [1]"
	[ "${4:-}" != processed ] ||
		media-ctl -l "$CCDC:1 -> $LSC:0 [1], $WB:1 -> $PRV:0 [1]"
	media-ctl -V "$1:0 [fmt:$f], $SW:2 [fmt:$f], $CCP2:1 [fmt:$f], $CCDC:1 [fmt:$f], $CCDC:2 [fmt:$f]"
	[ "${4:-}" = processed ] || return 0
	media-ctl -V "$LSC:1 [fmt:$f], $WB:1 [fmt:$f], $PRV:1 [fmt:UYVY8_1X16/$3]"
	v4l2-ctl -d "$(media-ctl -e 'OMAP3 ISP lens shading')" --set-ctrl lens_shading_correction=1
	v4l2-ctl -d "$(media-ctl -e 'OMAP3 ISP white balance')" \
		--set-ctrl white_balance_gain_r=44,white_balance_gain_b=40
}

# grab NAME NODE W H V4L2_FOURCC MAGICK_FORMAT
grab() {
	dev=$(media-ctl -e "$2")
	v4l2-ctl -d "$dev" --set-fmt-video="width=$3,height=$4,pixelformat=$5" &&
		v4l2-ctl -d "$dev" --stream-mmap --stream-count=1 --stream-to="$out/$1.raw"
	if [ -s "$out/$1.raw" ]; then
		echo "$3 $4 $6" >"$out/$1.info"
		echo "capture-paths: $1: $3x$4 $5 from $2"
	else
		echo "capture-paths: $1: no frame from $2"
		rc=1
	fi
}

v4l2-ctl -d "$(media-ctl -e 'ad5820 3-000c')" --set-ctrl focus_absolute=512

path "$S" 0 1296x984 processed
media-ctl -l "$PRV:1 -> $RSZ:0 [1], $RSZ:1 -> \"OMAP3 ISP resizer output\":0 [1]"
media-ctl -V "$PRV:1 [fmt:UYVY8_1X16/1296x984], $RSZ:1 [fmt:UYVY8_1X16/640x480]"
grab resizer 'OMAP3 ISP resizer output' 640 480 UYVY uyvy

path "$S" 0 648x492 processed
media-ctl -l "$PRV:1 -> \"OMAP3 ISP preview output\":0 [1]"
grab preview 'OMAP3 ISP preview output' 648 492 UYVY uyvy

path "$S" 0 648x492
media-ctl -l "$CCDC:2 -> \"OMAP3 ISP CCDC output\":0 [1]"
media-ctl -V "$CCDC:2 [fmt:SGRBG8_1X8/648x492]"
grab raw 'OMAP3 ISP CCDC output' 648 492 GRBG gray

path "$V" 1 640x480 processed
media-ctl -l "$PRV:1 -> $RSZ:0 [1], $RSZ:1 -> \"OMAP3 ISP resizer output\":0 [1]"
media-ctl -V "$PRV:1 [fmt:UYVY8_1X16/640x480], $RSZ:1 [fmt:UYVY8_1X16/640x480]"
grab front 'OMAP3 ISP resizer output' 640 480 UYVY uyvy

media-ctl -r
exit $rc
