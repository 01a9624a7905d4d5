#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: blocktune developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# The host's block devices, their settings and the applied profile's drift
# as ansible_facts.blocktune, from blocktune-cli's own JSON.
from __future__ import (absolute_import, division, print_function)
__metaclass__ = type

DOCUMENTATION = r'''
---
module: blocktune_facts
short_description: Gather blocktune's view of the block devices as facts
description:
  - Runs C(blocktune-cli list --json) on the managed host and returns every
    block device with how it stacks and its settings as C(ansible_facts.blocktune).
  - Adds the applied profile (the newest since the last revert or reboot)
    and its drift from C(blocktune-cli profile verify --json).
  - Changes nothing on the host.
  - Called C(blocktune.tuning.facts) before 0.1.1; that name still works, with a
    deprecation warning, until 1.0.0.
version_added: "0.1.0"
author: blocktune developers (@blocktune)
requirements:
  - blocktune-cli (the blocktune package) on the managed host
extends_documentation_fragment:
  - ansible.builtin.action_common_attributes
  - ansible.builtin.action_common_attributes.facts
options:
  cli:
    description:
      - The blocktune-cli program on the host (a name looked up in C(PATH), or a path).
    type: str
    default: blocktune-cli
notes:
  - "Run with C(become: true) to see the applied profile that root applied."
attributes:
  check_mode:
    support: full
  diff_mode:
    support: none
  facts:
    support: full
  platform:
    platforms: posix
'''

EXAMPLES = r'''
- name: What blocktune sees
  blocktune.tuning.blocktune_facts:

- name: md arrays below their readahead floor
  ansible.builtin.debug:
    msg: "{{ item.name }}: {{ item.read_ahead_kb }} KiB, floor {{ item.md.readahead_floor_kb }} KiB"
  loop: "{{ ansible_facts.blocktune.devices | selectattr('type', 'eq', 'md') }}"
  when: item.md.readahead_floor_kb and item.read_ahead_kb < item.md.readahead_floor_kb

- name: Fail on drift (and when the applied profile is not on the host to check against)
  ansible.builtin.assert:
    that:
      - ansible_facts.blocktune.drift_error is none
      - ansible_facts.blocktune.drift | length == 0
    fail_msg: "{{ ansible_facts.blocktune.drift_error or ansible_facts.blocktune.drift_summary }}"
'''

RETURN = r'''
ansible_facts:
  description: Facts under C(blocktune).
  returned: always
  type: complex
  contains:
    blocktune:
      description: blocktune's view of the host.
      type: complex
      contains:
        devices:
          description: C(list --json)'s devices (docs/json.md), each with name, type, slaves, holders,
            read_ahead_kb, scheduler, nr_requests, max_sectors_kb and md/dm details.
          type: list
          elements: dict
        by_name:
          description: The same devices by kernel name.
          type: dict
        applied_profile:
          description: The profile applied last, or null.
          type: str
        applied_profiles:
          description: Every profile applied since the last revert or reboot, oldest first.
          type: list
          elements: str
        drift:
          description: The applied profile's drifts (device, key, expected, actual, rule); empty when none is
            applied or nothing drifted.
          type: list
          elements: dict
        drift_summary:
          description: The drifts in words, one C(DEVICE KEY is ACTUAL, PROFILE says EXPECTED) each, joined
            by C(; ) (a string, for an assert's C(fail_msg)); empty when nothing drifted.
          type: str
          sample: md0 read_ahead_kb is 256, streaming-md says 8192
        drift_error:
          description: Why the applied profile could not be verified (it is no longer on the host, say), or null.
          type: str
'''

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.blocktune.tuning.plugins.module_utils.blocktune_cli import (
    blocktune_words, parse_json, run_cli)


def shown(value):
    return '(missing)' if value is None else value


def main():
    module = AnsibleModule(argument_spec=dict(cli=dict(type='str', default='blocktune-cli')),
                           supports_check_mode=True)
    rc, out, err = run_cli(module, ['list', '--json'])
    if rc != 0:
        module.fail_json(msg=blocktune_words(err, out), rc=rc)
    devices = parse_json(module, rc, out, err, 'list --json').get('devices', [])
    facts = dict(devices=devices, by_name=dict((d['name'], d) for d in devices), applied_profile=None,
                 applied_profiles=[], drift=[], drift_summary='', drift_error=None)
    # The applied state, read without changing anything.
    rc, out, err = run_cli(module, ['profile', 'revert', '--dry-run', '--json'])
    if rc == 0:
        facts['applied_profiles'] = parse_json(module, rc, out, err, 'profile revert --dry-run').get('profiles') or []
    if facts['applied_profiles']:
        name = facts['applied_profiles'][-1]
        facts['applied_profile'] = name
        rc, out, err = run_cli(module, ['profile', 'verify', name, '--json'])
        if rc in (0, 1):
            facts['drift'] = parse_json(module, rc, out, err, 'profile verify').get('drift', [])
            facts['drift_summary'] = '; '.join(
                '%s %s is %s, %s says %s' % (d.get('device'), d.get('key'), shown(d.get('actual')), name,
                                             shown(d.get('expected'))) for d in facts['drift'])
        else:
            facts['drift_error'] = blocktune_words(err, out)
    module.exit_json(changed=False, ansible_facts=dict(blocktune=facts))


if __name__ == '__main__':
    main()
