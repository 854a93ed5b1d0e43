#!/bin/sh
# KUnit suites of the kernel (patches/0006: "media-controller"), run by the
# kernel at boot; their results are in debugfs. One KTAP document with a
# result per test case, named kunit.SUITE.CASE. A kernel built without
# KUnit (the release flavour) gives one skipped result that says so; a
# kernel with KUnit but without the suite fails.
K=/sys/kernel/debug/kunit
SUITES="media-controller"
# shellcheck source=tests/guest/lib/ktap.sh
. /usr/lib/n900/tests/lib/ktap.sh

if [ ! -d $K ]; then
	ktap_plan 1
	ktap_skip kunit "this kernel has no KUnit (CONFIG_KUNIT is in the debug flavour)"
	exit 0
fi
# Test case lines are indented one level inside their suite's document:
# "    ok 3 mc_test_walk_deep_chain" becomes "ok kunit.SUITE.mc_test_...",
# numbered again below (what follows the verdict, with any " # SKIP ...",
# is passed on as it is).
lines=$(for s in $SUITES; do
	if [ -r "$K/$s/results" ]; then
		sed -n "s/^    \(\(not \)\{0,1\}ok\) [0-9]* /\1 kunit.$s./p" "$K/$s/results"
	else
		echo "not ok kunit.$s # the kernel has no KUnit suite '$s'"
	fi
done)
if [ -z "$lines" ]; then
	ktap_plan 1
	ktap_result 0 "kunit # no test case results in $K/*/results"
	exit 0
fi
ktap_plan "$(echo "$lines" | wc -l)"
while read -r verdict rest; do
	case $verdict in
	ok) ktap_result 1 "$rest" ;;
	*) ktap_result 0 "${rest#ok }" ;;
	esac
done <<EOF
$lines
EOF
