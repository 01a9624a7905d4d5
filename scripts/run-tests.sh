#!/usr/bin/env bash
# Installs what is missing, builds with warnings as errors, checks the Debian
# package of that build, runs every test.
# Tests that need root skip without it, unless BLOCKTUNE_REQUIRE_ROOT=1.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh -DBLOCKTUNE_WERROR=ON -DBLOCKTUNE_BUILD_TESTS=ON
# The Debian package of the tree under test: contents, lintian, a run from
# a scratch root, and as root a real install that is purged again.
deb=$(bash scripts/build-deb.sh build | tail -1)
install_flag=()
if [ "$(id -u)" -eq 0 ]; then install_flag=(--install); fi
bash scripts/check-deb.sh "${install_flag[@]}" "$deb"
# Serial on purpose: several tests measure throughput on loop devices and
# would measure each other if run side by side on two cores.
cd build && ctest --output-on-failure --timeout 900
