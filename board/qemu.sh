# shellcheck shell=bash
# The one QEMU command line of this project. build.sh sources this file; the
# README quotes it. Change the machine here and nowhere else.
#
#   qemu-system-arm -M virt -cpu cortex-a15 -smp 2 -m 256M \
#       -nographic -nodefaults -no-reboot -serial mon:stdio \
#       -kernel zImage -initrd rootfs.cpio -dtb n900.dtb \
#       -append "console=ttyAMA0 ..."

QEMU_BIN=qemu-system-arm
QEMU_MACHINE=virt
# QEMU_SMP: vCPUs (default 2). ./build.sh test runs two guests side by side
# with one vCPU each, so that they do not fight over the host's two cores.
QEMU_ARGS=(-cpu cortex-a15 -smp "${QEMU_SMP:-2}" -m 256M)

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
	local zimage=$1 initrd=$2 dtb=$3 append=$4
	shift 4
	"$QEMU_BIN" -M "$QEMU_MACHINE" "${QEMU_ARGS[@]}" \
		-nographic -nodefaults -no-reboot -serial mon:stdio \
		-kernel "$zimage" -initrd "$initrd" -dtb "$dtb" \
		-append "console=ttyAMA0 $append" "$@"
}
