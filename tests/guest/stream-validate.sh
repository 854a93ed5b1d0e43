#!/bin/sh
# STREAMON validates the pipeline: a format mismatch on any enabled link,
# including the video node's own, fails with EPIPE; a consistent raw
# pipeline starts and delivers frames, and while it streams its links
# cannot change (EBUSY; stream-busy). One KTAP document.
S='"et8ek8 3-003e"'
CCDC='"OMAP3 ISP CCDC"'
F=SGRBG10_1X10/1296x984

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
check() { # N NAME WANT GOT
	if [ "$3" = "$4" ]; then
		echo "ok $1 $2"
	else
		echo "# STREAMON gave $4, expected $3"
		echo "not ok $1 $2"
	fi
}

echo "KTAP version 1"
echo "1..7"
media-ctl -r
media-ctl -l "$S:0 -> \"video-bus-switch\":0 [1], \"video-bus-switch\":2 -> \"OMAP3 ISP CCP2\":0 [1]"
media-ctl -l "\"OMAP3 ISP CCP2\":1 -> $CCDC:0 [1], $CCDC:2 -> \"OMAP3 ISP CCDC output\":0 [1]"
media-ctl -V "$S:0 [fmt:$F], \"video-bus-switch\":2 [fmt:$F], \"OMAP3 ISP CCP2\":1 [fmt:$F], $CCDC:1 [fmt:$F], $CCDC:2 [fmt:$F]"
dev=$(media-ctl -e 'OMAP3 ISP CCDC output')
v4l2-ctl -d "$dev" --set-fmt-video=width=1296,height=984,pixelformat=BA10

check 1 consistent_raw_pipeline_streams started "$(streamon)"

media-ctl -V "$CCDC:0 [fmt:SGRBG10_1X10/640x480]"
check 2 subdev_link_mismatch_epipe EPIPE "$(streamon)"

media-ctl -V "$CCDC:0 [fmt:$F], $CCDC:2 [fmt:$F]"
v4l2-ctl -d "$dev" --set-fmt-video=width=640,height=480,pixelformat=BA10
check 3 video_node_mismatch_epipe EPIPE "$(streamon)"

media-ctl -V "$CCDC:0 [fmt:$F], $CCDC:2 [fmt:$F]"
v4l2-ctl -d "$dev" --set-fmt-video=width=1296,height=984,pixelformat=BA10
/usr/lib/n900/tests/stream-busy 4 /dev/media0 "OMAP3 ISP CCDC output" \
	"OMAP3 ISP CCP2:1>OMAP3 ISP CCDC:0" "OMAP3 ISP CCDC:1>OMAP3 ISP lens shading:0"
