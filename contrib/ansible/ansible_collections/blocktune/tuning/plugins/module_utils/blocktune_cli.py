# Running blocktune-cli on the managed host and reading its answers.
# Shared by the blocktune.tuning modules.
from __future__ import annotations

import json


def run_cli(module, args, check_rc=False):
    """Runs `CLI ARGS`; returns (rc, stdout, stderr)."""
    cli = module.params.get('cli') or 'blocktune-cli'
    path = module.get_bin_path(cli, required=False) or cli
    return module.run_command([path] + list(args), check_rc=check_rc)


def blocktune_words(stderr, stdout=''):
    """What blocktune said, without its program prefix, one line each."""
    lines = []
    for line in (stderr or '').splitlines() + (stdout or '').splitlines():
        line = line.strip()
        if not line or line.startswith('{') or line.startswith('}'):
            continue
        if line.startswith('blocktune-cli: '):
            line = line[len('blocktune-cli: '):]
        lines.append(line)
    return '; '.join(lines)


def parse_json(module, rc, out, err, what):
    try:
        return json.loads(out)
    except ValueError:
        module.fail_json(msg=blocktune_words(err, out) or '%s printed no JSON (exit %d)' % (what, rc), rc=rc,
                         stderr=err)
