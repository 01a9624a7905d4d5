# -*- coding: utf-8 -*-
# Copyright: blocktune developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# Running blocktune-cli on the managed host and reading its answers.
# Shared by the blocktune.tuning modules.
from __future__ import (absolute_import, division, print_function)
__metaclass__ = type

import json
import os

INSTALL_HINT = ('install the blocktune package on the host (the .deb that scripts/build-deb.sh builds: '
                'apt install ./blocktune_VERSION_amd64.deb), or give its path in the cli option')


def cli_path(module):
    """The blocktune-cli to run, or a failure that names it and how to get it."""
    cli = module.params.get('cli') or 'blocktune-cli'
    if '/' in cli:
        if os.path.isfile(cli) and os.access(cli, os.X_OK):
            return cli
        module.fail_json(msg='%s is not an executable file on this host: %s' % (cli, INSTALL_HINT))
    path = module.get_bin_path(cli, required=False)
    if not path:
        module.fail_json(msg='%s was not found on this host (PATH: %s, /sbin, /usr/sbin, /usr/local/sbin): %s'
                         % (cli, os.environ.get('PATH', ''), INSTALL_HINT))
    return path


def run_cli(module, args, check_rc=False):
    """Runs `CLI ARGS`; returns (rc, stdout, stderr). blocktune's warnings
    on stderr become the task's warnings."""
    rc, out, err = module.run_command([cli_path(module)] + list(args), check_rc=check_rc)
    for line in (err or '').splitlines():
        line = strip_prefix(line.strip())
        if line.startswith('warning: '):
            warn_once(module, line[len('warning: '):])
    return rc, out, err


def warn_once(module, text):
    seen = module.__dict__.setdefault('_blocktune_warned', set())
    if text and text not in seen:
        seen.add(text)
        module.warn(text)


def strip_prefix(line):
    return line[len('blocktune-cli: '):] if line.startswith('blocktune-cli: ') else line


def blocktune_words(stderr, stdout=''):
    """What blocktune said, without its program prefix, one line each."""
    lines = []
    for line in (stderr or '').splitlines() + (stdout or '').splitlines():
        line = line.strip()
        if not line or line.startswith('{') or line.startswith('}') or line.startswith('warning: '):
            continue
        lines.append(strip_prefix(line))
    return '; '.join(lines)


def parse_json(module, rc, out, err, what):
    try:
        return json.loads(out)
    except ValueError:
        module.fail_json(msg=blocktune_words(err, out) or '%s printed no JSON (exit %d)' % (what, rc), rc=rc,
                         stderr=err)
