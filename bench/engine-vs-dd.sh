#!/bin/bash
# Is blocktune's read engine as steady as dd? Ten interleaved rounds, both
# pinned to one CPU, on the same direct-I/O loop device, each run cold:
#
#   sudo bench/engine-vs-dd.sh [--rounds 10] [--cpu 1] [--size 512M] [--bs 64K] [--ra 128]
#                              [--hold-reporting] [--cli PATH]
#
# Per round: blocktune-cli test seq DEV --bs BS --size SIZE --repeat 1 (it
# drops the device's cache itself), then blockdev --flushbufs and dd
# if=DEV bs=BS count=SIZE/BS. Prints both figures, their ratio to dd's
# median, and how much memory the guest handed back to its host during each
# run (free page reporting, /sys/module/page_reporting/parameters/reported_kib,
# where the kernel has it). Targets: every blocktune run within 10% of dd's
# median, median ratio >= 0.95 (exit 1 when missed).
#
# What this found on the 2-core Firecracker VM (2026-12-02): dd and
# blocktune alike fall into a slow mode (350-600 MB/s against 1.0-1.3 GB/s)
# in some runs, mid-run, after a stall of ~70 ms. The runs that slow down are
# the ones during which the guest reports freed pages to the host: the cache
# a cold start drops goes back to the host, and refilling it faults the
# pages back in. With reporting held off (page_reporting_order above the
# largest order), eight rounds gave blocktune 959-1149 MB/s and dd 1.1-1.2
# GB/s, no slow mode in either. Unpinned workers of the loop device that land
# on the reader's CPU halve a run as well. --hold-reporting sets
# page_reporting_order to 11 for the bench and puts it back on every exit
# path; nothing else on the machine is changed.
# 2026-12-04: blocktune's JSON is read after its run: a python3 started in
# the pipe beside the run takes the other CPU, the one the loop device's
# worker needs (an earlier session measured 1.4 GB/s against 1.9 with the
# JSON written to a file first). The 25% gap to dd measured until then did
# not come back today with either form of the bench (the old one: median
# ratio 1.01). 30 rounds with --hold-reporting gave blocktune 1074-1300 MB/s,
# dd 1099-1319, median ratio 0.99, worst blocktune run 10.1% from dd's
# median and worst dd run 11.7% from it: the engine is as steady as dd, and
# what is left is the machine's noise, which dd shows as well.
# The loop device is detached and its file removed on every exit path.
set -euo pipefail

rounds=10
cpu=1
size=512M
bs=64K
ra=128
hold=0
here=$(cd "$(dirname "$0")/.." && pwd)
cli=${BLOCKTUNE_CLI:-$here/build/bin/blocktune-cli}

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
    case "$1" in
        --rounds) rounds=$2; shift 2 ;;
        --cpu) cpu=$2; shift 2 ;;
        --size) size=$2; shift 2 ;;
        --bs) bs=$2; shift 2 ;;
        --ra) ra=$2; shift 2 ;;
        --hold-reporting) hold=1; shift ;;
        --cli) cli=$2; shift 2 ;;
        -h|--help) usage; exit 0 ;;
        *) echo "engine-vs-dd: unknown option '$1' (see --help)" >&2; exit 2 ;;
    esac
done
[ -x "$cli" ] || { echo "engine-vs-dd: $cli is not built (ninja -C build, or --cli PATH)" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "engine-vs-dd: needs root (loop devices)" >&2; exit 2; }
[ "$rounds" -ge 3 ] 2>/dev/null || { echo "engine-vs-dd: --rounds must be at least 3" >&2; exit 2; }
taskset -c "$cpu" true 2>/dev/null || { echo "engine-vs-dd: --cpu $cpu is not a CPU here (0-$(( $(nproc) - 1 )))" >&2; exit 2; }

bytes=$(numfmt --from=iec "$size")
bsb=$(numfmt --from=iec "$bs")
count=$(( bytes / bsb ))
reported=/sys/module/page_reporting/parameters/reported_kib
order=/sys/module/page_reporting/parameters/page_reporting_order
img=$(mktemp /var/tmp/blocktune-bench-XXXXXX)
# The runs are the bench's, not the user's: kept in a history of its own.
export BLOCKTUNE_HISTORY_DB=$img.history.sqlite
loop=
saved_order=
cleanup() {
    [ -n "$saved_order" ] && echo "$saved_order" > "$order"
    [ -n "$loop" ] && losetup -d "$loop" 2>/dev/null
    rm -f "$img" "$BLOCKTUNE_HISTORY_DB" "$BLOCKTUNE_HISTORY_DB-journal"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

head -c "$bytes" /dev/urandom > "$img"
loop=$(losetup --direct-io=on -f --show "$img")
name=$(basename "$loop")
echo none > "/sys/block/$name/queue/scheduler" 2>/dev/null || true
echo "$ra" > "/sys/block/$name/queue/read_ahead_kb" # our own loop device: the issue's 128 KiB by default
if [ "$hold" = 1 ]; then
    [ -w "$order" ] || { echo "engine-vs-dd: --hold-reporting: this kernel has no $order" >&2; exit 2; }
    saved_order=$(cat "$order")
    echo 11 > "$order"
fi
rep() { [ -r "$reported" ] && cat "$reported" || echo 0; }

echo "device $loop ($size, direct I/O, scheduler none, readahead $(cat /sys/block/$name/queue/read_ahead_kb) KiB), pinned to CPU $cpu$([ "$hold" = 1 ] && echo ", free page reporting held off")"
printf '%5s %14s %10s %14s %10s\n' round "blocktune MB/s" "reported" "dd MB/s" "reported"
# One round of each first, not counted (fio's ramp_time): the first large
# read after the image is written or the machine sat idle runs at about half
# speed here, whichever tool makes it (a C reader of ten lines as well).
taskset -c "$cpu" "$cli" test seq "$loop" --bs "$bs" --size "$size" --repeat 1 >/dev/null
blockdev --flushbufs "$loop"
taskset -c "$cpu" dd if="$loop" of=/dev/null bs="$bs" count="$count" 2>/dev/null
bt=() dd_=()
for r in $(seq "$rounds"); do
    r0=$(rep)
    # The JSON is read after the run: a python3 starting in the pipe beside
    # the reader took the CPU the loop device's worker needs (1.4 GB/s against
    # 1.9 with the same JSON written to a file first).
    out=$(taskset -c "$cpu" "$cli" test seq "$loop" --bs "$bs" --size "$size" --repeat 1 --json)
    r1=$(rep)
    b=$(python3 -c 'import json,sys; print(round(json.load(sys.stdin)["runs"][0]["mb_per_s"]))' <<<"$out")
    blockdev --flushbufs "$loop"
    r2=$(rep)
    d=$(taskset -c "$cpu" dd if="$loop" of=/dev/null bs="$bs" count="$count" 2>&1 | tail -1 |
        awk '{printf "%d", $1 / $(NF-3) / 1e6}')
    r3=$(rep)
    bt+=("$b"); dd_+=("$d")
    printf '%5s %14s %8s KiB %14s %8s KiB\n' "$r" "$b" "$((r1 - r0))" "$d" "$((r3 - r2))"
done
python3 - "${bt[*]}" "${dd_[*]}" <<'EOF'
import statistics, sys
bt = [float(x) for x in sys.argv[1].split()]
dd = [float(x) for x in sys.argv[2].split()]
m = statistics.median(dd)
ratios = [b / d for b, d in zip(bt, dd)]
worst = max(abs(b - m) / m for b in bt)
# dd against its own median: the machine's run-to-run noise, for scale.
dd_worst = max(abs(d - m) / m for d in dd)
print(f"dd median {m:.0f} MB/s; blocktune median {statistics.median(bt):.0f} MB/s")
print(f"median ratio blocktune/dd {statistics.median(ratios):.2f}; worst blocktune run {worst * 100:.1f}% from dd's median "
      f"(worst dd run {dd_worst * 100:.1f}% from it)")
ok = worst <= 0.10 and statistics.median(ratios) >= 0.95
print("target met" if ok else "target missed (every run within 10% of dd's median, median ratio >= 0.95)")
sys.exit(0 if ok else 1)
EOF
