#!/bin/sh
# KUnit suites of the kernel (patches/0006: "media-controller"), run by the
# kernel at boot; their results are in debugfs. One KTAP document with a
# result per test case, named kunit.SUITE.CASE. A kernel built without
# KUnit (the release flavour) gives one skipped result that says so; a
# kernel with KUnit but without the suite fails.
K=/sys/kernel/debug/kunit
SUITES="media-controller"

echo "KTAP version 1"
if [ ! -d $K ]; then
	echo "1..1"
	echo "ok 1 kunit # SKIP this kernel has no KUnit (CONFIG_KUNIT is in the debug flavour)"
	exit 0
fi
# Test case lines are indented one level inside their suite's document:
# "    ok 3 mc_test_walk_deep_chain" becomes "ok kunit.SUITE.mc_test_...",
# numbered below.
lines=$(for s in $SUITES; do
	if [ -r "$K/$s/results" ]; then
		sed -n "s/^    \(\(not \)\{0,1\}ok\) [0-9]* /\1 kunit.$s./p" "$K/$s/results"
	else
		echo "not ok kunit.$s # the kernel has no KUnit suite '$s'"
	fi
done)
if [ -z "$lines" ]; then
	echo "1..1"
	echo "not ok 1 kunit # no test case results in $K/*/results"
	exit 0
fi
echo "1..$(echo "$lines" | wc -l)"
echo "$lines" | awk '{ sub(/^(not )?ok/, "& " NR); print }'
