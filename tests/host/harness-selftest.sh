#!/usr/bin/env bash
# harness-selftest.sh [KSRC] - tests/host/harness.sh on the recorded consoles
# of tests/data/consoles/ (see its README): for each case, the harness's
# exit status, its last line ("N passed, N failed") and the failure it must
# name. Each case runs with our awk counting the KTAP results; the cases
# whose verdict rests on that count run again with the kernel's kunit.py
# counting (KSRC, or N900_KSRC: a kernel source tree; they skip, saying so,
# without one). The others (splats, timeout, a console missing) take the
# same path in the harness either way. Prints one KTAP document;
# exit status 1 on any "not ok". The expected values are read off the
# recorded consoles by hand, not from the harness's output.
#
# harness-selftest.sh --mutate [KSRC]: the self-test of the self-test. Each
# detection of the harness is removed in turn, in a scratch copy, and the
# cases that it serves must then fail; one KTAP document, one result per
# mutation. About a minute.
#
# N900_HARNESS=FILE tests that harness instead; N900_SELFTEST_CASES="a b"
# runs only those cases.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
data=$(cd "$here/../data/consoles" && pwd)
harness=${N900_HARNESS:-$here/harness.sh}
mutate=0
if [ "${1:-}" = --mutate ]; then
	mutate=1
	shift
fi
ksrc=${1:-${N900_KSRC:-}}
[ -z "$ksrc" ] || [ -f "$ksrc/tools/testing/kunit/kunit.py" ] ||
	{ echo "harness-selftest: no tools/testing/kunit/kunit.py in $ksrc" >&2; exit 2; }
only=${N900_SELFTEST_CASES:-}
# the cases run with kunit.py too
kunit_cases="pass not_ok missing_plan short_plan splat_panic artefacts_missing"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# add_case NAME STATUS LAST-LINE [PATTERN]... -- [HARNESS-ARGUMENT]...
# A PATTERN (extended regex) must match a line of the harness's output; a
# PATTERN that starts with "!" must match none.
cases=()
add_case() { cases+=("$(printf '%q ' "$@")"); }

C=$data
add_case pass 0 "9 passed, 0 failed" \
	"harness: 4 KTAP results passed, 0 failed, 1 skipped; 5/5 harness checks passed" \
	"!FAILED" "!kernel splat" -- "$C/pass.log"
add_case not_ok 1 "8 passed, 1 failed" \
	"FAILED: .*not ok .*subdev_node_back_while_old_open" \
	"harness: 3 KTAP results passed, 1 failed, 0 skipped; 5/5" -- "$C/not-ok.log"
# the same failure after 300 diagnostic lines (20 KB, as a mesh's
# mc-seed-abi once wrote): reported, not an awk error
add_case not_ok_long 1 "8 passed, 1 failed" \
	"FAILED: .*not ok .*subdev_node_back_while_old_open" \
	"!program limit exceeded" \
	"harness: 3 KTAP results passed, 1 failed, 0 skipped; 5/5" -- "$C/not-ok-long.log"
add_case missing_plan 1 "8 passed, 1 failed" \
	"^harness: KTAP document 2: plan missing, 3 results$" \
	"FAILED: every KTAP document has a plan and all its results" -- "$C/no-plan.log"
add_case short_plan 1 "7 passed, 1 failed" \
	"^harness: KTAP document 2: plan 3, 2 results$" \
	"FAILED: every KTAP document has a plan and all its results" -- "$C/short-plan.log"
add_case timeout 1 "8 passed, 1 failed" \
	"FAILED: timeout.log: guest ran its whole suite" "!kernel splat" -- "$C/timeout.log"
for kind in KASAN UBSAN kmemleak lockdep lockdep-key hung-task RCU-stall Oops BUG WARNING checker-off; do
	k=${kind%-key}
	add_case "splat_${kind,,}" 1 "8 passed, 1 failed" \
		"^harness: kernel splat in splat-${kind,,}.log: ${k/-/ } \\(first one, with context\\):$" \
		"FAILED: splat-${kind,,}.log: no kernel splat$" -- "$C/splat-${kind,,}.log"
done
add_case poweroff_hung 1 "8 passed, 1 failed" \
	"FAILED: poweroff-hung.log: guest ran its whole suite" "!kernel splat" -- "$C/poweroff-hung.log"
# the guest died in a suite: a splat, a short plan and a timeout at once
add_case splat_panic 1 "4 passed, 3 failed" \
	"^harness: kernel splat in splat-panic.log: panic \\(first one, with context\\):$" \
	"^harness: KTAP document 2: plan 3, 0 results$" \
	"FAILED: splat-panic.log: guest ran its whole suite" -- "$C/splat-panic.log"
add_case artefacts_missing 1 "10 passed, 1 failed" \
	"FAILED: .*not ok .*direct-2_artefacts_arrived" \
	"harness: 5 KTAP results passed, 1 failed, 1 skipped; 5/5" -- --host "$C/artefacts.ktap" "$C/pass.log"
add_case console_missing 1 "9 passed, 2 failed" \
	"^harness: no console log $C/missing.log$" \
	"FAILED: every console log was there" -- "$C/pass.log" "$C/missing.log"

# run_case MODE NAME STATUS LAST-LINE PATTERN... -- ARGUMENT...: "" when
# the harness said what it must, else why not
run_case() {
	local mode=$1 name=$2 want=$3 last=$4 out=$tmp/$1.$2 args=() pats=() p rc=0 why=
	shift 4
	while [ "$1" != -- ]; do pats+=("$1"); shift; done
	shift
	args=(--junit "$out.xml" "$@")
	[ "$mode" = awk ] || args=(--ksrc "$ksrc" --json "$out.json" "${args[@]}")
	N900_KSRC='' "$harness" "${args[@]}" >"$out.log" 2>&1 || rc=$?
	[ "$rc" -eq "$want" ] || why="$why exit status $rc, not $want;"
	[ "$(tail -n1 "$out.log")" = "$last" ] || why="$why last line '$(tail -n1 "$out.log")', not '$last';"
	for p in "${pats[@]}"; do
		if [ "${p:0:1}" = "!" ]; then
			! grep -qE -- "${p:1}" "$out.log" || why="$why a line matches '${p:1}';"
		else
			grep -qE -- "$p" "$out.log" || why="$why no line matches '$p';"
		fi
	done
	# kunit.py's JSON of the passing console: its five test cases
	if [ "$mode" = kunit ] && [ "$name" = pass ]; then
		p=$(python3 -c 'import json, sys
def walk(g):
    return [c["status"] for c in g["test_cases"]] + [s for x in g["sub_groups"] for s in walk(x)]
print(" ".join(sorted(walk(json.load(open(sys.argv[1]))))))' "$out.json" 2>&1 || true)
		[ "$p" = "PASS PASS PASS PASS SKIP" ] || why="$why the JSON holds '$p', not four PASS and a SKIP;"
	fi
	echo "$why"
}

selftest() {
	local n=0 fail=0 c mode name why spec
	local -a argv
	local total=0
	for c in "${cases[@]}"; do
		eval "argv=($c)"
		[ -z "$only" ] || [[ " $only " == *" ${argv[0]} "* ]] || continue
		total=$((total + 1))
		[[ " $kunit_cases " != *" ${argv[0]} "* ]] || total=$((total + 1))
	done
	echo "KTAP version 1"
	echo "1..$total"
	for mode in awk kunit; do
		for c in "${cases[@]}"; do
			eval "argv=($c)"
			name=${argv[0]}
			[ -z "$only" ] || [[ " $only " == *" $name "* ]] || continue
			[ "$mode" = awk ] || [[ " $kunit_cases " == *" $name "* ]] || continue
			n=$((n + 1))
			if [ "$mode" = kunit ] && [ -z "$ksrc" ]; then
				echo "ok $n $mode.$name # SKIP no kernel tree for kunit.py (argument 1 or N900_KSRC)"
				continue
			fi
			why=$(run_case "$mode" "${argv[@]}")
			if [ -z "$why" ]; then
				echo "ok $n $mode.$name"
			else
				fail=1
				echo "#$why"
				spec=$tmp/$mode.$name.log
				sed 's/^/#   | /' "$spec" | grep -v '^#   |   | ' | tail -n 12
				echo "not ok $n $mode.$name"
			fi
		done
	done
	return "$fail"
}

[ "$mutate" = 1 ] || { selftest; exit; }

# --mutate: one mutation a line, NAME|MODES|CASES|PERL-SUBSTITUTION (on the
# whole harness): the cases that must then fail, in MODES (awk, kunit)
mutations=()
while IFS= read -r m; do mutations+=("$m"); done <<'EOF'
no_artefact_strip|awk kunit|pass|s~\|\s*sed '/\^N900-ARTEFACTS-BEGIN/,/\^N900-ARTEFACTS-END/d' \|~|~
guest_comments_searched|awk kunit|pass|s~first=\$\(grep -v '\^# ' "\$clean" \| grep -n -m1 -E "\$splat_re"~first=\$(grep -n -m1 -E "\$splat_re" "\$clean"~
not_ok_uncounted|awk|not_ok|s~else \{ fail\+\+; ~else { ~
not_ok_uncounted_kunit|kunit|not_ok|s~doc_counts\[case\["status"\]\] \+= 1~doc_counts["PASS" if case["status"] == "FAIL" else case["status"]] += 1~
missing_plan_allowed|awk kunit|missing_plan|s~if \(plan < 0 \|\| results > plan \|\| \(!kunit && results < plan\)\)~if (plan >= 0 && (results > plan || (!kunit && results < plan)))~
short_plan_allowed|awk|short_plan splat_panic|s~ \|\| \(!kunit && results < plan\)~~
short_plan_allowed_kunit|kunit|short_plan splat_panic|s~if doc_counts\["ERROR"\]:~if False:~
no_timeout_check|awk|timeout splat_panic|s~grep -q '\^N900-TESTS-END' "\$clean" && ended=0~ended=0~
poweroff_hang_ignored|awk|poweroff_hung|s~\n\t! grep -q '\^N900-HOST: QEMU killed' "\$clean" \|\| ended=1~~
no_splat_check|awk|splat_kasan splat_ubsan splat_kmemleak splat_lockdep splat_lockdep-key splat_hung-task splat_rcu-stall splat_oops splat_bug splat_warning splat_checker-off splat_panic|s~if \[ -n "\$first" \]; then~if false; then~
host_ktap_ignored|awk kunit|artefacts_missing|s~(\.ktap\)" >>"\$srcs"\n)\tinputs\+=\("\$i"\)\n~$1~
missing_console_ignored|awk|console_missing|s~missing=1~missing=0~
EOF
# each kind of splat forgotten in turn: its case must fail (unnoticed, or
# named as another kind)
for kind in KASAN UBSAN kmemleak lockdep 'hung task' 'RCU stall' panic Oops BUG WARNING 'checker off'; do
	c=splat_${kind,,}
	c=${c/ /-}
	[ "$kind" != lockdep ] || c="$c splat_lockdep-key"
	mutations+=("kind_${kind// /_}_forgotten|awk|$c|s~\\n\\t'$kind=[^\\n]*~~")
done
n=0
fail=0
echo "KTAP version 1"
echo "1..${#mutations[@]}"
for m in "${mutations[@]}"; do
	IFS='|' read -r name modes targets expr <<<"$m"
	n=$((n + 1))
	mutant=$tmp/harness-$name.sh
	if ! perl -0pe "$expr" "$harness" >"$mutant" 2>"$mutant.err"; then
		fail=1
		sed 's/^/# /' "$mutant.err"
		echo "not ok $n $name"
		continue
	fi
	chmod +x "$mutant"
	if cmp -s "$harness" "$mutant"; then
		fail=1
		echo "# the mutation did not apply to $harness (it changed?)"
		echo "not ok $n $name"
		continue
	fi
	out=$(N900_HARNESS=$mutant N900_SELFTEST_CASES="$targets" "$0" "$ksrc" || true)
	why=
	for mode in $modes; do
		for t in $targets; do
			grep -qE "^not ok [0-9]+ $mode\\.$t\$" <<<"$out" ||
				why="$why $mode.$t still passes;"
		done
	done
	if [ -z "$why" ]; then
		echo "# $(grep -c '^not ok' <<<"$out") of $(grep -c '^\(not \)\{0,1\}ok' <<<"$out") runs of $targets fail without it"
		echo "ok $n $name"
	else
		fail=1
		echo "#$why"
		echo "not ok $n $name"
	fi
done
exit "$fail"
