#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""The naming rules of docs/naming.md, checked on the tree:

- no two source files (.c .h .S .py .sh, tracked or new and not ignored)
  share a base name, unless docs/naming.md lists that name with exactly
  those files;
- each core (docs/naming.md's first table) exports, from its objects as
  the host compiler builds them, only symbols that start with one of its
  prefixes;
- no two cores export symbols with a common prefix (the same first word
  before '_'), and no prefix of one core starts another core's;
- a C file includes another directory's header by its path from the top
  ("userspace/perfdata/perf_records.h"), never by a bare name that only
  an -I flag makes resolve (the harness's tap.h, the generated headers
  and the hosts' own trees, linux-driver/ and qemu-model/qemu/, aside).

Run from the repository's top; HOST_CC (default cc) and NM (default nm)."""

import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from tap import ok, done  # noqa: E402

DOC = os.environ.get('NAMING_DOC', 'docs/naming.md')
SOURCE = re.compile(r'\.(c|h|S|py|sh)$')




def table(lines, heading):
    """The rows (lists of cells) of the first table after the heading
    line that starts with HEADING, without its header and rule."""
    rows, inside = [], False
    for line in lines:
        if line.startswith('#'):
            if inside and rows:
                break
            inside = line.startswith(heading)
            continue
        if inside and line.startswith('|'):
            rows.append([c.strip() for c in line.strip().strip('|').split('|')])
        elif inside and rows:
            break
    return rows[2:]


def ticks(cell):
    return re.findall(r'`([^`]+)`', cell)


def first_word(sym):
    return sym.split('_', 1)[0]


def main():
    try:
        doc = open(DOC).read().splitlines()
    except OSError as e:
        print('Bail out! %s' % e)
        return 1
    cores = []
    for row in table(doc, '# Names'):
        if len(row) >= 4 and ticks(row[0]):
            cores.append((ticks(row[0])[0].rstrip('/'), ticks(row[-1])))
    allowed = {}
    for row in table(doc, '## One base name'):
        if len(row) >= 3 and ticks(row[0]):
            allowed[ticks(row[0])[0]] = (set(ticks(row[1])), row[2])
    ok(len(cores) >= 2 and all(p for _, p in cores),
       '%s names the cores and their prefixes (%s)' %
       (DOC, ', '.join(c for c, _ in cores)))

    # Base names.
    r = subprocess.run(['git', 'ls-files', '--cached', '--others',
                        '--exclude-standard'], capture_output=True, text=True)
    if r.returncode != 0:
        print('1..0 # SKIP not a git checkout')
        return 0
    out = os.environ.get('O', 'build').rstrip('/') + '/'
    files = [f for f in r.stdout.split() if SOURCE.search(f) and
             os.path.isfile(f) and not f.startswith((out, 'build/'))]
    by_base = {}
    for f in files:
        by_base.setdefault(os.path.basename(f), set()).add(f)
    shared = {b: fs for b, fs in by_base.items() if len(fs) > 1}
    bad = []
    for b, fs in sorted(shared.items()):
        if b not in allowed:
            bad.append('%s: %s (not in %s)' % (b, ' '.join(sorted(fs)), DOC))
        elif fs - allowed[b][0]:
            bad.append('%s: %s (%s lists %s)' % (b, ' '.join(sorted(fs)), DOC,
                                                 ' '.join(sorted(allowed[b][0]))))
    ok(not bad, 'no two of %d source files share a base name outside %s '
       '(%d listed)' % (len(files), DOC, len(allowed)), '\n'.join(bad))
    for b, (fs, why) in sorted(allowed.items()):
        ok(why != '' and len(by_base.get(b, ())) > 1,
           '%s: shared by %s, listed because: %s' % (b, ' '.join(sorted(fs)), why),
           'stale entry: the tree has %s' % ' '.join(sorted(by_base.get(b, ()))))

    # Includes name the directory.
    bare = re.compile(r'^\s*#\s*include\s+"([^"/]+)"', re.M)
    known = {'tap.h', 'rvperf_config.h', 'spec_consts.h'}
    bad = []
    for f in files:
        if not f.endswith(('.c', '.h', '.S')) or \
                f.startswith(('linux-driver/', 'qemu-model/qemu/')):
            continue
        try:
            text = open(f, errors='replace').read()
        except OSError:
            continue
        for h in bare.findall(text):
            if h not in known and not os.path.isfile(
                    os.path.join(os.path.dirname(f), h)):
                homes = sorted(g for g in by_base.get(h, ()))
                bad.append('%s: "%s"%s' % (f, h, (' is ' + ' '.join(homes))
                                           if homes else ''))
    ok(not bad, 'every include of another directory\'s header names its '
       'path from the top', '\n'.join(bad))

    # Exported symbols of each core's objects.
    cc = os.environ.get('HOST_CC', 'cc')
    nm = os.environ.get('NM', 'nm')
    exports = {}
    with tempfile.TemporaryDirectory() as tmp:
        for core, prefixes in cores:
            srcs = sorted(f for f in files if f.startswith(core + '/') and
                          f.endswith('.c'))
            syms, errs = set(), []
            for i, src in enumerate(srcs):
                obj = os.path.join(tmp, '%d.o' % i)
                c = subprocess.run([cc, '-std=gnu11', '-O2', '-I.', '-Iinclude',
                                    '-c', src, '-o', obj],
                                   capture_output=True, text=True)
                if c.returncode != 0:
                    errs.append('%s: %s' % (src, c.stderr.strip()[:400]))
                    continue
                s = subprocess.run([nm, '-g', '--defined-only', obj],
                                   capture_output=True, text=True)
                for line in s.stdout.splitlines():
                    parts = line.split()
                    if len(parts) == 3:
                        syms.add(parts[2])
            ok(srcs and not errs, '%s: %d objects build and list their symbols'
               % (core, len(srcs)), '\n'.join(errs))
            exports[core] = syms
            outside = sorted(s for s in syms if not s.startswith(tuple(prefixes)))
            ok(syms and not outside, '%s: its %d exported symbols all start '
               'with %s' % (core, len(syms), ' '.join(prefixes)),
               'outside the prefixes: ' + ' '.join(outside))
    for i, (a, pa) in enumerate(cores):
        for b, pb in cores[i + 1:]:
            common = {}
            for s in exports.get(a, ()):
                common.setdefault(first_word(s), [set(), set()])[0].add(s)
            for s in exports.get(b, ()):
                common.setdefault(first_word(s), [set(), set()])[1].add(s)
            clash = ['%s_: %s | %s' % (w, ' '.join(sorted(x)[:4]),
                                       ' '.join(sorted(y)[:4]))
                     for w, (x, y) in sorted(common.items()) if x and y]
            ok(not clash, '%s and %s export no symbols with a common prefix'
               % (a, b), '\n'.join(clash))
            nested = ['%s / %s' % (x, y) for x in pa for y in pb
                      if first_word(x) == first_word(y)]
            ok(not nested, '%s and %s declare prefixes with no common first '
               'word' % (a, b), ' '.join(nested))
    return done()


if __name__ == '__main__':
    sys.exit(main())
