#!/usr/bin/env bash
# Installs what is missing, builds, and starts the console. With no device
# given it starts `blocktune --demo`: as root the console makes a scratch
# 1 GiB direct-I/O loop device and detaches it when it ends.
# Usage: scripts/run-console.sh [DEVICE] [console options]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh

device="${1:-}"
[ $# -gt 0 ] && shift

args=()
if [ -z "$device" ]; then
    # The console makes its own scratch device (a 1 GiB direct-I/O loop over
    # an unlinked file in /var/tmp), detached by the kernel when it ends,
    # however it ends. Without root it says why and opens without one.
    args+=(--demo)
fi
[ -n "$device" ] && args+=(--device "${device#/dev/}")
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
    echo "run-console: no display; running under xvfb-run"
    xvfb-run -a -s "-screen 0 1280x800x24" build/bin/blocktune "${args[@]}" "$@"
else
    build/bin/blocktune "${args[@]}" "$@"
fi
