#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Runs every tests/ctr/*.scn through ctr-sim and checks what it prints.

A scenario states its expectations inline: each '#> TEXT' line is the next
line ctr-sim must print, and the latest '## TITLE' line (which names the
spec section) titles it.  One TAP result per expectation, plus one per file
for the exit status and for output nobody expected.

tests/ctr/bad/*.scn are malformed on purpose: their first line is
'#! N' and ctr-sim must exit 2 printing exactly one line that names line N.
"""

import glob
import os
import subprocess
import sys

O = os.environ.get('O', 'build')
SIM = os.path.join(O, 'qemu-model', 'ctr-sim')
HERE = os.path.dirname(os.path.abspath(__file__))

n = 0
failed = 0


def result(ok, desc, diag=()):
    global n, failed
    n += 1
    if not ok:
        failed += 1
    print('%s %d - %s' % ('ok' if ok else 'not ok', n, desc))
    for line in diag:
        print('# ' + line)


def expectations(path):
    title, out = '(untitled)', []
    with open(path) as f:
        for line in f:
            line = line.rstrip('\n')
            if line.startswith('## '):
                title = line[3:].strip()
            elif line.startswith('#> '):
                out.append((title, line[3:]))
            elif line == '#>':
                out.append((title, ''))
    return out


def run_good(path):
    name = os.path.relpath(path, HERE)
    want = expectations(path)
    p = subprocess.run([SIM, path], capture_output=True, text=True)
    got = p.stdout.splitlines()
    result(p.returncode == 0, '%s: exit status 0' % name,
           ['status %d, stderr: %s' % (p.returncode, p.stderr.strip())]
           if p.returncode else [])
    for i, (title, line) in enumerate(want):
        have = got[i] if i < len(got) else '(nothing)'
        result(have == line, '%s: %s: %s' % (name, title, line),
               ['got: ' + have] if have != line else [])
    extra = got[len(want):]
    result(not extra, '%s: no unexpected output' % name,
           ['unexpected: ' + l for l in extra[:5]])
    # --lines: the same results, each after the number of a line that
    # prints one (csrr, csrw, sctrclr or dump)
    p = subprocess.run([SIM, '--lines', path], capture_output=True,
                       text=True)
    with open(path) as f:
        cmds = [l.split('#', 1)[0].split()[:1] for l in f]
    bad = []
    numbered = p.stdout.splitlines()
    for i, l in enumerate(numbered):
        num, _, rest = l.partition('\t')
        k = int(num) if num.isdigit() else 0
        if (i >= len(got) or rest != got[i] or not 1 <= k <= len(cmds) or
                cmds[k - 1] not in (['csrr'], ['csrw'], ['sctrclr'],
                                    ['dump'])):
            bad.append(l)
    result(len(numbered) == len(got) and not bad,
           '%s: --lines numbers each result with its line' % name,
           ['not so: ' + l for l in bad[:3]])


def run_bad(path):
    name = os.path.relpath(path, HERE)
    with open(path) as f:
        first = f.readline().strip()
    want_line = first[2:].strip() if first.startswith('#!') else '?'
    p = subprocess.run([SIM, path], capture_output=True, text=True)
    lines = (p.stdout + p.stderr).splitlines()
    ok = (p.returncode == 2 and len(lines) == 1 and
          ('line %s:' % want_line) in lines[0])
    result(ok, '%s: exit 2 with one line naming line %s' % (name, want_line),
           ['status %d, output: %s' % (p.returncode, lines)] if not ok else [])


def main():
    if not os.access(SIM, os.X_OK):
        print('Bail out! %s is not built' % SIM)
        return 1
    for path in sorted(glob.glob(os.path.join(HERE, '*.scn'))):
        run_good(path)
    for path in sorted(glob.glob(os.path.join(HERE, 'bad', '*.scn'))):
        run_bad(path)
    print('1..%d' % n)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
