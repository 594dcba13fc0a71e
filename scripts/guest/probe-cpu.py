#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Prints the -cpu string that enables everything rvperf's guest checks use
on a given qemu-system-riscv64: rv64 with Sscofpmf, and CTR (Smctr, Ssctr,
Smcsrind, Sscsrind, Smstateen) where that QEMU has it, in the CTR layout asked
for when it has a ctr-layout property (qemu-model/qemu).

Usage: probe-cpu.py QEMU [ratified|draft]

It asks QEMU itself (QMP device-list-properties on the rv64 CPU type), so a
user of make check-e2e need not know which properties a QEMU version has.
A draft layout asked of a QEMU without ctr-layout is an error: no upstream
QEMU implements the v0.1.4 draft."""
import json
import subprocess
import sys

CTR_PROPS = ('smctr', 'ssctr', 'smcsrind', 'sscsrind', 'smstateen')


def properties(qemu):
    cmds = [{'execute': 'qmp_capabilities'},
            {'execute': 'device-list-properties',
             'arguments': {'typename': 'rv64-riscv-cpu'}},
            {'execute': 'quit'}]
    try:
        proc = subprocess.run(
            [qemu, '-M', 'none', '-display', 'none', '-nodefaults',
             '-qmp', 'stdio'],
            input=''.join(json.dumps(c) + '\n' for c in cmds),
            capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as e:
        sys.exit('probe-cpu: cannot run %s: %s' % (qemu, e))
    for line in proc.stdout.splitlines():
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if isinstance(msg.get('return'), list):
            return {p['name'] for p in msg['return']}
        if 'error' in msg:
            sys.exit('probe-cpu: %s: %s' % (qemu, msg['error'].get('desc')))
    sys.exit('probe-cpu: %s answered no CPU properties' % qemu)


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit('usage: probe-cpu.py QEMU [ratified|draft]')
    layout = sys.argv[2] if len(sys.argv) == 3 else 'ratified'
    if layout not in ('ratified', 'draft'):
        sys.exit('probe-cpu: layout must be ratified or draft, not %r' % layout)
    props = properties(sys.argv[1])
    cpu = ['rv64']
    if 'sscofpmf' in props:
        cpu.append('sscofpmf=true')
    if all(p in props for p in CTR_PROPS):
        cpu += ['%s=true' % p for p in CTR_PROPS]
        if 'ctr-layout' in props:
            cpu.append('ctr-layout=' + layout)
        elif layout == 'draft':
            sys.exit('probe-cpu: %s has no ctr-layout property: '
                     'it cannot run the draft layout' % sys.argv[1])
    elif layout == 'draft':
        sys.exit('probe-cpu: %s has no CTR: it cannot run the draft layout'
                 % sys.argv[1])
    print(','.join(cpu))


if __name__ == '__main__':
    main()
