/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rvp_sbi_pmu_dt.h - the riscv,pmu devicetree node's three map properties, as
 * OpenSBI's PMU documentation defines them, into struct rvp_sbi_pmu_maps:
 *
 *   riscv,event-to-mhpmevent         <event_idx sel_hi sel_lo>...
 *   riscv,event-to-mhpmcounters      <idx_first idx_last counter_map>...
 *   riscv,raw-event-to-mhpmcounters  <sel_hi sel_lo mask_hi mask_lo map>...
 *
 * The value is the property as a flattened devicetree stores it: cells
 * of 32 bits, big-endian, len bytes in all (what fdt_getprop returns).
 */
#ifndef RVPERF_OPENSBI_EXT_RVP_SBI_PMU_DT_H
#define RVPERF_OPENSBI_EXT_RVP_SBI_PMU_DT_H

#include "rvp_sbi_pmu.h"

/*
 * Adds one property's entries to m.  0, or SBI_ERR_INVALID_PARAM (unknown
 * property, length not a whole number of tuples, event_idx out of range,
 * empty range, counter map naming time or no counter) or
 * SBI_ERR_NOT_SUPPORTED (more entries than RVP_SBI_PMU_MAX_MAP); on error m
 * is unchanged.
 */
int rvp_sbi_pmu_dt_prop(struct rvp_sbi_pmu_maps *m, const char *name,
			const void *val, uint32_t len);

#endif /* RVPERF_OPENSBI_EXT_RVP_SBI_PMU_DT_H */
