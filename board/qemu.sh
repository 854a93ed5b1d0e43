#!/usr/bin/env bash
# board/qemu.sh - the one QEMU command line of this project, and the boot
# step. Change the machine here and nowhere else.
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
# Commands:
#   board/qemu.sh dumpdtb OUT      QEMU's own virt tree for this machine
#   board/qemu.sh share-mode       how guests hand files over: 9p or console
#   board/qemu.sh boot [OPTIONS] FLAVOUR MODE TOPOLOGY RUN NAME
#       boot one guest (mode demo, test, shell, bench or bench-stream) with
#       the FLAVOUR kernel and initramfs (build/FLAVOUR/state) on the tree
#       build/dt/TOPOLOGY.dtb; its console goes to RUN/NAME.log (and to the
#       terminal with N900_VERBOSE=1 or in mode shell), its artefacts to
#       RUN/NAME/, its boot timing to RUN/NAME/boot-timing. OPTIONS:
#       --uboot (through U-Boot and the FIT image, board/fit.sh),
#       --console (artefacts over the console even with virtio-9p),
#       --append ARGS (more kernel arguments), --timeout SECONDS.
# shellcheck source=board/lib.sh
. "$(dirname "$0")/lib.sh"

QEMU_BIN=qemu-system-arm
QEMU_MACHINE=virt
# QEMU_SMP: vCPUs (default 2). ./build.sh test runs guests side by side
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

# qemu_pid_args: -pidfile QEMU_PIDFILE, if set (the boot step's poweroff
# watch reads it)
qemu_pid_args() {
	[ -z "${QEMU_PIDFILE:-}" ] || printf '%s\n' -pidfile "$QEMU_PIDFILE"
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
	local zimage=$1 initrd=$2 dtb=$3 append=$4 share pid
	shift 4
	mapfile -t share < <(qemu_share_args)
	mapfile -t pid < <(qemu_pid_args)
	exec "$QEMU_BIN" -M "$QEMU_MACHINE" "${QEMU_ARGS[@]}" \
		-nographic -nodefaults -no-reboot -serial mon:stdio \
		-kernel "$zimage" -initrd "$initrd" -dtb "$dtb" \
		-append "console=ttyAMA0 $append" ${share[@]+"${share[@]}"} \
		${pid[@]+"${pid[@]}"} "$@"
}

# qemu_boot_uboot FIT ENV_IMAGE APPEND [EXTRA QEMU ARGS...]: U-Boot loads
# FIT from fw_cfg and boots the configuration ENV_IMAGE names.
qemu_boot_uboot() {
	local fit=$1 env=$2 append=$3 share pid
	shift 3
	mapfile -t share < <(qemu_share_args)
	mapfile -t pid < <(qemu_pid_args)
	exec "$QEMU_BIN" -M "$QEMU_MACHINE" "${QEMU_ARGS[@]}" \
		-nographic -nodefaults -no-reboot -serial mon:stdio \
		-bios "$UBOOT_BIN" \
		-drive "if=pflash,unit=1,format=raw,readonly=on,file=$env" \
		-kernel "$fit" -append "console=ttyAMA0 $append" \
		${share[@]+"${share[@]}"} ${pid[@]+"${pid[@]}"} "$@"
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

# show_console LOG: the console into LOG; on the terminal too with
# N900_VERBOSE=1, else only the guest's own progress lines (N900-BOOT:,
# N900-DEMO:)
show_console() {
	if [ "${N900_VERBOSE:-0}" = 1 ]; then
		tee "$1"
	else
		tee "$1" | tr -d '\r' | { grep --line-buffered -E '^N900-(BOOT|DEMO):' || true; } |
			sed -u 's/^N900-[A-Z]*: /[build]     guest: /'
	fi
}

# poweroff_watch LOG PIDFILE FLAG: once the guest has said on its console
# (LOG) that it powers off, QEMU (its pid in PIDFILE) gets
# N900_POWEROFF_GRACE seconds (default 120) to exit; then it is killed and
# FLAG is written. A task that died holding a lock can hang the poweroff,
# which would hold the run until the boot's whole timeout.
poweroff_watch() {
	local log=$1 pidfile=$2 flag=$3 grace=${N900_POWEROFF_GRACE:-120} pid
	until grep -q '^N900-POWEROFF' "$log" 2>/dev/null; do sleep 5; done
	sleep "$grace"
	pid=$(cat "$pidfile" 2>/dev/null) || return 0
	kill -0 "$pid" 2>/dev/null || return 0
	echo "$grace" >"$flag"
	say "QEMU still running ${grace}s after the guest's poweroff: killed ($log)" >&2
	kill "$pid"
}

# boot_guest [OPTIONS] FLAVOUR MODE TOPOLOGY RUN NAME (see the top)
boot_guest() {
	local path=direct how='' append='' timeout=${N900_BOOT_TIMEOUT:-3600}
	while [ $# -gt 0 ]; do
		case $1 in
		--uboot) path=uboot; shift ;;
		--console) how=console; shift ;;
		--append) append=$2; shift 2 ;;
		--timeout) timeout=$2; shift 2 ;;
		*) break ;;
		esac
	done
	[ $# -eq 5 ] || die "usage: board/qemu.sh boot [--uboot] [--console] [--append ARGS] [--timeout S] FLAVOUR MODE TOPOLOGY RUN NAME"
	local flavour=$1 mode=$2 topo=$3 run=$4 name=$5 qemu_cmd zimage
	local out=$run/$name log=$run/$name.log dtb=$BUILD/dt/$3.dtb fit
	[ -f "$dtb" ] || die "no $dtb: run ./build.sh dtb $topo"
	[ -n "$how" ] || how=$(cat "$run/share-mode" 2>/dev/null || share_mode)
	append="n900.mode=$mode $(cat "$BUILD/dt/$topo.cmdline") $append ${N900_KERNEL_ARGS:-}"
	mkdir -p "$out"
	# the exact version of every guest package (rootfs/packages.sh)
	cp "$BUILD/$flavour/guest-packages" "$run/guest-packages" 2>/dev/null ||
		say "warning: no ${BUILD#"$TOP"/}/$flavour/guest-packages (run ./build.sh rootfs)" >&2
	case $path in
	direct)
		# ZIMAGE (older states: the kernel build directory's)
		zimage=$(sed -n 's/^ZIMAGE=//p' "$BUILD/$flavour/state" 2>/dev/null)
		[ -z "$zimage" ] || zimage=$(state_get "$flavour" ZIMAGE)
		[ -n "$zimage" ] || zimage=$(state_get "$flavour" KOUT)/arch/arm/boot/zImage
		qemu_cmd=(run-direct "$zimage"
			"$(state_get "$flavour" INITRD)" "$dtb" "$append")
		;;
	uboot)
		fit=$(state_get "$flavour" FIT)
		fit_configs | grep -qx "$topo" ||
			die "topology $topo is not a configuration of board/n900.its ($(fit_configs | tr '\n' ' '))"
		qemu_cmd=(run-uboot "$fit" "$(dirname "$fit")/env-$topo.img" "$append")
		;;
	esac
	local qshare=
	[ "$how" != 9p ] || qshare=$out
	echo "$how" >"$out/share-expected"
	say "==> booting QEMU: $path boot, $topo, mode $mode, artefacts by $how; console: ${log#"$TOP"/}"
	if [ "$mode" = shell ]; then
		QEMU_SHARE=$qshare "$0" "${qemu_cmd[@]}"
		return
	fi
	local rc=0 watch
	rm -f "$out/qemu.pid" "$out/poweroff-hung"
	poweroff_watch "$log" "$out/qemu.pid" "$out/poweroff-hung" &
	watch=$!
	# run-* exec QEMU: it is timeout's own child, which timeout kills
	QEMU_SHARE=$qshare QEMU_PIDFILE=$out/qemu.pid \
		timeout --foreground -k 10 "$timeout" "$0" "${qemu_cmd[@]}" </dev/null |
		stamp_console "$out/boot-timing" | show_console "$log" || rc=$?
	kill "$watch" 2>/dev/null || true
	wait "$watch" 2>/dev/null || true
	[ "$rc" -ne 124 ] || say "QEMU timed out after ${timeout}s ($log)" >&2
	# the harness fails a guest whose console says so
	[ ! -f "$out/poweroff-hung" ] ||
		echo "N900-HOST: QEMU killed $(cat "$out/poweroff-hung") s after the guest's poweroff (hung)" >>"$log"
	# the console fallback: a base64 tar.gz between markers
	if grep -q '^N900-ARTEFACTS-BEGIN' "$log"; then
		tr -d '\r' <"$log" | sed -n '/^N900-ARTEFACTS-BEGIN/,/^N900-ARTEFACTS-END/p' |
			sed '1d;$d' | base64 -d | tar -xzf - -C "$out" ||
			say "warning: the artefacts on the console of $name are damaged ($log)" >&2
	fi
	return 0
}

cmd=${1:-}
[ $# -eq 0 ] || shift
case $cmd in
dumpdtb) qemu_dumpdtb "$@" ;;
share-mode) share_mode ;;
boot) boot_guest "$@" ;;
run-direct) qemu_boot "$@" ;;
run-uboot) qemu_boot_uboot "$@" ;;
*) die "usage: board/qemu.sh dumpdtb OUT | share-mode | boot ... (see its top)" ;;
esac
