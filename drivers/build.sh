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
state_set "$flavour" MODULES "$out/src"
done_step "$(find "$out/src" -name '*.ko' | wc -l) modules, $warnings warning(s)"
