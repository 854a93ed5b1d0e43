#!/usr/bin/env bash
# rootfs/scene.sh: the sensors' scene files (drivers/include/uapi/n900_scene.h),
# made with ImageMagick.
#
#   rootfs/scene.sh convert PICTURE OUT.bin [FOCUS [X,Y,W,H]]
#       any picture ImageMagick reads (PNG, JPEG, ...) as a scene: sRGB
#       decoded to linear light (inverse sRGB gamma), cropped to 4:3 about
#       its centre and scaled to 648x492, 16 bits per channel; FOCUS is the
#       lens position at which it is sharp (default 512), X,Y,W,H a neutral
#       grey patch in scene pixels (default none)
#   rootfs/scene.sh defaults DIR
#       draws the two default scenes (no picture is downloaded) and writes
#       DIR/scene-default.bin (a colour chart with a neutral row, gradients,
#       a focus target and highlights) and DIR/scene-foliage.bin (mostly
#       green, a grey card in it), with their pictures as DIR/*.png;
#       N900_SCENE=PICTURE makes scene-default.bin from PICTURE instead
#
# 648x492 is the et8ek8's smallest mode: 1.9 MB a scene (the guest has 256
# MB), one scene pixel per sensor pixel there, and the sensor scales it
# up, bilinear, for its larger modes (2x at 1296x984, 4x at 2592x1968).
set -euo pipefail

SCENE_W=648
SCENE_H=492

die() { printf '[scene] error: %s\n' "$*" >&2; exit 1; }

# le16 N: N as two little-endian bytes, as printf escapes
le16() { printf '\\x%02x\\x%02x' $(($1 & 255)) $((($1 >> 8) & 255)); }

# convert PICTURE OUT [FOCUS [X,Y,W,H]]
scene_convert() {
	local pic=$1 out=$2 focus=${3:-512} grey=${4:-0,0,0,0} raw hdr gx gy gw gh
	[ -r "$pic" ] || die "cannot read the picture $pic"
	IFS=, read -r gx gy gw gh <<<"$grey"
	if ! [[ "$focus" =~ ^[0-9]+$ ]] || [ "$focus" -gt 1023 ]; then
		die "the focus position must be 0..1023, not $focus"
	fi
	for v in "$gx" "$gy" "$gw" "$gh"; do
		[[ "$v" =~ ^[0-9]+$ ]] || die "the grey patch must be X,Y,W,H in scene pixels, not $grey"
	done
	if [ $((gx + gw)) -gt $SCENE_W ] || [ $((gy + gh)) -gt $SCENE_H ]; then
		die "the grey patch $grey is outside the ${SCENE_W}x$SCENE_H scene"
	fi
	raw=$(mktemp)
	# -colorspace RGB: ImageMagick's linear RGB, the inverse sRGB gamma;
	# the scaling then happens in linear light. The raw writer would
	# convert back to sRGB: "-set colorspace sRGB" only relabels the
	# linear samples, so that they are written as they are.
	if ! convert "${pic}[0]" -colorspace RGB -resize "${SCENE_W}x${SCENE_H}^" \
		-gravity center -extent "${SCENE_W}x${SCENE_H}" -alpha off \
		-set colorspace sRGB -depth 16 -endian LSB "rgb:$raw"; then
		rm -f "$raw"
		die "ImageMagick cannot convert $pic"
	fi
	if [ "$(stat -c %s "$raw")" -ne $((SCENE_W * SCENE_H * 6)) ]; then
		rm -f "$raw"
		die "ImageMagick wrote $(stat -c %s "$raw") bytes for $pic, not ${SCENE_W}x$SCENE_H x 6"
	fi
	# the header: magic, version 1, header size 32, size, 16 bits, 3
	# channels, focus, grey patch, 3 reserved
	hdr="N9SC$(le16 1)$(le16 32)$(le16 $SCENE_W)$(le16 $SCENE_H)$(le16 16)$(le16 3)"
	hdr+="$(le16 "$focus")$(le16 "$gx")$(le16 "$gy")$(le16 "$gw")$(le16 "$gh")"
	hdr+="$(le16 0)$(le16 0)$(le16 0)"
	{ printf '%b' "$hdr"; cat "$raw"; } >"$out"
	rm -f "$raw"
}

# the default scene's picture, sRGB: 6x4 colour chart (the bottom row
# neutral; its fourth patch, sRGB 122, is the scene's grey patch), a grey
# and a colour ramp, a black and white focus target, white highlights
draw_default() {
	local out=$1 x y i args=() colours
	colours=(
		"#735244" "#c29682" "#627a9d" "#576c43" "#8580b1" "#67bdaa"
		"#d67e2c" "#505ba6" "#c15a63" "#5e3c6c" "#9dbc40" "#e0a32e"
		"#383d96" "#469449" "#af363c" "#e7c71f" "#bb5695" "#0885a1"
		"#f3f3f2" "#c8c8c8" "#a0a0a0" "#7a7a7a" "#555555" "#343434"
	)
	i=0
	for y in 0 1 2 3; do
		for x in 0 1 2 3 4 5; do
			args+=(-fill "${colours[$i]}" -draw "rectangle $((24 + x * 56)),$((24 + y * 56)) $((24 + x * 56 + 47)),$((24 + y * 56 + 47))")
			i=$((i + 1))
		done
	done
	# the focus target, on white: stripes of period 8, a checkerboard
	args+=(-fill white -draw "rectangle 376,24 615,263")
	for x in $(seq 376 8 608); do
		args+=(-fill black -draw "rectangle $x,24 $((x + 3)),143")
	done
	for y in $(seq 160 8 256); do
		for x in $(seq $((376 + (y / 8 % 2) * 8)) 16 600); do
			args+=(-fill black -draw "rectangle $x,$y $((x + 7)),$((y + 7))")
		done
	done
	# highlights near the full well: white discs on a light panel
	args+=(-fill "#e8e8e8" -draw "rectangle 376,290 615,340")
	for x in 400 460 520 580; do
		args+=(-fill white -draw "circle $x,315 $((x + 12)),315")
	done
	convert -size 648x492 xc:"#6e6e6e" \
		\( -size 344x40 gradient:black-white -rotate -90 -resize 344x40! \) \
		-geometry +24+260 -composite \
		\( -size 344x40 xc:red -colorspace HSL -channel R -fx 'i/w' +channel \
		-colorspace sRGB \) -geometry +24+310 -composite \
		\( -size 100x600 gradient:'#202020'-'#d0d0d0' -rotate 90 \) \
		-geometry +24+368 -composite \
		-stroke none "${args[@]}" "$out.tmp.png" &&
		mv "$out.tmp.png" "$out"
}

# the foliage scene's picture: greens (fractal leaves, drawn with a fixed
# seed) and a grey card, sRGB 122, at 224,164 112x92: it covers the
# AEWB window at 240,180 80x60 of a 648x492 frame whole, however blurred
draw_foliage() {
	local out=$1
	convert -seed 20261205 -size 648x492 plasma:'#2f6b1e'-'#9cc23a' \
		-blur 0x2 \
		-fill '#1e4d14' -draw "ellipse 120,120 90,40 20,380" \
		-fill '#5c8f2a' -draw "ellipse 520,380 110,50 0,360" \
		-fill '#7a5a2a' -draw "rectangle 40,430 600,470" \
		-fill '#3d7d25' -draw "ellipse 500,100 70,60 0,360" \
		-fill '#7a7a7a' -draw "rectangle 224,164 335,255" \
		"$out.tmp.png" && mv "$out.tmp.png" "$out"
}

case ${1:-} in
convert)
	[ $# -ge 3 ] || die "usage: rootfs/scene.sh convert PICTURE OUT.bin [FOCUS [X,Y,W,H]]"
	scene_convert "${@:2}"
	;;
defaults)
	[ $# -eq 2 ] || die "usage: rootfs/scene.sh defaults DIR"
	mkdir -p "$2"
	if [ -n "${N900_SCENE:-}" ]; then
		scene_convert "$N900_SCENE" "$2/scene-default.bin" \
			"${N900_SCENE_FOCUS:-512}" "${N900_SCENE_GREY:-0,0,0,0}"
	else
		draw_default "$2/scene-default.png" ||
			die "ImageMagick cannot draw the default scene"
		scene_convert "$2/scene-default.png" "$2/scene-default.bin" 512 192,192,48,48
	fi
	draw_foliage "$2/scene-foliage.png" ||
		die "ImageMagick cannot draw the foliage scene"
	scene_convert "$2/scene-foliage.png" "$2/scene-foliage.bin" 384 224,164,112,92
	;;
*)
	die "usage: rootfs/scene.sh convert PICTURE OUT.bin [FOCUS [X,Y,W,H]] | defaults DIR"
	;;
esac
