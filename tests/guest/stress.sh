#!/bin/sh
# Stress topologies (./build.sh test boots the generated chain-64 and
# mesh-256 in guests of their own): pipeline power must reach every
# entity the capture node reaches over enabled links - the whole chain or
# mesh snake, deeper than the 16-entry graph walk stack of vanilla 6.12
# (patch 0003) - and power them all down again; and the whole pipeline
# must stream, more than the 256 pads vanilla 6.12 allowed (patch 0005).
# One KTAP document; the entity count comes from the topology itself, the
# power state from debugfs.
P=/sys/kernel/debug/n900-isp/media0/power
# the power column of every entity of the power view, one per line
states() { awk '!/^#/ && !/^total/ { split(substr($0, 30), f, " "); print f[2] }' $P; }

echo "KTAP version 1"
echo "1..4"
model=$(media-ctl -p | sed -n 's/^model *//p')
out=$(media-ctl -p | sed -n 's/^- entity [0-9]*: \([a-z]* output\) .*/\1/p' | head -n 1)
n=$(states | wc -l)
echo "# $model: $n entities behind '$out'"
# the size the generator was asked for ("N900 stress: mesh-256")
topo=${model##* }
size=${topo##*-}
case $topo in
chain-*) want=$size ;;
fan-*) want=$((size + 2)) ;;
mesh-*) s=1; while [ $(((s + 1) * (s + 1))) -le "$size" ]; do s=$((s + 1)); done; want=$((s * s)) ;;
*) want=unknown ;;
esac
if [ "$n" = "$want" ]; then
	echo "ok 1 topology_size"
else
	echo "not ok 1 topology_size # $n entities, the generator made $want"
fi

node=$(media-ctl -e "$out")
exec 3<"$node"
on=$(states | grep -c '^on$')
exec 3<&-
off=$(states | grep -c '^off$')
echo "# with '$out' open: $on of $n powered; closed: $off of $n off"
if [ "$on" -eq "$n" ]; then echo "ok 2 open_powers_all_reachable"; else echo "not ok 2 open_powers_all_reachable"; fi
if [ "$off" -eq "$n" ]; then echo "ok 3 close_powers_down_all"; else echo "not ok 3 close_powers_down_all"; fi

# Streaming starts the media pipeline over every enabled link: on the mesh
# (a 256-entity snake, over 500 pads on one path) vanilla 6.12 refuses
# with E2BIG (patch 0005). v4l2-ctl exits 0 after a failed ioctl, so
# check what it says and what it wrote.
size=$(v4l2-ctl -d "$node" --get-fmt-video | sed -n 's/.*Size Image *: *//p')
log=$(v4l2-ctl -d "$node" --stream-mmap --stream-count=3 --stream-to=/tmp/stress.raw 2>&1)
got=$(wc -c </tmp/stress.raw 2>/dev/null || echo 0)
rm -f /tmp/stress.raw
echo "# stream: $got bytes for 3 frames of $size"
if [ "$got" -eq $((3 * size)) ] && ! echo "$log" | grep -qiE 'returned -1|failed|error'; then
	echo "ok 4 stream_whole_pipeline"
else
	echo "$log" | grep -iE 'returned -1|failed|error' | head -n 3 | sed 's/^/# /'
	echo "not ok 4 stream_whole_pipeline"
fi
