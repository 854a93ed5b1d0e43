#!/bin/sh
# Frames through every path, bit-exact: for each case of
# /etc/n900/frames.spec (tests/data/frames.spec), set the baseline controls,
# reset the links, configure the path, capture 8 frames (capture.c checks
# sequence numbers and payloads), and compare each frame's MD5 with the one
# the host reference model computed (/etc/n900/frames.expected: one for the
# case, or one a sequence number when the frames differ, as with sensor
# noise, whose generator is keyed by the buffer's sequence number). A "stats"
# case does the same with the buffers of a statistics (metadata) node. One
# KTAP result per case. "frames.sh FIRST LAST" runs only cases FIRST to
# LAST (1-based), so that the test guests can share them.
#
# For ctrl-coverage (tests/guest/ctrl-coverage.c): N900_FRAMES frames per
# capture instead of 8; with N900_FRAMES_SET, lines of "ENTITY CTRL=DEFAULT
# CTRL=VALUE", once a capture has given the reference model's frames, for
# each line: set the control to its default and capture again, each frame
# must then differ from the model's frame of the case, and set it back to
# the case's VALUE; then one more capture must give the model's frames
# again, and only then are the lines' verdicts printed ("# ctrl-set K ok"
# for line K). Only the case's first capture does this (a "capture&"
# node alongside it is not captured again).
T=/usr/lib/n900/tests
SPEC=/etc/n900/frames.spec
EXPECTED=/etc/n900/frames.expected
FRAMES=${N900_FRAMES:-8}
differ=
cur_set=
sets_done=
# shellcheck source=tests/guest/lib/ktap.sh
. /usr/lib/n900/tests/lib/ktap.sh

# node ENTITY: the device node of an entity, from one media-ctl -p
# (/tmp/nodes: "NAME<tab>NODE" a line), else looked up alone
media-ctl -p 2>/dev/null | awk '
/^- entity [0-9]+: / {
	name = $0
	sub(/^- entity [0-9]+: /, "", name)
	sub(/ \([0-9]+ pads?, .*$/, "", name)
}
/^[ \t]+device node name / { printf "%s\t%s\n", name, $NF }' >/tmp/nodes
node() {
	while IFS= read -r nl; do
		[ "${nl%	*}" != "$1" ] || { echo "${nl##*	}"; return; }
	done </tmp/nodes
	nd=$(media-ctl -e "$1") || return
	printf '%s\t%s\n' "$1" "$nd" >>/tmp/nodes
	echo "$nd"
}
# The case's "media-ctl -r", its "link" and its "fmt" lines, run as one
# media-ctl (each media-ctl enumerates the whole graph first, 1-2 s in the
# debug guest): gathered, and run before anything else of the case, or
# before a link that follows formats (media-ctl sets links before formats).
mc_reset='' mc_links='' mc_fmts=''
mc_flush() {
	[ -n "$mc_reset$mc_links$mc_fmts" ] || return 0
	set --
	[ -z "$mc_reset" ] || set -- -r
	[ -z "$mc_links" ] || set -- "$@" -l "$mc_links"
	[ -z "$mc_fmts" ] || set -- "$@" -V "$mc_fmts"
	if [ -z "$err" ] && ! out=$(media-ctl "$@" 2>&1); then
		err="media-ctl $*: $out"
	fi
	mc_reset='' mc_links='' mc_fmts=''
}
# set_ctrls "ENTITY CTRLS": the last word is the control list
set_ctrls() {
	ctrls=${1##* }
	ent=${1% *}
	v4l2-ctl -d "$(node "$ent")" --set-ctrl "$ctrls" 2>&1
}

total=$(grep -c '^case ' $SPEC)
first=${1:-1}
last=${2:-$total}
[ "$last" -le "$total" ] || last=$total
ktap_plan $((last - first + 1))
k=0
name=
err=
t0=0
# the baseline, "DEVICE CTRLS" a line: the nodes looked up once
baseline=$(sed -n 's/^baseline //p' $SPEC | while IFS= read -r b; do
	echo "$(node "${b% *}") ${b##* }"
done)

finish() { # report the case that ends here, and the time it took
	[ -n "$name" ] || return 0
	[ -z "$skip" ] || return 0
	mc_flush	# links and formats after the case's last capture
	echo "# $name: $(awk -v t0="$t0" '{ printf "%.1f", $1 - t0 }' /proc/uptime) s"
	if [ -z "$err" ]; then
		ktap_result 1 "frames.$name"
	else
		ktap_result 0 "frames.$name" "$err"
	fi
}

# "capture& ENTITY W H FOURCC": set the format and start capturing in the
# background; the next "capture" runs alongside it, then this one is
# checked against the case's "ref&" frame.
bg_pid=
capture_bg() {
	if setfmt "$1"; then
		"$T/capture" "$dev" "$FRAMES" /tmp/frames-bg.bin >/tmp/frames-bg.log &
		bg_pid=$!
	fi
}

check_bg() {
	[ -n "$bg_pid" ] || return 0
	if ! wait $bg_pid; then
		err="background capture: $(tail -n 1 /tmp/frames-bg.log)"
	elif [ -z "$err" ]; then
		mv /tmp/frames-bg.bin /tmp/frames.bin
		check "$name&" "$(cat /tmp/frames-bg.log)"
	fi
	bg_pid=
	rm -f /tmp/frames-bg.bin /tmp/frames-bg.log /tmp/frames.bin
}

setfmt() { # ENTITY W H FOURCC [out]: sets dev, or err
	fourcc=${1##* }
	ent=${1% *}
	h=${ent##* }
	ent=${ent% *}
	w=${ent##* }
	ent=${ent% *}
	dev=$(node "$ent")
	out=$(v4l2-ctl -d "$dev" --set-fmt-video${2:+-out}="width=$w,height=$h,pixelformat=$fourcc" 2>&1)
	if echo "$out" | grep -qiE 'failed|error|returned -1'; then
		err="set format: $out"
		return 1
	fi
}

capture() { # ENTITY W H FOURCC
	setfmt "$1" && grab "$dev"
}

# "param MODULE NAME VALUE": a module parameter for this case, put back to
# its value before when the case ends (restore_params)
params=
param() {
	# shellcheck disable=SC2086 # MODULE NAME VALUE, split
	set -- $1
	p=/sys/module/$1/parameters/$2
	if [ ! -w "$p" ]; then
		err="param: no writable $p"
		return
	fi
	params="$params $p=$(cat "$p")"
	echo "$3" >"$p" 2>/dev/null || err="param: cannot set $p to $3"
}
restore_params() {
	for pv in $params; do
		echo "${pv#*=}" >"${pv%%=*}"
	done
	params=
}

# "feed ENTITY W H FOURCC FILE": the next capture is memory-to-memory, from
# the memory input node ENTITY, every input buffer holding /etc/n900/FILE
feed=
feed() {
	file=${1##* }
	if setfmt "${1% *}" out; then
		feed="$dev /etc/n900/$file"
	fi
}

grab() { # DEVICE: capture, and compare every frame with the model's
	# shellcheck disable=SC2086 # $feed is the input node and its file
	if ! log=$("$T/capture" "$1" "$FRAMES" /tmp/frames.bin $feed); then
		err="capture: $(echo "$log" | tail -n 1)"
		return
	fi
	check "$name" "$log"
	check_bg
	# the controls' lines once a case (its first capture; not for "capture&")
	[ -n "${N900_FRAMES_SET:-}" ] && [ -z "$err" ] && [ -z "$sets_done" ] ||
		return 0
	sets_done=1
	# each line "ENTITY CTRL=DEFAULT CTRL=VALUE": the control at its
	# default, the frames must change; then back at the case's value
	nset=0 nbad=0 verdicts=
	while IFS= read -r cur_set; do
		[ -n "$cur_set" ] || continue
		nset=$((nset + 1))
		back=${cur_set##* }
		cur_set=${cur_set% *}
		out=$(set_ctrls "$cur_set")
		[ -z "$out" ] || err="set-ctrl $cur_set: $out"
		# shellcheck disable=SC2086 # $feed is the input node and its file
		if [ -z "$err" ] &&
			! log=$("$T/capture" "$1" "$FRAMES" /tmp/frames.bin $feed); then
			err="capture: $(echo "$log" | tail -n 1)"
		elif [ -z "$err" ]; then
			differ=1
			check "$name" "$log"
			differ=
		fi
		out=$(set_ctrls "${cur_set% *} $back")
		# left at its default, it would change the next ones' frames
		[ -z "$out" ] || err="${err:+$err; }set-ctrl back ${cur_set% *} $back: $out"
		if [ -z "$err" ]; then
			verdicts="$verdicts# ctrl-set $nset ok: $cur_set changes the frames
"
		else
			verdicts="$verdicts# ctrl-set $nset not ok: $err
"
			nbad=$((nbad + 1))
		fi
		[ -z "$out" ] || break
		err=
	done <<EOF
$N900_FRAMES_SET
EOF
	# every control back at the case's value: the reference frames again,
	# else no control's verdict holds (each fails for want of its line)
	cur_set=
	# shellcheck disable=SC2086 # $feed is the input node and its file
	if [ -z "$err" ] &&
		! log=$("$T/capture" "$1" "$FRAMES" /tmp/frames.bin $feed); then
		err="capture: $(echo "$log" | tail -n 1)"
	elif [ -z "$err" ]; then
		check "$name" "$log"
	fi
	if [ -n "$err" ]; then
		err="not the reference frames once the controls were put back: $err"
		return
	fi
	printf '%s' "$verdicts"
	[ "$nbad" = 0 ] || err="$nbad of $nset controls at their default did not change the frames"
}

check() { # EXPECTED-NAME CAPTURE-LOG: the frames in /tmp/frames.bin
	cname=$1
	log=$2
	size=$(($(wc -c </tmp/frames.bin) / FRAMES))
	# one MD5, or one a frame (noise): the model's frame N is the buffer
	# of sequence number N
	wants=$(sed -n "s/^$cname //p" $EXPECTED)
	# shellcheck disable=SC2086 # one MD5 a word
	set -- $wants
	nwant=$#
	# the frames' sequence numbers, in capture's order ("frame N sequence S")
	seqs=$(echo "$log" | sed -n 's/^frame [0-9]* sequence \([0-9]*\) .*/\1/p' | tr '\n' ' ')
	seq_range="${seqs%% *}..$(echo "$seqs" | awk '{ print $NF }')"
	# every frame's MD5 in one md5sum: the frames cut into files first
	files=
	f=0
	while [ $f -lt "$FRAMES" ] && [ "$size" -gt 0 ]; do
		dd if=/tmp/frames.bin of=/tmp/frame.$f bs="$size" skip=$f count=1 2>/dev/null
		files="$files /tmp/frame.$f"
		f=$((f + 1))
	done
	rm -f /tmp/frames.bin	# the guest's /tmp is its RAM
	sums=
	if [ -n "$files" ]; then
		# shellcheck disable=SC2086 # one file a word
		sums=$(md5sum $files | cut -d' ' -f1)
		# shellcheck disable=SC2086
		rm -f $files
	fi
	[ -n "$sums" ] || err="frames: no data to compare ($size bytes a frame)"
	f=0
	seq=
	for got in $sums; do
		[ $f -lt "$FRAMES" ] || break
		want=$wants
		if [ "$nwant" -gt 1 ]; then
			seq=${seqs%% *}
			seqs=${seqs#* }
			want=
			[ -z "$seq" ] || [ "$seq" -ge "$nwant" ] ||
				eval "want=\${$((seq + 1))}"
		fi
		if [ -n "$differ" ]; then
			if [ -z "$want" ] || [ "$got" = "$want" ]; then
				err="frame $f${seq:+ (sequence $seq)}: md5 $got, with $cur_set still the reference model's ${want:-(none)} of the case"
				break
			fi
			echo "# frame $f: md5 $got, with $cur_set, not the model's of the case"
		elif [ "$got" != "$want" ]; then
			err="frame $f${seq:+ (sequence $seq)}: md5 $got, the reference model's ${want:-(none for this sequence number)}"
			break
		fi
		f=$((f + 1))
	done
	[ -n "$err" ] || [ $f -ge "$FRAMES" ] || err="$f frames of $size bytes, not $FRAMES"
	echo "# $cname: $FRAMES frames of $size bytes, sequence $seq_range, md5 ${1:-(none)}$([ "$nwant" -le 1 ] || echo " ... ($nwant, one a frame)")"
	rm -f /tmp/frames.bin
}

while IFS= read -r line; do
	case $line in
	"case "*)
		finish
		restore_params
		name=${line#case }
		err=
		sets_done=
		k=$((k + 1))
		skip=
		feed=
		if [ $k -lt "$first" ] || [ $k -gt "$last" ]; then
			skip=1
			continue
		fi
		t0=$(cut -d' ' -f1 /proc/uptime)
		echo "$baseline" | while read -r bdev bctrls; do
			v4l2-ctl -d "$bdev" --set-ctrl "$bctrls" >/dev/null 2>&1
		done
		mc_reset=1
		;;
	*) [ -z "$skip" ] || continue ;;
	esac
	case $line in
	"ctrl "* | "capture"* | "feed "* | "stats "* | "param "*) mc_flush ;;
	esac
	case $line in
	"link "*)
		[ -z "$mc_fmts" ] || mc_flush
		mc_links="${mc_links:+$mc_links, }${line#link }"
		;;
	"fmt "*)
		mc_fmts="${mc_fmts:+$mc_fmts, }${line#fmt }"
		;;
	"ctrl "*)
		out=$(set_ctrls "${line#ctrl }")
		[ -z "$out" ] || err="set-ctrl ${line#ctrl }: $out"
		;;
	"capture& "*)
		[ -n "$err" ] || capture_bg "${line#capture& }"
		;;
	"capture "*)
		[ -n "$err" ] || capture "${line#capture }"
		;;
	"feed "*)
		[ -n "$err" ] || feed "${line#feed }"
		;;
	"stats "*)
		[ -n "$err" ] || grab "$(node "${line#stats }")"
		;;
	"param "*)
		[ -n "$err" ] || param "${line#param }"
		;;
	esac
done <$SPEC
finish
restore_params
