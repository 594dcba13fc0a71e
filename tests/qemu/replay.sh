#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Replay the M-mode CSR prefix of ctr-sim scenarios (tests/ctr/*.scn) as
# bare-metal guest code on a QEMU patched with qemu-model/qemu (ctr-layout
# CPU property) and compare every value the guest reads with the
# scenario's expected lines (which tests/ctr/scenarios.py checks against
# ctr-sim).  QEMU=/path/to/qemu-system-riscv64; SKIPs without it.
# SCENARIOS="a.scn b.scn" narrows the set; CROSS_CC overrides the compiler.
set -u
. "$(dirname "$0")/lib.sh"
need_qemu
# UPSTREAM_CTR=1: run the ratified scenarios on an unpatched QEMU's own CTR
# emulation (smctr=true) instead, skipping the draft ones.
upstream=
if ! "$QEMU" -device rv64-riscv-cpu,help 2>/dev/null | grep -q ctr-layout; then
	if [ "${UPSTREAM_CTR:-}" != 1 ]; then
		skip_all "$QEMU has no ctr-layout CPU property (qemu-model/qemu not applied; UPSTREAM_CTR=1 tests its own CTR)"
	fi
	upstream=1
fi
need_cc
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
scns=${SCENARIOS:-$(ls "$top"/tests/ctr/*.scn)}
n=0
out=""
for scn in $scns; do
	base=$(basename "$scn" .scn)
	layout=$(python3 "$top/tests/qemu/scn2guest.py" "$scn" "$tmp/$base.c" \
		"$tmp/$base.expect") || continue
	[ -s "$tmp/$base.expect" ] || continue
	n=$((n + 1))
	out="$out
$n $base $layout"
done
echo "1..$((n + 1))"
echo "$out" | while read -r i base layout; do
	[ -n "$i" ] || continue
	if ! "$cc" -O1 -march=rv64gc_zicsr -mabi=lp64d -mcmodel=medany \
		-ffreestanding -nostdlib -static -Wl,-Ttext=0x80000000 \
		-I"$top/tests/qemu" -o "$tmp/$base.elf" "$top/tests/qemu/start.S" \
		"$top/tests/qemu/guest.c" "$tmp/$base.c" 2>"$tmp/$base.cc"; then
		echo "not ok $i $base # guest did not build"
		sed 's/^/# /' "$tmp/$base.cc"
		continue
	fi
	cpu="rv64,smctr=true,ssctr=true,ctr-layout=$layout"
	if [ -n "$upstream" ]; then
		if [ "$layout" != ratified ]; then
			echo "ok $i $base # SKIP upstream QEMU has no $layout layout"
			continue
		fi
		cpu=rv64,smctr=true,ssctr=true
	fi
	timeout 60 "$QEMU" -M virt -bios none -nographic -monitor none \
		-serial stdio \
		-cpu "$cpu" \
		-kernel "$tmp/$base.elf" </dev/null 2>"$tmp/$base.err" |
		tr -d '\r' | sed -n '/^BEGIN$/,/^END$/p' |
		sed '1d;$d' >"$tmp/$base.got"
	if diff -u "$tmp/$base.expect" "$tmp/$base.got" >"$tmp/$base.diff"; then
		echo "ok $i $base ($(wc -l <"$tmp/$base.got") reads, $layout)"
	else
		echo "not ok $i $base ($layout)"
		sed 's/^/# /' "$tmp/$base.diff" "$tmp/$base.err" | head -40
	fi
done

# A recorded call and return (xfer.c checks the entries against its own
# addresses and prints ok/not ok per field).
i=$((n + 1))
cpu=rv64,smctr=true,ssctr=true${upstream:+,}
[ -n "$upstream" ] || cpu="$cpu,ctr-layout=ratified"
cpu=${cpu%,}
if ! "$cc" -O1 -march=rv64gc_zicsr -mabi=lp64d -mcmodel=medany \
	-ffreestanding -nostdlib -static -Wl,-Ttext=0x80000000 \
	-I"$top/tests/qemu" -o "$tmp/xfer.elf" "$top/tests/qemu/start.S" \
	"$top/tests/qemu/guest.c" "$top/tests/qemu/xfer.c" 2>"$tmp/xfer.cc"; then
	echo "not ok $i xfer # guest did not build"
	exit 0
fi
timeout 60 "$QEMU" -M virt -bios none -nographic -monitor none -serial stdio \
	-cpu "$cpu" -kernel "$tmp/xfer.elf" </dev/null 2>"$tmp/xfer.err" |
	tr -d '\r' | sed -n '/^BEGIN$/,/^END$/p' | sed '1d;$d' >"$tmp/xfer.got"
if [ "$(grep -c '^ok ' "$tmp/xfer.got")" = 4 ] && ! grep -q '^not ok' "$tmp/xfer.got"; then
	echo "ok $i xfer (call and return recorded at their addresses)"
else
	echo "not ok $i xfer"
	sed 's/^/# /' "$tmp/xfer.got" "$tmp/xfer.err"
fi
