#!/usr/bin/env bash
# Installs what is missing, builds with warnings as errors, runs every test.
# Tests that need root skip without it, unless BLOCKTUNE_REQUIRE_ROOT=1.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh -DBLOCKTUNE_WERROR=ON -DBLOCKTUNE_BUILD_TESTS=ON
# Serial on purpose: several tests measure throughput on loop devices and
# would measure each other if run side by side on two cores.
cd build && ctest --output-on-failure --timeout 900
