#!/usr/bin/env bash
# drivers/build.sh FLAVOUR: the modules step. Builds drivers/ out of tree
# against the FLAVOUR kernel (build/FLAVOUR/state: KSRC, KOUT) with W=1 and
# sparse (C=1: every file compiled is checked). drivers/ is copied into
# build/FLAVOUR/drivers/src first, so that the build never writes into the
# source tree. Its log is build/logs/drivers-FLAVOUR.log (the lint step
# reads the debug one). A warning fails the step, except for the debug
# flavour, whose warnings ./build.sh test reports as a failed lint test.
# Writes MODULES (the built tree) to build/FLAVOUR/state.
# shellcheck source=board/lib.sh
. "$(dirname "$0")/../board/lib.sh"

flavour=${1:?usage: drivers/build.sh FLAVOUR}
load_kernel "$flavour"
out=$BUILD/$flavour/drivers
step "building drivers/ against the $flavour kernel (W=1, sparse)"
mkdir -p "$out"
rsync -a --delete --exclude '*.o' --exclude '*.ko' --exclude '*.cmd' \
	--exclude '*.mod*' --exclude 'Module.symvers' --exclude 'modules.order' \
	--exclude build.sh "$TOP/drivers/" "$out/src/"
run_logged "drivers-$flavour" kmake M="$out/src" W=1 C=1 -j"$JOBS" modules
warnings=$(grep -cE 'warning:|error:' "$LOGS/drivers-$flavour.log" || true)
if [ "$warnings" -ne 0 ]; then
	grep -E 'warning:|error:' "$LOGS/drivers-$flavour.log" >&2
	# recompile (and so recheck) everything next time
	find "$out/src" -name '*.o' -delete
	[ "$flavour" = debug ] ||
		die "drivers/ builds with warnings (W=1, sparse), see $LOGS/drivers-$flavour.log"
fi
# The functions marked PIX_OWN_PAGE (drivers/isp/isp_pixel_page.h) must
# each start a page and fit in it: checked on the release module, which
# the benchmarks and the demo run (KASAN makes the debug one's functions
# bigger, and its speed does not matter). A copy GCC made of one
# (name.constprop.0 ...) is checked too; a .cold part is not a loop's.
if [ "$flavour" = release ]; then
	ko=$out/src/isp/n900-isp.ko
	page=$(sed -n 's/^#define PIX_PAGE_SIZE[[:space:]]*\([0-9]*\)$/\1/p' \
		"$out/src/isp/isp_pixel_page.h")
	[ -n "$page" ] || die "no PIX_PAGE_SIZE in drivers/isp/isp_pixel_page.h"
	# the declarations, "[static noinline] PIX_OWN_PAGE type name(", one
	# line each
	decl='^(static[[:space:]]+noinline[[:space:]]+)?PIX_OWN_PAGE[[:space:]]'
	marked=$(grep -hE "$decl" "$out"/src/isp/*.c "$out"/src/isp/blocks/*.c |
		sed -E 's/^[^(]*[^A-Za-z0-9_(]([A-Za-z0-9_]+)\(.*/\1/' || true)
	[ -n "$marked" ] || die "no PIX_OWN_PAGE function in drivers/isp"
	syms=$("${CROSS}nm" -S "$ko")
	for f in $marked; do
		found=$(awk -v f="$f" '$3 ~ /^[tT]$/ && ($4 == f ||
			(index($4, f ".") == 1 && $4 !~ /\.cold/)) {
				print $1, $2, $4 }' <<<"$syms")
		[ -n "$found" ] ||
			die "$ko: PIX_OWN_PAGE function $f not found (inlined?)"
		while read -r addr size sym; do
			(( 16#$addr % page == 0 && 16#$size <= page )) ||
				die "$ko: PIX_OWN_PAGE function $sym at 0x$addr," \
					"0x$size bytes: not on a page of its own" \
					"(split it: drivers/isp/isp_pixel_page.h)"
		done <<<"$found"
	done
fi
state_set "$flavour" MODULES "$out/src"
done_step "$(find "$out/src" -name '*.ko' | wc -l) modules, $warnings warning(s)"
