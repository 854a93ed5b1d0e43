#!/bin/sh
# Guest side of ./build.sh bench, booted on one generated stress topology:
# the stress checks (tests/guest/stress.sh: power reach, streaming the
# whole pipeline), then the media controller timings (mc-bench), then the
# number of kernel WARNINGs and other splats of the boot.
# tests/bench/bench-report.sh reads it all from the console log.
#
# Booted on two ISPs (dts/stress.sh chains N: chain N/4 and chain N, two
# media devices), it times both in the same boot instead, each run on one
# followed by the same run on the other (mc-bench's paired mode):
# t(N)/t(N/4) then compares two figures of one machine, where two boots of
# it have differed by up to 1.8x in speed. Then the paired ratios again
# without the switches (MC_BENCH_SWITCH=0, mc-bench.c says why).
T=/usr/lib/n900/tests
dmesg -n 1
# capture MEDIA: the capture node at the end of MEDIA's stress topology
capture() {
	out=$(media-ctl -d "$1" -p | sed -n 's/^- entity [0-9]*: \([a-z]* output\) .*/\1/p' | head -n 1)
	media-ctl -d "$1" -e "$out"
}
if [ -e /dev/media1 ]; then
	echo "N900-BENCH-BEGIN two ISPs: $(media-ctl -d /dev/media0 -p | sed -n 's/^model *//p'), $(media-ctl -d /dev/media1 -p | sed -n 's/^model *//p')"
	"$T/mc-bench" /dev/media0 "$(capture /dev/media0)" /dev/media1 "$(capture /dev/media1)"
	# the same without mc-bench's address-space switches, which let QEMU
	# size its software TLB to the graph read: for comparison, the ratios
	# only (and a failure)
	# (into a file: a reader of a pipe would be a process to switch to)
	MC_BENCH_SWITCH=0 "$T/mc-bench" /dev/media0 "$(capture /dev/media0)" /dev/media1 "$(capture /dev/media1)" \
		>/tmp/mc-bench-noswitch
	sed -n -e 's/^BENCH-PAIR /BENCH-PAIR-NOSWITCH /p' \
		-e 's/^BENCH-FAILED /BENCH-FAILED (without the switches) /p' /tmp/mc-bench-noswitch
else
	echo "N900-BENCH-BEGIN $(media-ctl -p | sed -n 's/^model *//p')"
	"$T/stress.sh"
	"$T/mc-bench" /dev/media0 "$(capture /dev/media0)"
fi
# every WARN() since boot (the log buffer keeps only the last few dozen),
# and the other splats still in the log
echo "BENCH warnings=$(cat /sys/kernel/warn_count 2>/dev/null || echo -)"
echo "BENCH splats=$(dmesg | grep -cE 'BUG:|Oops|Unable to handle|KASAN|UBSAN|lockdep|kmemleak|rcu: INFO: .*stall|blocked for more than')"
echo "N900-BENCH-END"
