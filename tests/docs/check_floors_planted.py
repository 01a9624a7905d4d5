#!/usr/bin/env python3
"""scripts/check-floors.py must fail where the floors break: on a copy of
core/, ui/ and docs/architecture.md it passes as it is, then fails, naming
file:line, the include, the floor and what it may include, on one planted
upward include (common/ including remote/), one across a floor and one in
<>; on a core folder missing from the table; and on a core file including
a ui/ header.

Usage: check_floors_planted.py SOURCE_DIR
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile


def run(script, tree):
    done = subprocess.run([sys.executable, script, tree], capture_output=True, text=True, check=False)
    return done.returncode, done.stdout + done.stderr


def copy_tree(src, dest):
    for folder in ('core', 'ui'):
        shutil.copytree(os.path.join(src, folder), os.path.join(dest, folder))
    os.mkdir(os.path.join(dest, 'docs'))
    shutil.copy(os.path.join(src, 'docs', 'architecture.md'), os.path.join(dest, 'docs'))


def plant(path, line):
    """Adds `line` after the first #include of `path`; returns its line number."""
    with open(path, encoding='utf-8') as f:
        lines = f.read().split('\n')
    first = next(i for i, l in enumerate(lines) if l.startswith('#include'))
    lines.insert(first + 1, line)
    with open(path, 'w', encoding='utf-8') as f:
        f.write('\n'.join(lines))
    return first + 2


def expect(failures, what, rc, out, pattern):
    if rc != 1:
        failures.append(f'{what}: exit status {rc}, expected 1; it printed:\n{out}')
    elif not re.search(pattern, out, re.M):
        failures.append(f'{what}: no line matching {pattern!r} in:\n{out}')


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    src = argv[1]
    script = os.path.join(src, 'scripts', 'check-floors.py')
    failures = []
    with tempfile.TemporaryDirectory(prefix='check-floors-') as tmp:
        tree = os.path.join(tmp, 'tree')
        copy_tree(src, tree)
        rc, out = run(script, tree)
        if rc != 0:
            failures.append(f'the unchanged copy: exit status {rc}, expected 0:\n{out}')

        units = os.path.join(tree, 'core', 'common', 'units.cpp')
        shutil.copy(units, units + '.orig')
        line = plant(units, '#include "remote/remote.h"')
        rc, out = run(script, tree)
        expect(failures, 'an upward include', rc, out,
               re.escape(f'core/common/units.cpp:{line}: #include "remote/remote.h": common/ is on floor 0 and '
                         'includes remote/ on floor ') + r'\d+; common/ may include nothing else in core/')
        os.replace(units + '.orig', units)

        # One floor up: a folder of the same floor is not below it either.
        tuning = os.path.join(tree, 'core', 'tuning', 'settings.cpp')
        shutil.copy(tuning, tuning + '.orig')
        line = plant(tuning, '#include "monitor/monitor.h"')
        rc, out = run(script, tree)
        expect(failures, 'an include across one floor', rc, out,
               re.escape(f'core/tuning/settings.cpp:{line}: #include "monitor/monitor.h": tuning/ is on floor ')
               + r'\d+ and includes monitor/ on floor \d+; tuning/ may include common/, devices/, privilege/, stats/$')
        os.replace(tuning + '.orig', tuning)

        newfloor = os.path.join(tree, 'core', 'newfloor')
        os.mkdir(newfloor)
        with open(os.path.join(newfloor, 'thing.cpp'), 'w', encoding='utf-8') as f:
            f.write('#include "common/result.h"\n')
        rc, out = run(script, tree)
        expect(failures, 'a folder missing from the table', rc, out,
               re.escape('core/newfloor/ has no row in the floor table of docs/architecture.md'))
        shutil.rmtree(newfloor)

        stats = os.path.join(tree, 'core', 'stats', 'diskstats.cpp')
        shutil.copy(stats, stats + '.orig')
        line = plant(stats, '#include <history/history.h>')
        rc, out = run(script, tree)
        expect(failures, 'an upward include in <>', rc, out,
               re.escape(f'core/stats/diskstats.cpp:{line}: #include <history/history.h>: stats/ is on floor '))
        os.replace(stats + '.orig', stats)

        line = plant(stats, '#include "mainwindow.h"')
        rc, out = run(script, tree)
        expect(failures, 'a ui/ header in core/', rc, out,
               re.escape(f'core/stats/diskstats.cpp:{line}: #include "mainwindow.h": core/ includes a header of ui/'))
    for failure in failures:
        print('FAIL', failure)
    if not failures:
        print('check-floors fails on each planted break, and passes the tree as it is')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
