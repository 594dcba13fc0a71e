/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * hpmhw.h - a freestanding model of the hardware performance counters:
 * mcycle, minstret, mhpmcounter3..31 with mhpmevent3..31 (Sscofpmf OF and
 * xINH bits), mcountinhibit, the counter enables, scountovf, and the local
 * counter-overflow interrupt (LCOFI) pending bit.
 *
 * The event selector, mhpmeventN[55:0], holds one of the HPMHW_EVENT_*
 * values below: this model's own encodings, usable as SBI "raw event v2"
 * data.  qemu-model/README.md gives the devicetree riscv,pmu map that
 * sends the SBI general events to them.
 */
#ifndef RVPERF_QEMU_MODEL_HPMHW_H
#define RVPERF_QEMU_MODEL_HPMHW_H

#include "rvperf/types.h"
#include <stdbool.h>

#include "hwmodel.h"

/* Event encodings of this model (mhpmeventN[55:0]); anything else is
 * WARL-legalized to HPMHW_EVENT_NONE. */
enum hpmhw_event {
	HPMHW_EVENT_NONE = 0x00,		/* counts nothing */
	HPMHW_EVENT_CYCLES = 0x01,		/* cycles */
	HPMHW_EVENT_INSTRUCTIONS = 0x02,	/* instructions retired */
	HPMHW_EVENT_BRANCHES = 0x03,		/* conditional branches retired */
	HPMHW_EVENT_TAKEN_BRANCHES = 0x04,	/* ... of them taken */
	HPMHW_EVENT_MISPREDICTS = 0x05,	/* ... mispredicted (predhw.h) */
	HPMHW_EVENT_CALLS = 0x06,		/* TYPE 8, 9 retired */
	HPMHW_EVENT_RETURNS = 0x07,		/* TYPE 13 retired */
	HPMHW_EVENT_OTHER_JUMPS = 0x08,	/* TYPE 10, 11, 12, 14, 15 */
	HPMHW_EVENT_EXCEPTIONS = 0x09,	/* exceptions taken */
	HPMHW_EVENT_INTERRUPTS = 0x0A,	/* interrupts taken */
	HPMHW_EVENT_COUNT
};

struct hpmhw_config {
	unsigned int hpm_counters;	/* implemented mhpmcounter3.., 0..29 */
	bool sscofpmf;
	bool h_ext;			/* VSINH, VUINH, hcounteren */
	unsigned int xlen;		/* 32 or 64 */
};

struct hpmhw_ops {
	/* Called when an overflow sets the LCOFI pending bit (may be NULL:
	 * the host polls hpmhw.lcofi_pending). */
	void (*raise_lcofi)(void *opaque);
};

#define HPMHW_COUNTERS 32

struct hpmhw {
	struct hpmhw_config cfg;
	const struct hpmhw_ops *ops;
	void *opaque;
	/* counter[0] is mcycle, counter[2] minstret, 3..31 mhpmcounterN. */
	uint64_t counter[HPMHW_COUNTERS];
	uint64_t event[HPMHW_COUNTERS];	/* mhpmeventN, 3..31 */
	uint32_t mcountinhibit, mcounteren, scounteren, hcounteren;
	uint32_t implemented;		/* bit N: counter N exists */
	bool lcofi_pending;		/* mip.LCOFIP */
	/* Fast path: which counters count EVENT in each mode. */
	uint32_t counts[HW_MODE_SLOTS][HPMHW_EVENT_COUNT];
};

void hpmhw_init(struct hpmhw *pmu, const struct hpmhw_config *cfg,
		  const struct hpmhw_ops *ops, void *opaque);
/* N occurrences of EVENT in MODE. */
void hpmhw_count_slow(struct hpmhw *pmu, enum hw_mode mode,
			enum hpmhw_event event, uint64_t n);
static inline void hpmhw_count(struct hpmhw *pmu, enum hw_mode mode,
				 enum hpmhw_event event, uint64_t n)
{
	if (pmu->counts[mode][event])
		hpmhw_count_slow(pmu, mode, event, n);
}

/* Counter CSR access from MODE; HW_ACCESS_NOT_MINE for other CSRs. */
enum hw_access hpmhw_csr_read(struct hpmhw *pmu, enum hw_mode mode,
				 unsigned int csrno, uint64_t *val);
enum hw_access hpmhw_csr_write(struct hpmhw *pmu, enum hw_mode mode,
				  unsigned int csrno, uint64_t val);

const char *hpmhw_event_name(enum hpmhw_event event);

#endif /* RVPERF_QEMU_MODEL_HPMHW_H */
