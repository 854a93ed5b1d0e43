#!/usr/bin/env bash
# tests/host/guest-packages.sh: KTAP on the guest packages' version policy
# (rootfs/packages.sh): a point release of a tested series is taken, any
# other series stops the build with a message that names the package, its
# version and the tested series; a manifest is checked line by line.
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
pk=$TOP/rootfs/packages.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/host/ktap-ok.sh
. "$TOP/tests/host/ktap-ok.sh"
echo "KTAP version 1"
echo "1..4"

bad=
for v in 1.30.1-1 1.30.2-1 1:1.30.9-3+b1 1.30-1; do
	"$pk" series v4l-utils "$v" >/dev/null 2>&1 || bad="$bad v4l-utils $v refused;"
done
ok point_releases_of_the_tested_series_taken "$bad"

bad=
for v in 1.31.0-1 1.3-1 1.300.0-1 2.30.1-1 1.2.30-1; do
	if "$pk" series v4l-utils "$v" >/dev/null 2>"$tmp/err"; then
		bad="$bad v4l-utils $v taken;"
	elif ! grep -q "v4l-utils is $v, of a series the project has not been tested with (it was tested with 1.30.x)" "$tmp/err"; then
		bad="$bad v4l-utils $v: unclear message '$(cat "$tmp/err")';"
	fi
done
ok other_series_stop_with_a_clear_message "$bad"

printf 'busybox-static 1:1.37.0-6 armhf\nlibc6 2.41-12 armhf\nv4l-utils 1.30.4-1 armhf\n' >"$tmp/good"
ok manifest_of_a_tested_series_passes "$("$pk" check "$tmp/good" 2>&1 >/dev/null || echo "refused: $(cat "$tmp/good")")"
sed 's/^v4l-utils .*/v4l-utils 1.32.0-1 armhf/' "$tmp/good" >"$tmp/bad"
ok manifest_of_an_untested_series_fails "$(! "$pk" check "$tmp/bad" >/dev/null 2>&1 || echo "taken: $(cat "$tmp/bad")")"
