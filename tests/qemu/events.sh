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
. "$(dirname "$0")/lib.sh"
sim=${CTR_SIM:-$top/${O:-build}/qemu-model/ctr-sim}
need_rvperf_qemu
[ -x "$sim" ] || { echo "1..0 # SKIP no ctr-sim at $sim (make all)"; exit 0; }
make_tmp
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
	if ! build_guest "$tmp/$b.elf" "$top/tests/qemu/events.c" \
		"$tmp/$b.gen.c" "$tmp/$b.S"; then
		echo "not ok $i $b # guest did not build"
		sed 's/^/# /' "$tmp/$b.elf.cc" | head -20
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
