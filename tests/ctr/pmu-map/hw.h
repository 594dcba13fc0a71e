/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * hw.h - one hart of the qemu-model counter model behind plain functions,
 * so a test can put the SBI PMU core (opensbi-ext) on top of it: both
 * cores call their own structures "rvp_pmu", so each stays in its own
 * translation unit.
 */
#ifndef RVPERF_TESTS_PMU_MAP_HW_H
#define RVPERF_TESTS_PMU_MAP_HW_H

#include <stddef.h>
#include <stdint.h>

void hw_reset(void);
/* M-mode CSR access (firmware's view); -1 when the access traps. */
int hw_csr_read(unsigned int csr, uint64_t *val);
int hw_csr_write(unsigned int csr, uint64_t val);
/* U-mode execution: INSNS instructions (one cycle each), BRANCHES
 * conditional branches alternating not taken and taken at one address
 * (the predictor mispredicts some), CALLS direct calls. */
void hw_run_user(uint64_t insns, unsigned int branches, unsigned int calls);

/* qemu-model/core/rvp_pmu_map.h's three properties, as cells. */
extern const uint32_t hw_map_sel[], hw_map_ctrs[], hw_map_raw[];
extern const size_t hw_map_sel_cells, hw_map_ctrs_cells, hw_map_raw_cells;
/* The model's encoding of the event rvp_pmu_event_name() calls NAME. */
unsigned int hw_event(const char *name);

#endif
