#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Wrong input is refused, not taken silently (issue 19): each gets one line
# and a non-zero status before any work is done, and what is right is
# accepted.  report: an --elf of another build (build id), of another
# machine, missing; --symfs missing, with and without a trailing slash;
# --top -3; several -i, one missing.  autofdo: recordings filtered otherwise than any, an --elf of
# another build or program under any name, --force, the usage.  record: relative program paths made
# absolute, -j without u on user-mode QEMU, --qemu and -o that cannot work.
set -u
. tests/tap.sh
O=${O:-build}
rvperf=$O/userspace/rvperf
elf=$O/guest/bin/branchy
plugin=$O/qemu-model/librvperf-ctr.so
cc=riscv64-linux-gnu-gcc
if [ ! -f "$elf" ] || ! command -v $cc >/dev/null; then
	echo "1..0 # SKIP $elf or $cc missing (make guest-image; make deps)"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
abs_elf=$(realpath "$elf")
rvperf_abs=$(realpath "$rvperf")

# ---- rvperf report
gen_trace=$(realpath "$O/tests/userspace/gen-trace")
"$gen_trace" "$tmp/t.data" "$abs_elf" 100
ok $? "branch stacks of branchy, its build id in the MMAP2"
# Another build of the same program: same name, other build id.
mkdir "$tmp/other"
$cc -O1 -g -static -o "$tmp/other/branchy" userspace/sample/branchy.c
fails_in_one_line "report --elf of another build: refused, both build ids named" \
	"report: .*other/branchy: build id [0-9a-f]{40}, the recording's branchy has [0-9a-f]{40} \(--force" \
	"$rvperf" report -i "$tmp/t.data" --elf "$tmp/other/branchy"
"$rvperf" report -i "$tmp/t.data" --elf "$tmp/other/branchy" --force --top 2 \
	>"$tmp/force.out" 2>"$tmp/force.err"
ok $? "report --elf of another build with --force: reported"
"$rvperf" report -i "$tmp/t.data" --elf "$elf" --top 2 | grep -q 'hot_loop+0x40'
ok $? "report --elf of the recorded build: accepted, names the functions"
fails_in_one_line "report --elf of an x86 binary: refused" \
	"report: .*rvperf: not a program for riscv64, where .* was recorded \(ELF machine 62\)" \
	"$rvperf" report -i "$tmp/t.data" --elf "$rvperf"
fails_in_one_line "report --elf of a missing file: refused" \
	"report: $tmp/nonexistent: No such file or directory" \
	"$rvperf" report -i "$tmp/t.data" --elf "$tmp/nonexistent"
fails_in_one_line "report of several recordings, one missing: refused before any report" \
	"^rvperf report: $tmp/nonexistent: No such file or directory\$" \
	"$rvperf" report -i "$tmp/nonexistent" -i "$tmp/t.data"
fails_in_one_line "report --symfs of a missing directory: refused" \
	"report: --symfs $tmp/nonexistent: No such file or directory" \
	"$rvperf" report -i "$tmp/t.data" --symfs "$tmp/nonexistent"
# A recording that names its program relatively (as old ones did).
mkdir -p "$tmp/symfs/bin"
cp "$elf" "$tmp/symfs/bin/branchy"
(cd "$tmp/symfs" && "$gen_trace" "$tmp/rel.data" bin/branchy 100)
"$rvperf" report -i "$tmp/rel.data" --symfs "$tmp/symfs" --top 3 >"$tmp/noslash.out" &&
	"$rvperf" report -i "$tmp/rel.data" --symfs "$tmp/symfs/" --top 3 >"$tmp/slash.out" &&
	cmp -s "$tmp/noslash.out" "$tmp/slash.out" && grep -q 'hot_loop+0x40' "$tmp/slash.out"
ok $? "report --symfs DIR and DIR/: the same report, with symbols"
fails_in_one_line "report --top -3: one line, not 'out of memory'" \
	"report: --top wants a positive number .*not '-3'" \
	"$rvperf" report -i "$tmp/t.data" --top -3

# ---- rvperf autofdo
gen=$O/tests/userspace/gen-stacks
$cc -O2 -g -static -o "$tmp/branchy" userspace/sample/branchy.c
main=$(riscv64-linux-gnu-nm "$tmp/branchy" | awk '$3 == "main" {print $1}')
echo "5 $main>$main" | "$gen" "$tmp/a.data" "$tmp/branchy"
"$rvperf" autofdo -i "$tmp/a.data" --elf "$tmp/branchy" --dump >/dev/null 2>&1
ok $? "autofdo on a recording without build ids: accepted"
"$rvperf" autofdo --help | head -1 | grep -q -- ' -o OUT.afdo' &&
	! "$rvperf" autofdo --help | grep -q -- '\[-o'
ok $? "autofdo's usage shows -o as required (or --dump)"
fails_in_one_line "autofdo without -o or --dump: one line" "give -o FILE, --dump or both" \
	"$rvperf" autofdo -i "$tmp/a.data" --elf "$tmp/branchy"
fails_in_one_line "autofdo --format of neither gcc nor llvm: one line" "--format is gcc or llvm" \
	"$rvperf" autofdo -i "$tmp/a.data" --elf "$tmp/branchy" --format afdo -o "$tmp/x"

if ! command -v qemu-riscv64 >/dev/null || [ ! -f "$plugin" ]; then
	ok 0 "rvperf record and recordings of it # SKIP qemu-riscv64 or $plugin missing"
	tap_done
	exit $?
fi
# Recordings of the program autofdo gets (its build id in the MMAP2).
for j in any cond any_call any,call_stack; do
	"$rvperf" record -j "$j" -o "$tmp/$j.data" -- "$tmp/branchy" >/dev/null 2>&1 ||
		diag "record -j $j failed"
done
"$rvperf" autofdo -i "$tmp/any.data" --elf "$tmp/branchy" -o "$tmp/any.afdo" 2>/dev/null &&
	[ -s "$tmp/any.afdo" ]
ok $? "autofdo on a -j any recording of the same build: a profile"
for j in cond any_call any,call_stack; do
	fails_in_one_line "autofdo on a -j $j recording: refused with the reason" \
		"autofdo: .*: recorded with branch filter $j, not any: the gaps between its records are not straight-line code" \
		"$rvperf" autofdo -i "$tmp/$j.data" --elf "$tmp/branchy" -o "$tmp/x.afdo"
done
[ ! -e "$tmp/x.afdo" ]
ok $? "and no profile was written"
fails_in_one_line "autofdo --elf of another build: refused, both build ids named" \
	"autofdo: .*other/branchy: build id [0-9a-f]{40}, the recording's branchy has [0-9a-f]{40} \(--force" \
	"$rvperf" autofdo -i "$tmp/any.data" --elf "$tmp/other/branchy" -o "$tmp/x.afdo"
"$rvperf" autofdo -i "$tmp/any.data" --elf "$tmp/other/branchy" --force -o "$tmp/x.afdo" 2>/dev/null
ok $? "autofdo --elf of another build with --force: a profile"
# Whatever the names: another build, and another program, under other names.
cp "$tmp/other/branchy" "$tmp/other/renamed"
fails_in_one_line "autofdo --elf of another build under another name: refused" \
	"autofdo: .*other/renamed: build id [0-9a-f]{40}, the recording's branchy has [0-9a-f]{40} \(--force" \
	"$rvperf" autofdo -i "$tmp/any.data" --elf "$tmp/other/renamed" -o "$tmp/y.afdo"
$cc -O2 -g -static -o "$tmp/other/another" tests/userspace/afdo/inlined.c
fails_in_one_line "autofdo --elf of another program: refused" \
	"autofdo: .*other/another: build id [0-9a-f]{40}, the recording's branchy has [0-9a-f]{40} \(--force" \
	"$rvperf" autofdo -i "$tmp/any.data" --elf "$tmp/other/another" -o "$tmp/y.afdo"
[ ! -e "$tmp/y.afdo" ]
ok $? "and no profile was written"
cp "$tmp/branchy" "$tmp/other/same-build"
"$rvperf" autofdo -i "$tmp/any.data" --elf "$tmp/other/same-build" -o "$tmp/same.afdo" 2>/dev/null &&
	cmp -s "$tmp/any.afdo" "$tmp/same.afdo"
ok $? "the recorded build under another name: the same profile"

# ---- rvperf record
mkdir "$tmp/run" "$tmp/elsewhere"
cp "$elf" "$tmp/run/prog"
(cd "$tmp/run" && "$rvperf_abs" record -o rel.data -- ./prog >/dev/null 2>&1)
ok $? "record ./prog (a relative path)"
(cd "$tmp/elsewhere" && "$rvperf_abs" report -i ../run/rel.data --top 3) |
	grep -q 'hot_loop+0x'
ok $? "its report from another directory names the functions"
if command -v perf >/dev/null; then
	perf script -i "$tmp/run/rel.data" --show-mmap-events 2>/dev/null |
		grep -q "PERF_RECORD_MMAP2 .* $tmp/run/prog\$"
	ok $? "perf script shows the MMAP2 with the absolute path"
else
	ok 0 "MMAP2 path through perf # SKIP host perf missing"
fi
fails_in_one_line "record -j any,k on user-mode QEMU: refused before running" \
	"record: -j any,k has no u: user-mode QEMU runs no kernel" \
	"$rvperf" record -j any,k -o "$tmp/k.data" -- "$elf"
fails_in_one_line "record --ctl with U-mode off: refused" \
	"record: --ctl 0x0 leaves U-mode off" \
	"$rvperf" record --ctl 0x0 -o "$tmp/k.data" -- "$elf"
"$rvperf" record -j any,u,k -o "$tmp/uk.data" -- "$elf" >/dev/null 2>&1 &&
	"$rvperf" script -i "$tmp/uk.data" -F brstack >"$tmp/uk.txt" &&
	grep -q '0x[0-9a-f]*/0x' "$tmp/uk.txt" && ! grep -q '0x0/0x0/' "$tmp/uk.txt"
ok $? "record -j any,u,k: records, and no 0x0 -> 0x0 pair among them"
fails_in_one_line "record --qemu /nonexistent: one line, naming it" \
	"^rvperf record: --qemu /nonexistent: No such file or directory$" \
	"$rvperf" record --qemu /nonexistent -o "$tmp/q.data" -- "$elf"
# One line in all: had the program run, its own line would be there too.
fails_in_one_line "record -o /nonexistent/dir/x: refused before the program runs" \
	"^rvperf record: -o /nonexistent/dir/x: /nonexistent/dir: No such file or directory$" \
	"$rvperf" record -o /nonexistent/dir/x -- "$elf"
tap_done
