#!/usr/bin/env python3
"""Checks that core/'s folders include only floors below their own.

Reads the floor table in docs/architecture.md ("## Floors": one row per
core folder with its level, 0 at the bottom) and every #include in core/
and ui/. Fails, naming file:line, the include, the file's floor
and what it may include, when
  - a core folder includes a folder on its own level or above it,
  - a core file includes a ui/ or app/ header,
  - a ui/ file includes an app/ header,
  - a core folder has no row in the table, or a row names no folder.

Usage: check-floors.py [SOURCE_DIR]   (default: the checkout this script is in)
Exit status: 0 when every include keeps the floors, 1 when one does not,
2 when the table cannot be read.
"""

import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*(?:"([^"]+)"|<([^>]+)>)')
SOURCE_SUFFIXES = ('.h', '.hpp', '.cpp', '.cc', '.c')
ROW = re.compile(r'^\|\s*(\d+)\s*\|\s*`?([a-z0-9_]+)/?`?\s*\|')


def read_table(doc_path):
    """The floor table: {folder: level}. Raises ValueError naming what is wrong."""
    try:
        with open(doc_path, encoding='utf-8') as f:
            lines = f.read().split('\n')
    except OSError as e:
        raise ValueError(f'{doc_path}: {e.strerror}') from e
    try:
        start = lines.index('## Floors')
    except ValueError:
        raise ValueError(f'{doc_path}: no "## Floors" section') from None
    levels = {}
    in_table = False
    for number, line in enumerate(lines[start + 1:], start + 2):
        if line.startswith('## '):
            break
        if re.match(r'^\|\s*level\s*\|\s*folder\s*\|', line):
            in_table = True
            continue
        if not in_table:
            continue
        if not line.startswith('|'):
            if levels:
                break
            continue
        if re.match(r'^\|[\s|:-]+$', line):
            continue
        m = ROW.match(line)
        if not m:
            raise ValueError(f'{doc_path}:{number}: a floor row is "| LEVEL | `folder/` | ... |", got: {line}')
        level, folder = int(m.group(1)), m.group(2)
        if folder in levels:
            raise ValueError(f'{doc_path}:{number}: {folder}/ has two rows')
        levels[folder] = level
    if not levels:
        raise ValueError(f'{doc_path}: the "## Floors" section has no "| level | folder | ..." table')
    return levels


def sources(top):
    for root, dirs, files in os.walk(top):
        dirs.sort()
        for name in sorted(files):
            if name.endswith(SOURCE_SUFFIXES):
                yield os.path.join(root, name)


def includes(path):
    with open(path, encoding='utf-8', errors='replace') as f:
        for number, line in enumerate(f, 1):
            m = INCLUDE.match(line)
            if m:
                # <core/folder/...> finds the same file through core/'s
                # include path: only "..." looks beside the includer first.
                yield number, m.group(1) or m.group(2), m.group(1) is not None


def resolve(src, path, include, search, quoted=True):
    """The file `include` names, relative to `src`: beside the includer first
    (quoted only), then in each of `search` (folders on the include path);
    None when it is none of ours (a system or generated header)."""
    beside = [os.path.dirname(path)] if quoted else []
    for base in beside + [os.path.join(src, s) for s in search]:
        candidate = os.path.normpath(os.path.join(base, include))
        if os.path.isfile(candidate):
            return os.path.relpath(candidate, src)
    return None


def may_include(levels, folder):
    below = sorted(f + '/' for f, level in levels.items() if level < levels[folder])
    return ', '.join(below) if below else 'nothing else in core/'


def check(src):
    doc = os.path.join(src, 'docs', 'architecture.md')
    try:
        levels = read_table(doc)
    except ValueError as e:
        print(f'check-floors: {e}', file=sys.stderr)
        return 2
    problems = []
    core = os.path.join(src, 'core')
    folders = sorted(d for d in os.listdir(core) if os.path.isdir(os.path.join(core, d)))
    for folder in folders:
        if folder not in levels:
            problems.append(f'core/{folder}/ has no row in the floor table of docs/architecture.md ("## Floors"): '
                            f'give it a level')
    for folder in sorted(set(levels) - set(folders)):
        problems.append(f'docs/architecture.md\'s floor table names {folder}/, which is no folder of core/')

    for path in sources(core):
        rel = os.path.relpath(path, src)
        folder = rel.split(os.sep)[1]
        for number, include, quoted in includes(path):
            target = resolve(src, path, include, ['core'], quoted)
            where = f'{rel}:{number}: #include "{include}"' if quoted else f'{rel}:{number}: #include <{include}>'
            if target is None:
                if resolve(src, path, include, ['ui', 'app'], quoted) is not None or include.startswith(('ui/', 'app/')):
                    problems.append(f'{where}: core/ includes a header of ui/ or app/; core/ is below both')
                continue
            parts = target.split(os.sep)
            if parts[0] != 'core':
                problems.append(f'{where}: core/ includes {target}, outside core/')
                continue
            if len(parts) < 3:
                continue  # a file at core/'s top: none is a floor
            to = parts[1]
            if to == folder or folder not in levels or to not in levels:
                continue  # a missing row is reported above
            if levels[to] >= levels[folder]:
                problems.append(f'{where}: {folder}/ is on floor {levels[folder]} and includes {to}/ on floor '
                                f'{levels[to]}; {folder}/ may include {may_include(levels, folder)}')

    ui = os.path.join(src, 'ui')
    if os.path.isdir(ui):
        for path in sources(ui):
            rel = os.path.relpath(path, src)
            for number, include, quoted in includes(path):
                target = resolve(src, path, include, ['ui', 'core'], quoted)
                if (target is None and include.startswith('app/')) or (target or '').startswith('app' + os.sep):
                    problems.append(f'{rel}:{number}: #include "{include}": ui/ includes app/; nothing includes app/')

    for p in problems:
        print(p)
    if problems:
        print(f'check-floors: {len(problems)} include(s) break the floors of docs/architecture.md', file=sys.stderr)
        return 1
    print(f'check-floors: {len(folders)} core folders on {len(set(levels.values()))} floors; every include goes down')
    return 0


def main(argv):
    if len(argv) > 2 or (len(argv) == 2 and argv[1] in ('-h', '--help')):
        print(__doc__.strip())
        return 0 if len(argv) == 2 else 2
    src = argv[1] if len(argv) == 2 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if not os.path.isdir(os.path.join(src, 'core')):
        print(f'check-floors: {src} has no core/ folder (give the source tree)', file=sys.stderr)
        return 2
    return check(src)


if __name__ == '__main__':
    sys.exit(main(sys.argv))
