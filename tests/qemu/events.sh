#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Replay the ctr-sim scenarios (tests/ctr/*.scn, both layouts) as guest
# code on a QEMU patched with qemu-model/qemu (issue 7): scn2events.py
# turns each scenario into guest code (CSR accesses in every mode, real
# transfers, traps, trap returns and mode switches, sctrclr, cycles as
# nops, dumps) and into the same sequence as a ctr-sim scenario at the
# guest's addresses; the guest runs under -icount shift=0 and everything
# it reads must equal what ctr-sim prints for that sequence.
# One TAP line per scenario; a scenario replayed only up to some line
# gets a second one, "# SKIP" with the line and why; one not replayed at
# all is "# SKIP" only.
# tests/qemu/classify-guest.scn is replayed too (the classifier lines a
# guest can execute).
# QEMU=/path/to/qemu-system-riscv64, CTR_SIM (default $O/qemu-model/
# ctr-sim); SKIPs without either.  SCENARIOS="a.scn ..." narrows the set.
# UPSTREAM_CTR=1: QEMU is an unmodified one, its own CTR (ratified layout,
# no cycle counting, no MISP, no counter model) is compared with ctr-sim
# configured so (impl cc=off).
set -u
. "$(dirname "$0")/lib.sh"
upstream=
need_qemu
if [ "${UPSTREAM_CTR:-}" = 1 ]; then
	upstream=upstream
	need_cc
else
	need_rvperf_qemu
fi
[ -x "$sim" ] || skip_all "no ctr-sim at $sim (make all)"
make_tmp
n=0
: >"$tmp/list"
for scn in ${SCENARIOS:-$(ls "$top"/tests/ctr/*.scn "$top"/tests/qemu/*.scn)}; do
	b=$(basename "$scn" .scn)
	r=$(python3 "$top/tests/qemu/scn2events.py" gen "$scn" "$tmp/$b.S" \
		"$tmp/$b.gen.c" "$tmp/$b.tmpl" "$sim" $upstream 2>"$tmp/$b.gen.err") ||
		r="fail"
	if [ "$r" = fail ]; then
		n=$((n + 1))
		echo "fail $b - generator failed: $(tail -1 "$tmp/$b.gen.err")" >>"$tmp/list"
		continue
	fi
	set -- $r
	lines=$1 stop=$2 outs=$3
	shift 3
	why="$*"
	if [ "$lines" -le 1 ] || [ "$outs" = 0 ]; then
		n=$((n + 1))
		[ "$stop" = 0 ] && why="nothing to compare"
		echo "skip $b line $stop: $why" >>"$tmp/list"
	else
		n=$((n + 1))
		echo "run $b $stop $why" >>"$tmp/list"
		[ "$stop" = 0 ] || n=$((n + 1))
	fi
done
echo "1..$n"
i=0
whole=0 part=0 skipped=0
while read -r what b stop why; do
	i=$((i + 1))
	if [ "$what" = fail ]; then
		echo "not ok $i $b # $why"
		continue
	fi
	if [ "$what" = skip ]; then
		echo "ok $i $b # SKIP not replayed: $stop $why"
		skipped=$((skipped + 1))
		continue
	fi
	layout=$(sed -n '1s/^layout //p' "$tmp/$b.tmpl")
	if ! build_replay_guest "$b"; then
		echo "not ok $i $b # guest did not build"
		sed 's/^/# /' "$tmp/$b.elf.cc" | head -20
	else
		"$nm" "$tmp/$b.elf" >"$tmp/$b.nm"
		cpu=rv$xlen,h=true,smstateen=true,sscofpmf=true,smcsrind=true,sscsrind=true,smaia=true,ssaia=true,smctr=true,ssctr=true
		[ -n "$upstream" ] || cpu="$cpu,ctr-layout=$layout"
		# sleep=off: a WFI jumps the clock to the timer (scn2events.py's
		# long waits) instead of waiting that long in real time
		timeout 120 "$QEMU" -M virt,aclint=on -bios none -nographic \
			-monitor none -serial stdio -icount shift=0,sleep=off \
			-cpu "$cpu" -kernel "$tmp/$b.elf" </dev/null \
			2>"$tmp/$b.err" |
			tr -d '\r' | sed -n '/^BEGIN$/,/^END$/p' | sed '1d;$d' \
			>"$tmp/$b.out"
		# the cycles the timer waits took go to ctr-sim's sequence
		grep '^idle ' "$tmp/$b.out" >"$tmp/$b.idle"
		grep -v '^idle ' "$tmp/$b.out" >"$tmp/$b.got"
		python3 "$top/tests/qemu/scn2events.py" fill "$tmp/$b.tmpl" \
			"$tmp/$b.nm" "$tmp/$b.idle" >"$tmp/$b.scn"
		"$sim" "$tmp/$b.scn" >"$tmp/$b.want" 2>&1
		nt=$(grep -c '^trap\|^xret' "$tmp/$b.scn")
		nx=$(grep -c '^xfer\|^insn' "$tmp/$b.scn")
		desc="$layout, $nx transfers, $nt traps and trap returns"
		[ "$stop" = 0 ] || desc="$desc, up to line $stop"
		if [ -s "$tmp/$b.want" ] && diff -u "$tmp/$b.want" \
			"$tmp/$b.got" >"$tmp/$b.diff"; then
			echo "ok $i $b ($desc: $(wc -l <"$tmp/$b.got") values equal ctr-sim's)"
		else
			echo "not ok $i $b ($desc)"
			k=$(sed -n 's/^@@ -\([0-9]*\).*/\1/p' "$tmp/$b.diff" | head -1)
			k=$((${k:-1} + $(sed -n '/^@@/,$p' "$tmp/$b.diff" | sed 1d |
				sed -n '/^[-+]/q;p' | wc -l)))
			echo "# first difference: ctr-sim's output line $k, scenario line $(python3 \
				"$top/tests/qemu/scn2events.py" where "$tmp/$b.scn" "$sim" "$k")"
			sed 's/^/# /' "$tmp/$b.diff" "$tmp/$b.err" | head -30
		fi
	fi
	if [ "$stop" = 0 ]; then
		whole=$((whole + 1))
	else
		part=$((part + 1))
		i=$((i + 1))
		echo "ok $i $b from line $stop # SKIP not replayed: $why"
	fi
done <"$tmp/list"
echo "# $whole scenarios whole, $part up to a line, $skipped not at all"
