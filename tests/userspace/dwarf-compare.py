#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Compares two `addr2line -a -f -i` style outputs address by address.

Usage: dwarf-compare.py OURS THEIRS
Only addresses for which THEIRS (binutils) has a line number count: code
without debug information is named from the symbol table by addr2line,
which is not the DWARF reader's job.  File names are ignored (addr2line
prints call-site files for outer frames, the reader does not need them);
function and line of every frame and the innermost frame's discriminator
must agree.  Outer frames' discriminators are not compared: addr2line
repeats the innermost one there, while the call site's own
(DW_AT_GNU_discriminator) is what AutoFDO needs and the reader gives.  Prints one
TAP-ready summary line per mismatch (at most 20) and exits 1 on any.
"""
import re
import sys


def parse(path):
    out, cur = {}, None
    lines = open(path).read().splitlines()
    i = 0
    while i < len(lines):
        if re.match(r'^0x[0-9a-f]+$', lines[i]):
            cur = int(lines[i], 16)
            out[cur] = []
            i += 1
            continue
        func, pos = lines[i], lines[i + 1]
        m = re.match(r'^.*:(\?|\d+)(?: \(discriminator (\d+)\))?$', pos)
        line = m.group(1) if m else '?'
        disc = int(m.group(2)) if m and m.group(2) else 0
        if out[cur]:
            disc = None
        out[cur].append((func, line, disc))
        i += 2
    return out


ours, theirs = parse(sys.argv[1]), parse(sys.argv[2])
checked = bad = 0
for addr, frames in sorted(theirs.items()):
    if not frames or frames[0][1] in ('?', '0'):
        continue
    checked += 1
    if ours.get(addr) != frames:
        bad += 1
        if bad <= 20:
            print('0x%x: reader %s, addr2line %s' % (addr, ours.get(addr), frames))
print('%d addresses with line information compared, %d differ' % (checked, bad))
sys.exit(1 if bad or not checked else 0)
