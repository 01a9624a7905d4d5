#!/usr/bin/env bash
# Monitor through the agent: 100 devices of a generated tree (25 disks x 3
# partitions) streamed at 10 Hz by `blocktune-cli agent` over a pipe, the
# way ssh carries it, while bench/monitor-diskstats-writer.py rewrites the
# tree's /proc/diskstats every 100 ms. Prints the ticks that arrived (all
# must), the lag behind the agent's sample clock (target < 200 ms on
# loopback) and the agent's CPU (target < 3 % of one core). ssh's own
# encryption (in ssh and sshd, not the agent) is not counted.
#
# Usage: bench/monitor-remote.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}
cli=${BLOCKTUNE_CLI:-build/bin/blocktune-cli}
[ -x "$cli" ] || { echo "bench: build first (scripts/bootstrap.sh), or set BLOCKTUNE_CLI"; exit 1; }
base=/dev/shm; [ -d "$base" ] && [ -w "$base" ] || base=/var/tmp
tree=$(mktemp -d "$base/blocktune-remote-bench-XXXXXX")
writer=
cleanup() {
    [ -n "$writer" ] && kill "$writer" 2>/dev/null && wait "$writer" 2>/dev/null
    rm -rf "$tree"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
python3 scripts/mk-sysroot.py synth "$tree/root" --disks 25 --parts 3 >/dev/null
echo "tree: $(grep -c . "$tree/root/proc/diskstats") devices in /proc/diskstats; 10 Hz for ${seconds} s"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
python3 bench/monitor-diskstats-writer.py "$tree/root" 0.1 &
writer=$!
sleep 1
python3 bench/monitor_remote_client.py 100 $((seconds * 10)) -- "$cli" --sysroot "$tree/root" agent
