#!/bin/sh
# Stress topology (a generated chain, ./build.sh test boots chain-64):
# pipeline power must reach every entity of a chain deeper than the
# 16-entry graph walk stack of vanilla 6.12 (patch 0003), and power them
# all down again. One KTAP document; the entity count comes from the
# topology itself, the power state from debugfs.
P=/sys/kernel/debug/n900-isp/media0/power
# the power column of every "chain N" entity, one per line
states() { awk 'substr($0, 1, 6) == "chain " { split(substr($0, 30), f, " "); print f[2] }' $P; }

echo "KTAP version 1"
echo "1..3"
n=$(media-ctl -p | grep -c '^- entity [0-9]*: chain [0-9]')
model=$(media-ctl -p | sed -n 's/^model *//p')
echo "# $model: $n chained entities"
if [ "$n" -gt 16 ]; then echo "ok 1 chain_deeper_than_16"; else echo "not ok 1 chain_deeper_than_16"; fi

exec 3<"$(media-ctl -e 'chain output')"
on=$(states | grep -c '^on$')
exec 3<&-
off=$(states | grep -c '^off$')
echo "# with 'chain output' open: $on of $n powered; closed: $off of $n off"
if [ "$on" -eq "$n" ]; then echo "ok 2 open_powers_whole_chain"; else echo "not ok 2 open_powers_whole_chain"; fi
if [ "$off" -eq "$n" ]; then echo "ok 3 close_powers_down_whole_chain"; else echo "not ok 3 close_powers_down_whole_chain"; fi
