#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Replay a ctr-sim scenario's M-mode prefix with real control transfers.

  scn2events.py gen SCN OUT.S OUT.c OUT.tmpl  (prints the transfer count)
  scn2events.py fill OUT.tmpl NM.txt     (the scenario for ctr-sim, stdout)

gen keeps the scenario's leading lines a bare-metal M-mode guest can do
itself (csrw/csrr of CTR CSRs and *iselect/*ireg, xfer of every in-mode
type, sctrclr, cycles N, dump, priv M while in M; ratified layout) and
stops at the first other line (priv to another mode, trap, impl, ...) or
at the first access the scenario expects to be illegal.  It writes
  - OUT.S: ops(), doing exactly that: each xfer is a real instruction of
    that type (non-compressed) whose target is the next instruction, each
    read is stored to rvp_out[], each dump reads all 256 entries through
    siselect/sireg* (restoring siselect, unrolled: a loop's branches would
    be recorded); OUT.c names the reads, events.c prints rvp_out[] as
    ctr-sim prints reads and dumps;
  - OUT.tmpl: the same sequence as a ctr-sim scenario with @label
    addresses and "cycles K" before every point where the patched QEMU
    hands the model its cycles (CTR CSR writes, transfers, SCTRCLR): K =
    the guest's instructions since the previous such point, which under
    -icount shift=0 is QEMU's cycle count.
fill substitutes the labels' addresses from `nm` output.  The scenario's
own "#>" lines are not used: its "impl" line is dropped and both QEMU and
ctr-sim run the patched QEMU's implementation (rvp_ctr_config_default with
MISP), so the comparison is QEMU against ctr-sim on the same sequence.
"""
import re
import sys

CTR = {'mctrctl': 0x34E, 'sctrctl': 0x14E, 'vsctrctl': 0x24E,
       'sctrdepth': 0x15F, 'sctrstatus': 0x14F}
IND = {'miselect': 0x350, 'mireg': 0x351, 'mireg2': 0x352, 'mireg3': 0x353,
       'mireg4': 0x355, 'mireg5': 0x356, 'mireg6': 0x357,
       'siselect': 0x150, 'sireg': 0x151, 'sireg2': 0x152, 'sireg3': 0x153,
       'sireg4': 0x155, 'sireg5': 0x156, 'sireg6': 0x157}
# xfer TYPE: (set-up instructions, the transfer); {t} is the target label.
XFER = {
    'taken': ([], 'beq x0, x0, {t}'),
    'nottaken': ([], 'bne x0, x0, {t}'),
    'dircall': ([], 'jal ra, {t}'),
    'dirjump': ([], 'jal x0, {t}'),
    'otherdir': ([], 'jal t1, {t}'),
    'indcall': (['lla t1, {t}'], 'jalr ra, 0(t1)'),
    'indjump': (['lla t1, {t}'], 'jalr x0, 0(t1)'),
    'return': (['lla ra, {t}'], 'jalr x0, 0(ra)'),
    'coswap': (['lla t0, {t}'], 'jalr ra, 0(t0)'),
    'otherind': (['lla t1, {t}'], 'jalr t2, 0(t1)'),
}
LLA = 2          # lla = auipc + addi (medany, no relaxation across labels)
MAX_CYCLES = 20000


def gen(scn, out_s, out_t):
    layout = 'ratified'
    lines = [l.strip() for l in open(scn)]
    asm, tmpl, vals = [], ['layout ratified', 'impl misp=on'], []
    pending = 0
    nx = 0
    ops = 0
    for i, line in enumerate(lines):
        if not line or line.startswith('#'):
            continue
        tok = line.split()
        nxt = next((l for l in lines[i + 1:] if l and
                    not l.startswith('## ')), '')
        if nxt.startswith('#>') and nxt[2:].strip() == 'illegal':
            break
        if tok[0] == 'layout' and ops == 0:
            layout = tok[1]
            if layout != 'ratified':
                break
            continue
        if tok[0] == 'priv' and len(tok) == 2 and tok[1] == 'M':
            continue
        if tok[0] == 'impl' and ops == 0:
            # Both sides run the patched QEMU's implementation (the
            # default one with MISP) instead: see the module comment.
            continue
        if tok[0] == 'csrw' and len(tok) == 3 and (tok[1] in CTR or
                                                  tok[1] in IND):
            num = CTR.get(tok[1], IND.get(tok[1]))
            vals.append(int(tok[2], 0))
            asm += ['ld t0, 0(s1)', 'addi s1, s1, 8',
                    'csrw 0x%x, t0' % num]
            pending += 3
            if tok[1] in CTR:
                tmpl.append('cycles %d' % pending)
                pending = 0
            tmpl.append(line)
        elif tok[0] == 'csrr' and len(tok) == 2 and (tok[1] in CTR or
                                                    tok[1] in IND):
            num = CTR.get(tok[1], IND.get(tok[1]))
            asm += ['csrr t0, 0x%x' % num, 'sd t0, 0(s2)', 'addi s2, s2, 8']
            pending += 3
            nout[0] += 1
            tmpl.append(line)
            names.append(tok[1])
        elif tok[0] == 'xfer' and len(tok) == 4 and tok[1] in XFER:
            setup, insn = XFER[tok[1]]
            t = 'x%d_t' % nx
            s = 'x%d_s' % nx
            nx += 1
            asm += [x.format(t=t) for x in setup]
            asm += ['%s: %s' % (s, insn.format(t=t)), '%s:' % t]
            pending += len(setup) * LLA + 1
            tmpl.append('cycles %d' % pending)
            pending = 0
            tmpl.append('xfer %s @%s @%s' % (tok[1], s, t))
        elif tok[0] == 'sctrclr' and len(tok) == 1:
            asm.append('.insn 0x10400073')
            pending += 1
            tmpl.append('cycles %d' % pending)
            pending = 0
            tmpl.append('sctrclr')
        elif tok[0] == 'cycles' and len(tok) == 2 and \
                int(tok[1], 0) <= MAX_CYCLES:
            n = int(tok[1], 0)
            if n:
                asm += ['.rept %d' % n, 'nop', '.endr']
            pending += n
        elif tok[0] == 'dump' and len(tok) == 1:
            # Unrolled: a loop's branches would be recorded too.
            asm += ['csrr s4, 0x150', '.set rvp_i, 0x200', '.rept 256',
                    'li t2, rvp_i', 'csrw 0x150, t2',
                    'csrr t0, 0x151', 'sd t0, 0(s2)',
                    'csrr t0, 0x152', 'sd t0, 8(s2)',
                    'csrr t0, 0x153', 'sd t0, 16(s2)',
                    'addi s2, s2, 24', '.set rvp_i, rvp_i + 1', '.endr',
                    'csrw 0x150, s4']
            pending += 1 + 256 * 9 + 1
            nout[0] += 768
            tmpl.append('dump')
            names.append(None)
        else:
            break
        ops += 1
    return asm, tmpl, vals, nx


names = []
nout = [0]


def main():
    if sys.argv[1] == 'gen':
        scn, out_s, out_c, out_t = sys.argv[2:6]
        asm, tmpl, vals, nx = gen(scn, out_s, out_t)
        with open(out_c, 'w') as f:
            f.write('/* generated by tests/qemu/scn2events.py from %s */\n'
                    '#include <stddef.h>\n'
                    'const char *const rvp_names[] = {\n' % scn)
            for n in names:
                f.write('\t%s,\n' % ('"%s"' % n if n else 'NULL'))
            f.write('};\nconst int rvp_nnames = %d;\n' % len(names))
        with open(out_s, 'w') as f:
            f.write('/* generated by tests/qemu/scn2events.py from %s */\n'
                    % scn)
            f.write('\t.option norvc\n\t.section .rodata\n\t.balign 8\n'
                    'rvp_vals:\n')
            for v in vals:
                f.write('\t.dword 0x%x\n' % (v & (2**64 - 1)))
            f.write('\t.text\n\t.balign 4\n\t.globl rvp_ops\nrvp_ops:\n'
                    '\tmv s5, ra\n\tlla s1, rvp_vals\n\tlla s2, rvp_out\n'
                    )
            for a in asm:
                f.write('\t%s\n' % a)
            f.write('\tmv ra, s5\n\tret\n')
            f.write('\t.bss\n\t.balign 8\n\t.globl rvp_out\nrvp_out:\n'
                    '\t.space %d\n' % (8 * max(nout[0], 1)))
        with open(out_t, 'w') as f:
            f.write('\n'.join(tmpl) + '\n')
        print(nx)
    else:
        tmpl, nm = sys.argv[2:4]
        addr = {}
        for l in open(nm):
            f = l.split()
            if len(f) == 3:
                addr[f[2]] = int(f[0], 16)
        for l in open(tmpl):
            print(re.sub(r'@(\w+)', lambda m: '0x%x' % addr[m.group(1)],
                         l.rstrip('\n')))


if __name__ == '__main__':
    main()
