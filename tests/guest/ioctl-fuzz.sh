#!/bin/sh
# The ioctl fuzzer (ioctl-fuzz.c) with a stream running: the main pipeline
# streams from another process all along, so that the random calls and the
# two SETUP_LINK threads meet a busy pipeline. "ioctl-fuzz.sh [SEED]"; the
# seed is printed, and the same seed repeats the same calls.
T=/usr/lib/n900/tests
SEED=${1:-20261203}
CALLS=${N900_FUZZ_CALLS:-100000}
# shellcheck source=tests/guest/lib/ktap.sh
. /usr/lib/n900/tests/lib/ktap.sh

dev=$(/usr/lib/n900/main-pipeline.sh 648x492 320x240 2>/dev/null | tail -n 1)
"$T/capture" "$dev" 1000000 /dev/null >/tmp/fuzz-stream.log 2>&1 &
pid=$!
"$T/ioctl-fuzz" /etc/n900/ioctl-errnos "$SEED" "$CALLS" 900
kill "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
ktap_diag "the stream alongside: $(grep -c '^frame' /tmp/fuzz-stream.log) frames, then: $(tail -n 1 /tmp/fuzz-stream.log)"
media-ctl -r
