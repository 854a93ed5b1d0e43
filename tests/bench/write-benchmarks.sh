#!/usr/bin/env bash
# tests/bench/write-benchmarks.sh LOGS: BENCHMARKS.md, docs/bench-scaling.tsv
# and docs/bench-scaling.png from every bench console in LOGS
# (bench-vanilla-*.log, bench-patched-*.log: the scaling, by
# tests/bench/bench-report.sh; bench-stream.log: the streaming section, by
# tests/bench/stream-report.sh), this run's and earlier ones. With
# --stream-only (./build.sh bench stream), or with only a streaming log,
# the scaling sections of the current BENCHMARKS.md are kept and the
# scaling data and plot are left alone.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
stream_only=
[ "${1:-}" != --stream-only ] || { stream_only=1; shift; }
logdir=${1:?usage: write-benchmarks.sh [--stream-only] LOGS}
stream=$logdir/bench-stream.log
die() { printf '[build] error: %s\n' "$*" >&2; exit 1; }
logs=()
for p in "$logdir"/bench-vanilla-*.log "$logdir"/bench-patched-*.log; do
	[ -n "$stream_only" ] || [ ! -f "$p" ] || logs+=("$p")
done
[ -z "$stream_only" ] || [ -f "$stream" ] || die "--stream-only: no $stream"
{
	if [ ${#logs[@]} -gt 0 ]; then
		# without its trailing blank lines: the streaming section adds one
		"$top/tests/bench/bench-report.sh" "${logs[@]}" | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'
	elif [ -f "$stream" ] && grep -q '^## Streaming' "$top/BENCHMARKS.md" 2>/dev/null; then
		# ./build.sh bench stream: the scaling sections as the last
		# ./build.sh bench mc wrote them, the streaming one new
		awk '/^## Streaming/ { exit } { print }' "$top/BENCHMARKS.md" | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'
	else
		# shellcheck disable=SC2016 # Markdown backquotes
		printf '# Benchmarks\n\nWritten by `./build.sh bench` on %s; do not edit by hand.\n\n' \
			"$(date -u +%Y-%m-%d)"
	fi
	if [ -f "$stream" ]; then
		echo
		"$top/tests/bench/stream-report.sh" "$stream"
	fi
} >"$top/BENCHMARKS.md.new" || die "tests/bench/bench-report.sh or tests/bench/stream-report.sh failed"
mv "$top/BENCHMARKS.md.new" "$top/BENCHMARKS.md"
[ ${#logs[@]} -gt 0 ] || exit 0
# the plot's data: only when there are chain-N medians (a chains-N boot
# alone has none), written whole or not at all
"$top/tests/bench/bench-report.sh" --tsv "${logs[@]}" >"$top/docs/bench-scaling.tsv.new" ||
	die "tests/bench/bench-report.sh --tsv failed"
if [ "$(grep -vc '^#' "$top/docs/bench-scaling.tsv.new")" = 0 ]; then
	rm -f "$top/docs/bench-scaling.tsv.new"
	exit 0
fi
mv "$top/docs/bench-scaling.tsv.new" "$top/docs/bench-scaling.tsv"
"$top/tests/bench/bench-plot.sh" "$top/docs/bench-scaling.tsv" "$top/docs/bench-scaling.png" ||
	die "gnuplot could not plot docs/bench-scaling.tsv"
echo "[build] scaling plot: docs/bench-scaling.png"
