/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rvperf_sbi.h - what rvperf's OpenSBI platform adds to OpenSBI's own PMU
 * (lib/sbi/sbi_pmu.c with rvperf's series, opensbi-ext/patches/), called
 * from platform operations only: the external platform's (platform.c) and
 * those of the QEMU virt override of OpenSBI's generic platform
 * (generic_override.c).
 */
#ifndef RVPERF_OPENSBI_SBI_H
#define RVPERF_OPENSBI_SBI_H

#include <sbi/sbi_hart.h>
#include <sbi/sbi_types.h>

/*
 * extensions_init, for hart hartid after its ISA string is parsed: a hart that
 * declares the v0.1.4 draft CTR layout ("xrvperfctrdraft") names its draft
 * CSRs "smctr"/"ssctr" too; those two leave OpenSBI's view of the hart, so
 * that OpenSBI's ratified CTR setup does not touch CSRs the hart lacks.
 */
void rvperf_hart_extensions(struct sbi_hart_features *hfeatures, u32 hartid);

/*
 * pmu_init, cold boot, after the platform's own PMU set-up: on QEMU's virt
 * board (devicetree root compatible "riscv-virtio") the sbi_pmu_device
 * that works around QEMU's stale overflow deadline, unless a board set a
 * device of its own first.  Nothing without RVPERF_QEMU_QUIRKS.
 */
void rvperf_pmu_device_init(void);

/*
 * final_init, on every boot of a hart (cold boot and each HSM start): the
 * draft CTR layout set up on a hart that declares it, with
 * RVPERF_CTR_DRAFT; nothing otherwise.
 */
void rvperf_hart_final_init(bool cold_boot);

#endif /* RVPERF_OPENSBI_SBI_H */
