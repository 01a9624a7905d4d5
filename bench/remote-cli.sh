#!/usr/bin/env bash
# blocktune-cli --host get: what one command through the agent costs, on a
# generated tree of DISKS disks x 3 partitions served by the agent
# (--remote-command 'blocktune-cli --sysroot TREE agent'), reached through
# a stand-in for ssh that runs that command here: no sshd and no
# encryption, so what is measured is blocktune's own cost (ssh adds its
# handshake, the same for every command). Prints the median of RUNS runs
# of `--host get`, which records only the device it names and its stack
# into the mirror (op "mirror"), of `--host list`, which records the whole
# host (op "snapshot", a tarball), and of `get` on the tree here.
#
# Usage: bench/remote-cli.sh [DISKS] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
disks=${1:-100}
runs=${2:-3}
cli=$(realpath "${BLOCKTUNE_CLI:-build/bin/blocktune-cli}")
[ -x "$cli" ] || { echo "bench: build first (scripts/bootstrap.sh), or set BLOCKTUNE_CLI"; exit 1; }
base=/dev/shm; [ -d "$base" ] && [ -w "$base" ] || base=/var/tmp
work=$(mktemp -d "$base/blocktune-remote-cli-XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
python3 scripts/mk-sysroot.py synth "$work/root" --disks "$disks" --parts 3 >/dev/null
mkdir "$work/bin"
cat > "$work/bin/ssh" <<'SSH'
#!/bin/sh
# ssh HOST COMMAND: runs COMMAND here (the last argument).
for a; do last=$a; done
exec sh -c "$last"
SSH
chmod +x "$work/bin/ssh"
export PATH="$work/bin:$PATH"
agent="$cli --sysroot $work/root agent"

# median of $runs wall-clock seconds of "$@" (stdout dropped, a failure stops the bench)
median() {
    local times=()
    for _ in $(seq "$runs"); do
        local t0 t1
        t0=$(date +%s.%N)
        "$@" >/dev/null
        t1=$(date +%s.%N)
        times+=("$(echo "$t1 - $t0" | bc)")
    done
    printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (runs + 1) / 2 ))p"
}

echo "tree: $(ls "$work/root/sys/class/block" | wc -l) block devices; $runs runs each"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
printf '%-40s %6.3f s\n' "--host H get sda (its stack mirrored)" "$(median "$cli" --host bench --remote-command "$agent" get sda)"
printf '%-40s %6.3f s\n' "--host H list (the whole host mirrored)" "$(median "$cli" --host bench --remote-command "$agent" list)"
printf '%-40s %6.3f s\n' "get sda here (--sysroot)" "$(median "$cli" --sysroot "$work/root" get sda)"
