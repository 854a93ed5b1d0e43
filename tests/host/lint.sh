#!/usr/bin/env bash
# tests/host/lint.sh [--results-only] OUT: the lint step. Host-side checks of the code as one
# KTAP document in OUT (read by tests/host/harness.sh): checkpatch --strict
# per file of drivers/ and per patch, kernel-doc -Wall on drivers/, the W=1
# and sparse result of the debug module build (build/logs/drivers-debug.log,
# from drivers/build.sh debug), a W=1 + sparse rebuild of the media
# controller core the patches touch, shellcheck on every shell script,
# "./build.sh help" lists every command, the scaling plot still draws, and
# the harness's own self-test (tests/host/harness-selftest.sh), the
# userspace headers' layout (tests/host/uapi-layout.sh), the Image
# pattern's charge cache and noise, the fused line stages, the preview,
# the resizer and the NEON loops (tests/host/pixel-test.sh,
# tests/host/{scene-cache,sensor-noise,line-chain,preview-line,
# resizer-line,pixel-neon}.c), the device tree
# bindings checked by dt-schema
# (tests/host/dt-schema.sh: the schemas, their examples, the N900 and
# stress trees, the malformed overlays, and its --mutate self-test), the
# merge of shard runs (tests/host/merge-selftest.sh), the GitLab pipeline
# (tests/host/gitlab-ci.sh) and the guest packages' version policy
# (tests/host/guest-packages.sh), each its own KTAP document beside OUT
# (lint-NAME.ktap). Needs the debug kernel (build/debug/state). Prints the
# problems; exit status 1 if there is one (0 with --results-only: the
# problems are results of ./build.sh test).
# shellcheck source=board/lib.sh
. "$(dirname "$0")/../../board/lib.sh"

only=
[ "${1:-}" != --results-only ] || { only=1; shift; }
out=${1:?usage: tests/host/lint.sh [--results-only] OUT}
load_kernel debug
[ -f "$LOGS/drivers-debug.log" ] || die "no $LOGS/drivers-debug.log: run ./build.sh modules"
I=0 N=0

# result NAME FINDINGS [NOTE]: one KTAP result, "not ok" (with the findings
# as diagnostics) when FINDINGS is not empty
result() {
	I=$((I + 1))
	if [ -z "$2" ]; then
		echo "ok $I $1"
	else
		printf '%s\n' "$2" | head -n 20 | sed 's/^/# /'
		echo "not ok $I $1${3:+ # $3}"
		N=$((N + 1))
	fi
}

# shell_findings: shellcheck on every shell script of the project (sourced
# files followed), printing only the findings
shell_findings() {
	local lib
	cd "$TOP" || return 0
	mapfile -t lib < <(find tests/guest/lib -name '*.sh' 2>/dev/null)
	shellcheck -x build.sh .ci/run board/*.sh dts/*.sh drivers/build.sh rootfs/build.sh \
		tests/host/*.sh tests/ref/*.sh tests/bench/*.sh tests/guest/*.sh ${lib[@]+"${lib[@]}"} \
		rootfs/overlay/init rootfs/overlay/usr/lib/n900/*.sh 2>&1 |
		grep -E '^In |\^-' || true
}

# help_missing: the commands build.sh's main() takes that "./build.sh help" omits
help_missing() {
	local c usage
	usage=$("$TOP/build.sh" help)
	for c in $(sed -n '/^main() {/,/^}/s/^\t\([a-z][a-z |-]*\)).*/\1/p' "$TOP/build.sh" | tr '|' ' '); do
		case $c in -h | --help) continue ;; esac
		grep -qE "^  $c( |$)|^  \(none\), $c " <<<"$usage" || echo "\"$c\" is not in ./build.sh help"
	done
}

# subtest NAME SCRIPT ARGS...: the KTAP document of a host test script, if
# it exists, into a file of its own beside OUT (lint-NAME.ktap: the harness
# reads each); a summary line here if it fails
subtest() {
	local name=$1 f=$2 rc=0 doc=${out%/*}/lint-$1.ktap
	shift 2
	rm -f "$doc"
	[ -x "$f" ] || return 0
	"$f" "$@" >"$doc" 2>&1 || rc=$?
	if [ $rc -ne 0 ] || grep -q '^not ok' "$doc"; then
		N=$((N + 1))
		grep -E '^(not ok|# )' "$doc" | head -n 20 | sed "s/^/# $name: /"
	fi
}

mapfile -t files < <(find "$TOP/drivers" -name '*.[ch]' | sort)
patches=("$TOP"/patches/*.patch)
n=$((${#files[@]} + ${#patches[@]} + 6))
step "lint: checkpatch, kernel-doc and sparse on drivers/ and patches/, shellcheck, help, harness and merge self-tests, .gitlab-ci.yml, dt-schema (strict on our nodes, not on QEMU's)"
# C=2: sparse on every file of the directory, rebuilt or not
kmake -j"$JOBS" W=1 C=2 drivers/media/mc/ >"$LOGS/mc-w1-sparse.log" 2>&1 ||
	echo "error: the W=1 C=2 build of drivers/media/mc failed" >>"$LOGS/mc-w1-sparse.log"
{
	echo "KTAP version 1"
	echo "1..$n"
	# checkpatch all files at once ($JOBS in parallel), report per file
	# shellcheck disable=SC2016 # expanded by the inner sh
	printf '%s\0' "${files[@]}" | xargs -0 -n 1 -P "$JOBS" sh -c \
		'perl "$0" --strict --no-tree --terse --show-types -q -f "$2" \
			>"$1/checkpatch-${2##*/}.txt" 2>&1 || true' \
		"$KSRC/scripts/checkpatch.pl" "$LOGS"
	for f in "${files[@]}"; do
		result "checkpatch.${f#"$TOP"/}" \
			"$(grep -E 'ERROR|WARNING|CHECK' "$LOGS/checkpatch-${f##*/}.txt" || true)"
	done
	# A new file makes checkpatch ask whether MAINTAINERS needs
	# updating (FILE_PATH_CHANGES); drivers/media/mc/ is covered there.
	# The Debian source tarball has no git history to look a Fixes:
	# commit id up in (UNKNOWN_COMMIT_ID); its form is still checked.
	for f in "${patches[@]}"; do
		result "checkpatch.${f#"$TOP"/}" "$(cd "$KSRC" || exit
			perl scripts/checkpatch.pl --strict --terse --show-types -q \
				--ignore FILE_PATH_CHANGES,UNKNOWN_COMMIT_ID "$f" 2>&1 |
				grep -E 'ERROR|WARNING|CHECK' || true)"
	done
	result kernel_doc.drivers "$(cd "$KSRC" && scripts/kernel-doc -none -Wall "${files[@]}" 2>&1 |
		sed "s|$TOP/||")"
	result shellcheck "$(shell_findings)"
	result sparse_w1.drivers/media/mc \
		"$(grep -E 'warning:|error:' "$LOGS/mc-w1-sparse.log" || true)" \
		"see $LOGS/mc-w1-sparse.log"
	result sparse_w1.drivers \
		"$(grep -E 'warning:|error:' "$LOGS/drivers-debug.log" || true)" \
		"see $LOGS/drivers-debug.log"
	result help_lists_every_command "$(help_missing)"
	# the committed scaling data still draws (docs/bench-scaling.png)
	result bench_plot_draws "$("$TOP/tests/bench/bench-plot.sh" \
		"$TOP/docs/bench-scaling.tsv" "$BUILD/bench-scaling.png" 2>&1)"
	# the harness on recorded consoles (kunit.py's parser from KSRC too),
	# and the userspace headers' layout on armhf, arm64 and the host
	subtest harness_selftest "$TOP/tests/host/harness-selftest.sh" "$KSRC"
	subtest uapi_layout "$TOP/tests/host/uapi-layout.sh"
	# the sensor's charge cache changes no frame (the pixel code alone)
	subtest scene_cache "$TOP/tests/host/pixel-test.sh" scene-cache
	# the sensor's noise has the documented variance and no correlation
	subtest sensor_noise "$TOP/tests/host/pixel-test.sh" sensor-noise
	# the fused line stages give the samples of the stages one by one
	subtest line_chain "$TOP/tests/host/pixel-test.sh" line-chain
	# the preview and the resizer give the documented demosaic, YUV and
	# scaling, byte for byte, on the host and as armhf under qemu-arm
	# (the preview's loop on words of two pixels, the resizer's NEON
	# loops, as the driver runs them)
	subtest preview_line "$TOP/tests/host/pixel-test.sh" preview-line
	subtest preview_line_armhf "$TOP/tests/host/pixel-test.sh" --neon preview-line
	subtest resizer_line "$TOP/tests/host/pixel-test.sh" resizer-line
	subtest resizer_line_armhf "$TOP/tests/host/pixel-test.sh" --neon resizer-line
	# the NEON loops give the C's bytes (armhf, under qemu-arm)
	subtest pixel_neon "$TOP/tests/host/pixel-test.sh" --neon pixel-neon
	# the merge of shard runs on recorded shard directories, and the
	# GitLab pipeline against the shard list and ./build.sh help
	subtest merge_selftest "$TOP/tests/host/merge-selftest.sh"
	subtest gitlab_ci "$TOP/tests/host/gitlab-ci.sh"
	subtest guest_packages "$TOP/tests/host/guest-packages.sh"
	# the bindings (dts/bindings/*.yaml) and our trees, by dt-schema
	subtest dt_schema "$TOP/tests/host/dt-schema.sh"
	# each "rejects" overlay fails once its constraint is gone (~20 s)
	subtest dt_schema_mutate "$TOP/tests/host/dt-schema.sh" --mutate
} >"$out"
done_step "$N problem(s): ${out#"$TOP"/}"
[ "$N" -eq 0 ] && exit 0
# each problem with its diagnostics
awk '/^# / { d = d "\n" $0; next } /^not ok/ { print substr(d, 2); print } { d = "" }
	END { if (d != "") print substr(d, 2) }' "$out" |
	sed 's/^/[build]     /'
if [ -n "$only" ]; then exit 0; fi
exit 1
