#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# "No cost when off" (issue 7) on a QEMU patched with qemu-model/qemu:
# gating.c runs two loops with CTR recording disabled (mctrctl = 0, then
# only U|S enabled while in M), then with it enabled.  QEMU's -d in_asm,op
# log shows the guest code and TCG ops of every TB it translated: each
# loop's TBs translated while off must hold no record code, the
# retranslation after enabling must: under -icount a rvperf_xfer call
# (ctr_add_entry on upstream's CTR), without -icount the stores into the per-hart
# buffer, which end in the rvperf_flush call for a full buffer.  Both
# runs; the guest checks the recorded entries itself each time.
# QEMU=/path/to/qemu-system-riscv64; SKIPs without it (or without
# ctr-layout, unless UPSTREAM_CTR=1, which runs the same checks on
# upstream's CTR: they fail there, which is the point).
set -u
. "$(dirname "$0")/lib.sh"
need_qemu
cpu=rv64,smctr=true,ssctr=true,ctr-layout=ratified
if ! qemu_has_rvperf; then
	if [ "${UPSTREAM_CTR:-}" != 1 ]; then
		skip_all "$QEMU has no ctr-layout CPU property"
	fi
	cpu=rv64,smctr=true,ssctr=true
fi
need_cc
make_tmp
echo "1..16"
build_guest_or_bail "$tmp/g.elf" "$top/tests/qemu/gating.c"
"$nm" "$tmp/g.elf" >"$tmp/syms"
# run FIRST-TEST-NUMBER LABEL QEMU-ARGS...
run() {
	first=$1 label=$2
	shift 2
	timeout 60 "$QEMU" -M virt -bios none -nographic -monitor none \
		-serial stdio -cpu "$cpu" -kernel "$tmp/g.elf" "$@" \
		-d in_asm,op -D "$tmp/op.log" </dev/null 2>"$tmp/err" |
		tr -d '\r' | sed -n '/^BEGIN$/,/^END$/p' | sed '1d;$d' >"$tmp/got"
	guest_tap "$tmp/got" "$first" 4 "$label"
	[ "$n" = 4 ] || sed 's/^/# /' "$tmp/got" "$tmp/err" | head -20
	# TBs per loop in translation order: whether each records.
	python3 - "$tmp/op.log" "$tmp/syms" "$((first + 4))" "$label" <<'PY'
import sys
log, syms, t, label = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
addr = {}
for l in open(syms):
    f = l.split()
    if len(f) == 3:
        addr[f[2]] = int(f[0], 16)
blocks = []   # [first pc (from in_asm), records]
cur = None
for l in open(log):
    if l.startswith('IN:'):
        cur = [None, False]
        blocks.append(cur)
    elif cur is not None:
        if cur[0] is None and l.startswith('0x'):
            cur[0] = int(l.split(':')[0], 16)
        if ('call ctr_add_entry' in l or 'call rvperf_xfer' in l or
                'call rvperf_flush' in l):
            cur[1] = True
for name in ('work_a', 'work_b'):
    lo, hi = addr[name], addr[name + '_end']
    seq = [c for pc, c in blocks if pc is not None and lo <= pc < hi]
    # The first translations happen while off, then all again when on.
    half = len(seq) // 2
    off, on = seq[:half], seq[half:]
    ok = len(seq) >= 6 and len(seq) % 2 == 0 and not any(off)
    print('%s %d %s: %s: %d TBs translated while off, %d with record '
          'code' % ('ok' if ok else 'not ok', t, label, name, len(off),
                    sum(off)))
    t += 1
    ok = len(on) >= 3 and all(on)
    print('%s %d %s: %s: %d TBs translated after enabling, %d with '
          'record code' % ('ok' if ok else 'not ok', t, label, name,
                           len(on), sum(on)))
    t += 1
PY
}
run 1 "no icount" -smp 1
run 9 "icount" -icount shift=0
