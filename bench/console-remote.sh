#!/usr/bin/env bash
# The console's monitor on a host through ssh (a private sshd on 127.0.0.1):
# 100 devices of a generated tree (25 disks x 3 partitions) at 10 Hz, one
# `counters` round trip per tick, while bench/monitor-diskstats-writer.py
# rewrites the tree's /proc/diskstats every 100 ms. Prints the ticks that
# arrived (all must), how long after a tick began its sample reached the
# GUI and its plot was drawn (target < 200 ms), and the agent's CPU
# (target < 3 % of one core). Root (sshd), offscreen.
# Usage: sudo bench/console-remote.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}
exe=build/bench/bench-console-remote
[ -x "$exe" ] || { echo "bench: build first (scripts/bootstrap.sh with -DBLOCKTUNE_BUILD_TESTS=ON)"; exit 1; }
base=/dev/shm; [ -d "$base" ] && [ -w "$base" ] || base=/var/tmp
tree=$(mktemp -d "$base/blocktune-console-remote-XXXXXX")
writer=
cleanup() {
    [ -n "$writer" ] && kill "$writer" 2>/dev/null && wait "$writer" 2>/dev/null
    rm -rf "$tree"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
python3 scripts/mk-sysroot.py synth "$tree/root" --disks 25 --parts 3 >/dev/null
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
python3 bench/monitor-diskstats-writer.py "$tree/root" 0.1 &
writer=$!
QT_QPA_PLATFORM=offscreen BLOCKTUNE_JOURNAL_DIR="$tree/journals" "$exe" "$tree/root" "$seconds"
