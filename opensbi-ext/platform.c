// SPDX-License-Identifier: BSD-2-Clause
/*
 * rvperf as an OpenSBI external platform (make PLATFORM_DIR=...): a
 * generic-like FDT platform (QEMU virt and boards described the same way,
 * without the board overrides of OpenSBI's platform/generic; for those,
 * build rvperf into the generic platform instead: generic.mk).
 *
 * The SBI PMU extension is OpenSBI's own, with rvperf's series applied
 * (opensbi-ext/patches/); the riscv,pmu maps reach it through pmu_init and
 * pmu_xlate_to_mhpmevent, as in OpenSBI's generic platform.  What rvperf
 * adds (rvperf_sbi.c) is called from the operations below.
 */

#include <libfdt.h>
#include <sbi/riscv_asm.h>
#include <sbi/sbi_hartmask.h>
#include <sbi/sbi_heap.h>
#include <sbi/sbi_platform.h>
#include <sbi/sbi_string.h>
#include <sbi/sbi_tlb.h>
#include <sbi_utils/fdt/fdt_domain.h>
#include <sbi_utils/fdt/fdt_driver.h>
#include <sbi_utils/fdt/fdt_fixup.h>
#include <sbi_utils/fdt/fdt_helper.h>
#include <sbi_utils/fdt/fdt_pmu.h>
#include <sbi_utils/irqchip/fdt_irqchip.h>
#include <sbi_utils/irqchip/imsic.h>
#include <sbi_utils/serial/fdt_serial.h>
#include <sbi_utils/timer/fdt_timer.h>

#include "rvperf_compat.h"
#include "rvperf_sbi.h"

extern struct sbi_platform platform;
static u32 rvperf_hart_index2id[SBI_HARTMASK_MAX_BITS];
static bool rvperf_mlevel_imsic;

/* ----------------------------------------------- platform operations */

static int rvperf_nascent_init(void)
{
	if (rvperf_mlevel_imsic)
		imsic_local_irqchip_init();
	return 0;
}

static int rvperf_early_init(bool cold_boot)
{
	const void *fdt = fdt_get_address();
	int rc;

	if (!cold_boot)
		return 0;

	rc = fdt_serial_init(fdt);
	if (rc)
		return rc;
	/* IPI (ACLINT MSWI, PLIC SW), reset and poweroff, HSM drivers. */
	fdt_driver_init_all(fdt, fdt_early_drivers);
	return 0;
}

static int rvperf_final_init(bool cold_boot)
{
	void *fdt = fdt_get_address_rw();

	rvperf_hart_final_init(cold_boot);
	if (!cold_boot)
		return 0;

	fdt_cpu_fixup(fdt);
	fdt_fixups(fdt);
	fdt_domain_fixup(fdt);
	fdt_pack(fdt);
	fdt_open_into(fdt, fdt, fdt_totalsize(fdt) +
		      CONFIG_PLATFORM_RVPERF_FDT_EMPTY_SPACE * 1024);
	return 0;
}

static int rvperf_extensions_init(RVPERF_EXTENSIONS_INIT_ARGS)
{
	int rc = RVPERF_PARSE_ISA_EXTENSIONS();

	if (rc)
		return rc;
	RVPERF_EXTENSIONS_INIT();
	return 0;
}

/* The riscv,pmu maps, for OpenSBI's PMU (lib/utils/fdt/fdt_pmu.c). */
static int rvperf_pmu_init_cold(void)
{
	int rc = fdt_pmu_setup(fdt_get_address());

	if (rc && rc != SBI_ENOENT)
		return rc;
	rvperf_pmu_device_init();
	return 0;
}

/*
 * mhpmevent for a general or cache event: the riscv,pmu select value, else
 * the zero-extended event_idx (the SBI spec's recommendation, as generic
 * does); a raw event's event_data is its selector.
 */
static uint64_t rvperf_pmu_xlate_to_mhpmevent(uint32_t event_idx,
					      uint64_t data)
{
	uint64_t val;

	if (event_idx == SBI_PMU_EVENT_RAW_IDX ||
	    event_idx == SBI_PMU_EVENT_RAW_V2_IDX)
		return data;
	val = fdt_pmu_get_select_value(event_idx);
	return val ? val : event_idx;
}

static int rvperf_domains_init(void)
{
	return fdt_domains_populate(fdt_get_address());
}

static u64 rvperf_tlbr_flush_limit(void)
{
	return SBI_PLATFORM_TLB_RANGE_FLUSH_LIMIT_DEFAULT;
}

static u32 rvperf_tlb_num_entries(void)
{
	return sbi_hart_count();
}

static const struct sbi_platform_operations rvperf_platform_ops = {
	.nascent_init		= rvperf_nascent_init,
	.early_init		= rvperf_early_init,
	.final_init		= rvperf_final_init,
	.extensions_init	= rvperf_extensions_init,
	.domains_init		= rvperf_domains_init,
	.pmu_init		= rvperf_pmu_init_cold,
	.pmu_xlate_to_mhpmevent	= rvperf_pmu_xlate_to_mhpmevent,
	.irqchip_init		= fdt_irqchip_init,
	.timer_init		= fdt_timer_init,
	.get_tlbr_flush_limit	= rvperf_tlbr_flush_limit,
	.get_tlb_num_entries	= rvperf_tlb_num_entries,
};

/*
 * Called by OpenSBI's reference firmwares on the boot hart before anything
 * else: the harts and the heap size come from the FDT passed in a1.
 */
unsigned long fw_platform_init(unsigned long arg0, unsigned long arg1,
			       unsigned long arg2, unsigned long arg3,
			       unsigned long arg4)
{
	const void *fdt = (const void *)arg1;
	int cpus, cpu, len;
	const char *model;
	u32 hartid, count = 0;
	unsigned long heap;

	model = fdt_getprop(fdt, fdt_path_offset(fdt, "/"), "model", &len);
	if (model)
		sbi_strncpy(platform.name, model, sizeof(platform.name) - 1);

	cpus = fdt_path_offset(fdt, "/cpus");
	if (cpus < 0)
		goto fail;
	fdt_for_each_subnode(cpu, fdt, cpus) {
		if (count >= SBI_HARTMASK_MAX_BITS)
			break;
		if (fdt_parse_hart_id(fdt, cpu, &hartid) ||
		    !fdt_node_is_enabled(fdt, cpu))
			continue;
		rvperf_hart_index2id[count++] = hartid;
	}
	if (!count)
		goto fail;

	/* OpenSBI's default and its TLB request queues. */
	heap = SBI_PLATFORM_DEFAULT_HEAP_SIZE(count) +
	       SBI_TLB_INFO_SIZE * count * count;
	platform.hart_count = count;
	platform.heap_size = BIT_ALIGN(heap, HEAP_BASE_ALIGN);
	rvperf_mlevel_imsic = fdt_check_imsic_mlevel(fdt);
	return arg1;

fail:
	while (1)
		wfi();
}

struct sbi_platform platform = {
	.opensbi_version	= OPENSBI_VERSION,
	.platform_version	= SBI_PLATFORM_VERSION(0, 1),
	.name			= "rvperf",
	.features		= SBI_PLATFORM_DEFAULT_FEATURES,
	.hart_count		= SBI_HARTMASK_MAX_BITS,
	.hart_index2id		= rvperf_hart_index2id,
	.hart_stack_size	= SBI_PLATFORM_DEFAULT_HART_STACK_SIZE,
	.heap_size		= SBI_PLATFORM_DEFAULT_HEAP_SIZE(0),
	.platform_ops_addr	= (unsigned long)&rvperf_platform_ops,
};
