#!/bin/bash
# scene-cache.sh: the Image pattern's charge cache changes no frame
# (tests/host/scene-cache.c, built with the driver's own
# drivers/isp/isp_pixel.c). One KTAP document, for the lint step.
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if ! gcc -O2 -Wall -Wextra -Werror -include "$TOP/tests/ref/kcompat.h" \
	-I "$TOP/drivers/isp" -I "$TOP/drivers/include/uapi" -o "$tmp/scene-cache" \
	"$TOP/tests/host/scene-cache.c" "$TOP/drivers/isp/isp_pixel.c" 2>"$tmp/cc.log"; then
	printf 'KTAP version 1\n1..1\nnot ok 1 build # tests/host/scene-cache.c does not compile:\n'
	sed 's/^/# /' "$tmp/cc.log"
	exit 0
fi
"$tmp/scene-cache" || true
