#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# make run's guest part (make guest-run): the sample workload recorded with
# the real perf record -b inside the guest kernel on Debian's QEMU 10.0.2
# without -icount, through rvperf's OpenSBI platform and perf driver.  The
# report must name what ran and show branchy's known branch edges on top:
# hot_loop's back-edge and its indirect calls to the four ops and back.
set -u
. tests/tap.sh
O=${O:-build}
out=$(make -s --no-print-directory O="$O" guest-run 2>&1)
ok $? "make guest-run completes"
printf '%s\n' "$out" | grep -q '^== what ran: QEMU emulator version 10\.0\.2.*smctr=true.*no -icount$'
ok $? "it says what ran: QEMU 10.0.2 with CTR, no -icount"
printf '%s\n' "$out" | grep -q '^   Platform PMU Device *: rvperf-qemu-virt$'
ok $? "the firmware is rvperf's platform (its QEMU virt PMU device installed)"
printf '%s\n' "$out" | grep -q '^   rvperf-ctr: CTR (v1.0 layout): '
ok $? "the driver found CTR"
samples=$(printf '%s\n' "$out" | sed -n 's/^\[ perf record: Captured and wrote .* (\([0-9]*\) samples) \]$/\1/p')
[ "${samples:-0}" -ge 100 ]
ok $? "perf record -b captured at least 100 samples (${samples:-none})"
# The branch-mode report: the first rows, as "source target" pairs.
edges=$(printf '%s\n' "$out" | awk '/^\$ perf report .*symbol_from,symbol_to/ { on = 1; next }
	/^\$ / { on = 0 } on && $1 ~ /%$/ { print $3, $5 }')
[ "$(printf '%s\n' "$edges" | head -1)" = "hot_loop hot_loop" ]
ok $? "the hottest branch edge is hot_loop -> hot_loop"
n=0
for op in op_add op_xor op_mul op_rot; do
	printf '%s\n' "$edges" | grep -qx "hot_loop $op" &&
		printf '%s\n' "$edges" | grep -qx "$op hot_loop" && n=$((n + 1))
done
[ $n -eq 4 ]
ok $? "hot_loop's calls to the four ops and their returns are among the top edges ($n of 4)"
[ "$tap_failed" -eq 0 ] || diag "top edges:" "$edges"
top=$(printf '%s\n' "$out" | awk '/^\$ perf report .*--no-branch-stack/ { on = 1; next }
	on && $1 ~ /%$/ { print $3; exit }')
[ "$top" = hot_loop ]
ok $? "the hottest function by samples is hot_loop (${top:-none})"
tap_done
