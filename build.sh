#!/usr/bin/env bash
# build.sh - the one entry point of the N900 camera ISP emulator: a thin
# sequencer of the steps that each folder owns. Each step is a script run
# as its own process; what one step hands to the next is files (build/,
# and build/FLAVOUR/state: KEY=VALUE lines), never a variable.
#
#   board/kernel.sh     kernel (linux-source-6.12 + patches/, cached)
#   drivers/build.sh    modules (W=1, sparse)
#   dts/build.sh        device trees (build/dt/TOPOLOGY.dtb)
#   rootfs/build.sh     initramfs (guest packages, guest tests, references)
#   board/fit.sh        FIT image (U-Boot path)
#   board/qemu.sh       the one QEMU line; boot
#   board/demo.sh       the demo's boot and account
#   tests/host/lint.sh  lint;  tests/host/test.sh  the test guests, verdict
#
# Every run of the demo, the tests or the shell leaves its console logs and
# artefacts in build/runs/COMMAND-TIME/; build/runs/latest points at it.
set -euo pipefail
# shellcheck source=board/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/board/lib.sh"

TIMES=()
# run NAME CMD...: one step, as its own process, timed for the summary. A
# failed step has said why; stop with its status.
run() {
	local name=$1 t0=$SECONDS rc=0
	shift
	"$@" || rc=$?
	TIMES+=("$((SECONDS - t0)) s $name")
	[ $rc -eq 0 ] || { say "stopped: step $name ($*) failed"; exit $rc; }
}
# elapsed: what kunit.py prints last, the time of each step
elapsed() {
	local IFS=,
	say "elapsed: $SECONDS s in all:${TIMES[*]/#/ }"
}

# guest FLAVOUR MODE TOPOLOGY...: kernel, modules, the trees, the initramfs
guest() {
	local flavour=$1 mode=$2
	shift 2
	run kernel "$TOP/board/kernel.sh" "$flavour"
	run modules "$TOP/drivers/build.sh" "$flavour"
	run dtb "$TOP/dts/build.sh" --expected "$@"
	run rootfs "$TOP/rootfs/build.sh" "$flavour" "$mode" "$@"
}

# fit FLAVOUR: the FIT image and the trees of its configurations
fit() {
	local configs
	mapfile -t configs < <(fit_configs)
	run dtb "$TOP/dts/build.sh" "${configs[@]}"
	run fit "$TOP/board/fit.sh" "$1"
}

# new_run NAME: RUN, the directory of this run (build/runs/NAME-TIME, or
# N900_RUN_DIR, and build/runs/latest), with how its guests hand files
# over (share-mode)
new_run() {
	RUN=${N900_RUN_DIR:-$BUILD/runs/$1-$(date -u +%Y%m%dT%H%M%SZ)}
	RUN=$(realpath -m "$RUN")
	# an old run's consoles would pass for this one's
	[ -z "$(ls -A "$RUN" 2>/dev/null)" ] ||
		die "the run directory $RUN is not empty: remove it, or choose another N900_RUN_DIR"
	mkdir -p "$RUN" "$BUILD/runs"
	"$TOP/board/qemu.sh" share-mode >"$RUN/share-mode"
	[ -n "${N900_RUN_DIR:-}" ] || ln -sfn "$(basename "$RUN")" "$BUILD/runs/latest"
	if [ -n "${N900_RUN_DIR:-}" ]; then
		say "this run's logs and artefacts: ${RUN#"$TOP"/} (N900_RUN_DIR)"
	else
		say "this run's logs and artefacts: ${RUN#"$TOP"/} (also build/runs/latest)"
	fi
}

cmd_demo() {
	local flavour=${N900_FLAVOUR:-release} topo=${N900_TOPOLOGY:-n900} opts=()
	guest "$flavour" demo "$topo"
	if [ "${N900_BOOT:-direct}" != direct ]; then fit "$flavour"; opts=(--uboot); fi
	new_run demo
	run boot "$TOP/board/demo.sh" "$flavour" "$RUN" ${opts[@]+"${opts[@]}"} "$topo"
	elapsed
}

# docs: the demo, its pictures copied into docs/ (shown in README), and the
# committed scaling data plotted. Only this and bench write outside build/.
cmd_docs() {
	local f
	cmd_demo
	cp "$RUN/topology.png" "$RUN/power-timeline.png" "$TOP/docs/"
	for f in "$RUN"/demo/frames/*.png; do cp "$f" "$TOP/docs/frame-$(basename "$f")"; done
	for f in before after convergence; do cp "$RUN/demo/3a/$f.png" "$TOP/docs/3a-$f.png"; done
	"$TOP/tests/bench/bench-plot.sh" "$TOP/docs/bench-scaling.tsv" "$TOP/docs/bench-scaling.png"
	say "updated docs/: topology.png, power-timeline.png, frame-*.png, 3a-*.png, bench-scaling.png"
}

# build_tests RUN: plan the test guests, build what they boot (the debug
# kernel), lint
build_tests() {
	local topos=()
	run plan "$TOP/tests/host/test.sh" plan "$1"
	# the trees the guests boot: the U-Boot path's have their expected
	# topology in the initramfs, the stress shard's do not need one
	mapfile -t topos < <(awk '$1 == "uboot" { print $4 }' "$1/guests")
	guest debug test "${N900_TOPOLOGY:-n900}" ${topos[@]+"${topos[@]}"}
	mapfile -t topos < <(awk '$1 == "direct" && $5 == "console" { print $4 }' "$1/guests")
	[ ${#topos[@]} -eq 0 ] || run dtb "$TOP/dts/build.sh" "${topos[@]}"
	! grep -q '^uboot ' "$1/guests" || fit debug
	run lint "$TOP/tests/host/lint.sh" --results-only "$1/lint.ktap"
}

# test: build, pack the artefact, run every shard job from it (unpacked in
# an empty directory; each job with a build and cache directory of its
# own), merge. With N900_ARTEFACT: only the shards of N900_TEST_SHARDS and
# N900_BOOT_PATHS, from that artefact, building nothing.
cmd_test() {
	local art here
	# one vCPU per guest: guests run side by side (tests/host/test.sh)
	export QEMU_SMP=1
	if [ -n "${N900_ARTEFACT:-}" ]; then
		# QEMU first: the run's share mode depends on it
		ensure_packages "${HOST_RUNTIME_PACKAGES[@]}"
		new_run test
		art=$("$TOP/tests/host/test.sh" unpack "$N900_ARTEFACT" "$RUN/artefact")
		# which artefact this run used: merge leaves out another's runs
		cp "$art/artefact" "$RUN/artefact-id"
		here=$(git -C "$TOP" describe --always --dirty 2>/dev/null || echo unknown)
		grep -qx "commit $here" "$art/artefact" ||
			say "warning: the artefact was packed from $(sed -n 's/^commit //p' "$art/artefact"), this tree is $here: its scripts run the artefact's guests"
		export N900_BUILD_DIR=$art
		run plan "$TOP/tests/host/test.sh" plan "$RUN"
		run guests "$TOP/tests/host/test.sh" boot "$RUN"
		elapsed
		exec "$TOP/tests/host/test.sh" verdict "$RUN"
	fi
	new_run test
	build_tests "$RUN"
	run pack "$TOP/tests/host/test.sh" pack "$RUN" "$RUN/artefact.tar"
	art=$("$TOP/tests/host/test.sh" unpack "$RUN/artefact.tar" "$RUN/artefact")
	# the unpacked copy is the one the jobs use (./build.sh pack makes a
	# tarball to keep)
	rm -f "$RUN/artefact.tar"
	run guests "$TOP/tests/host/test.sh" shards "$RUN" "$art"
	elapsed
	exec "$TOP/tests/host/test.sh" merge "$RUN" "$art" "$RUN"/shards/*/
}

# pack [OUT]: build and lint what "test" boots (the same N900_* knobs), and
# pack it into OUT (default build/artefact.tar; a directory unless OUT ends
# in .tar) for "test" with N900_ARTEFACT on other machines
cmd_pack() {
	local out=${1:-$BUILD/artefact.tar}
	new_run pack
	build_tests "$RUN"
	run pack "$TOP/tests/host/test.sh" pack "$RUN" "$(realpath -m "$out")"
	elapsed
	say "artefact: $out; run a shard from it with N900_ARTEFACT=$out N900_TEST_SHARDS=S N900_BOOT_PATHS=P ./build.sh test"
}

# merge ARTEFACT DIR...: the one verdict of shard runs (their run
# directories, build/runs/test-* of "test" with N900_ARTEFACT)
cmd_merge() {
	local art
	[ $# -ge 2 ] || die "usage: ./build.sh merge ARTEFACT SHARD_RUN_DIR..."
	ensure_packages "${HOST_RUNTIME_PACKAGES[@]}"
	new_run merge
	art=$("$TOP/tests/host/test.sh" unpack "$1" "$RUN/artefact")
	shift
	exec "$TOP/tests/host/test.sh" merge "$RUN" "$art" "$@"
}

# ./build.sh bench: the same stress topologies on vanilla 6.12 (no
# patches/) and on the patched kernel, one boot per kernel and topology,
# release flavour; tests/bench/write-benchmarks.sh turns the consoles into
# BENCHMARKS.md. N900_BENCH_SIZES picks the chain lengths,
# N900_BENCH_KERNELS the kernels (default "vanilla patched"; one of them
# for a quick loop: BENCHMARKS.md then lacks the other's columns),
# N900_BENCH_TOPOLOGIES the topologies (the same for a quick loop).
cmd_bench() {
	local what=${1:-all} kernel topo all=() sizes topos p skip big
	case $what in all | mc | stream) ;; *) die "usage: ./build.sh bench [all|mc|stream]" ;; esac
	read -r -a sizes <<<"${N900_BENCH_SIZES:-16 64 256 1024 4096}"
	big=$(printf '%s\n' "${sizes[@]}" | sort -n | tail -n 1)
	[ "${big:-0}" -ge 4 ] 2>/dev/null || big=
	# chains-N: chain N/4 and chain N in one boot, for the scaling (N
	# the largest size, if at least 4)
	topos=(mesh-256 "${sizes[@]/#/chain-}" ${big:+"chains-$big"})
	[ -z "${N900_BENCH_TOPOLOGIES:-}" ] || read -r -a topos <<<"$N900_BENCH_TOPOLOGIES"
	for p in "$TOP"/patches/*.patch; do all+=("$(basename "$p" | cut -c1-4)"); done
	export N900_BOOT_TIMEOUT=${N900_BOOT_TIMEOUT:-1800}
	new_run bench
	for kernel in ${N900_BENCH_KERNELS:-vanilla patched}; do
		[ "$what" != stream ] || break
		[[ $kernel =~ ^(vanilla|patched)$ ]] || die "N900_BENCH_KERNELS: vanilla and/or patched, not '$kernel'"
		skip=
		[ "$kernel" = patched ] || skip="${all[*]}"
		N900_SKIP_PATCHES=$skip guest release test n900
		for topo in "${topos[@]}"; do
			run dtb "$TOP/dts/build.sh" "$topo"
			say "==> bench: $kernel kernel on $topo (console: $LOGS/bench-$kernel-$topo.log)"
			run boot "$TOP/board/qemu.sh" boot release bench "$topo" "$RUN" "bench-$kernel-$topo" >/dev/null
			cp "$RUN/bench-$kernel-$topo.log" "$LOGS/"
			grep -q '^N900-BENCH-END' "$LOGS/bench-$kernel-$topo.log" ||
				say "warning: the $kernel guest on $topo did not finish; see $LOGS/bench-$kernel-$topo.log"
		done
	done
	if [ "$what" != mc ]; then
		N900_SKIP_PATCHES='' guest release test n900
		say "==> bench: streaming, our main pipeline against vimc (console: $LOGS/bench-stream.log)"
		run boot "$TOP/board/qemu.sh" boot release bench-stream n900 "$RUN" bench-stream >/dev/null
		cp "$RUN/bench-stream.log" "$LOGS/"
		grep -q '^N900-BENCH-END' "$LOGS/bench-stream.log" ||
			say "warning: the streaming bench did not finish; see $LOGS/bench-stream.log"
	fi
	# bench stream rewrites only the streaming section: the scaling
	# sections stay those of the last full ./build.sh bench (mc)
	if [ "$what" = stream ]; then
		run report "$TOP/tests/bench/write-benchmarks.sh" --stream-only "$LOGS"
	else
		run report "$TOP/tests/bench/write-benchmarks.sh" "$LOGS"
	fi
	elapsed
	say "results: BENCHMARKS.md"
}

cmd_shell() {
	local flavour=${N900_FLAVOUR:-release} topo=${N900_TOPOLOGY:-n900} opts=()
	guest "$flavour" shell "$topo"
	if [ "${N900_BOOT:-direct}" != direct ]; then fit "$flavour"; opts=(--uboot); fi
	new_run shell
	if [ "$(cat "$RUN/share-mode")" = 9p ]; then
		say "interactive guest: its /mnt is $RUN/shell/ on this host (virtio-9p)"
	else
		say "interactive guest: no virtio-9p share; what it leaves in /mnt comes back over the console at poweroff"
	fi
	say "type 'poweroff -f' to leave (or Ctrl-A x)"
	"$TOP/board/qemu.sh" boot ${opts[@]+"${opts[@]}"} "$flavour" shell "$topo" "$RUN" shell
}

# boot: one guest on what is built (the missing inputs built first)
cmd_boot() {
	local flavour=${N900_FLAVOUR:-debug} topo=${N900_TOPOLOGY:-n900} mode=${1:-demo} opts=()
	[ -f "$BUILD/$flavour/rootfs.cpio" ] || guest "$flavour" "$mode" "$topo"
	[ -f "$BUILD/dt/$topo.dtb" ] || run dtb "$TOP/dts/build.sh" "$topo"
	if [ "${N900_BOOT:-direct}" != direct ]; then
		[ -f "$BUILD/$flavour/fit/n900.itb" ] || fit "$flavour"
		opts=(--uboot)
	fi
	new_run "boot-$mode"
	run boot "$TOP/board/qemu.sh" boot ${opts[@]+"${opts[@]}"} "$flavour" "$mode" "$topo" "$RUN" "$mode"
	elapsed
}

cmd_clean() {
	say "removing $BUILD"
	rm -rf "$BUILD"
	if [ "${1:-}" = --all ]; then
		say "removing the kernel cache $CACHE"
		rm -rf "$CACHE"
	fi
}

usage() {
	cat <<-EOF
		usage: ./build.sh [COMMAND]

		  (none), demo  build everything (release kernel) and run the demo in QEMU:
		              the graph, a power experiment, a frame from each main path;
		              prints the steps and a short account (N900_VERBOSE=1: the
		              whole console)
		  test        build the debug kernel (KASAN, lockdep, kmemleak, UBSAN)
		              and run the test suites: every shard of tests/data/shards
		              on the direct boot, and the "boot" shard on each FIT
		              configuration through U-Boot; ends with "N passed, N failed".
		              It packs an artefact, runs each shard job from it in a
		              directory of its own, and merges their verdicts. With
		              N900_ARTEFACT: only the shard jobs of N900_TEST_SHARDS and
		              N900_BOOT_PATHS, from that artefact, building nothing
		  pack [OUT]  build and lint what "test" boots, and pack it (kernel,
		              initramfs, FIT, trees, expected values, KTAP parser, lint
		              results, plan) into OUT (default build/artefact.tar; a
		              directory unless OUT ends in .tar). OUT is replaced: an
		              existing directory must be an artefact or empty
		  merge ART DIR...  the one verdict ("N passed, N failed", JUnit, exit
		              status) of shard runs: DIR are their run directories,
		              ART the artefact they ran from; a planned guest that no
		              DIR ran fails
		  shell       boot the guest with the drivers loaded and give a shell
		  docs        run the demo and refresh the pictures in docs/
		  bench [W]   benchmarks into BENCHMARKS.md and docs/bench-scaling.png:
		              W=mc media controller scaling, vanilla 6.12 against the
		              patched kernel on generated topologies; W=stream frames
		              per second of the main pipeline against vimc; W=all
		              (default) both
		  clean       remove build/ ; "clean --all" also drops $CACHE

		One step each (F: N900_FLAVOUR, default debug; cached inputs reused):
		  kernel [F]  only build the kernel flavour F (release, the default, or debug)
		  modules     drivers/ against the F kernel, W=1 and sparse (builds the
		              kernel if it is not cached)
		  dtb [T...]  the device trees T (default N900_TOPOLOGY) into build/dt/
		  rootfs      the initramfs of F (runs kernel, modules and dtb first)
		  boot [MODE] boot what is built, in MODE (demo, test, shell; default
		              demo); builds the initramfs (and FIT) only if missing
		  lint        checkpatch, kernel-doc, sparse, shellcheck, the harness
		              self-test (builds the debug modules first)
		  help        this text

		Every run leaves its console logs and artefacts in
		build/runs/COMMAND-TIME/ (build/runs/latest is the last one).

		Environment:
		  N900_BOOT           boot path of the demo, shell and boot: direct
		                      (default: QEMU -kernel/-initrd/-dtb) or uboot
		                      (U-Boot from u-boot-qemu, FIT image board/n900.its)
		  N900_BOOT_PATHS     the boot paths "test" runs (default "direct uboot")
		  N900_TEST_SHARDS    the shards "test" boots on the direct path (default:
		                      every shard of tests/data/shards but "boot"), e.g.
		                      "faults" for the fault tests only; with
		                      N900_ARTEFACT, any of the artefact's shards ("boot"
		                      is the U-Boot path's; default: all of them)
		  N900_ARTEFACT       "test" runs from this artefact (./build.sh pack) and
		                      builds nothing; its guests were fixed when it was
		                      packed (N900_SUITES is refused, N900_TOPOLOGY and
		                      N900_STRESS_TOPOLOGIES do nothing)
		  N900_RUN_DIR        the run directory (default build/runs/COMMAND-TIME;
		                      it must be new or empty; build/runs/latest is left)
		  N900_BUILD_DIR      where the steps find what is built (default build/)
		  N900_SUITES         only these suites, e.g. "frames,power" (names of
		                      tests/data/shards, .sh optional): "test" boots only
		                      the shards that hold them
		  N900_STRESS_TOPOLOGIES  the trees of the stress shard (default
		                      "chain-64 mesh-256"; others, e.g. chain-4096,
		                      with N900_BOOT_PATHS=direct)
		  N900_SHARE          how guests hand files to the host: auto (default:
		                      virtio-9p when QEMU has it), 9p, or console
		  N900_TOPOLOGY       the device tree to boot: n900 (default), a
		                      dts/NAME.dtso of yours, or a generated stress
		                      topology, chain-N, fan-N, mesh-N (U-Boot: only the
		                      configurations of board/n900.its)
		  N900_FLAVOUR        kernel of the demo and the shell (default release)
		                      and of modules, rootfs and boot (default debug)
		  N900_VERBOSE        1: the guest's whole console on the terminal
		  N900_KERNEL_ARGS    extra kernel command line, e.g.
		                      n900_isp.inject_warn=1
		  N900_SKIP_PATCHES   patches/ to leave out, by number prefix, e.g.
		                      "0002" (see what a patch fixes on vanilla 6.12)
		  N900_BENCH_SIZES    chain lengths for bench (default "16 64 256 1024 4096")
		  N900_BENCH_TOPOLOGIES
		                      the topologies bench boots (default: mesh-256,
		                      chain-N for each size, chains-LARGEST); one for
		                      a quick loop, e.g. "chains-4096" (BENCHMARKS.md
		                      then lacks the others' figures)
		  N900_QEMU_MEM       guest RAM (default 256M; 768M for chain-4096
		                      under the debug kernel)
		  N900_BOOT_TIMEOUT   seconds before QEMU is killed (default 3600;
		                      1800 for bench)
		  N900_POWEROFF_GRACE seconds QEMU gets to exit once the guest says
		                      it powers off, then it is killed and the
		                      guest fails (default 120)
		  N900_CACHE_DIR      kernel/apt/ccache cache (default $CACHE)
		  N900_JOBS           parallel make jobs (default $(nproc))
		  N900_DEBIAN_MIRROR  Debian mirror for the guest packages (default:
		                      the one the host's apt already uses)
		  N900_GUEST_SUITE    Debian suite of the guest packages (default trixie)
	EOF
}

main() {
	local cmd=${1:-demo} flavour=${N900_FLAVOUR:-debug} topo=${N900_TOPOLOGY:-n900}
	[ $# -eq 0 ] || shift
	case $cmd in
	demo) cmd_demo ;;
	docs) cmd_docs ;;
	test) cmd_test ;;
	pack) cmd_pack "$@" ;;
	merge) cmd_merge "$@" ;;
	bench) cmd_bench "${1:-all}" ;;
	shell) cmd_shell ;;
	clean) cmd_clean "$@" ;;
	kernel) run kernel "$TOP/board/kernel.sh" "${1:-release}" ;;
	modules)
		run kernel "$TOP/board/kernel.sh" "$flavour"
		run modules "$TOP/drivers/build.sh" "$flavour"
		;;
	dtb) run dtb "$TOP/dts/build.sh" --expected "${@:-$topo}" ;;
	rootfs) guest "$flavour" demo "$topo" ;;
	boot) cmd_boot "$@" ;;
	lint)
		run kernel "$TOP/board/kernel.sh" debug
		run modules "$TOP/drivers/build.sh" debug
		run lint "$TOP/tests/host/lint.sh" "$BUILD/lint.ktap"
		;;
	help | -h | --help) usage ;;
	*) usage >&2; die "unknown command '$cmd'" ;;
	esac
}

# "exit" on the same line: bash never reads past it, even if this file is
# edited while it runs.
main "$@"; exit
