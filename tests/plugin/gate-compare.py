#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Compares a CTR plugin trace recorded through the gate (gate=on) with
one of the same run recorded block by block (gate=off): prints
'samples=N whole=N short=N wrong=N totals=same|differ maps=same|differ'
(maps: the mmap records, which say whether it was the same run).  A sample is
whole when it is the same, short when its records are the newest of the
block-by-block sample's, in order, only the oldest of them allowed a
cleared cycle count (CCV 0: what the gate writes after an unseen
stretch), and wrong otherwise (a record the program did not make, or a
different ip, time or mode).  Exits 1 with one line on a bad trace."""
import struct
import sys

MAGIC = 0x3230435254505652
HDR = struct.Struct('<12Q')
REC = struct.Struct('<7Q')
ENT = struct.Struct('<3Q')
TOT = struct.Struct('<4Q')
CCV_CC = (1 << 15) | (0xFFFF << 16)


def samples(path):
    d = open(path, 'rb').read()
    if len(d) < HDR.size or HDR.unpack_from(d, 0)[0] != MAGIC:
        sys.exit('gate-compare: %s: not a plugin trace' % path)
    off, out, maps = HDR.size, [], []
    while off + REC.size <= len(d):
        kind, _tid, ip, _period, time, mode, nr = REC.unpack_from(d, off)
        off += REC.size
        if kind == 2:
            return out, TOT.unpack_from(d, off), maps
        if kind in (3, 4, 5):	# mmap, fork, exec
            if kind == 3:
                maps.append(d[off:off + nr * 8])
            off += nr * 8
            continue
        ents = [ENT.unpack_from(d, off + i * ENT.size) for i in range(nr)]
        off += nr * ENT.size
        out.append(((ip, time, mode), ents))
    sys.exit('gate-compare: %s: cut at byte %d' % (path, off))


def short_of(got, whole):
    n = len(got)
    if not n:
        return True
    if n > len(whole) or got[:n - 1] != whole[:n - 1]:
        return False
    a, b = got[-1], whole[n - 1]
    return a[:2] == b[:2] and a[2] in (b[2], b[2] & ~CCV_CC)


def main(gated, every):
    a, ta, ma = samples(gated)
    b, tb, mb = samples(every)
    whole = short = wrong = 0
    for (ha, ea), (hb, eb) in zip(a, b):
        if ha != hb:
            wrong += 1
        elif ea == eb:
            whole += 1
        elif short_of(ea, eb):
            short += 1
        else:
            wrong += 1
    wrong += abs(len(a) - len(b))
    print('samples=%d whole=%d short=%d wrong=%d totals=%s maps=%s' %
          (len(b), whole, short, wrong, 'same' if ta == tb else 'differ',
           'same' if ma == mb else 'differ'))


if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2])
