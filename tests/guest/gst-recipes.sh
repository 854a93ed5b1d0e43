#!/bin/sh
# README's GStreamer recipes (the gst-recipes:begin block, which build.sh
# extracts to /etc/n900/gst-recipes), run verbatim, one KTAP result per
# command; then what v4l2src delivered, bit for bit, against the host
# reference model. Each recipe writes /tmp/gst-NAME-%d.EXT: its frames as
# v4l2src gave them (raw Bayer, or a tee branch before any conversion), and
# PNGs for the YUV paths. Case gst_NAME of /etc/n900/frames.spec has the
# same configuration; build.sh computed its frame's MD5 with the model
# (/etc/n900/frames.expected). For every such case:
#   gst_frames.NAME  the recipe wrote as many frames as its num-buffers,
#                    each the model's frame
#   gst_png.NAME     as many PNGs, each a whole PNG (signature, IHDR,
#                    IEND) of the case's width and height, and each one
#                    decoded by GStreamer's pngdec to a picture of that
#                    size (caps fixed to it: another fails to negotiate)
# and a pipeline whose caps do not match it must fail cleanly:
#   mismatched_caps_fail_cleanly  caps of twice the pipeline's size:
#                    gst-launch-1.0 exits non-zero within GST_FAIL_TIMEOUT
#                    seconds, v4l2src reporting an error because
#                    STREAMON failed with EPIPE
#   no_caps_fail_cleanly          the same with no caps at all
# The controls are set to frames.spec's baseline first (the model's).
# shellcheck source=tests/guest/lib/ktap.sh
. /usr/lib/n900/tests/lib/ktap.sh
recipes=${1:-/etc/n900/gst-recipes}
SPEC=/etc/n900/frames.spec
EXPECTED=/etc/n900/frames.expected
# a recipe's command, at most (GStreamer on the debug kernel under TCG is
# slow, but not that slow)
TIMEOUT=${N900_GST_TIMEOUT:-600}
# a pipeline that cannot start must say so well within this
GST_FAIL_TIMEOUT=60
cd /tmp || exit 1
t0=$(cut -d' ' -f1 /proc/uptime)

if [ ! -r "$recipes" ]; then
	ktap_plan 1
	ktap_result 0 "gst_recipes # $recipes missing"
	exit 1
fi
grep -v -e '^#' -e '^[[:space:]]*$' "$recipes" >/tmp/gst-recipes.txt
sed -n 's/^case \(gst_.*\)/\1/p' $SPEC >/tmp/gst-cases.txt
ktap_plan $(($(wc -l </tmp/gst-recipes.txt) + 2 * $(wc -l </tmp/gst-cases.txt) + 2))

node() { media-ctl -e "$1"; }
uptime_s() { cut -d' ' -f1 /proc/uptime; }
# elapsed T0: seconds since uptime T0, to 0.1 s
elapsed() { awk -v a="$1" -v b="$(uptime_s)" 'BEGIN { printf "%.1f", b - a }'; }

sed -n 's/^baseline //p' $SPEC >/tmp/gst-baseline.txt
while IFS= read -r b; do
	v4l2-ctl -d "$(node "${b% *}")" --set-ctrl "${b##* }"
done </tmp/gst-baseline.txt
rm -f /tmp/gst-*-[0-9]*.*

# the recipes, in order, each command under a timeout
while IFS= read -r cmd; do
	t=$(uptime_s)
	out=$(timeout "$TIMEOUT" sh -c "$cmd" 2>&1 </dev/null)
	rc=$?
	# v4l2-ctl exits 0 after some failed ioctls; it reports them, though
	if [ $rc -eq 0 ] && echo "$out" | grep -qE 'returned -1|failed|ERROR|[Ee]rror'; then
		rc=1
	fi
	echo "$out" | tail -n 5 | sed 's/^/# /'
	case $cmd in gst-launch-1.0*) echo "# took $(elapsed "$t") s" ;; esac
	if [ $rc -eq 0 ]; then
		ktap_result 1 "gst_recipe: $cmd"
	else
		ktap_result 0 "gst_recipe: $cmd # exit $rc"
	fi
done </tmp/gst-recipes.txt

# png_size FILE: "WIDTH HEIGHT" from the IHDR of a whole PNG file (its
# signature, IHDR first, IEND last); fails on anything else
png_size() {
	# shellcheck disable=SC2046 # the bytes are words
	set -- $(od -An -tu1 -N24 "$1") "$(tail -c 12 "$1" | od -An -tx1 | tr -s ' \n' ' ')"
	[ $# -eq 25 ] &&
		[ "$1 $2 $3 $4 $5 $6 $7 $8" = "137 80 78 71 13 10 26 10" ] &&
		[ "${13} ${14} ${15} ${16}" = "73 72 68 82" ] &&
		[ "${25}" = " 00 00 00 00 49 45 4e 44 ae 42 60 82 " ] || return 1
	echo "$(((${17} << 24) | (${18} << 16) | (${19} << 8) | ${20})) $(((${21} << 24) | (${22} << 16) | (${23} << 8) | ${24}))"
}

# png_decode NAME N W H: GStreamer's pngdec decodes /tmp/gst-NAME-0.png to
# -(N-1).png, each to a W x H picture (caps fixed to that size: any other
# fails to negotiate), one output file each; prints what went wrong, if
# anything
png_decode() {
	rm -f /tmp/gst-dec-*
	out=$(timeout "$GST_FAIL_TIMEOUT" gst-launch-1.0 -q multifilesrc \
		location="/tmp/gst-$1-%d.png" index=0 stop-index=$(($2 - 1)) \
		caps=image/png ! pngdec ! "video/x-raw,width=$3,height=$4" ! \
		multifilesink location=/tmp/gst-dec-%d.raw 2>&1)
	rc=$?
	got=$(find /tmp -maxdepth 1 -name 'gst-dec-*.raw' | wc -l)
	rm -f /tmp/gst-dec-*
	if [ $rc -ne 0 ]; then
		echo "pngdec to ${3}x$4: exit $rc: $(echo "$out" | grep -i error | head -n 1); $(echo "$out" | grep -o 'reason [a-z-]*' | head -n 1)"
	elif [ "$got" != "$2" ]; then
		echo "pngdec to ${3}x$4: $got pictures of $2 PNGs"
	fi
}

# case_lines CASE: the lines of frames.spec case CASE
case_lines() { sed -n "/^case $1\$/,/^case /p" $SPEC | sed '1d;/^case /d'; }
# case_capture CASE: its capture line, "ENTITY W H FOURCC"
case_capture() { case_lines "$1" | sed -n 's/^capture //p' | head -n 1; }
# case_size CASE: "W H" of its capture
case_size() { case_capture "$1" | awk '{ print $(NF - 2), $(NF - 1) }'; }

while IFS= read -r c; do
	name=${c#gst_}
	want=$(sed -n "s/^$c //p" $EXPECTED)
	# the recipe that writes this case's files, and how many frames
	line=$(grep "location=/tmp/gst-$name-" /tmp/gst-recipes.txt | head -n 1)
	n=$(echo "$line" | sed -n 's/.*num-buffers=\([0-9]*\).*/\1/p')
	# the frames: every file the recipe wrote but the PNGs
	err=
	: >/tmp/gst-files.txt
	: >/tmp/gst-png.txt
	for f in /tmp/gst-"$name"-[0-9]*.*; do
		[ -e "$f" ] || continue
		case $f in
		*.png) echo "$f" >>/tmp/gst-png.txt ;;
		*) echo "$f" >>/tmp/gst-files.txt ;;
		esac
	done
	got=$(wc -l </tmp/gst-files.txt)
	if [ -z "$line" ] || [ -z "$n" ]; then
		err="no recipe writes /tmp/gst-$name-%d.* with a num-buffers"
	elif [ -z "$want" ]; then
		err="no reference frame for case $c in $EXPECTED"
	elif [ "$got" != "$n" ]; then
		err="$got frame files, the recipe's num-buffers is $n"
	fi
	while [ -z "$err" ] && IFS= read -r f; do
		md5=$(md5sum "$f" | cut -d' ' -f1)
		if [ "$md5" != "$want" ]; then
			err="$f ($(wc -c <"$f") bytes): md5 $md5, the reference model's $want"
		fi
	done </tmp/gst-files.txt
	if [ -z "$err" ]; then
		ktap_result 1 "gst_frames.$name" "$n frames, each the model's frame (md5 $want)"
	else
		ktap_result 0 "gst_frames.$name" "$err"
	fi

	# the PNGs, of the case's size (its capture line: ENTITY W H FOURCC)
	size=$(case_size "$c")
	got=$(wc -l </tmp/gst-png.txt)
	if [ "$got" = 0 ] && ! echo "$line" | grep -q pngenc; then
		ktap_skip "gst_png.$name" "the recipe writes no PNG (pngenc takes no Bayer)"
		continue
	fi
	err=
	[ "$got" = "$n" ] || err="$got PNG files, the recipe's num-buffers is $n"
	while [ -z "$err" ] && IFS= read -r f; do
		s=$(png_size "$f") || { err="$f is not a whole PNG file"; break; }
		[ "$s" = "$size" ] || err="$f is ${s% *}x${s#* }, the pipeline's size is ${size% *}x${size#* }"
	done </tmp/gst-png.txt
	if [ -z "$err" ]; then
		t=$(uptime_s)
		err=$(png_decode "$name" "$n" "${size% *}" "${size#* }")
		echo "# pngdec of $n PNGs took $(elapsed "$t") s"
	fi
	if [ -z "$err" ]; then
		ktap_result 1 "gst_png.$name" "$n PNGs of ${size% *}x${size#* }, each decoded by pngdec"
	else
		ktap_result 0 "gst_png.$name" "$err"
	fi
done </tmp/gst-cases.txt

# fail_cleanly NAME CAPS: the last case's pipeline, v4l2src with CAPS
# ("" for none): gst-launch-1.0 must exit non-zero within GST_FAIL_TIMEOUT
# seconds, v4l2src posting an error because VIDIOC_STREAMON failed with
# EPIPE (GST_DEBUG shows v4l2src's own log of the ioctl's errno)
fail_cleanly() {
	t=$(uptime_s)
	# shellcheck disable=SC2086 # CAPS is one word, or none
	out=$(GST_DEBUG='v4l2*:1' GST_DEBUG_NO_COLOR=1 timeout $GST_FAIL_TIMEOUT \
		gst-launch-1.0 v4l2src device="$dev" num-buffers=1 ${2:+! "$2"} ! fakesink 2>&1)
	rc=$?
	took=$(elapsed "$t")
	echo "$out" | grep -v '^[[:space:]]*$' | sed 's/^/# /'
	what="caps ${2:-(none)} on a pipeline of ${size% *}x${size#* }"
	if [ $rc -eq 0 ]; then
		ktap_result 0 "$1" "$what: exit 0 after $took s"
	elif awk -v a="$took" -v b=$GST_FAIL_TIMEOUT 'BEGIN { exit !(a >= b - 1) }'; then
		ktap_result 0 "$1" "$what: still running after $took s, killed (exit $rc)"
	elif ! echo "$out" | grep -q 'ERROR: from element .*GstV4l2Src'; then
		ktap_result 0 "$1" "$what: exit $rc after $took s, but no error from v4l2src"
	elif ! echo "$out" | grep -q 'error with STREAMON 32 '; then
		ktap_result 0 "$1" "$what: exit $rc after $took s, but not for STREAMON's EPIPE (32)"
	else
		ktap_result 1 "$1" "$what: exit $rc after $took s: STREAMON's EPIPE, reported by v4l2src"
	fi
}

# the pipeline of the last case (the resizer), at its size; caps of twice
# that size, then none
c=$(tail -n 1 /tmp/gst-cases.txt)
size=$(case_size "$c")
media-ctl -r
case_lines "$c" >/tmp/gst-case.txt
while IFS= read -r l; do
	case $l in
	"link "*) media-ctl -l "${l#link }" ;;
	"fmt "*) media-ctl -V "${l#fmt }" ;;
	esac
done </tmp/gst-case.txt
dev=$(node "$(case_capture "$c" | sed 's/ [^ ]* [^ ]* [^ ]*$//')")
fmt=$(sed -n 's/.*format=\([A-Za-z0-9]*\),width=.*/\1/p' /tmp/gst-recipes.txt | tail -n 1)
fail_cleanly mismatched_caps_fail_cleanly \
	"video/x-raw,format=$fmt,width=$((${size% *} * 2)),height=$((${size#* } * 2))"
fail_cleanly no_caps_fail_cleanly ""
rm -f /tmp/gst-*
echo "# gst-recipes.sh took $(elapsed "$t0") s"
