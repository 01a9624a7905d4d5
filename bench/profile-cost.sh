#!/usr/bin/env bash
# What a profile costs on a big machine: `profile apply --dry-run` (scan,
# resolution of every rule against every device, the plan of every write)
# and `profile verify` of the backup-target preset on a generated tree of
# 1,000 disks x 4 partitions (5,000 devices, every disk rotational, so each
# of the preset's disk settings applies to 1,000 disks), against
# `list --json --no-probe`, which only scans. Prints the median wall time of
# each over ROUNDS alternated runs. Nothing is written (dry run, verify).
# Usage: bench/profile-cost.sh [DISKS] [PARTS] [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
disks=${1:-1000}
parts=${2:-4}
rounds=${3:-7}
cli=build/bin/blocktune-cli
[ -x "$cli" ] || { echo "bench: build first (scripts/bootstrap.sh)"; exit 1; }

base=/dev/shm; [ -d "$base" ] && [ -w "$base" ] || base=/var/tmp
tree=$(mktemp -d "$base/blocktune-bench-XXXXXX")
state=$(mktemp -d "$base/blocktune-bench-state-XXXXXX")
trap 'rm -rf "$tree" "$state"' EXIT INT TERM
export XDG_CONFIG_HOME=$state BLOCKTUNE_JOURNAL_DIR=$state
python3 scripts/mk-sysroot.py synth "$tree" --disks "$disks" --parts "$parts" >/dev/null
changes=$("$cli" --sysroot "$tree" profile apply backup-target --dry-run --json | python3 -c \
    'import json,sys; print(len(json.load(sys.stdin)["report"]["changes"]))')
echo "tree: $disks disks x $parts partitions; backup-target plans $changes writes"

ms() { local s e; s=$(date +%s%N); "$@" >/dev/null 2>&1 || true; e=$(date +%s%N); echo $(( (e - s) / 1000000 )); }
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
"$cli" --sysroot "$tree" list --json --no-probe >/dev/null # warm the page cache

scan=(); dry=(); ver=()
for ((i = 0; i < rounds; i++)); do
    scan+=("$(ms "$cli" --sysroot "$tree" list --json --no-probe)")
    dry+=("$(ms "$cli" --sysroot "$tree" profile apply backup-target --dry-run)")
    ver+=("$(ms "$cli" --sysroot "$tree" profile verify backup-target)")
done
echo "list --json --no-probe      median $(median "${scan[@]}") ms (${scan[*]})"
echo "profile apply --dry-run     median $(median "${dry[@]}") ms (${dry[*]})"
echo "profile verify              median $(median "${ver[@]}") ms (${ver[*]})"
