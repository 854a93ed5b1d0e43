#!/bin/bash
# pixel-test.sh [--neon] NAME: builds tests/host/NAME.c with the driver's
# own drivers/isp/isp_pixel.c, with AddressSanitizer and UBSan, and runs
# it: one KTAP document, for the lint step (scene-cache: the Image
# pattern's charge cache changes no frame; sensor-noise: its noise has
# the documented variance and no correlation; line-chain: the fused line
# stages give the samples of the stages one after the other;
# preview-line, resizer-line: the preview and the resizer give the
# documented demosaic, YUV and scaling). With --neon, for armhf with
# drivers/isp/isp_pixel_neon.c too, static, run under qemu-arm
# (pixel-neon: the NEON loops give the C's output; preview-line and
# resizer-line again, with the loops the guest's CPU runs). A
# program that does not build, crashes or stops short of its plan is a
# "not ok" too.
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
neon=0
if [ "${1:-}" = --neon ]; then
	neon=1
	shift
fi
name=${1:?usage: pixel-test.sh [--neon] NAME (tests/host/NAME.c)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

src=("$TOP/tests/host/$name.c" "$TOP/drivers/isp/isp_pixel.c")
if [ "$neon" = 1 ]; then
	cc=(arm-linux-gnueabihf-gcc -static -march=armv7-a -mfpu=neon)
	src+=("$TOP/drivers/isp/isp_pixel_neon.c")
	run=(qemu-arm)
else
	cc=(gcc "-fsanitize=address,undefined" -fno-sanitize-recover=all)
	run=()
fi
if ! "${cc[@]}" -O2 -Wall -Wextra -Werror \
	-include "$TOP/tests/ref/kcompat.h" -I "$TOP/drivers/isp" \
	-I "$TOP/drivers/include/uapi" -o "$tmp/$name" "${src[@]}" -lm \
	2>"$tmp/cc.log"; then
	printf 'KTAP version 1\n1..1\nnot ok 1 build # tests/host/%s.c does not compile:\n' "$name"
	sed 's/^/# /' "$tmp/cc.log"
	exit 0
fi
rc=0
ASAN_OPTIONS=detect_leaks=0 "${run[@]}" "$tmp/$name" >"$tmp/out" 2>"$tmp/err" || rc=$?
cat "$tmp/out"
plan=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$tmp/out" | head -n 1)
got=$(grep -cE '^(not )?ok ' "$tmp/out" || true)
# a failed subtest exits 1; anything else, or missing results, is a crash
if [ "$rc" -gt 1 ] || [ -z "$plan" ] || [ "$got" -lt "$plan" ]; then
	echo "not ok $((got + 1)) run # $name exited with $rc after $got of ${plan:-?} results:"
	sed 's/^/# /' "$tmp/err" | head -n 20
fi
