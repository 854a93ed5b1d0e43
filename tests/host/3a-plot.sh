#!/usr/bin/env bash
# 3a-plot.sh LOG PNG: a run of the 3A example (n900-3a --log LOG, README
# "3A") as a convergence plot (gnuplot): exposure and analogue gain, the
# predicted mean luma against its target, the white balance gains R/G and
# B/G, and the lens position, over the frames.
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 LOG PNG" >&2; exit 2; }
log=$1 png=$2
[ -s "$log" ] || { echo "3a-plot: no log $log" >&2; exit 1; }
head -n 1 "$log" | grep -q '^frame	exposure	gain	wb_r	wb_b	lens	luma' ||
	{ echo "3a-plot: $log is not an n900-3a log (its header line)" >&2; exit 1; }
[ "$(wc -l <"$log")" -ge 2 ] || { echo "3a-plot: $log has no frame" >&2; exit 1; }
rm -f "$png"

gnuplot <<EOF
set terminal pngcairo size 960,720 font "sans,10"
set output "$png"
set datafile separator "\t"
set key autotitle columnhead
set grid
set key right center
set xlabel "frame"
set multiplot layout 2,2 title "n900-3a: from a bad start to convergence (noise on)"
set title "auto-exposure"
set ylabel "exposure (lines)"
set y2label "analogue gain"
set ytics nomirror
set y2tics
plot "$log" using 1:2 with linespoints lw 2 pt 7 title "exposure", \
     "$log" using 1:3 axes x1y2 with linespoints lw 2 pt 5 title "gain"
unset y2label
unset y2tics
set ytics mirror
set title "mean luma (Y - 16), predicted from AEWB"
set ylabel "luma"
plot "$log" using 1:7 with linespoints lw 2 pt 7 title "luma"
set title "auto-white-balance gains"
set ylabel "gain"
plot "$log" using 1:4 with linespoints lw 2 pt 7 lc rgb "red" title "R/G", \
     "$log" using 1:5 with linespoints lw 2 pt 5 lc rgb "blue" title "B/G"
set title "auto-focus"
set key right top
set ylabel "lens position (ad5820)"
set yrange [0:1023]
plot "$log" using 1:6 with linespoints lw 2 pt 7 title "lens"
unset multiplot
EOF
[ -s "$png" ] || { echo "3a-plot: gnuplot wrote no $png" >&2; exit 1; }
