#!/usr/bin/env bash
# Installs what is missing, builds with warnings as errors, checks the Debian
# package of that build, runs every test; then the whole suite again built
# with AddressSanitizer + UndefinedBehaviorSanitizer (build-asan/: any
# report, leaks included, fails the test), then each libFuzzer target for a
# bounded time (build-fuzz/, scripts/run-fuzzers.sh).
# Tests that need root skip without it, unless BLOCKTUNE_REQUIRE_ROOT=1.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
last=$SECONDS
phases=()
# Each phase's own time, printed as it ends and again at the end.
phase() {
    phases+=("$(printf '%6d s  %s' $((SECONDS - last)) "$1")")
    last=$SECONDS
    echo "run-tests: $1 ($((SECONDS - start)) s so far)"
}
summary() {
    echo "run-tests: phase times"
    printf '  %s\n' "${phases[@]}"
    printf '  %6d s  all\n' $((SECONDS - start))
}

bash scripts/bootstrap.sh -DBLOCKTUNE_WERROR=ON -DBLOCKTUNE_BUILD_TESTS=ON
phase "built build/"

# The suites wait on devices, ssh and timers far more than they compute, so
# the next pass's build runs beside each one, at the lowest CPU and I/O
# priority: the tests get the cores whenever they want them. Line tables
# (-g1) are all a sanitizer's stack trace needs, and -O1 is what ASan's
# authors advise; the benches are not run sanitized.
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
built_pid=
# A failed suite ends the script: the build beside it (its own process
# group, from setsid) goes with it.
trap 'if [ -n "$built_pid" ]; then kill -- "-$built_pid" 2>/dev/null || true; fi' EXIT
background_build() { # NAME LOG COMMAND...: starts COMMAND niced, its PID in $built_pid
    local name=$1 log=$2
    shift 2
    echo "run-tests: building $name beside the suite (log: $log)"
    setsid nice -n 19 ionice -c 3 "$@" >"$log" 2>&1 &
    built_pid=$!
}
wait_build() { # NAME LOG: the background build's end; its log when it failed
    if ! wait "$built_pid"; then
        echo "run-tests: building $1 failed; the end of $2:"
        tail -n 80 "$2"
        exit 1
    fi
    built_pid=
}
# The Debian package of the tree under test: contents, lintian, a run from
# a scratch root, and as root a real install that is purged again.
deb=$(bash scripts/build-deb.sh build | tail -1)
install_flag=()
if [ "$(id -u)" -eq 0 ]; then install_flag=(--install); fi
bash scripts/check-deb.sh "${install_flag[@]}" "$deb"
phase "packed and checked the .deb"
# The tests that compare figures with a referee (label "measures") first,
# one at a time on a quiet machine; then the rest, two at a time, except
# those that use loop devices or sshd (RUN_SERIAL, tests/CMakeLists.txt),
# beside the next pass's build. Each test has its own HOME and XDG folders.
jobs=(-j "$(nproc)")
(cd build && ctest --output-on-failure --timeout 900 -L measures)
phase "measuring tests passed (alone)"
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" \
    -DBLOCKTUNE_WERROR=ON -DBLOCKTUNE_BUILD_TESTS=ON -DBLOCKTUNE_BUILD_BENCH=OFF -DBLOCKTUNE_SANITIZE=ON \
    "${launcher[@]}" >/dev/null
background_build build-asan/ build/asan-build.log cmake --build build-asan -j "$(nproc)"
(cd build && ctest --output-on-failure --timeout 900 "${jobs[@]}" -LE measures)
phase "suite passed"

wait_build build-asan/ build/asan-build.log
phase "waited for build-asan/ (ASan + UBSan, built beside the suite)"
# The tests start build-asan/bin's CLI and helper: sanitized too.
(cd build-asan && ctest --output-on-failure --timeout 900 -L measures)
background_build build-fuzz/ build/fuzz-build.log bash scripts/run-fuzzers.sh --build-only
(cd build-asan && ctest --output-on-failure --timeout 900 "${jobs[@]}" -LE measures)
phase "suite passed under ASan + UBSan"

wait_build build-fuzz/ build/fuzz-build.log
# 20 s each here (the script alone: 30 s): the whole command stays within 45 minutes on 2 cores.
bash scripts/run-fuzzers.sh "${BLOCKTUNE_FUZZ_SECONDS:-20}"
phase "fuzzers passed"
summary
