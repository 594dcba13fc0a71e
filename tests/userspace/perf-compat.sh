#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Our perf.data files are what host perf expects, and rvperf reads what host
# perf writes: perf reads ours without a warning, and `rvperf script -F`
# prints, byte for byte, what perf 6.12's `perf script -F` prints (the
# pinned bookworm-backports build, tests/userspace/perf612.sh) for every
# field both have: comm, tid, pid, time, period, addr, ip, sym, symoff,
# dso, brstack, brstacksym; on our files, on rvperf record's and on a file
# host perf recorded.
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
perf script -F ip,brstack -i "$tmp/ours.data" >/dev/null 2>"$tmp/perf.err"
ok $? "host perf script reads it"
[ ! -s "$tmp/perf.err" ]
ok $? "host perf script prints no warning"
[ -s "$tmp/perf.err" ] && diag "$(head -5 "$tmp/perf.err")"

perf612=$(tests/userspace/perf612.sh 2>"$tmp/perf612.err")
ok $? "perf 6.12 from the registry ($perf612)"
[ -n "$perf612" ] || { diag "$(cat "$tmp/perf612.err")"; perf612=false; }
# same FILE FIELDS [MIN]: perf 6.12 and rvperf print the same bytes, at least
# MIN lines (default 1).
same() {
	"$perf612" script -F "$2" -i "$1" >"$tmp/p.out" 2>/dev/null
	"$rvperf" script -F "$2" -i "$1" >"$tmp/r.out" 2>"$tmp/r.err"
	[ "$(grep -c . "$tmp/p.out")" -ge "${3:-1}" ] && cmp -s "$tmp/p.out" "$tmp/r.out"
	ok $? "$(basename "$1" .data): -F $2: the same $(grep -c . "$tmp/p.out") lines as perf 6.12"
	cmp -s "$tmp/p.out" "$tmp/r.out" || diag "$(diff "$tmp/p.out" "$tmp/r.out" | head -6 | cut -c1-200)"
}
"$perf612" script -F ip,brstack -i "$tmp/ours.data" >"$tmp/perf.out" 2>/dev/null
same "$tmp/ours.data" ip,brstack 48
same "$tmp/ours.data" comm,tid,pid,time,period,ip,sym,symoff,dso,brstack 48
same "$tmp/ours.data" tid,ip,sym,dso,brstacksym 48
grep -q '/M/-/-/' "$tmp/perf.out" && grep -q '/P/-/-/' "$tmp/perf.out" &&
	grep -q '/IND_CALL/' "$tmp/perf.out" && grep -q '/FAULT_INST/' "$tmp/perf.out" &&
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
# User space only, and symbols left out: perf names the kernel, PLT stubs
# (name@plt, made up) and the vDSO (from its own cache), rvperf does not.
if perf record -q -e cpu-clock:u -c 50000 -d -o "$tmp/real.data" -- \
	sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done' >/dev/null 2>&1; then
	same "$tmp/real.data" ip
	same "$tmp/real.data" comm,tid,pid,time,period,addr,ip,dso
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
fails_in_one_line "a field the samples lack (addr): one line, as perf refuses it" \
	"ours.data: the samples have no ADDR: cannot print 'addr'" \
	"$rvperf" script -F ip,addr -i "$tmp/ours.data"

# rvperf record's own files, and branch stacks that follow branchy's
# control flow, symbols and all.  Without RISC-V mapping symbols ($x...):
# perf 6.12 names code after them (fixed later; the guest's binaries go
# without them for the same reason).
elf=$O/guest/bin/branchy
if [ -f "$elf" ] && command -v riscv64-linux-gnu-objcopy >/dev/null; then
	riscv64-linux-gnu-objcopy -w --strip-symbol='$x*' --strip-symbol='$d*' \
		"$elf" "$tmp/branchy"
	"$O/tests/userspace/gen-trace" "$tmp/synthetic.data" "$tmp/branchy" 200
	for f in comm,tid,pid,time,period,ip,sym,symoff,dso,brstack ip,sym,brstacksym \
		 ip,sym,symoff,dso,brstacksym pid,tid,ip,dso,brstack,brstacksym; do
		same "$tmp/synthetic.data" $f 100
	done
	if command -v qemu-riscv64 >/dev/null; then
		"$rvperf" record -o "$tmp/recorded.data" -- "$tmp/branchy" 2000 >/dev/null 2>&1
		ok $? "rvperf record branchy"
		for f in comm,tid,pid,time,period,ip,sym,symoff,dso,brstack \
			 ip,sym,symoff,dso,brstacksym time,ip,sym,brstack; do
			same "$tmp/recorded.data" $f 100
		done
	else
		ok 0 "rvperf record's files # SKIP qemu-riscv64 missing"
	fi
else
	ok 0 "files with symbols # SKIP $elf or binutils missing"
fi
fails_in_one_line "an unknown command: one line" "'frobnicate' is not a command" \
	"$rvperf" frobnicate
"$rvperf" script --help | grep -q '^usage: rvperf script'
ok $? "rvperf script --help shows its usage"
tap_done
