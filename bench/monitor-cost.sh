#!/usr/bin/env bash
# What the live monitor costs, in % of one core: user + system CPU time of
# the blocktune-cli process over wall time, from /proc/PID/schedstat once
# start-up is over, and from /usr/bin/time for the whole process (device
# scan and IRQ mapping included).
#
#  1. A generated tree of 1,000 disks x 4 partitions (5,000 devices), every
#     device sampled at 10 Hz with --json into a pipe, while
#     bench/monitor-diskstats-writer.py rewrites the tree's /proc/diskstats
#     every 100 ms so the figures move (its CPU is not counted). The steady
#     cost over SECONDS after start-up; target <= 3 % (issue 20).
#  2. This machine, every device, at 10 Hz, beside iostat -x on the same
#     devices over the same window.
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
    # the monitors and iostat of runs 1 and 2, when interrupted
    local p
    for p in $(jobs -p); do kill "$p" 2>/dev/null; done
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

# CPU time a running process has used, user + system, in ns: the first
# field of /proc/PID/schedstat (what utime + stime count, at ns rather than
# 10 ms resolution, which a process using 1 ms a second needs).
cpu_ns() { cut -d' ' -f1 "/proc/$1/schedstat"; }
# steady PID SECONDS -> "% of a core" the process used over the next SECONDS
steady() {
    local a b t0 t1
    a=$(cpu_ns "$1"); t0=$(date +%s%N)
    sleep "$2"
    b=$(cpu_ns "$1"); t1=$(date +%s%N)
    awk -v a="$a" -v b="$b" -v w=$((t1 - t0)) 'BEGIN { printf "%.2f", (b - a) / w * 100 }'
}
# The PID of the program a /usr/bin/time started.
child_of() {
    local c=
    for _ in $(seq 50); do c=$(pgrep -P "$1" | head -n 1) && [ -n "$c" ] && break; sleep 0.1; done
    echo "$c"
}

# ---- 1. 5,000 devices at 10 Hz ------------------------------------------------
# Start-up (the device scan of 5,000 devices, about 0.5 s of CPU here) is a
# one-off: the figure at 10 Hz is the steady cost, from 4 s after the start
# to 1 s before the end; the whole process, start-up included, beside it.
python3 bench/monitor-diskstats-writer.py "$tree/root" 0.1 &
writer=$!
sleep 1
mkfifo "$tree/out1"
tail -n 1 <"$tree/out1" >"$tree/last1.json" &
tailer=$!
/usr/bin/time -f "%U %S %e" -o "$tree/time1" \
    "$cli" --sysroot "$tree/root" monitor --interval 100ms --duration "$((seconds + 5))s" --json --stats \
    2>"$tree/stats1" >"$tree/out1" &
timer=$!
mon=$(child_of "$timer")
sleep 4
steady_tree=$(steady "$mon" "$seconds")
wait "$timer" "$tailer"
kill "$writer"; wait "$writer" 2>/dev/null || true; writer=
read -r u1 s1 w1 <"$tree/time1"
moving=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))["devices"]
print("%d devices, %d of them reading" % (len(d), sum(1 for v in d.values() if v["read_bytes"] > 0)))
' "$tree/last1.json")
steady1=$(python3 -c 'import json,sys; s=json.load(open(sys.argv[1])); print("%d ticks, %.2f %% of a core in the sampling loop (getrusage), mean tick %.2f ms, peak RSS %.1f MiB" % (s["ticks"], s["cpu_pct_of_one_core"], s["mean_tick_ms"], s["peak_rss_kib"]/1024))' "$tree/stats1")
echo
echo "1. $devices devices, --interval 100ms --json into a pipe, $((seconds + 5)) s (last line: $moving)"
echo "   whole process, start-up included: user ${u1} s + sys ${s1} s over ${w1} s wall = $(pct "$u1" "$s1" "$w1") %"
echo "   $steady1"
echo "   MONITOR COST, 5,000 devices at 10 Hz (steady, ${seconds} s): $steady_tree % of one core (target <= 3 %)"

# ---- 2. this machine, beside iostat -----------------------------------------------
# Both at once over the same window, both into a pipe. sysstat 12.6's iostat
# takes whole seconds only ("iostat -x 0.1" reads 0.1 as 0: one report and
# out), so iostat runs at 1 Hz and its cost per report is scaled to 10 Hz.
mkfifo "$tree/out2" "$tree/out3"
cat <"$tree/out2" >/dev/null &
cat2=$!
cat <"$tree/out3" >/dev/null &
cat3=$!
"$cli" monitor --interval 100ms --duration "$((seconds + 6))s" --json 2>/dev/null >"$tree/out2" &
mon=$!
iostat -x 1 "$((seconds + 6))" >"$tree/out3" &
io=$!
sleep 2
a_m=$(cpu_ns "$mon"); a_i=$(cpu_ns "$io"); t0=$(date +%s%N)
sleep "$seconds"
b_m=$(cpu_ns "$mon"); b_i=$(cpu_ns "$io"); t1=$(date +%s%N)
wait "$mon" "$io" "$cat2" "$cat3"
ndev=$(grep -c . /proc/diskstats)
read -r live_pct io_pct io10_pct < <(awk -v am="$a_m" -v bm="$b_m" -v ai="$a_i" -v bi="$b_i" -v w=$((t1 - t0)) \
    'BEGIN { printf "%.2f %.3f %.2f\n", (bm - am) / w * 100, (bi - ai) / w * 100, (bi - ai) / w * 1000 }')
echo
echo "2. this machine ($ndev devices in /proc/diskstats), ${seconds} s, side by side:"
echo "   blocktune-cli monitor --interval 100ms --json: $live_pct % of one core"
echo "   iostat -x 1: $io_pct % at 1 Hz, i.e. $io10_pct % at 10 Hz per report"
echo "   MONITOR COST, live machine at 10 Hz: blocktune $live_pct % vs iostat -x (scaled to 10 Hz) $io10_pct % of one core"
echo "   load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

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
