#!/usr/bin/env bash
# What the readahead probe (core/readahead/bpf/readahead.bpf.c) costs at a
# high readahead rate, in % of one core, normalised to 20,000 windows a
# second (issue 40: at most 2 %).
#
# The load: the bench's own buffered loop device over a file in /dev/shm
# (so the disk is not the limit) at a small read_ahead_kb (16 KiB: a window
# every 16 KiB read), read whole by `dd bs=16K` over and over, its page
# cache dropped between passes (dd iflag=nocache count=0: fadvise
# DONTNEED), so every pass reads ahead again and every page read ahead also
# leaves the cache. That runs every program of the probe: the window
# programs (tp_sync, tp_async on page_cache_sync_ra/async_ra, tp_order and
# tp_unbounded on the sizes) and the page-cache programs (on_add on
# mm_filemap_add_to_page_cache, on_get_pages on every read(2), on_delete on
# every page leaving the cache). The page-cache programs run for every
# page-cache insertion and read of the machine while the probe is loaded,
# whoever reads: their run time is in the figure.
# Two phases over the same load, each SECONDS after warm-up:
#  A. no probe;
#  B. `blocktune-cli readahead` (the probe loaded, reading its counters at
#     the end, as the CLI and a collector do).
# In B the programs' run time comes from bpf_stats: kernel.bpf_stats_enabled
# is set to 1 for the bench (put back on every path) and run_time_ns /
# run_cnt of the CLI's programs (bpftool prog show) are read at both ends.
# The windows a second are the probe's own count: the runs of tp_sync and
# tp_async (one a window started, every device of the machine). The cost =
# the programs' run time + the CLI's own CPU, as % of one core; normalised
# to 20,000 windows/s by the rate measured. The tracepoints' trampoline
# around each run is not in bpf_stats; the whole machine's busy time (B less
# A) and the loop's read rate in both phases are printed beside it, for
# scale (other work on the machine moves them by more than the probe).
# The cost line names the 1-minute load average at both ends of B: on a
# busy machine each run costs more (its maps' cache lines are gone).
#  C. (when bpftrace is there) bpf_stats's own share: with
#     kernel.bpf_stats_enabled=1 the kernel reads its clock before and after
#     each run, and about one read's time falls inside the run time it
#     keeps. An empty program (bpftrace, on page_cache_async_ra) over the
#     same load measures that floor; the line after the cost says how much
#     of the probe's run time it is. The cost line itself is bpf_stats's
#     figure as it is.
#
# Usage: sudo bench/readahead-cost.sh [SECONDS] [READ_AHEAD_KB]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10}
ra_kb=${2:-16}
idle_seconds=5
cli=${BLOCKTUNE_CLI:-build/bin/blocktune-cli}
target_rate=20000
[ "$(id -u)" = 0 ] || { echo "bench: needs root (loop device, BPF, kernel.bpf_stats_enabled)"; exit 1; }
[ -x "$cli" ] || { echo "bench: build first (scripts/bootstrap.sh), or set BLOCKTUNE_CLI"; exit 1; }
for tool in bpftool losetup dd python3; do
    command -v "$tool" >/dev/null || { echo "bench: needs $tool (scripts/bootstrap.sh installs it)"; exit 1; }
done

work=$(mktemp -d /dev/shm/blocktune-ra-bench-XXXXXX)
loop=
cli_pid=
load_pid=
bt_pid=
tracefs_mounted=
old_stats=$(sysctl -n kernel.bpf_stats_enabled)
old_ra=
cleanup() {
    [ -n "$cli_pid" ] && kill "$cli_pid" 2>/dev/null && wait "$cli_pid" 2>/dev/null
    [ -n "$bt_pid" ] && kill -INT "$bt_pid" 2>/dev/null && wait "$bt_pid" 2>/dev/null
    [ -n "$tracefs_mounted" ] && umount /sys/kernel/tracing
    [ -n "$load_pid" ] && kill "$load_pid" 2>/dev/null && wait "$load_pid" 2>/dev/null
    if [ -n "$loop" ]; then
        [ -n "$old_ra" ] && echo "$old_ra" >"/sys/block/${loop#/dev/}/queue/read_ahead_kb"
        losetup -d "$loop"
    fi
    sysctl -q -w kernel.bpf_stats_enabled="$old_stats"
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

size_mb=256
truncate -s "${size_mb}M" "$work/backing"
loop=$(losetup --find --show "$work/backing")
name=${loop#/dev/}
old_ra=$(cat "/sys/block/$name/queue/read_ahead_kb")
echo "$ra_kb" >"/sys/block/$name/queue/read_ahead_kb"
# Written once so the reads are of real pages of the file, not holes.
dd if=/dev/zero of="$loop" bs=1M count="$size_mb" status=none
dd if="$loop" iflag=nocache count=0 status=none
echo "device: $loop (buffered, ${size_mb} MiB file in /dev/shm), read_ahead_kb $ra_kb, dd bs=${ra_kb}K passes"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
sysctl -q -w kernel.bpf_stats_enabled=1

sectors_of() { awk -v n="$name" '$3 == n { print $6 }' /proc/diskstats; }
cpu_ns() { cut -d' ' -f1 "/proc/$1/schedstat"; }
machine_busy_ns() { awk -v hz="$(getconf CLK_TCK)" '$1 == "cpu" {
    printf "%.0f", ($2 + $3 + $4 + $7 + $8 + $9) / hz * 1e9; exit }' /proc/stat; }
# "id name run_time_ns run_cnt" of the BPF programs process PID holds (the
# prog_id of its descriptors' fdinfo), one a line.
prog_table() {
    local ids
    ids=$(grep -h '^prog_id:' /proc/"$1"/fdinfo/* 2>/dev/null | awk '{ print $2 }' | sort -u | tr '\n' ' ' || true)
    [ -n "$ids" ] || return 0
    bpftool prog show -j | python3 -c '
import json, sys
ids = set(int(i) for i in sys.argv[1:])
for p in json.load(sys.stdin):
    if p["id"] in ids:
        print(p["id"], p.get("name", p["id"]), p.get("run_time_ns", 0), p.get("run_cnt", 0))' $ids
}

start_load() {
    ( while :; do
        dd if="$loop" of=/dev/null bs="${ra_kb}K" status=none
        dd if="$loop" iflag=nocache count=0 status=none
      done ) &
    load_pid=$!
}

# phase LABEL [probe]: one line of figures into $result.
phase() {
    local label=$1 with_probe=${2:-}
    local t0 t1 s0 s1 m0 m1 c0=0 c1=0 table0="" table1=""
    if [ -n "$with_probe" ]; then
        "$cli" readahead "$name" --duration "$((seconds + 120))s" --json >/dev/null 2>"$work/cli.err" &
        cli_pid=$!
        # Loaded when its programs have stopped coming (nine on this kernel).
        local n=0 last=-1 stable=0
        for _ in $(seq 1 200); do
            n=$(prog_table "$cli_pid" | wc -l)
            if [ "$n" -gt 0 ] && [ "$n" = "$last" ]; then stable=$((stable + 1)); else stable=0; fi
            last=$n
            [ "$stable" -ge 5 ] && break
            kill -0 "$cli_pid" 2>/dev/null || { echo "bench: the probe did not load: $(cat "$work/cli.err")"; exit 1; }
            sleep 0.2
        done
        [ "$n" -gt 0 ] || { echo "bench: no programs of the probe found (no prog_id in /proc/$cli_pid/fdinfo)"; exit 1; }
    fi
    if [ -n "$with_probe" ]; then
        # The machine's own page-cache work with the probe loaded, before the
        # bench reads: it does not grow with the bench's windows.
        local i0 i1 ti0 ti1
        ti0=$(date +%s%N); i0=$(prog_table "$cli_pid")
        sleep "$idle_seconds"
        ti1=$(date +%s%N); i1=$(prog_table "$cli_pid")
        join <(cut -d' ' -f2- <<<"$i0" | sort) <(cut -d' ' -f2- <<<"$i1" | sort) | awk -v w=$((ti1 - ti0)) '
            { rt += $4 - $2; if ($1 ~ /^(tp|fe)_(sync|async)$/) windows += $5 - $3 }
            END { printf "IDLE %.3f %.0f\n", rt / w * 100, windows / (w / 1e9) }' >"$work/idle"
    fi
    start_load
    sleep 2
    [ -n "$cli_pid" ] && { c0=$(cpu_ns "$cli_pid"); table0=$(prog_table "$cli_pid"); }
    s0=$(sectors_of); m0=$(machine_busy_ns); t0=$(date +%s%N)
    [ -n "$with_probe" ] && load0=$(cut -d' ' -f1 /proc/loadavg)
    sleep "$seconds"
    t1=$(date +%s%N); m1=$(machine_busy_ns); s1=$(sectors_of)
    [ -n "$with_probe" ] && load1=$(cut -d' ' -f1 /proc/loadavg)
    [ -n "$cli_pid" ] && { c1=$(cpu_ns "$cli_pid"); table1=$(prog_table "$cli_pid"); }
    kill "$load_pid"; wait "$load_pid" 2>/dev/null || true; load_pid=
    dd if="$loop" iflag=nocache count=0 status=none
    if [ -n "$cli_pid" ]; then kill "$cli_pid"; wait "$cli_pid" 2>/dev/null || true; cli_pid=; fi
    local w=$((t1 - t0))
    local mbs busy
    mbs=$(awk -v s=$((s1 - s0)) -v w="$w" 'BEGIN { printf "%.0f", s * 512 / 1048576 / (w / 1e9) }')
    busy=$(awk -v b=$((m1 - m0)) -v w="$w" 'BEGIN { printf "%.1f", b / w * 100 }')
    result="$label|$mbs|$busy"
    if [ -n "$with_probe" ]; then
        # Per program: runs/s, ns/run, % of one core; then the totals.
        join <(cut -d' ' -f2- <<<"$table0" | sort) <(cut -d' ' -f2- <<<"$table1" | sort) >"$work/progs"
        awk -v w="$w" -v cli=$((c1 - c0)) -v target="$target_rate" '
            { rt = $4 - $2; cnt = $5 - $3; total += rt
              if ($1 == "tp_sync" || $1 == "tp_async" || $1 == "fe_sync" || $1 == "fe_async") windows += cnt
              line[NR] = sprintf("  %-14s %10.0f runs/s  %6.0f ns/run  %6.3f %% of one core", $1, cnt / (w / 1e9), cnt ? rt / cnt : 0, rt / w * 100)
              name[NR] = $1; cost[NR] = rt }
            END {
              rate = windows / (w / 1e9)
              for (i = 1; i <= NR; i++) printf "%s  %5.2f %% at %d windows/s\n", line[i], rate ? cost[i] / w * 100 * target / rate : 0, target
              progs = total / w * 100; mine = cli / w * 100
              printf "WINDOWS %.0f\nPROGS %.3f\nCLI %.3f\n", rate, progs, mine
            }' "$work/progs" >"$work/figures"
    fi
}

# The 1-minute load average at both ends of B's measurement: the per-run
# times grow with it (cache misses, other work between a program's steps).
load0=
load1=
phase "A no probe"; A=$result
phase "B readahead probe" probe; B=$result
echo
echo "phase                 loop MB/s  machine busy %"
for line in "$A" "$B"; do
    IFS='|' read -r label mbs busy <<<"$line"
    printf "%-20s %10s %15s\n" "$label" "$mbs" "$busy"
done
echo
echo "programs (B), runs/s, ns/run, % of one core at the measured rate and normalised:"
grep '^  ' "$work/figures"
rate=$(awk '$1 == "WINDOWS" { print $2 }' "$work/figures")
progs=$(awk '$1 == "PROGS" { print $2 }' "$work/figures")
mine=$(awk '$1 == "CLI" { print $2 }' "$work/figures")
read -r _ idle_pct idle_rate <"$work/idle"
IFS='|' read -r _ _ busyA <<<"$A"
IFS='|' read -r _ _ busyB <<<"$B"
awk -v rate="$rate" -v p="$progs" -v c="$mine" -v target="$target_rate" -v ba="$busyA" -v bb="$busyB" -v kb="$ra_kb" \
    -v ip="$idle_pct" -v ir="$idle_rate" -v la="$load0" -v lb="$load1" -v cores="$(nproc)" 'BEGIN {
    total = p + c
    norm = rate ? total * target / rate : 0
    printf "\nwindows counted by the probe: %.0f/s (%d KiB windows)\n", rate, kb
    printf "probe at that rate: programs %.2f %% + blocktune-cli %.2f %% = %.2f %% of one core\n", p, c, total
    printf "READAHEAD PROBE COST at %d windows/s: %.2f %% of one core (target at most 2 %%), measured at load average %s-%s on %d cores\n",
           target, norm, la < lb ? la : lb, la < lb ? lb : la, cores
    # The same with the machine'"'"'s own work apart: what the bench'"'"'s windows
    # added per window, times the target, plus the work that was there anyway.
    per = (rate > ir) ? (p - ip) / 100 * 1e9 / (rate - ir) : 0
    printf "without the bench'"'"'s reads (%.0f s before them): programs %.2f %% at %.0f windows/s (the machine'"'"'s own work)\n", 5, ip, ir
    printf "per window of the bench'"'"'s reads: %.0f ns of programs; at %d windows/s: %.2f %% + that %.2f %% + blocktune-cli %.2f %% = %.2f %% of one core\n",
           per, target, per * target / 1e9 * 100, ip, c, per * target / 1e9 * 100 + ip + c
    printf "cross-check, whole machine busy: B %.1f %% - A %.1f %% = %.1f %% of one core (other work on the machine moves this)\n",
           bb, ba, bb - ba
}'

# C: bpf_stats's floor, an empty program's measured run time over the same load.
if command -v bpftrace >/dev/null; then
    # bpftrace's tracepoints read their format from tracefs, which a machine
    # without systemd has not mounted (the probe needs only BTF).
    if [ ! -d /sys/kernel/tracing/events ] && mount -t tracefs nodev /sys/kernel/tracing; then tracefs_mounted=1; fi
    bpftrace -e 'tracepoint:readahead:page_cache_async_ra {}' >"$work/bt.out" 2>&1 &
    bt_pid=$!
    for _ in $(seq 1 300); do
        grep -q Attaching "$work/bt.out" && break
        kill -0 "$bt_pid" 2>/dev/null || break
        sleep 0.2
    done
    if grep -q Attaching "$work/bt.out"; then
        start_load
        sleep 2
        f0=$(prog_table "$bt_pid")
        sleep "$seconds"
        f1=$(prog_table "$bt_pid")
        kill "$load_pid"; wait "$load_pid" 2>/dev/null || true; load_pid=
        kill -INT "$bt_pid"; wait "$bt_pid" 2>/dev/null || true; bt_pid=
        runs_per_window=$(awk '{ n += $5 - $3 } $1 ~ /^(tp|fe)_(sync|async)$/ { w += $5 - $3 } END { if (w) printf "%.2f", n / w }' "$work/progs")
        join <(cut -d' ' -f2- <<<"$f0" | sort) <(cut -d' ' -f2- <<<"$f1" | sort) | awk -v r="$runs_per_window" \
            -v rate="$rate" -v p="$progs" -v target="$target_rate" '
            { rt += $4 - $2; cnt += $5 - $3 }
            END {
              if (!cnt) { print "bpf_stats floor: the empty program did not run"; exit }
              floor = rt / cnt; per = rate ? p / 100 * 1e9 / rate : 0
              printf "bpf_stats floor: an empty program on page_cache_async_ra measured %.0f ns a run over the same load (bpftrace); the probe runs %.2f programs a window, so about %.0f of its %.0f ns a window are bpf_stats'"'"'s own clock reads (%.2f %% of one core at %d windows/s), which it does not cost with bpf_stats off; the tracepoints'"'"' dispatch, which bpf_stats does not measure, it costs on top\n",
                     floor, r, floor * r, per, floor * r * target / 1e9 * 100, target
            }'
    else
        echo "bpf_stats floor: bpftrace did not attach: $(head -c 300 "$work/bt.out")"
        kill "$bt_pid" 2>/dev/null; wait "$bt_pid" 2>/dev/null || true; bt_pid=
    fi
fi
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
