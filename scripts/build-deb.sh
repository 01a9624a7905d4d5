#!/usr/bin/env bash
# Builds the Debian package blocktune_VERSION_ARCH.deb with CPack from the
# install rules (prefix /usr: programs in /usr/bin, the helper in
# /usr/libexec/blocktune, data under /usr/share). Reuses BUILD_DIR when it is
# configured already (CI packs the tree it tested), else configures a Release
# build there. CPack strips the binaries; dpkg-shlibdeps works out Depends.
# Usage: scripts/build-deb.sh [BUILD_DIR]   (default build; prints the .deb's path last)
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build}"
if [ ! -f "$build/CMakeCache.txt" ]; then
    launcher=()
    command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
    cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBLOCKTUNE_BUILD_TESTS=OFF "${launcher[@]}" >/dev/null
fi
prefix=$(sed -n 's/^CMAKE_INSTALL_PREFIX:PATH=//p' "$build/CMakeCache.txt")
[ "$prefix" = /usr ] || { echo "build-deb: $build installs into $prefix; a package installs into /usr"; exit 1; }
cmake --build "$build" -j "${BLOCKTUNE_JOBS:-$(nproc)}" >/dev/null
rm -f "$build"/blocktune_*.deb
(cd "$build" && cpack -G DEB >/dev/null)
ls "$build"/blocktune_*.deb
