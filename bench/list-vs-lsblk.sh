#!/usr/bin/env bash
# `blocktune-cli list --json` against `lsblk -J` on the same generated tree
# of 1,000 disks with 4 partitions each (5,000 devices). Runs alternate
# (this machine is noisy); prints each tool's median wall time and the ratio
# blocktune / lsblk (target <= 1.0, goal <= 0.25). LAYOUT sys-block makes
# the tree without sys/class/block (enumerated through sys/block and the
# partitions under their disks); CLI names another blocktune-cli to time.
# Usage: bench/list-vs-lsblk.sh [DISKS] [PARTS] [ROUNDS] [LAYOUT] [CLI]
set -euo pipefail
cd "$(dirname "$0")/.."
disks=${1:-1000}
parts=${2:-4}
rounds=${3:-7}
layout=${4:-class-block}
cli=${5:-build/bin/blocktune-cli}
[ -x "$cli" ] || { echo "bench: build first (scripts/bootstrap.sh)"; exit 1; }

# tmpfs when there is one: 100,000 small files are written much faster there.
base=/dev/shm; [ -d "$base" ] && [ -w "$base" ] || base=/var/tmp
tree=$(mktemp -d "$base/blocktune-bench-XXXXXX")
trap 'rm -rf "$tree"' EXIT INT TERM
python3 scripts/mk-sysroot.py synth "$tree" --disks "$disks" --parts "$parts" --layout "$layout" >/dev/null
echo "tree ($layout): $disks disks x $parts partitions -> $("$cli" --sysroot "$tree" list | tail -n +2 | wc -l) devices"

ms() { local s e; s=$(date +%s%N); "$@" >/dev/null; e=$(date +%s%N); echo $(( (e - s) / 1000000 )); }
# One untimed run of each warms the page cache for both.
"$cli" --sysroot "$tree" list --json >/dev/null
lsblk --sysroot "$tree" -J >/dev/null

bt=(); lb=()
for ((i = 0; i < rounds; i++)); do
    bt+=("$(ms "$cli" --sysroot "$tree" list --json)")
    lb+=("$(ms lsblk --sysroot "$tree" -J)")
done
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
mb=$(median "${bt[@]}"); ml=$(median "${lb[@]}")
echo "blocktune-cli list --json: ${bt[*]} ms (median $mb ms)"
echo "lsblk -J:                  ${lb[*]} ms (median $ml ms)"
awk -v b="$mb" -v l="$ml" 'BEGIN { printf "ratio blocktune/lsblk: %.3f (target <= 1.0, goal <= 0.25)\n", b / l }'
