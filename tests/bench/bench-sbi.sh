#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# M-mode instructions per SBI PMU call, on the firmware vendors ship and on
# upstream OpenSBI, measured in the same run:
#   platform       rvperf's OpenSBI platform (opensbi-ext/ on OpenSBI 1.8.1
#                  with rvperf's series, PLATFORM_FW; make builds it from the
#                  registry's source): on QEMU virt its QEMU quirk is on
#   platform-q0    the same built with RVPERF_QEMU_QUIRKS=0 (the firmware
#                  of hardware that is not QEMU): PLATFORM_NOQUIRKS_FW names
#                  one; else it is built from the registry's OpenSBI 1.8.1
#                  source (build-opensbi.sh platform-q0) wherever
#                  RVPERF_CACHE is set, as make sets it (BENCH_NOQUIRKS=0
#                  leaves it out)
#   opensbi-1.8.1  upstream OpenSBI 1.8.1's generic platform (GENERIC_FW)
#   opensbi-1.1    Debian's OpenSBI 1.1 (qemu-system-data)
#   opensbi-1.9    upstream OpenSBI 1.9's generic platform, when OPENSBI19_FW
#                  names one built by hand (no registry carries 1.9)
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
# The goals (issue 17), printed as met / not met under the table and
# asserted with --tap (counts under -icount are exact, so they hold or fail
# reliably): every one of the five calls below each upstream firmware
# measured, and sum5 at most half of OpenSBI 1.9's sum5 (measured when
# OPENSBI19_FW is given, else 5649, the issue's measurement: goal 2824).
#
# With platform-q0 measured, the goals of issue 36 too: every one of the
# five calls below upstream's (OpenSBI 1.9 when given, else 1.8.1) and its
# sum5 at most 0.35 times upstream's.  The QEMU quirk (an sbi_pmu_device
# OpenSBI calls on every hardware counter start) reads each started
# counter and acts on those far from overflowing, so starts cost more with
# it than on platform-q0.
#
# bench-sbi.sh          the table (make bench)
# bench-sbi.sh --tap    make check: every firmware measured on every call it
#                       implements, and the goals
set -u
. tests/tap.sh
O=${O:-build}
out=$O/tests/bench/sbi
mkdir -p "$out"
rm -f "$out"/*.txt	# only what this run measures counts
qemu=${QEMU_SYSTEM:-qemu-system-riscv64}
runs=${BENCH_RUNS:-3}
tap=0
[ "${1:-}" = --tap ] && tap=1
calls="cfg_match start1 stop1 start8 stop8"
snap_calls="start1-snap stop1-snap start8-snap stop8-snap"

say() { [ $tap = 1 ] && diag "$@" || printf '%s\n' "$@"; }
command -v "$qemu" >/dev/null || { say "bench-sbi: SKIP $qemu not installed"; exit 0; }
opensbi-ext/firmware/build-fw.sh "$out/test-fw.elf" &&
	tests/conformance/build-conf.sh "$out/conf.elf" || exit 1

# build_noquirks: the platform with RVPERF_QEMU_QUIRKS=0, built as the
# platform is (OpenSBI 1.8.1 + the series; scripts/registry/build-opensbi.sh
# platform-q0), rebuilt only when the sources change
build_noquirks() {
	[ -n "${RVPERF_CACHE:-}" ] || { echo "bench-sbi: BENCH_NOQUIRKS=1 needs RVPERF_CACHE" >&2; return 1; }
	scripts/registry/build-opensbi.sh platform-q0
}
noquirks=${PLATFORM_NOQUIRKS_FW:-}
if [ -z "$noquirks" ] && [ "${BENCH_NOQUIRKS:-${RVPERF_CACHE:+1}}" = 1 ]; then
	noquirks=$(build_noquirks) || exit 1
fi

names=() fws=()
add() { [ -n "$2" ] && { names+=("$1"); fws+=("$2"); }; }
add platform "${PLATFORM_FW:-}"
add platform-q0 "$noquirks"
add opensbi-1.8.1 "${GENERIC_FW:-}"
add opensbi-1.1 /usr/share/qemu/opensbi-riscv64-generic-fw_dynamic.bin
add opensbi-1.9 "${OPENSBI19_FW:-}"
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
# sum5 NAME: the five calls added, empty when one is missing
sum5() {
	local k x v=0
	for k in $calls; do
		x=$(value "$1" "$k")
		[ -n "$x" ] || return 0
		v=$((v + x))
	done
	echo $v
}

# goals: one line per goal, "met|not-met|skip DESCRIPTION"
goals() {
	local n c p v ref half
	[ -f "$out/platform.txt" ] || return 0
	for n in opensbi-1.8.1 opensbi-1.9 opensbi-1.1; do
		[ -f "$out/$n.txt" ] || continue
		for c in $calls; do
			p=$(value platform "$c") v=$(value "$n" "$c")
			if [ -z "$p" ] || [ -z "$v" ]; then
				echo "skip $c: platform below $n (not measured)"
			elif [ "$p" -lt "$v" ]; then
				echo "met $c: platform $p < $n $v"
			else
				echo "not-met $c: platform $p < $n $v"
			fi
		done
	done
	ref=5649 half=
	[ -f "$out/opensbi-1.9.txt" ] && ref=$(sum5 opensbi-1.9)
	[ -n "$ref" ] && half=$((ref / 2))
	p=$(sum5 platform)
	if [ -z "$p" ] || [ -z "$half" ]; then
		echo "skip sum5: platform at most half of OpenSBI 1.9's (not measured)"
	elif [ "$p" -le "$half" ]; then
		echo "met sum5: platform $p <= $half (half of OpenSBI 1.9's $ref)"
	else
		echo "not-met sum5: platform $p <= $half (half of OpenSBI 1.9's $ref)"
	fi
	goals_q0
}

# goals_q0: issue 36's, for the platform built with RVPERF_QEMU_QUIRKS=0,
# against upstream measured in the same run (1.9 when given, else 1.8.1)
goals_q0() {
	local up c p v ref lim
	[ -f "$out/platform-q0.txt" ] || return 0
	up=opensbi-1.8.1
	[ -f "$out/opensbi-1.9.txt" ] && up=opensbi-1.9
	[ -f "$out/$up.txt" ] || { echo "skip platform-q0: no upstream measured"; return 0; }
	for c in $calls; do
		p=$(value platform-q0 "$c") v=$(value "$up" "$c")
		if [ -n "$p" ] && [ -n "$v" ] && [ "$p" -lt "$v" ]; then
			echo "met $c: platform-q0 $p < $up $v"
		else
			echo "not-met $c: platform-q0 ${p:-?} < $up ${v:-?}"
		fi
	done
	p=$(sum5 platform-q0) ref=$(sum5 "$up")
	lim=$(( ${ref:-0} * 35 / 100 ))
	if [ -n "$p" ] && [ -n "$ref" ] && [ "$p" -le "$lim" ]; then
		echo "met sum5: platform-q0 $p <= $lim (0.35 of $up's $ref)"
	else
		echo "not-met sum5: platform-q0 ${p:-?} <= $lim (0.35 of $up's ${ref:-?})"
	fi
}

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
		case $n in platform*|test-fw) want="$want $snap_calls" ;; esac
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
	while read -r st g; do
		case $st in
		# The platform answers PMU ecalls with OpenSBI's own sbi_pmu.c
		# and the series, whose cost patches (0010, 0011, 0013 to
		# 0017) bring it within the goals: a goal not met fails.
		met) ok 0 "goal $g" ;;
		not-met) ok 1 "goal $g" ;;
		*) echo "ok $((tap_n + 1)) - goal $g # SKIP"
		   tap_n=$((tap_n + 1)) ;;
		esac
	done < <(goals)
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
echo "goals (issue 17; platform-q0: issue 36):"
goals | sed 's/^not-met /  NOT MET  /; s/^met /  met      /; s/^skip /  skipped  /'
