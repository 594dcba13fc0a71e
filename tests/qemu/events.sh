#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Replay ctr-sim scenarios with real control transfers on a QEMU patched
# with qemu-model/qemu (issue 7): scn2events.py turns each ratified
# scenario's M-mode prefix (CTR CSR and *ireg accesses, xfer of every
# in-mode type, sctrclr, cycles, dump) into guest code and into the same
# sequence as a ctr-sim scenario at the guest's addresses; the guest runs
# under -icount shift=0 and everything it reads must equal what ctr-sim
# prints.  Only scenarios whose prefix has a transfer are run.
# QEMU=/path/to/qemu-system-riscv64, CTR_SIM (default $O/qemu-model/
# ctr-sim); SKIPs without either.  SCENARIOS="a.scn ..." narrows the set.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cc=${CROSS_CC:-riscv64-linux-gnu-gcc}
nm=${CROSS_NM:-riscv64-linux-gnu-nm}
sim=${CTR_SIM:-$top/${O:-build}/qemu-model/ctr-sim}
if [ -z "${QEMU:-}" ] || [ ! -x "${QEMU:-}" ]; then
	echo "1..0 # SKIP QEMU not given: pass QEMU=/path/to/qemu-system-riscv64 with qemu-model/qemu applied"
	exit 0
fi
if ! "$QEMU" -device rv64-riscv-cpu,help 2>/dev/null | grep -q ctr-layout; then
	echo "1..0 # SKIP $QEMU has no ctr-layout CPU property"
	exit 0
fi
[ -x "$sim" ] || { echo "1..0 # SKIP no ctr-sim at $sim (make all)"; exit 0; }
command -v "$cc" >/dev/null 2>&1 || { echo "1..0 # SKIP $cc not found"; exit 0; }
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
list=
for scn in ${SCENARIOS:-$(ls "$top"/tests/ctr/*.scn)}; do
	b=$(basename "$scn" .scn)
	nx=$(python3 "$top/tests/qemu/scn2events.py" gen "$scn" "$tmp/$b.S" \
		"$tmp/$b.gen.c" "$tmp/$b.tmpl") || continue
	[ "$nx" -gt 0 ] && list="$list $b"
done
set -- $list
echo "1..$#"
i=0
for b in $list; do
	i=$((i + 1))
	if ! "$cc" -O1 -march=rv64gc_zicsr -mabi=lp64d -mcmodel=medany \
		-ffreestanding -nostdlib -static -Wl,-Ttext=0x80000000 \
		-I"$top/tests/qemu" -o "$tmp/$b.elf" "$top/tests/qemu/start.S" \
		"$top/tests/qemu/guest.c" "$top/tests/qemu/events.c" \
		"$tmp/$b.gen.c" "$tmp/$b.S" 2>"$tmp/$b.cc"; then
		echo "not ok $i $b # guest did not build"
		sed 's/^/# /' "$tmp/$b.cc" | head -20
		continue
	fi
	"$nm" "$tmp/$b.elf" >"$tmp/$b.nm"
	python3 "$top/tests/qemu/scn2events.py" fill "$tmp/$b.tmpl" \
		"$tmp/$b.nm" >"$tmp/$b.scn"
	"$sim" "$tmp/$b.scn" >"$tmp/$b.want" 2>&1
	timeout 60 "$QEMU" -M virt -bios none -nographic -monitor none \
		-serial stdio -icount shift=0 \
		-cpu rv64,smctr=true,ssctr=true,ctr-layout=ratified \
		-kernel "$tmp/$b.elf" </dev/null 2>"$tmp/$b.err" |
		tr -d '\r' | sed -n '/^BEGIN$/,/^END$/p' | sed '1d;$d' \
		>"$tmp/$b.got"
	nx=$(grep -c '^xfer' "$tmp/$b.scn")
	if [ -s "$tmp/$b.want" ] && diff -u "$tmp/$b.want" "$tmp/$b.got" \
		>"$tmp/$b.diff"; then
		echo "ok $i $b ($nx transfers, $(wc -l <"$tmp/$b.got") values equal ctr-sim's)"
	else
		echo "not ok $i $b ($nx transfers)"
		sed 's/^/# /' "$tmp/$b.diff" "$tmp/$b.err" | head -30
	fi
done
