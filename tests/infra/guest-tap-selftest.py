#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""scripts/guest/guest.py must fail a guest run for every way it can go wrong:
a failing or missing program, a bad exit, a plan mismatch, a kernel oops or
WARN even when all tests passed, a hang, and failing KUnit cases."""

import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from tap import ok, done  # noqa: E402

M = '# rvperf-guest: '




def section(cmd, lines, status='0'):
    return [M + 'begin ' + cmd] + lines + [M + 'end status=' + status]


GOOD_PROG = section('/bin/t1', ['ok 1 - first', 'ok 2 - second', '1..2'])
DMESG_CLEAN = [M + 'dmesg begin', '<6>Linux version 6.12', M + 'dmesg end']


def run(out_lines, plan=('/bin/t1',), console='Linux version 6.12\n',
        state='exit 0'):
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, 'out.log'), 'w') as f:
            f.write('\n'.join(out_lines) + '\n')
        with open(os.path.join(d, 'console.log'), 'w') as f:
            f.write(console)
        with open(os.path.join(d, 'state'), 'w') as f:
            f.write(state + '\n')
        with open(os.path.join(d, 'plan'), 'w') as f:
            f.write('\n'.join('timeout=60 ' + p for p in plan) + '\n')
        p = subprocess.run([sys.executable, 'scripts/guest/guest.py', 'tap',
                            '--out', d, '--plan', os.path.join(d, 'plan'),
                            '--timeout', '60'],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        return p.returncode, p.stdout.decode()


def good(extra=(), **kw):
    return run([M + 'init started'] + GOOD_PROG + list(extra) + DMESG_CLEAN +
               [M + 'done'], **kw)


rc, out = good()
ok(rc == 0 and 'not ok' not in out, 'a clean run passes', out)
ok('ok 2 - t1: first' in out and 'ok 3 - t1: second' in out,
   "program results are renumbered under the program's name", out)

rc, out = good(console='Linux\nWARNING: CPU: 0 PID: 1 at kernel/x.c:1 f+0x0\n')
ok(rc == 1 and 'not ok' in out and 'WARNING: CPU' in out,
   'a kernel WARN fails the run even when every test passed', out)
rc, out = good(console='Unable to handle kernel paging request\nOops [#1]\n')
ok(rc == 1, 'a kernel oops fails the run', out)
rc, out = good(console='Kernel panic - not syncing: Attempted to kill init\n',
               state='exit 0')
ok(rc == 1, 'a kernel panic fails the run', out)

rc, out = good(state='timeout')
ok(rc == 1 and 'powered itself off' in out and 'not ok' in out,
   'a guest that had to be killed fails the run', out)
rc, out = run([M + 'init started'] + GOOD_PROG)
ok(rc == 1, 'a guest that never finished its plan fails the run', out)
rc, out = run([], console='[    0.0] Linux version\n', state='timeout')
ok(rc == 1 and 'not ok 1 - guest: the kernel booted and ran init' in out,
   'a guest that never reached init fails the run', out)

rc, out = good(plan=('/bin/t1', '/bin/t2'))
ok(rc == 1 and 'not ok' in out and 't2: ran in the guest' in out,
   'a planned program that did not run fails the run', out)

bad = section('/bin/t1', ['ok 1 - first', 'not ok 2 - second', '# why', '1..2'],
              status='1')
rc, out = run([M + 'init started'] + bad + DMESG_CLEAN + [M + 'done'])
ok(rc == 1 and 'not ok 3 - t1: second' in out and '# why' in out,
   'a failing check fails the run and keeps its diagnostics', out)

crashed = section('/bin/t1', ['ok 1 - first', '1..1'], status='signal-11')
rc, out = run([M + 'init started'] + crashed + DMESG_CLEAN + [M + 'done'])
ok(rc == 1 and 'signal-11' in out,
   'a program killed by a signal fails the run', out)

short = section('/bin/t1', ['1..3', 'ok 1 - first'])
rc, out = run([M + 'init started'] + short + DMESG_CLEAN + [M + 'done'])
ok(rc == 1 and '3 planned, 1 printed' in out,
   'a program printing fewer results than planned fails the run', out)

quiet = section('/bin/t1', ['hello'])
rc, out = run([M + 'init started'] + quiet + DMESG_CLEAN + [M + 'done'])
ok(rc == 1 and 't1: printed TAP results' in out,
   'a program printing no results fails the run', out)

skipped = section('/bin/t1', ['ok 1 - x # SKIP no CTR', '1..1'])
rc, out = run([M + 'init started'] + skipped + DMESG_CLEAN + [M + 'done'])
ok(rc == 0 and '# SKIP no CTR' in out, 'a skipped check is passed on', out)

skip_all = section('/bin/t1', ['1..0 # SKIP the hart has no CTR'])
rc, out = run([M + 'init started'] + skip_all + DMESG_CLEAN + [M + 'done'])
ok(rc == 0 and 'ok 3 - t1: does not apply here # SKIP the hart has no CTR' in out,
   'a program that skips as a whole (plan 1..0 with SKIP) is one skipped result', out)
skip_crash = section('/bin/t1', ['1..0 # SKIP no CTR'], status='1')
rc, out = run([M + 'init started'] + skip_crash + DMESG_CLEAN + [M + 'done'])
ok(rc == 1 and 'printed TAP results' in out,
   'a whole-program skip that exits non-zero still fails', out)

ktap = [M + 'dmesg begin', '<6>KTAP version 1', '<6>1..1',
        '<6>    KTAP version 1', '<6>    # Subtest: rvperf_filter',
        '<6>    1..2', '<6>    ok 1 map_any', '<3>    not ok 2 map_call',
        '<3>not ok 1 rvperf_filter', M + 'dmesg end']
rc, out = run([M + 'init started'] + GOOD_PROG + ktap + [M + 'done'])
ok(rc == 1 and 'ok 5 - kunit: map_any' in out and
   'not ok 6 - kunit: map_call' in out and 'kunit: rvperf_filter' not in out,
   'KUnit cases in the kernel log are results; a suite line is not', out)

sys.exit(done())
