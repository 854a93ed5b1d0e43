#!/bin/sh
# Stress topologies (./build.sh test boots the generated chain-64 and
# mesh-256 in guests of their own): pipeline power must reach every
# entity the capture node reaches over enabled links - the whole chain,
# deeper than the 16-entry graph walk stack of vanilla 6.12 (patch 0003),
# or the whole spanning tree of the mesh - and power them all down again.
# One KTAP document; the entity count comes from the topology itself, the
# power state from debugfs.
P=/sys/kernel/debug/n900-isp/media0/power
# the power column of every entity of the power view, one per line
states() { awk '!/^#/ && !/^total/ { split(substr($0, 30), f, " "); print f[2] }' $P; }

echo "KTAP version 1"
echo "1..3"
model=$(media-ctl -p | sed -n 's/^model *//p')
out=$(media-ctl -p | sed -n 's/^- entity [0-9]*: \([a-z]* output\) .*/\1/p' | head -n 1)
n=$(states | wc -l)
echo "# $model: $n entities behind '$out'"
case $model in
*chain*) [ "$n" -gt 16 ] && ok=ok || ok="not ok" ;;
*) [ "$n" -gt 1 ] && ok=ok || ok="not ok" ;;
esac
echo "$ok 1 topology_size"

exec 3<"$(media-ctl -e "$out")"
on=$(states | grep -c '^on$')
exec 3<&-
off=$(states | grep -c '^off$')
echo "# with '$out' open: $on of $n powered; closed: $off of $n off"
if [ "$on" -eq "$n" ]; then echo "ok 2 open_powers_all_reachable"; else echo "not ok 2 open_powers_all_reachable"; fi
if [ "$off" -eq "$n" ]; then echo "ok 3 close_powers_down_all"; else echo "not ok 3 close_powers_down_all"; fi
