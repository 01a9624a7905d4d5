#!/usr/bin/env bash
# Installs what blocktune needs to build and test (Debian 12 packages; clang
# and its runtime for the libFuzzer targets, scripts/run-fuzzers.sh), then
# configures and builds into build/ (binaries land in build/bin/).
# Usage: scripts/bootstrap.sh [extra cmake -D options...]
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
    build-essential cmake ninja-build pkg-config
    qt6-base-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools
    libqcustomplot-dev libudev-dev libblkid-dev
    libqt6sql6-sqlite  # the QSQLITE driver for the read-test history (core/history)
    util-linux fio xvfb xauth polkitd pkexec python3
    sysstat  # tests/monitor: iostat -x is the referee of the monitor's r_await and aqu-sz
    openssh-client openssh-server  # tests/remote: a private sshd on 127.0.0.1 (never the system one)
    sudo  # tests/remote: a non-root agent writing through `sudo -n blocktune-helper`, a real sudo
    # desktop integration and the Debian package: icons rendered at build
    # time, desktop entry and AppStream checks, Qt's own German strings,
    # dpkg-shlibdeps and lintian for the .deb, a system bus for the
    # privilege-path test
    librsvg2-bin desktop-file-utils appstream qt6-translations-l10n
    dpkg-dev lintian dbus-daemon dbus-bin dbus-system-bus-common
    # the sanitizer build and the libFuzzer targets
    clang libclang-rt-14-dev
    # the BPF latency probe (monitor --latency, core/monitor/bpf): libbpf's
    # headers and library, bpftool for vmlinux.h and the skeleton; clang above
    # compiles it
    libbpf-dev bpftool
    libbpf-tools  # tests/monitor: biolatency is the referee of the probe's device-time histogram
    bpftrace  # tests/readahead: counts the readahead tracepoints beside the readahead probe (its referee)
    # build time: a compiler cache for the next build, a faster linker
    ccache lld
    # fleets (docs/fleets.md): promtool checks `metrics`, a real node_exporter
    # serves its textfile, ansible-playbook/ansible-doc run the collection in
    # contrib/ansible against the private sshd
    prometheus prometheus-node-exporter ansible-core
    # ansible-test sanity offline (tests/ansible/ansible-sanity.sh): the
    # checkers its venvs would pip-install, from Debian instead; the venvs
    # themselves (python3 -m venv --without-pip, as ansible-test's own)
    python3-voluptuous yamllint python3-pycodestyle pylint python3-venv
    # tests/metrics/tst_metrics_unit: the metrics service's ExecStart run under
    # its unit's restrictions without systemd (namespaces, no capabilities,
    # its system-call filter)
    bubblewrap python3-seccomp
)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
    echo "bootstrap: installing ${missing[*]}"
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# ccache: a second build of what did not change (another clone, a clean
# build folder) takes its objects from ~/.cache/ccache.
# Line tables (-g1): stack traces and perf name lines; full debug info costs
# a fifth more compile time on every build (pass
# -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g -DNDEBUG" to have it for gdb).
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" \
    -DCMAKE_CXX_COMPILER_LAUNCHER=ccache "$@"
cmake --build build -j "$(nproc)"
