#!/usr/bin/env bash
# rootfs/build.sh FLAVOUR MODE TOPOLOGY [TOPOLOGY...]: the initramfs step.
# Downloads the guest's Debian packages (armhf, through a private apt
# configuration: the host's apt sources are never touched), and GStreamer
# through one of its own (only its closure goes in: build/gst), cross-compiles
# the guest tests, computes what the tests compare against (reference
# frames, documented errnos, malformed trees), and packs
# build/FLAVOUR/rootfs.cpio: the packages, the FLAVOUR kernel's modules and
# ours (build/FLAVOUR/state: KOUT, MODULES), rootfs/overlay/, the tests.
# MODE (demo, test, shell, bench) is the guest's default mode. The expected
# topology of each TOPOLOGY (build/dt/TOPOLOGY.expected, from dts/build.sh
# --expected) goes to /etc/n900/topology/TOPOLOGY.expected (run-tests.sh
# picks the one of the tree it booted); the first is also
# /etc/n900/topology.expected.
# Writes INITRD and INITRD_SIZE (without the padding) to build/FLAVOUR/state.
# shellcheck source=board/lib.sh
. "$(dirname "$0")/../board/lib.sh"

[ $# -ge 3 ] || die "usage: rootfs/build.sh FLAVOUR MODE TOPOLOGY [TOPOLOGY...]"
flavour=$1 mode=$2
shift 2
load_kernel "$flavour"
MODULES=$(state_get "$flavour" MODULES)
GUEST_SUITE=${N900_GUEST_SUITE:-trixie}
# Guest packages (Debian armhf). apt resolves their libraries.
GUEST_PACKAGES=(busybox-static v4l-utils)
for topo in "$@"; do
	[ -s "$BUILD/dt/$topo.expected" ] || die "no build/dt/$topo.expected: run dts/build.sh --expected $topo"
done

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
	cat >"$apt/apt.conf" <<-EOC
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
	EOC
	APT_CONFIG=$apt/apt.conf run_logged guest-apt-update apt-get update
	APT_CONFIG=$apt/apt.conf run_logged guest-apt-download \
		apt-get -y --download-only install "${GUEST_PACKAGES[@]}"
	touch "$apt/.ready-$key"
	done_step "$(find "$DEBS" -maxdepth 1 -name '*.deb' | wc -l) packages"
}

# apt_debs CONF ARCHIVES LIST PKG...: LIST gets the .deb files (paths in
# ARCHIVES) of PKG... and everything they depend on, as the private apt
# configuration CONF resolves them for an empty system: the exact set to
# unpack, never ARCHIVES/*.deb (an archive directory keeps every version it
# ever fetched, and other worktrees share it). What is missing is
# downloaded.
apt_debs() {
	local conf=$1 archives=$2 list=$3 deb absent=0 n
	shift 3
	APT_CONFIG=$conf apt-get -s -y install "$@" >"$list.sim" 2>"$LOGS/apt-resolve.log" ||
		{ cat "$LOGS/apt-resolve.log" >&2; die "apt cannot resolve $* (APT_CONFIG=$conf)"; }
	awk '/^Inst / { v = substr($3, 2); gsub(":", "%3a", v)
		a = $0; sub(/^[^[]*\[/, "", a); sub(/\].*/, "", a)
		print $2 "_" v "_" a ".deb" }' "$list.sim" >"$list"
	rm -f "$list.sim"
	n=$(wc -l <"$list")
	[ "$n" -gt 0 ] || die "apt resolves no package for $* (APT_CONFIG=$conf)"
	while IFS= read -r deb; do
		[ -f "$archives/$deb" ] || absent=$((absent + 1))
	done <"$list"
	if [ $absent -gt 0 ]; then
		say "    downloading $absent of $n packages into $archives"
		APT_CONFIG=$conf run_logged "apt-download-$(basename "$(dirname "$(dirname "$archives")")")" \
			apt-get -y --download-only install "$@"
	fi
	while IFS= read -r deb; do
		[ -f "$archives/$deb" ] || die "apt did not download $deb into $archives (see $LOGS)"
		echo "$archives/$deb"
	done <"$list" >"$list.new"
	mv "$list.new" "$list"
}

# GStreamer in the guest: gst-launch-1.0 and these plugins, with the shared
# libraries they need and nothing else of their packages
GST_PACKAGES=(gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good)
# coreelements: filesink, tee, queue, capsfilter, fakesink; video4linux2:
# v4l2src; videoconvertscale: videoconvert; png: pngenc; multifile:
# multifilesink
GST_PLUGINS=(coreelements video4linux2 videoconvertscale png multifile)
GST_LIBDIR=usr/lib/arm-linux-gnueabihf
GST_PLUGINDIR=$GST_LIBDIR/gstreamer-1.0

# elf_needed FILE: the DT_NEEDED sonames of an ELF file
elf_needed() {
	"${CROSS}readelf" -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p'
}

# guest_gstreamer: build/gst/root, GStreamer's closure: its GStreamer
# packages (GST_PACKAGES and their dependencies, Debian GUEST_SUITE armhf)
# are downloaded into an apt cache of their own (the package lists are
# those of guest_packages, so the versions agree with the rest of the
# guest) and unpacked into build/gst/stage; build/gst/root gets
# gst-launch-1.0, the plugin scanner, the GST_PLUGINS and the shared
# libraries they need, DT_NEEDED resolved recursively against the stage.
guest_gstreamer() {
	local base=$CACHE/apt-$GUEST_SUITE-armhf apt=$CACHE/apt-$GUEST_SUITE-armhf-gst
	local stage=$BUILD/gst/stage root=$BUILD/gst/root key deb f so p n l d
	local -a debs=() todo=()
	local -A seen=()
	mkdir -p "$apt"/{cache/archives/partial,state}
	: >"$apt/status"
	# guest_packages' configuration, with a cache and state of its own
	cat >"$apt/apt.conf" <<-EOC
		#include "$base/apt.conf";
		Dir::State "$apt/state";
		Dir::State::lists "$base/lists";
		Dir::State::status "$apt/status";
		Dir::Cache "$apt/cache";
	EOC
	step "GStreamer (Debian $GUEST_SUITE armhf): ${GST_PACKAGES[*]}"
	apt_debs "$apt/apt.conf" "$apt/cache/archives" "$BUILD/gst-debs" "${GST_PACKAGES[@]}"
	mapfile -t debs <"$BUILD/gst-debs"
	key=$(printf '%s\n' "${GST_PLUGINS[@]}" "${debs[@]##*/}" | sha256sum | cut -c1-16)
	if [ "$(cat "$BUILD/gst/key" 2>/dev/null)" = "$key" ]; then
		done_step "cached: $(du -sh "$root" | cut -f1), $(find "$root" -type f | wc -l) files"
		return 0
	fi
	rm -rf "$BUILD/gst"
	mkdir -p "$stage" "$root"
	stage=$(cd "$stage" && pwd -P)
	# unpacked, and which package has which path ("PATH DEB")
	for deb in "${debs[@]}"; do
		dpkg-deb -x "$deb" "$stage"
		dpkg-deb -c "$deb" | awk -v d="$deb" '{ p = $6; sub(/^\.\//, "", p); print p, d }'
	done >"$BUILD/gst/paths"
	todo=(usr/bin/gst-launch-1.0 usr/bin/gst-inspect-1.0
		"$GST_LIBDIR/gstreamer1.0/gstreamer-1.0/gst-plugin-scanner")
	# the dynamic linker (PT_INTERP, /lib/... in a merged-/usr tree)
	f=$("${CROSS}readelf" -l "$stage/usr/bin/gst-launch-1.0" |
		sed -n 's/.*program interpreter: \/\(.*\)\]$/\1/p')
	[ -e "$stage/$f" ] || f=usr/$f
	todo+=("$f")
	for p in "${GST_PLUGINS[@]}"; do
		f=$GST_PLUGINDIR/libgst$p.so
		[ -f "$stage/$f" ] || die "no GStreamer plugin '$p' ($f) in ${GST_PACKAGES[*]}; there are: $(
			for l in "$stage/$GST_PLUGINDIR"/libgst*.so; do
				l=${l##*/libgst}
				printf '%s ' "${l%.so}"
			done)"
		todo+=("$f")
	done
	# the closure: each file, then the libraries it needs, once each
	while [ ${#todo[@]} -gt 0 ]; do
		f=${todo[0]}
		todo=("${todo[@]:1}")
		# one name a file: the directory without links (/lib is usr/lib)
		d=$(cd "$stage/$(dirname "$f")" 2>/dev/null && pwd -P) ||
			die "GStreamer closure: no directory $(dirname "$f") for $f in the unpacked packages"
		f=${d#"$stage"/}/$(basename "$f")
		[ -z "${seen[$f]:-}" ] || continue
		seen[$f]=1
		[ -e "$stage/$f" ] || die "GStreamer closure: $f is in none of the packages apt resolved for ${GST_PACKAGES[*]}"
		mkdir -p "$root/$(dirname "$f")"
		cp -a "$stage/$f" "$root/$f"
		# a library's soname is a link: take the file it names too
		if [ -L "$stage/$f" ]; then
			l=$(readlink "$stage/$f")
			case $l in
			/*) todo+=("${l#/}") ;;
			*) todo+=("$(dirname "$f")/$l") ;;
			esac
			continue
		fi
		while IFS= read -r so; do
			n=
			for p in "$GST_LIBDIR" usr/lib lib/arm-linux-gnueabihf lib; do
				[ -e "$stage/$p/$so" ] && { n=$p/$so; break; }
			done
			[ -n "$n" ] || die "GStreamer closure: $f needs $so, which no unpacked package has"
			todo+=("$n")
		done < <(elf_needed "$stage/$f")
	done
	# the packages the closure took files from (for the versions of what
	# the guest holds): a path under /lib may be listed there
	(cd "$root" && find . ! -type d | sed 's|^\./||') | while IFS= read -r f; do
		awk -v a="$f" -v b="${f#usr/}" '$1 == a || $1 == b { print $2; exit }' "$BUILD/gst/paths"
	done | sort -u >"$BUILD/gst/debs"
	echo "$key" >"$BUILD/gst/key"
	done_step "$(du -sh "$root" | cut -f1) in $(find "$root" -type f | wc -l) files, from $(wc -l <"$BUILD/gst/debs") of ${#debs[@]} packages (build/gst/debs)"
}

# guest_tests: tests/guest/*.c cross-compiled into build/tests, and what
# the tests compare against
guest_tests() {
	local out=$BUILD/tests src
	mkdir -p "$out"
	step "cross-compiling guest tests (tests/guest/*.c)"
	for src in "$TOP"/tests/guest/*.c; do
		"${CROSS}gcc" -O2 -Wall -Wextra -Werror -static -pthread -I "$TOP/tests/guest/lib" \
			-o "$out/$(basename "${src%.c}")" "$src" -lm ||
			die "cannot compile $src"
	done
	done_step "$(find "$TOP"/tests/guest -maxdepth 1 -name '*.c' | wc -l) programs"
	step "scenes of the sensors' Image pattern (rootfs/scene.sh, ImageMagick)"
	rm -rf "$BUILD/firmware"
	"$TOP/rootfs/scene.sh" defaults "$BUILD/firmware/n900" ||
		die "rootfs/scene.sh failed"
	done_step "scene-default.bin${N900_SCENE:+ from $N900_SCENE}, scene-foliage.bin"
	step "reference frames: tests/ref/isp-ref on the cases of tests/data/frames.spec"
	"$TOP/tests/ref/frames-expected.sh" "$out/frames.expected" "$BUILD/frames-input" \
		"$BUILD/firmware"
	done_step "$(wc -l <"$out/frames.expected") cases"
	step "documented ioctl errnos (tests/host/ioctl-errnos.sh on the kernel's media docs)"
	"$TOP/tests/host/ioctl-errnos.sh" "$KSRC" >"$BUILD/ioctl-errnos" ||
		die "tests/host/ioctl-errnos.sh failed"
	done_step "$(wc -l <"$BUILD/ioctl-errnos") ioctls"
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
	done_step "$(grep -cv 'good$' "$out/expect") malformed, $(grep -c 'good$' "$out/expect") good (good*.dtso, README's example)"
}

make_rootfs() {
	local root=$BUILD/$flavour/rootfs deb kver size topo dup series
	step "assembling the initramfs ($flavour)"
	rm -rf "$root"
	mkdir -p "$root"
	# Debian 13 is merged-/usr: /bin, /sbin and /lib are links into /usr.
	mkdir -p "$root"/{usr/bin,usr/sbin,usr/lib,proc,sys,dev,tmp,run,mnt,root}
	ln -s usr/bin "$root/bin"
	ln -s usr/sbin "$root/sbin"
	ln -s usr/lib "$root/lib"
	# exactly the packages apt resolves, not whatever the shared archive
	# directory holds
	apt_debs "$CACHE/apt-$GUEST_SUITE-armhf/apt.conf" "$DEBS" "$BUILD/guest-debs" \
		"${GUEST_PACKAGES[@]}"
	while IFS= read -r deb; do
		dpkg-deb -x "$deb" "$root"
	done <"$BUILD/guest-debs"
	# GStreamer's closure (guest_gstreamer)
	cp -a "$BUILD/gst/root/." "$root/"
	# the exact version of every package (GStreamer's: those its closure
	# took files from), in the guest and in every run directory
	# (board/qemu.sh boot); a tested series, or a clear stop
	mapfile -t debs < <(cat "$BUILD/guest-debs" "$BUILD/gst/debs")
	"$TOP/rootfs/packages.sh" manifest "${debs[@]}" | sort -u >"$BUILD/$flavour/guest-packages"
	dup=$(awk 'seen[$1]++ { print $1 }' "$BUILD/$flavour/guest-packages" | sort -u | tr '\n' ' ')
	[ -z "$dup" ] || die "two versions of guest package(s) $dup: see $BUILD/$flavour/guest-packages"
	series=$("$TOP/rootfs/packages.sh" check "$BUILD/$flavour/guest-packages") ||
		die "the guest packages are not a tested series (Debian $GUEST_SUITE, see above)"
	mkdir -p "$root/etc/n900"
	cp "$BUILD/$flavour/guest-packages" "$root/etc/n900/packages"
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
	kmake M="$MODULES" INSTALL_MOD_PATH="$root" INSTALL_MOD_STRIP=1 \
		modules_install >>"$LOGS/modules-install-$flavour.log" 2>&1
	depmod -b "$root" "$kver"
	# our overlay: /init and friends
	cp -a "$TOP/rootfs/overlay/." "$root/"
	mkdir -p "$root/usr/lib/n900/tests" "$root/etc/n900/topology"
	cp -a "$BUILD/tests/." "$root/usr/lib/n900/tests/"
	cp -a "$TOP/tests/guest/"*.sh "$root/usr/lib/n900/tests/"
	# the 3A example is a user's program too (README, "3A")
	ln -s ../lib/n900/tests/n900-3a "$root/usr/bin/n900-3a"
	[ ! -d "$TOP/tests/guest/lib" ] || cp -a "$TOP/tests/guest/lib" "$root/usr/lib/n900/tests/"
	for topo in "$@"; do
		cp "$BUILD/dt/$topo.expected" "$root/etc/n900/topology/"
	done
	cp "$BUILD/dt/$1.expected" "$root/etc/n900/topology.expected"
	cp "$TOP/tests/data/controls.spec" "$TOP/tests/data/frames.spec" \
		"$BUILD/tests/frames.expected" "$root/etc/n900/"
	cp "$TOP/tests/data/shards" "$root/etc/n900/shards"
	cp "$BUILD/frames-input/"* "$BUILD/ioctl-errnos" "$root/etc/n900/"
	cp -a "$BUILD/dt-malformed" "$root/etc/n900/"
	# the scenes the sensors load with request_firmware()
	mkdir -p "$root/usr/lib/firmware/n900"
	cp "$BUILD/firmware/n900/"*.bin "$root/usr/lib/firmware/n900/"
	# README's media-ctl recipes, run verbatim by tests/guest/recipes.sh
	sed -n '/<!-- recipes:begin -->/,/<!-- recipes:end -->/p' "$TOP/README.md" |
		sed -e '/^<!--/d' -e '/^```/d' >"$root/etc/n900/recipes"
	# README's GStreamer recipes, run verbatim by tests/guest/gst-recipes.sh
	sed -n '/<!-- gst-recipes:begin -->/,/<!-- gst-recipes:end -->/p' "$TOP/README.md" |
		sed -e '/^<!--/d' -e '/^```/d' >"$root/etc/n900/gst-recipes"
	[ -s "$root/etc/n900/gst-recipes" ] || die "README.md has no gst-recipes:begin/end block"
	echo "$mode" >"$root/etc/n900/mode"
	# Uncompressed: gunzip in an emulated CPU costs seconds at every boot.
	(cd "$root" && find . -print0 | cpio --null -o -H newc -R 0:0 --quiet) \
		>"$BUILD/$flavour/rootfs.cpio"
	# QEMU puts the device tree right after the initrd, and ARM maps it
	# as two sections from the start of its section (2 MiB sections with
	# the release flavour's LPAE). Padding the initrd (with zeros, which
	# the kernel skips) to whole 2 MiB keeps the tree at a section start,
	# so that all of a big one (chain-4096: 2.7 MiB once QEMU has doubled
	# it) is mapped.
	size=$(stat -c %s "$BUILD/$flavour/rootfs.cpio")
	truncate -s %2M "$BUILD/$flavour/rootfs.cpio"
	state_set "$flavour" INITRD "$BUILD/$flavour/rootfs.cpio"
	state_set "$flavour" INITRD_SIZE "$size"
	done_step "$(du -h "$BUILD/$flavour/rootfs.cpio" | cut -f1); $(wc -l <"$BUILD/$flavour/guest-packages") guest packages; $(echo "$series" | tr '\n' ' ')"
}

guest_packages
guest_gstreamer
guest_tests
malformed_dtbs "$BUILD/dt-malformed"
make_rootfs "$@"
