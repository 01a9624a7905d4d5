#!/usr/bin/env bash
# Installs what is missing, builds, and starts the console. With no device
# given (and as root), it makes a scratch demo device first: a 1 GiB loop
# device with direct I/O over a file in /var/tmp, detached again when the
# console closes. Usage: scripts/run-console.sh [DEVICE] [console options]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh

device="${1:-}"
[ $# -gt 0 ] && shift
demo_loop=""
demo_file=""
cleanup() {
    [ -n "$demo_loop" ] && losetup -d "$demo_loop" 2>/dev/null || true
    [ -n "$demo_file" ] && rm -f "$demo_file"
}
trap cleanup EXIT INT TERM

if [ -z "$device" ] && [ "$(id -u)" -eq 0 ]; then
    demo_file=$(mktemp /var/tmp/blocktune-demo-XXXXXX.img)
    # Real data, not a sparse hole: reads of holes never reach the disk.
    dd if=/dev/urandom of="$demo_file" bs=1M count=1024 status=none
    demo_loop=$(losetup --find --show --direct-io=on "$demo_file")
    device="${demo_loop#/dev/}"
    echo "run-console: demo device $demo_loop over $demo_file (detached on exit)"
fi

args=()
[ -n "$device" ] && args+=(--device "${device#/dev/}")
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
    echo "run-console: no display; running under xvfb-run"
    xvfb-run -a -s "-screen 0 1280x800x24" build/bin/blocktune "${args[@]}" "$@"
else
    build/bin/blocktune "${args[@]}" "$@"
fi
