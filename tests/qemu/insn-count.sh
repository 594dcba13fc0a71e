#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Retired-instruction counting without -icount on a QEMU with
# qemu-model/qemu (patch 0008): insn-count.c's known sequences counted by
# minstret and by an hpm counter counting instructions, with exceptions,
# mcountinhibit and the xINH filters, and the LCOFI of that counter taken
# right after the instruction that made it wrap, in M-mode and in U-mode.
# Once on a plain hart and once with the rvperf model (ctr-layout), whose
# counter CSR routing must leave these counters to QEMU.
# QEMU=/path/to/qemu-system-riscv64; SKIPs without it (or without our
# ctr-layout property: another QEMU counts host time here).
set -u
. "$(dirname "$0")/lib.sh"
need_rvperf_qemu
make_tmp
checks=46
echo "1..$((2 * checks + 6))"
build_guest_or_bail "$tmp/g.elf" "$top/tests/qemu/insn-count.c" \
	"$top/tests/qemu/hpm3.c"
build_guest_or_bail "$tmp/gate.elf" "$top/tests/qemu/insn-gate.c"
i=1
for cpu in rv64,sscofpmf=true \
	rv64,sscofpmf=true,smctr=true,ssctr=true,ctr-layout=ratified; do
	timeout 120 "$QEMU" -M virt -bios none -nographic -monitor none \
		-serial stdio -cpu "$cpu" -kernel "$tmp/g.elf" \
		</dev/null 2>"$tmp/err" |
		tr -d '\r' | sed -n '/^BEGIN$/,/^END$/p' | sed '1d;$d' >"$tmp/got"
	case $cpu in
	*ctr-layout*) label=ctr-layout ;;
	*) label=plain ;;
	esac
	guest_tap "$tmp/got" $i $checks "$label"
	[ "$n" = $checks ] || sed 's/^/# /' "$tmp/err" | head -5
	i=$((i + checks))
done

# The code itself (insn-gate.c, QEMU's -d in_asm,op log): the same loop
# adds to the count while minstret counts, carries no extra instruction
# while nothing counts, and also checks the overflow point while
# mhpmcounter3 can overflow; under -icount none of that is there.
for clock in "" "-icount shift=0"; do
	timeout 120 "$QEMU" -M virt -bios none -nographic -monitor none \
		-serial stdio -cpu rv64,sscofpmf=true $clock -kernel "$tmp/gate.elf" \
		-d in_asm,op -D "$tmp/gate.log" </dev/null 2>"$tmp/err" |
		tr -d '\r' | sed -n 's/^\(ig_[a-z]*\)=\(0x[0-9a-f]*\)$/\1=\2/p' >"$tmp/addrs"
	# shellcheck disable=SC2046
	python3 "$top/tests/qemu/insn-gate.py" "$tmp/gate.log" $(cat "$tmp/addrs") >"$tmp/gate"
	sed 's/^/# /' "$tmp/gate"
	if [ -z "$clock" ]; then
		want="ig_count tbs=1 count=1 deadline=0
ig_off tbs=1 count=0 deadline=0
ig_deadline tbs=1 count=1 deadline=1"
		what="without -icount"
	else
		want="ig_count tbs=1 count=0 deadline=0
ig_off tbs=1 count=0 deadline=0
ig_deadline tbs=1 count=0 deadline=0"
		what="under -icount"
	fi
	for name in ig_count ig_off ig_deadline; do
		w=$(printf '%s\n' "$want" | grep "^$name ")
		g=$(grep "^$name " "$tmp/gate")
		desc="$what: $name's block: ${w#* }"
		if [ "$g" = "$w" ]; then
			echo "ok $i $desc"
		else
			echo "not ok $i $desc (got: ${g#* })"
		fi
		i=$((i + 1))
	done
done
