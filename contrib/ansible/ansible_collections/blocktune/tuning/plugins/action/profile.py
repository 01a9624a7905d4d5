# The controller's side of blocktune.tuning.profile: `src` names a profile
# file here (found like copy's src: the role's or playbook's files/); its
# text goes to the module as `content`, which writes it to a temporary file
# on the host for the task (and says `src` where blocktune names that file).
from __future__ import annotations

from ansible.errors import AnsibleError
from ansible.module_utils.common.text.converters import to_text
from ansible.plugins.action import ActionBase


class ActionModule(ActionBase):
    TRANSFERS_FILES = False

    def run(self, tmp=None, task_vars=None):
        result = super(ActionModule, self).run(tmp, task_vars)
        args = dict(self._task.args)
        # src stays in the arguments: the module names it, not its
        # temporary copy on the host, in blocktune's messages.
        src = args.get('src')
        if src is not None:
            try:
                path = self._find_needle('files', src)
                with open(path, 'rb') as f:
                    args['content'] = to_text(f.read())
            except (AnsibleError, IOError, OSError) as e:
                result.update(failed=True, msg='src %s: %s' % (src, to_text(e)))
                return result
        result.update(self._execute_module(module_name='blocktune.tuning.profile', module_args=args,
                                           task_vars=task_vars))
        return result
