#!/bin/sh
# Guest side of ./build.sh test: run every suite. Each suite prints one KTAP
# document; tests/host/harness.sh on the host reads them from the console log.
# Kernel messages are kept off the console while tests run and printed in
# full at the end (N900-DMESG-*), so that the harness can look for splats.
T=/usr/lib/n900/tests

dmesg -n 1
echo "N900-TESTS-BEGIN $(date +%s)"

# suite: run one suite, with its guest uptime on a diagnostic line. A suite
# that cannot be run at all (exit status 126 or 127) is a failed test.
suite() {
	case " ${only:-${1##*/}} " in *" ${1##*/} "*) ;; *) return 0 ;; esac
	echo "# suite $1 starts at $(cut -d' ' -f1 /proc/uptime) s"
	"$@"
	rc=$?
	if [ $rc -ge 126 ]; then
		printf 'KTAP version 1\n1..1\nnot ok 1 %s # could not be run (exit status %d)\n' \
			"${1##*/}" $rc
	fi
}

# ./build.sh test boots the guest twice in parallel (two host cores), each
# boot running one shard of the suites; n900.shard= on the kernel command
# line picks it. Without it, everything runs.
# n900.suites=NAME,NAME (e.g. lifetime.sh) runs only those suites of the
# shard: one-suite runs while working on a part. n900.loglevel=N keeps
# kernel messages up to level N on the console (8: all).
shard=all only=
read -r cmdline </proc/cmdline
for arg in $cmdline; do
	case $arg in
	n900.shard=*) shard=${arg#n900.shard=} ;;
	n900.suites=*) only=$(echo "${arg#n900.suites=}" | tr , ' ') ;;
	# kernel messages on the console while the tests run (debugging)
	n900.loglevel=*) dmesg -n "${arg#n900.loglevel=}" ;;
	esac
done
echo "# shard $shard${only:+, only: $only}"

if [ "$shard" = all ] || [ "$shard" = 1 ]; then
	suite "$T/mc-seed-abi" /dev/media0 /etc/n900/topology.expected
	# before any sensor mode change: the blanking ranges are the default mode's
	suite "$T/controls" /etc/n900/controls.spec
	suite "$T/formats.sh"
	suite "$T/subdev-try"
	suite "$T/link-rules.sh"
	suite "$T/power-invariant" /dev/media0 2000 20261203
	suite "$T/probe-order.sh"
	suite "$T/power.sh"
	suite "$T/frames.sh"
	# after frames.sh: each control's case again, with the control at its default
	suite "$T/ctrl-coverage" /etc/n900/frames.spec
	# last: pictures for the host (frames of each path, a power log)
	suite "$T/artefacts.sh"
fi
if [ "$shard" = all ] || [ "$shard" = 2 ]; then
	suite "$T/recipes.sh" /etc/n900/recipes
	suite "$T/stream-validate.sh"
	suite "$T/kunit.sh"
	suite "$T/af-sweep.sh"
	suite "$T/frame-interval.sh"
	suite "$T/stream-stop.sh"
	# it leaves the main pipeline configured
	suite "$T/compliance.sh" /dev/media0
	# last: random control values and links (links reset at its end)
	suite "$T/ioctl-fuzz.sh" 20261203
fi

# a generated stress topology (./build.sh test boots chain-64 and mesh-256
# for it); on the chain, then 60 s of its blocks and its ISP unbound and
# bound while processes open, use and close its nodes
if [ "$shard" = stress ]; then
	suite "$T/stress.sh"
	# the chain only: the lifetime stress test's second topology
	case $(media-ctl -p | sed -n 's/^model *//p') in
	*chain-*) suite "$T/lifetime-stress" 60 20261204 ;;
	esac
fi
# faults: malformed device trees, devices unbound and bound with their
# nodes open or streaming (lifetime.sh: its tests that oops on faulty code
# come last), rebinding, module reloads, power-up failures, and last 60 s
# of random unbinds and binds racing processes that use every kind of node
# (./build.sh test boots a third N900 guest for them)
if [ "$shard" = all ] || [ "$shard" = faults ]; then
	suite "$T/dt-malformed.sh"
	suite "$T/lifetime.sh"
	suite "$T/fault.sh"
	suite "$T/lifetime-stress" 60 20261204
fi

# kmemleak: force a scan now, so a leak is reported before poweroff.
echo "# kmemleak scan starts at $(cut -d' ' -f1 /proc/uptime) s"
if [ -w /sys/kernel/debug/kmemleak ]; then
	echo scan >/sys/kernel/debug/kmemleak
	echo "N900-KMEMLEAK-BEGIN"
	cat /sys/kernel/debug/kmemleak
	echo "N900-KMEMLEAK-END"
fi

echo "N900-DMESG-BEGIN"
dmesg
echo "N900-DMESG-END"
echo "N900-TESTS-END"
