#!/usr/bin/env bash
# rootfs/packages.sh - the guest packages' versions.
#
#   rootfs/packages.sh manifest DEB...     "PACKAGE VERSION ARCH" of each .deb,
#                                          sorted: what the initramfs holds
#   rootfs/packages.sh check MANIFEST      each package of SERIES below is of
#                                          the series the tests were run with;
#                                          prints "PACKAGE VERSION (series S)"
#                                          for them, or says what turned up
#   rootfs/packages.sh series PACKAGE VERSION   the same for one package
#
# Debian 13 is served as it is today: a point release of a tested series
# (v4l-utils 1.30.2 after 1.30.1) is taken, and said; only a series the
# project has not been tested with stops the build. The tests read these
# tools' output (v4l2-compliance's totals, media-ctl's and GStreamer's
# messages), which may change between series.
set -euo pipefail

# PACKAGE SERIES: the series of each package whose output the tests read
SERIES='
v4l-utils 1.30
gstreamer1.0-tools 1.26
'

# upstream VERSION: the upstream part of a Debian version (no epoch, no
# Debian revision): 1:1.30.1-2+b1 -> 1.30.1
upstream() {
	local v=${1#*:}
	echo "${v%-*}"
}

# series PACKAGE VERSION: 0 if VERSION is of PACKAGE's tested series (or
# PACKAGE has none), else 1 with the reason on stderr
series() {
	local want up
	want=$(awk -v p="$1" '$1 == p { print $2 }' <<<"$SERIES")
	[ -n "$want" ] || return 0
	up=$(upstream "$2")
	case $up in
	"$want" | "$want".* | "$want"[+~]*)
		echo "$1 $2 (series $want)"
		;;
	*)
		echo "guest package $1 is $2, of a series the project has not been tested with" \
			"(it was tested with $want.x): its output, which the tests read, may differ." \
			"Pin the guest packages to a snapshot with N900_DEBIAN_MIRROR (for example" \
			"http://snapshot.debian.org/archive/debian/TIMESTAMP), or update SERIES in" \
			"rootfs/packages.sh once the suite passes with $up" >&2
		return 1
		;;
	esac
}

case ${1:-} in
manifest)
	shift
	for deb in "$@"; do
		# shellcheck disable=SC2016 # dpkg-deb's own ${field} syntax
		dpkg-deb --show --showformat='${Package} ${Version} ${Architecture}\n' "$deb"
	done | LC_ALL=C sort
	;;
check)
	[ $# -eq 2 ] || { echo "usage: rootfs/packages.sh check MANIFEST" >&2; exit 2; }
	rc=0
	while read -r p v _; do
		series "$p" "$v" || rc=1
	done < <(awk -v s="$SERIES" 'BEGIN { n = split(s, l, "\n"); for (i = 1; i <= n; i++) { split(l[i], f, " "); if (f[1] != "") want[f[1]] = 1 } }
		want[$1]' "$2")
	exit $rc
	;;
series)
	[ $# -eq 3 ] || { echo "usage: rootfs/packages.sh series PACKAGE VERSION" >&2; exit 2; }
	series "$2" "$3"
	;;
*)
	echo "usage: rootfs/packages.sh manifest DEB... | check MANIFEST | series PACKAGE VERSION" >&2
	exit 2
	;;
esac
