#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# rvperf autofdo: branch stacks stated exactly (gen-stacks) over riscv64
# programs built here must give exactly the expected line counts, entry
# counts and indirect-call targets, under the inline chains of the debug
# information; GCC must accept the profile and use it; bad input fails in
# one line.
. "$(dirname "$0")/../tap.sh"
O=${O:-build}
rvperf=$O/userspace/rvperf
gen=$O/tests/userspace/gen-stacks
cc=riscv64-linux-gnu-gcc
if ! command -v $cc >/dev/null; then
	echo "ok 1 - rvperf autofdo # SKIP no riscv64 cross compiler"
	echo "1..1"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
src=tests/userspace/afdo/inlined.c
elf=$tmp/inlined
$cc -O2 -g -static -o "$elf" $src
# Symbol address and size; the last instruction of a function.
sym() { riscv64-linux-gnu-nm -S "$elf" | awk -v s="$1" '$4 == s { print $1, $2 }'; }
read -r work_lo work_size < <(sym work)
work_hi=$(printf '%x' $((0x$work_lo + 0x$work_size)))
riscv64-linux-gnu-objdump -d "$elf" >"$tmp/dis"
insns() {	# addresses of the instructions in [$1, $2)
	python3 -c '
import re, sys
lo, hi = int(sys.argv[1], 16), int(sys.argv[2], 16)
for l in open(sys.argv[3]):
    m = re.match(r"^ +([0-9a-f]+):", l)
    if m and lo <= int(m.group(1), 16) < hi:
        print(m.group(1))' "$1" "$2" "$tmp/dis"
}
insns "$work_lo" "$work_hi" >"$tmp/work.addrs"
work_last=$(tail -n 1 "$tmp/work.addrs")
call=$(awk '/jal.*<work>/ { sub(":", "", $1); print $1; exit }' "$tmp/dis")

# 1. 700 samples whose two records bound all of work: every instruction of
# work ran 700 times; plus 3 calls of work from main.
{
	echo "700 $work_last>$work_lo 0>$work_lo"
	echo "3 $call>$work_lo"
} | "$gen" "$tmp/a.data" "$elf"
"$rvperf" autofdo -i "$tmp/a.data" --elf "$elf" -o "$tmp/a.afdo" --dump \
	>"$tmp/dump" 2>"$tmp/err"
ok $? "autofdo on exact stacks succeeds"
diag "$(cat "$tmp/err")"
python3 - "$tmp/dump" "$tmp/work.addrs" "$elf" >"$tmp/check" 2>&1 <<'PY'
import subprocess, sys
dump = open(sys.argv[1]).read().splitlines()
# The top-level profile of work: its header and the indented lines below.
try:
    start = next(i for i, l in enumerate(dump) if l.startswith('work:'))
except StopIteration:
    sys.exit('no profile for work in:\n' + '\n'.join(dump))
body = []
for l in dump[start + 1:]:
    if not l.startswith(' '):
        break
    body.append(l)
name, total, head = dump[start].split(':')
errors = []
if head != '3':
    errors.append('head count %s, want 3 (three calls)' % head)
counts = [l.split(': ')[1] for l in body if ': ' in l and not ':' in l.split(': ')[1]]
if not counts or any(c != '700' for c in counts):
    errors.append('line counts %s, want all 700' % counts)
# Inlined callees: addr2line's function names of the inner frames.
addrs = open(sys.argv[2]).read().split()
out = subprocess.run(['riscv64-linux-gnu-addr2line', '-f', '-i', '-e',
                      sys.argv[3]] + addrs, capture_output=True,
                     text=True).stdout.splitlines()
names = set(out[0::2]) - {'work', '??'}
inl = set(l.split(': ')[1].split(':')[0] for l in body
          if ': ' in l and ':' in l.split(': ')[1])
if names != inl:
    errors.append('inlined callees %s, addr2line says %s' % (sorted(inl), sorted(names)))
print('\n'.join(errors) or 'ok')
sys.exit(1 if errors else 0)
PY
ok $? "work: every line counted 700, entry count 3, inlined callees as addr2line sees them"
diag "$(cat "$tmp/check")"

# 2. An indirect call in branchy's hot loop: its target lands on the
# call's line as a value-profile target.
b=$tmp/branchy
$cc -O2 -g -static -o "$b" userspace/sample/branchy.c
riscv64-linux-gnu-objdump -d "$b" >"$tmp/bdis"
jalr=$(awk '/<hot_loop>:/ { f = 1 } f && /jalr/ { sub(":", "", $1); print $1; exit }' "$tmp/bdis")
op_xor=$(riscv64-linux-gnu-nm "$b" | awk '$3 == "op_xor" { print $1 }')
echo "5 $jalr>$op_xor" | "$gen" "$tmp/b.data" "$b"
"$rvperf" autofdo -i "$tmp/b.data" --elf "$b" --dump >"$tmp/bdump" 2>/dev/null
grep -q ' op_xor:5$' "$tmp/bdump" && grep -q '^op_xor:0:5$' "$tmp/bdump"
ok $? "indirect call: target op_xor counted 5 at the call's line, op_xor's entry count 5"
diag "$(cat "$tmp/bdump")"

# 3. GCC reads the profile and annotates work's blocks with it.
$cc -O2 -g -static -fauto-profile="$tmp/a.afdo" -fdump-ipa-afdo \
	-dumpdir "$tmp/" -o "$tmp/inlined.fdo" $src >"$tmp/cc.log" 2>&1
ok $? "riscv64-linux-gnu-gcc -fauto-profile accepts the profile"
diag "$(cat "$tmp/cc.log")"
# The IPA dump heads each function with its declaration at column 0.
awk '/^[a-z].*\)$/ { f = ($0 ~ / work \(/) }
     f && /\[count: [1-9]/ { found = 1 } END { exit !found }' "$tmp"/*.068i.afdo
ok $? "GCC annotated work's basic blocks with the profile's counts"
$cc -O2 -g -static -o "$tmp/inlined.plain" $src
if cmp -s <(riscv64-linux-gnu-objdump -d "$tmp/inlined.plain" | tail -n +3) \
	  <(riscv64-linux-gnu-objdump -d "$tmp/inlined.fdo" | tail -n +3); then
	diag "the build with the profile has the same code"
else
	diag "the build with the profile differs from the plain -O2 build"
fi

# 3b. The same program with compressed debug sections (-gz), and stripped
# with its debug information in a file of its own (.gnu_debuglink): the
# same code, so the same profile, byte for byte.
mkdir "$tmp/gz" "$tmp/split"
$cc -O2 -g -gz -static -o "$tmp/gz/inlined" $src
riscv64-linux-gnu-readelf -S "$tmp/gz/inlined" | grep -A1 ' \.debug_info ' | grep -q ' C ' &&
	"$rvperf" autofdo -i "$tmp/a.data" --elf "$tmp/gz/inlined" -o "$tmp/gz.afdo" \
		--dump >"$tmp/gz.dump" 2>"$tmp/gz.err" &&
	cmp -s "$tmp/a.afdo" "$tmp/gz.afdo" && cmp -s "$tmp/dump" "$tmp/gz.dump"
ok $? "-gz (SHF_COMPRESSED debug sections): the same profile as plain -g"
diag "$(cat "$tmp/gz.err")"
riscv64-linux-gnu-objcopy --only-keep-debug "$elf" "$tmp/split/inlined.debug"
riscv64-linux-gnu-objcopy --strip-debug --add-gnu-debuglink="$tmp/split/inlined.debug" \
	"$elf" "$tmp/split/inlined"
"$rvperf" autofdo -i "$tmp/a.data" --elf "$tmp/split/inlined" -o "$tmp/split.afdo" \
	2>"$tmp/split.err" && cmp -s "$tmp/a.afdo" "$tmp/split.afdo"
ok $? "stripped, with .gnu_debuglink to its debug file: the same profile"
diag "$(cat "$tmp/split.err")"

# 3c. Build ids decide which binary the recording is of, not file names:
# the recording of inlined with its build id in the MMAP2 (as perf record
# writes it) gives the same profile; another program, another build of
# inlined under its name or under another name are refused in one line
# before any profile is written.
build_id() { riscv64-linux-gnu-readelf -n "$1" | awk '/Build ID:/ { print $3 }'; }
id=$(build_id "$elf")
{
	echo "700 $work_last>$work_lo 0>$work_lo"
	echo "3 $call>$work_lo"
} | "$gen" "$tmp/id.data" "$elf" "$id"
"$rvperf" autofdo -i "$tmp/id.data" --elf "$elf" -o "$tmp/id.afdo" 2>"$tmp/id.err" &&
	cmp -s "$tmp/a.afdo" "$tmp/id.afdo"
ok $? "a recording with the binary's build id: accepted, the same profile"
diag "$(cat "$tmp/id.err")"
mkdir "$tmp/other"
cp "$elf" "$tmp/other/renamed"
"$rvperf" autofdo -i "$tmp/id.data" --elf "$tmp/other/renamed" -o "$tmp/renamed.afdo" \
	2>"$tmp/renamed.err" && cmp -s "$tmp/a.afdo" "$tmp/renamed.afdo"
ok $? "the same build under another name: accepted (its build id), the same profile"
diag "$(cat "$tmp/renamed.err")"
$cc -O2 -g -static -o "$tmp/other/branchy" userspace/sample/branchy.c
$cc -O1 -g -static -o "$tmp/other/inlined" $src
$cc -O1 -g -static -o "$tmp/other/inlined-O1" $src
[ -n "$id" ] && [ "$(build_id "$tmp/other/inlined")" != "$id" ]
ok $? "the -O1 build of inlined has another build id"
for other in branchy inlined inlined-O1; do
	rm -f "$tmp/x.afdo"
	fails_in_one_line "--elf $other (not the recorded build): refused, both build ids named" \
		"^rvperf autofdo: .*other/$other: build id [0-9a-f]{40}, the recording's inlined has [0-9a-f]{40} \(--force" \
		"$rvperf" autofdo -i "$tmp/id.data" --elf "$tmp/other/$other" -o "$tmp/x.afdo"
	[ ! -e "$tmp/x.afdo" ]
	ok $? "--elf $other: no profile written"
done
"$rvperf" autofdo -i "$tmp/id.data" --elf "$tmp/other/inlined" --force -o "$tmp/x.afdo" \
	2>"$tmp/force.err"
ok $? "--elf of another build with --force: a profile"
diag "$(cat "$tmp/force.err")"
# A recording without build ids whose samples are all outside the binary
# (the C library's, say): a profile, empty, and a warning saying so.
echo "5 7fff0000>7fff0010 7fff0020>7fff0030" | "$gen" "$tmp/lib.data" "$elf"
"$rvperf" autofdo -i "$tmp/lib.data" --elf "$elf" -o "$tmp/lib.afdo" 2>"$tmp/lib.err"
st=$?
[ $st -eq 0 ] && grep -q "^rvperf autofdo: warning: no function of .*inlined has a sample" "$tmp/lib.err"
ok $? "no sample in a function of the binary: a warning"
diag "status $st: $(cat "$tmp/lib.err")"
"$rvperf" autofdo -i "$tmp/a.data" --elf "$elf" -o "$tmp/a2.afdo" 2>"$tmp/a2.err"
! grep -q "no function" "$tmp/a2.err"
ok $? "and none when its functions have samples"

# 4. Bad input.
fails_in_one_line "no --elf: one-line usage error" "--elf ELF is required" \
	"$rvperf" autofdo -i "$tmp/a.data" -o "$tmp/x.afdo"
fails_in_one_line "a non-RISC-V ELF: one-line reason" "not a RISC-V ELF" \
	"$rvperf" autofdo -i "$tmp/a.data" --elf "$O/userspace/rvperf" -o "$tmp/x.afdo"
$cc -O2 -static -o "$tmp/nodebug" $src
fails_in_one_line "a binary without -g: one-line reason" "no line information" \
	"$rvperf" autofdo -i "$tmp/a.data" --elf "$tmp/nodebug" -o "$tmp/x.afdo"
echo "4" | "$gen" "$tmp/empty.data" "$elf"
fails_in_one_line "no branch stacks: one-line reason" "no samples with a branch stack" \
	"$rvperf" autofdo -i "$tmp/empty.data" --elf "$elf" -o "$tmp/x.afdo"
fails_in_one_line "missing perf.data: one-line reason" "nonexistent" \
	"$rvperf" autofdo -i "$tmp/nonexistent.data" --elf "$elf" -o "$tmp/x.afdo"
size=$(stat -c %s "$tmp/a.data")
head -c $((size / 2)) "$tmp/a.data" >"$tmp/cut.data"
"$rvperf" autofdo -i "$tmp/cut.data" --elf "$elf" -o "$tmp/cut.afdo" 2>"$tmp/cut.err"
st=$?
[ $st -eq 0 ] && [ -s "$tmp/cut.afdo" ] && grep -q warning "$tmp/cut.err"
ok $? "truncated perf.data: a profile of the complete samples and a warning"
diag "status $st: $(cat "$tmp/cut.err")"
tap_done
