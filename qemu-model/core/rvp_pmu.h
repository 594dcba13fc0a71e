/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rvp_pmu.h - a freestanding model of the hardware performance counters:
 * mcycle, minstret, mhpmcounter3..31 with mhpmevent3..31 (Sscofpmf OF and
 * xINH bits), mcountinhibit, the counter enables, scountovf, and the local
 * counter-overflow interrupt (LCOFI) pending bit.
 *
 * The event selector, mhpmeventN[55:0], holds one of the RVP_PMU_EVENT_*
 * values below: this model's own encodings, usable as SBI "raw event v2"
 * data.  qemu-model/README.md gives the devicetree riscv,pmu map that
 * sends the SBI general events to them.
 */
#ifndef RVPERF_QEMU_MODEL_RVP_PMU_H
#define RVPERF_QEMU_MODEL_RVP_PMU_H

#include "rvperf/types.h"
#include <stdbool.h>

#include "rvp_model.h"

/* Event encodings of this model (mhpmeventN[55:0]); anything else is
 * WARL-legalized to RVP_PMU_EVENT_NONE. */
enum rvp_pmu_event {
	RVP_PMU_EVENT_NONE = 0x00,		/* counts nothing */
	RVP_PMU_EVENT_CYCLES = 0x01,		/* cycles */
	RVP_PMU_EVENT_INSTRUCTIONS = 0x02,	/* instructions retired */
	RVP_PMU_EVENT_BRANCHES = 0x03,		/* conditional branches retired */
	RVP_PMU_EVENT_TAKEN_BRANCHES = 0x04,	/* ... of them taken */
	RVP_PMU_EVENT_MISPREDICTS = 0x05,	/* ... mispredicted (rvp_pred.h) */
	RVP_PMU_EVENT_CALLS = 0x06,		/* TYPE 8, 9 retired */
	RVP_PMU_EVENT_RETURNS = 0x07,		/* TYPE 13 retired */
	RVP_PMU_EVENT_OTHER_JUMPS = 0x08,	/* TYPE 10, 11, 12, 14, 15 */
	RVP_PMU_EVENT_EXCEPTIONS = 0x09,	/* exceptions taken */
	RVP_PMU_EVENT_INTERRUPTS = 0x0A,	/* interrupts taken */
	RVP_PMU_EVENT_COUNT
};

struct rvp_pmu_config {
	unsigned int hpm_counters;	/* implemented mhpmcounter3.., 0..29 */
	bool sscofpmf;
	bool h_ext;			/* VSINH, VUINH, hcounteren */
	unsigned int xlen;		/* 32 or 64 */
};

struct rvp_pmu_ops {
	/* Called when an overflow sets the LCOFI pending bit (may be NULL:
	 * the host polls rvp_pmu.lcofi_pending). */
	void (*raise_lcofi)(void *opaque);
};

#define RVP_PMU_COUNTERS 32

struct rvp_pmu {
	struct rvp_pmu_config cfg;
	const struct rvp_pmu_ops *ops;
	void *opaque;
	/* counter[0] is mcycle, counter[2] minstret, 3..31 mhpmcounterN. */
	uint64_t counter[RVP_PMU_COUNTERS];
	uint64_t event[RVP_PMU_COUNTERS];	/* mhpmeventN, 3..31 */
	uint32_t mcountinhibit, mcounteren, scounteren, hcounteren;
	uint32_t implemented;		/* bit N: counter N exists */
	bool lcofi_pending;		/* mip.LCOFIP */
	/* Fast path: which counters count EVENT in each mode. */
	uint32_t counts[RVP_MODE_SLOTS][RVP_PMU_EVENT_COUNT];
};

void rvp_pmu_init(struct rvp_pmu *pmu, const struct rvp_pmu_config *cfg,
		  const struct rvp_pmu_ops *ops, void *opaque);
/* N occurrences of EVENT in MODE. */
void rvp_pmu_count_slow(struct rvp_pmu *pmu, enum rvp_mode mode,
			enum rvp_pmu_event event, uint64_t n);
static inline void rvp_pmu_count(struct rvp_pmu *pmu, enum rvp_mode mode,
				 enum rvp_pmu_event event, uint64_t n)
{
	if (pmu->counts[mode][event])
		rvp_pmu_count_slow(pmu, mode, event, n);
}

/* Counter CSR access from MODE; RVP_ACCESS_NOT_MINE for other CSRs. */
enum rvp_access rvp_pmu_csr_read(struct rvp_pmu *pmu, enum rvp_mode mode,
				 unsigned int csrno, uint64_t *val);
enum rvp_access rvp_pmu_csr_write(struct rvp_pmu *pmu, enum rvp_mode mode,
				  unsigned int csrno, uint64_t val);

const char *rvp_pmu_event_name(enum rvp_pmu_event event);

#endif /* RVPERF_QEMU_MODEL_RVP_PMU_H */
