#!/usr/bin/env bash
# dt-topology.sh DTB - print the media topology that a compiled device tree
# describes, for the in-guest tests to compare the driver against.
#
# This reads the DTB only (fdtget), never the driver, so a driver bug cannot
# leak into the expected values. Output, one record per line, tab-separated:
#   model      <media device model: the ISP node's label>
#   entity     <name: the node's label>  <pads: highest port reg + 1>
#   link       <nameA> <padA> <nameB> <padB> <flags>   (each pair once,
#              unordered; flags: 1 = ENABLED, 2 = IMMUTABLE, from either end)
#   ancillary  <sensor name> <lens or flash name>      (lens-focus, flash-leds)
set -euo pipefail

dtb=${1:?usage: dt-topology.sh DTB}
command -v fdtget >/dev/null || { echo "fdtget missing (device-tree-compiler)" >&2; exit 1; }

declare -A PHANDLE LABEL

get() { fdtget "$@" 2>/dev/null || true; }
has_prop() { fdtget -p "$dtb" "$1" 2>/dev/null | grep -qx -- "$2"; }

# All nodes below $1, depth first.
walk() {
	local p=$1 c
	echo "$p"
	for c in $(get -l "$dtb" "$p"); do
		walk "$p/$c"
	done
}

nodes=()
for top in $(get -l "$dtb" /); do
	case $(get -t s "$dtb" "/$top" compatible) in
	n900emu,*) mapfile -t -O "${#nodes[@]}" nodes < <(walk "/$top") ;;
	esac
done

entities=()
for n in "${nodes[@]}"; do
	ph=$(get -t u "$dtb" "$n" phandle)
	[ -z "$ph" ] || PHANDLE[$ph]=$n
	compat=$(get -t s "$dtb" "$n" compatible)
	case $compat in
	n900emu,omap3-isp*) printf 'model\t%s\n' "$(get -t s "$dtb" "$n" label)" ;;
	n900emu,*)
		label=$(get -t s "$dtb" "$n" label)
		[ -n "$label" ] || { echo "$n: entity without a label" >&2; exit 1; }
		LABEL[$n]=$label
		entities+=("$n")
		;;
	esac
done

# port node -> pad index (its reg, 0 when absent)
port_index() { local r; r=$(get -t u "$dtb" "$1" reg); echo "${r:-0}"; }
# port node -> entity node
port_entity() {
	local parent=${1%/*}
	case ${parent##*/} in ports) parent=${parent%/*} ;; esac
	echo "$parent"
}
ports_of() {
	local e=$1 c
	for c in $(get -l "$dtb" "$e"); do
		case $c in
		port | port@*) echo "$e/$c" ;;
		ports) for p in $(get -l "$dtb" "$e/ports"); do
			case $p in port | port@*) echo "$e/ports/$p" ;; esac
		done ;;
		esac
	done
}

links=()
for e in "${entities[@]}"; do
	npads=0
	for port in $(ports_of "$e"); do
		idx=$(port_index "$port")
		[ $((idx + 1)) -le $npads ] || npads=$((idx + 1))
		for ep in $(get -l "$dtb" "$port"); do
			case $ep in endpoint | endpoint@*) ;; *) continue ;; esac
			ep=$port/$ep
			rph=$(get -t u "$dtb" "$ep" remote-endpoint)
			[ -n "$rph" ] || continue
			rep=${PHANDLE[$rph]:?"$ep: remote-endpoint to an unknown node"}
			rport=${rep%/*}
			rent=$(port_entity "$rport")
			flags=0
			for x in "$ep" "$rep"; do
				has_prop "$x" n900emu,link-enabled && flags=$((flags | 1))
				has_prop "$x" n900emu,link-immutable && flags=$((flags | 2))
			done
			a="${LABEL[$e]}"$'\t'"$idx"
			b="${LABEL[$rent]:?"$rep: endpoint of a node without label"}"$'\t'"$(port_index "$rport")"
			if [[ $a > $b ]]; then t=$a; a=$b; b=$t; fi
			links+=("link"$'\t'"$a"$'\t'"$b"$'\t'"$flags")
		done
	done
	printf 'entity\t%s\t%d\n' "${LABEL[$e]}" "$npads"
	for prop in lens-focus flash-leds; do
		for ph in $(get -t u "$dtb" "$e" "$prop"); do
			printf 'ancillary\t%s\t%s\n' "${LABEL[$e]}" "${LABEL[${PHANDLE[$ph]}]}"
		done
	done
done
printf '%s\n' "${links[@]}" | sort -u
