#!/usr/bin/env bash
# Runs the test suite beside neighbours, as it will meet them on a shared or
# busy machine, to show that no test depends on the machine's speed or on a
# quiet machine (issue 39):
#   cpu    one CPU burner per core, at normal priority (a busy loop each)
#   loops  a process that every second attaches a loop device over a file of
#          its own and detaches the one it attached before (over files of
#          16 and 64 MiB, the sizes the tests use: a name a test just let go
#          is taken again at once, by a device of the same size)
#   both   the two at once
# Each run is the suite as scripts/run-tests.sh runs it: the tests labelled
# "measures" first, one at a time, then the rest, as many at once as there
# are cores; both between suite_guard_before and suite_guard_after. Prints
# each run's result and time, and a summary; exits 1 when a run failed.
# Needs a built build folder (scripts/bootstrap.sh -DBLOCKTUNE_BUILD_TESTS=ON,
# or build-asan/ as scripts/run-tests.sh configures it) and, for the tests
# that need it and for the loop neighbour, root.
#   scripts/run-with-neighbours.sh [--build DIR] [--runs N] [--only REGEX] cpu|loops|both [...] [-- COMMAND...]
#   --only REGEX  only the tests whose names match (ctest -R; the suite guard
#                 runs around them all the same), e.g. after changing one
#   -- COMMAND    run COMMAND (with its arguments) beside the neighbours
#                 instead of the suite, e.g. a fresh clone's `bash .ci/run`
#                 (its whole output goes to the log)
# e.g. scripts/run-with-neighbours.sh --runs 3 cpu loops      (3 runs beside each)
#      scripts/run-with-neighbours.sh --build build-asan --runs 1 both
#      scripts/run-with-neighbours.sh --runs 1 --only 'tst_monitorlive|tst_remoteconsole' both
#      scripts/run-with-neighbours.sh --runs 1 both -- bash -c 'cd /tmp/clone && CI=true bash .ci/run'
# Logs: DIR/neighbours/KIND-N.log (ctest's output of each run).
set -euo pipefail
cd "$(dirname "$0")/.."
build=build
runs=3
only=
kinds=()
command=()
while [ $# -gt 0 ]; do
    case $1 in
    --build) build=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    cpu | loops | both) kinds+=("$1"); shift ;;
    --) shift; command=("$@"); [ $# -gt 0 ] || { echo "run-with-neighbours: -- needs a command after it" >&2; exit 2; }; break ;;
    -h | --help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "run-with-neighbours: unknown argument '$1' (allowed: --build DIR, --runs N, --only REGEX, cpu, loops, both, -- COMMAND...)" >&2; exit 2 ;;
    esac
done
[ "${#kinds[@]}" -gt 0 ] || { echo "run-with-neighbours: name the neighbours: cpu, loops or both" >&2; exit 2; }
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "run-with-neighbours: --runs '$runs' is not a whole number from 1" >&2; exit 2; }
[ "${#command[@]}" -gt 0 ] || [ -f "$build/CTestTestfile.cmake" ] || { echo "run-with-neighbours: $build is not a configured build folder (scripts/bootstrap.sh)" >&2; exit 2; }
for kind in "${kinds[@]}"; do
    if [ "$kind" != cpu ] && [ "$(id -u)" -ne 0 ]; then
        echo "run-with-neighbours: the loop neighbour attaches loop devices, which needs root" >&2
        exit 2
    fi
done
if [ "${#command[@]}" -gt 0 ]; then mkdir -p "$build"; fi
build=$(realpath "$build")
mkdir -p "$build/neighbours"
# As CI: a test that needs root and skips fails the run (as root).
if [ "$(id -u)" -eq 0 ]; then export BLOCKTUNE_REQUIRE_ROOT=${BLOCKTUNE_REQUIRE_ROOT:-1}; fi

neighbours=() # PIDs of the running neighbours
stop_neighbours() {
    local pid
    for pid in "${neighbours[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in "${neighbours[@]}"; do wait "$pid" 2>/dev/null || true; done
    neighbours=()
}
trap stop_neighbours EXIT
trap 'exit 130' INT TERM

start_cpu() { # one busy loop per core, at normal priority
    local i
    for i in $(seq "$(nproc)"); do
        bash -c 'while :; do :; done' &
        neighbours+=($!)
    done
}

# The loop neighbour: its own files, its own devices, each detached only
# while it still holds the neighbour's file (a name is anyone's once free).
churn_loops() {
    local dir held=() i=0
    dir=$(mktemp -d /var/tmp/blocktune-neighbour-XXXXXX)
    truncate -s 16M "$dir/a.img" "$dir/c.img"
    truncate -s 64M "$dir/b.img" "$dir/d.img"
    local files=("$dir/a.img" "$dir/b.img" "$dir/c.img" "$dir/d.img")
    holds() { # DEVICE FILE: the device still holds the file
        local backing
        backing=$(cat "/sys/block/${1#/dev/}/loop/backing_file" 2>/dev/null) || return 1
        [ "${backing% (deleted)}" = "$2" ]
    }
    let_go() { # "DEVICE FILE"
        local dev=${1%% *} file=${1#* }
        holds "$dev" "$file" && losetup -d "$dev" 2>/dev/null || true
    }
    cleanup_loops() {
        local entry
        for entry in "${held[@]}"; do let_go "$entry"; done
        sleep 1 # the kernel lets go once udev's probe has closed them
        rm -rf "$dir"
        exit 0
    }
    trap cleanup_loops TERM INT
    while :; do
        local file=${files[$((i % 4))]} dev
        i=$((i + 1))
        if dev=$(losetup --find --show --direct-io=on "$file" 2>/dev/null); then
            held+=("$dev $file")
        fi
        sleep 0.5
        if [ "${#held[@]}" -ge 2 ]; then
            let_go "${held[0]}"
            held=("${held[@]:1}")
        fi
        sleep 0.5
    done
}
start_loops() {
    churn_loops &
    neighbours+=($!)
}

# One run of the suite as scripts/run-tests.sh runs it; its log in $1.
run_suite() {
    local log=$1 rc=0 select=()
    if [ "${#command[@]}" -gt 0 ]; then
        "${command[@]}" >"$log" 2>&1
        return
    fi
    if [ -n "$only" ]; then select=(-R "$only"); fi
    {
        (cd "$build" && ctest --output-on-failure --timeout 900 -L measures "${select[@]}") || rc=1
        (cd "$build" && ctest --output-on-failure --timeout 900 -j "$(nproc)" -LE measures "${select[@]}") || rc=1
    } >"$log" 2>&1
    return "$rc"
}

results=()
failed=0
for kind in "${kinds[@]}"; do
    for n in $(seq "$runs"); do
        case $kind in
        cpu) start_cpu ;;
        loops) start_loops ;;
        both) start_cpu; start_loops ;;
        esac
        log=$build/neighbours/$kind-$n.log
        echo "run-with-neighbours: $kind run $n of $runs ($(basename "$build"); log: $log)"
        began=$SECONDS
        if run_suite "$log"; then result=passed; else result=FAILED; failed=1; fi
        took=$((SECONDS - began))
        stop_neighbours
        line=$(printf '%-6s run %d: %s in %d s (load average at the end: %s)' "$kind" "$n" "$result" "$took" \
            "$(cut -d' ' -f1-3 /proc/loadavg)")
        if [ "$result" = FAILED ]; then
            line+=$'\n    failed: '$( (grep -E '^\s+[0-9]+ - ' "$log" || echo "see the log") | sed -E 's/^\s+[0-9]+ - //' | tr '\n' ' ')
        fi
        echo "run-with-neighbours: $line"
        results+=("$line")
    done
done
echo "run-with-neighbours: summary ($(basename "$build"), $(nproc) cores)"
printf '  %s\n' "${results[@]}"
exit "$failed"
