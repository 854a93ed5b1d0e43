#!/bin/bash
# uapi-layout.sh: the userspace headers of drivers/include/uapi/ compile
# alone, and the statistics layout is the same (tests/host/uapi-layout.c)
# for armhf, arm64 and the host. One KTAP document, for the lint step.
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
UAPI=$TOP/drivers/include/uapi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cc_for() {
	case $1 in
	armhf) echo arm-linux-gnueabihf-gcc ;;
	arm64) echo aarch64-linux-gnu-gcc ;;
	host) echo gcc ;;
	esac
}

abis=(armhf arm64 host)
headers=("$UAPI"/*.h)
echo "KTAP version 1"
echo "1..$(( ${#abis[@]} * (${#headers[@]} + 1) ))"
n=0
for abi in "${abis[@]}"; do
	cc=$(cc_for "$abi")
	for h in "${headers[@]}" "$TOP/tests/host/uapi-layout.c"; do
		n=$((n + 1))
		name=uapi.$abi.$(basename "$h")
		if ! command -v "$cc" >/dev/null; then
			echo "not ok $n $name # $cc is not installed"
			continue
		fi
		if [[ $h == *.h ]]; then
			# the header alone, as the first include of a program
			printf '#include "%s"\nint main(void) { return 0; }\n' "$(basename "$h")" >"$tmp/t.c"
			src=$tmp/t.c
		else
			src=$h
		fi
		if "$cc" -std=gnu11 -Wall -Wextra -Werror -I "$UAPI" -c -o "$tmp/t.o" "$src" \
			>"$tmp/log" 2>&1; then
			echo "ok $n $name"
		else
			sed 's/^/# /' "$tmp/log" | head -n 20
			echo "not ok $n $name"
		fi
	done
done
