#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The PMU/CTR core builds as M-mode firmware builds it: freestanding, no
# libc, no libgcc (nothing undefined once linked together), for RV64 and
# RV32, and with the host compiler.
. "$(dirname "$0")/../tap.sh"
O=${O:-build}
srcs="opensbi-ext/core/rvp_sbi_pmu.c opensbi-ext/core/rvp_sbi_pmu_dt.c opensbi-ext/core/rvp_sbi_ctr.c"
out=$O/tests/sbi/freestanding
mkdir -p "$out"
cross=${CROSS_COMPILE:-riscv64-linux-gnu-}
# -Wframe-larger-than: no function of the core may put a large array on the
# M-mode stack (firmware stacks are a few KiB per hart, shared with OpenSBI's
# own trap frames); 256 bytes leaves room for the widest legitimate frame.
flags="-std=gnu11 -Wall -Wextra -Werror -O2 -ffreestanding -nostdlib -fno-builtin -Wframe-larger-than=256 -Iinclude"

build() {	# NAME CC NM EXTRA...
	local name=$1 cc=$2 nm=$3 undef
	shift 3
	if ! command -v "$cc" >/dev/null 2>&1; then
		echo "ok $((tap_n + 1)) - core builds freestanding ($name) # SKIP $cc not installed"
		tap_n=$((tap_n + 1))
		return
	fi
	# shellcheck disable=SC2086
	"$cc" $flags "$@" -r -o "$out/core-$name.o" $srcs >"$out/$name.log" 2>&1
	ok $? "core builds freestanding with no warnings, no frame over 256 bytes ($name)"
	undef=$("$nm" -u "$out/core-$name.o" 2>/dev/null)
	[ -f "$out/core-$name.o" ] && [ -z "$undef" ]
	ok $? "core needs no libc or libgcc symbol ($name)"
	[ -z "$undef" ] || diag "undefined: $undef"
}
build host "${HOST_CC:-gcc}" nm
build rv64 "${cross}gcc" "${cross}nm" -march=rv64imac_zicsr -mabi=lp64 -mcmodel=medany
build rv32 "${cross}gcc" "${cross}nm" -march=rv32imac_zicsr -mabi=ilp32
# The QEMU workaround compiled in (Kconfig RVPERF_QEMU_QUIRKS, the default);
# the builds above are RVPERF_QEMU_QUIRKS=0.
build rv64-qemu-quirks "${cross}gcc" "${cross}nm" -march=rv64imac_zicsr -mabi=lp64 -mcmodel=medany -DCONFIG_RVPERF_QEMU_QUIRKS=1
build rv32-qemu-quirks "${cross}gcc" "${cross}nm" -march=rv32imac_zicsr -mabi=ilp32 -DCONFIG_RVPERF_QEMU_QUIRKS=1
tap_done
