#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Summarises a CTR plugin trace (qemu-model/plugin/rvp_trace.h) as
KEY=VALUE lines for tests: samples per mode, records whose source or
target is a kernel address (upper half), a physical one (the virt board's
RAM, 0x80000000 up: firmware, and the kernel before its MMU is on) or a
user one (the rest of the lower half), totals.  Exits 1 with one line if
the file is not a complete trace.  With --digest, prints instead a SHA-256
of the whole trace with the pid and thread ids set to 0: two recordings of
the same run have the same digest."""
import hashlib
import struct
import sys

MAGIC = 0x3230435254505652
HDR = struct.Struct('<12Q')	# rvp_trace_header: 12 fields
REC = struct.Struct('<7Q')
ENT = struct.Struct('<3Q')
TOT = struct.Struct('<4Q')
RAM, RAM_END = 0x80000000, 0x80000000 + (1 << 30)	# virt's DRAM, -m up to 1G


def main(path, digest=False):
    d = bytearray(open(path, 'rb').read())
    if len(d) < HDR.size or HDR.unpack_from(d, 0)[0] != MAGIC:
        sys.exit('trace-summary: %s: not a plugin trace' % path)
    off = HDR.size
    out = {'samples': 0, 'samples_mode_u': 0, 'samples_mode_s': 0,
           'samples_mode_m': 0, 'kernel_addr_records': 0,
           'phys_addr_records': 0, 'user_addr_records': 0, 'records': 0}
    names = {0: 'u', 1: 's', 3: 'm'}
    while True:
        if off + REC.size > len(d):
            sys.exit('trace-summary: %s: cut at byte %d' % (path, off))
        kind, _tid, _ip, _period, _time, mode, nr = REC.unpack_from(d, off)
        struct.pack_into('<Q', d, off + 8, 0)
        off += REC.size
        if kind == 2:
            t = TOT.unpack_from(d, off)
            out.update(transfers=t[0], dropped=t[1], end_samples=t[2],
                       instructions=t[3])
            off += TOT.size
            break
        if kind in (3, 4, 5) and off + nr * 8 <= len(d):
            # mmap, fork, exec: counted, their words skipped
            out[{3: 'mmaps', 4: 'forks', 5: 'execs'}[kind]] = \
                out.get({3: 'mmaps', 4: 'forks', 5: 'execs'}[kind], 0) + 1
            off += nr * 8
            continue
        if kind != 1 or off + nr * ENT.size > len(d):
            sys.exit('trace-summary: %s: bad record at byte %d' % (path, off))
        out['samples'] += 1
        out['samples_mode_' + names.get(mode, 'm')] += 1
        for _ in range(nr):
            src, dst, _data = ENT.unpack_from(d, off)
            off += ENT.size
            out['records'] += 1
            # The V bit and MISP sit in bit 0; a target of 0 is a partial
            # record (an external trap) and says nothing of its mode.
            addrs = [a & ~1 for a in (src, dst) if a & ~1]
            if any(a >> 63 for a in addrs):
                out['kernel_addr_records'] += 1
            if any(RAM <= a < RAM_END for a in addrs):
                out['phys_addr_records'] += 1
            if any(not a >> 63 and not RAM <= a < RAM_END for a in addrs):
                out['user_addr_records'] += 1
    if off != len(d):
        sys.exit('trace-summary: %s: %d bytes after the end' % (path, len(d) - off))
    if digest:
        struct.pack_into('<Q', d, 6 * 8, 0)	# rvp_trace_header.pid
        print(hashlib.sha256(d).hexdigest())
        return
    for k, v in out.items():
        print('%s=%d' % (k, v))


if __name__ == '__main__':
    if sys.argv[1] == '--digest':
        main(sys.argv[2], digest=True)
    else:
        main(sys.argv[1])
