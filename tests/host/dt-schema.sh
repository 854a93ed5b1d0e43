#!/usr/bin/env bash
# tests/host/dt-schema.sh [--mutate | TOPOLOGY...]: the device tree bindings
# (dts/bindings/*.yaml) and our trees checked with dt-schema (Debian
# package dt-schema), as the kernel's "make dt_binding_check dtbs_check"
# does. One KTAP document on stdout, for the lint step (tests/host/lint.sh);
# exit status 1 on any "not ok".
#
#   compatibles_have_schemas  every compatible of the drivers' of_device_id
#                             tables has dts/bindings/COMPATIBLE.yaml, and
#                             every such schema names a driver's compatible
#   mk_schema                 dt-mk-schema processes every schema (it drops
#                             a broken one with only a warning)
#   doc.FILE                  dt-doc-validate: the schema against the
#                             meta-schemas
#   example.FILE              the schema's examples, extracted
#                             (dt-extract-example), compiled (dtc) and
#                             validated (dt-validate), as dt_binding_check
#   tree.TOPOLOGY             dt-validate on build/dt/TOPOLOGY.dtb: n900,
#                             each stress tree of the test run
#                             (N900_STRESS_TOPOLOGIES, default chain-64
#                             mesh-256) and each TOPOLOGY given (a
#                             dts/TOPOLOGY.dtso of yours), and dtc's checks
#                             on its overlay; dts/build.sh builds a tree
#                             that is missing or older than its sources
#   malformed.CASE            tests/data/dt-malformed/CASE.dtso compiled by
#                             dtc and merged onto QEMU's virt tree with
#                             fdtoverlay: its "// schema: rejects ERE" line
#                             wants a finding of dt-validate or dtc matching
#                             ERE, its "// dtc: rejects ERE" line a warning
#                             of dtc matching ERE (a defect dtc's checks
#                             catch and no schema can); "// schema:
#                             driver-only REASON" is a SKIP with the reason
#                             (a defect no tool catches), and a warning of
#                             dtc fails it; good.dtso and README's example
#                             overlay want no finding
#
# dtc runs with the kernel's default warning flags (DTC_WARN_FLAGS,
# board/lib.sh), not -q: each warning on an overlay of ours is a finding
# ("dtc: LINE: Warning (CHECK): ..."); rootfs/build.sh still compiles the
# malformed overlays whatever dtc says of them.
#
# Strict on our nodes only. dt-validate runs on the whole merged tree,
# with our schemas and dt-schema's core ones, and -m (a node whose
# compatible no schema has is a finding). QEMU's virt tree is not ours:
# dt-schema has no schema for most of its compatibles, and its
# platform-bus breaks one. So a finding counts when dt-validate does not
# report it on build/dt/virt.dtb alone in the same run (the base tree's
# own findings are printed as diagnostics, not counted). Every compatible
# of a node we add has a schema, so "failed to match any schema" counts:
# regulator-fixed, which dt-schema 2022.08 lacks (the kernel's is in its
# tree), has ours (dts/bindings/regulator-fixed.yaml), and a typo such as
# "regulator-fxed" is a finding.
#
# --mutate: the self-test of the malformed check (a lint subtest, ~20 s).
# In a scratch copy of the bindings, each constraint a "schema: rejects"
# case rests on is removed in turn, and for a "dtc: rejects" case dtc's
# check is turned off; that case must then be accepted, so its check
# would fail. One KTAP result per mutation.
# shellcheck source=board/lib.sh
. "$(dirname "$0")/../../board/lib.sh"

BINDINGS=$TOP/dts/bindings
MALFORMED=$TOP/tests/data/dt-malformed
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
RESULTS=()

# result OK NAME [DIAGNOSTICS...]: one KTAP result (numbered by finish);
# OK is 1, 0 or "skip" (then the first diagnostic is the reason)
result() {
	local ok=$1 name=$2 line
	shift 2
	case $ok in
	skip) RESULTS+=("ok - $name # SKIP $1") ;;
	1) RESULTS+=("ok - $name") ;;
	*)
		for line in "$@"; do
			[ -z "$line" ] || RESULTS+=("$(printf '%s\n' "$line" | sed -n '1,20s/^/# /p')")
		done
		RESULTS+=("not ok - $name")
		;;
	esac
}

# finish: print the plan and the results, exit 1 on any "not ok"
finish() {
	printf '%s\n' "${RESULTS[@]}" >"$tmp/results"
	echo "KTAP version 1"
	echo "1..$(grep -c '^\(not \)\?ok - ' "$tmp/results")"
	awk '/^(not )?ok - / { i++; sub(/ - /, " " i " ") } { print }' "$tmp/results"
	if grep -q '^not ok ' "$tmp/results"; then exit 1; fi
	exit 0
}

# records FILE: dt-validate's findings on FILE (build/dt-schema/validate.log),
# one a line: its continuation lines joined with " | ", the file name cut
records() {
	awk -v f="$1" '
		function flush() { if (r != "") print r; r = "" }
		/^\t/ { if (keep) r = r " |" $0; next }
		{
			flush()
			keep = index($0, f ":") == 1
			if (keep) { r = substr($0, length(f) + 2); sub(/^[0-9]+:[0-9]+:/, "", r); sub(/^ /, "", r) }
		}
		END { flush() }' "$VLOG" | sort
}

# findings FILE: the records of FILE that count (see the header)
findings() { records "$1" | comm -23 - "$tmp/base.records"; }

# dtc_compile SRC OUT [FLAGS...]: SRC compiled to OUT with the kernel's
# dtc checks (and FLAGS); its warnings, one a line, in OUT.dtc ("dtc:
# LINE: Warning (CHECK): ..."), its errors on stderr
dtc_compile() {
	local src=$1 dst=$2 rc=0
	shift 2
	dtc "${DTC_WARN_FLAGS[@]}" "$@" -I dts -O dtb -o "$dst" "$src" 2>"$dst.err" || rc=$?
	sed -n "s|^$src:\([0-9]*\)[-.0-9]*: \(Warning .*\)|dtc: \1: \2|p" "$dst.err" >"$dst.dtc"
	grep -v ': Warning (' "$dst.err" >&2 || true
	return $rc
}

# schema_line CASE.dtso: its "// schema:" line, without the prefix
schema_line() { sed -n 's|^// schema: ||p' "$1"; }
# dtc_line CASE.dtso: the ERE of its "// dtc: rejects ERE" line
dtc_line() { sed -n 's|^// dtc: rejects ||p' "$1"; }

# ---------------------------------------------------------------------------
if ! command -v dt-validate >/dev/null || ! command -v dt-doc-validate >/dev/null; then
	result 0 dt_schema_installed "dt-validate and dt-doc-validate are missing: install the Debian package dt-schema (./build.sh installs it)"
	finish
fi
mutate=
[ "${1:-}" != --mutate ] || { mutate=1; shift; }
out=$BUILD/dt-schema
mkdir -p "$out"
VLOG=$out/validate.log
mapfile -t schemas < <(find "$BINDINGS" -maxdepth 1 -name '*.yaml' | sort)
read -r -a stress <<<"${N900_STRESS_TOPOLOGIES:-chain-64 mesh-256}"
topos=(n900 "${stress[@]}")
for t in "$@"; do
	[[ " ${topos[*]} " == *" $t "* ]] || topos+=("$t")
done

# build_trees: build/dt/TOPOLOGY.dtb for n900 and the stress topologies of
# the test run, rebuilt by dts/build.sh when missing or stale
build_trees() {
	local t src dtb stale=()
	for t in "${topos[@]}"; do
		src=$TOP/dts/$t.dtso
		[[ ! $t =~ ^(chain|fan|mesh)-[0-9]+$ ]] || src=$TOP/dts/stress.sh
		dtb=$BUILD/dt/$t.dtb
		# a tree merged onto a virt tree of another -smp (a boot of
		# ./build.sh demo, then a test run's) has other CPU nodes
		if [ ! -f "$dtb" ] || [ ! -f "$BUILD/dt/virt.dtb" ] || [ "$src" -nt "$dtb" ] ||
			[ "$TOP/dts/build.sh" -nt "$dtb" ] ||
			[ "$(fdtget -l "$dtb" /cpus 2>&1)" != "$(fdtget -l "$BUILD/dt/virt.dtb" /cpus 2>&1)" ]; then
			stale+=("$t")
		fi
	done
	[ ${#stale[@]} -gt 0 ] || return 0
	"$TOP/dts/build.sh" "${stale[@]}" >"$LOGS/dt-schema-dtb.log" 2>&1 ||
		result 0 trees_build "dts/build.sh ${stale[*]} failed:" "$(tail -n 5 "$LOGS/dt-schema-dtb.log")"
}

# CASE|FILE|SED: the --mutate mutations, one for each "rejects" case: the
# sed -E expression that removes from FILE the constraint CASE rests on;
# CASE|dtc|FLAG for a "dtc: rejects" case: the dtc flag that turns its
# check off
# shellcheck disable=SC2016 # sed expressions, with $ and \$ as sed sees them
MUTATIONS=(
	'11-absurd-delay|n900emu-device.yaml|/^    maximum: 1000000$/d'
	'20-absurd-power|n900emu-device.yaml|/^    maximum: 100000$/d'
	'17-video-without-label|n900emu,isp-video.yaml|/^  - label$/d'
	'18-video-bad-direction|n900emu,isp-video.yaml|s/^      - output$/&\n      - sideways/'
	'19-metadata-output|n900emu,isp-video.yaml|s/^      const: capture$/      enum: [capture, output]/'
	'03-no-remote-endpoint|n900emu-graph.yaml|/^      - remote-endpoint$/d'
	'08-port-without-reg|n900emu,passthrough.yaml|s/^    \$ref: \/schemas\/graph.yaml#\/properties\/ports$/    type: object/'
	'12-pad-count-overflow|n900emu,passthrough.yaml|s/^      "\^port@\(1f.*/      "^port@[0-9a-f]+$":/'
	'13-pad-index-wrap|n900emu,passthrough.yaml|s/^      "\^port@\(1f.*/      "^port@[0-9a-f]+$":/'
	'07-unknown-compatible|n900emu,omap3-isp.yaml|s/^          - n900emu,isp-video$/&\n          - n900emu,isp-bogus/'
	'01-dangling-remote-endpoint|dtc|-Wno-graph_endpoint'
	'02-one-way-remote-endpoint|dtc|-Wno-graph_endpoint'
)

# mk_schema DIR OUT: the processed schema of DIR's bindings and the core
mk_schema() { dt-mk-schema -j -o "$2" "$1/" 2>&1 | sed "s|$1/||g"; }

if [ -n "$mutate" ]; then
	# each mutation alone: the case it serves must no longer be rejected
	topos=(n900)
	build_trees
	VLOG=$out/mutate-validate.log
	# every "rejects" case has its mutation
	for src in "$MALFORMED"/*.dtso; do
		case=$(basename "$src" .dtso)
		[[ $(schema_line "$src") == "rejects "* ]] || [ -n "$(dtc_line "$src")" ] || continue
		printf '%s\n' "${MUTATIONS[@]}" | grep -q "^$case|" ||
			result 0 "mutate.$case" "no mutation for this \"rejects\" case: add one to MUTATIONS"
	done
	for m in "${MUTATIONS[@]}"; do
		IFS='|' read -r case file expr <<<"$m"
		if [ ! -f "$MALFORMED/$case.dtso" ]; then
			result 0 "mutate.$case" "no tests/data/dt-malformed/$case.dtso: update MUTATIONS"
			continue
		fi
		if [ "$file" = dtc ]; then
			re=$(dtc_line "$MALFORMED/$case.dtso")
			dtc_compile "$MALFORMED/$case.dtso" "$tmp/$case.dtbo" "$expr" 2>/dev/null || true
			if [ -z "$re" ]; then
				result 0 "mutate.$case" "$case.dtso has no \"// dtc: rejects\" line: update MUTATIONS"
			elif grep -qE -- "$re" "$tmp/$case.dtbo.dtc"; then
				result 0 "mutate.$case" "with $expr, dtc still rejects $case: /$re/ matched"
			else
				result 1 "mutate.$case"
			fi
			continue
		fi
		rm -rf "$tmp/b" && cp -r "$BINDINGS" "$tmp/b"
		sed -i -E "$expr" "$tmp/b/$file"
		if cmp -s "$BINDINGS/$file" "$tmp/b/$file"; then
			result 0 "mutate.$case" "the mutation of $file changed nothing: update MUTATIONS"
			continue
		fi
		mk_schema "$tmp/b" "$tmp/m.json" >/dev/null
		dtc -q -I dts -O dtb -o "$tmp/$case.dtbo" "$MALFORMED/$case.dtso"
		fdtoverlay -i "$BUILD/dt/virt.dtb" -o "$tmp/$case.dtb" "$tmp/$case.dtbo"
		dt-validate -m -s "$tmp/m.json" "$BUILD/dt/virt.dtb" "$tmp/$case.dtb" >"$VLOG" 2>&1 || true
		records "$BUILD/dt/virt.dtb" >"$tmp/base.records"
		re=$(schema_line "$MALFORMED/$case.dtso" | sed -n 's/^rejects //p')
		if findings "$tmp/$case.dtb" | grep -qE -- "$re"; then
			result 0 "mutate.$case" "without its constraint in $file, the schemas still reject $case: /$re/ matched"
		else
			result 1 "mutate.$case"
		fi
	done
	finish
fi

t0=$SECONDS
# the compatibles the drivers match: their of_device_id tables, and the
# video nodes the ISP core picks out with of_device_is_compatible()
mapfile -t compats < <(grep -rhoE '(\.compatible = |of_device_is_compatible\([a-z_]+, )"n900emu,[^"]+"' \
	"$TOP/drivers" | sed 's/.*"\(.*\)"/\1/' | sort -u)
unmatched=$(for c in "${compats[@]}"; do
	[ -f "$BINDINGS/$c.yaml" ] || echo "$c: no dts/bindings/$c.yaml"
	grep -q "^    const: $c\$" "$BINDINGS/$c.yaml" 2>/dev/null ||
		echo "$c: dts/bindings/$c.yaml does not select it (compatible: const: $c)"
done | sort -u)
for s in "$BINDINGS"/n900emu,*.yaml; do
	c=$(basename "$s" .yaml)
	printf '%s\n' "${compats[@]}" | grep -qxF "$c" ||
		unmatched+=${unmatched:+$'\n'}"$c.yaml: no driver has the compatible $c"
done
if [ -z "$unmatched" ]; then
	result 1 compatibles_have_schemas
else
	result 0 compatibles_have_schemas "$unmatched"
fi

# the processed schema: ours, with dt-schema's core schemas
log=$(mk_schema "$BINDINGS" "$out/processed-schema.json")
if [ -z "$log" ]; then result 1 mk_schema; else result 0 mk_schema "$log"; fi

# every schema against the meta-schemas (one run: a file's lines name it)
dt-doc-validate -u "$BINDINGS" "${schemas[@]}" >"$out/doc-validate.log" 2>&1 || true
for s in "${schemas[@]}"; do
	log=$(grep -F -A3 "$s:" "$out/doc-validate.log" || true)
	if [ -z "$log" ]; then result 1 "doc.$(basename "$s")"; else result 0 "doc.$(basename "$s")" "$log"; fi
done

build_trees
base=$BUILD/dt/virt.dtb

# the examples, as dt_binding_check compiles them (its dtc flags)
examples=()
for s in "${schemas[@]}"; do
	b=$(basename "$s" .yaml)
	grep -q '^examples:' "$s" || continue
	rm -f "$out/$b.example.dtb"
	if dt-extract-example "$s" >"$out/$b.example.dts" 2>"$out/$b.example.log"; then
		dtc -I dts -O dtb -Wno-avoid_unnecessary_addr_size -o "$out/$b.example.dtb" \
			"$out/$b.example.dts" 2>>"$out/$b.example.log" || rm -f "$out/$b.example.dtb"
	fi
	examples+=("$b")
done

# the malformed overlays, good.dtso and README's example, each merged
# onto the virt tree as dts/build.sh merges dts/n900.dtso
cases=()
for src in "$MALFORMED"/*.dtso; do cases+=("$(basename "$src" .dtso)"); done
sed -n '/<!-- overlay:begin -->/,/<!-- overlay:end -->/p' "$TOP/README.md" |
	sed -e '/^<!--/d' -e '/^```/d' >"$out/readme-example.dtso"
printf '// schema: accepts\n' >>"$out/readme-example.dtso"
cases+=(readme-example)
for c in "${cases[@]}"; do
	src=$MALFORMED/$c.dtso
	[ -f "$src" ] || src=$out/$c.dtso
	rm -f "$out/$c.dtb"
	{ dtc_compile "$src" "$out/$c.dtbo" &&
		fdtoverlay -i "$base" -o "$out/$c.dtb" "$out/$c.dtbo"; } >"$out/$c.log" 2>&1 || true
done
# dtc's checks on the trees' overlays (a stress overlay is generated by
# dts/build.sh into build/dt/)
for t in "${topos[@]}"; do
	src=$TOP/dts/$t.dtso
	[ -f "$src" ] || src=$BUILD/dt/$t.dtso
	rm -f "$out/tree-$t.dtbo.dtc"
	[ ! -f "$src" ] || dtc_compile "$src" "$out/tree-$t.dtbo" -@ 2>/dev/null || true
done

# two dt-validate runs side by side (each loads the schemas once): the
# stress trees, and everything else with the virt tree
files=("$base")
big=()
for t in "${topos[@]}"; do
	[ -f "$BUILD/dt/$t.dtb" ] || continue
	if [ "$t" = n900 ]; then files+=("$BUILD/dt/$t.dtb"); else big+=("$BUILD/dt/$t.dtb"); fi
done
for b in "${examples[@]}"; do [ ! -f "$out/$b.example.dtb" ] || files+=("$out/$b.example.dtb"); done
for c in "${cases[@]}"; do [ ! -f "$out/$c.dtb" ] || files+=("$out/$c.dtb"); done
t1=$SECONDS
rc=0 rc2=0
[ ${#big[@]} -eq 0 ] ||
	dt-validate -m -s "$out/processed-schema.json" "${big[@]}" >"$VLOG.stress" 2>&1 &
dt-validate -m -s "$out/processed-schema.json" "${files[@]}" >"$VLOG" 2>&1 || rc=$?
[ ${#big[@]} -eq 0 ] || wait $! || rc2=$?
[ ${#big[@]} -eq 0 ] || cat "$VLOG.stress" >>"$VLOG"
tv=$((SECONDS - t1))
files+=(${big[@]+"${big[@]}"})
# a line that names none of the files (a traceback, a recursion error)
stray=$(printf '%s\n' "${files[@]}" | awk 'NR == FNR { f[n++] = $0 ":"; next }
	/^\t/ { next }
	{ for (i = 0; i < n; i++) if (index($0, f[i]) == 1) next; print }' - "$VLOG")
if [ $rc -ne 0 ] || [ $rc2 -ne 0 ] || [ -n "$stray" ]; then
	result 0 dt_validate_runs "dt-validate failed (exit $rc, $rc2), see ${VLOG#"$TOP"/}:" "$stray"
fi
records "$base" >"$tmp/base.records"

for b in "${examples[@]}"; do
	f=$out/$b.example.dtb
	if [ ! -f "$f" ]; then
		result 0 "example.$b.yaml" "dt-extract-example or dtc failed:" "$(cat "$out/$b.example.log")"
		continue
	fi
	log=$(cat "$out/$b.example.log"; records "$f")
	if [ -z "$log" ]; then result 1 "example.$b.yaml"; else result 0 "example.$b.yaml" "$log"; fi
done

for t in "${topos[@]}"; do
	f=$BUILD/dt/$t.dtb
	if [ ! -f "$f" ]; then
		result 0 "tree.$t" "no build/dt/$t.dtb (see $LOGS/dt-schema-dtb.log)"
		continue
	fi
	log=$(findings "$f"; cat "$out/tree-$t.dtbo.dtc" 2>/dev/null || true)
	if [ -z "$log" ]; then result 1 "tree.$t"; else result 0 "tree.$t" "$log"; fi
done

for c in "${cases[@]}"; do
	src=$MALFORMED/$c.dtso
	[ -f "$src" ] || src=$out/$c.dtso
	f=$out/$c.dtb
	how=$(schema_line "$src")
	dtcre=$(dtc_line "$src")
	if [ ! -f "$f" ]; then
		result 0 "malformed.$c" "dtc or fdtoverlay failed:" "$(cat "$out/$c.log")"
		continue
	fi
	log=$(findings "$f"; cat "$out/$c.dtbo.dtc")
	if [ -n "$dtcre" ] && [ -n "$how" ]; then
		result 0 "malformed.$c" "${src#"$TOP"/} has both a \"// schema:\" and a \"// dtc: rejects\" line: keep one"
		continue
	elif [ -n "$dtcre" ]; then
		if grep -qE -- "$dtcre" "$out/$c.dtbo.dtc"; then
			result 1 "malformed.$c"
		else
			result 0 "malformed.$c" "dtc does not report /$dtcre/; the findings:" "${log:-(none)}"
		fi
		continue
	fi
	case $how in
	accepts)
		if [ -z "$log" ]; then result 1 "malformed.$c"; else result 0 "malformed.$c" "$log"; fi
		;;
	"rejects "*)
		if grep -qE -- "${how#rejects }" <<<"$log"; then
			result 1 "malformed.$c"
		else
			result 0 "malformed.$c" "dt-validate does not report /${how#rejects }/; its findings:" "${log:-(none)}"
		fi
		;;
	"driver-only "*)
		if [ ! -s "$out/$c.dtbo.dtc" ]; then
			result skip "malformed.$c" "driver-only: ${how#driver-only }"
		else
			result 0 "malformed.$c" "marked driver-only, yet dtc reports it: mark it \"// dtc: rejects ERE\"; dtc's findings:" "$(cat "$out/$c.dtbo.dtc")"
		fi
		;;
	*) result 0 "malformed.$c" "${src#"$TOP"/} has no \"// schema: accepts|rejects ERE|driver-only REASON\" or \"// dtc: rejects ERE\" line" ;;
	esac
done

# what is not ours, and the time it took
{
	echo "# dt-schema $(dt-validate -V 2>&1): strict on our nodes only; QEMU's virt tree alone has $(wc -l <"$tmp/base.records") finding(s) of its own, not counted:"
	sed -n '1,5s/^/#   /p' "$tmp/base.records" | cut -c1-160
	echo "# ${#files[@]} trees validated by dt-validate in ${tv} s; this check took $((SECONDS - t0)) s"
} >"$tmp/diag"
mapfile -t diag <"$tmp/diag"
RESULTS=("${diag[@]}" ${RESULTS[@]+"${RESULTS[@]}"})
finish
