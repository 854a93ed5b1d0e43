#!/usr/bin/env bash
# build.sh - the one entry point of the N900 camera ISP emulator.
#
#   ./build.sh            build everything (release kernel) and run the demo
#   ./build.sh test       build the debug kernel and run the test suites
#   ./build.sh shell      boot the guest with the driver loaded, interactive
#   ./build.sh clean      remove build/ (add --all to drop the kernel cache)
#   ./build.sh help       list the subcommands and environment knobs
#
# Each run of the demo, the tests or the shell leaves its console logs and
# artefacts in build/runs/COMMAND-TIME/; build/runs/latest points at it.
#
# Everything is built from Debian packages: the kernel from linux-source-6.12,
# the guest userspace from armhf .debs fetched through a private apt
# configuration (the host's apt sources are never touched).
set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
BUILD=$TOP/build
CACHE=${N900_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/n900-isp}
LOGS=$BUILD/logs
JOBS=${N900_JOBS:-$(nproc)}
CROSS=arm-linux-gnueabihf-
KSRC_TARBALL=/usr/src/linux-source-6.12.tar.xz
KSRC_PKG=linux-source-6.12
GUEST_SUITE=${N900_GUEST_SUITE:-trixie}
BOOT_TIMEOUT=${N900_BOOT_TIMEOUT:-2400}

# shellcheck source=board/qemu.sh
. "$TOP/board/qemu.sh"

HOST_PACKAGES=(
	"$KSRC_PKG" gcc-arm-linux-gnueabihf libc6-dev-armhf-cross
	qemu-system-arm device-tree-compiler u-boot-tools ccache
	make gcc bc flex bison libssl-dev libelf-dev cpio xz-utils kmod
	rsync dpkg-dev apt graphviz gnuplot-nox sparse coreutils gzip
	python3-ply imagemagick shellcheck u-boot-qemu libxml2-utils
)

# Guest packages (Debian armhf). apt resolves their libraries.
GUEST_PACKAGES=(busybox-static v4l-utils)

say() { printf '[build] %s\n' "$*"; }
die() { printf '[build] error: %s\n' "$*" >&2; exit 1; }

STEP_T0=0
STEP_NAME=
step() { STEP_T0=$SECONDS; STEP_NAME=$*; say "==> $*"; }
done_step() { say "    done in $((SECONDS - STEP_T0)) s${1:+ ($1)}"; STEP_NAME=; }

# A command that fails outside run_logged (which prints its own log) says
# which step it was in and where the logs are.
# Only the main shell reports: subshells and background jobs fail into it.
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
	local name=$1 log rc=0 pid
	shift
	mkdir -p "$LOGS"
	log=$LOGS/$name.log
	"$@" >"$log" 2>&1 &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		sleep 10
		kill -0 "$pid" 2>/dev/null && printf '.' >&2
	done
	wait "$pid" || rc=$?
	printf '\n' >&2
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

# --- 1. host packages ---------------------------------------------------
ensure_packages() {
	local missing=() p
	for p in "${HOST_PACKAGES[@]}"; do
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
	done_step
}

# --- 2. kernel source ---------------------------------------------------
# The extracted tree is keyed on the package version and the patch series.
kernel_source() {
	local ver patches=() key p skip
	ver=$(dpkg-query -W -f='${Version}' "$KSRC_PKG")
	shopt -s nullglob
	for p in "$TOP"/patches/*.patch; do
		# N900_SKIP_PATCHES="0002 ...": build without those patches,
		# to see the vanilla behaviour a patch fixes
		for skip in ${N900_SKIP_PATCHES:-}; do
			[[ $(basename "$p") != "$skip"* ]] || continue 2
		done
		patches+=("$p")
	done
	shopt -u nullglob
	if [ -n "${N900_SKIP_PATCHES:-}" ]; then
		if [ ${#patches[@]} -eq 0 ]; then
			say "N900_SKIP_PATCHES=$N900_SKIP_PATCHES: no patches (vanilla 6.12)"
		else
			say "N900_SKIP_PATCHES=$N900_SKIP_PATCHES: applying only ${patches[*]##*/}"
		fi
	fi
	# Only the diffs count: a reworded commit message rebuilds nothing.
	key=$( { echo "$ver"; for p in "${patches[@]}"; do sed -n '/^---$/,$p' "$p"; done; } |
		sha256sum | cut -c1-16)
	SRC_KEY=$key
	KSRC=$CACHE/src-$key/linux-source-6.12
	[ -f "$CACHE/src-$key/.ready" ] && return 0
	step "extracting $KSRC_PKG $ver and applying ${#patches[@]} patch(es)"
	rm -rf "$CACHE/src-$key"
	mkdir -p "$CACHE/src-$key"
	tar -C "$CACHE/src-$key" -xf "$KSRC_TARBALL"
	for p in "${patches[@]}"; do
		say "    applying $(basename "$p")"
		patch -d "$KSRC" -p1 --forward --quiet <"$p" ||
			die "patch $(basename "$p") does not apply to $KSRC_PKG $ver"
	done
	touch "$CACHE/src-$key/.ready"
	done_step
}

# --- 3. kernel config and build -----------------------------------------
kmake() {
	make -C "$KSRC" O="$KOUT" ARCH=arm CROSS_COMPILE="$CROSS" \
		CC="ccache ${CROSS}gcc" KBUILD_BUILD_TIMESTAMP="n900-isp" \
		KBUILD_BUILD_USER=build KBUILD_BUILD_HOST=n900-isp "$@"
}

# shellcheck disable=SC2094 # .config is read, the fragments are read
check_config() {
	local frag line opt want have bad=0
	for frag in "$@"; do
		while IFS= read -r line; do
			case $line in
			CONFIG_*=*)
				opt=${line%%=*}
				want=${line#*=}
				;;
			"# CONFIG_"*" is not set")
				opt=${line#\# }
				opt=${opt%% *}
				want=n
				;;
			*) continue ;;
			esac
			have=$(grep -E "^$opt=" "$KOUT/.config" | cut -d= -f2- || true)
			[ -n "$have" ] || have=n
			# without some patches (N900_SKIP_PATCHES), an option that
			# a skipped patch adds does not exist: say so, go on
			if [ "$have" = n ] && [ "$want" != n ] && [ -n "${N900_SKIP_PATCHES:-}" ] &&
				! grep -rqsE --include='Kconfig*' "^(menu)?config ${opt#CONFIG_}\$" "$KSRC"; then
				say "config: $opt is not in this tree (N900_SKIP_PATCHES), left out"
				continue
			fi
			if [ "$have" != "$want" ]; then
				printf '[build] config: %s wanted %s, got %s (%s)\n' \
					"$opt" "$want" "$have" "$(basename "$frag")" >&2
				bad=1
			fi
		done <"$frag"
	done
	[ $bad -eq 0 ] || die "kernel config does not hold every requested option; see $KOUT/.config"
}

kernel_build() {
	local flavour=$1 frags key gccver
	frags=("$TOP/board/kconfig/base.config" "$TOP/board/kconfig/$flavour.config")
	gccver=$("${CROSS}gcc" --version | head -n1)
	key=$( { echo "$SRC_KEY $gccver"; cat "${frags[@]}"; } | sha256sum | cut -c1-16)
	KOUT=$CACHE/kbuild-$flavour-$key
	if [ -f "$KOUT/.n900-built" ]; then
		say "kernel ($flavour) cached: $KOUT"
		return 0
	fi
	mkdir -p "$KOUT"
	export CCACHE_DIR=$CACHE/ccache
	step "configuring kernel ($flavour): allnoconfig + ${frags[*]##*/}"
	(cd "$KSRC" && ARCH=arm CROSS_COMPILE="$CROSS" \
		scripts/kconfig/merge_config.sh -n -m -O "$KOUT" "${frags[@]}") \
		>"$LOGS/kconfig-$flavour.log" 2>&1 ||
		die "merge_config failed, see $LOGS/kconfig-$flavour.log"
	kmake olddefconfig >>"$LOGS/kconfig-$flavour.log" 2>&1
	check_config "${frags[@]}"
	done_step
	step "building kernel ($flavour) with -j$JOBS (cold: about 7 min release, 9-10 min debug, on 2 cores)"
	run_logged "kernel-$flavour" kmake -j"$JOBS" zImage modules
	touch "$KOUT/.n900-built"
	done_step "$(du -h "$KOUT/arch/arm/boot/zImage" | cut -f1) zImage"
}

# --- 4. our modules -----------------------------------------------------
# drivers/ is copied into build/ so that the out-of-tree build never writes
# into the source tree.
module_build() {
	local flavour=$1
	MOD_OUT=$BUILD/$flavour/drivers
	step "building drivers/ against the $flavour kernel"
	mkdir -p "$MOD_OUT"
	rsync -a --delete --exclude '*.o' --exclude '*.ko' --exclude '*.cmd' \
		--exclude '*.mod*' --exclude 'Module.symvers' --exclude 'modules.order' \
		"$TOP/drivers/" "$MOD_OUT/src/"
	export CCACHE_DIR=$CACHE/ccache
	# W=1 and sparse (C=1: every file compiled is checked); a warning fails.
	run_logged "drivers-$flavour" kmake M="$MOD_OUT/src" W=1 C=1 -j"$JOBS" modules
	MOD_WARNINGS=$(grep -cE 'warning:|error:' "$LOGS/drivers-$flavour.log" || true)
	if [ "$MOD_WARNINGS" -ne 0 ]; then
		grep -E 'warning:|error:' "$LOGS/drivers-$flavour.log" >&2
		# recompile (and so recheck) everything next time
		find "$MOD_OUT/src" -name '*.o' -delete
		# the test run reports them as a failed test; others stop here
		[ "$flavour" = debug ] ||
			die "drivers/ builds with warnings (W=1, sparse), see $LOGS/drivers-$flavour.log"
	fi
	done_step
}

# lint_result NAME FINDINGS [NOTE]: one KTAP result of lint_drivers, "not
# ok" (with the findings as diagnostics) when FINDINGS is not empty.
lint_result() {
	LINT_I=$((LINT_I + 1))
	if [ -z "$2" ]; then
		echo "ok $LINT_I $1"
	else
		printf '%s\n' "$2" | head -n 20 | sed 's/^/# /'
		echo "not ok $LINT_I $1${3:+ # $3}"
		LINT_N=$((LINT_N + 1))
	fi
}

# lint_shell: shellcheck on every shell script of the project (sourced
# files followed), printing only the findings
lint_shell() {
	cd "$TOP" || return 0
	shellcheck -x build.sh .ci/run board/qemu.sh dts/stress.sh tests/host/*.sh tests/bench/*.sh \
		tests/guest/*.sh tests/guest/lib/*.sh rootfs/overlay/init rootfs/overlay/usr/lib/n900/*.sh 2>&1 |
		grep -E '^In |\^-' || true
}

# help_missing: the commands main() takes that "./build.sh help" omits
help_missing() {
	local c
	for c in $(sed -n '/^main() {/,/^}/s/^\t\([a-z][a-z |-]*\)).*/\1/p' "$TOP/build.sh" | tr '|' ' '); do
		case $c in -h | --help) continue ;; esac
		usage | grep -qE "^  $c( |$)|^  \(none\), $c " || echo "\"$c\" is not in ./build.sh help"
	done
}

# lint_drivers OUT: host-side code checks of drivers/ and patches/ as one
# KTAP document (read by tests/host/harness.sh): checkpatch --strict per file and
# per patch, the W=1 + sparse result of the module build, and a W=1 +
# sparse rebuild of the media controller core the patches touch.
lint_drivers() {
	local out=$1 f files=() patches=()
	mapfile -t files < <(find "$TOP/drivers" -name '*.[ch]' | sort)
	patches=("$TOP"/patches/*.patch)
	LINT_I=0 LINT_N=0
	step "checkpatch --strict and sparse on drivers/ and patches/, shellcheck on the scripts"
	# C=2: sparse on every file of the directory, rebuilt or not
	kmake -j"$JOBS" W=1 C=2 drivers/media/mc/ >"$LOGS/mc-w1-sparse.log" 2>&1 ||
		echo "error: the W=1 C=2 build of drivers/media/mc failed" >>"$LOGS/mc-w1-sparse.log"
	{
		echo "KTAP version 1"
		echo "1..$((${#files[@]} + ${#patches[@]} + 5))"
		# checkpatch all files at once ($JOBS in parallel), report per file
		# shellcheck disable=SC2016 # expanded by the inner sh
		printf '%s\0' "${files[@]}" | xargs -0 -n 1 -P "$JOBS" sh -c \
			'perl "$0" --strict --no-tree --terse --show-types -q -f "$2" \
				>"$1/checkpatch-${2##*/}.txt" 2>&1 || true' \
			"$KSRC/scripts/checkpatch.pl" "$LOGS"
		for f in "${files[@]}"; do
			lint_result "checkpatch.${f#"$TOP"/}" \
				"$(grep -E 'ERROR|WARNING|CHECK' "$LOGS/checkpatch-${f##*/}.txt" || true)"
		done
		# A new file makes checkpatch ask whether MAINTAINERS needs
		# updating (FILE_PATH_CHANGES); drivers/media/mc/ is covered there.
		# The Debian source tarball has no git history to look a Fixes:
		# commit id up in (UNKNOWN_COMMIT_ID); its form is still checked.
		for f in "${patches[@]}"; do
			lint_result "checkpatch.${f#"$TOP"/}" "$(cd "$KSRC" || exit
				perl scripts/checkpatch.pl --strict --terse --show-types -q \
					--ignore FILE_PATH_CHANGES,UNKNOWN_COMMIT_ID "$f" 2>&1 |
					grep -E 'ERROR|WARNING|CHECK' || true)"
		done
		# every shell script of the project, sourced files followed (-x)
		lint_result shellcheck "$(lint_shell)"
		lint_result sparse_w1.drivers/media/mc \
			"$(grep -E 'warning:|error:' "$LOGS/mc-w1-sparse.log" || true)" \
			"see $LOGS/mc-w1-sparse.log"
		lint_result sparse_w1.drivers \
			"$(grep -E 'warning:|error:' "$LOGS/drivers-debug.log" || true)" \
			"$MOD_WARNINGS warnings, see $LOGS/drivers-debug.log"
		lint_result help_lists_every_command "$(help_missing)"
		# the committed scaling data still draws (docs/bench-scaling.png)
		lint_result bench_plot_draws "$("$TOP/tests/bench/bench-plot.sh" \
			"$TOP/docs/bench-scaling.tsv" "$BUILD/bench-scaling.png" 2>&1)"
	} >"$out"
	done_step "$LINT_N problem(s)"
}

# --- 5. device tree -----------------------------------------------------
# fw_devlink follows every remote-endpoint and checks the device links for
# cycles recursively, one stack frame per device: a few hundred linked
# entities overflow the 8 KiB kernel stack before the console is up. The
# stress topologies boot without it; the ISP driver orders its probe with
# v4l2-async, not device links.
STRESS_KERNEL_ARGS="fw_devlink=off"

# make_dtb TOPOLOGY: "n900" (dts/n900.dtso), or a stress topology
# "chain-N", "fan-N" or "mesh-N" generated by dts/stress.sh
make_dtb() {
	local overlay=$1 out=$BUILD/dt base src
	mkdir -p "$out"
	base=$out/virt.dtb
	src=$TOP/dts/$overlay.dtso
	DTB_ARGS=
	# -@ keeps the overlay's labels (__symbols__): n900 refers to &pl061;
	# the stress topologies need none, and the labels would add a third
	# to the size of a big tree
	local symbols=-@ stress=
	if [[ $overlay =~ ^(chain|fan|mesh)-([0-9]+)$ ]]; then
		stress=1
		DTB_ARGS=$STRESS_KERNEL_ARGS
		symbols=
		src=$out/$overlay.dtso
		"$TOP/dts/stress.sh" "${BASH_REMATCH[1]}" "${BASH_REMATCH[2]}" >"$src" ||
			die "dts/stress.sh could not generate $overlay"
	elif [ ! -f "$src" ]; then
		die "unknown topology '$overlay': n900, chain-N, fan-N or mesh-N"
	fi
	step "device tree: QEMU virt + ${src#"$TOP"/}"
	qemu_dumpdtb "$base" 2>"$LOGS/dumpdtb.log" ||
		{ cat "$LOGS/dumpdtb.log" >&2; die "QEMU could not dump the virt device tree"; }
	# overlays refer to QEMU's GPIO controller as &pl061: give it the label
	fdtput -p -t s "$base" /__symbols__ pl061 \
		"$(fdtget -l "$base" / | sed -n 's|^pl061@.*|/&|p' | head -n 1)" ||
		die "no PL061 GPIO controller in QEMU's virt tree"
	dtc -q $symbols -I dts -O dtb -o "$out/$overlay.dtbo" "$src" \
		2>"$LOGS/dtc-$overlay.log" ||
		{ cat "$LOGS/dtc-$overlay.log" >&2; die "dtc failed on $src"; }
	if [ -n "$stress" ]; then
		# fdtoverlay resolves each of the overlay's phandle fixups with a
		# search of the tree: minutes for chain-4096. dtc compiles the
		# virt tree and the overlay's nodes as one source in seconds.
		{ dtc -q -I dtb -O dts "$base"; grep -v -e '^/dts-v1/;$' -e '^/plugin/;$' "$src"; } |
			dtc -q -I dts -O dtb -o "$out/$overlay.dtb" - 2>"$LOGS/dtc-$overlay-merged.log" ||
			{ cat "$LOGS/dtc-$overlay-merged.log" >&2; die "dtc could not merge $src into the virt tree"; }
	else
		fdtoverlay -i "$base" -o "$out/$overlay.dtb" "$out/$overlay.dtbo" ||
			die "fdtoverlay could not apply dts/$overlay.dtso to the virt tree"
	fi
	DTB=$out/$overlay.dtb
	done_step
}

# --- 6. guest packages (private apt configuration) ----------------------
# The mirror is the one the host already uses for Debian; only the suite
# and architecture differ. Nothing here writes to /etc/apt.
host_debian_mirror() {
	local uri
	uri=${N900_DEBIAN_MIRROR:-}
	[ -n "$uri" ] && { echo "$uri"; return; }
	# shellcheck disable=SC2016 # $(REPO_URI) is apt's template syntax
	uri=$(apt-get indextargets --format '$(REPO_URI)' 'Identifier: Packages' 2>/dev/null |
		grep -v -- '-security' | grep -E '/debian/?$' | head -n1 || true)
	[ -n "$uri" ] || die "cannot find the host's Debian mirror; set N900_DEBIAN_MIRROR"
	echo "${uri%/}"
}

guest_packages() {
	local apt=$CACHE/apt-$GUEST_SUITE-armhf key mirror
	key=$(echo "$GUEST_SUITE ${GUEST_PACKAGES[*]}" | sha256sum | cut -c1-16)
	DEBS=$apt/cache/archives
	[ -f "$apt/.ready-$key" ] && return 0
	step "downloading guest packages (Debian $GUEST_SUITE armhf): ${GUEST_PACKAGES[*]}"
	mirror=$(host_debian_mirror)
	mkdir -p "$apt"/{lists/partial,cache/archives/partial,state,etc/apt.conf.d,etc/preferences.d,etc/sources.list.d}
	: >"$apt/status"
	echo "deb [arch=armhf signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $GUEST_SUITE main" \
		>"$apt/sources.list"
	cat >"$apt/apt.conf" <<-EOF
		Dir::State "$apt/state";
		Dir::State::lists "$apt/lists";
		Dir::State::status "$apt/status";
		Dir::Cache "$apt/cache";
		Dir::Etc::sourcelist "$apt/sources.list";
		Dir::Etc::sourceparts "$apt/etc/sources.list.d";
		Dir::Etc::parts "$apt/etc/apt.conf.d";
		Dir::Etc::preferences "$apt/etc/preferences";
		Dir::Etc::preferencesparts "$apt/etc/preferences.d";
		APT::Architecture "armhf";
		APT::Architectures { "armhf"; };
		Acquire::Languages "none";
		APT::Install-Recommends "false";
		Debug::NoLocking "true";
	EOF
	APT_CONFIG=$apt/apt.conf run_logged guest-apt-update apt-get update
	APT_CONFIG=$apt/apt.conf run_logged guest-apt-download \
		apt-get -y --download-only install "${GUEST_PACKAGES[@]}"
	local v
	v=$(dpkg-deb -f "$DEBS"/v4l-utils_*_armhf.deb Version)
	case $v in
	1.30.1*) ;;
	*) die "guest v4l-utils is $v; the tests need 1.30.1 (Debian $GUEST_SUITE)" ;;
	esac
	touch "$apt/.ready-$key"
	done_step "v4l-utils $v"
}

# --- 7. guest test programs ---------------------------------------------
build_guest_tests() {
	local out=$BUILD/tests src
	mkdir -p "$out"
	step "cross-compiling guest tests (tests/*.c)"
	for src in "$TOP"/tests/guest/*.c; do
		"${CROSS}gcc" -O2 -Wall -Wextra -Werror -static -pthread \
			-I "$TOP/tests/guest/lib" -o "$out/$(basename "${src%.c}")" "$src" ||
			die "cannot compile $src"
	done
	done_step
	frames_expected "$out/frames.expected"
	step "documented ioctl errnos (tests/host/ioctl-errnos.sh on the kernel's media docs)"
	"$TOP/tests/host/ioctl-errnos.sh" "$KSRC" >"$BUILD/ioctl-errnos" ||
		die "tests/host/ioctl-errnos.sh failed"
	done_step "$(wc -l <"$BUILD/ioctl-errnos") ioctls"
	malformed_dtbs "$BUILD/dt-malformed"
}

# malformed_dtbs OUT: compile tests/data/dt-malformed/*.dtso into OUT/*.dtbo,
# and OUT/expect: "CASE<TAB>REGEX" from each file's "// expect:" line (the
# kernel message tests/guest/dt-malformed.sh waits for)
malformed_dtbs() {
	local out=$1 src name re
	step "malformed device tree overlays (tests/data/dt-malformed/)"
	rm -rf "$out"
	mkdir -p "$out"
	for src in "$TOP"/tests/data/dt-malformed/*.dtso; do
		name=$(basename "${src%.dtso}")
		re=$(sed -n 's|^// expect: ||p' "$src")
		[ -n "$re" ] || die "$src has no \"// expect:\" line"
		printf '%s\t%s\n' "$name" "$re" >>"$out/expect"
		# the defects are the point: no warnings
		dtc -q -I dts -O dtb -o "$out/$name.dtbo" "$src" 2>"$LOGS/dtc-$name.log" ||
			{ cat "$LOGS/dtc-$name.log" >&2; die "dtc failed on $src"; }
	done
	# README's example overlay, verbatim: it must probe like good.dtso
	sed -n '/<!-- overlay:begin -->/,/<!-- overlay:end -->/p' "$TOP/README.md" |
		sed -e '/^<!--/d' -e '/^```/d' >"$out/readme-example.dtso"
	[ -s "$out/readme-example.dtso" ] || die "README.md has no overlay:begin/end block"
	dtc -q -I dts -O dtb -o "$out/readme-example.dtbo" "$out/readme-example.dtso" \
		2>"$LOGS/dtc-readme-example.log" ||
		{ cat "$LOGS/dtc-readme-example.log" >&2; die "dtc failed on README.md's example overlay"; }
	printf 'readme-example\tgood\n' >>"$out/expect"
	done_step "$(grep -cv 'good$' "$out/expect") malformed, 2 good (good.dtso, README's example)"
}

# frames_expected OUT: the host reference model (tests/ref/isp-ref.c, built
# from the driver's own drivers/isp/isp_pixel.c) computes the frame of every
# case of tests/data/frames.spec; OUT gets "CASE MD5" lines for the guest, and
# $BUILD/frames-input the input frames of the memory-to-memory cases.
frames_expected() {
	local out=$1 ref=$BUILD/isp-ref name='' md5 dir=$BUILD/frames-input file
	local -a args
	rm -rf "$dir"
	mkdir -p "$dir"
	step "reference frames: tests/ref/isp-ref on the cases of tests/data/frames.spec"
	gcc -O2 -Wall -Wextra -Werror -include "$TOP/tests/ref/kcompat.h" \
		-I "$TOP/drivers/include/uapi" -o "$ref" \
		"$TOP/tests/ref/isp-ref.c" "$TOP/drivers/isp/isp_pixel.c" ||
		die "cannot compile the reference model tests/ref/isp-ref.c"
	: >"$out"
	while IFS= read -r line; do
		case $line in
		"case "*) name=${line#case } ;;
		"input "*)
			read -r -a args <<<"${line#input }"
			file=${args[0]}
			(cd "$dir" && "$ref" "${args[@]:1}" >"$file") ||
				die "tests/ref/isp-ref failed on the input of case $name of tests/data/frames.spec"
			;;
		"ref "* | "ref& "*)
			read -r -a args <<<"${line#* }"
			md5=$(cd "$dir" && "$ref" "${args[@]}" | md5sum) ||
				die "tests/ref/isp-ref failed on case $name of tests/data/frames.spec"
			if [[ $line == "ref& "* ]]; then
				echo "$name& ${md5%% *}" >>"$out"
			else
				echo "$name ${md5%% *}" >>"$out"
			fi
			;;
		esac
	done <"$TOP/tests/data/frames.spec"
	done_step "$(wc -l <"$out") cases"
}

# --- 8. initramfs -------------------------------------------------------
make_rootfs() {
	local flavour=$1 mode=$2 root deb kver
	root=$BUILD/$flavour/rootfs
	step "assembling the initramfs ($flavour)"
	rm -rf "$root"
	mkdir -p "$root"
	# Debian 13 is merged-/usr: /bin, /sbin and /lib are links into /usr.
	mkdir -p "$root"/{usr/bin,usr/sbin,usr/lib,proc,sys,dev,tmp,run,mnt,root}
	ln -s usr/bin "$root/bin"
	ln -s usr/sbin "$root/sbin"
	ln -s usr/lib "$root/lib"
	for deb in "$DEBS"/*.deb; do
		dpkg-deb -x "$deb" "$root"
	done
	# Documentation is not needed in the guest; every byte of the initramfs
	# is unpacked at each boot.
	rm -rf "$root"/usr/share/doc "$root"/usr/share/man "$root"/usr/share/locale \
		"$root"/usr/share/lintian "$root"/usr/share/bug
	# busybox-static provides /usr/bin/busybox. It cannot run on the host,
	# so /init installs the applet links itself ("busybox --install -s").
	ln -sf busybox "$root/usr/bin/sh"
	# kernel modules and ours, with modules.dep for modprobe
	kver=$(cat "$KOUT/include/config/kernel.release")
	kmake INSTALL_MOD_PATH="$root" INSTALL_MOD_STRIP=1 modules_install \
		>"$LOGS/modules-install-$flavour.log" 2>&1
	kmake M="$MOD_OUT/src" INSTALL_MOD_PATH="$root" INSTALL_MOD_STRIP=1 \
		modules_install >>"$LOGS/modules-install-$flavour.log" 2>&1
	depmod -b "$root" "$kver"
	# our overlay: /init and friends
	cp -a "$TOP/rootfs/overlay/." "$root/"
	mkdir -p "$root/usr/lib/n900/tests/lib" "$root/etc/n900"
	cp -a "$BUILD/tests/." "$root/usr/lib/n900/tests/"
	cp -a "$TOP/tests/guest/"*.sh "$root/usr/lib/n900/tests/"
	cp -a "$TOP/tests/guest/lib/"*.sh "$root/usr/lib/n900/tests/lib/"
	cp "$BUILD/dt/topology.expected" "$TOP/tests/data/controls.spec" \
		"$TOP/tests/data/frames.spec" "$TOP/tests/data/shards" "$BUILD/tests/frames.expected" "$root/etc/n900/"
	cp "$BUILD/frames-input/"* "$BUILD/ioctl-errnos" "$root/etc/n900/"
	cp -a "$BUILD/dt-malformed" "$root/etc/n900/"
	# README's media-ctl recipes, run verbatim by tests/guest/recipes.sh
	sed -n '/<!-- recipes:begin -->/,/<!-- recipes:end -->/p' "$TOP/README.md" |
		sed -e '/^<!--/d' -e '/^```/d' >"$root/etc/n900/recipes"
	echo "$mode" >"$root/etc/n900/mode"
	# Uncompressed: gunzip in an emulated CPU costs seconds at every boot.
	(cd "$root" && find . -print0 | cpio --null -o -H newc -R 0:0 --quiet) \
		>"$BUILD/$flavour/rootfs.cpio"
	# QEMU puts the device tree right after the initrd, and ARM maps it
	# as two sections from the start of its section (2 MiB sections with
	# the release flavour's LPAE). Padding the initrd (with zeros, which
	# the kernel skips) to whole 2 MiB keeps the tree at a section start,
	# so that all of a big one (chain-4096: 3.5 MiB once QEMU has doubled
	# it) is mapped.
	INITRD_SIZE=$(stat -c %s "$BUILD/$flavour/rootfs.cpio")
	truncate -s %2M "$BUILD/$flavour/rootfs.cpio"
	INITRD=$BUILD/$flavour/rootfs.cpio
	done_step "$(du -h "$INITRD" | cut -f1)"
}

# --- 8b. the FIT image and the U-Boot environment -----------------------
# The configurations of board/n900.its (conf-n900, conf-chain-64, ...)
fit_configs() { sed -n 's/^[[:space:]]*conf-\([a-z0-9-]*\) {$/\1/p' "$TOP/board/n900.its"; }

# make_fit FLAVOUR: build/FLAVOUR/fit/n900.itb from board/n900.its (kernel,
# initramfs, one device tree per configuration) and, for each
# configuration, a flash image with the U-Boot environment that boots it.
make_fit() {
	local flavour=$1 topo keep_dtb=$DTB keep_args=$DTB_ARGS dir
	dir=$BUILD/$flavour/fit
	[ -r "$UBOOT_BIN" ] || die "no $UBOOT_BIN (Debian package u-boot-qemu)"
	rm -rf "$dir"
	mkdir -p "$dir"
	for topo in $(fit_configs); do
		make_dtb "$topo"
		cp "$BUILD/dt/$topo.dtb" "$dir/"
	done
	DTB=$keep_dtb
	DTB_ARGS=$keep_args
	step "FIT image ($flavour): mkimage -f board/n900.its, configurations $(fit_configs | tr '\n' ' ')"
	cp "$KOUT/arch/arm/boot/zImage" "$dir/zImage"
	# the initramfs without the 2 MiB padding of the direct boot
	head -c "$INITRD_SIZE" "$INITRD" >"$dir/initramfs.cpio"
	cp "$TOP/board/n900.its" "$dir/"
	(cd "$dir" && mkimage -f n900.its n900.itb) >"$LOGS/mkimage-$flavour.log" 2>&1 ||
		{ tail -n 20 "$LOGS/mkimage-$flavour.log" >&2; die "mkimage failed, see $LOGS/mkimage-$flavour.log"; }
	FIT=$dir/n900.itb
	for topo in $(fit_configs); do
		sed -e '/^#/d' -e '/^$/d' -e "s/^fit_config=.*/fit_config=conf-$topo/" \
			"$TOP/board/uboot-env.txt" >"$dir/env-$topo.txt"
		mkenvimage -s 0x40000 -o "$dir/env-$topo.img" "$dir/env-$topo.txt" ||
			die "mkenvimage failed on $dir/env-$topo.txt"
		# QEMU wants the whole 64 MiB flash bank
		truncate -s 64M "$dir/env-$topo.img"
	done
	rm -f "$dir/zImage" "$dir/initramfs.cpio" "$dir"/*.dtb
	done_step "$(du -h "$FIT" | cut -f1)"
}

# --- 9. boot ------------------------------------------------------------
# new_run NAME: the directory of this run, build/runs/NAME-TIME, and the
# build/runs/latest link to it
new_run() {
	RUN=$BUILD/runs/$1-$(date -u +%Y%m%dT%H%M%SZ)
	# decided here, in the main shell, so that a bad N900_SHARE stops the run
	SHARE_MODE=$(share_mode) || exit 1
	mkdir -p "$RUN"
	ln -sfn "$(basename "$RUN")" "$BUILD/runs/latest"
	say "this run's logs and artefacts: $RUN (also build/runs/latest)"
}

# stamp_console TIMING: copy the console through, noting when QEMU started,
# when the kernel's first console line and /init's first line came
# (seconds since the epoch), and when the console ended.
stamp_console() {
	local t0=$EPOCHREALTIME tk='' line
	while IFS= read -r line; do
		printf '%s\n' "$line"
		case $line in
		*"Booting Linux on physical CPU"*) tk=$EPOCHREALTIME ;;
		N900-BOOT:*)
			printf 'qemu_start %s\nkernel_console %s\ninit %s\n' \
				"$t0" "${tk:-$EPOCHREALTIME}" "$EPOCHREALTIME" >"$1"
			break
			;;
		esac
	done
	cat
	printf 'end %s\n' "$EPOCHREALTIME" >>"$1"
}

# share_mode: how guests send artefacts: virtio-9p, or the console
share_mode() {
	case ${N900_SHARE:-auto} in
	console) echo console ;;
	9p | auto)
		if qemu_has_9p; then
			echo 9p
		elif [ "${N900_SHARE:-auto}" = 9p ]; then
			die "N900_SHARE=9p, but $QEMU_BIN has no virtio-9p-device"
		else
			echo console
		fi
		;;
	*) die "N900_SHARE: '$N900_SHARE' is not auto, 9p or console" ;;
	esac
}

# boot_guest MODE NAME: boot one guest, through BOOT_PATH (direct, the
# default, or uboot), with the device tree DTB. Its console goes to
# $RUN/NAME.log, its artefacts (virtio-9p share or console fallback) to
# $RUN/NAME/, its boot timing to $RUN/NAME/boot-timing. SHARE=console
# forces the console fallback for this guest.
boot_guest() {
	local mode=$1 name=$2 extra="${DTB_ARGS:-} ${N900_KERNEL_ARGS:-}"
	local path=${BOOT_PATH:-direct} out=$RUN/$name log=$RUN/$name.log
	local topo how=${SHARE:-$SHARE_MODE} qemu_cmd
	topo=$(basename "$DTB" .dtb)
	mkdir -p "$out"
	case $path in
	direct)
		qemu_cmd=(qemu_boot "$KOUT/arch/arm/boot/zImage" "$INITRD" "$DTB" "n900.mode=$mode $extra")
		;;
	uboot)
		[ -f "$FIT" ] || die "no FIT image; make_fit has not run"
		fit_configs | grep -qx "$topo" ||
			die "topology $topo is not a configuration of board/n900.its ($(fit_configs | tr '\n' ' '))"
		qemu_cmd=(qemu_boot_uboot "$FIT" "$(dirname "$FIT")/env-$topo.img" "n900.mode=$mode $extra")
		;;
	*) die "N900_BOOT: '$path' is not direct or uboot" ;;
	esac
	local qshare=
	[ "$how" != 9p ] || qshare=$out
	echo "$how" >"$out/share-expected"
	say "==> booting QEMU: $path boot, $topo, mode $mode, artefacts by $how; console: $log"
	if [ "$mode" = shell ]; then
		# a subshell: qemu_boot* exec QEMU
		(QEMU_SHARE=$qshare "${qemu_cmd[@]}")
		return
	fi
	local rc=0
	# shellcheck disable=SC2016 # expanded by the inner bash
	# qemu_boot* exec QEMU: it is timeout's own child, which timeout kills
	QEMU_SHARE=$qshare timeout --foreground -k 10 "$BOOT_TIMEOUT" \
		bash -c '. "$1"; shift; "$@"' _ "$TOP/board/qemu.sh" "${qemu_cmd[@]}" </dev/null |
		stamp_console "$out/boot-timing" | tee "$log" || rc=$?
	[ "$rc" -ne 124 ] || say "QEMU timed out after ${BOOT_TIMEOUT}s ($log)" >&2
	# the console fallback: a base64 tar.gz between markers
	if grep -q '^N900-ARTEFACTS-BEGIN' "$log"; then
		tr -d '\r' <"$log" | sed -n '/^N900-ARTEFACTS-BEGIN/,/^N900-ARTEFACTS-END/p' |
			sed '1d;$d' | base64 -d | tar -xzf - -C "$out" ||
			say "warning: the artefacts on the console of $name are damaged ($log)" >&2
	fi
	return 0
}

build_all() {
	local flavour=$1 mode=$2
	mkdir -p "$LOGS" "$BUILD/$flavour"
	ensure_packages
	kernel_source
	kernel_build "$flavour"
	module_build "$flavour"
	make_dtb "${N900_TOPOLOGY:-n900}"
	step "expected topology from the compiled device tree"
	"$TOP/tests/host/dt-topology.sh" "$DTB" >"$BUILD/dt/topology.expected"
	done_step "$(grep -c '^entity' "$BUILD/dt/topology.expected") entities"
	guest_packages
	build_guest_tests
	make_rootfs "$flavour" "$mode"
}

# render_topology CONSOLE_LOG OUT_PNG: the guest printed "media-ctl
# --print-dot" between markers; graphviz draws it (the .dot is kept beside).
render_topology() {
	local dot=${2%.png}.dot
	tr -d '\r' <"$1" | sed -n '/^N900-DOT-BEGIN/,/^N900-DOT-END/p' | sed '1d;$d' >"$dot"
	[ -s "$dot" ] || die "the guest printed no topology graph; see $1"
	dot -Tpng -Gdpi=72 -o "$2" "$dot" || die "graphviz could not render $dot"
	say "topology graph: $2"
}

# render_power_timeline EVENTS OUT_PNG: a power-event log as a picture
render_power_timeline() {
	"$TOP/tests/host/power-timeline.sh" "$1" "$2" ||
		die "could not draw the power timeline from $1"
	say "power timeline: $2 (events: $1)"
}

# render_frames DIR: each DIR/frames/NAME.raw (with NAME.info: width,
# height and ImageMagick's name of the format) as DIR/frames/NAME.png
render_frames() {
	local info w h fmt n=0
	for info in "$1"/frames/*.info; do
		[ -e "$info" ] || continue
		read -r w h fmt <"$info"
		convert -size "${w}x$h" -depth 8 "$fmt:${info%.info}.raw" "${info%.info}.png" ||
			die "ImageMagick could not convert ${info%.info}.raw"
		n=$((n + 1))
	done
	[ $n -eq 0 ] || say "$n frames, one per main path: $1/frames/*.png"
}

cmd_demo() {
	build_all release demo
	BOOT_PATH=${N900_BOOT:-direct}
	[ "$BOOT_PATH" = direct ] || make_fit release
	new_run demo
	boot_guest demo demo
	grep -q '^N900-DEMO-DONE' "$RUN/demo.log" ||
		die "the demo did not finish; see $RUN/demo.log"
	render_topology "$RUN/demo.log" "$RUN/topology.png"
	if [ "${N900_TOPOLOGY:-n900}" = n900 ]; then
		[ -s "$RUN/demo/power-events.tsv" ] ||
			die "the demo left no power-event log in $RUN/demo/"
		render_power_timeline "$RUN/demo/power-events.tsv" "$RUN/power-timeline.png"
		render_frames "$RUN/demo"
		[ -f "$RUN/demo/frames/resizer.png" ] ||
			die "the demo captured no frame; see $RUN/demo.log"
	fi
	say "the demo's pictures: $RUN/topology.png, $RUN/power-timeline.png, $RUN/demo/frames/*.png"
}

# plot_bench TSV PNG: the scaling benchmark (tests/bench/bench-plot.sh, gnuplot)
plot_bench() {
	"$TOP/tests/bench/bench-plot.sh" "$1" "$2" || die "gnuplot could not plot $1"
	say "scaling plot: $2"
}

# docs: run the demo and copy its pictures into docs/ (committed, shown in
# README), and plot the committed scaling data. Only this command and
# bench write outside build/.
cmd_docs() {
	local f
	cmd_demo
	mkdir -p "$TOP/docs"
	cp "$RUN/topology.png" "$RUN/power-timeline.png" "$TOP/docs/"
	for f in "$RUN"/demo/frames/*.png; do
		cp "$f" "$TOP/docs/frame-$(basename "$f")"
	done
	plot_bench "$TOP/docs/bench-scaling.tsv" "$TOP/docs/bench-scaling.png"
	say "updated docs/: topology.png, power-timeline.png, frame-*.png, bench-scaling.png"
}

# has_shard NAME: NAME is one of the test shards this run boots
has_shard() { [[ " ${TEST_SHARDS[*]} " == *" $1 "* ]]; }

cmd_test() {
	local t0=$SECONDS shard path
	read -r -a TEST_SHARDS <<<"${N900_TEST_SHARDS:-1 2 stress faults}"
	for shard in "${TEST_SHARDS[@]}"; do
		case $shard in
		1 | 2 | stress | faults) ;;
		*) die "N900_TEST_SHARDS: no shard '$shard' (1, 2, stress, faults)" ;;
		esac
	done
	read -r -a BOOT_PATHS <<<"${N900_BOOT_PATHS:-direct uboot}"
	for path in "${BOOT_PATHS[@]}"; do
		case $path in
		direct | uboot) ;;
		*) die "N900_BOOT_PATHS: no boot path '$path' (direct, uboot)" ;;
		esac
	done
	# one vCPU per guest: three guests run at once (see test_guests)
	export QEMU_SMP=1
	# KASAN reports every finding, not only the first of the boot: a
	# lifetime test expects to see each one it provokes
	export N900_KERNEL_ARGS="kasan_multi_shot ${N900_KERNEL_ARGS:-}"
	. "$TOP/board/qemu.sh"
	build_all debug test
	local n900_dtb=$DTB topo
	STRESS=()
	if has_shard stress; then
		read -r -a STRESS <<<"${N900_STRESS_TOPOLOGIES:-chain-64 mesh-256}"
		for topo in "${STRESS[@]}"; do
			[[ $topo =~ ^(chain|fan|mesh)-[0-9]+$ ]] ||
				die "N900_STRESS_TOPOLOGIES: '$topo' is not chain-N, fan-N or mesh-N"
		done
	fi
	for topo in ${STRESS[@]+"${STRESS[@]}"}; do
		make_dtb "$topo"
	done
	if [[ " ${BOOT_PATHS[*]} " == *" uboot "* ]]; then
		fit_configs | grep -qx "$(basename "$n900_dtb" .dtb)" ||
			die "N900_TOPOLOGY=$(basename "$n900_dtb" .dtb) is not a configuration of board/n900.its; use N900_BOOT_PATHS=direct"
		make_fit debug
	fi
	# make_dtb set DTB to the last tree built: the shards boot the N900
	DTB=$n900_dtb
	DTB_ARGS=
	new_run test
	lint_drivers "$RUN/lint.ktap"
	GUESTS=()
	for path in "${BOOT_PATHS[@]}"; do
		test_guests "$path"
	done
	say "build, boot and tests took $((SECONDS - t0)) s in all"
	test_artefacts "$RUN/artefacts.ktap"
	boot_report | tee "$RUN/boot-timing.txt"
	local consoles=() g
	for g in "${GUESTS[@]}"; do consoles+=("$RUN/$g.log"); done
	# the harness's last line, "N passed, N failed", is the last line of
	# the run: exit with its status here, past the ERR trap's message
	local rc=0
	"$TOP/tests/host/harness.sh" --host "$RUN/lint.ktap" --host "$RUN/artefacts.ktap" \
		--junit "$RUN/junit.xml" "${consoles[@]}" 2>&1 | tee "$RUN/summary.txt" || rc=$?
	exit "$rc"
}

# test_guests PATH: every test shard booted through PATH (direct or uboot).
# Three processes in parallel on the two host cores, one guest each at a
# time (tests/guest/run-tests.sh picks the suites by shard): shard 1 then
# short guests on generated stress topologies (tests/guest/stress.sh),
# shard 2, and the fault tests on the N900 topology. They need about the
# same time. The stress guests send their artefacts over the console (the
# fallback of virtio-9p), so that every run checks both ways.
test_guests() {
	local path=$1 pids=() topo t0=$SECONDS names=() n900_dtb=$DTB
	for shard in 1 2 stress faults; do
		has_shard $shard || continue
		if [ $shard = stress ]; then
			for topo in "${STRESS[@]}"; do names+=("$path-$topo"); done
		else
			names+=("$path-$shard")
		fi
	done
	GUESTS+=("${names[@]}")
	say "==> $path boot: ${#names[@]} test guests (timeout ${BOOT_TIMEOUT}s each): ${names[*]}"
	(
		if has_shard 1; then
			BOOT_PATH=$path N900_KERNEL_ARGS="n900.shard=1 ${N900_KERNEL_ARGS:-}" \
				boot_guest test "$path-1" >/dev/null
		fi
		for topo in ${STRESS[@]+"${STRESS[@]}"}; do
			BOOT_PATH=$path DTB=$BUILD/dt/$topo.dtb DTB_ARGS=$STRESS_KERNEL_ARGS SHARE=console \
				N900_KERNEL_ARGS="n900.shard=stress ${N900_KERNEL_ARGS:-}" \
				boot_guest test "$path-$topo" >/dev/null
		done
	) &
	pids+=($!)
	if has_shard 2; then
		BOOT_PATH=$path N900_KERNEL_ARGS="n900.shard=2 ${N900_KERNEL_ARGS:-}" \
			boot_guest test "$path-2" >/dev/null &
		pids+=($!)
	fi
	if has_shard faults; then
		# malformed device trees, rebinding, reloads, power faults
		BOOT_PATH=$path DTB=$n900_dtb \
			N900_KERNEL_ARGS="n900.shard=faults ${N900_KERNEL_ARGS:-}" \
			boot_guest test "$path-faults" >/dev/null &
		pids+=($!)
	fi
	# progress: every minute, the suite each guest is in
	local p alive ticks=0 g where line
	while :; do
		alive=0
		for p in "${pids[@]}"; do ! kill -0 "$p" 2>/dev/null || alive=1; done
		[ $alive = 1 ] || break
		sleep 5
		ticks=$((ticks + 1))
		[ $((ticks % 12)) -eq 0 ] || continue
		where=
		for g in "${names[@]}"; do
			[ -f "$RUN/$g.log" ] || continue
			if grep -q '^N900-TESTS-END' "$RUN/$g.log"; then
				line=finished
			else
				line=$(grep -a '^# suite ' "$RUN/$g.log" | tail -n 1 |
					sed -e 's|.*/||' -e 's| starts.*||' || true)
			fi
			where="$where $g: ${line:-booting};"
		done
		say "    $((SECONDS - t0)) s:$where"
	done
	wait "${pids[@]}" || true
	echo "$path $((SECONDS - t0))" >>"$RUN/phase-seconds"
	say "    $path boot: the guests took $((SECONDS - t0)) s"
}

# test_artefacts OUT: a host-side KTAP document on what the guests left in
# the run directory: each guest's files arrived (virtio-9p or the console),
# and shard 1's frames and power log can be drawn (PNG).
test_artefacts() {
	local out=$1 g n=0 d f ok why png
	{
		echo "KTAP version 1"
		echo "1..$(( ${#GUESTS[@]} + $(printf '%s\n' "${GUESTS[@]}" | grep -c -- '-1$' || true) ))"
		for g in "${GUESTS[@]}"; do
			d=$RUN/$g
			n=$((n + 1))
			why=
			for f in console.ktap dmesg.txt; do
				[ -s "$d/$f" ] || why="$why no $f;"
			done
			grep -q '^N900-TESTS-END' "$d/console.ktap" 2>/dev/null ||
				why="$why console.ktap incomplete;"
			grep -q '^init ' "$d/boot-timing" 2>/dev/null || why="$why never reached /init;"
			# the way the guest says it used must be the one the host gave
			case $(cat "$d/share-expected" 2>/dev/null) in
			9p) want='(virtio-9p)' ;;
			*) want='(console)' ;;
			esac
			tr -d '\r' <"$RUN/$g.log" | grep '^N900-BOOT: mode' | grep -qF "$want" ||
				why="$why the guest did not hand its files over $want;"
			if [ -z "$why" ]; then
				echo "ok $n ${g}_artefacts_arrived"
			else
				echo "# $d:$why"
				echo "not ok $n ${g}_artefacts_arrived"
			fi
			[[ $g == *-1 ]] || continue
			n=$((n + 1))
			ok=1
			(render_frames "$d" && render_power_timeline "$d/power-events.tsv" "$d/power-timeline.png") \
				>"$d/render.log" 2>&1 || ok=0
			for png in resizer preview raw front; do
				[ -s "$d/frames/$png.png" ] || { ok=0; echo "# no $d/frames/$png.png"; }
			done
			if [ $ok = 1 ]; then
				echo "ok $n ${g}_pictures_drawn"
			else
				sed 's/^/# /' "$d/render.log" 2>/dev/null || true
				echo "not ok $n ${g}_pictures_drawn"
			fi
		done
	} >"$out"
}

# boot_report: what the U-Boot path costs against the direct boot, from
# the guests' boot-timing files and the phases' wall time, as ratios
# inside this run.
boot_report() {
	local g
	for g in "${GUESTS[@]}"; do
		[ -f "$RUN/$g/boot-timing" ] || continue
		awk -v g="$g" '{ t[$1] = $2 } END {
			if (t["init"] != "" && t["qemu_start"] != "")
				printf "%s %s %.3f %.3f\n", substr(g, 1, index(g, "-") - 1), g,
					t["kernel_console"] - t["qemu_start"], t["init"] - t["qemu_start"] }' \
			"$RUN/$g/boot-timing"
	done | awk -v phases="$RUN/phase-seconds" '
		BEGIN { print "Boot timing (QEMU start to the first kernel console line and to /init):" }
		{ n[$1]++; k[$1] += $3; i[$1] += $4
		  printf "  %-22s kernel console after %6.2f s, /init after %6.2f s\n", $2, $3, $4 }
		END {
			while ((getline line < phases) > 0) { split(line, p, " "); ph[p[1]] = p[2] }
			for (b in n) printf "  %s boot: mean over %d guests: kernel console %.2f s, /init %.2f s; the guests took %s s\n",
				b, n[b], k[b] / n[b], i[b] / n[b], ph[b]
			if (n["direct"] && n["uboot"]) {
				d = i["direct"] / n["direct"]; u = i["uboot"] / n["uboot"]
				printf "  U-Boot against direct: /init reached %.2fx as late (%+.2f s per boot)", u / d, u - d
				if (ph["direct"] > 0) printf "; whole test phase %.2fx the wall time", ph["uboot"] / ph["direct"]
				printf "\n"
			}
		}'
}

# ./build.sh bench: the same stress topologies on vanilla 6.12 (no
# patches/) and on the patched kernel, one boot per kernel and topology,
# release flavour; tests/bench/bench-report.sh turns the consoles into
# BENCHMARKS.md. N900_BENCH_SIZES picks the chain lengths.
cmd_bench() {
	local what=${1:-all} kernel topo all=() sizes logs=() t0=$SECONDS p
	local stream_log=$LOGS/bench-stream.log
	case $what in
	all | mc | stream) ;;
	*) die "usage: ./build.sh bench [all|mc|stream]" ;;
	esac
	read -r -a sizes <<<"${N900_BENCH_SIZES:-16 64 256 1024 4096}"
	for p in "$TOP"/patches/*.patch; do all+=("$(basename "$p" | cut -c1-4)"); done
	: "${N900_BOOT_TIMEOUT:=1800}"
	BOOT_TIMEOUT=$N900_BOOT_TIMEOUT
	new_run bench
	for kernel in vanilla patched; do
		[ "$what" != stream ] || break
		if [ $kernel = vanilla ]; then
			N900_SKIP_PATCHES="${all[*]}" build_all release test
		else
			N900_SKIP_PATCHES="" build_all release test
		fi
		for topo in mesh-256 "${sizes[@]/#/chain-}"; do
			make_dtb "$topo"
			say "==> bench: $kernel kernel on $topo (console: $LOGS/bench-$kernel-$topo.log)"
			boot_guest bench "bench-$kernel-$topo" >/dev/null
			cp "$RUN/bench-$kernel-$topo.log" "$LOGS/"
			grep -q '^N900-BENCH-END' "$LOGS/bench-$kernel-$topo.log" ||
				say "warning: the $kernel guest on $topo did not finish; see $LOGS/bench-$kernel-$topo.log"
		done
	done
	if [ "$what" != mc ]; then
		N900_SKIP_PATCHES="" build_all release test
		make_dtb n900
		say "==> bench: streaming, our main pipeline against vimc (console: $stream_log)"
		boot_guest bench-stream bench-stream >/dev/null
		cp "$RUN/bench-stream.log" "$stream_log"
		grep -q '^N900-BENCH-END' "$stream_log" ||
			say "warning: the streaming bench did not finish; see $stream_log"
	fi

	# BENCHMARKS.md from every bench log there is, this run's and earlier
	for p in "$LOGS"/bench-vanilla-*.log "$LOGS"/bench-patched-*.log; do
		[ ! -f "$p" ] || logs+=("$p")
	done
	{
		if [ ${#logs[@]} -gt 0 ]; then
			"$TOP/tests/bench/bench-report.sh" "${logs[@]}"
		else
			# shellcheck disable=SC2016 # Markdown backquotes
			printf '# Benchmarks\n\nWritten by `./build.sh bench` on %s; do not edit by hand.\n\n' \
				"$(date -u +%Y-%m-%d)"
		fi
		if [ -f "$stream_log" ]; then
			echo
			"$TOP/tests/bench/stream-report.sh" "$stream_log"
		fi
	} >"$TOP/BENCHMARKS.md.new" || die "tests/bench/bench-report.sh or tests/bench/stream-report.sh failed"
	mv "$TOP/BENCHMARKS.md.new" "$TOP/BENCHMARKS.md"
	if [ ${#logs[@]} -gt 0 ]; then
		"$TOP/tests/bench/bench-report.sh" --tsv "${logs[@]}" >"$TOP/docs/bench-scaling.tsv" ||
			die "tests/bench/bench-report.sh --tsv failed"
		plot_bench "$TOP/docs/bench-scaling.tsv" "$TOP/docs/bench-scaling.png"
	fi
	say "bench took $((SECONDS - t0)) s; results: BENCHMARKS.md"
}

cmd_shell() {
	local flavour=${N900_FLAVOUR:-release}
	build_all "$flavour" shell
	BOOT_PATH=${N900_BOOT:-direct}
	[ "$BOOT_PATH" = direct ] || make_fit "$flavour"
	new_run shell
	if [ "$SHARE_MODE" = 9p ]; then
		say "interactive guest: its /mnt is $RUN/shell/ on this host (virtio-9p)"
	else
		say "interactive guest: no virtio-9p share; what it leaves in /mnt comes back over the console at poweroff"
	fi
	say "type 'poweroff -f' to leave (or Ctrl-A x)"
	boot_guest shell shell
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
		              the graph, a power experiment, a frame from each main path
		  test        build the debug kernel (KASAN, lockdep, kmemleak, UBSAN)
		              and run every test suite through both boot paths;
		              ends with "N passed, N failed"
		  shell       boot the guest with the drivers loaded and give a shell
		  docs        run the demo and refresh the pictures in docs/
		  bench [W]   benchmarks into BENCHMARKS.md and docs/bench-scaling.png:
		              W=mc media controller scaling, vanilla 6.12 against the
		              patched kernel on generated topologies; W=stream frames
		              per second of the main pipeline against vimc; W=all
		              (default) both
		  kernel [F]  only build the kernel flavour F (release or debug)
		  clean       remove build/ ; "clean --all" also drops $CACHE
		  help        this text

		Every run leaves its console logs and artefacts in
		build/runs/COMMAND-TIME/ (build/runs/latest is the last one).

		Environment:
		  N900_BOOT           boot path of the demo and the shell: direct
		                      (default: QEMU -kernel/-initrd/-dtb) or uboot
		                      (U-Boot from u-boot-qemu, FIT image board/n900.its)
		  N900_BOOT_PATHS     the boot paths "test" runs (default "direct uboot")
		  N900_TEST_SHARDS    the guests "test" boots (default "1 2 stress
		                      faults"), e.g. "faults" for the fault tests only
		  N900_STRESS_TOPOLOGIES  the trees of the stress shard (default
		                      "chain-64 mesh-256"; others, e.g. chain-4096,
		                      with N900_BOOT_PATHS=direct)
		  N900_SHARE          how guests hand files to the host: auto (default:
		                      virtio-9p when QEMU has it), 9p, or console
		  N900_TOPOLOGY       the device tree to boot: n900 (default), a
		                      dts/NAME.dtso of yours, or a generated stress
		                      topology, chain-N, fan-N, mesh-N (U-Boot: only the
		                      configurations of board/n900.its)
		  N900_FLAVOUR        kernel of the shell: release (default) or debug
		  N900_KERNEL_ARGS    extra kernel command line, e.g.
		                      n900_isp.inject_warn=1
		  N900_SKIP_PATCHES   patches/ to leave out, by number prefix, e.g.
		                      "0002" (see what a patch fixes on vanilla 6.12)
		  N900_BENCH_SIZES    chain lengths for bench (default "16 64 256 1024 4096")
		  N900_QEMU_MEM       guest RAM (default 256M; 768M for chain-4096
		                      under the debug kernel)
		  N900_BOOT_TIMEOUT   seconds before QEMU is killed (default $BOOT_TIMEOUT;
		                      1800 for bench)
		  N900_CACHE_DIR      kernel/apt/ccache cache (default $CACHE)
		  N900_JOBS           parallel make jobs (default $(nproc))
		  N900_DEBIAN_MIRROR  Debian mirror for the guest packages (default:
		                      the one the host's apt already uses)
	EOF
}

main() {
	local cmd=${1:-demo}
	[ $# -eq 0 ] || shift
	case $cmd in
	demo) cmd_demo ;;
	docs) cmd_docs ;;
	test) cmd_test ;;
	bench) cmd_bench "${1:-all}" ;;
	shell) cmd_shell ;;
	clean) cmd_clean "$@" ;;
	kernel)
		mkdir -p "$LOGS"
		ensure_packages
		kernel_source
		kernel_build "${1:-release}"
		;;
	help | -h | --help) usage ;;
	*) usage >&2; die "unknown command '$cmd'" ;;
	esac
}

# "exit" on the same line: bash never reads past it, even if this file is
# edited while it runs.
main "$@"; exit
