#!/usr/bin/env bash
# Console on a generated tree of 1,000 disks x 4 partitions (5,000 devices):
# the longest event-loop stall while 20 devices are selected one after the
# other (target <= 50 ms). Runs offscreen.
# Usage: bench/console-select.sh [DISKS] [PARTS] [SELECTIONS]
set -euo pipefail
cd "$(dirname "$0")/.."
disks=${1:-1000}
parts=${2:-4}
selections=${3:-20}
exe=build/bench/bench-console-select
[ -x "$exe" ] || { echo "bench: build first (scripts/bootstrap.sh with -DBLOCKTUNE_BUILD_TESTS=ON)"; exit 1; }
base=/dev/shm; [ -d "$base" ] && [ -w "$base" ] || base=/var/tmp
tree=$(mktemp -d "$base/blocktune-bench-XXXXXX")
trap 'rm -rf "$tree"' EXIT INT TERM
python3 scripts/mk-sysroot.py synth "$tree" --disks "$disks" --parts "$parts" >/dev/null
QT_QPA_PLATFORM=offscreen BLOCKTUNE_JOURNAL_DIR="$tree/journals" "$exe" "$tree" "$selections"
