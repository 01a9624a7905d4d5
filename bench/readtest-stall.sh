#!/usr/bin/env bash
# The console while a 4-stream concurrent read test runs with the Monitor
# tab open: the longest event-loop stall (target < 50 ms). Root: attaches
# four 256 MiB direct-I/O loop devices over files in /var/tmp and detaches
# them on every exit. Runs offscreen; its history goes to a temporary file.
# Usage: bench/readtest-stall.sh [SIZE_PER_STREAM]
set -euo pipefail
cd "$(dirname "$0")/.."
size=${1:-128M}
exe=build/bench/bench-readtest-stall
[ -x "$exe" ] || { echo "bench: build first (scripts/bootstrap.sh with -DBLOCKTUNE_BUILD_TESTS=ON)"; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "bench: needs root (loop devices)"; exit 1; }
work=$(mktemp -d /var/tmp/blocktune-bench-XXXXXX)
loops=()
cleanup() {
    for l in "${loops[@]}"; do losetup -d "$l" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT INT TERM
for i in 1 2 3 4; do
    head -c 256M /dev/urandom > "$work/disk$i"
    loops+=("$(losetup --find --show --direct-io=on "$work/disk$i")")
done
names=()
for l in "${loops[@]}"; do names+=("$(basename "$l")"); done
command -v udevadm >/dev/null && udevadm settle --timeout=10 || true
QT_QPA_PLATFORM=offscreen BLOCKTUNE_JOURNAL_DIR="$work/journals" BLOCKTUNE_HISTORY_DB="$work/history.sqlite" \
    "$exe" "${names[@]}" "$size"
