#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# bench-plugin - what the CTR plugin costs qemu-riscv64 on the sample
# workload: loaded but idle (no recording, no sampling event), and
# recording as rvperf record does by default (-j any, a sample every 10007
# instructions, depth 16, cycle counting), against plain qemu-riscv64, all
# measured in this run.  Best of ROUNDS times each, interleaved so a noisy
# neighbour hits every configuration alike: wall-clock time, and the CPU
# time (user + sys) of the QEMU process, which a neighbour on a shared
# machine disturbs much less (QEMU user mode runs a single-threaded guest
# on one host thread).
# Goals (issue 6): recording <= 2x plain, idle <= 1.1x.
set -eu
O=${O:-build}
qemu=${QEMU_USER:-qemu-riscv64}
plugin=$O/qemu-model/librvperf-ctr.so
prog=$O/guest/bin/branchy
rounds=${ROUNDS:-7}
arg=200000
[ -x "$prog" ] || make -s O="$O" "$prog" >/dev/null
[ -f "$plugin" ] || make -s O="$O" "$plugin" >/dev/null
trace=$(mktemp)
trap 'rm -f "$trace"' EXIT

best() { sort -n | head -1; }
run() {	# run PLUGIN-ARGS...: "wall cpu" seconds of one run
	local TIMEFORMAT='%3R %3U %3S' t
	t=$({ time "$qemu" "$@" "$prog" $arg >/dev/null; } 2>&1)
	set -- $t
	echo "$1 $(echo "$2 + $3" | bc -l)"
}
plain=() idle=() rec=()
for _ in $(seq "$rounds"); do
	plain+=("$(run)")
	idle+=("$(run -plugin "$plugin,out=$trace,ctl=0,event=none")")
	rec+=("$(run -plugin "$plugin,out=$trace,ctl=0x1,event=instructions,period=10007,depth=16")")
done
col() {	# col N RUN...: the best of column N
	local n=$1
	shift
	printf '%s\n' "$@" | cut -d' ' -f"$n" | best
}
line() {	# line LABEL GOAL RUN...
	local label=$1 goal=$2 w c
	shift 2
	w=$(col 1 "$@")
	c=$(col 2 "$@")
	printf '  %-32s wall %6.3f s  ratio %.2f   cpu %6.3f s  ratio %.2f   (goal <= %s)\n' \
		"$label" "$w" "$(echo "$w / $pw" | bc -l)" "$c" "$(echo "$c / $pc" | bc -l)" "$goal"
}
pw=$(col 1 "${plain[@]}")
pc=$(col 2 "${plain[@]}")
echo "qemu-riscv64 + CTR plugin on branchy $arg, best of $rounds"
printf '  %-32s wall %6.3f s               cpu %6.3f s\n' \
	"baseline  plain qemu-riscv64:" "$pw" "$pc"
line "idle      plugin loaded, off:" 1.10 "${idle[@]}"
line "recording -j any, sampling:" 2.00 "${rec[@]}"
