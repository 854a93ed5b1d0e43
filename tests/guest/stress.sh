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
# shellcheck source=tests/guest/lib/ktap.sh
. /usr/lib/n900/tests/lib/ktap.sh
# the power column of every entity of the power view, one per line
states() { awk '!/^#/ && !/^total/ { split(substr($0, 30), f, " "); print f[2] }' $P; }

ktap_plan 4
model=$(media-ctl -p | sed -n 's/^model *//p')
out=$(media-ctl -p | sed -n 's/^- entity [0-9]*: \([a-z]* output\) .*/\1/p' | head -n 1)
n=$(states | wc -l)
ktap_diag "$model: $n entities behind '$out'"
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
	ktap_result 1 topology_size
else
	ktap_result 0 "topology_size # $n entities, the generator made $want"
fi

node=$(media-ctl -e "$out")
exec 3<"$node"
on=$(states | grep -c '^on$')
exec 3<&-
off=$(states | grep -c '^off$')
ktap_diag "with '$out' open: $on of $n powered; closed: $off of $n off"
ok=0
[ "$on" -eq "$n" ] && ok=1
ktap_result $ok open_powers_all_reachable
ok=0
[ "$off" -eq "$n" ] && ok=1
ktap_result $ok close_powers_down_all

# Streaming starts the media pipeline over every enabled link: on the mesh
# (a 256-entity snake, over 500 pads on one path) vanilla 6.12 refuses
# with E2BIG (patch 0005). v4l2-ctl exits 0 after a failed ioctl, so
# check what it says and what it wrote.
size=$(v4l2-ctl -d "$node" --get-fmt-video | sed -n 's/.*Size Image *: *//p')
log=$(v4l2-ctl -d "$node" --stream-mmap --stream-count=3 --stream-to=/tmp/stress.raw 2>&1)
got=$(wc -c </tmp/stress.raw 2>/dev/null || echo 0)
rm -f /tmp/stress.raw
ktap_diag "stream: $got bytes for 3 frames of $size"
if [ "$got" -eq $((3 * size)) ] && ! echo "$log" | grep -qiE 'returned -1|failed|error'; then
	ktap_result 1 stream_whole_pipeline
else
	echo "$log" | grep -iE 'returned -1|failed|error' | head -n 3 | sed 's/^/# /'
	ktap_result 0 stream_whole_pipeline
fi
