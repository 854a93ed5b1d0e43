#!/usr/bin/env bash
# power-timeline.sh EVENTS PNG: draw the power-event log of a media device
# (/sys/kernel/debug/n900-isp/mediaN/power-events: time_us, entity, event,
# detail, tab separated) as a timeline, one lane per entity, a bar from
# "power-on" to "unpowered". Uses gnuplot.
set -euo pipefail
events=$1 png=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

awk -F'\t' -v lanes="$tmp/lanes" '
	/^#/ || NF < 3 { next }
	{ t = $1 / 1000.0 }
	t0 == "" { t0 = t }
	{ t -= t0; last = t }
	!($2 in lane) { lane[$2] = ++n; printf "\"%s\" %d\n", $2, n >lanes }
	$3 == "power-on" { start[$2] = t }
	$3 == "unpowered" && ($2 in start) { print lane[$2], start[$2], t; delete start[$2] }
	END { for (e in start) print lane[e], start[e], last }
' "$events" >"$tmp/bars"
[ -s "$tmp/bars" ] || { echo "power-timeline: no power-on/unpowered events in $events" >&2; exit 1; }

ytics=$(paste -sd, "$tmp/lanes")
n=$(wc -l <"$tmp/lanes")
gnuplot <<GP
set terminal pngcairo size 1000,$((120 + 28 * n)) font "sans,10"
set output "$png"
set title "Entity power (pipeline policy): open raw capture, enable processing links, stream, disable, close"
set xlabel "time (ms)"
set ytics ($ytics)
set yrange [0.3:$n + 0.7] reverse
set grid xtics
set style fill solid 0.7 border -1
unset key
plot "$tmp/bars" using ((\$2 + \$3) / 2):1:((\$3 - \$2) / 2):(0.35) with boxxyerror lc rgb "#3a7bd5"
GP
