#!/usr/bin/env bash
# What the live monitor costs, in % of one core: user + system CPU time of
# the blocktune-cli process (/usr/bin/time) over its wall time, start-up
# (device scan, IRQ mapping) included.
#
#  1. A generated tree of 1,000 disks x 4 partitions (5,000 devices), every
#     device sampled at 10 Hz with --json for SECONDS, while
#     bench/monitor-diskstats-writer.py rewrites the tree's /proc/diskstats
#     every 100 ms so the figures move (its CPU is not counted).
#     Target <= 10 %, goal 5 %.
#  2. This machine, every device, at 20 Hz (--interval 50ms) for SECONDS.
#     Target < 1 %.
#  3. Memory: peak RSS of run 1, and the history the console keeps (one hour
#     at 10 Hz per series) asked for all 5,000 devices: bounded at 64 MiB.
#
# Usage: bench/monitor-cost.sh [SECONDS] [DISKS] [PARTS]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-20}
disks=${2:-1000}
parts=${3:-4}
cli=${BLOCKTUNE_CLI:-build/bin/blocktune-cli}
[ -x "$cli" ] || { echo "bench: build first (scripts/bootstrap.sh), or set BLOCKTUNE_CLI"; exit 1; }
[ -x /usr/bin/time ] || { echo "bench: needs /usr/bin/time (apt-get install time)"; exit 1; }

# tmpfs when there is one: 100,000 small files are written much faster there.
base=/dev/shm; [ -d "$base" ] && [ -w "$base" ] || base=/var/tmp
tree=$(mktemp -d "$base/blocktune-monitor-bench-XXXXXX")
writer=
cleanup() {
    [ -n "$writer" ] && kill "$writer" 2>/dev/null && wait "$writer" 2>/dev/null
    rm -rf "$tree"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
python3 scripts/mk-sysroot.py synth "$tree/root" --disks "$disks" --parts "$parts" >/dev/null
devices=$(grep -c . "$tree/root/proc/diskstats")
echo "tree: $disks disks x $parts partitions = $devices devices in /proc/diskstats"
# CPU time is inflated when other work competes for the cores (caches, VM
# steal): the load is printed so a reader can tell a quiet run from a busy one.
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"

# pct CPU_USER CPU_SYS WALL -> "12.34"
pct() { awk -v u="$1" -v s="$2" -v w="$3" 'BEGIN { printf "%.2f", (u + s) / w * 100 }'; }

# ---- 1. 5,000 devices at 10 Hz ------------------------------------------------
python3 bench/monitor-diskstats-writer.py "$tree/root" 0.1 &
writer=$!
sleep 1
/usr/bin/time -f "%U %S %e" -o "$tree/time1" \
    "$cli" --sysroot "$tree/root" monitor --interval 100ms --duration "${seconds}s" --json --stats \
    2>"$tree/stats1" | tail -n 1 >"$tree/last1.json"
kill "$writer"; wait "$writer" 2>/dev/null || true; writer=
read -r u1 s1 w1 <"$tree/time1"
moving=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))["devices"]
print("%d devices, %d of them reading" % (len(d), sum(1 for v in d.values() if v["read_bytes"] > 0)))
' "$tree/last1.json")
steady1=$(python3 -c 'import json,sys; s=json.load(open(sys.argv[1])); print("%d ticks, %.2f %% of a core in the sampling loop, mean tick %.2f ms, peak RSS %.1f MiB" % (s["ticks"], s["cpu_pct_of_one_core"], s["mean_tick_ms"], s["peak_rss_kib"]/1024))' "$tree/stats1")
echo
echo "1. $devices devices, --interval 100ms --json, ${seconds} s (last line: $moving)"
echo "   whole process: user ${u1} s + sys ${s1} s over ${w1} s wall"
echo "   $steady1"
echo "   MONITOR COST, 5,000 devices at 10 Hz: $(pct "$u1" "$s1" "$w1") % of one core (target <= 10 %, goal 5 %)"

# ---- 2. this machine at 20 Hz -------------------------------------------------
/usr/bin/time -f "%U %S %e" -o "$tree/time2" \
    "$cli" monitor --interval 50ms --duration "${seconds}s" --json --stats 2>"$tree/stats2" >/dev/null
read -r u2 s2 w2 <"$tree/time2"
live=$(python3 -c 'import json,sys; s=json.load(open(sys.argv[1])); print("%d devices, %d ticks" % (s["devices"], s["ticks"]))' "$tree/stats2")
echo
echo "2. this machine ($live), --interval 50ms --json, ${seconds} s"
echo "   whole process: user ${u2} s + sys ${s2} s over ${w2} s wall"
echo "   MONITOR COST, live machine at 20 Hz: $(pct "$u2" "$s2" "$w2") % of one core (target < 1 %)"

# ---- 3. memory ------------------------------------------------------------------
"$cli" --sysroot "$tree/root" monitor --interval 100ms --count 20 --json --history 1h --stats \
    2>"$tree/stats3" >/dev/null
python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))
print()
print("3. history asked for every series of all %d devices, 1 h at 10 Hz (%d points each):" % (s["devices"], s["history_points"]))
print("   kept %d series in %.1f MiB (series budget 64 MiB, plus the time axis), refused %d; peak RSS %.1f MiB"
      % (s["history_series"], s["history_bytes"] / 2**20, s["history_refused"], s["peak_rss_kib"] / 1024))
' "$tree/stats3"
