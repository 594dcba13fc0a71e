#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# rvperf tv verify on the plugin path (qemu-model/plugin/tv_verify.c): QEMU
# 10.2 runs the program with the trace plugin, which compares its state
# with the trace's shadow state at each retired instruction.
#   - the probe takes the plugin path on a QEMU with plugin API 5 and the
#     gdbstub path on Debian's 7.2; --via plugin on 7.2 fails in one line;
#   - complete traces recorded by the same QEMU verify with no divergence,
#     from a file and from a pipe (rvperf tv record -o - | verify -);
#   - one changed register, memory datum, pc and (system mode) privilege is
#     reported at exactly its group and element, alone with --resync
#     reference, first with the specification's resync;
#   - a timer read (system mode) and the kernel's inputs (user mode: the
#     thread id, AT_RANDOM) cause no report when declared, and are
#     reported with --nondet none;
#   - an interrupt QEMU takes where the trace has it is no divergence;
#   - partial traces recorded by QEMU 7.2 verify on 10.2 (a bare-metal
#     program; a user-mode program without libc, whose run does not depend
#     on the QEMU version).
# QEMUs: QEMU_USER_PLUGIN (qemu-riscv64 with plugins, the registry's
# $O/qemu-rvperf build) and TV_QEMU_SYSTEM_PLUGIN (a qemu-system-riscv64
# built with --enable-plugins: by default the registry's, $O/qemu-rvperf);
# each part SKIPs without its QEMU.
. "$(dirname "$0")/../tap.sh"
O=${O:-build}
rvperf=$(realpath "$O/userspace/rvperf")
mutate=$(realpath "$O/tests/tv/tv-mutate")
export RVPERF_TV_PLUGIN=$(realpath "$O/qemu-model/librvperf-tv.so")
cross=${CROSS_COMPILE:-riscv64-linux-gnu-}
# absolute: user-mode runs start in the program's own directory
qu=$(realpath -m "${QEMU_USER_PLUGIN:-$O/qemu-rvperf/qemu-riscv64}")
qs=$(realpath -m "${TV_QEMU_SYSTEM_PLUGIN:-$O/qemu-rvperf/qemu-system-riscv64}")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if ! command -v "${cross}gcc" >/dev/null; then
	echo "1..0 # SKIP ${cross}gcc not installed"
	exit 0
fi
# first_report OUTPUT: "GROUP ELEMENT" of the first divergence line
first_report() { awk -F': ' '/^group [0-9]+ \(/ { split($1, a, " "); print a[2], $2; exit }' "$1"; }
reports() { grep -c '^group [0-9]* ' "$1"; }
on_plugin() { tail -n 1 "$1" | grep -q ' instructions compared in the plugin, '; }

# mutations TRACE QEMU ELF FROM KINDS [--user]: each kind changed once.
mutations() {
	local trace=$1 qemu=$2 elf=$3 from=$4 kinds=$5 sel
	shift 5
	for kind in $kinds; do
		sel=$("$mutate" "$trace" "$tmp/m.tv" "$kind" "$from") || { ok 1 "mutate $kind"; continue; }
		"$rvperf" tv verify "$tmp/m.tv" --qemu "$qemu" --elf "$elf" "$@" \
			--resync reference >"$tmp/v.out" 2>&1
		[ $? -eq 1 ] && [ "$(first_report "$tmp/v.out")" = "$sel" ] &&
			[ "$(reports "$tmp/v.out")" -eq 1 ] && grep -q ' 1 divergence ' "$tmp/v.out" &&
			on_plugin "$tmp/v.out"
		ok $? "$mode: $kind changed ($sel): the plugin reports exactly that, nothing else, and goes on to the end"
		[ $? -eq 0 ] || diag "$(head -n 4 "$tmp/v.out")"
		"$rvperf" tv verify "$tmp/m.tv" --qemu "$qemu" --elf "$elf" "$@" >"$tmp/v.out" 2>&1
		[ "$(first_report "$tmp/v.out")" = "$sel" ]
		ok $? "$mode: $kind changed: with the specification's resync the first report is the same"
		[ $? -eq 0 ] || diag "$(head -n 4 "$tmp/v.out")"
	done
}

# ---- user mode
mode="user mode"
if [ -x "$qu" ]; then
	printf '#include <stdio.h>\nint main(int c, char **v) { long s = 0;\n for (int i = 0; i < 2000; i++) s += i * c;\n printf("%%ld\\n", s); return 0; }\n' \
		>"$tmp/user.c"
	"${cross}gcc" -static -O2 -o "$tmp/user" "$tmp/user.c" || exit 1
	"${cross}gcc" -nostdlib -nostartfiles -static -o "$tmp/ub" tests/tv/user-bare.S || exit 1
	cd "$tmp" || exit 1
	"$rvperf" tv record --qemu "$qu" -o u.tv -- ./user >/dev/null
	ok $? "user mode: record a complete trace on $("$qu" --version | head -n 1)"
	"$rvperf" tv verify u.tv --user --qemu "$qu" --elf ./user >v.out 2>&1 && on_plugin v.out
	ok $? "user mode: the probe takes the plugin path, no divergence ($(tail -n 1 v.out))"
	"$rvperf" tv record --qemu "$qu" -o - -- ./user |
		"$rvperf" tv verify - --user --qemu "$qu" --elf ./user >v.out 2>&1 &&
		on_plugin v.out && tail -n 1 v.out | grep -q ' 0 divergences ' &&
		[ "$(tail -n 1 v.out | cut -d' ' -f1)" -gt 10000 ]
	ok $? "user mode: record -o - | verify -: the trace streams through a pipe, no divergence ($(tail -n 1 v.out))"
	# The guest's open() gets the descriptor it got when recorded: none
	# of verify's own (the trace, the report pipe, /dev/null) sits where
	# it looks first, from a file or from a pipe on standard input.
	printf '#include <fcntl.h>\n#include <stdio.h>\nint main(int c, char **v) { (void)c;\n printf("%%d\\n", open(v[0], O_RDONLY)); return 0; }\n' \
		>"$tmp/fd.c"
	"${cross}gcc" -static -O2 -o "$tmp/fd" "$tmp/fd.c" || exit 1
	"$rvperf" tv record --qemu "$qu" -o fd.tv -- ./fd >/dev/null &&
		"$rvperf" tv verify fd.tv --user --qemu "$qu" --elf ./fd >v.out 2>&1 && on_plugin v.out &&
		"$rvperf" tv verify - --user --qemu "$qu" --elf ./fd <fd.tv >v.out 2>&1 && on_plugin v.out
	ok $? "user mode: the program's open() gets the descriptor it got when recorded ($(head -n 1 v.out))"
	"$rvperf" tv verify u.tv --user --qemu "$qu" --elf ./user --nondet none >v.out 2>&1
	[ $? -eq 1 ] && [ "$(first_report v.out | sed 's/ .*//')" -gt 0 ] &&
		grep -m1 '^group' v.out | grep -q 'ecall : x10/a0: '
	ok $? "user mode, --nondet none: the thread id (set_tid_address's a0) is the first report"
	[ $? -eq 0 ] || diag "$(head -n 3 v.out)"
	"$rvperf" tv verify u.tv --user --qemu qemu-riscv64 --elf ./user --max 1 >v.out 2>&1
	tail -n 1 v.out | grep -q ' instructions stepped, '
	ok $? "user mode: on Debian's qemu-riscv64 7.2 the probe takes the gdbstub path"
	"$rvperf" tv verify u.tv --user --qemu qemu-riscv64 --elf ./user --via plugin >v.out 2>&1
	[ $? -eq 1 ] && [ "$(wc -l <v.out)" -eq 1 ] &&
		grep -q '^rvperf tv verify: qemu-riscv64 cannot run the verifier plugin' v.out
	ok $? "user mode: --via plugin on QEMU 7.2: one line, exit 1 ($(head -c 100 v.out))"
	"$rvperf" tv record -o ub72.tv -- ./ub >/dev/null &&
		grep -q 'absent=gpr,' ub72.tv.cfg &&
		"$rvperf" tv verify ub72.tv --user --qemu "$qu" --elf ./ub >v.out 2>&1 &&
		on_plugin v.out
	ok $? "user mode: a partial trace recorded by QEMU 7.2 verifies on 10.2: no divergence ($(tail -n 1 v.out))"
	# The program's path is on its stack: verify runs it as recorded.
	mutations u.tv "$qu" ./user 3000 "reg mem pc" --user
	# A load's destination (compared with the value QEMU's memory
	# callback saw, not read back from QEMU).
	load=$("$rvperf" tv dump u.tv | awk '/^group [0-9]+ at byte/ { g = $2; sub(":", "", g) }
		/^group/ && g >= 3500 && / (c\.)?l[bhwd]u? / { print g; exit }')
	[ -n "$load" ] && mutations u.tv "$qu" ./user "$load" "reg" --user
	[ -n "$load" ] && [ "$(first_report "$tmp/v.out" | cut -d' ' -f1)" = "$load" ]
	ok $? "user mode: the changed register was the load's ($load)"
	mutations ub72.tv "$qu" ./ub 1000 "pc" --user
	# A load's destination as the recorder and the verifier take it from
	# the memory callback (extended as the load does), against QEMU's own
	# registers through its gdbstub (a program without libc: no inputs).
	"${cross}gcc" -nostdlib -nostartfiles -static -o ul "$OLDPWD/tests/tv/user-loads.S" || exit 1
	: >v.out
	"$rvperf" tv record --qemu "$qu" -o ul.tv -- ./ul >/dev/null &&
		"$rvperf" tv dump ul.tv | grep -q 'x7/t2 *= 0xffffffff87654321' &&
		"$rvperf" tv verify ul.tv --user --qemu "$qu" --elf ./ul --via gdbstub >v.out 2>&1 &&
		"$rvperf" tv verify ul.tv --user --qemu "$qu" --elf ./ul --via plugin >>v.out 2>&1
	ok $? "user mode: loads of every width and extension: the recorded destinations are QEMU's registers (gdbstub), and the plugin agrees"
	[ $? -eq 0 ] || diag "$(head -n 3 v.out)"
	cd "$OLDPWD" || exit 1
else
	ok 0 "user mode # SKIP no plugin-capable qemu-riscv64 at '$qu' (QEMU_USER_PLUGIN)"
fi

# ---- system mode: the bare-metal program
mode="system mode"
if [ -n "$qs" ] && [ -x "$qs" ] && "$qs" -h 2>/dev/null | grep -q '^-plugin'; then
	"${cross}gcc" -nostdlib -nostartfiles -static -no-pie -Wl,-Ttext=0x80000000 \
		-o "$tmp/bare.elf" tests/tv/tv-bare.S || exit 1
	"$rvperf" tv record --qemu "$qs" --system virt -o "$tmp/c10.tv" -- "$tmp/bare.elf" >/dev/null 2>&1
	# QEMU 10 runs on a little after the test finisher's store.
	last=$("$rvperf" tv dump "$tmp/c10.tv" | awk '/sw t1,0\(t0\)/ { print $2; exit }')
	"$mutate" "$tmp/c10.tv" "$tmp/c.tv" cut "${last:-0}"
	grep -q 'absent=paddr,eaddr,stdata,mtime,pcpaddr' "$tmp/c.tv.cfg"
	ok $? "system mode: record a complete trace on $("$qs" --version | head -n 1)"
	"$rvperf" tv verify "$tmp/c.tv" --qemu "$qs" --elf "$tmp/bare.elf" >"$tmp/v.out" 2>&1 &&
		on_plugin "$tmp/v.out"
	ok $? "system mode: the plugin path, no divergence, the timer read declared ($(tail -n 1 "$tmp/v.out"))"
	"$rvperf" tv verify "$tmp/c.tv" --qemu "$qs" --elf "$tmp/bare.elf" --nondet none >"$tmp/v.out" 2>&1
	[ "$(reports "$tmp/v.out")" -eq 1 ] && grep -q 'csrrs a5,time,zero: x15/a5' "$tmp/v.out"
	ok $? "system mode, timer read undeclared: exactly one report, the register rdtime wrote"
	[ $? -eq 0 ] || diag "$(head -n 3 "$tmp/v.out")"
	"$rvperf" tv record --system virt -o "$tmp/p72.tv" -- "$tmp/bare.elf" >/dev/null 2>&1 &&
		grep -q 'absent=gpr,fpr,csr,priv,' "$tmp/p72.tv.cfg" &&
		"$rvperf" tv verify "$tmp/p72.tv" --qemu "$qs" --elf "$tmp/bare.elf" >"$tmp/v.out" 2>&1 &&
		on_plugin "$tmp/v.out"
	ok $? "system mode: a partial trace recorded by QEMU 7.2 verifies on 10.2: no divergence ($(tail -n 1 "$tmp/v.out"))"
	[ $? -eq 0 ] || diag "$(head -n 3 "$tmp/v.out")"
	# A hart-reset group: the plugin API cannot reset QEMU.
	"$mutate" "$tmp/p72.tv" "$tmp/pre.tv" cut 50
	{ cat "$tmp/pre.tv"; printf '\001\012\002'; cat "$tmp/p72.tv"; } >"$tmp/r.tv"
	cp "$tmp/p72.tv.cfg" "$tmp/r.tv.cfg"
	"$rvperf" tv verify "$tmp/r.tv" --qemu "$qs" --elf "$tmp/bare.elf" --via plugin >"$tmp/v.out" 2>&1
	[ $? -eq 1 ] && [ "$(wc -l <"$tmp/v.out")" -eq 1 ] &&
		grep -q '^rvperf tv verify: group 51 resets the hart: the plugin cannot reset QEMU$' "$tmp/v.out"
	ok $? "system mode: a hart-reset group stops the plugin path with one line"
	# An interrupt pending when the program enables it (irq-soft.S: its
	# own software interrupt): QEMU takes it where the trace does, and the
	# trace's interrupt group is what it did.
	"${cross}gcc" -nostdlib -nostartfiles -static -no-pie -Wl,-Ttext=0x80000000 \
		-o "$tmp/irq.elf" tests/tv/irq-soft.S || exit 1
	"$rvperf" tv record --qemu "$qs" --system virt -o "$tmp/i10.tv" -- "$tmp/irq.elf" >/dev/null 2>&1
	last=$("$rvperf" tv dump "$tmp/i10.tv" | awk '/sw t1,0\(t0\)/ { print $2; exit }')
	"$mutate" "$tmp/i10.tv" "$tmp/i.tv" cut "${last:-0}"
	"$rvperf" tv dump "$tmp/i.tv" | grep -q 'mcause   = 0x8000000000000003' &&
		"$rvperf" tv verify "$tmp/i.tv" --qemu "$qs" --elf "$tmp/irq.elf" >"$tmp/v.out" 2>&1 &&
		on_plugin "$tmp/v.out"
	ok $? "system mode: an interrupt QEMU takes where the trace does: no divergence ($(tail -n 1 "$tmp/v.out"))"
	[ $? -eq 0 ] || diag "$(head -n 4 "$tmp/v.out")"
	sel=$("$mutate" "$tmp/i.tv" "$tmp/m.tv" reg 30)
	"$rvperf" tv verify "$tmp/m.tv" --qemu "$qs" --elf "$tmp/irq.elf" --resync reference >"$tmp/v.out" 2>&1
	[ "$(first_report "$tmp/v.out")" = "$sel" ] && [ "$(reports "$tmp/v.out")" -eq 1 ]
	ok $? "system mode: after the interrupt, a changed register ($sel) is reported alone"
	[ $? -eq 0 ] || diag "$(head -n 4 "$tmp/v.out")"
	mutations "$tmp/c.tv" "$qs" "$tmp/bare.elf" 1000 "reg mem pc priv"
	mutations "$tmp/p72.tv" "$qs" "$tmp/bare.elf" 100 "pc"
else
	ok 0 "system mode # SKIP no qemu-system-riscv64 with plugins in TV_QEMU_SYSTEM_PLUGIN ('$qs')"
fi
tap_done
