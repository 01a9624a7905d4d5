#!/usr/bin/env bash
# Writes a PNG of each console view to build/screenshots/ (English) and
# build/screenshots/de/ (LANG=de_DE.UTF-8), under a virtual X server:
# the array tree and settings on the recorded raid10 tree, the profiles
# preview, a static diagnosis and the monitor's member balance there; as
# root also, on the tour's own loop devices, the live settings, a running
# two-stream test and its results, a sweep, a history comparison, the
# advise curve and a measured diagnosis. Usage: scripts/screenshots.sh [BUILD]
# (scripts/screenshot.sh takes one shot of the real console instead.)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
tour="$build/tests/screenshot_tour"
[ -x "$tour" ] || { echo "screenshots: $tour missing: build with -DBLOCKTUNE_BUILD_TESTS=ON"; exit 1; }
command -v xvfb-run >/dev/null || { echo "screenshots: needs xvfb-run (apt-get install xvfb)"; exit 1; }
out="$build/screenshots"
rm -rf "$out"
mkdir -p "$out/de"
run() {
    xvfb-run -a -s "-screen 0 1600x1000x24" env -u QT_QPA_PLATFORM "$@"
}
LANG=C.UTF-8 LC_ALL= LANGUAGE= run "$tour" "$out"
LANG=de_DE.UTF-8 LC_ALL= LANGUAGE= run "$tour" "$out/de"
echo "screenshots: $(find "$out" -name '*.png' | wc -l) PNGs in $out"
