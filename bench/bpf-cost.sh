#!/usr/bin/env bash
# What the BPF latency probe costs while a loop device serves about 50,000
# requests a second, in % of one core (issue 20: target under 3 %).
#
# The bench's own direct-I/O loop device (a sparse file in /var/tmp,
# losetup --direct-io=on) is read by fio: 4 KiB O_DIRECT random reads,
# libaio, held at IOPS by --rate_iops. Three phases over the same load:
#  A. no monitor;
#  B. blocktune-cli monitor DEV --interval 100ms --json (diskstats only);
#  C. blocktune-cli monitor DEV --interval 100ms --json --latency (the probe);
#  D. for scale, where libbpf-tools is installed: biolatency -d DEV, whose
#     programs do the same kind of work (a stamp per request at issue, a
#     log2 histogram at completion); its "monitor %" is biolatency's CPU.
# Each phase measures SECONDS after 3 s of warm-up:
#  - the requests the device completed (its /proc/diskstats), as a rate;
#  - the monitor's CPU time, user + system (/proc/PID/schedstat);
#  - in C, the probe's programs' run time: kernel.bpf_stats_enabled is set
#    to 1 for the bench (and put back on every path), and run_time_ns /
#    run_cnt of the programs the monitor loaded (bpftool prog show) are read
#    at both ends. That is the programs' own time; the tracepoint's
#    trampoline around each run is not in it, so fio's CPU per request is
#    printed for each phase too (with other work on the machine it moves by
#    more than the probe costs).
# The probe's cost = its programs' run time + what the monitor uses more
# with --latency than without. Each program's runs and ns a run are printed
# as well.
# Cross-check, with the tracepoints' own cost in it: the whole machine's
# busy CPU time (/proc/stat: all but idle and iowait) in C less in B. Other
# work on the machine moves it by more than the probe costs, so it is
# printed beside the figure, not as it.
#
# Usage: sudo bench/bpf-cost.sh [SECONDS] [IOPS]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-20}
iops=${2:-50000}
cli=${BLOCKTUNE_CLI:-build/bin/blocktune-cli}
[ "$(id -u)" = 0 ] || { echo "bench: needs root (loop device, BPF, kernel.bpf_stats_enabled)"; exit 1; }
[ -x "$cli" ] || { echo "bench: build first (scripts/bootstrap.sh), or set BLOCKTUNE_CLI"; exit 1; }
for tool in fio bpftool losetup; do
    command -v "$tool" >/dev/null || { echo "bench: needs $tool (scripts/bootstrap.sh installs it)"; exit 1; }
done

work=$(mktemp -d /var/tmp/blocktune-bpf-bench-XXXXXX)
loop=
mon=
fiopid=
old_stats=$(sysctl -n kernel.bpf_stats_enabled)
cleanup() {
    [ -n "$mon" ] && kill "$mon" 2>/dev/null && wait "$mon" 2>/dev/null
    [ -n "$fiopid" ] && kill "$fiopid" 2>/dev/null && wait "$fiopid" 2>/dev/null
    [ -n "$loop" ] && losetup -d "$loop"
    sysctl -q -w kernel.bpf_stats_enabled="$old_stats"
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

truncate -s 1G "$work/backing"
loop=$(losetup --find --show --direct-io=on "$work/backing")
name=${loop#/dev/}
echo "device: $loop (direct I/O: $(cat "/sys/block/$name/loop/dio")), 1 GiB sparse file in /var/tmp"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
sysctl -q -w kernel.bpf_stats_enabled=1

reads_of() { awk -v n="$name" '$3 == n { print $4 + $8 }' /proc/diskstats; }
cpu_ns() { cut -d' ' -f1 "/proc/$1/schedstat"; }
# utime + stime of a whole process (all threads), in ns
proc_cpu_ns() { awk -v hz="$(getconf CLK_TCK)" '{ printf "%.0f", ($14 + $15) / hz * 1e9 }' "/proc/$1/stat"; }
prog_ids() { bpftool prog show -j | python3 -c '
import json, sys
print(" ".join(str(p["id"]) for p in json.load(sys.stdin) if p.get("type") == "tracing"))'; }
# busy CPU time of the whole machine, in ns
machine_busy_ns() { awk -v hz="$(getconf CLK_TCK)" '$1 == "cpu" {
    printf "%.0f", ($2 + $3 + $4 + $7 + $8 + $9) / hz * 1e9; exit }' /proc/stat; }
# "name run_time_ns run_cnt" of each of the programs IDS, one a line
prog_table() { bpftool prog show -j | python3 -c '
import json, sys
ids = set(int(i) for i in sys.argv[1:])
for p in json.load(sys.stdin):
    if p["id"] in ids:
        print(p.get("name", p["id"]), p.get("run_time_ns", 0), p.get("run_cnt", 0))' "$@"; }
# "run_time_ns run_cnt" summed over the programs IDS
prog_stats() { bpftool prog show -j | python3 -c '
import json, sys
ids = set(int(i) for i in sys.argv[1:])
rt = cnt = 0
for p in json.load(sys.stdin):
    if p["id"] in ids:
        rt += p.get("run_time_ns", 0); cnt += p.get("run_cnt", 0)
print(rt, cnt)' "$@"; }

start_fio() {
    fio --name=bpf-cost --filename="$loop" --rw=randread --bs=4k --direct=1 --ioengine=libaio \
        --iodepth=32 --numjobs=1 --thread --rate_iops="$iops" --time_based --runtime="$((seconds + 60))" \
        --output="$work/fio.txt" 2>"$work/fio.err" &
    fiopid=$!
}

# phase LABEL [MONITOR ARGS...]: one line of figures into $result. Not in a
# $(subshell): the EXIT trap must see $mon and $fiopid.
phase() {
    local label=$1; shift
    local before_ids="" ids="" a_m=0 b_m=0
    if [ $# -gt 0 ]; then
        before_ids=$(prog_ids)
        if [ "$1" = biolatency ]; then
            /usr/sbin/biolatency -d "$name" >/dev/null 2>"$work/mon.err" &
        else
            "$cli" monitor "$name" --interval 100ms --json "$@" >/dev/null 2>"$work/mon.err" &
        fi
        mon=$!
        sleep 2
        if [[ " $* " == *" --latency "* || "$1" = biolatency ]]; then
            for id in $(prog_ids); do [[ " $before_ids " == *" $id "* ]] || ids="$ids $id"; done
            [ -n "$ids" ] || { echo "bench: the probe did not load: $(cat "$work/mon.err")"; exit 1; }
        fi
    fi
    start_fio
    sleep 3
    kill -0 "$fiopid" 2>/dev/null || { echo "bench: fio stopped: $(cat "$work/fio.err" "$work/fio.txt")"; exit 1; }
    local r0 f0 t0 r1 f1 t1 m0 m1 p0="0 0" p1="0 0" table0="" table1=""
    [ -n "$mon" ] && a_m=$(cpu_ns "$mon")
    [ -n "$ids" ] && { p0=$(prog_stats $ids); table0=$(prog_table $ids); }
    r0=$(reads_of); f0=$(proc_cpu_ns "$fiopid"); t0=$(date +%s%N); m0=$(machine_busy_ns)
    sleep "$seconds"
    m1=$(machine_busy_ns)
    [ -n "$mon" ] && b_m=$(cpu_ns "$mon")
    [ -n "$ids" ] && { p1=$(prog_stats $ids); table1=$(prog_table $ids); }
    r1=$(reads_of); f1=$(proc_cpu_ns "$fiopid"); t1=$(date +%s%N)
    if [ -n "$ids" ]; then
        programs="$programs$(join <(sort <<<"$table0") <(sort <<<"$table1") | awk -v label="$label" -v r=$((r1 - r0)) '{
            cnt = $5 - $3; rt = $4 - $2
            printf "  %-20s %-16s %10d runs  %6.0f ns/run  %5.2f runs/request\n", label, $1, cnt, cnt ? rt / cnt : 0, cnt / (r ? r : 1)
        }')
"
    fi
    kill -INT "$fiopid"; wait "$fiopid" || true; fiopid=
    if [ -n "$mon" ]; then kill "$mon"; wait "$mon" 2>/dev/null || true; mon=; fi
    result=$(awk -v label="$label" -v r=$((r1 - r0)) -v f=$((f1 - f0)) -v w=$((t1 - t0)) -v m=$((b_m - a_m)) \
        -v p0="$p0" -v p1="$p1" -v busy=$((m1 - m0)) 'BEGIN {
        split(p0, a, " "); split(p1, b, " ")
        rt = b[1] - a[1]; cnt = b[2] - a[2]
        printf "%s|%.0f|%.3f|%.2f|%.3f|%d|%.0f|%.2f|%.1f\n", label, r / w * 1e9, m / w * 100, f / r / 1e3,
               rt / w * 100, cnt, cnt ? rt / cnt : 0, cnt / (r ? r : 1), busy / w * 100
    }')
}

programs=
phase "A no monitor"; A=$result
phase "B monitor" --stats; B=$result
phase "C monitor --latency" --latency; C=$result
D=
if [ -x /usr/sbin/biolatency ]; then
    phase "D biolatency -d DEV" biolatency; D=$result
fi
echo
echo "phase                   requests/s  monitor %  fio us/request  BPF %   BPF runs  ns/run  runs/request  machine %"
for line in "$A" "$B" "$C" ${D:+"$D"}; do
    IFS='|' read -r label rate monpct fious bpfpct runs nsrun perreq busy <<<"$line"
    printf "%-22s %11s %10s %15s %7s %10s %7s %13s %10s\n" "$label" "$rate" "$monpct" "$fious" "$bpfpct" "$runs" "$nsrun" "$perreq" "$busy"
done
echo
echo "programs:"
printf "%s" "$programs"
IFS='|' read -r _ rateC monC _ bpfC _ _ _ busyC <<<"$C"
IFS='|' read -r _ rateB monB _ _ _ _ _ busyB <<<"$B"
awk -v b="$bpfC" -v mc="$monC" -v mb="$monB" -v rate="$rateC" -v bc="$busyC" -v bb="$busyB" -v rb="$rateB" 'BEGIN {
    extra = mc - mb; if (extra < 0) extra = 0
    printf "\nBPF PROBE COST at %.0f requests/s: programs %.2f %% + monitor --latency over plain monitor %.2f %% = %.2f %% of one core (target < 3 %%)\n",
           rate, b, extra, b + extra
    printf "monitor --latency process alone: %.2f %% of one core\n", mc
    printf "cross-check, whole machine busy: C %.1f %% - B %.1f %% = %.1f %% of one core (B at %.0f requests/s; other work on the machine moves this)\n",
           bc, bb, bc - bb, rb
}'
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
