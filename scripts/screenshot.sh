#!/usr/bin/env bash
# Starts the console in a virtual X server and saves a screenshot of the
# real window. Usage: scripts/screenshot.sh OUT.png [console options...]
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(realpath -m "$1"); shift
command -v import >/dev/null || { echo "screenshot: needs ImageMagick's import (apt-get install imagemagick)"; exit 1; }
export OUT="$out"
xvfb-run -a -s "-screen 0 1400x860x24" bash -c '
    build/bin/blocktune "$@" & pid=$!
    sleep "${SCREENSHOT_DELAY:-3}"
    import -window root "$OUT"
    kill $pid; wait $pid 2>/dev/null || true
' screenshot "$@"
echo "screenshot: $out"
