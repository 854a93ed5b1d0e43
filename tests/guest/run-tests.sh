#!/bin/sh
# Guest side of ./build.sh test: run every suite. Each suite prints one KTAP
# document; tests/host/harness.sh on the host reads them from the console log.
# Kernel messages are kept off the console while tests run and printed in
# full at the end (N900-DMESG-*), so that the harness can look for splats.
T=/usr/lib/n900/tests
# shellcheck source=tests/guest/lib/ktap.sh
. $T/lib/ktap.sh
# shellcheck source=rootfs/overlay/etc/n900/functions
. /etc/n900/functions

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
		ktap_plan 1
		ktap_result 0 "${1##*/} # could not be run (exit status $rc)"
	fi
}

# n900.shard=NAME on the kernel command line picks the shard this guest
# runs (./build.sh test boots one guest a shard); without it, shards 1, 2
# and faults run. The suites of each shard are in /etc/n900/shards
# (tests/data/shards), the one list the host reads too.
# n900.suites=NAME,NAME (e.g. lifetime.sh) runs only those suites of the
# shard: one-suite runs while working on a part (N900_SUITES on the host).
# n900.loglevel=N keeps kernel messages up to level N on the console (8:
# all).
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
# the topology this guest booted: a generated stress tree names itself in
# the media device's model ("N900 stress: chain-64"), the N900 does not
model=$(media-ctl -p 2>/dev/null | sed -n 's/^model *//p')
case $model in
*"stress: "*) topology=${model##* } ;;
*) topology=n900 ;;
esac
expected=/etc/n900/topology/$topology.expected
[ -e "$expected" ] || expected=/etc/n900/topology.expected
echo "# shard $shard on $topology${only:+, only: $only}"

# in_shard SPEC: SPEC ("SHARD" or "SHARD@PATTERN") is this guest's
in_shard() {
	case ${1%%@*} in
	"$shard") ;;
	1 | 2 | faults) [ "$shard" = all ] || return 1 ;;
	*) return 1 ;;
	esac
	case $1 in *@*) ;; *) return 0 ;; esac
	# shellcheck disable=SC2254 # the pattern comes from the list
	case $topology in ${1#*@}) return 0 ;; esac
	return 1
}

# the suites of the shard list, in order; %topology in the arguments is
# the expected topology of this boot's tree
grep -v '^[[:space:]]*\(#\|$\)' /etc/n900/shards >/tmp/shards
while read -r spec name args; do
	in_shard "$spec" || continue
	# shellcheck disable=SC2046,SC2086 # the arguments are words
	set -- $(echo "$args" | sed "s|%topology|$expected|g")
	suite "$T/$name" "$@" </dev/null
done </tmp/shards

# kmemleak: force its scans now, so a leak is reported before poweroff
# (both: a leak made after the last automatic scan, every 600 s, needs two).
echo "# kmemleak scans start at $(cut -d' ' -f1 /proc/uptime) s"
if n900_kmemleak_scan; then
	echo "# kmemleak scans end at $(cut -d' ' -f1 /proc/uptime) s"
	echo "N900-KMEMLEAK-BEGIN"
	cat /sys/kernel/debug/kmemleak
	echo "N900-KMEMLEAK-END"
fi

echo "N900-DMESG-BEGIN"
dmesg
echo "N900-DMESG-END"
echo "N900-TESTS-END"
