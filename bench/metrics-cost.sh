#!/usr/bin/env bash
# What `blocktune-cli metrics` costs on a big machine: a generated tree of
# 1,000 disks x 4 partitions (5,000 devices; scripts/mk-sysroot.py synth),
# with the backup-target profile applied to a copy of it so drift is
# computed for every disk. Prints the median wall time and the median CPU
# time of the process (user + system, from wait4; wall time inflates when
# other work shares the cores) over ROUNDS runs (target: under 1 s) and the
# size of what it printed. Nothing on this
# machine is written (the tree is a scratch copy, the journal folder too).
# Usage: bench/metrics-cost.sh [DISKS] [PARTS] [ROUNDS]
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
"$cli" --sysroot "$tree" profile apply backup-target >/dev/null 2>&1 || { echo "bench: profile apply failed"; exit 1; }

# "WALL_MS CPU_MS" of one run of the command (output discarded).
ms() {
    python3 -c 'import os, sys, time
t = time.monotonic()
pid = os.fork()
if pid == 0:
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1); os.dup2(null, 2)
    os.execv(sys.argv[1], sys.argv[1:])
_, _, ru = os.wait4(pid, 0)
print(round((time.monotonic() - t) * 1000), round((ru.ru_utime + ru.ru_stime) * 1000))' "$@"
}
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
"$cli" --sysroot "$tree" metrics >/dev/null # warm the page cache
lines=$("$cli" --sysroot "$tree" metrics | grep -vc '^#')
drift=$("$cli" --sysroot "$tree" metrics | grep -c '^blocktune_profile_drift{' || true)

runs=(); runs_cpu=(); scan=(); scan_cpu=()
for ((i = 0; i < rounds; i++)); do
    read -r w c < <(ms "$cli" --sysroot "$tree" metrics); runs+=("$w"); runs_cpu+=("$c")
    read -r w c < <(ms "$cli" --sysroot "$tree" list --json --no-probe); scan+=("$w"); scan_cpu+=("$c")
done
echo "tree: $disks disks x $parts partitions; metrics prints $lines samples ($drift drift series)"
echo "metrics                     median $(median "${runs[@]}") ms wall (${runs[*]}), $(median "${runs_cpu[@]}") ms CPU (${runs_cpu[*]}) (target: under 1000 ms)"
echo "list --json --no-probe      median $(median "${scan[@]}") ms wall (${scan[*]}), $(median "${scan_cpu[@]}") ms CPU (${scan_cpu[*]}) (the scan alone)"
