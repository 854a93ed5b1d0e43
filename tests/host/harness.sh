#!/usr/bin/env bash
# harness.sh [--host KTAP_FILE]... [--junit FILE] [--json FILE] [--ksrc DIR]
#            CONSOLE_LOG... - the verdict of a test run.
#
# Reads the guest console logs (one per test boot) and:
#  - parses every KTAP document (each must have a plan, and as many
#    results as the plan says);
#  - fails on any "not ok", on a missing or short plan, on a boot that
#    never reached the end of its suite (timeout, crash), and on any kernel
#    splat: WARNING, BUG, Oops, panic, KASAN, UBSAN, lockdep, kmemleak,
#    hung task, RCU stall, and a checker that switched itself off.
# Host-side KTAP files (--host, e.g. the lint results and the artefact
# checks) are counted too, but not searched for splats. Prints the failing
# tests, the first splat of a boot (its kind, with context), and ends with
# the line "N passed, N failed". Exit status 1 on any failure.
#
# --ksrc DIR (or N900_KSRC=DIR): a kernel source tree; its KTAP parser,
# tools/testing/kunit/kunit.py parse, then counts the results of each
# document, and its KernelCI JSON of every document goes to --json FILE
# (by default kunit.json next to the --junit file). Without it (or when
# kunit.py fails) our awk below counts. What kunit.py does not do is ours
# either way: splitting a console into its documents (kunit.py parses the
# first KTAP document of its input only, and our consoles hold one per
# suite), requiring a plan (kunit.py accepts a document without one) and
# no result past it (kunit.py stops reading at the plan), kernel splats,
# timeouts, missing consoles, and the JUnit file. kunit.py counts a
# "not ok N name # SKIP" as skipped, our awk as failed; no suite prints one.
# tests/host/harness-selftest.sh runs this on the recorded consoles of
# tests/data/consoles/.
set -euo pipefail

hosts=()
logs=()
junit=
json=
ksrc=${N900_KSRC:-}
while [ $# -gt 0 ]; do
	case $1 in
	--host) hosts+=("$2"); shift 2 ;;
	--junit) junit=$2; shift 2 ;;
	--json) json=$2; shift 2 ;;
	--ksrc) ksrc=$2; shift 2 ;;
	*) logs+=("$1"); shift ;;
	esac
done
[ ${#logs[@]} -gt 0 ] || { echo "usage: harness.sh [--host KTAP]... [--junit FILE] [--json FILE] [--ksrc DIR] CONSOLE_LOG..." >&2; exit 2; }

kunit=
if [ -n "$ksrc" ]; then
	# the interpreter itself, not a wrapper (pyenv's shim costs 0.1 s a
	# start, and kunit.py starts once per document)
	if [ -f "$ksrc/tools/testing/kunit/kunit.py" ] &&
		python=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null) && [ -x "$python" ]; then
		kunit=$(cd "$ksrc/tools/testing/kunit" && pwd)/kunit.py
		[ -n "$json" ] || [ -z "$junit" ] || json=$(dirname "$junit")/kunit.json
	else
		echo "harness: no $ksrc/tools/testing/kunit/kunit.py (or no python3): our awk counts the KTAP results"
	fi
fi

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
# KTAP: each console and host file cut into its documents ($tmp/docs/N.ktap,
# listed in $tmp/docs/index: number, file, source, suite); a document ends
# at the next one, at a marker line of the guest (N900-KMEMLEAK-BEGIN,
# N900-DMESG-BEGIN, N900-TESTS-END, ...) or at the end of its file.
mkdir "$tmp/docs"
srcs=$tmp/docs/sources
: >"$srcs"
inputs=()
for i in "${!logs[@]}"; do
	printf '%s\t%s\n' "$tmp/console.$i" "$(basename "${logs[$i]}" .log)" >>"$srcs"
	inputs+=("$tmp/console.$i")
done
for i in ${hosts[@]+"${hosts[@]}"}; do
	printf '%s\thost\t%s\n' "$i" "$(basename "$i" .ktap)" >>"$srcs"
	inputs+=("$i")
done
awk -v docs="$tmp/docs" '
	function close_doc() {
		if (!indoc) return
		close(file)
		printf "%d\t%s\t%s\t%s\n", ndoc, file, source, suite > (docs "/index")
		indoc = 0
	}
	FILENAME == ARGV[1] { src[$1] = $2; host[$1] = $3; next }
	FNR == 1 { close_doc(); source = src[FILENAME]; next_suite = "" }
	/^# suite / { split($3, a, "/"); next_suite = a[length(a)] }
	/^KTAP version 1$/ {
		close_doc(); indoc = 1; ndoc++
		suite = host[FILENAME] != "" ? host[FILENAME] : next_suite != "" ? next_suite : "ktap" ndoc
		next_suite = ""
		file = sprintf("%s/%04d.ktap", docs, ndoc)
	}
	/^N900-/ { close_doc(); next }
	indoc { print > file }
	END { close_doc() }
' "$srcs" "${inputs[@]}"
touch "$tmp/docs/index"
docs=()
while IFS=$'\t' read -r _ f _; do docs+=("$f"); done <"$tmp/docs/index"

# ktap_count KUNIT: our count of the documents' results and check of their
# plans (every document has one, and as many results as it says; none at
# all is an error too); with KUNIT=1 the counts and short plans are
# kunit.py's, and this reports only a missing plan or results past it.
# Prints "passed failed skipped plan-errors".
ktap_count() {
	awk -v kunit="$1" '
		function close_doc() {
			if (!indoc) return
			if (plan < 0 || results > plan || (!kunit && results < plan)) {
				printf "harness: KTAP document %d: plan %s, %d results\n",
					ndoc, plan < 0 ? "missing" : plan, results > "/dev/stderr"
				perr++
			}
		}
		FNR == 1 { close_doc(); indoc = 1; ndoc++; plan = -1; results = 0 }
		/^1\.\.[0-9]+$/ { plan = substr($0, 4) + 0; next }
		/^(not )?ok [0-9]+/ {
			results++
			if ($0 ~ /^ok / && $0 ~ /# SKIP/) { skip++; next }
			if ($0 ~ /^ok /) pass++
			else { fail++; if (!kunit) print "harness: FAILED: " $0 > "/dev/stderr" }
		}
		END { close_doc(); printf "%d %d %d %d\n", pass, fail, skip, perr + (ndoc ? 0 : 1) }
	' ${docs[@]+"${docs[@]}"} </dev/null
}

# kunit_count: kunit.py parse --json on each document alone (two at a
# time: the host has two cores; kunit.py changes to the kernel tree, so
# every path is absolute); then the sum of their test cases (PASS, FAIL,
# SKIP, and ERROR: a result the plan promised and the document lacks), the
# failures and short plans reported, and the JSON of every document,
# grouped by console, in $json. Prints "passed failed skipped short-plans";
# status 1 when kunit.py left a document without its JSON.
kunit_count() {
	# shellcheck disable=SC2016 # expanded by sh -c, not here
	local run='"$0" "$1" parse --json="$2.json" "$2" >"$2.out" 2>&1 || true'
	printf '%s\n' ${docs[@]+"${docs[@]}"} | xargs -r -n1 -P2 sh -c "$run" "$python" "$kunit"
	"$python" - "$tmp/docs/index" "$json" <<'PY'
import json
import sys

index, out = sys.argv[1], sys.argv[2]
counts = {"PASS": 0, "FAIL": 0, "SKIP": 0, "ERROR": 0}
short = 0
sources = {}
for line in open(index, encoding="utf-8"):
    num, doc, source, suite = line.rstrip("\n").split("\t")
    try:
        with open(doc + ".json", encoding="utf-8") as f:
            group = json.load(f)
    except (OSError, ValueError) as e:
        print(f"harness: kunit.py gave no JSON for KTAP document {num} ({e})", file=sys.stderr)
        sys.exit(1)
    group["name"] = suite
    sources.setdefault(source, []).append(group)
    doc_counts = {k: 0 for k in counts}

    def walk(g):
        for case in g["test_cases"]:
            doc_counts[case["status"]] += 1
            if case["status"] == "FAIL":
                print(f"harness: FAILED: {source}/{suite}: not ok {case['name']}", file=sys.stderr)
        for sub in g["sub_groups"]:
            walk(sub)

    walk(group)
    if doc_counts["ERROR"]:
        ran = doc_counts["PASS"] + doc_counts["FAIL"] + doc_counts["SKIP"]
        plan = ran + doc_counts["ERROR"]
        print(f"harness: KTAP document {num}: plan {plan}, {ran} results", file=sys.stderr)
        short += 1
    for k in counts:
        counts[k] += doc_counts[k]
if out:
    common = {"arch": "arm", "defconfig": "", "build_environment": "",
              "lab_name": None, "kernel": None, "job": None, "git_branch": "kselftest"}
    report = {"name": "n900-isp ./build.sh test",
              "sub_groups": [dict({"name": s, "sub_groups": g, "test_cases": []}, **common)
                             for s, g in sources.items()],
              "test_cases": []}
    report.update(common)
    with open(out, "w", encoding="utf-8") as f:
        json.dump(report, f, indent=4)
        f.write("\n")
print(counts["PASS"], counts["FAIL"], counts["SKIP"], short)
PY
}
counted=
if [ -n "$kunit" ] && ! counted=$(kunit_count); then
	echo "harness: kunit.py parse failed (above): our awk counts the KTAP results"
	counted=
fi
if [ -n "$counted" ]; then
	read -r passed failed skipped plan_errors < <(ktap_count 1)
	read -r passed failed skipped short <<<"$counted"
	plan_errors=$((plan_errors + short))
	echo "harness: KTAP results counted by kunit.py parse (${#docs[@]} documents)${json:+; KernelCI JSON: $json}"
else
	read -r passed failed skipped plan_errors < <(ktap_count "")
fi

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
				# joined, not sprintf: mawk limits what sprintf
				# makes to 8192 bytes, and the diagnostics before
				# a failure can be longer
				body = body "    <testcase classname=\"" cls "\" name=\"" esc(name) "\"><failure message=\"" esc(line) "\">" esc(diag) "</failure></testcase>\n"
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

# The kernel splats, by kind, the most specific first: a report is named by
# the first kind that its first line or the two after it match (a "cut
# here" line comes before the WARNING or UBSAN line that says what it is;
# a KASAN report's first line is "BUG: KASAN: ..."). Lines that start with
# "# " are the guests' own words (a suite may quote a splat it found).
# Each entry: KIND=EXTENDED-REGEX. A checker that switched itself off
# (kmemleak or debugobjects out of memory, under stream-nomem's failed
# allocations) would find nothing more: that is a failure too.
splat_kinds=(
	'KASAN=KASAN:'
	'UBSAN=UBSAN:'
	'kmemleak=kmemleak: [0-9]+ new suspected|unreferenced object 0x'
	'lockdep=WARNING: (possible (circular|recursive) locking|possible irq lock inversion|inconsistent lock state|suspicious RCU usage|bad unlock balance)|INFO: (possible|inconsistent|trying to register)'
	'hung task=INFO: task .* blocked'
	'RCU stall=rcu: INFO: .*(self-detected stall|detected (expedited )?stalls?)'
	'panic=Kernel panic'
	'Oops=Oops|Unable to handle kernel|Internal error:'
	'BUG=BUG:'
	'WARNING=WARNING:|cut here \]-'
	'checker off=Kernel memory leak detector disabled|ODEBUG: Out of memory'
)
splat_re=
for k in "${splat_kinds[@]}"; do splat_re=${splat_re:+$splat_re|}${k#*=}; done
splat_re="($splat_re)"

# splat_kind FILE LINE: the kind of the splat at LINE of FILE (its lines
# that are not the guests' "# " ones)
splat_kind() {
	local k window
	window=$(grep -v '^# ' "$1" | sed -n "$2,$(($2 + 2))p")
	for k in "${splat_kinds[@]}"; do
		if grep -qE "${k#*=}" <<<"$window"; then
			echo "${k%%=*}"
			return
		fi
	done
	echo "splat"
}

for i in "${!logs[@]}"; do
	clean=$tmp/console.$i
	name=$(basename "${logs[$i]}")
	ended=1
	grep -q '^N900-TESTS-END' "$clean" && ended=0
	# board/qemu.sh killed QEMU, the guest's poweroff hung
	! grep -q '^N900-HOST: QEMU killed' "$clean" || ended=1
	check "$name: guest ran its whole suite (no timeout, hang or crash)" "$ended"

	first=$(grep -v '^# ' "$clean" | grep -n -m1 -E "$splat_re" | cut -d: -f1 || true)
	if [ -n "$first" ]; then
		echo "harness: kernel splat in $name: $(splat_kind "$clean" "$first") (first one, with context):"
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
