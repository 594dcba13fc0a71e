#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# M-mode instructions per SBI PMU call, the rvperf test firmware
# (opensbi-ext/firmware/, hosting opensbi-ext/core) against Debian's OpenSBI
# 1.1, in the same run.  The conformance payload (tests/conformance/conf.c)
# booted with bootargs "bench=1" reads instret around each ecall under
# -icount shift=0 and subtracts the cost of a BASE probe_extension ecall
# (the trap entry/exit of that firmware), so what is left is the PMU call's
# own work.  QEMU 7.2 has no Smcntrpmf, so instret counts every mode; the
# few S-mode instructions around the ecall cancel out with the baseline.
# Calls: cfg_match (a DTLB read miss cache event, no AUTO_START), start and
# stop of 1 and of 8 hpm counters, and the same with INIT_SNAPSHOT /
# TAKE_SNAPSHOT (only where the firmware has snapshot shared memory).
set -u
O=${O:-build}
out=$O/tests/bench/sbi
mkdir -p "$out"
qemu=${QEMU_SYSTEM:-qemu-system-riscv64}
osbi=/usr/share/qemu/opensbi-riscv64-generic-fw_dynamic.bin
command -v "$qemu" >/dev/null || { echo "bench-sbi: SKIP $qemu not installed"; exit 0; }
[ -f "$osbi" ] || { echo "bench-sbi: SKIP $osbi missing"; exit 0; }
opensbi-ext/firmware/build.sh "$out/rvperf-fw.elf" &&
	tests/conformance/build.sh "$out/conf.elf" || exit 1

run() {	# run FIRMWARE OUT
	timeout 60 "$qemu" -M virt -cpu rv64,sscofpmf=true -smp 1 -m 256M \
		-display none -monitor none -serial stdio -icount shift=0 \
		-bios "$1" -kernel "$out/conf.elf" -append bench=1 </dev/null \
		2>&1 | tr -d '\r' | sed -n 's/^bench //p' >"$2"
	grep -q '^counters 8$' "$2"
}
run "$out/rvperf-fw.elf" "$out/ours.txt" || { echo "bench-sbi: run on the rvperf firmware failed"; exit 1; }
run "$osbi" "$out/opensbi.txt" || { echo "bench-sbi: run on OpenSBI 1.1 failed"; exit 1; }

echo "M-mode instructions per PMU call (minus a BASE ecall), QEMU -icount shift=0"
bo=$(sed -n 's/^baseline //p' "$out/ours.txt")
bt=$(sed -n 's/^baseline //p' "$out/opensbi.txt")
printf '%-14s %8s %12s %7s   %s\n' call rvperf opensbi-1.1 ratio "whole ecall (with trap path): rvperf opensbi-1.1 ratio"
while read -r name ours; do
	case $name in counters|snapshot|baseline) continue ;; esac
	theirs=$(sed -n "s/^$name //p" "$out/opensbi.txt")
	if [ -n "$theirs" ] && [ "$theirs" -gt 0 ]; then
		ratio=$(awk -v a="$ours" -v b="$theirs" 'BEGIN { printf "%.2f", a / b }')
		whole=$(awk -v a="$ours" -v b="$theirs" -v x="$bo" -v y="$bt" \
			'BEGIN { printf "%d %d %.2f", a + x, b + y, (a + x) / (b + y) }')
	else
		theirs="-"
		ratio="(none)"
		whole="$((ours + bo)) - (none)"
	fi
	printf '%-14s %8s %12s %7s   %s\n' "$name" "$ours" "$theirs" "$ratio" "$whole"
done <"$out/ours.txt"
echo "baseline (a BASE probe ecall): rvperf $bo, OpenSBI 1.1 $bt"
echo "ratio = rvperf / OpenSBI 1.1 (below 1: fewer M-mode instructions)"
