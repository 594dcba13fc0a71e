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
echo "1..$((2 * checks))"
build_guest_or_bail "$tmp/g.elf" "$top/tests/qemu/insn-count.c"
i=1
for cpu in rv64,sscofpmf=true \
	rv64,sscofpmf=true,smctr=true,ssctr=true,ctr-layout=ratified; do
	timeout 120 "$QEMU" -M virt -bios none -nographic -monitor none \
		-serial stdio -cpu "$cpu" -kernel "$tmp/g.elf" \
		</dev/null 2>"$tmp/err" |
		tr -d '\r' | sed -n '/^BEGIN$/,/^END$/p' | sed '1d;$d' >"$tmp/got"
	grep '^# ' "$tmp/got" | head -0
	guest_tap "$tmp/got" $i $checks "${cpu#rv64,sscofpmf=true}"
	[ "$n" = $checks ] || sed 's/^/# /' "$tmp/err" | head -5
	i=$((i + checks))
done
