#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# ctrdata CC/CCV/TYPE and ctrtarget.MISP on a QEMU patched with
# qemu-model/qemu, against ctr-sim: cycles.c records a fixed sequence in
# M-mode under -icount shift=0 (one cycle per instruction, deterministic)
# and prints its entries as ctr-sim's "dump" does; this script writes the
# same sequence as a ctr-sim scenario (the guest's own addresses, "cycles
# N" = instructions retired since the previous record), runs ctr-sim and
# diffs.  QEMU=/path/to/qemu-system-riscv64, CTR_SIM=build/qemu-model/
# ctr-sim (the default); SKIPs without either.
set -u
. "$(dirname "$0")/lib.sh"
need_rvperf_qemu
[ -x "$sim" ] || skip_all "no ctr-sim at $sim (make all)"
make_tmp
echo "1..2"
build_guest_or_bail "$tmp/g.elf" "$top/tests/qemu/cycles.c"
"$nm" "$tmp/g.elf" | awk '$3 ~ /^s_/ { print $3 "=0x" $1 }' >"$tmp/syms"
. "$tmp/syms"
hex() { printf '0x%x' "$(($1))"; }
cat >"$tmp/seq.scn" <<SCN
layout ratified
impl misp=on
csrw mctrctl 0x1000000004
cycles 1
xfer dircall $(hex "$s_call") $(hex "$s_f")
cycles 4
xfer return $(hex "$s_fret") $(hex "$s_back")
cycles 3
xfer taken $(hex "$s_br") $(hex "$s_loop")
cycles 2
xfer taken $(hex "$s_br") $(hex "$s_loop")
cycles 2
xfer nottaken $(hex "$s_br") $(hex "$s_br + 4")
cycles 3
xfer indcall $(hex "$s_icall") $(hex "$s_g")
cycles 2
xfer return $(hex "$s_gret") $(hex "$s_after")
csrw mctrctl 0
dump
SCN
"$sim" "$tmp/seq.scn" >"$tmp/want" 2>&1
if [ "$(grep -c '^entry ' "$tmp/want")" = 7 ]; then
	echo "ok 1 ctr-sim gives 7 entries for the sequence"
else
	echo "not ok 1 ctr-sim gives 7 entries for the sequence"
	sed 's/^/# /' "$tmp/want"
fi
timeout 60 "$QEMU" -M virt -bios none -nographic -monitor none -serial stdio \
	-icount shift=0 -cpu rv64,smctr=true,ssctr=true,ctr-layout=ratified \
	-kernel "$tmp/g.elf" </dev/null 2>"$tmp/err" |
	tr -d '\r' | sed -n '/^BEGIN$/,/^END$/p' | sed '1d;$d' >"$tmp/got"
if diff -u "$tmp/want" "$tmp/got" >"$tmp/diff"; then
	echo "ok 2 guest entries (source, target with MISP, data with TYPE, CCV, CC) equal ctr-sim's"
else
	echo "not ok 2 guest entries equal ctr-sim's"
	sed 's/^/# /' "$tmp/diff" "$tmp/err"
fi
