# shellcheck shell=bash
# The one QEMU command line of this project. build.sh sources this file; the
# README quotes it. Change the machine here and nowhere else.
#
#   qemu-system-arm -M virt -cpu cortex-a15 -smp 2 -m 256M \
#       -nographic -nodefaults -no-reboot -serial mon:stdio \
#       -kernel zImage -initrd rootfs.cpio -dtb n900.dtb \
#       -append "console=ttyAMA0 ..."
#
# The U-Boot path (qemu_boot_uboot) runs Debian's U-Boot as the firmware
# and hands it the FIT image through fw_cfg:
#
#   qemu-system-arm -M virt ... -bios /usr/lib/u-boot/qemu_arm/u-boot.bin \
#       -drive if=pflash,unit=1,format=raw,readonly=on,file=uboot-env.img \
#       -kernel n900.itb -append "console=ttyAMA0 ..."
#
# Host sharing: QEMU_SHARE=DIR adds a virtio-9p device (mount tag "n900")
# exporting DIR to the guest, which mounts it on /mnt.
#
# qemu_boot and qemu_boot_uboot exec QEMU: run them in a subshell (or a
# "bash -c", as build.sh does under timeout, which then kills QEMU itself).

QEMU_BIN=qemu-system-arm
QEMU_MACHINE=virt
# QEMU_SMP: vCPUs (default 2). ./build.sh test runs two guests side by side
# with one vCPU each, so that they do not fight over the host's two cores.
# N900_QEMU_MEM: guest RAM (default 256M; the debug kernel needs 768M for
# chain-4096, whose 4096 entities KASAN and kmemleak track).
QEMU_ARGS=(-cpu cortex-a15 -smp "${QEMU_SMP:-2}" -m "${N900_QEMU_MEM:-256M}")
UBOOT_BIN=/usr/lib/u-boot/qemu_arm/u-boot.bin

# qemu_has_9p: this QEMU can export a host directory (virtio-9p on the
# virtio-mmio bus of -M virt)
qemu_has_9p() {
	"$QEMU_BIN" -device help 2>/dev/null | grep -q '"virtio-9p-device"'
}

# qemu_share_args: the virtio-9p arguments for QEMU_SHARE, if set
qemu_share_args() {
	[ -n "${QEMU_SHARE:-}" ] || return 0
	printf '%s\n' -fsdev "local,id=n900share,path=$QEMU_SHARE,security_model=none" \
		-device virtio-9p-device,fsdev=n900share,mount_tag=n900
}

# qemu_dumpdtb OUT: write QEMU's own device tree for this exact machine
# (same -cpu/-smp/-m as the boot, so the tree matches what the guest sees).
qemu_dumpdtb() {
	"$QEMU_BIN" -M "$QEMU_MACHINE,dumpdtb=$1" "${QEMU_ARGS[@]}" \
		-nographic -nodefaults >/dev/null
}

# qemu_boot ZIMAGE INITRD DTB APPEND [EXTRA QEMU ARGS...]
# The guest powers itself off (PSCI) when done; -no-reboot turns a panic
# reboot into an exit as well.
qemu_boot() {
	local zimage=$1 initrd=$2 dtb=$3 append=$4 share
	shift 4
	mapfile -t share < <(qemu_share_args)
	exec "$QEMU_BIN" -M "$QEMU_MACHINE" "${QEMU_ARGS[@]}" \
		-nographic -nodefaults -no-reboot -serial mon:stdio \
		-kernel "$zimage" -initrd "$initrd" -dtb "$dtb" \
		-append "console=ttyAMA0 $append" ${share[@]+"${share[@]}"} "$@"
}

# qemu_boot_uboot FIT ENV_IMAGE APPEND [EXTRA QEMU ARGS...]: U-Boot loads
# FIT from fw_cfg and boots the configuration ENV_IMAGE names.
qemu_boot_uboot() {
	local fit=$1 env=$2 append=$3 share
	shift 3
	mapfile -t share < <(qemu_share_args)
	exec "$QEMU_BIN" -M "$QEMU_MACHINE" "${QEMU_ARGS[@]}" \
		-nographic -nodefaults -no-reboot -serial mon:stdio \
		-bios "$UBOOT_BIN" \
		-drive "if=pflash,unit=1,format=raw,readonly=on,file=$env" \
		-kernel "$fit" -append "console=ttyAMA0 $append" \
		${share[@]+"${share[@]}"} "$@"
}
