#!/bin/sh
# Malformed device trees, probed one at a time while the N900 ISP runs.
# Each case in /etc/n900/dt-malformed (built from tests/data/dt-malformed/*.dtso)
# is an overlay that adds a second ISP, "/isp-under-test", with one defect.
# It is applied through drivers/test/n900_overlay.c, then removed. A case passes
# when:
#  - the kernel log names the bad node with the message the .dtso expects;
#  - no media device for it is registered (a clean probe failure);
#  - removing the overlay removes its devices, and the OF core reports no
#    unbalanced node reference ("OF: ERROR").
# The well-formed good.dtso must probe (3 entities, its links) before and
# after the malformed ones. Between them, good-input-fan.dtso checks at run
# time what 21-input-fans-out checks in the tree: a memory input node
# feeds one block (SETUP_LINK of a second link out of it: EBUSY, the link
# left disabled). At the end kmemleak must have nothing to report. Splats fail the run (tests/host/harness.sh). One KTAP document.
# shellcheck source=rootfs/overlay/etc/n900/functions
. /etc/n900/functions
# shellcheck source=tests/guest/lib/ktap.sh
. /usr/lib/n900/tests/lib/ktap.sh
D=/etc/n900/dt-malformed
O=/sys/kernel/debug/n900-overlay
PDEV=/sys/bus/platform/devices/isp-under-test

# the kernel messages since the last marker of case $1
since() {
	dmesg | awk -v m="dt-malformed: begin $1" '
		substr($0, length($0) - length(m) + 1) == m { n = 0; delete l; next }
		{ l[n++] = $0 }
		END { for (i = 0; i < n; i++) print l[i] }'
}
# the media device whose model is $1, if any
media_of() {
	for m in /sys/bus/media/devices/media*; do
		[ "$(cat "$m/model" 2>/dev/null)" = "$1" ] &&
			{ echo "/dev/${m##*/}"; return 0; }
	done
	return 1
}
# apply NAME: apply the overlay, give the probe up to $2 tenths of a
# second to print $3 (a regex) or to register the media device
apply() {
	echo "dt-malformed: begin $1" >/dev/kmsg
	err=$(cat "$D/$1.dtbo" 2>&1 >$O/apply) || return 1
	i=0
	while [ $i -lt "$2" ]; do
		if [ "${3%%:*}" = good ]; then
			media_of "${3#good:}" >/dev/null && return 0
		else
			since "$1" | grep -Eq -- "$3" && return 0
		fi
		sleep 0.1
		i=$((i + 1))
	done
	return 0
}
# remove: remove the overlay; its platform devices must be gone
remove() {
	echo 1 >$O/remove || return 1
	i=0
	while [ -e $PDEV ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	[ ! -e $PDEV ]
}
# remove_good DTBO LABEL: remove a well-formed overlay; its devices and
# its media device (model LABEL) must go, and the OF core must report no
# unbalanced node reference ($oferr); clears $ok and adds to $diag if not
remove_good() {
	remove || { ok=0; diag="$diag; overlay removal failed or left $PDEV"; }
	# its media device goes with it (PDEV is the test overlays' node only)
	i=0
	while media_of "$2" >/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	! media_of "$2" >/dev/null || { ok=0; diag="$diag; $2 still registered after removal"; }
	oferr=$(since "$1" | grep 'OF: ERROR' | head -n 1)
	[ -z "$oferr" ] || ok=0
}
good() { # DTBO RESULT LABEL: a well-formed overlay probes into a 3-entity graph
	ok=1 diag=
	apply "$1" 100 "good:$3" || { ok=0; diag="apply failed: $err"; }
	m=$(media_of "$3")
	if [ -n "$m" ]; then
		ents=$(media-ctl -d "$m" -p | grep -c '^- entity')
		links=$(media-ctl -d "$m" -p | grep -c '\[ENABLED\]')
		# 2 enabled links, each listed at both ends
		[ "$ents" = 3 ] && [ "$links" = 4 ] || ok=0
		diag="$m: $ents entities, $links enabled link ends"
	else
		ok=0 diag="no media device for it; log: $(since "$1" | tail -n 3 | tr '\n' ' ')"
	fi
	remove_good "$1" "$3"
	ktap_result $ok "$2" "$diag" "$oferr"
}

# the number of enabled links into "ut b" of media device $1
b_inputs() {
	media-ctl -d "$1" -p 2>/dev/null | awk '
		/^- entity / { b = index($0, ": ut b (") > 0 }
		b && /<-/ && /ENABLED/ { n++ }
		END { print n + 0 }'
}
# A memory input node feeds one block (isp_link_setup()): with its link to
# "ut a" enabled, enabling the one to "ut b" is refused with EBUSY and the
# link stays disabled; it is taken once the first is disabled.
input_fan() {
	ok=1 diag=
	apply good-input-fan 100 "good:DT test: input fan" || { ok=0; diag="apply failed: $err"; }
	m=$(media_of "DT test: input fan")
	if [ -n "$m" ]; then
		second=$(media-ctl -d "$m" -l '"ut input":0 -> "ut b":0 [1]' 2>&1) &&
			second=enabled
		case $second in
		*"resource busy"*) second=EBUSY ;;
		enabled) ok=0 ;;
		*) ok=0 second="other: $(echo "$second" | tail -n 1)" ;;
		esac
		[ "$(b_inputs "$m")" = 0 ] || { ok=0; second="$second, but the link is enabled"; }
		media-ctl -d "$m" -l '"ut input":0 -> "ut a":0 [0]' >/dev/null 2>&1 ||
			{ ok=0; diag="cannot disable the link to ut a; "; }
		if other=$(media-ctl -d "$m" -l '"ut input":0 -> "ut b":0 [1]' 2>&1); then
			other=enabled
		else
			ok=0 other="other: $(echo "$other" | tail -n 1)"
		fi
		[ "$(b_inputs "$m")" = 1 ] || { ok=0; other="$other, but not listed as enabled"; }
		diag="${diag}second link: $second (expected EBUSY), after disabling the first: $other"
	else
		ok=0 diag="no media device for it; log: $(since good-input-fan | tail -n 3 | tr '\n' ' ')"
	fi
	remove_good good-input-fan "DT test: input fan"
	ktap_result $ok input_node_feeds_one_block "$diag" "$oferr"
}

if ! modprobe n900-overlay; then
	ktap_plan 1
	ktap_result 0 "dt_malformed # cannot load n900-overlay (needs a kernel with CONFIG_OF_OVERLAY)"
	exit 0
fi
cases=$(awk -F'\t' '$2 != "good" { print $1 }' $D/expect)
ktap_plan $(($(echo "$cases" | wc -l) + 5))

good good good_overlay_probes "DT test: good"
# the example overlay of README.md ("Write a topology overlay"), verbatim
good readme-example readme_example_overlay_probes "My camera"
for c in $cases; do
	re=$(awk -F'\t' -v c="$c" '$1 == c { print $2 }' $D/expect)
	ok=1
	apply "$c" 100 "$re" || ok=0
	log=$(since "$c" | grep -E -- "$re" | head -n 1)
	[ -n "$log" ] || ok=0
	m=$(media_of "DT test: ${c#[0-9][0-9]-}")
	[ -z "$m" ] || ok=0
	remove || ok=0
	oferr=$(since "$c" | grep 'OF: ERROR' | head -n 1)
	[ -z "$oferr" ] || ok=0
	[ -n "$log" ] || log="expected /$re/, got: $(since "$c" | grep -v 'n900-overlay' | tail -n 3 | tr '\n' '|')"
	ktap_result $ok "$c" "${log#*] }" "${m:+registered as $m}" "$oferr"
done
input_fan
good good good_overlay_probes_after "DT test: good"

# kmemleak has nothing to report after all that
ktap_no_leak
modprobe -r n900-overlay
