#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""For insn-count.sh: in QEMU's -d in_asm,op log, per guest address given
(NAME=0xADDR), how many blocks were translated there, how many of them add
to the instruction count (a load, an add of a constant and a store back of
the same env field, the first thing after the block's exit check) and how
many check the overflow point (call insn_deadline): one line each,
'NAME tbs=N count=N deadline=N'."""
import re
import sys

COUNT = re.compile(r'ld_i64 (\w+),env,\$(0x[0-9a-f]+)\n add_i64 (\w+),\1,'
                   r'\$0x[0-9a-f]+\n st_i64 \3,env,\$\2')


def main():
    with open(sys.argv[1]) as f:
        log = f.read()
    blocks = {}
    for part in re.split(r'\n(?=IN:)', log):
        m = re.search(r'^0x0*([0-9a-f]+):', part, re.M)
        if not part.startswith('IN:') or not m:
            continue
        op = part.split('\nOP:', 1)[1] if '\nOP:' in part else ''
        blocks.setdefault(int(m.group(1), 16), []).append(
            op.split('\nOUT:', 1)[0])
    for arg in sys.argv[2:]:
        name, addr = arg.split('=')
        ops = blocks.get(int(addr, 16), [])
        print('%s tbs=%d count=%d deadline=%d' % (
            name, len(ops), sum(1 for o in ops if COUNT.search(o)),
            sum(1 for o in ops if 'call insn_deadline' in o)))


if __name__ == '__main__':
    main()
