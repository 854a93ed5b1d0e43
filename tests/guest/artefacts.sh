#!/bin/sh
# artefacts.sh: what a test run leaves for the host in N900_OUT (the
# virtio-9p share, or /tmp/out sent over the console): a frame from each
# main path (capture-paths.sh) and a power experiment's event log and
# tracefs trace (power-demo.sh). build.sh draws them as PNG pictures in the
# run directory, and checks that they arrived.
# shellcheck source=tests/guest/lib/ktap.sh
. /usr/lib/n900/tests/lib/ktap.sh
ktap_plan 2

out=${N900_OUT:-/tmp/out}
mkdir -p "$out"
/usr/lib/n900/capture-paths.sh "$out" >/tmp/capture.log 2>&1
rc=$?
n=0
for f in "$out"/frames/*.info; do
	[ ! -e "$f" ] || n=$((n + 1))
done
ok=0
[ $rc -eq 0 ] && [ "$n" -eq 4 ] && ok=1
[ $ok = 1 ] || sed 's/^/capture: /' /tmp/capture.log | while IFS= read -r l; do echo "# $l"; done
ktap_result $ok capture_main_paths "$n frames in $out/frames"

/usr/lib/n900/power-demo.sh >/tmp/power-demo.log 2>&1
ok=0
[ -s "$out/power-events.tsv" ] && grep -q 'n900_power' "$out/power-trace.txt" && ok=1
[ $ok = 1 ] || tail -n 20 /tmp/power-demo.log | while IFS= read -r l; do echo "# $l"; done
ktap_result $ok power_experiment_logged \
	"$(wc -l <"$out/power-events.tsv" 2>/dev/null) power events, $(grep -c n900_power "$out/power-trace.txt" 2>/dev/null) n900_power trace lines"
