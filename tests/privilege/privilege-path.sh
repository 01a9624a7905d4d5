#!/usr/bin/env bash
# tst_privilege_path: the way a user who is not root changes a setting, run
# for real. The test starts its own system bus (dbus-daemon --system) and
# polkitd, installs the build (cmake --install) and a polkit rule, and as an
# unprivileged test user runs blocktune-cli set and the console on its own
# loop device, through pkexec and the installed blocktune-helper.
#
# Nothing is installed on the machine: the test runs in a private mount
# namespace (unshare -m) where the staged install is overlaid on /usr, and
# /run/dbus and /etc/polkit-1/rules.d are fresh tmpfs mounts, all gone when
# the test ends, however it ends. Outside stays the test user
# "blocktune-test" only if it existed before (it is removed when the test
# created it), and nothing of the loop device.
#
# Exit 0 pass, 1 fail, 77 skip (not root, or dbus-daemon/polkitd cannot
# start; under BLOCKTUNE_REQUIRE_ROOT=1 these fail instead).
# Usage: privilege-path.sh BUILD_DIR CONSOLE_DRIVER
set -euo pipefail
build=$(realpath "$1")
driver=$(realpath "$2")
user=blocktune-test

skip() {
    if [ "${BLOCKTUNE_REQUIRE_ROOT:-0}" = 1 ]; then
        echo "FAIL: $* (BLOCKTUNE_REQUIRE_ROOT=1 forbids skipping)"
        exit 1
    fi
    echo "SKIP: $*"
    exit 77
}
fail() { echo "FAIL: $*"; exit 1; }

if [ -z "${BLOCKTUNE_PRIVTEST_INSIDE:-}" ]; then
    [ "$(id -u)" -eq 0 ] || skip "needs root (a system bus, polkitd, a test user, a loop device)"
    for tool in dbus-daemon dbus-send pkexec unshare setpriv losetup useradd; do
        command -v "$tool" >/dev/null || skip "$tool is not installed (scripts/bootstrap.sh installs it)"
    done
    [ -x /usr/lib/polkit-1/polkitd ] || skip "polkitd is not installed (apt-get install polkitd)"
    created_user=0
    if ! id "$user" >/dev/null 2>&1; then
        useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin "$user"
        created_user=1
    fi
    rc=0
    BLOCKTUNE_PRIVTEST_INSIDE=1 unshare --mount --propagation private bash "$0" "$@" || rc=$?
    [ "$created_user" -eq 1 ] && userdel "$user"
    exit "$rc"
fi

# ---- inside the private mount namespace ---------------------------------------
# In the build's folder for the tests' loop files (ctest names it; the
# suite guard knows a loop over a file there as the suite's).
mkdir -p "${BLOCKTUNE_TEST_TMPDIR:-/var/tmp}"
tmp=$(mktemp -d "${BLOCKTUNE_TEST_TMPDIR:-/var/tmp}/blocktune-test-privilege-XXXXXX")
chmod 755 "$tmp"
loop=""
pids=()
# The loop's name is free for anyone once it lets go of our file: it is
# detached only while it still holds the file, and waited for (the kernel
# defers a detach while someone, udev's probe say, has the device open).
holds_our_file() {
    local backing
    backing=$(cat "/sys/block/${loop#/dev/}/loop/backing_file" 2>/dev/null) || return 1
    [ "${backing% (deleted)}" = "$tmp/loop.img" ]
}
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    if [ -n "$loop" ] && holds_our_file; then
        losetup -d "$loop" 2>/dev/null || true
        for _ in $(seq 500); do holds_our_file || break; sleep 0.02; done
        if holds_our_file; then
            echo "FAIL: $loop (backing file $tmp/loop.img) still attached 10 s after its detach"
            umount /usr /run/dbus /etc/polkit-1/rules.d 2>/dev/null || true
            exit 1
        fi
    fi
    umount /usr /run/dbus /etc/polkit-1/rules.d 2>/dev/null || true
    rm -rf "$tmp"
}
trap cleanup EXIT

# The install, staged, then seen at its real paths.
prefix=$(sed -n 's/^CMAKE_INSTALL_PREFIX:PATH=//p' "$build/CMakeCache.txt")
case "$prefix" in /usr|/usr/*) ;; *) fail "the build installs into $prefix; this test overlays /usr only" ;; esac
DESTDIR="$tmp/stage" cmake --install "$build" >/dev/null
policy="$tmp/stage$prefix/share/polkit-1/actions/org.blocktune.helper.policy"
helper=$(sed -n 's|.*<annotate key="org.freedesktop.policykit.exec.path">\(.*\)</annotate>.*|\1|p' "$policy")
[ -x "$tmp/stage$helper" ] || fail "the polkit action names $helper, which the install did not create"
if [ "$prefix" != /usr ]; then
    # polkitd reads actions only from /usr/share/polkit-1/actions.
    mkdir -p "$tmp/stage/usr/share/polkit-1/actions"
    cp "$policy" "$tmp/stage/usr/share/polkit-1/actions/"
fi
install -m 755 "$driver" "$tmp/stage$prefix/bin/blocktune-test-console-apply"
mount -t overlay overlay -o "lowerdir=$tmp/stage/usr:/usr" /usr
mount -t tmpfs -o mode=755 tmpfs /run/dbus
mount -t tmpfs -o mode=700 tmpfs /etc/polkit-1/rules.d
chown polkitd:root /etc/polkit-1/rules.d

# The system bus and polkitd, ours alone.
dbus-daemon --system --fork --nopidfile --print-pid >"$tmp/dbus.pid" 2>"$tmp/dbus.log" \
    || skip "dbus-daemon --system cannot start: $(cat "$tmp/dbus.log")"
pids+=("$(cat "$tmp/dbus.pid")")
polkitd_pid=""
start_polkitd() {
    [ -n "$polkitd_pid" ] && { kill "$polkitd_pid"; wait "$polkitd_pid" 2>/dev/null || true; }
    /usr/lib/polkit-1/polkitd --no-debug >>"$tmp/polkitd.log" 2>&1 &
    polkitd_pid=$!
    pids+=("$polkitd_pid")
    for _ in $(seq 100); do
        if dbus-send --system --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
               org.freedesktop.DBus.NameHasOwner string:org.freedesktop.PolicyKit1 2>/dev/null | grep -q 'boolean true'; then
            return 0
        fi
        kill -0 "$polkitd_pid" 2>/dev/null || break
        sleep 0.1
    done
    skip "polkitd cannot start: $(cat "$tmp/polkitd.log")"
}
start_polkitd

# The test's own loop device.
truncate -s 64M "$tmp/loop.img"
loop=$(losetup --find --show "$tmp/loop.img")
dev=${loop#/dev/}
ra_file=/sys/class/block/$dev/queue/read_ahead_kb
original=$(cat "$ra_file")

# Runs a command as the test user, with a clean environment: pkexec found
# through a wrapper that counts its runs, a private runtime directory (the
# journal goes there), no display (the console runs offscreen).
mkdir -p "$tmp/wrap" "$tmp/xdg"
chown "$user" "$tmp/xdg"
chmod 700 "$tmp/xdg"
cat >"$tmp/wrap/pkexec" <<WRAP
#!/bin/sh
echo "\$*" >>"$tmp/pkexec.log"
exec /usr/bin/pkexec "\$@"
WRAP
chmod 755 "$tmp/wrap/pkexec"
: >"$tmp/pkexec.log"
chmod 666 "$tmp/pkexec.log"
as_user() {
    setpriv --reuid="$user" --regid="$(id -g "$user")" --init-groups \
        env -i PATH="$tmp/wrap:/usr/bin:/bin" HOME=/nonexistent SHELL=/bin/sh LANG=C.UTF-8 \
        XDG_RUNTIME_DIR="$tmp/xdg" QT_QPA_PLATFORM=offscreen "$@"
}
pkexec_runs() { wc -l <"$tmp/pkexec.log"; }

echo "== without a rule: refused, nothing changes"
set +e
out=$(as_user "$prefix/bin/blocktune-cli" set "$dev" read_ahead_kb=1024 2>&1)
rc=$?
set -e
echo "$out"
[ "$rc" -ne 0 ] || fail "blocktune-cli set succeeded without authorization"
grep -q "not authorized to change block device settings" <<<"$out" || fail "no clear refusal in: $out"
[ "$(cat "$ra_file")" = "$original" ] || fail "read_ahead_kb changed to $(cat "$ra_file") although refused"
[ "$(pkexec_runs)" -eq 1 ] || fail "expected one pkexec run, saw $(pkexec_runs)"
grep -qx "$helper" "$tmp/pkexec.log" || fail "pkexec ran $(cat "$tmp/pkexec.log"), not the installed helper $helper"

echo "== with a rule for $user: the helper starts through pkexec and the change lands"
cat >/etc/polkit-1/rules.d/50-blocktune-test.rules <<RULE
// tst_privilege_path: $user may run blocktune-helper without a password.
polkit.addRule(function(action, subject) {
    if (action.id == "org.blocktune.helper.write" && subject.user == "$user")
        return polkit.Result.YES;
});
RULE
chown polkitd:root /etc/polkit-1/rules.d/50-blocktune-test.rules
start_polkitd # reads the rule now rather than whenever inotify says
as_user "$prefix/bin/blocktune-cli" set "$dev" read_ahead_kb=1024 || fail "blocktune-cli set was refused with the rule"
[ "$(cat "$ra_file")" = 1024 ] || fail "read_ahead_kb is $(cat "$ra_file"), not 1024"
[ "$(pkexec_runs)" -eq 2 ] || fail "expected a second pkexec run, saw $(pkexec_runs)"

echo "== the console applies two changes with one helper (one pkexec run)"
as_user "$prefix/bin/blocktune-test-console-apply" "$dev" 2048 4096 || fail "the console did not apply both changes"
[ "$(cat "$ra_file")" = 4096 ] || fail "read_ahead_kb is $(cat "$ra_file"), not 4096"
[ "$(pkexec_runs)" -eq 3 ] || fail "the console started pkexec $(($(pkexec_runs) - 2)) times for two changes, not once"

echo "$original" >"$ra_file"
echo "PASS: refused without the rule; blocktune-cli and the console changed $dev through pkexec $helper"
