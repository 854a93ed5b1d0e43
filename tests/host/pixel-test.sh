#!/bin/bash
# pixel-test.sh NAME: builds tests/host/NAME.c with the driver's own
# drivers/isp/isp_pixel.c, with AddressSanitizer and UBSan, and runs it:
# one KTAP document, for the lint step (scene-cache: the Image pattern's
# charge cache changes no frame; line-chain: the fused line stages give
# the samples of the stages one after the other). A program that does
# not build, crashes or stops short of its plan is a "not ok" too.
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
name=${1:?usage: pixel-test.sh NAME (tests/host/NAME.c)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if ! gcc -O2 -Wall -Wextra -Werror -fsanitize=address,undefined \
	-fno-sanitize-recover=all -include "$TOP/tests/ref/kcompat.h" \
	-I "$TOP/drivers/isp" -I "$TOP/drivers/include/uapi" -o "$tmp/$name" \
	"$TOP/tests/host/$name.c" "$TOP/drivers/isp/isp_pixel.c" 2>"$tmp/cc.log"; then
	printf 'KTAP version 1\n1..1\nnot ok 1 build # tests/host/%s.c does not compile:\n' "$name"
	sed 's/^/# /' "$tmp/cc.log"
	exit 0
fi
rc=0
ASAN_OPTIONS=detect_leaks=0 "$tmp/$name" >"$tmp/out" 2>"$tmp/err" || rc=$?
cat "$tmp/out"
plan=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$tmp/out" | head -n 1)
got=$(grep -cE '^(not )?ok ' "$tmp/out" || true)
# a failed subtest exits 1; anything else, or missing results, is a crash
if [ "$rc" -gt 1 ] || [ -z "$plan" ] || [ "$got" -lt "$plan" ]; then
	echo "not ok $((got + 1)) run # $name exited with $rc after $got of ${plan:-?} results:"
	sed 's/^/# /' "$tmp/err" | head -n 20
fi
