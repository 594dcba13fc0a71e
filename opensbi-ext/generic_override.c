// SPDX-License-Identifier: BSD-2-Clause
/*
 * generic_override.c - rvperf in OpenSBI's own generic platform: a board
 * override for QEMU's virt board (root compatible "riscv-virtio"; generic
 * has none of its own), built by generic.mk next to the vendors' overrides.
 * What rvperf adds (rvperf_sbi.c: the draft CTR layout, the QEMU quirk) is
 * for QEMU's harts only, so the other boards keep generic as it is.
 * Generic's own operations run first; rvperf's work follows.
 */

#include <platform_override.h>
#include <sbi_utils/fdt/fdt_helper.h>

#include "rvperf_compat.h"
#include "rvperf_sbi.h"

static int rvperf_virt_extensions_init(RVPERF_EXTENSIONS_INIT_ARGS)
{
	int rc = generic_extensions_init(RVPERF_EXTENSIONS_INIT_CALL);

	if (rc)
		return rc;
	RVPERF_EXTENSIONS_INIT();
	return 0;
}

static int rvperf_virt_pmu_init(void)
{
	int rc = generic_pmu_init();

	if (rc)
		return rc;
	rvperf_pmu_device_init();
	return 0;
}

static int rvperf_virt_final_init(bool cold_boot)
{
	rvperf_hart_final_init(cold_boot);
	return generic_final_init(cold_boot);
}

static int rvperf_virt_platform_init(const void *fdt, int nodeoff,
				     const struct fdt_match *match)
{
	generic_platform_ops.extensions_init = rvperf_virt_extensions_init;
	generic_platform_ops.pmu_init = rvperf_virt_pmu_init;
	generic_platform_ops.final_init = rvperf_virt_final_init;
	return 0;
}

static const struct fdt_match rvperf_virt_match[] = {
	{ .compatible = "riscv-virtio" },
	{ },
};

const struct fdt_driver rvperf_qemu_virt = {
	.match_table = rvperf_virt_match,
	.init = rvperf_virt_platform_init,
};
