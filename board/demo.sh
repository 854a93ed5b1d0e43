#!/usr/bin/env bash
# board/demo.sh FLAVOUR RUN [--uboot] TOPOLOGY: the demo's boot and its
# account. Boots the guest in mode demo (board/qemu.sh boot: the console
# goes to RUN/demo.log, on the terminal only with N900_VERBOSE=1), draws
# what it left (RUN/topology.png, RUN/power-timeline.png,
# RUN/demo/frames/*.png: tests/host/render.sh) and tells, in a few lines,
# the graph, the power experiment's energy and the frames captured.
# shellcheck source=board/lib.sh
. "$(dirname "$0")/lib.sh"

[ $# -ge 3 ] || die "usage: board/demo.sh FLAVOUR RUN [--uboot] TOPOLOGY"
flavour=$1 run=$2
shift 2
opts=()
[ "$1" != --uboot ] || { opts=(--uboot); shift; }
topo=$1 log=$run/demo.log
"$TOP/board/qemu.sh" boot ${opts[@]+"${opts[@]}"} "$flavour" demo "$topo" "$run" demo
grep -q '^N900-DEMO-DONE' "$log" || die "the demo did not finish; see $log"

# the graph: media-ctl -p between its N900-DEMO lines, in a few lines
say "the graph (media-ctl -p; drawn in ${run#"$TOP"/}/topology.png):"
"$TOP/tests/host/render.sh" topology "$log" "$run/topology.png"
tr -d '\r' <"$log" | sed -n '/^N900-DEMO: media-ctl -p/,/^N900-DEMO: a power/p' | awk '
	/^model/ { sub(/^model */, ""); model = $0 }
	/^- entity [0-9]+: / {
		cur = $0; sub(/^- entity [0-9]+: /, "", cur); sub(/ \([0-9]+ pads?,.*/, "", cur)
		n++; next }
	/^ *type Node/ { nodes++ }
	/^\t\t-> "/ {
		links++
		if (!/\[[A-Z,]*ENABLED/) next
		to = $0; sub(/^\t\t-> "/, "", to); sub(/":.*/, "", to)
		en++; nxt[cur] = to; hasin[to] = 1; order[++m] = cur }
	END {
		printf "  %s: %d entities (%d video nodes), %d links, %d enabled\n", model, n, nodes, links, en
		for (i = 1; i <= m && shown < 4; i++) {
			e = order[i]
			if (e in hasin || e in done) continue
			line = e; done[e] = 1; k = 0
			while ((e in nxt) && k++ < 12) { e = nxt[e]; line = line " -> " e; done[e] = 1 }
			printf "  enabled: %s\n", line; shown++
		}
	}' | sed 's/^/[build] /'

[ "$topo" = n900 ] || { say "console: ${log#"$TOP"/}"; exit 0; }
# the power experiment: its events and each entity's energy
[ -s "$run/demo/power-events.tsv" ] || die "the demo left no power-event log in $run/demo/"
"$TOP/tests/host/render.sh" power "$run/demo/power-events.tsv" "$run/power-timeline.png"
ev=$(grep -c 'power-on' "$run/demo/power-events.tsv" || true)
total=$(tr -d '\r' <"$log" | sed -n 's/^total_energy_uJ //p' | tail -n 1)
say "the power experiment (open, link, stream 5 frames, unlink, close): $ev power-ups, $((total / 1000)) mJ in all"
say "  most: $(tr -d '\r' <"$log" | awk '/^# entity .*energy_uJ/ { on = 1; next } /^total_energy_uJ/ { on = 0 }
	on && NF >= 7 { e = $NF; sub(/ +-?[0-9]+ +(on|off) .*/, ""); printf "%d\t%s\n", e / 1000, $0 }' |
	sort -rn | head -n 4 | awk -F'\t' '{ printf "%s%s %d mJ", (NR > 1 ? ", " : ""), $2, $1 }')"
say "  drawn in ${run#"$TOP"/}/power-timeline.png"

# the frames, one per main path
"$TOP/tests/host/render.sh" frames "$run/demo"
[ -f "$run/demo/frames/resizer.png" ] || die "the demo captured no frame; see $log"
say "frames captured, one per main path (${run#"$TOP"/}/demo/frames/*.png):"
for info in "$run"/demo/frames/*.info; do
	read -r w h fmt <"$info"
	say "  $(basename "$info" .info): ${w}x$h $fmt"
done

# the 3A example: its frames before and after, and its convergence plot
if [ -s "$run/demo/3a/3a.tsv" ]; then
	"$TOP/tests/host/render.sh" 3a "$run/demo"
	say "the 3A example (n900-3a, default scene at 3000 K, from a bad start): $(tr -d '\r' <"$run/demo/3a/3a.txt" | sed -n 's/^converged: /converged at frame: /p')"
	say "  drawn in ${run#"$TOP"/}/demo/3a/{before,after,convergence}.png"
fi
say "console: ${log#"$TOP"/} (N900_VERBOSE=1 shows it as it comes)"
