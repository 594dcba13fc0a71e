#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The glue's two record paths on a QEMU patched with qemu-model/qemu:
# without -icount the translated code buffers records and the model takes
# them in batches (before any CSR access, trap, xRET or mode change);
# with -icount every record is a helper call.  buffered.c prints the CTR
# state (every entry, WRPTR) and the counter model's branch, mispredict
# and call counts after 72 runs (depths 16/64/256, 3 to 1000 loop
# iterations, i.e. fewer and more records than the buffer holds, plain,
# with not-taken branches, with RAS emulation; each with the counter model
# counting branches, mispredicts and calls, and again with it off: only
# then are records buffered, a counted transfer is a helper call on both
# paths); both paths must print the same, run by run.
# QEMU=/path/to/patched qemu-system-riscv64.
set -u
. "$(dirname "$0")/lib.sh"
need_rvperf_qemu
make_tmp
build_guest_or_bail "$tmp/g.elf" "$top/tests/qemu/buffered.c"
for mode in buffered icount; do
	extra=
	[ "$mode" = icount ] && extra="-icount shift=0"
	# shellcheck disable=SC2086
	timeout 300 "$QEMU" -M virt -bios none -nographic -monitor none \
		-serial stdio -cpu rv64,smctr=true,ssctr=true,ctr-layout=ratified \
		$extra -kernel "$tmp/g.elf" </dev/null 2>"$tmp/$mode.err" |
		tr -d '\r' | sed -n '/^BEGIN$/,/^END$/p' >"$tmp/$mode"
done
python3 - "$tmp/buffered" "$tmp/icount" <<'PY'
import sys

def runs(path):
    out, cur = [], None
    for l in open(path):
        l = l.strip()
        if l.startswith('config.depth='):
            cur = [l]
            out.append(cur)
        elif cur is not None and l != 'END':
            cur.append(l)
    return out

RUNS = 72
a, b = runs(sys.argv[1]), runs(sys.argv[2])
print('1..%d' % (max(len(a), RUNS) + 1))
print('%s 1 both paths ran all %d configurations (%d, %d)' %
      ('ok' if len(a) == len(b) == RUNS else 'not ok', RUNS, len(a), len(b)))
for i in range(max(len(a), RUNS)):
    ra = a[i] if i < len(a) else []
    rb = b[i] if i < len(b) else []
    name = ' '.join(ra[:4]) if ra else 'configuration %d' % i
    valid = sum(1 for l in ra if l.startswith('source=') and int(l[9:], 16) & 1)
    ok = ra == rb and len(ra) > 4 and valid > 0
    diff = next((j for j in range(min(len(ra), len(rb))) if ra[j] != rb[j]),
                None)
    why = '' if ok else ' (%s)' % ('line %d: %s / %s' % (diff, ra[diff], rb[diff])
                                  if diff is not None else
                                  '%d / %d lines, %d valid' % (len(ra), len(rb), valid))
    print('%s %d %s: %d valid entries, buffered = per-record%s' %
          ('ok' if ok else 'not ok', i + 2, name, valid, why))
PY
