#!/usr/bin/env bash
# Checks a built blocktune .deb: its contents are where Debian expects them
# (dpkg-deb -c), lintian finds no errors (warnings are listed, allowed), and
# the unpacked package runs: blocktune-cli list from the installed path, the
# programs finding their helper, the console's --version without a display.
# With --install (root, and no blocktune package installed already) it also
# installs the package for real with apt-get, runs the installed programs
# and purges it again, so later builds do not find an installed copy.
# Usage: scripts/check-deb.sh [--install] blocktune_VERSION_ARCH.deb
set -euo pipefail
install=0
if [ "${1:-}" = --install ]; then install=1; shift; fi
deb=$(realpath "$1")
src=$(realpath "$(dirname "$0")/..")
fail() { echo "check-deb: $*" >&2; exit 1; }

echo "check-deb: contents of $(basename "$deb")"
contents=$(dpkg-deb -c "$deb" | awk '{print $6}' | sed 's|^\./|/|')
for path in /usr/bin/blocktune /usr/bin/blocktune-cli /usr/libexec/blocktune/blocktune-helper \
            /usr/share/polkit-1/actions/org.blocktune.helper.policy \
            /usr/share/applications/org.blocktune.Blocktune.desktop \
            /usr/share/metainfo/org.blocktune.Blocktune.metainfo.xml \
            /usr/share/icons/hicolor/scalable/apps/org.blocktune.Blocktune.svg \
            /usr/share/icons/hicolor/16x16/apps/org.blocktune.Blocktune.png \
            /usr/share/icons/hicolor/48x48/apps/org.blocktune.Blocktune.png \
            /usr/share/icons/hicolor/256x256/apps/org.blocktune.Blocktune.png \
            /usr/share/doc/blocktune/copyright /usr/share/doc/blocktune/changelog.gz \
            /usr/share/doc/blocktune/fleets.md \
            /lib/systemd/system/blocktune-metrics.service /lib/systemd/system/blocktune-metrics.timer \
            /lib/systemd/system/blocktune-readahead.service; do
    grep -qx "$path" <<<"$contents" || fail "$path is missing from the package"
done
if grep -q '^/usr/bin/blocktune-helper$' <<<"$contents"; then fail "blocktune-helper must not be on PATH"; fi
[ "$(dpkg-deb -f "$deb" Package)" = blocktune ] || fail "package name"
depends=$(dpkg-deb -f "$deb" Depends)
grep -q 'libqt6widgets6' <<<"$depends" || fail "Depends lacks the Qt libraries dpkg-shlibdeps should find: $depends"
echo "check-deb: Depends: $depends"
echo "check-deb: Recommends: $(dpkg-deb -f "$deb" Recommends)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dpkg-deb -x "$deb" "$tmp/root"
# The policy names the helper where the package puts it.
grep -q '<annotate key="org.freedesktop.policykit.exec.path">/usr/libexec/blocktune/blocktune-helper</annotate>' \
    "$tmp/root/usr/share/polkit-1/actions/org.blocktune.helper.policy" || fail "the polkit action names another helper path"
desktop-file-validate "$tmp/root/usr/share/applications/org.blocktune.Blocktune.desktop"
appstreamcli validate --no-net "$tmp/root/usr/share/metainfo/org.blocktune.Blocktune.metainfo.xml" >/dev/null

if command -v lintian >/dev/null; then
    # Suppressed, with reasons: the package is built by CPack, not from a
    # Debian source package, and has no license chosen yet (README).
    lintian --tag-display-limit 0 --suppress-tags copyright-without-copyright-notice,unknown-copyright-format-uri \
        "$deb" >"$tmp/lintian.txt" 2>&1 || true
    cat "$tmp/lintian.txt"
    if grep -q '^E: ' "$tmp/lintian.txt"; then fail "lintian found errors"; fi
else
    fail "lintian is not installed (scripts/bootstrap.sh installs it)"
fi

# The unpacked programs: the CLI lists devices from its installed path (a
# recorded tree, so nothing depends on this machine's disks).
tree="$src/tests/data/sysroot/md-raid10-f2"
out=$("$tmp/root/usr/bin/blocktune-cli" --sysroot "$tree" list) || fail "blocktune-cli list failed"
grep -q '^md0' <<<"$out" || grep -q 'md0' <<<"$out" || fail "blocktune-cli list shows no md0: $out"
"$tmp/root/usr/bin/blocktune-cli" list >/dev/null || fail "blocktune-cli list (live) failed"
env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM "$tmp/root/usr/bin/blocktune" --version | grep -q '^blocktune ' \
    || fail "blocktune --version without a display failed"

if [ "$install" -eq 1 ]; then
    [ "$(id -u)" -eq 0 ] || fail "--install needs root"
    if dpkg-query -W -f='${Status}' blocktune 2>/dev/null | grep -q "install ok installed"; then
        echo "check-deb: a blocktune package is installed already; not replacing it (no real install test)"
    else
        echo "check-deb: apt-get install $deb"
        trap 'DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq blocktune >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$deb" >/dev/null
        /usr/bin/blocktune-cli --sysroot "$tree" list | grep -q md0 || fail "installed blocktune-cli list shows no md0"
        /usr/bin/blocktune-cli list >/dev/null || fail "installed blocktune-cli list (live) failed"
        env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM /usr/bin/blocktune --version | grep -q '^blocktune ' \
            || fail "installed blocktune --version failed"
        [ -x /usr/libexec/blocktune/blocktune-helper ] || fail "no installed helper"
        # The installed helper answers the protocol (as root, no pkexec needed).
        echo '{"op":"hello"}' | /usr/libexec/blocktune/blocktune-helper | grep -q '"program":"blocktune-helper"' \
            || fail "the installed helper does not answer hello"
        DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq blocktune >/dev/null
        [ ! -e /usr/bin/blocktune ] || fail "purge left /usr/bin/blocktune"
        echo "check-deb: installed, ran and purged $(basename "$deb")"
    fi
fi
echo "check-deb: $(basename "$deb") is fine"
