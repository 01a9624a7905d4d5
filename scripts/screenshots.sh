#!/usr/bin/env bash
# Shoots every console view under a virtual X server and puts the pictures
# where they are used:
#   build/screenshots/         English, light (and de/ with LANG=de_DE.UTF-8,
#                              dark/ with a dark Fusion palette, scaled/ at
#                              QT_SCALE_FACTOR 1.5 and 2)
#   docs/images/               every English picture: NAME.png, NAME-dark.png,
#                              and a few at 1280x720 logical as NAME@1.5x.png
#                              and NAME@2x.png (device pixels, drawn for them)
#   resources/screenshots/     the AppStream screenshots the metainfo lists
#                              (screenshot_tour --appstream: NAME SHOT)
# The recorded raid10 tree gives the array tree and settings, the profiles
# preview, a static diagnosis and the monitor's member balance; as root
# also, on the tour's own loop devices (made and removed by the tour), the
# live settings, a running two-stream test and its results, a sweep, a
# history comparison, the advise curve and a measured diagnosis. Not root:
# only the recorded views, and resources/ keeps the AppStream pictures the
# run could not make. Usage: scripts/screenshots.sh [BUILD]
# (scripts/screenshot.sh takes one shot of the real console instead.)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
tour="$build/tests/screenshot_tour"
[ -x "$tour" ] || { echo "screenshots: $tour missing: build with -DBLOCKTUNE_BUILD_TESTS=ON"; exit 1; }
command -v xvfb-run >/dev/null || { echo "screenshots: needs xvfb-run (apt-get install xvfb)"; exit 1; }
out="$build/screenshots"
rm -rf "$out"
mkdir -p "$out/de" "$out/dark" "$out/scaled"
# run SCREEN [ENV=VALUE...] TOUR-ARGS...: the screen in device pixels.
run() {
    local screen=$1; shift
    xvfb-run -a -s "-screen 0 ${screen}x24" env -u QT_QPA_PLATFORM LC_ALL= LANGUAGE= "$@"
}
LANG=C.UTF-8 run 1600x1000 "$tour" "$out"
LANG=de_DE.UTF-8 run 1600x1000 "$tour" "$out/de"
LANG=C.UTF-8 run 1600x1000 "$tour" --dark --suffix -dark "$out/dark"
# A 1920x1080 laptop at 150% and a 2560x1440 screen at 200% both give the
# window 1280x720 logical pixels.
few=01-arrays-settings,07-profiles-preview,10-diagnose-md-static,06-monitor-balance
LANG=C.UTF-8 QT_SCALE_FACTOR=1.5 run 2400x1500 "$tour" --no-live --only "$few" --size 1280x720 --suffix @1.5x "$out/scaled"
LANG=C.UTF-8 QT_SCALE_FACTOR=2 run 3200x2000 "$tour" --no-live --only "$few" --size 1280x720 --suffix @2x "$out/scaled"
echo "screenshots: $(find "$out" -name '*.png' | wc -l) PNGs in $out"

mkdir -p docs/images
# Only the tour's own pictures go (docs may hold other images).
while read -r shot; do
    rm -f "docs/images/$shot.png" "docs/images/$shot-dark.png" "docs/images/$shot@1.5x.png" "docs/images/$shot@2x.png"
done < <("$tour" --list)
cp "$out"/*.png "$out"/dark/*.png "$out"/scaled/*.png docs/images/
echo "screenshots: $(find docs/images -name '*.png' | wc -l) PNGs in docs/images"

missing=0
while read -r name shot; do
    if [ -f "$out/$shot.png" ]; then
        cp "$out/$shot.png" "resources/screenshots/$name.png"
    else
        echo "screenshots: no $shot.png (not root?): resources/screenshots/$name.png left as it was"
        missing=1
    fi
done < <("$tour" --appstream)
echo "screenshots: AppStream pictures in resources/screenshots (the metainfo's width and height: tst_metainfo)"
exit $missing
