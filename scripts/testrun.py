#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Run rvperf test programs, read their TAP, print one project-wide summary.

Usage: testrun.py [--log-dir DIR] [--timeout SECONDS] [--jobs N] [--verbose]
                  TEST...

Each TEST is an executable (a compiled host test, a shell script, the guest
tier), optionally with arguments in the same shell-quoted word and optionally
named by a "NAME=" prefix (e.g. 'guest=scripts/guest/guest.py check'), that
prints TAP on stdout.  Its full output goes to LOG_DIR/NAME.log;
the terminal gets one line per test plus every failure, skip and expected
failure.  The last line is "N passed, N failed, N skipped" and the exit status
is 1 when anything failed.

--jobs N (or TEST_JOBS) runs up to N test programs at once; their lines are
still printed in the order given, each when it and those before it are done,
so the output reads the same whatever the timing.  A TEST written
"alone:NAME=..." runs with no other test beside it, after the others: one
whose checks read the host's clock (QEMU without -icount counts time, not
instructions) must not share the cores.  Each line ends with the
test's wall time, which is what to look at when make check gets slow.

A test program fails, beyond its own "not ok" lines, when it exits non-zero,
bails out, times out, prints no result at all, or prints a plan that does not
match the results it printed: a crash halfway must never look like a pass.
"TODO" results (known gaps, e.g. Debian OpenSBI 1.1's missing functions) are
listed as expected failures and counted with the skipped ones.
"""

import argparse
import os
import re
import shlex
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

RESULT = re.compile(r'^(not )?ok\b\s*(\d+)?\s*-?\s*(.*?)\s*$')
DIRECTIVE = re.compile(r'\s#\s*(SKIP|TODO)\b\s*(.*)$', re.IGNORECASE)
PLAN = re.compile(r'^1\.\.(\d+)\s*(#\s*SKIP\b\s*(.*))?', re.IGNORECASE)


ALONE = 'alone:'


class Tally:
    def __init__(self):
        self.passed = self.failed = self.skipped = self.xfail = 0


def test_name(argv):
    """A short stable name: the path below the build or source tree."""
    rel = os.path.relpath(argv[0])
    if len(argv) > 1:
        rel += ' ' + argv[1]
    for prefix in ('build/tests/', 'build/', 'tests/', 'scripts/'):
        if rel.startswith(prefix):
            return rel[len(prefix):]
    return rel


def parse_tap(lines, tally, report):
    """Counts one TAP stream into tally; returns (results, plan)."""
    results = 0
    plan = None
    last_failed = False
    for line in lines:
        if line.startswith('Bail out!'):
            tally.failed += 1
            report('  BAIL ' + line.strip())
            continue
        m = PLAN.match(line)
        if m:
            plan = int(m.group(1))
            if plan == 0 and m.group(2):
                tally.skipped += 1
                report('  SKIP (whole test) ' + (m.group(3) or '').strip())
            continue
        m = RESULT.match(line)
        if not m:
            # Diagnostics right after a failure explain it: show them.
            if last_failed and line.startswith('#'):
                report('       ' + line.rstrip())
            continue
        results += 1
        ok = m.group(1) is None
        text = m.group(3)
        d = DIRECTIVE.search(' ' + text)
        directive = d.group(1).upper() if d else None
        last_failed = False
        if directive == 'SKIP':
            tally.skipped += 1
            report('  SKIP ' + text)
        elif directive == 'TODO':
            if ok:
                tally.passed += 1
                report('  UNEXPECTED PASS ' + text)
            else:
                tally.xfail += 1
                tally.skipped += 1
                report('  XFAIL ' + text)
        elif ok:
            tally.passed += 1
        else:
            tally.failed += 1
            last_failed = True
            report('  FAIL ' + text)
    return results, plan


def run_one(entry, log_dir, timeout, verbose):
    """Runs one test; returns (its lines for the terminal, its tally)."""
    argv = shlex.split(entry)
    if argv and argv[0].startswith(ALONE):
        argv[0] = argv[0][len(ALONE):]
    m = re.match(r'^([\w.-]+)=(.+)$', argv[0]) if argv else None
    if m:
        name, argv[0] = m.group(1), m.group(2)
    else:
        name = test_name(argv)
    log_path = os.path.join(log_dir, re.sub(r'[^A-Za-z0-9_.-]+', '_', name) + '.log')
    tally = Tally()
    notes = []
    out = []
    start = time.monotonic()
    try:
        proc = subprocess.run(argv, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, timeout=timeout,
                              stdin=subprocess.DEVNULL)
        output = proc.stdout.decode('utf-8', 'replace')
        status = proc.returncode
    except subprocess.TimeoutExpired as e:
        output = (e.stdout or b'').decode('utf-8', 'replace')
        status = None
    except OSError as e:
        output = ''
        status = 'could not start: %s' % e.strerror
    seconds = time.monotonic() - start
    with open(log_path, 'w') as f:
        f.write(output)

    lines = output.splitlines()
    results, plan = parse_tap(lines, tally, notes.append)
    if status is None:
        tally.failed += 1
        notes.append('  FAIL timed out after %d s' % timeout)
    elif isinstance(status, str):
        tally.failed += 1
        notes.append('  FAIL ' + status)
    elif status != 0 and tally.failed == 0:
        tally.failed += 1
        notes.append('  FAIL exited with status %d' % status)
    if results == 0 and plan is None and status == 0:
        tally.failed += 1
        notes.append('  FAIL printed no TAP results')
    if plan is not None and plan != results and not (plan == 0 and results == 0):
        tally.failed += 1
        notes.append('  FAIL planned %d results, printed %d' % (plan, results))

    if tally.failed:
        verdict = 'FAIL'
    elif tally.passed == 0 and tally.skipped:
        verdict = 'SKIP'
    else:
        verdict = 'PASS'
    counts = '%d passed' % tally.passed
    if tally.failed:
        counts += ', %d failed' % tally.failed
    if tally.skipped:
        counts += ', %d skipped' % tally.skipped
    out.append('%s %s (%s) %.0f s' % (verdict, name, counts, seconds))
    if verbose:
        out.extend('    ' + line for line in lines)
    out.extend(notes)
    if tally.failed:
        out.append('  log: ' + os.path.relpath(log_path))
    return out, tally


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--log-dir', default='build/test-logs')
    ap.add_argument('--timeout', type=int,
                    default=int(os.environ.get('TEST_TIMEOUT', '1200')))
    ap.add_argument('--jobs', '-j', type=int,
                    default=int(os.environ.get('TEST_JOBS', '1')))
    ap.add_argument('--verbose', action='store_true',
                    default=os.environ.get('V', '0') not in ('', '0'))
    ap.add_argument('tests', nargs='*')
    args = ap.parse_args()
    os.makedirs(args.log_dir, exist_ok=True)
    total = Tally()

    def run(entry):
        return run_one(entry, args.log_dir, args.timeout, args.verbose)

    shared = ThreadPoolExecutor(max_workers=max(1, args.jobs))
    alone = ThreadPoolExecutor(max_workers=1)

    def after_shared(entry):
        shared.shutdown(wait=True)
        return run(entry)

    runs = [None] * len(args.tests)
    for i, entry in enumerate(args.tests):
        if not entry.startswith(ALONE):
            runs[i] = shared.submit(run, entry)
    for i, entry in enumerate(args.tests):
        if entry.startswith(ALONE):
            runs[i] = alone.submit(after_shared, entry)
    with shared, alone:
        for done in runs:
            out, tally = done.result()
            print('\n'.join(out))
            sys.stdout.flush()
            total.passed += tally.passed
            total.failed += tally.failed
            total.skipped += tally.skipped
            total.xfail += tally.xfail
    if total.xfail:
        print('(%d of the skipped are expected failures: known gaps, listed '
              'above as XFAIL)' % total.xfail)
    print('%d passed, %d failed, %d skipped' %
          (total.passed, total.failed, total.skipped))
    return 1 if total.failed else 0


if __name__ == '__main__':
    sys.exit(main())
