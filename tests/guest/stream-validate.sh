#!/bin/sh
# STREAMON validates the pipeline: a format mismatch on any enabled link,
# including the video node's own, fails with EPIPE; a consistent raw
# pipeline starts and delivers frames, and while it streams its links
# cannot change (EBUSY; stream-busy). One KTAP document.
S='"et8ek8 3-003e"'
CCDC='"OMAP3 ISP CCDC"'
F=SGRBG10_1X10/1296x984
# shellcheck source=tests/guest/lib/ktap.sh
. /usr/lib/n900/tests/lib/ktap.sh

streamon() { # prints the errno text STREAMON failed with, or "started"
	# v4l2-ctl exits 0 even when STREAMON fails: read what it printed
	out=$(v4l2-ctl -d "$dev" --stream-mmap --stream-count=1 2>&1)
	case $out in
	*"Broken pipe"*) echo EPIPE ;;
	*"Operation not supported"*) echo EOPNOTSUPP ;;
	"<"*) echo started ;;
	*) echo "other: $(echo "$out" | tail -n 1)" ;;
	esac
}
check() { # NAME WANT GOT
	if [ "$2" = "$3" ]; then
		ktap_result 1 "$1"
	else
		ktap_result 0 "$1" "STREAMON gave $3, expected $2"
	fi
}

ktap_plan 8
media-ctl -r
media-ctl -l "$S:0 -> \"video-bus-switch\":0 [1], \"video-bus-switch\":2 -> \"OMAP3 ISP CCP2\":0 [1]"
media-ctl -l "\"OMAP3 ISP CCP2\":1 -> $CCDC:0 [1], $CCDC:2 -> \"OMAP3 ISP CCDC output\":0 [1]"
media-ctl -V "$S:0 [fmt:$F], \"video-bus-switch\":2 [fmt:$F], \"OMAP3 ISP CCP2\":1 [fmt:$F], $CCDC:1 [fmt:$F], $CCDC:2 [fmt:$F]"
dev=$(media-ctl -e 'OMAP3 ISP CCDC output')
v4l2-ctl -d "$dev" --set-fmt-video=width=1296,height=984,pixelformat=BA10

check consistent_raw_pipeline_streams started "$(streamon)"

media-ctl -V "$CCDC:0 [fmt:SGRBG10_1X10/640x480]"
check subdev_link_mismatch_epipe EPIPE "$(streamon)"

media-ctl -V "$CCDC:0 [fmt:$F], $CCDC:2 [fmt:$F]"
v4l2-ctl -d "$dev" --set-fmt-video=width=640,height=480,pixelformat=BA10
check video_node_mismatch_epipe EPIPE "$(streamon)"

# a format the node offers (ENUM_FMT does not follow the pipeline), at the
# pad's size but not its code: the mismatch shows at STREAMON
v4l2-ctl -d "$dev" --set-fmt-video=width=1296,height=984,pixelformat=UYVY
fmt=$(v4l2-ctl -d "$dev" --get-fmt-video | sed -n \
	-e "s/.*Width\/Height *: *\([0-9]*\/[0-9]*\).*/\1/p" \
	-e "s/.*Pixel Format *: *'\([A-Z0-9 ]*\)'.*/\1/p" | tr '\n' ' ')
if [ "$fmt" = "1296/984 UYVY " ]; then
	check video_node_code_mismatch_epipe EPIPE "$(streamon)"
else
	ktap_result 0 video_node_code_mismatch_epipe \
		"the node did not take 1296x984 UYVY, it has: $fmt"
fi

media-ctl -V "$CCDC:0 [fmt:$F], $CCDC:2 [fmt:$F]"
v4l2-ctl -d "$dev" --set-fmt-video=width=1296,height=984,pixelformat=BA10
# results 5 to 8
/usr/lib/n900/tests/stream-busy $((KTAP_COUNT + 1)) /dev/media0 "OMAP3 ISP CCDC output" \
	"OMAP3 ISP CCP2:1>OMAP3 ISP CCDC:0" "OMAP3 ISP CCDC:1>OMAP3 ISP lens shading:0"
