#!/bin/sh
# One frame through the whole main pipeline, brought back to the host over
# the console: et8ek8 (1296x984) -> switch -> CCP2 -> CCDC -> lens shading
# -> white balance -> preview -> resizer (640x480 UYVY) -> memory, with lens
# shading on, white balance gains for the scene and the lens in focus.
# ./build.sh turns the base64 between the N900-FRAME markers into
# build/frame.png (ImageMagick).
# the N900 topology only (not a generated stress topology)
media-ctl -p 2>/dev/null | grep -q 'OMAP3 ISP resizer output' || exit 0
out=$(/usr/lib/n900/main-pipeline.sh 1296x984 640x480 | tail -n 1)
v4l2-ctl -d "$out" --stream-mmap --stream-count=1 --stream-to=/tmp/frame.uyvy
echo "N900-FRAME-BEGIN 640 480 uyvy"
base64 /tmp/frame.uyvy
echo "N900-FRAME-END"
rm -f /tmp/frame.uyvy
