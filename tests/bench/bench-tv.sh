#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# make bench: the trace protocol decoder, the trace listing (rvperf tv
# dump's formatting) and tv_diff (tests/bench/bench-tv:
# speed in CPU time against the memory-read baseline of the same run),
# then their instructions per byte and per group under callgrind, a
# figure the load of the machine does not change.
O=${O:-build}
bin=$O/tests/bench/bench-tv
[ -x "$bin" ] || { echo "bench-tv.sh: $bin is not built"; exit 1; }
"$bin" || exit 1

if ! command -v valgrind >/dev/null; then
	echo "bench-tv.sh: no valgrind, no instruction counts"
	exit 0
fi
groups=200000
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "instructions (callgrind, $groups groups, the phase's function only):"
for phase in decode decode_partial dump dump_partial diff_equal diff_div; do
	valgrind --tool=callgrind --toggle-collect="bench_$phase*" \
		--callgrind-out-file="$tmp/$phase.out" "$bin" "$groups" 1 "$phase" \
		>"$tmp/$phase.txt" 2>"$tmp/$phase.err" || { cat "$tmp/$phase.err"; exit 1; }
	bytes=$(awk '{ print $4 }' "$tmp/$phase.txt")
	ir=$(awk '/^totals:/ { print $2 }' "$tmp/$phase.out")
	[ -n "$ir" ] && [ -n "$bytes" ] || { echo "bench-tv.sh: no callgrind totals for $phase"; exit 1; }
	awk -v p="$phase" -v ir="$ir" -v g="$groups" -v b="$bytes" 'BEGIN {
		printf "  %-14s  %6.2f instructions a byte, %7.1f a group\n", p, ir / b, ir / g }'
done
