#!/bin/sh
# Guest side of ./build.sh bench, booted on one generated stress topology:
# the stress checks (tests/guest/stress.sh: power reach, streaming the
# whole pipeline), then the media controller timings (mc-bench), then the
# number of kernel WARNINGs and other splats of the boot.
# tests/bench/bench-report.sh reads it all from the console log.
T=/usr/lib/n900/tests
dmesg -n 1
model=$(media-ctl -p | sed -n 's/^model *//p')
out=$(media-ctl -p | sed -n 's/^- entity [0-9]*: \([a-z]* output\) .*/\1/p' | head -n 1)
node=$(media-ctl -e "$out")
echo "N900-BENCH-BEGIN $model"
"$T/stress.sh"
"$T/mc-bench" /dev/media0 "$node"
# every WARN() since boot (the log buffer keeps only the last few dozen),
# and the other splats still in the log
echo "BENCH warnings=$(cat /sys/kernel/warn_count 2>/dev/null || echo -)"
echo "BENCH splats=$(dmesg | grep -cE 'BUG:|Oops|Unable to handle|KASAN|UBSAN|lockdep|kmemleak')"
echo "N900-BENCH-END"
