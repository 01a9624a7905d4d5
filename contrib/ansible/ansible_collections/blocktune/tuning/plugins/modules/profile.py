#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: blocktune developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# Apply, revert, install or remove a blocktune profile on the managed host,
# through blocktune-cli's own previews (verify, apply --dry-run, revert
# --dry-run, install/uninstall --dry-run), so check mode says what the real
# run does and a second run changes nothing.
from __future__ import (absolute_import, division, print_function)
__metaclass__ = type

DOCUMENTATION = r'''
---
module: profile
short_description: Apply, revert, install or remove a blocktune profile
description:
  - Runs C(blocktune-cli profile ... --json) on the managed host. Every state is
    declarative, the task says how the host should be, from whatever it is now,
    and a host already so reports C(ok).
  - C(state=applied) compares the host with the profile first (C(profile verify));
    a host that already matches reports C(ok), not C(changed). Otherwise the
    profile is applied as one change set, validated, journaled and rolled back
    on a failed write, so a failure leaves the host as it was.
  - C(state=reverted) brings back the values from before the first profile
    applied since the last revert or reboot, and forgets that applied state
    (C(changed) whenever there was one, even when every value already was the
    original).
  - C(state=installed) writes the profile's udev rules (the settings at every
    boot); C(state=absent) removes the rules of the profile of that name, whether
    or not such a profile is on the host (as C(blocktune-cli profile uninstall NAME) does).
  - Check mode runs blocktune's own dry runs (C(profile apply --dry-run),
    C(profile revert --dry-run), C(profile install|uninstall --dry-run)); it
    reports what the real run would report, fails where it would fail, and
    changes nothing. Diff mode returns each setting before and after.
  - blocktune-cli's warnings (a value the md/dm floor will override, udevd not
    running, a rule the udev export cannot carry) are the task's warnings.
version_added: "0.1.0"
author: blocktune developers (@blocktune)
requirements:
  - blocktune-cli (the blocktune package) on the managed host, 0.1.1 or later
    (C(profile install|uninstall --dry-run --json))
  - root on the managed host for writes (C(become=true))
extends_documentation_fragment:
  - ansible.builtin.action_common_attributes
  - ansible.builtin.action_common_attributes.flow
options:
  name:
    description:
      - A profile on the host by name (a preset, C(/etc/blocktune/profiles), or
        the remote user's own), or a path to a profile file on the host.
      - With C(state=absent), the name of the installed rules to remove; the
        profile itself need not be on the host.
      - One of I(name), I(src) and I(content) is required, except for C(state=reverted).
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
      - The blocktune-cli program on the host (a name looked up in C(PATH), or a path).
    type: str
    default: blocktune-cli
notes:
  - "Needs root on the host for writes (C(become: true)), as C(blocktune-cli) does."
  - A setting that does not exist before the change (an I/O scheduler's tunable
    under C(queue/iosched/) appears with that scheduler) shows as
    C((does not exist yet)) in the diff.
attributes:
  check_mode:
    support: full
  diff_mode:
    support: full
  platform:
    platforms: posix
  action:
    support: full
  async:
    support: none
  bypass_host_loop:
    support: none
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

- name: No rules of an old profile at boot, whether or not it is still there
  blocktune.tuning.profile:
    name: video-edge
    state: absent
  become: true

- name: Back to the values from before
  blocktune.tuning.profile:
    state: reverted
  become: true
'''

RETURN = r'''
changes:
  description: What was (or, in check mode, would be) written, in order. C(before) is
    C((does not exist yet)) for a setting that appears only with the change.
  returned: always
  type: list
  elements: dict
  sample: [{"device": "sdb", "attribute": "read_ahead_kb", "before": "128", "after": "4096"}]
diff:
  description: The settings before and after, one C(DEVICE ATTRIBUTE = VALUE) line each, and for
    C(state=reverted) the applied profiles forgotten; the udev rules file's text for installed/absent.
  returned: when diff mode is on
  type: dict
  sample: {"before": "sdb read_ahead_kb = 128\n", "after": "sdb read_ahead_kb = 4096\n"}
profile:
  description: The profile's name.
  returned: when known
  type: str
  sample: streaming-md
profiles:
  description: C(state=reverted) the profiles applied since the last revert or reboot, oldest
    first, which the revert forgets (empty when none was applied).
  returned: state is reverted
  type: list
  elements: str
  sample: [streaming-md]
rules:
  description: The udev rules file written or removed (or, in check mode, that would be).
  returned: state is installed or absent
  type: str
  sample: /etc/udev/rules.d/70-blocktune-streaming-md.rules
stdout:
  description: blocktune-cli's JSON answer of the install or uninstall (what udev did).
  returned: when rules were written or removed
  type: str
report:
  description: blocktune-cli's own JSON report of the apply or revert (docs/json.md).
  returned: when something was applied or reverted
  type: dict
msg:
  description: blocktune's own words when the task fails, or why nothing was to be done.
  returned: on failure, or when nothing is to be reverted
  type: str
  sample: no profile is applied, nothing to revert
'''

import os
import tempfile

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.blocktune.tuning.plugins.module_utils.blocktune_cli import (
    blocktune_words, parse_json, run_cli, warn_once)

NOT_THERE = '(does not exist yet)'


def shown(value):
    return NOT_THERE if value is None else value


def diff_of(changes, before_extra='', after_extra=''):
    before = ''.join('%s %s = %s\n' % (c['device'], c['attribute'], shown(c['before'])) for c in changes)
    after = ''.join('%s %s = %s\n' % (c['device'], c['attribute'], shown(c['after'])) for c in changes)
    return {'before': before + before_extra, 'after': after + after_extra}


def finish(module, changed, changes, diff=None, **extra):
    result = dict(changed=changed, changes=changes, **extra)
    if module._diff:
        result['diff'] = diff if diff is not None else diff_of(changes)
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
    others = sorted(set(c['device'] for c in changes if c['device'] not in allowed))
    if others:
        module.fail_json(msg='the profile would change %s, outside devices %s: nothing was changed'
                         % (', '.join(others), ', '.join(allowed)), changes=changes)


def report_changes(report, done):
    out = []
    for c in report.get('changes', []):
        after = c.get('new')
        entry = dict(device=c.get('queue_device') or c['device'], attribute=c['attribute'],
                     before=shown(c.get('current')), after=after)
        if done:
            entry['after'] = c.get('kept') if c.get('kept') is not None else after
            entry['status'] = c.get('status')
        out.append(entry)
    return out


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
    for w in preview['report'].get('warnings') or []:
        warn_once(module, w)
    changes = report_changes(preview['report'], False)
    check_devices(module, changes)
    if not changes:
        finish(module, False, [], profile=preview.get('profile'))
    if module.check_mode:
        finish(module, True, changes, profile=preview.get('profile'))
    rc, out, err = run_cli(module, ['profile', 'apply', profile, '--json'])
    done = parse_json(module, rc, out, err, 'profile apply')
    report = done.get('report', {})
    for w in report.get('warnings') or []:
        warn_once(module, w)
    changes = report_changes(report, True)
    if rc != 0 or not done.get('ok'):
        why = (done.get('errors') or []) + ([report['error']] if isinstance(report.get('error'), str) else [])
        module.fail_json(msg='; '.join(why) or blocktune_words(err, out), rc=rc, changes=changes, report=report)
    finish(module, True, changes, profile=done.get('profile'), report=report)


def reverted(module):
    rc, out, err = run_cli(module, ['profile', 'revert', '--dry-run', '--json'])
    preview = parse_json(module, rc, out, err, 'profile revert --dry-run')
    if rc != 0:
        module.fail_json(msg=blocktune_words(err, out) or 'profile revert --dry-run failed (exit %d)' % rc, rc=rc)
    items = preview.get('restore', {}).get('items', [])
    changes = [dict(device=i['device'], attribute=i['attribute'], before=shown(i.get('found')),
                    after=shown(i.get('original'))) for i in items if i.get('status') == 'restored']
    profiles = preview.get('profiles') or []
    if not preview.get('state_file'):
        finish(module, False, [], profiles=[], msg='no profile is applied, nothing to revert')
    # The revert forgets the applied state: a change even when every value
    # already is the original, in check mode as in the real run.
    diff = diff_of(changes, 'applied profiles: %s\n' % ', '.join(profiles), 'applied profiles: none\n')
    if module.check_mode:
        finish(module, True, changes, diff, profiles=profiles)
    rc, out, err = run_cli(module, ['profile', 'revert', '--json'])
    done = parse_json(module, rc, out, err, 'profile revert')
    if rc != 0 or not done.get('ok'):
        module.fail_json(msg=blocktune_words(err, out) or '; '.join(done.get('restore', {}).get('messages', [])),
                         rc=rc, report=done)
    finish(module, True, changes, diff, profiles=profiles, report=done)


def rules_call(module, args, what):
    """`profile install|uninstall ... --json`: (rc, answer, raw stdout)."""
    rc, out, err = run_cli(module, args + ['--json'])
    answer = parse_json(module, rc, out, err, what)
    for w in answer.get('warnings') or []:
        warn_once(module, w)
    return rc, answer, out


def udev_warning(module, answer):
    # udevadm did not run (udevd not running, a recorded tree, no udevadm)
    # or one of its commands failed: the rules wait for udev.
    commands = answer.get('commands') or []
    if answer.get('message') and (not commands or any(': failed' in c for c in commands)):
        warn_once(module, answer['message'])


def rules_name(module, profile):
    """absent by name: the name itself, whether or not such a profile is here."""
    if module.params['name'] and '/' not in profile and not profile.endswith('.json'):
        return profile
    return profile_name(module, profile)


def installed(module, profile, want):
    name = profile_name(module, profile) if want else rules_name(module, profile)
    if want:
        args, what = ['profile', 'install', profile], 'profile install'
    else:
        args, what = ['profile', 'uninstall', name], 'profile uninstall'
    rc, preview, out = rules_call(module, args + ['--dry-run'], what + ' --dry-run')
    files = preview.get('files') or []
    if rc != 0 and not (not want and not files and preview.get('error', '').startswith('no udev rules')):
        module.fail_json(msg=preview.get('error') or blocktune_words(out), rc=rc, profile=name)
    changing = [f for f in files if f.get('action') != 'unchanged']
    path = files[0]['path'] if files else None
    diff = {'before': ''.join(f.get('before') or '' for f in files),
            'after': ''.join(f.get('after') or '' for f in files),
            'before_header': path or '(no rules installed)', 'after_header': path or '(no rules installed)'}
    result = dict(profile=name, rules=path)
    if not changing or module.check_mode:
        finish(module, bool(changing), [], diff, **result)
    rc, done, out = rules_call(module, args, what)
    if rc != 0:
        module.fail_json(msg=done.get('error') or blocktune_words(out), rc=rc, **result)
    udev_warning(module, done)
    finish(module, True, [], diff, stdout=out, **result)


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
            content=dict(type='str'),
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
