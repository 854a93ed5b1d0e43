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
junit=
while [ $# -gt 0 ]; do
	case $1 in
	--host) hosts+=("$2"); shift 2 ;;
	--junit) junit=$2; shift 2 ;;
	*) logs+=("$1"); shift ;;
	esac
done
[ ${#logs[@]} -gt 0 ] || { echo "usage: harness.sh [--host KTAP]... CONSOLE_LOG..." >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
missing=0
for i in "${!logs[@]}"; do
	if [ -r "${logs[$i]}" ]; then
		# without the artefacts' base64 (it may spell "Oops"), and with
		# only characters XML allows (for the JUnit file; both counts
		# read this same text)
		tr -d '\r\000-\010\013\014\016-\037' <"${logs[$i]}" |
			sed '/^N900-ARTEFACTS-BEGIN/,/^N900-ARTEFACTS-END/d' |
			{ iconv -c -f UTF-8 -t UTF-8 2>/dev/null || true; } |
			perl -CSD -pe 's/[^\x{9}\x{A}\x{D}\x{20}-\x{D7FF}\x{E000}-\x{FFFD}\x{10000}-\x{10FFFF}]//g' \
				2>/dev/null >"$tmp/console.$i"
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
checks=$tmp/checks
: >"$checks"
check() { # NAME CONDITION-RESULT
	# the checks as KTAP results too, for the JUnit file
	if [ "$2" -eq 0 ]; then
		extra_pass=$((extra_pass + 1))
		echo "ok $((extra_pass + extra_fail)) $1" >>"$checks"
	else
		extra_fail=$((extra_fail + 1))
		echo "harness: FAILED: $1"
		echo "not ok $((extra_pass + extra_fail)) $1" >>"$checks"
	fi
}

# junit_suites NAME FILE: the KTAP documents of FILE as <testsuite>s
junit_suites() {
	awk -v g="$1" '
		function esc(s) {
			gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s)
			gsub(/>/, "\\&gt;", s); gsub(/"/, "\\&quot;", s)
			return s
		}
		function close_doc() {
			if (!indoc) return
			printf "  <testsuite name=\"%s/%s\" tests=\"%d\" failures=\"%d\" skipped=\"%d\">\n%s  </testsuite>\n",
				esc(g), esc(suite), n, f, sk, body
			indoc = 0
		}
		/^# suite / { split($3, a, "/"); next_suite = a[length(a)] }
		/^KTAP version 1$/ {
			close_doc(); indoc = 1; n = f = sk = 0; body = ""; diag = ""
			suite = next_suite != "" ? next_suite : "ktap" ++ndoc; next_suite = ""
			if (g ~ /^host\//) { suite = substr(g, 6); g = "host" }
			next
		}
		indoc && /^# / { diag = diag substr($0, 3) "\n"; next }
		indoc && /^(not )?ok [0-9]+/ {
			n++
			line = $0
			name = line; sub(/^(not )?ok [0-9]+ (- )?/, "", name)
			reason = ""
			if (index(line, "# SKIP")) reason = substr(line, index(line, "# SKIP") + 2)
			if (index(name, " # ")) name = substr(name, 1, index(name, " # ") - 1)
			cls = esc(g "." suite)
			# the same rule as the KTAP count above
			if (line ~ /^ok / && line ~ /# SKIP/) {
				sk++
				body = body sprintf("    <testcase classname=\"%s\" name=\"%s\"><skipped message=\"%s\"/></testcase>\n", cls, esc(name), esc(reason))
			} else if (line ~ /^ok /) {
				body = body sprintf("    <testcase classname=\"%s\" name=\"%s\"/>\n", cls, esc(name))
			} else {
				f++
				body = body sprintf("    <testcase classname=\"%s\" name=\"%s\"><failure message=\"%s\">%s</failure></testcase>\n", cls, esc(name), esc(line), esc(diag))
			}
			diag = ""
		}
		END { close_doc() }' "$2"
}

# write_junit FILE: every KTAP result and harness check as JUnit XML
write_junit() {
	local i
	{
		echo '<?xml version="1.0" encoding="UTF-8"?>'
		printf '<testsuites name="n900-isp ./build.sh test" tests="%d" failures="%d" skipped="%d">\n' \
			$((passed + failed + skipped + extra_pass + extra_fail)) $((failed + extra_fail)) "$skipped"
		for i in "${!logs[@]}"; do
			junit_suites "$(basename "${logs[$i]}" .log)" "$tmp/console.$i"
		done
		for i in ${hosts[@]+"${hosts[@]}"}; do
			junit_suites "host/$(basename "$i" .ktap)" "$i"
		done
		{ printf 'KTAP version 1\n1..%d\n' $((extra_pass + extra_fail)); cat "$checks"; } \
			>"$tmp/harness.ktap"
		junit_suites host/harness "$tmp/harness.ktap"
		echo '</testsuites>'
	} >"$1"
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

if [ -n "$junit" ]; then
	write_junit "$junit"
	# the file must be well-formed XML and hold exactly the results counted
	cases=$(grep -c '<testcase ' "$junit" || true)
	jfail=$(grep -c '<failure ' "$junit" || true)
	jskip=$(grep -c '<skipped ' "$junit" || true)
	want=$((passed + failed + skipped + extra_pass + extra_fail))
	if ! command -v xmllint >/dev/null; then
		echo "harness: FAILED: JUnit XML: no xmllint (Debian package libxml2-utils)"
		extra_fail=$((extra_fail + 1))
	elif ! xmllint --noout "$junit"; then
		echo "harness: FAILED: JUnit XML $junit: xmllint rejects it"
		extra_fail=$((extra_fail + 1))
	elif [ "$cases" -ne "$want" ] || [ "$jfail" -ne $((failed + extra_fail)) ] ||
		[ "$jskip" -ne "$skipped" ]; then
		echo "harness: FAILED: JUnit XML $junit: $cases test cases ($jfail failed, $jskip skipped), counted $want ($((failed + extra_fail)) failed, $skipped skipped)"
		extra_fail=$((extra_fail + 1))
	else
		extra_pass=$((extra_pass + 1))
		echo "harness: JUnit XML: $junit ($cases test cases, xmllint: well-formed; this check is the one result not in it)"
	fi
fi

total_pass=$((passed + extra_pass))
total_fail=$((failed + extra_fail))
echo "harness: $passed KTAP results passed, $failed failed, $skipped skipped; $extra_pass/$((extra_pass + extra_fail)) harness checks passed"
grand=$(grep -ho 'Grand Total for .*' "$tmp"/console.* | tail -n1 || true)
[ -z "$grand" ] || echo "harness: v4l2-compliance: $grand"
[ "$skipped" -eq 0 ] || echo "harness: $skipped skipped (each says why above; not counted as passed)"
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
