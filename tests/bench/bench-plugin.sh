#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# bench-plugin - what the CTR plugin costs qemu-riscv64 on the sample
# workload: loaded but idle (no recording, no sampling event), and
# recording as rvperf record does by default (-j any, a sample every 10007
# instructions, depth 16, cycle counting), against plain qemu-riscv64, all
# measured in this run.  Best of ROUNDS wall-clock times each, interleaved
# so a noisy neighbour hits every configuration alike.
# Goals (issue 6): recording <= 2x plain, idle <= 1.1x.
set -eu
O=${O:-build}
qemu=${QEMU_USER:-qemu-riscv64}
plugin=$O/qemu-model/librvperf-ctr.so
prog=$O/guest/bin/branchy
rounds=${ROUNDS:-5}
arg=200000
[ -x "$prog" ] || make -s O="$O" "$prog" >/dev/null
trace=$(mktemp)
trap 'rm -f "$trace"' EXIT

best() { sort -n | head -1; }
run() {	# run PLUGIN-ARGS...: wall seconds of one run
	local t0 t1
	t0=$(date +%s.%N)
	"$qemu" "$@" "$prog" $arg >/dev/null
	t1=$(date +%s.%N)
	echo "$t1 - $t0" | bc -l
}
plain=() idle=() rec=()
for _ in $(seq "$rounds"); do
	plain+=("$(run)")
	idle+=("$(run -plugin "$plugin,out=$trace,ctl=0,event=none")")
	rec+=("$(run -plugin "$plugin,out=$trace,ctl=0x1,event=instructions,period=10007,depth=16")")
done
p=$(printf '%s\n' "${plain[@]}" | best)
i=$(printf '%s\n' "${idle[@]}" | best)
r=$(printf '%s\n' "${rec[@]}" | best)
echo "qemu-riscv64 + CTR plugin on branchy $arg, best of $rounds"
printf '  baseline  plain qemu-riscv64:   %6.3f s\n' "$p"
printf '  idle      plugin loaded, off:   %6.3f s   ratio %.2f (goal <= 1.10)\n' "$i" "$(echo "$i / $p" | bc -l)"
printf '  recording -j any, sampling:     %6.3f s   ratio %.2f (goal <= 2.00)\n' "$r" "$(echo "$r / $p" | bc -l)"
