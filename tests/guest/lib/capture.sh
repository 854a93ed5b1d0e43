# shellcheck shell=sh
# For the guest suites that capture in the background
# (tests/guest/capture.c logs a "frame ..." line a buffer). Installed in
# the guest as /usr/lib/n900/tests/lib/capture.sh:
#
#	. /usr/lib/n900/tests/lib/capture.sh
#	"$T/capture" "$dev" 1000000 /dev/null >"$LOG" 2>&1 &
#	wait_frames "$LOG" 3 $! || echo "no frames: $(tail -n 1 "$LOG")"

# wait_frames LOG N [PID]: wait, up to 10 s, until LOG holds N frame
# lines. Status 1 when it does not, or when the capture PID (if given)
# ended first.
wait_frames() {
	_wf_i=0
	while [ "$(grep -c '^frame' "$1")" -lt "$2" ]; do
		if [ $_wf_i -ge 100 ] ||
			{ [ -n "${3:-}" ] && ! kill -0 "$3" 2>/dev/null; }; then
			return 1
		fi
		sleep 0.1
		_wf_i=$((_wf_i + 1))
	done
}

# wait_held LOG: wait, up to 10 s, until a stream-hold in the background
# (tests/guest/stream-hold.c, its output in LOG) has started its streams
# and holds them. Status 1 when it has not.
wait_held() {
	_wh_i=0
	while ! grep -q '^stream-hold: holding' "$1"; do
		[ $_wh_i -lt 100 ] || return 1
		sleep 0.1
		_wh_i=$((_wh_i + 1))
	done
}
