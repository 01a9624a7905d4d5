#!/usr/bin/env bash
# `ansible-test sanity` on the blocktune.tuning collection, offline, with
# Debian 12's ansible-core (2.14) and nothing from PyPI.
#
# ansible-test runs its seven checkers that have Python requirements
# (ansible-doc, import, pep8, pylint, runtime-metadata, validate-modules,
# yamllint) in virtual environments it fills with pip from PyPI
# (get-pip.py, then pinned versions): without a network it stops at
# "does not have pip available". Those environments are found by path
# (~/.ansible/test/venv/sanity.NAME/3.11/HASH) and reused when they hold a
# marker.txt (ansible_test/_internal/commands/sanity/__init__.py,
# create_sanity_virtualenv). So each one it asks for is made here instead,
# empty but seeing the system's site-packages, where Debian's packages give
# what pip would have: python3-yaml, python3-jinja2, python3-voluptuous,
# yamllint, python3-pycodestyle, pylint (scripts/bootstrap.sh). The checks
# then run as ansible-test runs them, with Debian's versions of the checkers
# (voluptuous 0.12, yamllint 1.29, pycodestyle 2.10, pylint 2.16, where
# ansible-test pins 0.13, 1.28, 2.9, 2.15).
#
# Usage: tests/ansible/ansible-sanity.sh [WORKDIR] [ansible-test options...]
# Exit status: ansible-test's (0: every test passed). Everything it writes
# (its venvs, tests/output) stays in WORKDIR (default: a temporary folder,
# removed at the end).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source_dir="$(cd "$here/../.." && pwd)"
collection="$source_dir/contrib/ansible/ansible_collections/blocktune/tuning"

work="${1:-}"
[ $# -gt 0 ] && shift
if [ -z "$work" ]; then
    work="$(mktemp -d)"
    trap 'rm -rf "$work"' EXIT
fi
for tool in ansible-test /usr/bin/python3; do
    command -v "$tool" >/dev/null || { echo "ansible-sanity: $tool is missing (apt-get install ansible-core)" >&2; exit 2; }
done

# ansible-test wants the collection at ansible_collections/NAMESPACE/NAME and
# writes tests/output there: a copy, never the source tree.
copy="$work/ansible_collections/blocktune/tuning"
rm -rf "$work/ansible_collections"
mkdir -p "$(dirname "$copy")"
cp -a "$collection" "$copy"
find "$copy" -name '__pycache__' -prune -exec rm -rf {} +

# Debian's python, whatever else is on PATH (pyenv shims, a venv).
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME="$work/home" PYTHONDONTWRITEBYTECODE=1
mkdir -p "$HOME"
# No network: every download ansible-test would try fails at once instead
# of waiting, and proves the run is offline (root only: a namespace of its own).
offline=()
if [ "$(id -u)" = 0 ] && unshare -n true 2>/dev/null; then
    offline=(unshare -n)
fi

run_sanity() {
    (cd "$copy" && "${offline[@]}" ansible-test sanity --local --python-interpreter /usr/bin/python3 --color no \
        "$@" 2>&1)
}

# The checkers that want an environment, each asked on its own (it stops at
# the first it cannot fill, before running anything), until it asks for none.
prime() {
    local venv="$1"
    case "$venv" in "$HOME"/.ansible/test/venv/*) ;; *) echo "ansible-sanity: unexpected venv path $venv" >&2; exit 2;; esac
    rm -rf "$venv"
    /usr/bin/python3 -m venv --system-site-packages --without-pip "$venv"
    # What ansible-test records after pip: the install commands (none) and
    # whether PyYAML has libyaml.
    echo '[]' > "$venv/meta.install.json"
    /usr/bin/python3 -c 'import yaml; print("true" if yaml.__with_libyaml__ else "false")' > "$venv/meta.yaml.json"
    touch "$venv/marker.txt"
}
wanted() {
    sed -n 's/^FATAL: Python [0-9.]* at "\(.*\)\/bin\/python" does not have pip available\.$/\1/p' | head -n1
}
for test in ansible-doc import pep8 pylint runtime-metadata validate-modules yamllint; do
    for _ in 1 2 3; do
        venv="$(run_sanity --test "$test" | wanted || true)"
        [ -n "$venv" ] || break
        prime "$venv"
    done
done
out="$(run_sanity "$@")" && status=0 || status=$?
printf '%s\n' "$out" | grep -v '^WARNING: Using locale\|^WARNING: Reviewing previous' || true
if venv="$(printf "%s\n" "$out" | wanted || true)" && [ -n "$venv" ]; then
    echo "ansible-sanity: ansible-test still wants $venv: a checker not primed above" >&2
fi
exit "$status"
