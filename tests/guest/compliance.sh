#!/bin/sh
# v4l2-compliance (v4l-utils 1.30.1) over the media device and every node it
# reaches, streaming included (-s), with the main pipeline configured
# (main-pipeline.sh: 648x492 sensor mode, 320x240 from the resizer), as one
# KTAP document: a result per device node plus the grand total. A node
# passes when it has no failures and no warnings.
# shellcheck source=tests/guest/lib/ktap.sh
. /usr/lib/n900/tests/lib/ktap.sh
media=${1:-/dev/media0}
out=/tmp/compliance.txt

/usr/lib/n900/main-pipeline.sh 648x492 320x240 >/tmp/compliance-setup.txt 2>&1 ||
	echo "# main-pipeline.sh failed: $(tail -n 1 /tmp/compliance-setup.txt)"
v4l2-compliance -m "$media" -s >"$out" 2>&1
rc=$?

n=$(grep -c '^Total for ' "$out")
ktap_plan $((n + 1))
# Only what matters goes to the (slow, emulated) serial console: the
# nodes tested, every failure and warning, and the totals.
grep -E 'Compliance test for|fail:|warn:|Total' "$out" | sed 's/^/# /'
grep '^Total for ' "$out" >/tmp/compliance-totals.txt
while IFS= read -r line; do
	node=$(echo "$line" | sed -n 's/^Total for .* device \([^:]*\):.*/\1/p')
	failed=$(echo "$line" | sed -n 's/.*Failed: \([0-9]*\).*/\1/p')
	warnings=$(echo "$line" | sed -n 's/.*Warnings: \([0-9]*\).*/\1/p')
	if [ "$failed" = 0 ] && [ "$warnings" = 0 ]; then
		ktap_result 1 "compliance.$node"
	else
		ktap_result 0 "compliance.$node # $failed failed, $warnings warnings"
	fi
done </tmp/compliance-totals.txt
grand=$(grep '^Grand Total for ' "$out")
ktap_diag "v4l2-compliance exit code $rc" "$grand"
failed=$(echo "$grand" | sed -n 's/.*Failed: \([0-9]*\).*/\1/p')
warnings=$(echo "$grand" | sed -n 's/.*Warnings: \([0-9]*\).*/\1/p')
ok=0
[ -n "$grand" ] && [ "$failed" = 0 ] && [ "$warnings" = 0 ] && [ $rc -eq 0 ] && ok=1
ktap_result $ok compliance.grand_total
