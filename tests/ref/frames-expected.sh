#!/usr/bin/env bash
# tests/ref/frames-expected.sh OUT INPUT_DIR [FIRMWARE_DIR]: the host
# reference model (tests/ref/isp-ref.c, built with the driver's own
# drivers/isp/isp_pixel.c) computes the frames of every case of
# tests/data/frames.spec: the 8 frames frames.sh captures, numbered 0..7
# as the buffers' sequence numbers (the noise generator's frame number).
# OUT gets "CASE MD5" lines for the guest's frames.sh when the 8 are the
# same, "CASE MD5-0 ... MD5-7" when they differ (noise), and "CASE& ..."
# for the cases marked "ref&"; INPUT_DIR the input frames of the
# memory-to-memory cases. "%firmware" in a case's arguments is
# FIRMWARE_DIR, where rootfs/scene.sh wrote the scene files (the guest's
# /lib/firmware).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: frames-expected.sh OUT INPUT_DIR [FIRMWARE_DIR]}
dir=${2:?usage: frames-expected.sh OUT INPUT_DIR [FIRMWARE_DIR]}
firmware=${3:-}
[ -z "$firmware" ] || firmware=$(cd "$firmware" && pwd)
frames=8
ref=$(dirname "$out")/isp-ref
die() { printf '[build] error: %s\n' "$*" >&2; exit 1; }

rm -rf "$dir"
mkdir -p "$dir"
gcc -O2 -Wall -Wextra -Werror -include "$top/tests/ref/kcompat.h" \
	-I "$top/drivers/include/uapi" -o "$ref" \
	"$top/tests/ref/isp-ref.c" "$top/drivers/isp/isp_pixel.c" ||
	die "cannot compile the reference model tests/ref/isp-ref.c"
name=''
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
		[[ $line != *%firmware* ]] || [ -n "$firmware" ] ||
			die "case $name of tests/data/frames.spec needs the scene files: give FIRMWARE_DIR"
		line=${line//%firmware/$firmware}
		read -r -a args <<<"${line#* }"
		(cd "$dir" && "$ref" "${args[@]}" -n $frames >"$dir/.frames") ||
			die "tests/ref/isp-ref failed on case $name of tests/data/frames.spec"
		size=$(($(stat -c %s "$dir/.frames") / frames))
		md5s=$(split -b "$size" --filter=md5sum "$dir/.frames" | cut -d' ' -f1 | tr '\n' ' ')
		rm -f "$dir/.frames"
		# one MD5 when the frames are all the same
		[ "$(echo "$md5s" | tr ' ' '\n' | sort -u | grep -c .)" -gt 1 ] ||
			md5s=${md5s%% *}
		if [[ $line == "ref& "* ]]; then
			echo "$name& ${md5s% }" >>"$out"
		else
			echo "$name ${md5s% }" >>"$out"
		fi
		;;
	esac
done <"$top/tests/data/frames.spec"
