#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# bench-qemu-boot - what a QEMU change costs a Linux boot, the other half
# (with bench-qemu-insn.sh's CPU-bound guest) of what QEMU's maintainers
# ask of a TCG change: qemu-system-riscv64 without -icount boots
# BOOT_KERNEL (a RISC-V Image) on BOOT_BIOS (an OpenSBI fw_dynamic.bin)
# with no root file system, from reset to the kernel's panic for want of
# an init ("No working init found"; panic=-1 -no-reboot ends QEMU there):
# OpenSBI and Linux leave minstret and mcycle running, so with
# qemu-model/qemu's patches 0008-0009 (or upstream/counting) every block
# counts.  CPU time (user + system of the QEMU process), best of ROUNDS,
# QEMU and QEMU_UPSTREAM interleaved, and the ratio.
# QEMU=<changed qemu-system-riscv64> QEMU_UPSTREAM=<the same without the
# change> BOOT_KERNEL=... BOOT_BIOS=...; SKIPPED without them.
set -eu
rounds=${ROUNDS:-5}
for v in QEMU QEMU_UPSTREAM BOOT_KERNEL BOOT_BIOS; do
	if [ -z "${!v:-}" ] || [ ! -e "${!v}" ]; then
		echo "bench-qemu-boot: SKIPPED ($v not given or missing)"
		exit 0
	fi
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
boot() {	# QEMU [CPU]: CPU seconds of one boot, or nothing if it did not get there
	local out
	out=$(TIMEFORMAT='%U %S'; { time timeout 600 "$1" -M virt -m 512M \
		-smp 1 -cpu "${2:-rv64,sscofpmf=true}" -bios "$BOOT_BIOS" \
		-kernel "$BOOT_KERNEL" -append "console=ttyS0 panic=-1" \
		-no-reboot -display none -monitor none -serial stdio \
		</dev/null >"$tmp/out" 2>&1; } 2>&1)
	grep -q 'No working init found' "$tmp/out" || return 0
	echo "${out% *} + ${out#* }" | bc -l
}
declare -A best
names=(ours up)
cmds=("$QEMU" "$QEMU_UPSTREAM")
for _ in $(seq "$rounds"); do
	for i in "${!names[@]}"; do
		t=$(boot "${cmds[$i]}")
		if [ -z "$t" ]; then
			echo "bench-qemu-boot: ${cmds[$i]} did not boot to the kernel's init: $(tail -3 "$tmp/out" | tr '\n' ' ')" >&2
			exit 1
		fi
		b=${best[${names[$i]}]:-}
		if [ -z "$b" ] || [ "$(echo "$t < $b" | bc -l)" = 1 ]; then
			best[${names[$i]}]=$t
		fi
	done
done
echo "qemu-system-riscv64 without -icount, Linux boot to init, best of $rounds"
printf '  %-6s %7.3f s\n' ours "${best[ours]}" up "${best[up]}"
printf '  ours / up  %.3f\n' "$(echo "${best[ours]} / ${best[up]}" | bc -l)"
