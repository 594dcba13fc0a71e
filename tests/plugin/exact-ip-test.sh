#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Exact sample addresses: rvperf record -e instructions on
# tests/plugin/chain-loop.S, a loop of 16 instructions in two blocks.  A
# sample is taken as the instruction that overflows the counter retires,
# so sample J (in time order) is at the instruction after the program's
# J * PERIOD-th: with PERIOD coprime to 16, the samples cycle through the
# 16 instructions, each carries as many as any other (give or take one),
# the instructions of a block after the overflow count towards the next
# period, and a sample's newest branch record is the transfer into the
# block it lies in, never the one out of it.  Checked at the default
# period (the gate's unseen stretches, and with --whole-stacks every block
# seen) and at a period shorter than a block (several samples in one
# block).  Then a dynamically linked program that forks
# (tests/userspace/procs/procs.c): at most 40 % of its samples at the
# target of their newest record, where a sample at the start of every
# block put most.  QEMU_USER=/path/to/qemu-riscv64 runs it on another QEMU.
set -u
. tests/tap.sh
O=${O:-build}
rvperf=$O/userspace/rvperf
qemu=${QEMU_USER:-qemu-riscv64}
export RVPERF_QEMU=$qemu	# rvperf record runs this one
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/tmpdir"
export TMPDIR=$tmp/tmpdir

for tool in "$qemu" riscv64-linux-gnu-gcc riscv64-linux-gnu-nm \
	    riscv64-linux-gnu-objdump; do
	if ! command -v "$tool" >/dev/null; then
		echo "1..0 # SKIP $tool not installed (make deps)"
		exit 0
	fi
done

long_iters=500000
short_iters=1000
cc="riscv64-linux-gnu-gcc -static -nostdlib"
$cc -DITERS=$long_iters -o "$tmp/long" tests/plugin/chain-loop.S &&
	$cc -DITERS=$short_iters -o "$tmp/short" tests/plugin/chain-loop.S
ok $? "build the chain loop"

# layout PROG: the loop's instructions in program order (hex, as rvperf
# script prints an ip) from the disassembly between the labels, how many
# are in its first block and how many run before it (li of a large ITERS
# takes two).
declare -A A
insns() {	# insns PROG FROM TO: the instructions at FROM..TO (hex), inclusive
	riscv64-linux-gnu-objdump -d "$1" |
		awk -v from=$((16#$2)) -v to=$((16#$3)) '
			/^ *[0-9a-f]+:\t/ {
				a = $1; sub(/:$/, "", a)
				v = 0
				for (i = 1; i <= length(a); i++)
					v = v * 16 + index("0123456789abcdef", substr(a, i, 1)) - 1
				if (v >= from && v <= to) print a
			}'
}
layout() {
	local addr name
	while read -r addr _ name; do
		A[$name]=$(printf '%x' $((16#$addr)))
	done < <(riscv64-linux-gnu-nm "$1")
	positions=$(insns "$1" "${A[loop_a]}" "${A[jump_ab]}"
		    insns "$1" "${A[loop_b]}" "${A[latch]}")
	positions=$(echo $positions)
	block_a=$(insns "$1" "${A[loop_a]}" "${A[jump_ab]}" | wc -l)
	setup=$(($(insns "$1" "${A[_start]}" "${A[loop_a]}" | wc -l) - 1))
}
layout "$tmp/long"
set -- $positions
[ $# -eq 16 ] && [ "$block_a" -eq 8 ] && [ "$setup" -ge 3 ]
ok $? "the loop has 16 instructions, 8 in its first block, some before it"
[ $? -eq 0 ] || diag "loop: $positions; block A $block_a; setup $setup"

# analyse FILE PERIOD ITERS: one line of counts (what the checks read).
analyse() {
	"$rvperf" script -F ip,brstack -i "$1" 2>"$tmp/script.err" |
	awk -v P="$2" -v T="$3" -v pos="$positions" -v na="$block_a" \
	    -v setup="$setup" -v la="0x${A[loop_a]}" -v lb="0x${A[loop_b]}" \
	    -v jab="0x${A[jump_ab]}" -v latch="0x${A[latch]}" '
	BEGIN {
		n = split(pos, a, " ")
		for (i = 1; i <= n; i++)
			idx[a[i]] = i - 1
		# instructions up to and including the loop'"'"'s last
		last = setup + n * T
	}
	{
		j++
		if (!($1 in idx)) {
			# after the last trip: the exit code
			if (j * P >= last) after++; else stray++
			next
		}
		p = idx[$1]
		count[p]++
		inloop++
		# the instruction after the (j * P)-th
		if (p != (j * P - setup) % n)
			misplaced++
		if (NF < 2) {
			if (j * P >= setup + n) nostack++	# first trip: none
			next
		}
		split($2, e, "/")
		if (p < na && !(e[1] == latch && e[2] == la)) wrongstack++
		if (p >= na && !(e[1] == jab && e[2] == lb)) wrongstack++
	}
	END {
		min = max = count[0] + 0
		for (i = 1; i < n; i++) {
			if (count[i] < min) min = count[i] + 0
			if (count[i] > max) max = count[i] + 0
		}
		printf "samples=%d inloop=%d after=%d stray=%d misplaced=%d", j, inloop, after, stray, misplaced
		printf " min=%d max=%d wrongstack=%d nostack=%d want=%d\n", min, max, wrongstack, nostack, int((last - 1) / P)
	}'
}
field() { echo "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }

# check_loop DESC PERIOD ITERS RECORD-ARGS...
check_loop() {
	local desc=$1 period=$2 iters=$3 prog=$tmp/long r
	shift 3
	[ "$iters" = "$short_iters" ] && prog=$tmp/short
	layout "$prog"
	"$rvperf" record -e instructions -c "$period" "$@" -o "$tmp/loop.data" \
		-- "$prog" >"$tmp/rec.out" 2>&1
	ok $? "$desc: record"
	[ $? -eq 0 ] || diag "$(cat "$tmp/rec.out")"
	r=$(analyse "$tmp/loop.data" "$period" "$iters")
	[ "$(field "$r" inloop)" -eq "$(field "$r" want)" ] &&
		[ "$(field "$r" after)" -le 1 ] && [ "$(field "$r" stray)" -eq 0 ]
	ok $? "$desc: one sample every $period instructions, each on an instruction of the loop"
	[ $? -eq 0 ] || diag "$r"
	[ "$(field "$r" max)" -gt 0 ] &&
		[ $(($(field "$r" max) - $(field "$r" min))) -le 1 ]
	ok $? "$desc: the 16 instructions carry as many samples each, give or take one"
	[ $? -eq 0 ] || diag "$r" "$("$rvperf" script -F ip -i "$tmp/loop.data" | sort | uniq -c)"
	[ "$(field "$r" misplaced)" -eq 0 ]
	ok $? "$desc: sample J at the instruction after the (J * $period)-th"
	[ $? -eq 0 ] || diag "$r"
	[ "$(field "$r" wrongstack)" -eq 0 ] && [ "$(field "$r" nostack)" -eq 0 ]
	ok $? "$desc: each sample's newest record the transfer into its block"
	[ $? -eq 0 ] || diag "$r"
}

check_loop "default period" 10007 $long_iters
check_loop "default period, every block seen" 10007 $long_iters --whole-stacks
check_loop "period 5, shorter than a block" 5 $short_iters

# A dynamically linked program (gcc's defaults: a PIE with libc) that
# forks, both processes sampled.
cc=riscv64-linux-gnu-gcc
if [ ! -d /usr/riscv64-linux-gnu/lib ]; then
	ok 0 "# SKIP the riscv64 libc is not installed (make deps)"
else
	$cc -O2 -g -o "$tmp/procs" tests/userspace/procs/procs.c -ldl
	ok $? "build the forking program"
	"$rvperf" record -o "$tmp/fork.data" -- "$tmp/procs" fork >"$tmp/rec.out" 2>&1
	ok $? "record it"
	"$rvperf" script -F pid,ip,brstack -i "$tmp/fork.data" |
		awk '{ n++; split($3, e, "/"); if (e[2] == "0x" $2) at++ }
		     END { printf "%d %d %d\n", n, at, 100 * at / (n ? n : 1) }' >"$tmp/share"
	read -r samples at share <"$tmp/share"
	pids=$("$rvperf" script -F pid -i "$tmp/fork.data" | sort -u | wc -l)
	[ "$samples" -gt 1000 ] && [ "$pids" -eq 2 ] && [ "$share" -le 40 ]
	ok $? "at most 40 % of its samples at their newest record's target ($at of $samples: $share %, $pids processes)"
fi

tap_done
exit $?
