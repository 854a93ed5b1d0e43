#!/usr/bin/env bash
# tests/bench/bench-report.sh LOG...: BENCHMARKS.md (on stdout) from the guest
# consoles of ./build.sh bench, named bench-{vanilla,patched}-TOPOLOGY.log.
# Every figure comes from the logs; the ratios are computed here.
set -euo pipefail

# With --tsv first: only the medians of the chain topologies, one line per
# operation and length (op, N, vanilla ms, patched ms), for tests/bench/bench-plot.sh.
tsv=
[ "${1:-}" != --tsv ] || { tsv=1; shift; }
[ $# -gt 0 ] || { echo "usage: $0 [--tsv] bench-KERNEL-TOPOLOGY.log..." >&2; exit 2; }

# one record per log and measurement:
#   KERNEL TOPOLOGY op=OP median_us=X    (mc-bench)
#   KERNEL TOPOLOGY power ON OFF N       (stress.sh: powered on open, off on close)
#   KERNEL TOPOLOGY stream ok|ERROR      (stress.sh test 4)
#   KERNEL TOPOLOGY dev OP ENTITIES X    (X: median_us, or per_call_us)
#   KERNEL TOPOLOGY pair OP BIG/SMALL RATIO MIN MAX RUNS  (mc-bench's
#                                        paired mode: two ISPs, one boot)
#   KERNEL TOPOLOGY pair0 OP BIG/SMALL RATIO MIN MAX RUNS  (the same,
#                                        without the address-space switches)
#   KERNEL TOPOLOGY warnings K
#   KERNEL TOPOLOGY kernel RELEASE
records() {
	local log base kernel topo
	for log in "$@"; do
		base=$(basename "$log" .log)
		base=${base#bench-}
		kernel=${base%%-*}
		topo=${base#*-}
		tr -d '\r' <"$log" | awk -v k="$kernel" -v t="$topo" '
			/^N900-BOOT: mode/ { sub(/,.*/, "", $5); print k, t, "kernel", $5 }
			/^BENCH op=/ {
				for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
				print k, t, "op=" v["op"], v["median_us"], v["runs"]
			}
			/^BENCH-CALL op=/ {
				for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
				print k, t, "call=" v["op"], v["per_call_us"]
			}
			/^BENCH(-CALL)? op=/ {
				x = $1 == "BENCH-CALL" ? v["per_call_us"] : v["median_us"]
				print k, t, "dev", v["op"], v["entities"], x
			}
			/^BENCH-PAIR(-NOSWITCH)? op=/ {
				for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
				print k, t, $1 == "BENCH-PAIR" ? "pair" : "pair0", v["op"], v["entities"], v["ratio"], v["min"], v["max"], v["runs"]
			}
			/^BENCH warnings=/ { split($2, kv, "="); print k, t, "warnings", kv[2] }
			/^BENCH splats=/ { split($2, kv, "="); print k, t, "splats", kv[2] }
			/^BENCH-FAILED/ { $1 = ""; print k, t, "failed", $0 }
			/^# with .* open: / {
				for (i = 1; i <= NF; i++) {
					if ($i == "powered;") on = $(i - 3)
					if ($i == "off") { off = $(i - 3); n = $(i - 1) }
				}
				print k, t, "power", on, off, n
			}
			/^# .*returned -1/ { err = $0; sub(/.*returned -1 */, "", err); gsub(/ /, "_", err) }
			/^ok 4 stream_whole_pipeline/ { print k, t, "stream", "ok" }
			/^not ok 4 stream_whole_pipeline/ { print k, t, "stream", (err == "" ? "fails" : "fails_" err) }
		'
	done
}

data=$(records "$@")
get() { # KERNEL TOPOLOGY FIELD [COLUMN]: the value, or "-"
	awk -v k="$1" -v t="$2" -v f="$3" -v c="${4:-4}" \
		'$1 == k && $2 == t && $3 == f { print $c; found = 1; exit }
		 END { if (!found) print "-" }' <<<"$data"
}
ratio() { # A B: A/B with two decimals, or "-"
	awk -v a="$1" -v b="$2" 'BEGIN {
		if (a == "-" || b == "-" || b == 0) print "-"; else printf "%.2f", a / b }'
}
ms() { awk -v a="$1" 'BEGIN { if (a == "-") print "-"; else printf "%.2f", a / 1000 }'; }

mapfile -t chains < <(awk '$2 ~ /^chain-/ { print substr($2, 7) }' <<<"$data" | sort -n -u)

if [ -n "$tsv" ]; then
	printf '# op\tN\tvanilla_ms\tpatched_ms\n'
	for op in enum topology toggle power_on; do
		for n in "${chains[@]}"; do
			printf '%s\t%s\t%s\t%s\n' "$op" "$n" \
				"$(ms "$(get vanilla "chain-$n" "op=$op")")" "$(ms "$(get patched "chain-$n" "op=$op")")"
		done
	done
	exit 0
fi

cat <<EOF
# Benchmarks

Written by \`./build.sh bench\` on $(date -u +%Y-%m-%d); do not edit by hand.

## Media controller core: vanilla 6.12 against patches/ (issue 5)

Conditions:

- host: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//') ($(nproc) cores), $(qemu-system-arm --version | head -n1)
- guest: \`qemu-system-arm -M virt -cpu cortex-a15\`, TCG, 2 vCPUs, 256 MB
  (board/qemu.sh); release kernel flavour (no debug options)
- kernels: **vanilla** is linux-source-6.12 $(get vanilla chain-"${chains[0]:-16}" kernel) with none
  of \`patches/\`; **patched** has all of them. Same build configuration.
- topologies: \`dts/stress.sh chain N\` (N pass-through entities in a line,
  every link enabled, into a capture node), booted with \`fw_devlink=off\`
- every figure is the median of repeated runs inside one boot
  (\`tests/guest/mc-bench.c\`: at least 5 runs and 3 s, at most 31), in
  milliseconds; vanilla and patched run one after the other in the same
  \`./build.sh bench\`
- operations:
  - **enum**: full enumeration as media-ctl does it, \`ENUM_ENTITIES\`
    with \`ID_FLAG_NEXT\` from 0, then \`ENUM_LINKS\` on every entity
  - **topology**: \`G_TOPOLOGY\`, both calls (counts, then arrays)
  - **toggle**: disable and re-enable the middle link of the chain with
    the capture node open (pipeline power follows the link)
  - **power_on**: \`open()\` of the capture node, which powers the
    whole pipeline up

EOF

for op in enum topology toggle power_on; do
	echo "### $op"
	echo
	echo "| N | vanilla ms | patched ms | vanilla/patched | vanilla t(N)/t(N/4) | patched t(N)/t(N/4) |"
	echo "|---:|---:|---:|---:|---:|---:|"
	prev_v=- prev_p=- prev_n=-
	for n in "${chains[@]}"; do
		v=$(get vanilla "chain-$n" "op=$op")
		p=$(get patched "chain-$n" "op=$op")
		sv=- sp=-
		if [ "$prev_n" = $((n / 4)) ] 2>/dev/null; then
			sv=$(ratio "$v" "$prev_v")
			sp=$(ratio "$p" "$prev_p")
		fi
		echo "| $n | $(ms "$v") | $(ms "$p") | $(ratio "$v" "$p") | $sv | $sp |"
		prev_v=$v prev_p=$p prev_n=$n
	done
	echo
done

last=
[ ${#chains[@]} -eq 0 ] || last=${chains[${#chains[@]} - 1]}
if [ -n "$last" ]; then
	speedup=$(ratio "$(get vanilla "chain-$last" op=enum)" "$(get patched "chain-$last" op=enum)")
	scaling=$(ratio "$(get patched "chain-$last" op=enum)" "$(get patched "chain-$((last / 4))" op=enum)")
	cat <<-EOF
		### Targets (issue 5)

		- full enumeration at N=$last, vanilla/patched: **$speedup** (target: at least 20)
		- patched scaling of full enumeration, t($last)/t($((last / 4))): **$scaling** (target: at most 5)

	EOF
fi

if grep -q ' call=' <<<"$data"; then
	cat <<-EOF
		### Per call: the enumeration's ioctls against an empty one (issue 21)

		In the same boots (\`mc-bench\`: each timed over a whole pass, divided
		by its calls): \`MEDIA_IOC_DEVICE_INFO\` as many times as there are
		entities (it copies a fixed answer: the cost of an ioctl), then
		\`ENUM_ENTITIES\` with \`ID_FLAG_NEXT\` over every entity, then
		\`ENUM_LINKS\` on every entity. Microseconds per call, patched kernel
		(vanilla in brackets).

		| N | DEVICE_INFO µs | ENUM_ENTITIES µs | ENUM_LINKS µs | ENUM_ENTITIES / DEVICE_INFO | ENUM_LINKS / DEVICE_INFO |
		|---:|---:|---:|---:|---:|---:|
	EOF
	for n in "${chains[@]}"; do
		d=$(get patched "chain-$n" call=device_info)
		e=$(get patched "chain-$n" call=enum_entities)
		l=$(get patched "chain-$n" call=enum_links)
		echo "| $n | $d ($(get vanilla "chain-$n" call=device_info)) | $e ($(get vanilla "chain-$n" call=enum_entities)) | $l ($(get vanilla "chain-$n" call=enum_links)) | **$(ratio "$e" "$d")** | **$(ratio "$l" "$d")** |"
	done
	echo
fi

# the two ISPs of one boot (dts/stress.sh chains N): per kernel and
# operation, each graph's median and the median of the run by run ratios
scaling() { # KERNEL TOPOLOGY: the table's lines, then "worst X OP SMALL BIG"
	awk -v k="$1" -v t="$2" '
		$1 == k && $2 == t && $3 == "dev" { val[$4, $5 + 0] = $6 }
		$1 == k && $2 == t && $3 == "pair" { ops[++n] = $4; pair[$4] = $5; r[$4] = $6; lo[$4] = $7; hi[$4] = $8; runs[$4] = $9 }
		$1 == k && $2 == t && $3 == "pair0" { r0[$4] = $6 }
		END {
			worst = 0
			for (i = 1; i <= n; i++) {
				op = ops[i]
				split(pair[op], e, "/")
				big = e[1] + 0; small = e[2] + 0
				unit = op ~ /^(device_info|enum_entities|enum_links)$/ ? "µs a call" : "ms"
				div = unit == "ms" ? 1000 : 1
				printf "| %s | %.2f | %.2f | %s | %d | %.2f .. %.2f | **%.2f** | %s |\n", op,
					val[op, small] / div, val[op, big] / div, unit, runs[op], lo[op], hi[op], r[op],
					op in r0 ? sprintf("%.2f", r0[op]) : "-"
				if (unit == "ms" && r[op] > worst) { worst = r[op]; wop = op }
				if (unit == "ms" && (op in r0) && r0[op] > worst0) { worst0 = r0[op]; wop0 = op }
			}
			w0 = wop0 == "" ? "- -" : sprintf("%.2f %s", worst0, wop0)
			if (wop == "")
				printf "worst - - %d %d %s\n", small, big, w0
			else
				printf "worst %.2f %s %d %d %s\n", worst, wop, small, big, w0
		}' <<<"$data"
}

for k in vanilla patched; do
	# the biggest chains-N booted (logs of other runs may be there too)
	topo=$(awk -v k="$k" '$1 == k && $2 ~ /^chains-/ { print $2 }' <<<"$data" | sort -t- -k2 -n | tail -n 1)
	[ -n "$topo" ] || continue
	if ! awk -v k="$k" -v t="$topo" '$1 == k && $2 == t && $3 == "pair" { f = 1 } END { exit !f }' <<<"$data"; then
		printf '### Scaling inside one boot, %s kernel (issue 21)\n\nThe %s boot printed no paired timings (see its console, bench-%s-%s.log).\n\n' \
			"$k" "$topo" "$k" "$topo"
		continue
	fi
	lines=$(scaling "$k" "$topo")
	read -r _ worst wop small big worst0 wop0 <<<"$(tail -n 1 <<<"$lines")"
	cat <<-EOF
		### Scaling inside one boot, $k kernel (issue 21)

		The same operations on chain $((small - 1)) and chain $((big - 1)) ($small and $big entities with
		the capture node), two ISPs of one tree (\`dts/stress.sh chains $((big - 1))\`), in
		one boot, each run on one followed by the same run on the other
		(\`mc-bench\`'s paired mode). A ratio of the tables above divides
		figures of two boots, whose speeds can differ (compare their
		\`DEVICE_INFO\` per call); here each ratio divides two runs made one
		after the other, and "median" is their median (per call for
		the per-call operations; linear is 4 for the others, 1 per call).
		\`toggle_idle\` is \`toggle\` with the capture node closed: the
		checks and graph walks of \`SETUP_LINK\` without the power
		transitions.

		Before each untimed run, \`mc-bench\` (pinned to one vCPU) hands
		the CPU to a partner process and back: two address-space switches,
		at each of which QEMU flushes its software TLB and may resize it
		(it doubles it when it was more than 70 % full). A process alone on
		its CPU makes no switch, and QEMU's TLB keeps whatever size the
		processes before it left (README.md, "Scaling"). The last column is
		the median ratio of a second \`mc-bench\` run of the same boot,
		pinned as well, without the switches (\`MC_BENCH_SWITCH=0\`).

		| operation | chain $((small - 1)) | chain $((big - 1)) | unit | runs | t($((big - 1)))/t($((small - 1))), extremes | median | median without the switches |
		|---|---:|---:|---|---:|---|---:|---:|
		$(sed '$d' <<<"$lines")

		- the worst operation's scaling inside one boot, t($((big - 1)))/t($((small - 1))): **$worst** ($wop; issue 21's target: at most 4.5 for every operation); without the switches: $worst0 ($wop0)

	EOF
done

cat <<EOF
## Weak points of vanilla 6.12, per topology

From \`tests/guest/stress.sh\` in the same boots: the entities powered with
the capture node open and off after closing it, whether the whole pipeline
streams (\`media_pipeline_start()\`), the kernel WARNINGs of the boot
(\`/sys/kernel/warn_count\`) and its other splats (log lines with BUG, Oops,
KASAN, UBSAN, lockdep or kmemleak).

| topology | kernel | powered on open | off on close | stream | WARNINGs | other splats |
|---|---|---:|---:|---|---:|---:|
EOF
mapfile -t twos < <(awk '$2 ~ /^chains-/ { print $2 }' <<<"$data" | sort -t- -k2 -n -u)
for topo in mesh-256 "${chains[@]/#/chain-}" ${twos[@]+"${twos[@]}"}; do
	for k in vanilla patched; do
		n=$(get $k "$topo" power 6)
		on="$(get $k "$topo" power) of $n" off="$(get $k "$topo" power 5) of $n"
		# chains-N boots run no stress.sh: their WARNINGs and splats only
		[ "$n" != - ] || on=- off=-
		echo "| $topo | $k | $on | $off" \
			"| $(get $k "$topo" stream | tr _ ' ') | $(get $k "$topo" warnings)" \
			"| $(get $k "$topo" splats) |"
	done
done
echo
failed=$(awk '$3 == "failed"' <<<"$data")
if [ -n "$failed" ]; then
	echo "Runs that failed:"
	echo
	awk '$3 == "failed" { $3 = ""; print "- " $0 }' <<<"$data"
fi
