#!/usr/bin/env bash
# The suite leaves the machine as it found it. ctest runs this first
# (`before`: gives the tests their own HOME and XDG folders in the build and
# records the real ones and every block device's settings) and last
# (`after`: fails, naming each, for a file that appeared under the real
# HOME/XDG folders, a blocktune file there that changed, a device whose
# readahead or scheduler differs, or a loop device left attached).
# Runs with the environment ctest was started with: the real one.
#   suite-guard.sh before|after STATE_DIR SOURCE_DIR BUILD_DIR TESTS_FILE
# TESTS_FILE: the names of the tests, one per line (each gets
# BUILD_DIR/tests/home/NAME, tests/CMakeLists.txt's blocktune_guard_test).
set -euo pipefail
mode=$1 state=$2 source=$(realpath "$3") build=$(realpath "$4") tests_file=$5

real_dirs() { # the real folders the suite must not write into
    printf '%s\n' "$HOME" "${XDG_DATA_HOME:-$HOME/.local/share}" "${XDG_CONFIG_HOME:-$HOME/.config}" \
        "${XDG_CACHE_HOME:-$HOME/.cache}"
    if [ -n "${XDG_RUNTIME_DIR:-}" ]; then printf '%s\n' "$XDG_RUNTIME_DIR"; fi
}

files() { # path<TAB>size<TAB>mtime of each file under the real folders
    # Not the tree under test nor its builds (a clone may live in HOME), and
    # not ccache's store: the next pass's build runs beside the suite.
    local ccache_dir=${CCACHE_DIR:-}
    if [ -z "$ccache_dir" ] && command -v ccache >/dev/null; then ccache_dir=$(ccache -k cache_dir 2>/dev/null || true); fi
    real_dirs | sort -u | while read -r dir; do
        [ -d "$dir" ] || continue
        find "$dir" -xdev \( -path "$source" -o -path "$source/*" -o -path "$build" -o -path "${ccache_dir:-/nonexistent}" \) -prune \
            -o \( -type f -o -type l -o -type s \) -printf '%p\t%s\t%T@\n' 2>/dev/null || true
    done | sort -u
}

devices() { # device<TAB>read_ahead_kb<TAB>scheduler<TAB>backing file, each block device
    local q
    for q in /sys/block/*/queue; do
        [ -d "$q" ] || continue
        local dev=${q%/queue}
        dev=${dev##*/}
        local backing=-
        [ -r "/sys/block/$dev/loop/backing_file" ] && backing=$(cat "/sys/block/$dev/loop/backing_file")
        printf '%s\t%s\t%s\t%s\n' "$dev" "$(cat "$q/read_ahead_kb" 2>/dev/null || echo -)" \
            "$(cat "$q/scheduler" 2>/dev/null || echo -)" "$backing"
    done
}

case $mode in
before)
    rm -rf "$state"
    mkdir -p "$state"
    rm -rf "$build/tests/home"
    while read -r name; do
        [ -n "$name" ] || continue
        home=$build/tests/home/$name
        mkdir -p "$home/.local/share" "$home/.config" "$home/.cache"
        mkdir -m 700 "$home/runtime"
    done <"$tests_file"
    files >"$state/files"
    devices >"$state/devices"
    echo "suite-guard: recorded $(wc -l <"$state/files") files under $(real_dirs | sort -u | tr '\n' ' ')and $(wc -l <"$state/devices") block devices"
    ;;
after)
    [ -f "$state/files" ] || { echo "suite-guard: no record in $state: the 'before' step did not run"; exit 1; }
    files >"$state/files.after"
    devices >"$state/devices.after"
    # A file that appeared, or a blocktune file that changed (the test
    # suite's history records in the user's database, say).
    awk -F'\t' -v build="$build" '
        NR == FNR { before[$1] = $2 "\t" $3; next }
        !($1 in before) { print "suite-guard: the suite left " $1 " (under the real home or XDG folders; each test has its own, " build "/tests/home/NAME)"; bad = 1; next }
        before[$1] != $2 "\t" $3 && tolower($1) ~ /blocktune/ { print "suite-guard: the suite changed " $1; bad = 1 }
        END { exit bad }' "$state/files" "$state/files.after" && bad=0 || bad=1
    # The settings of every device that was there before, and loops left attached.
    awk -F'\t' '
        NR == FNR { ra[$1] = $2; sched[$1] = $3; backing[$1] = $4; next }
        !($1 in ra) { if ($4 != "-") { print "suite-guard: loop device " $1 " is still attached (backing file " $4 "): a test did not detach it"; bad = 1 } next }
        backing[$1] == "-" && $4 != "-" { print "suite-guard: loop device " $1 " is still attached (backing file " $4 "): a test did not detach it"; bad = 1; next }
        backing[$1] != $4 { next } # detached or reused by someone else: not ours to judge
        # Detached before and after: no device to read, and the kernel sets
        # its queue afresh at each attach (6.18: a never-used loop shows
        # read_ahead_kb 128; attaching any file with direct I/O makes it
        # 2560, and detaching keeps that), so its figures are not a setting
        # anyone left behind (CI: "loop3 read_ahead_kb was 128 ..., now 2560").
        $4 == "-" { next }
        ra[$1] != $2 { print "suite-guard: " $1 " read_ahead_kb was " ra[$1] " before the suite, now " $2; bad = 1 }
        sched[$1] != $3 { print "suite-guard: " $1 " scheduler was \"" sched[$1] "\" before the suite, now \"" $3 "\""; bad = 1 }
        END { exit bad }' "$state/devices" "$state/devices.after" || bad=1
    if [ "$bad" = 0 ]; then
        echo "suite-guard: nothing appeared under the real home or XDG folders; $(wc -l <"$state/devices") devices as they were"
    fi
    exit "$bad"
    ;;
*)
    echo "suite-guard: unknown step '$mode' (allowed: before, after)"
    exit 2
    ;;
esac
