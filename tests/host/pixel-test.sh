#!/bin/bash
# pixel-test.sh NAME: builds tests/host/NAME.c with the driver's own
# drivers/isp/isp_pixel.c and runs it: one KTAP document, for the lint
# step (scene-cache: the Image pattern's charge cache changes no frame;
# line-chain: the fused line stages give the samples of the stages one
# after the other).
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
name=${1:?usage: pixel-test.sh NAME (tests/host/NAME.c)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if ! gcc -O2 -Wall -Wextra -Werror -include "$TOP/tests/ref/kcompat.h" \
	-I "$TOP/drivers/isp" -I "$TOP/drivers/include/uapi" -o "$tmp/$name" \
	"$TOP/tests/host/$name.c" "$TOP/drivers/isp/isp_pixel.c" 2>"$tmp/cc.log"; then
	printf 'KTAP version 1\n1..1\nnot ok 1 build # tests/host/%s.c does not compile:\n' "$name"
	sed 's/^/# /' "$tmp/cc.log"
	exit 0
fi
"$tmp/$name" || true
