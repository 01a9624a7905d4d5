#!/usr/bin/python
# Apply, revert, install or remove a blocktune profile on the managed host,
# through blocktune-cli's own previews (verify, apply --dry-run,
# revert --dry-run), so check mode and a second run change nothing.
from __future__ import annotations

DOCUMENTATION = r'''
---
module: profile
short_description: Apply, revert, install or remove a blocktune profile
description:
  - Runs C(blocktune-cli profile ... --json) on the managed host.
  - C(state=applied) compares the host with the profile first (C(profile verify));
    a host that already matches reports C(ok), not C(changed). Otherwise the
    profile is applied as one change set, validated, journaled and rolled back
    on a failed write, so a failure leaves the host as it was.
  - C(state=reverted) brings back the values from before the first profile
    applied since the last revert or reboot.
  - C(state=installed) writes the profile's udev rules (the settings at every
    boot); C(state=absent) removes them.
  - Check mode previews through blocktune's dry runs and changes nothing;
    diff mode returns each setting before and after.
version_added: "0.1.0"
author: blocktune developers
options:
  name:
    description:
      - A profile on the host by name (a preset, C(/etc/blocktune/profiles), or
        the remote user's own), or a path to a profile file on the host.
      - One of I(name) and I(src) is required, except for C(state=reverted).
    type: str
  src:
    description:
      - A profile file on the controller, copied to the host for this task
        (the action plugin reads it; the module gets its text). blocktune's
        messages about the file name I(src).
    type: path
  content:
    description:
      - The text of a profile file (what I(src) becomes on the host; with
        I(src) too, I(src) only names it).
    type: str
  state:
    description:
      - C(applied), C(reverted), C(installed) (udev rules at boot) or C(absent)
        (those rules removed).
    type: str
    choices: [applied, reverted, installed, absent]
    default: applied
  devices:
    description:
      - Only these devices (kernel names) may be changed; when the profile
        would change another device the task fails and nothing is changed.
    type: list
    elements: str
  cli:
    description:
      - The blocktune-cli program on the host.
    type: str
    default: blocktune-cli
notes:
  - "Needs root on the host for writes (C(become: true)), as C(blocktune-cli) does."
  - Supports check mode and diff mode.
attributes:
  check_mode:
    support: full
  diff_mode:
    support: full
'''

EXAMPLES = r'''
- name: Streaming servers get the md profile
  blocktune.tuning.profile:
    name: streaming-md
  become: true

- name: A profile of our own, kept in the playbook's files/
  blocktune.tuning.profile:
    src: files/video-edge.json
    devices: [md0, md1]
  become: true

- name: Carry it to the next boot as udev rules
  blocktune.tuning.profile:
    name: streaming-md
    state: installed
  become: true

- name: Back to the values from before
  blocktune.tuning.profile:
    state: reverted
  become: true
'''

RETURN = r'''
changes:
  description: What was (or, in check mode, would be) written, in order.
  returned: always
  type: list
  elements: dict
  sample: [{"device": "sdb", "attribute": "read_ahead_kb", "before": "128", "after": "4096"}]
diff:
  description: The settings before and after, one C(DEVICE ATTRIBUTE = VALUE) line each (udev rules text for installed/absent).
  returned: when diff mode is on
  type: dict
  sample: {"before": "sdb read_ahead_kb = 128\n", "after": "sdb read_ahead_kb = 4096\n"}
profile:
  description: The profile's name.
  returned: when known
  type: str
  sample: streaming-md
report:
  description: blocktune-cli's own JSON report of the apply or revert (docs/json.md).
  returned: when something was written
  type: dict
msg:
  description: blocktune's own words when the task fails.
  returned: on failure
  type: str
'''

import json
import os
import tempfile

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.blocktune.tuning.plugins.module_utils.blocktune_cli import (
    blocktune_words, parse_json, run_cli)

RULES_DIR = '/etc/udev/rules.d'


def diff_of(changes):
    before = ''.join('%s %s = %s\n' % (c['device'], c['attribute'], c['before']) for c in changes)
    after = ''.join('%s %s = %s\n' % (c['device'], c['attribute'], c['after']) for c in changes)
    return {'before': before, 'after': after}


def finish(module, changed, changes, **extra):
    result = dict(changed=changed, changes=changes, **extra)
    if module._diff and 'diff' not in result:
        result['diff'] = diff_of(changes)
    module.exit_json(**result)


def profile_name(module, profile):
    rc, out, err = run_cli(module, ['profile', 'show', profile, '--json'])
    if rc != 0:
        module.fail_json(msg=blocktune_words(err, out), rc=rc)
    return parse_json(module, rc, out, err, 'profile show').get('name')


def check_devices(module, changes):
    allowed = module.params['devices']
    if allowed is None:
        return
    others = sorted({c['device'] for c in changes if c['device'] not in allowed})
    if others:
        module.fail_json(msg='the profile would change %s, outside devices %s: nothing was changed'
                         % (', '.join(others), ', '.join(allowed)), changes=changes)


def applied(module, profile):
    # Verify first: exit 0 is a host that already matches.
    rc, out, err = run_cli(module, ['profile', 'verify', profile, '--json'])
    if rc == 0:
        finish(module, False, [], profile=profile_name(module, profile))
    if rc != 1:
        module.fail_json(msg=blocktune_words(err, out) or 'profile verify failed (exit %d)' % rc, rc=rc)
    rc, out, err = run_cli(module, ['profile', 'apply', profile, '--dry-run', '--json'])
    preview = parse_json(module, rc, out, err, 'profile apply --dry-run')
    if rc != 0 or not preview.get('ok'):
        module.fail_json(msg='; '.join(preview.get('errors') or []) or blocktune_words(err, out), rc=rc)
    changes = [dict(device=c.get('queue_device') or c['device'], attribute=c['attribute'], before=c.get('current'),
                    after=c.get('new')) for c in preview['report'].get('changes', [])]
    check_devices(module, changes)
    if not changes:
        finish(module, False, [], profile=preview.get('profile'))
    if module.check_mode:
        finish(module, True, changes, profile=preview.get('profile'))
    rc, out, err = run_cli(module, ['profile', 'apply', profile, '--json'])
    done = parse_json(module, rc, out, err, 'profile apply')
    report = done.get('report', {})
    changes = [dict(device=c.get('queue_device') or c['device'], attribute=c['attribute'], before=c.get('current'),
                    after=c.get('kept') if c.get('kept') is not None else c.get('new'), status=c.get('status'))
               for c in report.get('changes', [])]
    if rc != 0 or not done.get('ok'):
        why = (done.get('errors') or []) + ([report['error']] if isinstance(report.get('error'), str) else [])
        module.fail_json(msg='; '.join(why) or blocktune_words(err, out), rc=rc, changes=changes, report=report)
    finish(module, True, changes, profile=done.get('profile'), report=report)


def reverted(module):
    rc, out, err = run_cli(module, ['profile', 'revert', '--dry-run', '--json'])
    preview = parse_json(module, rc, out, err, 'profile revert --dry-run')
    items = preview.get('restore', {}).get('items', [])
    changes = [dict(device=i['device'], attribute=i['attribute'], before=i.get('found'), after=i.get('original'))
               for i in items if i.get('status') == 'restored']
    profiles = preview.get('profiles') or []
    if rc != 0:
        module.fail_json(msg=blocktune_words(err, out) or 'profile revert --dry-run failed (exit %d)' % rc, rc=rc)
    if not preview.get('state_file'):
        finish(module, False, [], msg='no profile is applied: nothing to revert')
    if module.check_mode:
        finish(module, bool(changes), changes, profiles=profiles)
    rc, out, err = run_cli(module, ['profile', 'revert', '--json'])
    done = parse_json(module, rc, out, err, 'profile revert')
    if rc != 0 or not done.get('ok'):
        module.fail_json(msg=blocktune_words(err, out) or '; '.join(done.get('restore', {}).get('messages', [])),
                         rc=rc, report=done)
    # The state file is gone now: that alone is a change, even when every
    # value already was the original.
    finish(module, True, changes, profiles=profiles, report=done)


def read_text(path):
    try:
        with open(path, 'r') as f:
            return f.read()
    except (IOError, OSError):
        return None


def installed(module, profile, want):
    name = profile_name(module, profile)
    path = os.path.join(RULES_DIR, '70-blocktune-%s.rules' % name)
    before = read_text(path)
    after = None
    if want:
        rc, out, err = run_cli(module, ['profile', 'export', profile, '--format', 'udev'])
        if rc != 0:
            module.fail_json(msg=blocktune_words(err), rc=rc)
        after = out
    changed = before != after
    result = dict(profile=name, rules=path)
    if module._diff:
        result['diff'] = {'before': before or '', 'after': after or '', 'before_header': path, 'after_header': path}
    if not changed or module.check_mode:
        finish(module, changed, [], **result)
    args = ['profile', 'install', profile] if want else ['profile', 'uninstall', name]
    rc, out, err = run_cli(module, args)
    if rc != 0:
        module.fail_json(msg=blocktune_words(err, out), rc=rc)
    finish(module, True, [], stdout=out, **result)


def naming_src(module, temp, src):
    """Failures name the controller's src, not its temporary copy here."""
    fail = module.fail_json

    def fail_json(**result):
        if isinstance(result.get('msg'), str):
            result['msg'] = result['msg'].replace(temp, src)
        fail(**result)
    module.fail_json = fail_json


def main():
    module = AnsibleModule(
        argument_spec=dict(
            name=dict(type='str'),
            src=dict(type='path'),
            content=dict(type='str', no_log=False),
            state=dict(type='str', default='applied', choices=['applied', 'reverted', 'installed', 'absent']),
            devices=dict(type='list', elements='str'),
            cli=dict(type='str', default='blocktune-cli'),
        ),
        mutually_exclusive=[('name', 'src'), ('name', 'content')],
        supports_check_mode=True,
    )
    state = module.params['state']
    if state == 'reverted':
        reverted(module)
    profile = module.params['name']
    temp = None
    if module.params['content'] is not None:
        fd, temp = tempfile.mkstemp(prefix='blocktune-profile-', suffix='.json')
        with os.fdopen(fd, 'w') as f:
            f.write(module.params['content'])
        profile = temp
        if module.params['src']:
            naming_src(module, temp, module.params['src'])
    elif module.params['src']:
        profile = module.params['src']  # without the action plugin: a file on the host
    if not profile:
        module.fail_json(msg='state=%s needs name or src (a profile name, or a profile file)' % state)
    try:
        if state == 'applied':
            applied(module, profile)
        installed(module, profile, state == 'installed')
    finally:
        if temp:
            os.unlink(temp)


if __name__ == '__main__':
    main()
