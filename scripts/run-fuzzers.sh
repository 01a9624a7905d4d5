#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz/ with clang (-fsanitize=fuzzer,
# address,undefined) into build-fuzz/ and runs each for a bounded time,
# starting from its seed corpus in tests/fuzz/corpus/NAME/. A crash, a
# sanitizer report, a leak, a failed property or a timeout fails the run;
# the crashing input is kept in build-fuzz/artifacts/ and printed in the log
# as base64 and hex.
# Usage: scripts/run-fuzzers.sh [SECONDS_EACH] [NAME...]
#        (seconds default: $BLOCKTUNE_FUZZ_SECONDS, else 45)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-${BLOCKTUNE_FUZZ_SECONDS:-45}}"
shift || true

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
    -DBLOCKTUNE_FUZZ=ON -DBLOCKTUNE_WERROR=ON "${launcher[@]}" >/dev/null
cmake --build build-fuzz -j "$(nproc)"

if [ "$#" -gt 0 ]; then names=("$@"); else mapfile -t names < build-fuzz/fuzzers.txt; fi
mkdir -p build-fuzz/artifacts
failed=()
for name in "${names[@]}"; do
    work="build-fuzz/corpus/$name"
    log="build-fuzz/$name.log"
    mkdir -p "$work"
    rm -f "build-fuzz/artifacts/$name-"*
    # New inputs go to the first directory (build-fuzz/), never into the repo's seeds.
    if "build-fuzz/fuzz/$name" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="build-fuzz/artifacts/$name-" \
        "$work" "tests/fuzz/corpus/$name" >"$log" 2>&1; then
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
