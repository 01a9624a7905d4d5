#!/usr/bin/env bash
# The suite leaves the machine as it found it. ctest runs this first
# (`before`: gives the tests their own HOME and XDG folders in the build and
# the folders for their loop devices' files, and records the real HOME/XDG
# folders and every block device's settings) and last (`after`: fails,
# naming each, for a file that appeared under the real HOME/XDG folders, a
# blocktune file there that changed, a disk whose readahead or scheduler
# differs, or a loop device of the suite's left attached).
# Other people attach loop devices beside the suite on a shared machine (in
# CI nothing else should): a loop device is the suite's when its backing
# file is in TMP_DIR or SHM_DIR, the folders this build's tests keep such
# files in (tests/support/testsupport.h, testTempRoot()). Loops of others
# come and go, and their owners change their settings: the guard names a
# change of theirs but does not fail for it. A loop of the suite's that is
# autoclear over a deleted file is on its way out (the kernel detaches it
# when the last one who has it open closes it): `after` waits up to 10 s
# for such, and fails for any that is still there, as for any other.
# Runs with the environment ctest was started with: the real one.
#   suite-guard.sh before|after STATE_DIR SOURCE_DIR BUILD_DIR TESTS_FILE TMP_DIR SHM_DIR
# TESTS_FILE: the names of the tests, one per line (each gets
# BUILD_DIR/tests/home/NAME, tests/CMakeLists.txt's blocktune_guard_test).
set -euo pipefail
mode=$1 state=$2 source=$(realpath "$3") build=$(realpath "$4") tests_file=$5 tmp_dir=$6 shm_dir=$7

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
        # A loop device detached between the listing and the read (someone
        # else's, on a machine where loops come and go) reads as none.
        local backing
        backing=$(cat "/sys/block/$dev/loop/backing_file" 2>/dev/null) || backing=-
        printf '%s\t%s\t%s\t%s\n' "$dev" "$(cat "$q/read_ahead_kb" 2>/dev/null || echo -)" \
            "$(cat "$q/scheduler" 2>/dev/null || echo -)" "$backing"
    done
}

# The suite's loop devices attached now: name<TAB>backing file.
suite_loops() {
    awk -F'\t' -v tmp="$tmp_dir/" -v shm="$shm_dir/" '$4 != "-" && (index($4, tmp) == 1 || index($4, shm) == 1) { print $1 "\t" $4 }' "$1"
}

# The suite's loop devices on their way out: autoclear (a detach the kernel
# deferred while someone, udev's probe say, had the device open) and their
# backing file already deleted. Every test waits for the detach of its own
# loops; these are waited for here too, briefly, and any other is a leak.
leaving_loops() {
    devices | suite_loops /dev/stdin | while IFS=$'\t' read -r dev backing; do
        if [[ $backing == *" (deleted)" ]] && [ "$(cat "/sys/block/$dev/loop/autoclear" 2>/dev/null)" = 1 ]; then
            echo "$dev"
        fi
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
    # Readable by all: tst_privilege_path's user reads its files there.
    mkdir -p -m 755 "$tmp_dir" "$shm_dir"
    files >"$state/files"
    devices >"$state/devices"
    suite_loops "$state/devices" | while IFS=$'\t' read -r dev backing; do
        echo "suite-guard: warning: $dev is attached over $backing, a file of this build's tests, before the suite ran: an earlier run left it"
    done
    echo "suite-guard: recorded $(wc -l <"$state/files") files under $(real_dirs | sort -u | tr '\n' ' ')and $(wc -l <"$state/devices") block devices"
    ;;
after)
    [ -f "$state/files" ] || { echo "suite-guard: no record in $state: the 'before' step did not run"; exit 1; }
    files >"$state/files.after"
    for _ in $(seq 50); do # 10 s at most
        [ -z "$(leaving_loops)" ] && break
        sleep 0.2
    done
    devices >"$state/devices.after"
    # A file that appeared, or a blocktune file that changed (the test
    # suite's history records in the user's database, say). One that
    # appeared and is gone again once the scan is over was in passing, not
    # left: another program's lock file on a shared machine (pyenv's
    # .pyenv-shim while it rehashes); it is named, not judged.
    rm -f "$state/appeared"
    awk -F'\t' -v appeared="$state/appeared" '
        FILENAME == ARGV[1] { before[$1] = $2 "\t" $3; next }
        !($1 in before) { print $1 >appeared; next }
        before[$1] != $2 "\t" $3 && tolower($1) ~ /blocktune/ { print "suite-guard: the suite changed " $1; bad = 1 }
        END { exit bad }' "$state/files" "$state/files.after" && bad=0 || bad=1
    if [ -f "$state/appeared" ]; then
        while IFS= read -r file; do
            if [ -e "$file" ] || [ -L "$file" ]; then
                echo "suite-guard: the suite left $file (under the real home or XDG folders; each test has its own, $build/tests/home/NAME)"
                bad=1
            else
                echo "suite-guard: note: $file appeared during the run and is gone again: in passing, not judged"
            fi
        done <"$state/appeared"
    fi
    # Loops of the suite's left attached; the settings of every disk that
    # was there before.
    awk -F'\t' -v tmp="$tmp_dir/" -v shm="$shm_dir/" '
        FILENAME == ARGV[1] { ra[$1] = $2; sched[$1] = $3; backing[$1] = $4; next }
        $1 ~ /^loop[0-9]+$/ {
            # Detached: no device to read, and the kernel sets its queue
            # afresh at each attach (6.18: a never-used loop shows
            # read_ahead_kb 128; attaching any file with direct I/O makes
            # it 2560, and detaching keeps that), so its figures are not a
            # setting anyone left behind (CI: "loop3 read_ahead_kb was 128
            # ..., now 2560").
            if ($4 == "-") next
            if (index($4, tmp) == 1 || index($4, shm) == 1) {
                if (backing[$1] != $4) { print "suite-guard: loop device " $1 " is still attached (backing file " $4 ", a file of the suite): a test did not detach it, or did not wait until the kernel had"; bad = 1 }
                next
            }
            # Someone else'"'"'s: attached during the run, or changed by its owner.
            if (backing[$1] != $4) next
            if (ra[$1] != $2 || sched[$1] != $3)
                print "suite-guard: note: " $1 " (backing file " $4 ", not the suite'"'"'s) read_ahead_kb " ra[$1] " -> " $2 ", scheduler \"" sched[$1] "\" -> \"" $3 "\": its owner'"'"'s change, not judged"
            next
        }
        !($1 in ra) { next } # appeared during the run (hotplug): nothing to compare with
        ra[$1] != $2 { print "suite-guard: " $1 " read_ahead_kb was " ra[$1] " before the suite, now " $2; bad = 1 }
        sched[$1] != $3 { print "suite-guard: " $1 " scheduler was \"" sched[$1] "\" before the suite, now \"" $3 "\""; bad = 1 }
        END { exit bad }' "$state/devices" "$state/devices.after" || bad=1
    rmdir "$tmp_dir" "$shm_dir" 2>/dev/null || true # empty: every test removed its files
    if [ "$bad" = 0 ]; then
        echo "suite-guard: nothing appeared under the real home or XDG folders; $(wc -l <"$state/devices") devices as they were; no loop device of the suite attached"
    fi
    exit "$bad"
    ;;
*)
    echo "suite-guard: unknown step '$mode' (allowed: before, after)"
    exit 2
    ;;
esac
