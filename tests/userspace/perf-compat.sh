#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Our perf.data files are what host perf expects, and rvperf reads what host
# perf writes: `perf script` and `rvperf script` print the same lines for
# both, and perf reads ours without a warning.
set -u
. tests/tap.sh
O=${O:-build}
rvperf=$O/userspace/rvperf
gen=$O/tests/userspace/gen-perfdata
if ! command -v perf >/dev/null || ! perf version >/dev/null 2>&1; then
	echo "1..0 # SKIP host perf not installed (make deps installs linux-perf)"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$gen" "$tmp/ours.data"
ok $? "write a perf.data with branch stacks"
perf script -F ip,brstack -i "$tmp/ours.data" >"$tmp/perf.out" 2>"$tmp/perf.err"
ok $? "host perf script reads it"
[ ! -s "$tmp/perf.err" ]
ok $? "host perf script prints no warning"
[ -s "$tmp/perf.err" ] && diag "$(head -5 "$tmp/perf.err")"
"$rvperf" script -F ip,brstack -i "$tmp/ours.data" >"$tmp/rvperf.out"
ok $? "rvperf script reads it"
[ "$(grep -c . "$tmp/perf.out")" -eq 48 ] && cmp -s "$tmp/perf.out" "$tmp/rvperf.out"
ok $? "perf script and rvperf script print the same 48 lines of ip and brstack"
cmp -s "$tmp/perf.out" "$tmp/rvperf.out" || diag "$(diff "$tmp/perf.out" "$tmp/rvperf.out" | head -6)"
grep -q '/M/-/-/' "$tmp/perf.out" && grep -q '/P/-/-/' "$tmp/perf.out" &&
	grep -q '/IND_CALL ' "$tmp/perf.out" && grep -q '/FAULT_INST ' "$tmp/perf.out" &&
	grep -q '/65[0-9][0-9][0-9]/' "$tmp/perf.out"
ok $? "the comparison covers mispredicted, predicted, every type name and large cycle counts"
perf report -b --stdio -i "$tmp/ours.data" >"$tmp/report.out" 2>"$tmp/report.err"
status=$?
[ $status -eq 0 ] && ! grep -qi 'fail\|warn\|error' "$tmp/report.err" &&
	grep -q '^# Samples: ' "$tmp/report.out"
ok $? "host perf report -b reads it without a warning"
[ $? -eq 0 ] || diag "$(head -5 "$tmp/report.err")"

# A file host perf wrote itself (software events: this machine may have no
# branch-stack hardware).
if perf record -q -e cpu-clock -c 50000 -o "$tmp/real.data" -- \
	sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done' >/dev/null 2>&1; then
	for fields in ip comm,tid,ip; do
		perf script -F $fields -i "$tmp/real.data" 2>/dev/null >"$tmp/p.out"
		"$rvperf" script -F $fields -i "$tmp/real.data" >"$tmp/r.out" 2>"$tmp/r.err"
		[ -s "$tmp/p.out" ] && cmp -s "$tmp/p.out" "$tmp/r.out"
		ok $? "a file real perf record wrote: both print the same -F $fields ($(wc -l <"$tmp/p.out") samples)"
	done
else
	ok 0 "a file real perf record wrote # SKIP perf record cannot sample here"
fi

# Bad input: one line, non-zero.
printf 'not perf data at all' >"$tmp/bad.data"
fails_in_one_line "a file that is not perf.data: one line with the offset" \
	'offset 0: not a perf.data file' "$rvperf" script -i "$tmp/bad.data"
head -c 2000 "$tmp/ours.data" >"$tmp/cut.data"
"$rvperf" script -F ip,brstack -i "$tmp/cut.data" >"$tmp/cut.out" 2>"$tmp/cut.err"
status=$?
n=$(grep -c . "$tmp/cut.out")
[ $status -eq 1 ] && [ "$n" -gt 0 ] && [ "$(wc -l <"$tmp/cut.err")" -eq 1 ] &&
	head -n "$n" "$tmp/perf.out" | cmp -s - "$tmp/cut.out"
ok $? "a cut file: its $n complete samples, then one line of error, exit 1"
fails_in_one_line "a missing file: one line" 'missing.data' \
	"$rvperf" script -i "$tmp/missing.data"
fails_in_one_line "an unknown field: one line" "unknown field list 'ip,bogus'" \
	"$rvperf" script -F ip,bogus -i "$tmp/ours.data"
fails_in_one_line "an unknown command: one line" "'frobnicate' is not a command" \
	"$rvperf" frobnicate
"$rvperf" script --help | grep -q '^usage: rvperf script'
ok $? "rvperf script --help shows its usage"
tap_done
