#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# `rvperf report` on branch stacks that follow branchy's known control flow
# (tests/userspace/gen-trace.c): the hot loop, its 64 iterations per entry,
# the call edges; symbols checked against binutils' nm; bad input.
set -u
. tests/tap.sh
O=${O:-build}
rvperf=$O/userspace/rvperf
elf=$O/guest/bin/branchy
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ ! -f "$elf" ]; then
	echo "1..0 # SKIP $elf not built (make guest-image)"
	exit 0
fi

# The back-edges are branchy's own (gen-trace decodes them): the report
# finds loops in the code, not in the records.
read -r latch head mlatch mhead < <(GEN_TRACE_LOOPS=1 $O/tests/userspace/gen-trace "$tmp/t.data" "$elf" 400)
ok $? "record branchy's control flow as branch stacks of 16 (loops $latch -> $head, $mlatch -> $mhead)"
re() { printf '%s' "$1" | sed 's/+/\\+/'; }
"$rvperf" report -i "$tmp/t.data" --top 10 >"$tmp/r.out" 2>"$tmp/r.err"
ok $? "rvperf report runs"
section() { awk -v s="## $1" 'index($0, s) == 1 {on=1; next} /^## / {on=0} on && NF' "$tmp/r.out"; }

section 'Hottest branch edges' | sed -n 2p | grep -Eq "$(re "$latch") +-> $(re "$head") +COND\$"
ok $? "the hottest edge is the hot loop's back-edge"
trips=$(section 'Hot loops (natural loops of the control-flow graph)' | awk -v l="$latch -> $head" 'index($0, l) {print $3}')
awk -v t="${trips:-0}" 'BEGIN { exit !(t >= 62 && t <= 66) }'
ok $? "the hot loop runs 64 iterations per entry (estimated ${trips:-none})"
section 'Hot loops (natural loops of the control-flow graph)' | grep -qF "$mlatch -> $mhead"
ok $? "main's round loop is found too"
[ "$(section 'Call edges' | sed -n '2,5p' | grep -c 'hot_loop -> op_\(add\|xor\|mul\|rot\)$')" -eq 4 ]
ok $? "the four hottest call edges are hot_loop's indirect calls"
section 'Call edges' | grep -q ' main -> hot_loop$' &&
	section 'Call edges' | grep -q ' recurse -> recurse$' &&
	section 'Call edges' | grep -q ' recurse -> leaf$'
ok $? "main -> hot_loop, recurse -> recurse and recurse -> leaf are call edges"

# Independent of our ELF reader: nm's address of hot_loop, and the raw
# addresses host perf prints for the hottest edge.
if command -v riscv64-linux-gnu-nm >/dev/null && command -v perf >/dev/null; then
	base=$(riscv64-linux-gnu-nm "$elf" | awk '$3 == "hot_loop" {print $1}')
	want=$(printf '0x%x/0x%x' $((16#$base + ${latch#hot_loop+})) $((16#$base + ${head#hot_loop+})))
	got=$(perf script -F brstack -i "$tmp/t.data" 2>/dev/null | tr ' ' '\n' |
		grep -o '^0x[0-9a-f]*/0x[0-9a-f]*' | sort | uniq -c | sort -rn |
		awk 'NR == 1 {print $2}')
	[ -n "$base" ] && [ "$got" = "$want" ]
	ok $? "nm's $latch -> $head is the hottest raw edge host perf prints ($got)"
else
	ok 0 "symbols checked against nm # SKIP binutils or perf missing"
fi

# --elf names every mapping from one file; without symbols, numbers.
"$rvperf" report -i "$tmp/t.data" --elf "$elf" --top 3 | grep -q 'hot_loop+0x40'
ok $? "--elf gives the symbols"
# A binary stripped of every symbol that names its debug file
# (.gnu_debuglink): the symbols come from there, as perf finds them.
if command -v riscv64-linux-gnu-objcopy >/dev/null; then
	mkdir "$tmp/split"
	riscv64-linux-gnu-objcopy --only-keep-debug "$elf" "$tmp/split/branchy.debug"
	riscv64-linux-gnu-objcopy --strip-all --add-gnu-debuglink="$tmp/split/branchy.debug" \
		"$elf" "$tmp/split/branchy"
	! riscv64-linux-gnu-nm "$tmp/split/branchy" 2>/dev/null | grep -q . &&
		"$rvperf" report -i "$tmp/t.data" --elf "$tmp/split/branchy" --top 3 |
		grep -q 'hot_loop+0x40'
	ok $? "a stripped binary: symbols from its debug file (.gnu_debuglink)"
else
	ok 0 "symbols from a debug file # SKIP binutils missing"
fi
mkdir "$tmp/empty"
"$rvperf" report -i "$tmp/t.data" --symfs "$tmp/empty" --top 3 >"$tmp/nosym.out"
grep -q ' 0x[0-9a-f]* *-> 0x[0-9a-f]* *COND$' "$tmp/nosym.out"
ok $? "without the ELF, addresses stay numbers"

# Bad and partial input.
head -c 5000 "$tmp/t.data" >"$tmp/cut.data"
"$rvperf" report -i "$tmp/cut.data" >"$tmp/cut.out" 2>"$tmp/cut.err"
status=$?
[ $status -eq 1 ] && [ "$(wc -l <"$tmp/cut.err")" -eq 1 ] &&
	grep -q 'reporting what came before' "$tmp/cut.err" &&
	grep -q '^# rvperf report: .*: [1-9][0-9]* samples' "$tmp/cut.out"
ok $? "a cut file: a report of the complete samples, one line of error, exit 1"
printf 'garbage, and not a perf.data file at all' >"$tmp/bad.data"
fails_in_one_line "not a perf.data: one line with the offset" \
	'offset 0: not a perf.data file' \
	"$rvperf" report -i "$tmp/bad.data"
fails_in_one_line "a bad option value: one line" 'report: --top wants a positive number' \
	"$rvperf" report --top 0
tap_done
