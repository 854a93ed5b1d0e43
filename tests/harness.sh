#!/usr/bin/env bash
# harness.sh [--host KTAP_FILE]... CONSOLE_LOG... - the verdict of a test run.
#
# Reads the guest console logs (one per test boot) and:
#  - parses every KTAP document (each must have a plan, and as many
#    results as the plan says);
#  - fails on any "not ok", on a missing or short plan, on a boot that
#    never reached the end of its suite (timeout, crash), and on any kernel
#    splat: WARNING, BUG, Oops, panic, KASAN, lockdep, kmemleak, UBSAN.
# Host-side KTAP files (--host, e.g. the lint results) are counted too, but
# not searched for splats. Prints the failing tests, the first splat of a
# boot with its context, and ends with the line "N passed, N failed". Exit
# status 1 on any failure.
set -euo pipefail

hosts=()
logs=()
while [ $# -gt 0 ]; do
	case $1 in
	--host) hosts+=("$2"); shift 2 ;;
	*) logs+=("$1"); shift ;;
	esac
done
[ ${#logs[@]} -gt 0 ] || { echo "usage: harness.sh [--host KTAP]... CONSOLE_LOG..." >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
missing=0
for i in "${!logs[@]}"; do
	if [ -r "${logs[$i]}" ]; then
		tr -d '\r' <"${logs[$i]}" >"$tmp/console.$i"
	else
		echo "harness: no console log ${logs[$i]}"
		: >"$tmp/console.$i"
		missing=1
	fi
done
ktap=$tmp/all.ktap
cat "$tmp"/console.* ${hosts[@]+"${hosts[@]}"} >"$ktap"

# KTAP: count results per document and check plans.
read -r passed failed skipped plan_errors < <(awk '
	function close_doc() {
		if (indoc && (plan < 0 || results != plan)) {
			printf "harness: KTAP document %d: plan %s, %d results\n",
				ndoc, plan < 0 ? "missing" : plan, results > "/dev/stderr"
			perr++
		}
	}
	/^KTAP version 1$/ { close_doc(); indoc = 1; ndoc++; plan = -1; results = 0; next }
	indoc && /^1\.\.[0-9]+$/ { plan = substr($0, 4) + 0; next }
	indoc && /^(not )?ok [0-9]+/ {
		results++
		if ($0 ~ /^ok / && $0 ~ /# SKIP/) { skip++; next }
		if ($0 ~ /^ok /) pass++
		else { fail++; print "harness: FAILED: " $0 > "/dev/stderr" }
	}
	END { close_doc(); printf "%d %d %d %d\n", pass, fail, skip, perr + (ndoc ? 0 : 1) }
' "$ktap")

extra_pass=0
extra_fail=0
check() { # NAME CONDITION-RESULT
	if [ "$2" -eq 0 ]; then
		extra_pass=$((extra_pass + 1))
	else
		extra_fail=$((extra_fail + 1))
		echo "harness: FAILED: $1"
	fi
}

for i in "${!logs[@]}"; do
	clean=$tmp/console.$i
	name=$(basename "${logs[$i]}")
	ended=1
	grep -q '^N900-TESTS-END' "$clean" && ended=0
	check "$name: guest ran its whole suite (no timeout, hang or crash)" "$ended"

	splat_re='(WARNING:|BUG:|Oops|Kernel panic|UBSAN:|KASAN:|kmemleak: [0-9]+ new suspected|unreferenced object 0x|Unable to handle kernel|Internal error:|INFO: (possible|inconsistent|trying to register|task .* blocked)|cut here \]-)'
	first=$(grep -v '^# ' "$clean" | grep -n -m1 -E "$splat_re" | cut -d: -f1 || true)
	if [ -n "$first" ]; then
		echo "harness: kernel splat in $name (first one, with context):"
		grep -v '^# ' "$clean" | sed -n "$((first > 5 ? first - 5 : 1)),$((first + 30))p" | sed 's/^/  | /'
		check "$name: no kernel splat" 1
	else
		check "$name: no kernel splat" 0
	fi
done
check "every KTAP document has a plan and all its results" "$plan_errors"
check "every console log was there" "$missing"

total_pass=$((passed + extra_pass))
total_fail=$((failed + extra_fail))
echo "harness: $passed KTAP results passed, $failed failed, $skipped skipped; $extra_pass/$((extra_pass + extra_fail)) harness checks passed"
grand=$(grep -ho 'Grand Total for .*' "$tmp"/console.* | tail -n1 || true)
[ -z "$grand" ] || echo "harness: v4l2-compliance: $grand"
if [ "$skipped" -gt 0 ]; then
	echo "$total_pass passed, $total_fail failed, $skipped skipped"
else
	echo "$total_pass passed, $total_fail failed"
fi
[ "$total_fail" -eq 0 ]
