// SPDX-License-Identifier: BSD-2-Clause
/* hw.c - see hw.h. */
#include "hw.h"

#include <string.h>

#include "rvp_hart.h"
#include "rvp_pmu_map.h"
#include "rvperf/csr.h"
#include "rvperf/ctr.h"

static struct rvp_hart hart;

void hw_reset(void)
{
	struct rvp_hart_config cfg;

	rvp_hart_config_default(&cfg, RVP_CTR_LAYOUT_RATIFIED);
	cfg.ctr.misp = true;
	memset(&hart, 0, sizeof(hart));
	rvp_hart_init(&hart, &cfg);
	rvp_hart_set_mode(&hart, RVP_MODE_M);
}

int hw_csr_read(unsigned int csr, uint64_t *val)
{
	return rvp_hart_csr_read(&hart, csr, val) == RVP_ACCESS_OK ? 0 : -1;
}

int hw_csr_write(unsigned int csr, uint64_t val)
{
	return rvp_hart_csr_write(&hart, csr, val) == RVP_ACCESS_OK ? 0 : -1;
}

void hw_run_user(uint64_t insns, unsigned int branches, unsigned int calls)
{
	uint64_t pc = 0x10000;
	unsigned int i;

	rvp_hart_set_mode(&hart, RVP_MODE_U);
	rvp_hart_retire(&hart, insns);
	rvp_hart_cycles(&hart, insns);
	/* Branches alternate taken and not taken at one address: the
	 * predictor's bimodal counter mispredicts some of them. */
	for (i = 0; i < branches; i++)
		rvp_hart_transfer_len(&hart, i & 1 ? RVP_CTRDATA_TYPE_TAKEN_BRANCH
					     : RVP_CTRDATA_TYPE_NOT_TAKEN_BRANCH,
				      pc, i & 1 ? pc - 0x40 : pc + 4, 4);
	for (i = 0; i < calls; i++)
		rvp_hart_transfer_len(&hart, RVP_CTRDATA_TYPE_DIRECT_CALL,
				      pc + 0x100, 0x20000, 4);
	rvp_hart_set_mode(&hart, RVP_MODE_M);
}

const uint32_t hw_map_sel[] = RVP_PMU_MAP_EVENT_TO_MHPMEVENT;
const uint32_t hw_map_ctrs[] = RVP_PMU_MAP_EVENT_TO_MHPMCOUNTERS;
const uint32_t hw_map_raw[] = RVP_PMU_MAP_RAW_EVENT_TO_MHPMCOUNTERS;
const size_t hw_map_sel_cells = sizeof(hw_map_sel) / sizeof(hw_map_sel[0]);
const size_t hw_map_ctrs_cells = sizeof(hw_map_ctrs) / sizeof(hw_map_ctrs[0]);
const size_t hw_map_raw_cells = sizeof(hw_map_raw) / sizeof(hw_map_raw[0]);

unsigned int hw_event(const char *name)
{
	unsigned int e;

	for (e = 0; e < RVP_PMU_EVENT_COUNT; e++)
		if (strcmp(rvp_pmu_event_name(e), name) == 0)
			return e;
	return 0;
}
