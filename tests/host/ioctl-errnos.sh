#!/usr/bin/env bash
# tests/host/ioctl-errnos.sh KSRC: the errno codes the kernel's media
# documentation lists for each ioctl, one line per ioctl on stdout:
#
#   generic EAGAIN EBADF ...            (gen-errors.rst: any ioctl)
#   VIDIOC_SUBDEV_S_FMT EBUSY EINVAL EPERM
#
# Read from Documentation/userspace-api/media/{mediactl,v4l}/*.rst: the
# ".. c:macro::" names of a page, and the codes of its "Return Value"
# section. tests/guest/ioctl-fuzz.c accepts only these.
set -euo pipefail
doc=${1:?usage: $0 KSRC}/Documentation/userspace-api/media
[ -d "$doc" ] || { echo "$0: no $doc" >&2; exit 1; }

# shellcheck disable=SC2016 # reST literals, not expansions
echo "generic $(grep -o '``E[A-Z]*``' "$doc/gen-errors.rst" | tr -d '`' | sort -u | tr '\n' ' ')"
# the names errno can take (the kernel's asm-generic/errno*.h)
known=$(sed -n 's/^#define[[:space:]]*\(E[A-Z0-9]*\)[[:space:]].*/\1/p' \
	"${1}/include/uapi/asm-generic/errno-base.h" "${1}/include/uapi/asm-generic/errno.h" | tr '\n' ' ')
for f in "$doc"/mediactl/*.rst "$doc"/v4l/*.rst; do
	awk -v known=" $known " '
		/^\.\. c:macro:: / { names[++n] = $3 }
		/^Return Value/ { ret = 1; next }
		ret {
			line = $0
			while (match(line, /(^|[^A-Z])E[A-Z][A-Z][A-Z]*/)) {
				code = substr(line, RSTART, RLENGTH)
				sub(/^[^A-Z]/, "", code)
				if (index(known, " " code " ")) codes[code] = 1
				line = substr(line, RSTART + RLENGTH)
			}
		}
		END {
			list = ""
			for (c in codes) list = list " " c
			for (i = 1; i <= n; i++) print names[i] list
		}' "$f"
done | awk 'NF' | sort
