#!/usr/bin/env bash
# tests/host/render.sh - pictures of what a guest left, for the demo and
# the artefact checks of ./build.sh test:
#   render.sh topology CONSOLE_LOG PNG  the graph the guest printed with
#                                       "media-ctl --print-dot" between
#                                       N900-DOT markers (graphviz; the .dot
#                                       is kept beside)
#   render.sh power EVENTS PNG          a power-event log as a timeline
#   render.sh frames DIR                each DIR/frames/NAME.raw (NAME.info:
#                                       width, height, ImageMagick format)
#                                       as DIR/frames/NAME.png
#   render.sh 3a DIR                    the 3A example's run (3a-demo.sh,
#                                       3a.sh): DIR/3a/before.png,
#                                       after.png and convergence.png
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
die() { printf '[build] error: %s\n' "$*" >&2; exit 1; }

case ${1:-} in
topology)
	dot=${3%.png}.dot
	tr -d '\r' <"$2" | sed -n '/^N900-DOT-BEGIN/,/^N900-DOT-END/p' | sed '1d;$d' >"$dot"
	[ -s "$dot" ] || die "the guest printed no topology graph; see $2"
	dot -Tpng -Gdpi=72 -o "$3" "$dot" || die "graphviz could not render $dot"
	;;
power)
	"$top/tests/host/power-timeline.sh" "$2" "$3" ||
		die "could not draw the power timeline from $2"
	;;
frames)
	for info in "$2"/frames/*.info; do
		[ -e "$info" ] || continue
		read -r w h fmt <"$info"
		convert -size "${w}x$h" -depth 8 "$fmt:${info%.info}.raw" "${info%.info}.png" ||
			die "ImageMagick could not convert ${info%.info}.raw"
	done
	;;
3a)
	for f in before after; do
		[ -s "$2/3a/$f.info" ] || die "no $2/3a/$f.info: the 3A run left no frame"
		read -r w h fmt <"$2/3a/$f.info"
		convert -size "${w}x$h" -depth 8 "$fmt:$2/3a/$f.uyvy" "$2/3a/$f.png" ||
			die "ImageMagick could not convert $2/3a/$f.uyvy"
	done
	"$top/tests/host/3a-plot.sh" "$2/3a/3a.tsv" "$2/3a/convergence.png" ||
		die "could not plot $2/3a/3a.tsv"
	;;
*) die "usage: render.sh topology LOG PNG | power EVENTS PNG | frames DIR | 3a DIR" ;;
esac
