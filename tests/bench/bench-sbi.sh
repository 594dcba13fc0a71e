#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# M-mode instructions per SBI PMU call, on the firmware vendors ship and on
# upstream OpenSBI, measured in the same run:
#   platform       rvperf's OpenSBI platform (opensbi-ext/ on OpenSBI 1.8.1,
#                  PLATFORM_FW; make builds it from the registry's source)
#   opensbi-1.8.1  upstream OpenSBI 1.8.1's generic platform (GENERIC_FW)
#   opensbi-1.1    Debian's OpenSBI 1.1 (qemu-system-data)
#   test-fw        the bare-metal rvperf test firmware (opensbi-ext/firmware/)
# The conformance payload (tests/conformance/conf.c) booted with bootargs
# "bench=1" reads instret around each ecall under -icount shift=0 and
# subtracts the cost of a BASE probe_extension ecall (that firmware's trap
# entry/exit), so what is left is the PMU call's own work.  QEMU 7.2 has no
# Smcntrpmf, so instret counts every mode; the few S-mode instructions around
# the ecall cancel out with the baseline.  Each firmware boots BENCH_RUNS
# times (default 3) and the best value of each call counts.
# Calls: cfg_match (a DTLB read miss cache event, no AUTO_START), start and
# stop of 1 and of 8 hpm counters, and the same with INIT_SNAPSHOT /
# TAKE_SNAPSHOT (where the firmware has snapshot shared memory).
#
# bench-sbi.sh          the table (make bench)
# bench-sbi.sh --tap    make check's check that every firmware was measured
#                       on every call it implements (no goals asserted)
set -u
. tests/tap.sh
O=${O:-build}
out=$O/tests/bench/sbi
mkdir -p "$out"
qemu=${QEMU_SYSTEM:-qemu-system-riscv64}
runs=${BENCH_RUNS:-3}
tap=0
[ "${1:-}" = --tap ] && tap=1
calls="cfg_match start1 stop1 start8 stop8"
snap_calls="start1-snap stop1-snap start8-snap stop8-snap"

say() { [ $tap = 1 ] && diag "$@" || printf '%s\n' "$@"; }
command -v "$qemu" >/dev/null || { say "bench-sbi: SKIP $qemu not installed"; exit 0; }
opensbi-ext/firmware/build.sh "$out/test-fw.elf" &&
	tests/conformance/build.sh "$out/conf.elf" || exit 1

names=() fws=()
add() { [ -n "$2" ] && { names+=("$1"); fws+=("$2"); }; }
add platform "${PLATFORM_FW:-}"
add opensbi-1.8.1 "${GENERIC_FW:-}"
add opensbi-1.1 /usr/share/qemu/opensbi-riscv64-generic-fw_dynamic.bin
add test-fw "$out/test-fw.elf"

# measure NAME FIRMWARE: best of $runs boots into $out/NAME.txt ("call n")
measure() {
	local i
	: >"$out/$1.all"
	for i in $(seq "$runs"); do
		timeout 60 "$qemu" -M virt -cpu rv64,sscofpmf=true -smp 1 -m 256M \
			-display none -monitor none -serial stdio -icount shift=0 \
			-bios "$2" -kernel "$out/conf.elf" -append bench=1 </dev/null \
			2>&1 | tr -d '\r' | sed -n 's/^bench //p' >>"$out/$1.all"
	done
	awk '$2 ~ /^-?[0-9]+$/ { if (!($1 in best) || $2 < best[$1]) best[$1] = $2 }
	     END { for (k in best) print k, best[k] }' "$out/$1.all" | sort >"$out/$1.txt"
	grep -q '^counters 8$' "$out/$1.txt"
}
value() { sed -n "s/^$2 //p" "$out/$1.txt"; }

for i in "${!names[@]}"; do
	n=${names[$i]} f=${fws[$i]}
	if [ ! -f "$f" ]; then
		[ $tap = 1 ] && ok 1 "$n: firmware $f exists" ||
			echo "bench-sbi: $n: no firmware at $f"
		continue
	fi
	measure "$n" "$f"
	st=$?
	if [ $tap = 1 ]; then
		ok $st "$n: the payload measured 8 counters (best of $runs boots)"
		want=$calls
		# rvperf's firmware must have snapshot shared memory; upstream's
		# is measured where it answers SNAPSHOT_SET_SHMEM
		case $n in platform|test-fw) want="$want $snap_calls" ;; esac
		missing=
		for c in $want; do
			v=$(value "$n" "$c")
			[ -n "$v" ] && [ "$v" -gt 0 ] || missing="$missing $c"
		done
		[ -z "$missing" ]
		ok $? "$n: every call measured, each above the BASE ecall's cost"
		[ -z "$missing" ] || diag "$n: missing or not above BASE:$missing"
	elif [ $st -ne 0 ]; then
		echo "bench-sbi: the run on $n failed (see $out/$n.all)"
		exit 1
	fi
done
if [ $tap = 1 ]; then
	tap_done
	exit $?
fi

echo "M-mode instructions per PMU call (minus a BASE ecall), QEMU -icount shift=0, best of $runs boots"
printf '%-13s' call
for n in "${names[@]}"; do printf ' %13s' "$n"; done
printf '   %s\n' "ratios of the platform to each"
for c in $calls $snap_calls sum5 baseline; do
	printf '%-13s' "$c"
	p=
	for n in "${names[@]}"; do
		if [ "$c" = sum5 ]; then
			v=0
			for k in $calls; do
				x=$(value "$n" "$k")
				[ -n "$x" ] && v=$((v + x)) || { v=; break; }
			done
		else
			v=$(value "$n" "$c")
		fi
		printf ' %13s' "${v:--}"
		[ "$n" = platform ] && p=$v
	done
	if [ -n "$p" ] && [ "$c" != baseline ]; then
		for n in "${names[@]:1}"; do
			if [ "$c" = sum5 ]; then
				v=0
				for k in $calls; do v=$((v + $(value "$n" "$k"))); done
			else
				v=$(value "$n" "$c")
			fi
			[ -n "$v" ] && [ "$v" -gt 0 ] &&
				printf '  %s %s' "$n" "$(awk -v a="$p" -v b="$v" 'BEGIN { printf "%.2f", a / b }')"
		done
	fi
	printf '\n'
done
echo "sum5 = cfg_match + start1 + stop1 + start8 + stop8; baseline = a BASE probe ecall (trap path)"
echo "ratio = platform / other (below 1: the platform spends fewer M-mode instructions)"
