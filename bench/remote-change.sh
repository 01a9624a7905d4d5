#!/usr/bin/env bash
# One readahead change in a window on a 5,000-device host through ssh (a
# private sshd on 127.0.0.1): a generated tree of 1250 disks x 3 partitions
# served by the agent. Prints click to value shown (target < 300 ms) and,
# beside it, the whole-host record and rescan each change cost before the
# mirror followed only the touched queues. Root (sshd).
# Usage: sudo bench/remote-change.sh [CHANGES]
set -euo pipefail
cd "$(dirname "$0")/.."
changes=${1:-20}
exe=build/bench/bench-remote-change
[ -x "$exe" ] || { echo "bench: build first (scripts/bootstrap.sh with -DBLOCKTUNE_BUILD_TESTS=ON)"; exit 1; }
base=/dev/shm; [ -d "$base" ] && [ -w "$base" ] || base=/var/tmp
tree=$(mktemp -d "$base/blocktune-remote-change-XXXXXX")
trap 'rm -rf "$tree"' EXIT
trap 'exit 130' INT TERM
python3 scripts/mk-sysroot.py synth "$tree/root" --disks 1250 --parts 3 >/dev/null
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
BLOCKTUNE_JOURNAL_DIR="$tree/journals" "$exe" "$tree/root" "$changes"
