#!/bin/sh
# v4l2-compliance (v4l-utils 1.30.1) over the media device and every node it
# reaches, streaming included (-s), with the main pipeline configured
# (main-pipeline.sh: 648x492 sensor mode, 320x240 from the resizer), as one
# KTAP document: a result per device node plus the grand total. A node
# passes when it has no failures and no warnings.
media=${1:-/dev/media0}
out=/tmp/compliance.txt

/usr/lib/n900/main-pipeline.sh 648x492 320x240 >/tmp/compliance-setup.txt 2>&1 ||
	echo "# main-pipeline.sh failed: $(tail -n 1 /tmp/compliance-setup.txt)"
v4l2-compliance -m "$media" -s >"$out" 2>&1
rc=$?

n=$(grep -c '^Total for ' "$out")
echo "KTAP version 1"
echo "1..$((n + 1))"
# Only what matters goes to the (slow, emulated) serial console: the
# nodes tested, every failure and warning, and the totals.
grep -E 'Compliance test for|fail:|warn:|Total' "$out" | sed 's/^/# /'
i=0
grep '^Total for ' "$out" | while IFS= read -r line; do
	i=$((i + 1))
	node=$(echo "$line" | sed -n 's/^Total for .* device \([^:]*\):.*/\1/p')
	failed=$(echo "$line" | sed -n 's/.*Failed: \([0-9]*\).*/\1/p')
	warnings=$(echo "$line" | sed -n 's/.*Warnings: \([0-9]*\).*/\1/p')
	if [ "$failed" = 0 ] && [ "$warnings" = 0 ]; then
		echo "ok $i compliance.$node"
	else
		echo "not ok $i compliance.$node # $failed failed, $warnings warnings"
	fi
done
grand=$(grep '^Grand Total for ' "$out")
echo "# v4l2-compliance exit code $rc"
echo "# $grand"
failed=$(echo "$grand" | sed -n 's/.*Failed: \([0-9]*\).*/\1/p')
warnings=$(echo "$grand" | sed -n 's/.*Warnings: \([0-9]*\).*/\1/p')
if [ -n "$grand" ] && [ "$failed" = 0 ] && [ "$warnings" = 0 ] && [ $rc -eq 0 ]; then
	echo "ok $((n + 1)) compliance.grand_total"
else
	echo "not ok $((n + 1)) compliance.grand_total"
fi
