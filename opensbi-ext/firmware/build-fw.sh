#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# build-fw.sh OUT.elf: the test firmware with the PMU core (../core), built
# by hand from the tests that use it (CROSS_COMPILE, default riscv64-linux-gnu-).
set -e
d=$(dirname "$0")
cross=${CROSS_COMPILE:-riscv64-linux-gnu-}
exec "${cross}gcc" -std=gnu11 -Wall -Wextra -Werror -O2 \
	-DCONFIG_RVPERF_QEMU_QUIRKS=1 \
	-march=rv64imac_zicsr_zifencei -mabi=lp64 -mcmodel=medany \
	-ffreestanding -nostdlib -fno-pic -no-pie -static -fno-builtin \
	-Wl,--build-id=none,--no-warn-rwx-segments -I"$d/../../include" -I"$d/../.." \
	-T "$d/link.ld" -o "$1" "$d/fw-start.S" "$d/fw.c" \
	"$d/../core/rvp_sbi_pmu.c" "$d/../core/rvp_sbi_pmu_dt.c" "$d/../core/rvp_sbi_ctr.c" -lgcc
