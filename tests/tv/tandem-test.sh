#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# rvperf tv on real executions: traces recorded from QEMU through the trace
# plugin round-trip through the library byte for byte; verify, with
# Debian's QEMU 7.2 (qemu-system-riscv64 / qemu-riscv64 gdbstub) as the
# reference, passes them with no divergence; one changed register, memory
# datum, pc and privilege is reported by diff and by verify exactly at its
# group and element, and they go on; a timer read causes no report when
# declared non-deterministic and exactly one when not.
#
# Partial traces come from Debian's QEMU 7.2 (plugin API without
# registers); complete ones from QEMU 10.0.2's qemu-system-riscv64 when
# scripts/registry has unpacked it into the cache (else those checks skip).
. "$(dirname "$0")/../tap.sh"
O=${O:-build}
RVPERF_CACHE=${RVPERF_CACHE:-$HOME/.cache/rvperf}
rvperf=$O/userspace/rvperf
mutate=$O/tests/tv/tv-mutate
export RVPERF_TV_PLUGIN=$(realpath "$O/qemu-model/librvperf-tv.so")
cross=${CROSS_COMPILE:-riscv64-linux-gnu-}
q10=${TV_QEMU10:-$RVPERF_CACHE/qemu-10.0.2/rvperf-bin/qemu-system-riscv64}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for tool in qemu-system-riscv64 qemu-riscv64 "${cross}gcc"; do
	if ! command -v "$tool" >/dev/null; then
		echo "ok 1 - tandem tests # SKIP $tool not installed"
		echo "1..1"
		exit 0
	fi
done

"${cross}gcc" -nostdlib -nostartfiles -static -no-pie -Wl,-Ttext=0x80000000 \
	-o "$tmp/bare.elf" tests/tv/tv-bare.S || exit 1
printf '#include <stdio.h>\nint main(int c, char **v) { long s = 0;\n for (int i = 0; i < 2000; i++) s += i * c;\n printf("%%ld\\n", s); return 0; }\n' \
	>"$tmp/user.c"
"${cross}gcc" -static -O2 -o "$tmp/user" "$tmp/user.c" || exit 1
"${cross}gcc" -O2 -o "$tmp/user-dyn" "$tmp/user.c" || exit 1	# gcc's default: PIE, ld.so

# first_report OUTPUT: "GROUP ELEMENT" of the first divergence line
first_report() { awk -F': ' '/^group [0-9]+ \(/ { split($1, a, " "); print a[2], $2; exit }' "$1"; }
reports() { grep -c '^group [0-9]* ' "$1"; }

# ---- partial traces from QEMU 7.2
"$rvperf" tv record --system virt -o "$tmp/p.tv" -- "$tmp/bare.elf" >/dev/null 2>"$tmp/err"
ok $? "record (system mode, QEMU 7.2): a trace of the bare-metal program"
grep -q 'absent=gpr,fpr,csr,priv,' "$tmp/p.tv.cfg"
ok $? "QEMU 7.2's trace says registers and privilege are absent ($(cat "$tmp/p.tv.cfg"))"
"$rvperf" tv dump "$tmp/p.tv" >"$tmp/p.dump"
ok $? "dump decodes it strictly ($(grep -c '^group' "$tmp/p.dump") groups)"
grep -q 'pc 0x80000034  mret  *\[trap return\]' "$tmp/p.dump"
ok $? "dump names the instruction and its transfer (mret, trap return)"
"$mutate" "$tmp/p.tv" "$tmp/p2.tv" none && cmp -s "$tmp/p.tv" "$tmp/p2.tv"
ok $? "round trip: decoded and re-encoded, the recorded trace is the same bytes"
"$rvperf" tv verify "$tmp/p.tv" --qemu qemu-system-riscv64 --elf "$tmp/bare.elf" >"$tmp/v.out" 2>&1
ok $? "verify against qemu-system-riscv64 7.2's gdbstub: no divergence ($(tail -n 1 "$tmp/v.out"))"
# QEMU 7.2 now and then says it stepped having run nothing (its timer
# pending): a relay answers step 50 so, and verify steps again.
REAL_QEMU=qemu-system-riscv64 EMPTY_STEP=50 "$rvperf" tv verify "$tmp/p.tv" \
	--qemu "$PWD/tests/tv/gdb-empty-step.py" --elf "$tmp/bare.elf" >"$tmp/v.out" 2>&1 &&
	tail -n 1 "$tmp/v.out" | grep -q ' 0 divergences .*QEMU ran nothing on 1 step, stepped again$'
ok $? "a step QEMU says it took having run nothing is taken again: no divergence, said in the summary"
[ $? -eq 0 ] || diag "$(tail -n 2 "$tmp/v.out")"
# Hart reset: run 50 groups (into S-mode), reset, run the whole trace again
# from the reset vector, whose first instructions only M-mode may run.
"$mutate" "$tmp/p.tv" "$tmp/pre.tv" cut 50
{ cat "$tmp/pre.tv"; printf '\001\012\002'; cat "$tmp/p.tv"; } >"$tmp/r.tv"
{ cat "$tmp/pre.tv"; cat "$tmp/p.tv"; } >"$tmp/nr.tv"
cp "$tmp/p.tv.cfg" "$tmp/r.tv.cfg"
cp "$tmp/p.tv.cfg" "$tmp/nr.tv.cfg"
"$rvperf" tv verify "$tmp/r.tv" --qemu qemu-system-riscv64 --elf "$tmp/bare.elf" >"$tmp/v.out" 2>&1
ok $? "a hart-reset group resets QEMU (system_reset through the gdbstub): no divergence"
"$rvperf" tv verify "$tmp/nr.tv" --qemu qemu-system-riscv64 --elf "$tmp/bare.elf" >"$tmp/v.out" 2>&1
[ $? -eq 1 ] && grep -q 'csrrs a0,mhartid,zero: pc: ' "$tmp/v.out"
ok $? "without the reset group, the reset vector's csrr mhartid traps in S-mode: reported"
sel=$("$mutate" "$tmp/p.tv" "$tmp/pm.tv" pc 100)
"$rvperf" tv diff "$tmp/p.tv" "$tmp/pm.tv" >"$tmp/d.out"
[ "$(first_report "$tmp/d.out")" = "$sel" ] && [ "$(reports "$tmp/d.out")" -eq 1 ]
ok $? "partial trace, pc changed at group ${sel% *}: diff reports exactly that"
"$rvperf" tv verify "$tmp/pm.tv" --qemu qemu-system-riscv64 --elf "$tmp/bare.elf" \
	--resync reference >"$tmp/v.out" 2>&1
[ "$(first_report "$tmp/v.out")" = "$sel" ] && [ "$(reports "$tmp/v.out")" -eq 1 ]
ok $? "partial trace, pc changed at group ${sel% *}: verify reports exactly that, then goes on to the end"
[ $? -eq 0 ] || diag "$(head -n 5 "$tmp/v.out")"

# ---- XLEN 32: qemu-system-riscv32
"${cross}gcc" -march=rv32imac_zicsr -mabi=ilp32 -nostdlib -nostartfiles -static -no-pie \
	-Wl,-m,elf32lriscv -Wl,-Ttext=0x80000000 -o "$tmp/bare32.elf" tests/tv/bare32.S || exit 1
"$rvperf" tv record --xlen 32 --system virt -o "$tmp/p32.tv" -- "$tmp/bare32.elf" >/dev/null 2>&1
grep -q '^xlen=32 flen=64 mlen=32 ' "$tmp/p32.tv.cfg"
ok $? "record (qemu-system-riscv32 7.2): an XLEN 32 trace ($(cat "$tmp/p32.tv.cfg"))"
"$rvperf" tv verify "$tmp/p32.tv" --qemu qemu-system-riscv32 --elf "$tmp/bare32.elf" >"$tmp/v.out" 2>&1
ok $? "XLEN 32: verify on qemu-system-riscv32 7.2: no divergence ($(tail -n 1 "$tmp/v.out"))"

# ---- user mode, QEMU 7.2
(cd "$tmp" && "$OLDPWD/$rvperf" tv record -o u.tv -- ./user >/dev/null)
ok $? "record (user mode, qemu-riscv64 7.2): a trace of a static libc program"
"$mutate" "$tmp/u.tv" "$tmp/u2.tv" none && cmp -s "$tmp/u.tv" "$tmp/u2.tv"
ok $? "round trip of the user-mode trace ($(stat -c %s "$tmp/u.tv") bytes)"
(cd "$tmp" && "$OLDPWD/$rvperf" tv verify u.tv --user --qemu qemu-riscv64 --elf ./user) >"$tmp/v.out" 2>&1
ok $? "verify against qemu-riscv64 7.2's gdbstub: no divergence ($(tail -n 1 "$tmp/v.out"))"
# Program arguments: verify gives the recorded ones again after --.
(cd "$tmp" && "$OLDPWD/$rvperf" tv record -o ua.tv -- ./user x yz >/dev/null &&
	"$OLDPWD/$rvperf" tv verify ua.tv --user --qemu qemu-riscv64 --elf ./user -- x yz) >"$tmp/v.out" 2>&1
ok $? "user mode with arguments (-- x yz): no divergence ($(tail -n 1 "$tmp/v.out"))"
# A dynamically linked program (as gcc builds by default): QEMU must find
# its loader and libc (-L, the cross libc6), in record and in verify.  The
# whole run is ~100,000 instructions, most of them the loader's; verify
# steps its first 20,000 (the gdbstub steps ~4,000 a second), which only
# run when QEMU found the loader.  Its output goes where verify's goes
# (/dev/null): printf's fstat of stdout is an input a 7.2 trace lacks.
(cd "$tmp" && "$OLDPWD/$rvperf" tv record -o ud.tv -- ./user-dyn >/dev/null 2>ud.err &&
	[ "$("$OLDPWD/$rvperf" tv dump ud.tv | grep -c '^group')" -gt 50000 ] &&
	"$OLDPWD/$mutate" ud.tv ud20k.tv cut 20000 &&
	"$OLDPWD/$rvperf" tv verify ud20k.tv --user --qemu qemu-riscv64 --elf ./user-dyn) >"$tmp/v.out" 2>&1
ok $? "a dynamically linked program: recorded whole$(head -c 80 "$tmp/ud.err"), verify of its first 20,000 finds no divergence ($(tail -n 1 "$tmp/v.out"))"
qemu-riscv64 -R 0x100000000 -plugin "$RVPERF_TV_PLUGIN,out=$tmp/ub.tv" "$tmp/user" >/dev/null &&
	qemu-riscv64 -R 0x100000000 -plugin "$RVPERF_TV_PLUGIN,out=$tmp/ui.tv,block=off" "$tmp/user" >/dev/null &&
	cmp -s "$tmp/ub.tv" "$tmp/ui.tv"
ok $? "the plugin's block mode writes the same bytes as a callback per instruction"
# Block mode counts only at the instructions that can stop a block early:
# a load that faults into a signal handler mid-block, floating point, a CSR
# read and an atomic among ALU instructions must give what a callback at
# every instruction gives.
"${cross}gcc" -static -O2 -o "$tmp/stops" tests/tv/stops.c || exit 1
qemu-riscv64 -R 0x100000000 -plugin "$RVPERF_TV_PLUGIN,out=$tmp/sb.tv" "$tmp/stops" >"$tmp/sb.out" &&
	qemu-riscv64 -R 0x100000000 -plugin "$RVPERF_TV_PLUGIN,out=$tmp/si.tv,block=off" "$tmp/stops" >"$tmp/si.out" &&
	cmp -s "$tmp/sb.tv" "$tmp/si.tv"
ok $? "blocks left early (a fault into a handler): block mode writes the same bytes"

# ---- complete traces from QEMU 10.0.2
if [ ! -x "$q10" ]; then
	for what in "record a complete trace" "complete trace: verify passes" \
		"timer read" "changed register" "changed memory datum" "changed pc" \
		"changed privilege" "interrupt" "XLEN 32 complete"; do
		ok 0 "$what # SKIP no QEMU 10 at $q10 (make registry-stack)"
	done
	tap_done
	exit $?
fi
"$rvperf" tv record --qemu "$q10" --system virt -o "$tmp/c10.tv" -- "$tmp/bare.elf" >/dev/null 2>&1
# QEMU 10 runs on for a while after the test finisher's store (QEMU 7.2
# stops there): the trace ends with that store.
last=$("$rvperf" tv dump "$tmp/c10.tv" | awk '/sw t1,0\(t0\)/ { print $2; exit }')
"$mutate" "$tmp/c10.tv" "$tmp/c.tv" cut "${last:-0}"
grep -q 'absent=paddr,eaddr,stdata,mtime,pcpaddr' "$tmp/c.tv.cfg"
ok $? "record (system mode, QEMU 10.0.2): registers, privilege and memory data present ($(cat "$tmp/c.tv.cfg"))"
"$rvperf" tv verify "$tmp/c.tv" --qemu qemu-system-riscv64 --elf "$tmp/bare.elf" >"$tmp/v.out" 2>&1
ok $? "complete trace from QEMU 10 verified on QEMU 7.2: no divergence, the timer read declared ($(tail -n 1 "$tmp/v.out"))"
"$rvperf" tv verify "$tmp/c.tv" --qemu qemu-system-riscv64 --elf "$tmp/bare.elf" --nondet none >"$tmp/v.out" 2>&1
[ "$(reports "$tmp/v.out")" -eq 1 ] && grep -q 'csrrs a5,time,zero: x15/a5' "$tmp/v.out"
ok $? "timer read undeclared: exactly one report, the register rdtime wrote"
[ $? -eq 0 ] || diag "$(head -n 5 "$tmp/v.out")"
"$rvperf" tv diff "$tmp/c.tv" "$tmp/c.tv" >/dev/null
ok $? "diff of a trace with itself: no divergence"
"$rvperf" tv diff "$tmp/p.tv" "$tmp/c.tv" >"$tmp/d.out"
# QEMU 10 may stop at the finisher's store as 7.2 does, or run on a little.
n=$(reports "$tmp/d.out")
[ "$n" -eq 0 ] || { [ "$n" -eq 1 ] && grep -q 'sw t1,0(t0): pc: ' "$tmp/d.out"; }
ok $? "diff of QEMU 7.2's partial and QEMU 10's complete trace (the elements both have): the same but, when QEMU 10 ran on after the finisher's store, for that store's next pc"
[ $? -eq 0 ] || diag "$(head -n 3 "$tmp/d.out")"

# An interrupt at a point that depends on QEMU's speed, after an mtime read.
"${cross}gcc" -nostdlib -nostartfiles -static -no-pie -Wl,-Ttext=0x80000000 \
	-o "$tmp/irq.elf" tests/tv/irq.S || exit 1
"$rvperf" tv record --qemu "$q10" --system virt -o "$tmp/i10.tv" -- "$tmp/irq.elf" >/dev/null 2>&1
last=$("$rvperf" tv dump "$tmp/i10.tv" | awk '/sw t1,0\(t0\)/ { print $2; exit }')
"$mutate" "$tmp/i10.tv" "$tmp/i.tv" cut "${last:-0}"
"$rvperf" tv dump "$tmp/i.tv" | grep -A4 '^group [0-9]* at byte 0x[0-9a-f]*$' | grep -q 'mcause   = 0x8000000000000007'
ok $? "the interrupt is a group of its own, without an instruction (mcause 0x8000000000000007)"
"$rvperf" tv verify "$tmp/i.tv" --qemu qemu-system-riscv64 --elf "$tmp/irq.elf" >"$tmp/v.out" 2>&1
ok $? "verify: the interrupt comes from the trace and the mtime read is declared: no divergence ($(tail -n 1 "$tmp/v.out"))"
[ $? -eq 0 ] || diag "$(head -n 5 "$tmp/v.out")"
"$rvperf" tv verify "$tmp/i.tv" --qemu qemu-system-riscv64 --elf "$tmp/irq.elf" --nondet mip >"$tmp/v.out" 2>&1
# verify exits 1 (divergences) after its summary line: it ran to the end.
[ $? -eq 1 ] && grep -q ' 2 divergences ' "$tmp/v.out" &&
	[ "$(reports "$tmp/v.out")" -eq 2 ] && [ "$(grep -c 'ld t2,0(t1): ' "$tmp/v.out")" -eq 2 ]
st=$?
ok $st "mtime undeclared: its load is reported (register and memory), nothing else, and verify runs to the end"
if [ $st -ne 0 ]; then
	epc=$("$rvperf" tv dump "$tmp/i.tv" | awk '/ mepc / && $4 !~ /^0x0+$/ { print $4; exit }')
	diag "$(head -n 8 "$tmp/v.out")" "$(tail -n 2 "$tmp/v.out")" "the trace's interrupt: mepc ${epc:-none}"
fi

# XLEN 32, complete: 4-byte registers from QEMU 10, verified on 7.2.
q10_32=$(dirname "$(readlink -f "$(dirname "$q10")/qemu-riscv64")")/qemu-system-riscv32
"$rvperf" tv record --xlen 32 --qemu "$q10_32" --system virt -o "$tmp/c32l.tv" -- "$tmp/bare32.elf" >/dev/null 2>&1
last=$("$rvperf" tv dump "$tmp/c32l.tv" | awk '/sw t1,0\(t0\)/ { print $2; exit }')
"$mutate" "$tmp/c32l.tv" "$tmp/c32.tv" cut "${last:-0}"
sel=$("$mutate" "$tmp/c32.tv" "$tmp/m32.tv" reg 500)
"$rvperf" tv verify "$tmp/c32.tv" --qemu qemu-system-riscv32 --elf "$tmp/bare32.elf" >"$tmp/v.out" 2>&1 &&
	"$rvperf" tv verify "$tmp/m32.tv" --qemu qemu-system-riscv32 --elf "$tmp/bare32.elf" \
		--resync reference >"$tmp/v2.out" 2>&1
[ $? -eq 1 ] && [ "$(first_report "$tmp/v2.out")" = "$sel" ] && [ "$(reports "$tmp/v2.out")" -eq 1 ]
ok $? "XLEN 32 complete trace from QEMU 10: verifies clean on 7.2; a changed register ($sel) is reported alone"
[ $? -eq 0 ] || diag "$(tail -n 2 "$tmp/v.out")" "$(head -n 3 "$tmp/v2.out")"

for kind in reg mem pc priv; do
	sel=$("$mutate" "$tmp/c.tv" "$tmp/m.tv" $kind 1000) || { ok 1 "mutate $kind"; continue; }
	"$rvperf" tv diff "$tmp/c.tv" "$tmp/m.tv" >"$tmp/d.out"
	[ "$(first_report "$tmp/d.out")" = "$sel" ] && [ "$(reports "$tmp/d.out")" -eq 1 ]
	ok $? "$kind changed ($sel): diff reports exactly that element at that group, and only that"
	[ $? -eq 0 ] || diag "$(head -n 5 "$tmp/d.out")"
	"$rvperf" tv verify "$tmp/m.tv" --qemu qemu-system-riscv64 --elf "$tmp/bare.elf" \
		--resync reference >"$tmp/v.out" 2>&1
	[ "$(first_report "$tmp/v.out")" = "$sel" ] && [ "$(reports "$tmp/v.out")" -eq 1 ] &&
		grep -q ' 1 divergence ' "$tmp/v.out"
	ok $? "$kind changed ($sel): verify reports exactly that, goes on to the end, nothing else"
	[ $? -eq 0 ] || diag "$(head -n 5 "$tmp/v.out")"
	"$rvperf" tv verify "$tmp/m.tv" --qemu qemu-system-riscv64 --elf "$tmp/bare.elf" \
		>"$tmp/v.out" 2>&1
	[ "$(first_report "$tmp/v.out")" = "$sel" ]
	ok $? "$kind changed: with the specification's resync (the trace's value into QEMU) the first report is the same"
done
tap_done
