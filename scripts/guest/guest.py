#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Boot the rvperf guest in QEMU and turn what it printed into results.

  guest.py check   boot, then print TAP (the guest tier of 'make check')
  guest.py run     boot, then show what the plan's commands printed
  guest.py tap     print TAP for logs an earlier boot left in --out

The guest's init (tests/guest/init.c) runs the commands of its plan and
writes their output to a virtio port that QEMU saves as OUT/out.log; the
kernel console goes to OUT/console.log.  Options default to environment
variables (GUEST_KERNEL, GUEST_INITRD, GUEST_PLAN, GUEST_OUT, GUEST_TIMEOUT,
GUEST_ICOUNT); the emulator and firmware are always given explicitly or
default to Debian's, so a QEMU or OPENSBI_FW meant for check-e2e never
leaks into the guest tier.

A check run fails not only on a failing test, but when a planned program did
not run or did not exit 0, when its TAP plan does not match, when the kernel
logged an oops, WARN, BUG or panic (even if every test passed), and when the
guest did not power itself off before the timeout.
"""

import argparse
import os
import re
import shlex
import subprocess
import sys

MARKER = '# rvperf-guest: '
RESULT = re.compile(r'^(not )?ok\b\s*(\d+)?\s*-?\s*(.*?)\s*$')
PLAN = re.compile(r'^1\.\.(\d+)')
KTAP_RESULT = re.compile(r'^(\s*)(not )?ok (\d+) (.*?)\s*$')
# What the kernel prints when something went wrong, wherever it happened.
KERNEL_TROUBLE = re.compile(
    r'(WARNING: CPU:|------------\[ cut here \]|Oops|BUG:|Kernel panic|'
    r'Unable to handle kernel|kernel BUG at|general protection fault|'
    r'Internal error:|Call Trace:|RCU stall|soft lockup|hung_task)')

DEBIAN_OPENSBI = '/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_dynamic.bin'


def fail(msg):
    sys.stderr.write('guest: %s\n' % msg)
    sys.exit(2)


def qemu_version_line(qemu):
    """The first line of QEMU's --version, or None."""
    try:
        return subprocess.run([qemu, '--version'], capture_output=True,
                              text=True, timeout=30).stdout.splitlines()[0]
    except (OSError, IndexError, subprocess.TimeoutExpired):
        return None


def declared_dtb(cmd, exts, out_dir):
    """The devicetree QEMU makes for CMD, with EXTS added to every hart's
    riscv,isa-extensions: for an extension a model implements but QEMU
    does not declare (rvperf's QEMU with ctr-layout=draft has the v0.1.4
    draft CTR CSRs, which firmware uses only where "xrvperfctrdraft" is
    declared).  QEMU fills in /chosen (bootargs, initrd) of a -dtb too."""
    dtb = os.path.join(out_dir, 'virt.dtb')
    machine = cmd.index('-M') + 1
    dump = list(cmd)
    dump[machine] += ',dumpdtb=' + dtb
    proc = subprocess.run(dump, stdin=subprocess.DEVNULL,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if proc.returncode != 0 or not os.path.isfile(dtb):
        fail('QEMU did not dump its devicetree: %s' %
             proc.stdout.decode(errors='replace').strip()[-200:])

    def fdt(*argv):
        try:
            return subprocess.run(argv, check=True, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE,
                                  text=True).stdout.split()
        except (OSError, subprocess.CalledProcessError) as e:
            fail('%s: %s' % (argv[0], getattr(e, 'stderr', '') or e))
    harts = [n for n in fdt('fdtget', '-l', dtb, '/cpus')
             if n.startswith('cpu@')]
    if not harts:
        fail('no /cpus/cpu@N in the devicetree QEMU made')
    for hart in harts:
        node = '/cpus/' + hart
        have = fdt('fdtget', '-t', 's', dtb, node, 'riscv,isa-extensions')
        fdt('fdtput', '-t', 's', dtb, node, 'riscv,isa-extensions',
            *(have + [e for e in exts if e not in have]))
    return dtb


def boot(args):
    """Runs QEMU once; returns 'poweroff', 'timeout' or 'exit N'."""
    for what, path in (('kernel', args.kernel), ('initramfs', args.initrd),
                       ('firmware', args.bios)):
        if not path or not os.path.isfile(path):
            fail('%s not found: %s' % (what, path or '(unset)'))
    os.makedirs(args.out, exist_ok=True)
    out_log = os.path.join(args.out, 'out.log')
    console_log = os.path.join(args.out, 'console.log')
    for f in (out_log, console_log):
        if os.path.exists(f):
            os.unlink(f)
    append = 'console=ttyS0 panic=-1'
    if args.icount is not None:
        append += ' rvperf.icount=1'
    elif args.exact_instret:
        append += ' rvperf.instret=exact'
    # For checks of what one QEMU emulates and another does not.
    version = re.search(r'version (\d+\.\d+)',
                        qemu_version_line(args.qemu) or '')
    if version:
        append += ' rvperf.qemu=' + version.group(1)
    cmd = [args.qemu, '-M', 'virt', '-cpu', args.cpu, '-smp', str(args.smp),
           '-m', '512M', '-display', 'none', '-monitor', 'none',
           '-no-reboot', '-bios', args.bios, '-kernel', args.kernel,
           '-initrd', args.initrd, '-append', append,
           '-serial', 'file:' + console_log,
           '-device', 'virtio-serial-device',
           '-chardev', 'file,id=rvperfout,path=' + out_log,
           '-device', 'virtserialport,chardev=rvperfout,name=rvperf.out']
    if args.icount is not None:
        cmd += ['-icount', 'shift=%d' % args.icount]
    cmd += args.qemu_arg
    if args.isa_ext:
        cmd += ['-dtb', declared_dtb(cmd, args.isa_ext, args.out)]
    with open(os.path.join(args.out, 'qemu.cmd'), 'w') as f:
        f.write(' '.join(shlex.quote(c) for c in cmd) + '\n')
    try:
        proc = subprocess.run(cmd, stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, timeout=args.timeout)
    except FileNotFoundError:
        fail('cannot run QEMU: %s' % args.qemu)
    except subprocess.TimeoutExpired:
        state = 'timeout'
    else:
        state = 'exit %d' % proc.returncode
        if proc.returncode != 0 and proc.stdout:
            with open(os.path.join(args.out, 'qemu.log'), 'wb') as f:
                f.write(proc.stdout)
    with open(os.path.join(args.out, 'state'), 'w') as f:
        f.write(state + '\n')
    return state


def read_text(path):
    try:
        with open(path, 'rb') as f:
            return f.read().decode('utf-8', 'replace')
    except FileNotFoundError:
        return ''


def parse_out(text):
    """Splits init's output into sections and the kernel log dump."""
    sections = []      # dicts: cmd, lines, status (None until it ended)
    dmesg = []
    started = done = False
    current = None
    in_dmesg = False
    for line in text.splitlines():
        if line.startswith(MARKER):
            what = line[len(MARKER):]
            if what == 'init started':
                started = True
            elif what.startswith('begin '):
                current = {'cmd': what[6:], 'lines': [], 'status': None}
                sections.append(current)
            elif what.startswith('end status=') and current is not None:
                current['status'] = what[len('end status='):]
                current = None
            elif what == 'dmesg begin':
                in_dmesg = True
            elif what == 'dmesg end':
                in_dmesg = False
            elif what == 'done':
                done = True
            elif current is not None:
                current['lines'].append(line)
            continue
        if in_dmesg:
            dmesg.append(re.sub(r'^<\d+>', '', line))
        elif current is not None:
            current['lines'].append(line)
    return started, done, sections, dmesg


def read_plan(path):
    """The commands of a plan file, as init will run them."""
    cmds = []
    for line in read_text(path).splitlines():
        line = line.strip()
        if not line or line.startswith('#'):
            continue
        words = line.split()
        if words[0].startswith('timeout='):
            words = words[1:]
        cmds.append(' '.join(words))
    return cmds


def ktap_leaves(lines):
    """KUnit results in the kernel log: (ok, name) of each test case.

    A suite's own result line comes after its cases at a smaller indent;
    only results with no deeper result right before them are leaves."""
    found = []
    prev_indent = -1
    for line in lines:
        m = KTAP_RESULT.match(line)
        if not m:
            continue
        indent = len(m.group(1).expandtabs())
        name = re.sub(r'\s*#.*$', '', m.group(4)).strip(' -')
        if indent >= prev_indent or prev_indent < 0:
            found.append((m.group(2) is None, name, m.group(4)))
        prev_indent = indent
    return found


class Tap:
    def __init__(self):
        self.n = 0
        self.failed = 0

    def result(self, ok, text, diag=()):
        self.n += 1
        if not ok:
            self.failed += 1
        print('%s %d - %s' % ('ok' if ok else 'not ok', self.n, text))
        for d in diag:
            print('# ' + d)

    def passthrough(self, ok, text):
        self.n += 1
        print('%s %d - %s' % ('ok' if ok else 'not ok', self.n, text))


def program_results(tap, section):
    """Re-numbers one program's TAP under its name; returns nothing."""
    name = os.path.basename(section['cmd'].split()[0])
    results = 0
    plan = None
    skip_all = None
    pending_fail = None
    for line in section['lines']:
        m = PLAN.match(line)
        if m:
            plan = int(m.group(1))
            # "1..0 # SKIP reason": the whole program does not apply here.
            s = re.search(r'#\s*SKIP\b\s*(.*)', line, re.I)
            if plan == 0 and s:
                skip_all = s.group(1) or 'skipped'
            continue
        m = RESULT.match(line)
        if m:
            results += 1
            ok = m.group(1) is None
            text = m.group(3)
            directive = re.search(r'#\s*(SKIP|TODO)\b', text, re.I)
            if not ok and not directive:
                tap.failed += 1
            tap.n += 1
            print('%s %d - %s: %s' % ('ok' if ok else 'not ok', tap.n, name,
                                      text))
            pending_fail = not ok
            continue
        if pending_fail and line.startswith('#'):
            print(line)
    status = section['status']
    tail = ['%s: %s' % (name, l) for l in section['lines'][-15:]]
    if status is None:
        tap.result(False, '%s: finished (it never ended: guest died?)' % name,
                   tail)
    elif status != '0':
        tap.result(False, '%s: exited with status 0 (got %s)' % (name, status),
                   tail)
    else:
        tap.result(True, '%s: exited with status 0' % name)
    if results == 0 and skip_all is not None and status == '0':
        tap.n += 1
        print('ok %d - %s: does not apply here # SKIP %s' % (tap.n, name,
                                                         skip_all))
    elif results == 0:
        tap.result(False, '%s: printed TAP results' % name, tail)
    elif plan is not None and plan != results:
        tap.result(False, '%s: printed as many results as planned '
                   '(%d planned, %d printed)' % (name, plan, results))


def check_logs(out_dir, plan_path, timeout):
    started, done, sections, dmesg = parse_out(
        read_text(os.path.join(out_dir, 'out.log')))
    console = read_text(os.path.join(out_dir, 'console.log'))
    state = read_text(os.path.join(out_dir, 'state')).strip() or 'unknown'
    tap = Tap()
    tail = console.splitlines()[-20:]

    tap.result(started, 'guest: the kernel booted and ran init',
               [] if started else ['console: ' + l for l in tail])
    by_cmd = {}
    for s in sections:
        by_cmd.setdefault(s['cmd'], []).append(s)
    for cmd in read_plan(plan_path):
        runs = by_cmd.get(cmd)
        if not runs:
            tap.result(False, '%s: ran in the guest' %
                       os.path.basename(cmd.split()[0]))
            continue
        program_results(tap, runs.pop(0))

    for ok, name, text in ktap_leaves(dmesg):
        directive = re.search(r'#\s*(SKIP|TODO)\b', text, re.I)
        if not ok and not directive:
            tap.failed += 1
        tap.passthrough(ok, 'kunit: ' + text)

    trouble = [l for l in (console.splitlines() or dmesg)
               if KERNEL_TROUBLE.search(l)]
    tap.result(not trouble,
               'guest: the kernel logged no oops, WARN, BUG or panic',
               ['kernel: ' + l for l in trouble[:20]])
    tap.result(done and state == 'exit 0',
               'guest: powered itself off within %s s (%s)' %
               (timeout, state),
               [] if done else ['console: ' + l for l in tail])
    print('1..%d' % tap.n)
    return 1 if tap.failed else 0


# The console lines that say which firmware, kernel and driver ran.
STACK_LINES = re.compile(
    r'^(OpenSBI v\S+|Platform Name\s*:.*|Platform PMU Device\s*:.*|'
    r'Runtime SBI Version\s*:.*|rvperf: .*|Linux version \S+|'
    r'(?:\[[ 0-9.]+\] )?rvperf-(?:pmu|ctr): .*)$')


def show_stack(args):
    """Prints which QEMU, firmware, kernel and driver the run used."""
    print('== what ran: %s, -cpu %s, %s' % (
        qemu_version_line(args.qemu) or '(no version)', args.cpu,
        '-icount shift=%d' % args.icount
        if args.icount is not None else 'no -icount'))
    print('   firmware %s' % args.bios)
    for line in read_text(os.path.join(args.out, 'console.log')).splitlines():
        line = line.strip()
        if STACK_LINES.match(line):
            print('   ' + re.sub(r'^\[[ 0-9.]+\] ', '', line)[:100])


def show_logs(out_dir):
    started, done, sections, _ = parse_out(
        read_text(os.path.join(out_dir, 'out.log')))
    state = read_text(os.path.join(out_dir, 'state')).strip()
    bad = []
    for s in sections:
        print('\n$ ' + s['cmd'].replace('/bin/', ''))
        for line in s['lines']:
            print(line)
        if s['status'] != '0':
            bad.append('%s (status %s)' % (s['cmd'], s['status']))
    if not started or not done or state != 'exit 0' or bad:
        sys.stderr.write('guest: the run did not complete: %s\n' % (
            ', '.join(bad) if bad else
            'guest state %s; see %s/console.log' % (state, out_dir)))
        return 1
    return 0


def main():
    env = os.environ.get
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('mode', choices=('check', 'run', 'tap'))
    ap.add_argument('--kernel', default=env('GUEST_KERNEL'))
    ap.add_argument('--initrd', default=env('GUEST_INITRD'))
    ap.add_argument('--plan', default=env('GUEST_PLAN'))
    ap.add_argument('--out', default=env('GUEST_OUT', 'build/guest/out'))
    ap.add_argument('--qemu', default='qemu-system-riscv64')
    ap.add_argument('--bios', default=DEBIAN_OPENSBI)
    ap.add_argument('--cpu', default=env('GUEST_CPU', 'rv64,sscofpmf=true'))
    ap.add_argument('--timeout', type=int,
                    default=int(env('GUEST_TIMEOUT', '600')))
    icount = env('GUEST_ICOUNT', '')
    ap.add_argument('--icount', type=int,
                    default=int(icount) if icount != '' else None,
                    help='boot with -icount shift=N (exact instret)')
    ap.add_argument('--no-icount', dest='icount', action='store_const',
                    const=None, help='boot without -icount (free-running '
                    'clock, as kernel CI runs QEMU); overrides GUEST_ICOUNT')
    ap.add_argument('--exact-instret', action='store_true',
                    help='the QEMU counts retired instructions exactly '
                    'without -icount too (ours: qemu-model/qemu patch '
                    '0008); the guest is told so (rvperf.instret=exact)')
    ap.add_argument('--smp', type=int, default=1,
                    help='harts (default 1; ctr-migrate needs 2)')
    ap.add_argument('--isa-ext', action='append', default=[],
                    help='an extension name to declare in every hart\'s '
                    'riscv,isa-extensions (repeatable): QEMU\'s devicetree '
                    'is dumped, amended and booted with -dtb')
    ap.add_argument('--qemu-arg', action='append', default=[],
                    help='one more QEMU argument (repeatable), e.g. a -plugin')
    args = ap.parse_args()

    if args.mode != 'tap':
        boot(args)
    if args.mode == 'run':
        show_stack(args)
        return show_logs(args.out)
    if not args.plan:
        fail('no plan given (--plan or GUEST_PLAN)')
    return check_logs(args.out, args.plan, args.timeout)


if __name__ == '__main__':
    sys.exit(main())
