#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# The plugin's gate (blocks called back, QEMU 7.2, or run without a
# callback, plugin API 3+, QEMU >= 9.1) on a real program: bzip2
# (tests/userspace/realprogs, the dynamically linked PIE) recorded as
# rvperf record does (-j any, a sample every 10007 instructions, depth 16)
# through the gate and block by block (gate=off), the same run twice
# (env -i setarch -R).  Every sample must be the block-by-block one or a
# short one (only the records made after the gate's last unseen stretch,
# the oldest with its cycle count cleared): never a record the program did
# not make (tests/plugin/gate-compare.py).  bzip2's sparse phases (long
# runs of not-taken branches) make a few short samples, so the short path
# is taken; the totals must be the same.  QEMU_USER=/path/to/qemu-riscv64
# (make check: Debian's 7.2 and the registry's 10.2.2).
set -u
. tests/tap.sh
O=${O:-build}
plugin=$O/qemu-model/librvperf-ctr.so
qemu=${QEMU_USER:-qemu-riscv64}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if ! command -v "$qemu" >/dev/null || ! command -v setarch >/dev/null ||
   ! setarch -R true 2>/dev/null; then
	echo "1..0 # SKIP $qemu or setarch -R unavailable"
	exit 0
fi
[ -f "$plugin" ] || make -s O="$O" "$plugin" >/dev/null
if ! dir=$(tests/userspace/realprogs/build.sh 2>/dev/null); then
	echo "1..0 # SKIP the real programs are not built (no network on a cold cache?)"
	exit 0
fi
cat "$(dirname "$dir")"/lua-5.4.4/src/*.c | head -c 400000 >"$tmp/input.txt"
# -R: QEMU places the guest's mappings in a reserved range of its own, so
# the loader and libc land at the same addresses in both runs (without it
# QEMU 10 takes them from the host's mmap, which moved them by 0x801000
# between two runs now and then, even under setarch -R).
record() {	# record GATE: bzip2 compressing the input, trace in $tmp/GATE.rvt
	env -i setarch -R "$(command -v "$qemu")" -R 0x100000000 -L /usr/riscv64-linux-gnu \
		-plugin "$plugin,out=$tmp/$1.rvt,ctl=0x1,event=instructions,period=10007,depth=16,gate=$1,stats=on" \
		"$dir/bzip2-pie" -9 -c "$tmp/input.txt" 2>"$tmp/$1.err" >"$tmp/$1.bz2"
}
record on
ok $? "bzip2 recorded through the gate"
stats=$(grep '^rvperf plugin: gate' "$tmp/on.err")
if [[ ! $stats =~ ^"rvperf plugin: gate on, " ]]; then
	ok 0 "the gate compared with every block # SKIP the gate is off on $("$qemu" --version | head -n 1)"
	tap_done
	exit
fi
record off
ok $? "bzip2 recorded block by block (gate=off)"
cmp -s "$tmp/on.bz2" "$tmp/off.bz2"
ok $? "the program's output is the same (the same run)"
sum=$(tests/plugin/gate-compare.py "$tmp/on.rvt" "$tmp/off.rvt")
ok $? "the traces compare ($sum)"
[[ $sum =~ " maps=same" ]]
ok $? "the same mappings: the same run, the comparison holds ($sum)"
[[ $sum =~ " wrong=0 " ]]
ok $? "no sample holds a record the program did not make ($sum)"
[[ $sum =~ " totals=same " ]]
ok $? "instructions, transfers and samples the same ($sum)"
read -r n whole short <<<"$(sed 's/samples=\([0-9]*\) whole=\([0-9]*\) short=\([0-9]*\).*/\1 \2 \3/' <<<"$sum")"
[ "${short:-0}" -ge 1 ] && [ "$((short * 100))" -le "${n:-0}" ]
ok $? "short samples taken, fewer than 1 in 100 ($short of $n; $stats)"
grep -q "^rvperf plugin: gate on, [0-9]* gaps, $short unsure samples" "$tmp/on.err"
ok $? "the plugin counts them ($stats)"
tap_done
