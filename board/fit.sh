#!/usr/bin/env bash
# board/fit.sh FLAVOUR: the FIT step of the U-Boot boot path.
# build/FLAVOUR/fit/n900.itb from board/n900.its: the FLAVOUR kernel and
# initramfs (build/FLAVOUR/state: KOUT, INITRD, INITRD_SIZE) and the tree of
# each configuration (build/dt/TOPOLOGY.dtb, from dts/build.sh); and, for
# each configuration, a flash image with the U-Boot environment that boots
# it (board/uboot-env.txt). Writes FIT to build/FLAVOUR/state.
# shellcheck source=board/lib.sh
. "$(dirname "$0")/lib.sh"

flavour=${1:?usage: board/fit.sh FLAVOUR}
UBOOT_BIN=/usr/lib/u-boot/qemu_arm/u-boot.bin
[ -r "$UBOOT_BIN" ] || die "no $UBOOT_BIN (Debian package u-boot-qemu)"
load_kernel "$flavour"
initrd=$(state_get "$flavour" INITRD)
size=$(state_get "$flavour" INITRD_SIZE)
dir=$BUILD/$flavour/fit
configs=$(fit_configs | tr '\n' ' ')
rm -rf "$dir"
mkdir -p "$dir"
step "FIT image ($flavour): mkimage -f board/n900.its, configurations $configs"
for topo in $configs; do
	[ -f "$BUILD/dt/$topo.dtb" ] || die "no build/dt/$topo.dtb: run ./build.sh dtb $topo"
	cp "$BUILD/dt/$topo.dtb" "$dir/"
done
cp "$KOUT/arch/arm/boot/zImage" "$dir/zImage"
# the initramfs without the 2 MiB padding of the direct boot
head -c "$size" "$initrd" >"$dir/initramfs.cpio"
cp "$TOP/board/n900.its" "$dir/"
(cd "$dir" && mkimage -f n900.its n900.itb) >"$LOGS/mkimage-$flavour.log" 2>&1 ||
	{ tail -n 20 "$LOGS/mkimage-$flavour.log" >&2; die "mkimage failed, see $LOGS/mkimage-$flavour.log"; }
for topo in $configs; do
	sed -e '/^#/d' -e '/^$/d' -e "s/^fit_config=.*/fit_config=conf-$topo/" \
		"$TOP/board/uboot-env.txt" >"$dir/env-$topo.txt"
	mkenvimage -s 0x40000 -o "$dir/env-$topo.img" "$dir/env-$topo.txt" ||
		die "mkenvimage failed on $dir/env-$topo.txt"
	# QEMU wants the whole 64 MiB flash bank
	truncate -s 64M "$dir/env-$topo.img"
done
rm -f "$dir/zImage" "$dir/initramfs.cpio" "$dir"/*.dtb
state_set "$flavour" FIT "$dir/n900.itb"
done_step "$(du -h "$dir/n900.itb" | cut -f1)"
