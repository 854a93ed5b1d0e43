# shellcheck shell=bash
# board/lib.sh - the helpers every build step shares. Sourced (never run) by
# build.sh and by each step script (board/kernel.sh, drivers/build.sh,
# dts/build.sh, rootfs/build.sh, board/fit.sh, board/qemu.sh,
# tests/host/lint.sh, tests/host/test.sh). It defines functions and
# constants only: what one step hands to the next is files, in build/ and
# in build/FLAVOUR/state (KEY=VALUE lines, state_set and state_get).
set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# N900_BUILD_DIR: where the steps find what was built (default build/). A
# test shard run from an artefact (./build.sh test with N900_ARTEFACT) sets
# it to the unpacked artefact, which nothing else of a build accompanies.
BUILD=${N900_BUILD_DIR:-$TOP/build}
CACHE=${N900_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/n900-isp}
LOGS=$BUILD/logs
# shellcheck disable=SC2034 # the steps' make -j
JOBS=${N900_JOBS:-$(nproc)}
CROSS=arm-linux-gnueabihf-
KSRC_PKG=linux-source-6.12
# dtc's checks as the kernel runs them on its .dts and .dtso files
# (scripts/Makefile.dtbs without W=: the noisy ones off, the rest on, among
# them graph_endpoint, "graph connection ... is not bidirectional"): a
# warning is a finding of dts/build.sh and tests/host/dt-schema.sh
# shellcheck disable=SC2034 # used by the steps that source this file
DTC_WARN_FLAGS=(-Wno-unique_unit_address -Wno-unit_address_vs_reg
	-Wno-avoid_unnecessary_addr_size -Wno-alias_paths -Wno-graph_child_address
	-Wno-simple_bus_reg)
mkdir -p "$LOGS"

say() { printf '[build] %s\n' "$*"; }
die() { printf '[build] error: %s\n' "$*" >&2; exit 1; }

STEP_T0=$SECONDS
STEP_NAME=
step() { STEP_T0=$SECONDS; STEP_NAME=$*; say "==> $*"; }
done_step() { say "    done in $((SECONDS - STEP_T0)) s${1:+ ($1)}"; STEP_NAME=; }

# A command that fails outside run_logged (which prints its own log) says
# which step it was in and where the logs are. Only the script's main
# shell reports: subshells and background jobs fail into it.
# shellcheck disable=SC2317 # called by the ERR trap
on_error() {
	local rc=$1 line=$2 cmd=$3 file=$4
	[ "$BASHPID" = "$MAIN_PID" ] || return 0
	printf '[build] error: "%s" failed (exit %d, %s line %d)%s\n' \
		"$cmd" "$rc" "${file#"$TOP"/}" "$line" "${STEP_NAME:+ in step \"$STEP_NAME\"}" >&2
	printf '[build]        the logs of every step are in %s\n' "$LOGS" >&2
}
MAIN_PID=$BASHPID
set -E
trap 'on_error $? $LINENO "$BASH_COMMAND" "${BASH_SOURCE[0]}"' ERR

# run_logged NAME CMD...: run a long command into build/logs/NAME.log, show
# a dot every 10 s, and on failure print the tail and where the log is.
run_logged() {
	local name=$1 log rc=0 pid dots=''
	shift
	log=$LOGS/$name.log
	"$@" >"$log" 2>&1 &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		sleep 10
		! kill -0 "$pid" 2>/dev/null || { printf '.' >&2; dots=1; }
	done
	wait "$pid" || rc=$?
	[ -z "$dots" ] || printf '\n' >&2
	if [ "$rc" -ne 0 ]; then
		printf '[build] step "%s" failed (exit %d). Last lines of %s:\n' \
			"$name" "$rc" "$log" >&2
		tail -n 30 "$log" >&2
		exit "$rc"
	fi
}

as_root() {
	if [ "$(id -u)" -eq 0 ]; then
		"$@"
	elif command -v sudo >/dev/null; then
		sudo "$@"
	else
		die "need root to run: $* (install sudo or run as root)"
	fi
}

# The Debian packages of the host (board/kernel.sh installs the missing).
HOST_PACKAGES=(
	"$KSRC_PKG" gcc-arm-linux-gnueabihf libc6-dev-armhf-cross
	qemu-system-arm device-tree-compiler u-boot-tools ccache
	make gcc bc flex bison libssl-dev libelf-dev cpio xz-utils kmod
	rsync dpkg-dev apt graphviz gnuplot-nox sparse coreutils gzip
	python3-ply imagemagick shellcheck u-boot-qemu libxml2-utils
	gcc-aarch64-linux-gnu libc6-dev-arm64-cross python3-yaml dt-schema qemu-user
)

# What a machine that only runs test shards from an artefact needs: QEMU,
# U-Boot, the tools of the verdict and of the pictures.
# shellcheck disable=SC2034 # used by build.sh
HOST_RUNTIME_PACKAGES=(
	qemu-system-arm u-boot-qemu device-tree-compiler python3 perl coreutils
	gzip tar imagemagick gnuplot-nox graphviz libxml2-utils
)

# ensure_packages [PACKAGE...]: install the missing Debian packages of the
# host (default: HOST_PACKAGES)
ensure_packages() {
	local missing=() p
	[ $# -gt 0 ] || set -- "${HOST_PACKAGES[@]}"
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
			grep -q 'install ok installed' || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	step "installing Debian packages: ${missing[*]}"
	as_root apt-get update -q >"$LOGS/apt-update.log" 2>&1 ||
		die "apt-get update failed, see $LOGS/apt-update.log"
	as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
		--no-install-recommends "${missing[@]}" >"$LOGS/apt-install.log" 2>&1 ||
		die "apt-get install failed, see $LOGS/apt-install.log"
	done_step "${#missing[@]} package(s)"
}

# state_set FLAVOUR KEY VALUE: record KEY=VALUE in build/FLAVOUR/state
state_set() {
	local f=$BUILD/$1/state
	mkdir -p "$BUILD/$1"
	touch "$f"
	{ grep -v "^$2=" "$f" || true; printf '%s=%s\n' "$2" "$3"; } >"$f.new"
	mv "$f.new" "$f"
}

# state_get FLAVOUR KEY: the value of KEY in build/FLAVOUR/state; a missing
# key names the command that writes it. "@BUILD@" in a value is the build
# directory: an artefact's state says where its files are that way, so
# that it can be unpacked anywhere.
state_get() {
	local v
	v=$(sed -n "s/^$2=//p" "$BUILD/$1/state" 2>/dev/null | tail -n 1)
	[ -n "$v" ] || die "no $2 in ${BUILD#"$TOP"/}/$1/state: run ./build.sh $(state_writer "$2") first"
	printf '%s\n' "${v//@BUILD@/"$BUILD"}"
}
state_writer() {
	case $1 in
	KSRC | KOUT | KVER | ZIMAGE) echo "kernel ${FLAVOUR:-debug}" ;;
	MODULES) echo modules ;;
	*) echo rootfs ;;
	esac
}

# load_kernel FLAVOUR: KSRC and KOUT of that flavour's kernel, from its state
load_kernel() {
	FLAVOUR=$1
	KSRC=$(state_get "$1" KSRC)
	KOUT=$(state_get "$1" KOUT)
	[ -f "$KOUT/.n900-built" ] || die "the $1 kernel in $KOUT is gone: run ./build.sh kernel $1"
}

kmake() {
	CCACHE_DIR=$CACHE/ccache make -C "$KSRC" O="$KOUT" ARCH=arm CROSS_COMPILE="$CROSS" \
		CC="ccache ${CROSS}gcc" KBUILD_BUILD_TIMESTAMP="n900-isp" \
		KBUILD_BUILD_USER=build KBUILD_BUILD_HOST=n900-isp "$@"
}

# fit_configs: the configurations of board/n900.its (n900, chain-64, ...)
fit_configs() { sed -n 's/^[[:space:]]*conf-\([a-z0-9-]*\) {$/\1/p' "$TOP/board/n900.its"; }
