#!/usr/bin/env bash
# board/kernel.sh FLAVOUR: the kernel step. Installs the host's missing
# Debian packages, extracts linux-source-6.12 with patches/ applied, and
# builds the FLAVOUR kernel (release or debug: board/kconfig/base.config +
# FLAVOUR.config). Both are cached in ~/.cache/n900-isp, keyed on their
# content: the source on the package version and the patches' diffs, the
# build on that, the compiler and the config fragments.
# Writes KSRC, KOUT, ZIMAGE and KVER to build/FLAVOUR/state.
# shellcheck source=board/lib.sh
. "$(dirname "$0")/lib.sh"

flavour=${1:-release}
case $flavour in release | debug) ;; *) die "kernel flavour '$flavour': release or debug" ;; esac
KSRC_TARBALL=/usr/src/linux-source-6.12.tar.xz

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

# check_config FRAGMENT...: every option of the fragments holds in .config
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

ensure_packages
kernel_source
kernel_build "$flavour"
state_set "$flavour" KSRC "$KSRC"
state_set "$flavour" KOUT "$KOUT"
state_set "$flavour" ZIMAGE "$KOUT/arch/arm/boot/zImage"
state_set "$flavour" KVER "$(cat "$KOUT/include/config/kernel.release")"
