#!/usr/bin/env bash
# tests/ref/frames-expected.sh OUT INPUT_DIR: the host reference model
# (tests/ref/isp-ref.c, built with the driver's own drivers/isp/isp_pixel.c)
# computes the frame of every case of tests/data/frames.spec. OUT gets
# "CASE MD5" lines for the guest's frames.sh ("CASE& MD5" for the cases
# marked "ref&"), INPUT_DIR the input frames of the memory-to-memory cases.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: frames-expected.sh OUT INPUT_DIR} dir=${2:?usage: frames-expected.sh OUT INPUT_DIR}
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
		read -r -a args <<<"${line#* }"
		md5=$(cd "$dir" && "$ref" "${args[@]}" | md5sum) ||
			die "tests/ref/isp-ref failed on case $name of tests/data/frames.spec"
		if [[ $line == "ref& "* ]]; then
			echo "$name& ${md5%% *}" >>"$out"
		else
			echo "$name ${md5%% *}" >>"$out"
		fi
		;;
	esac
done <"$top/tests/data/frames.spec"
