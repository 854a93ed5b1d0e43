#!/usr/bin/env bash
# bench-plot.sh TSV PNG: the media-controller scaling benchmark as a plot
# (gnuplot), from the medians ./build.sh bench writes to
# docs/bench-scaling.tsv (tests/bench/bench-report.sh --tsv): one panel per
# operation, time against chain length on log-log axes, vanilla 6.12
# against the patched kernel.
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 TSV PNG" >&2; exit 2; }
tsv=$1 png=$2
[ -s "$tsv" ] || { echo "bench-plot: no data in $tsv" >&2; exit 1; }
for op in enum topology toggle power_on; do
	grep -q "^$op	" "$tsv" || { echo "bench-plot: no '$op' rows in $tsv" >&2; exit 1; }
done
rm -f "$png"

gnuplot <<EOF
set terminal pngcairo size 960,720 font "sans,10"
set output "$png"
set datafile separator "\t"
set datafile missing "-"
set logscale xy
set grid
set key top left
set xlabel "chain length N (entities)"
set ylabel "median time (ms)"
set multiplot layout 2,2 title "Media controller scaling: vanilla 6.12 against patches/ (./build.sh bench, TCG guest)"
do for [op in "enum topology toggle power_on"] {
	set title op noenhanced
	plot "$tsv" using 2:(strcol(1) eq op ? \$3 : 1/0) with linespoints lw 2 pt 7 title "vanilla", \
	     "$tsv" using 2:(strcol(1) eq op ? \$4 : 1/0) with linespoints lw 2 pt 5 title "patched"
}
unset multiplot
EOF
[ -s "$png" ] || { echo "bench-plot: gnuplot wrote no $png" >&2; exit 1; }
