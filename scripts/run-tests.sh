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
phase() { echo "run-tests: $1 ($((SECONDS - start)) s so far)"; }

bash scripts/bootstrap.sh -DBLOCKTUNE_WERROR=ON -DBLOCKTUNE_BUILD_TESTS=ON
phase "built build/"
# The Debian package of the tree under test: contents, lintian, a run from
# a scratch root, and as root a real install that is purged again.
deb=$(bash scripts/build-deb.sh build | tail -1)
install_flag=()
if [ "$(id -u)" -eq 0 ]; then install_flag=(--install); fi
bash scripts/check-deb.sh "${install_flag[@]}" "$deb"
# Serial on purpose: several tests measure throughput on loop devices and
# would measure each other if run side by side on two cores.
(cd build && ctest --output-on-failure --timeout 900)
phase "suite passed"

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBLOCKTUNE_WERROR=ON \
    -DBLOCKTUNE_BUILD_TESTS=ON -DBLOCKTUNE_SANITIZE=ON "${launcher[@]}" >/dev/null
cmake --build build-asan -j "$(nproc)"
phase "built build-asan/ (ASan + UBSan)"
# The tests start build-asan/bin's CLI and helper: sanitized too.
(cd build-asan && ctest --output-on-failure --timeout 900)
phase "suite passed under ASan + UBSan"

bash scripts/run-fuzzers.sh
phase "fuzzers passed; all done"
