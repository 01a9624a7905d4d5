#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz/ with clang (-fsanitize=fuzzer,
# address,undefined) into build-fuzz/ and runs each for a bounded time,
# starting from its seed corpus in tests/fuzz/corpus/NAME/. A crash, a
# sanitizer report, a leak, a failed property or a timeout fails the run;
# the crashing input is kept in build-fuzz/artifacts/ and printed in the log
# as base64 and hex.
# The targets run side by side, one per core ($BLOCKTUNE_FUZZ_JOBS, else
# nproc): each is single-threaded and they share nothing but the machine.
# Usage: scripts/run-fuzzers.sh [SECONDS_EACH] [NAME...]
#        (seconds default: $BLOCKTUNE_FUZZ_SECONDS, else 30)
#        scripts/run-fuzzers.sh --build-only
set -euo pipefail
cd "$(dirname "$0")/.."
build_only=false
if [ "${1:-}" = --build-only ]; then build_only=true; shift; fi
seconds="${1:-${BLOCKTUNE_FUZZ_SECONDS:-30}}"
shift || true
jobs="${BLOCKTUNE_FUZZ_JOBS:-$(nproc)}"

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
# Line tables (-g1) are all a crash's stack trace needs.
cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" \
    -DCMAKE_CXX_COMPILER=clang++ -DBLOCKTUNE_FUZZ=ON -DBLOCKTUNE_WERROR=ON "${launcher[@]}" >/dev/null
cmake --build build-fuzz -j "$(nproc)"
if $build_only; then exit 0; fi

if [ "$#" -gt 0 ]; then names=("$@"); else mapfile -t names < build-fuzz/fuzzers.txt; fi
mkdir -p build-fuzz/artifacts
# One target: its log in build-fuzz/NAME.log, its verdict in NAME.status.
fuzz_one() {
    local name=$1 work="build-fuzz/corpus/$1" log="build-fuzz/$1.log"
    mkdir -p "$work"
    rm -f "build-fuzz/artifacts/$name-"* "build-fuzz/$name.status"
    # New inputs go to the first directory (build-fuzz/), never into the repo's seeds.
    if "build-fuzz/fuzz/$name" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="build-fuzz/artifacts/$name-" \
        "$work" "tests/fuzz/corpus/$name" >"$log" 2>&1; then
        echo ok >"build-fuzz/$name.status"
    else
        echo failed >"build-fuzz/$name.status"
    fi
}
running=0
for name in "${names[@]}"; do
    if [ "$running" -ge "$jobs" ]; then wait -n || true; running=$((running - 1)); fi
    fuzz_one "$name" &
    running=$((running + 1))
done
wait

# The verdicts in the targets' order.
failed=()
for name in "${names[@]}"; do
    log="build-fuzz/$name.log"
    if [ "$(cat "build-fuzz/$name.status" 2>/dev/null)" = ok ]; then
        runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
        cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1)
        echo "fuzz: $name: ${runs:-?} inputs in ${seconds}s, ${cov:-cov ?}, no crash"
    else
        failed+=("$name")
        echo "fuzz: $name FAILED (log: $log); its last lines:"
        tail -n 60 "$log"
        for a in "build-fuzz/artifacts/$name-"*; do
            [ -f "$a" ] || continue
            echo "fuzz: $name: input kept in $a ($(stat -c %s "$a") bytes)"
            echo "fuzz: base64: $(head -c 65536 "$a" | base64 -w0)"
            echo "fuzz: hex:"
            head -c 4096 "$a" | od -An -tx1 -v
        done
    fi
done
if [ "${#failed[@]}" -gt 0 ]; then
    echo "fuzz: ${#failed[@]} of ${#names[@]} fuzz targets failed: ${failed[*]}"
    exit 1
fi
echo "fuzz: all ${#names[@]} fuzz targets ran ${seconds}s each without a crash"
