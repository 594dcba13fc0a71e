// SPDX-License-Identifier: BSD-2-Clause
/*
 * hpmhw.c - the counter model of hpmhw.h.  Section names are those of the
 * privileged specification: "Hardware Performance Monitor", "Machine
 * Counter-Enable Register (mcounteren)", "Machine Counter-Inhibit Register
 * (mcountinhibit)", the Sscofpmf chapter, and the H extension's
 * "hcounteren" and virtual-instruction rules.
 */
#include "hpmhw.h"

#include "rvperf/csr.h"

#define COUNTER_CY 0
#define COUNTER_IR 2
#define HPM_FIRST 3

static const char *const event_names[HPMHW_EVENT_COUNT] = {
	[HPMHW_EVENT_NONE] = "none",
	[HPMHW_EVENT_CYCLES] = "cycles",
	[HPMHW_EVENT_INSTRUCTIONS] = "instructions",
	[HPMHW_EVENT_BRANCHES] = "branches",
	[HPMHW_EVENT_TAKEN_BRANCHES] = "taken-branches",
	[HPMHW_EVENT_MISPREDICTS] = "mispredicted-branches",
	[HPMHW_EVENT_CALLS] = "calls",
	[HPMHW_EVENT_RETURNS] = "returns",
	[HPMHW_EVENT_OTHER_JUMPS] = "other-jumps",
	[HPMHW_EVENT_EXCEPTIONS] = "exceptions",
	[HPMHW_EVENT_INTERRUPTS] = "interrupts",
};

const char *hpmhw_event_name(enum hpmhw_event event)
{
	return (unsigned int)event < HPMHW_EVENT_COUNT ? event_names[event]
							 : (void *)0;
}

/* The Sscofpmf inhibit bit for counting in MODE. */
static uint64_t inhibit_bit(enum hw_mode mode)
{
	switch (mode) {
	case HW_MODE_M:
		return RVP_MHPMEVENT_MINH;
	case HW_MODE_S:
		return RVP_MHPMEVENT_SINH;
	case HW_MODE_U:
		return RVP_MHPMEVENT_UINH;
	case HW_MODE_VS:
		return RVP_MHPMEVENT_VSINH;
	case HW_MODE_VU:
		return RVP_MHPMEVENT_VUINH;
	}
	return 0;
}

static void recompute(struct hpmhw *pmu)
{
	static const enum hw_mode modes[] = { HW_MODE_U, HW_MODE_S,
					       HW_MODE_M, HW_MODE_VU,
					       HW_MODE_VS };

	for (unsigned int m = 0; m < HW_MODE_SLOTS; m++)
		for (unsigned int e = 0; e < HPMHW_EVENT_COUNT; e++)
			pmu->counts[m][e] = 0;
	for (unsigned int n = 0; n < HPMHW_COUNTERS; n++) {
		if (!((pmu->implemented >> n) & 1) ||
		    ((pmu->mcountinhibit >> n) & 1))
			continue;
		for (unsigned int i = 0; i < sizeof(modes) / sizeof(modes[0]);
		     i++) {
			enum hw_mode m = modes[i];
			uint64_t ev;

			if (n == COUNTER_CY) {
				pmu->counts[m][HPMHW_EVENT_CYCLES] |= 1u << n;
				continue;
			}
			if (n == COUNTER_IR) {
				pmu->counts[m][HPMHW_EVENT_INSTRUCTIONS] |=
					1u << n;
				continue;
			}
			ev = pmu->event[n] & RVP_MHPMEVENT_EVENT;
			if (ev == HPMHW_EVENT_NONE ||
			    (pmu->event[n] & inhibit_bit(m)))
				continue;
			pmu->counts[m][ev] |= 1u << n;
		}
	}
}

void hpmhw_init(struct hpmhw *pmu, const struct hpmhw_config *cfg,
		const struct hpmhw_ops *ops, void *opaque)
{
	unsigned char *p = (unsigned char *)pmu;
	unsigned int hpm = cfg->hpm_counters > 29 ? 29 : cfg->hpm_counters;

	for (unsigned long i = 0; i < sizeof(*pmu); i++)
		p[i] = 0;
	pmu->cfg = *cfg;
	pmu->cfg.hpm_counters = hpm;
	pmu->ops = ops;
	pmu->opaque = opaque;
	pmu->implemented = (1u << COUNTER_CY) | (1u << COUNTER_IR) |
			   (uint32_t)(((1ull << hpm) - 1) << HPM_FIRST);
	recompute(pmu);
}

void hpmhw_count_slow(struct hpmhw *pmu, enum hw_mode mode,
		      enum hpmhw_event event, uint64_t n)
{
	uint32_t set = pmu->counts[mode][event];

	while (set) {
		unsigned int i = (unsigned int)__builtin_ctz(set);
		uint64_t old = pmu->counter[i];

		set &= set - 1;
		pmu->counter[i] = old + n;
		/* Sscofpmf "Count Overflow Control": an mhpmcounter wrapping
		 * sets OF; a 0-to-1 OF transition requests the LCOFI. */
		if (pmu->counter[i] < old && i >= HPM_FIRST &&
		    pmu->cfg.sscofpmf && !(pmu->event[i] & RVP_MHPMEVENT_OF)) {
			pmu->event[i] |= RVP_MHPMEVENT_OF;
			pmu->lcofi_pending = true;
			if (pmu->ops && pmu->ops->raise_lcofi)
				pmu->ops->raise_lcofi(pmu->opaque);
		}
	}
}

enum csr_kind { K_NONE, K_MCOUNTER, K_UCOUNTER, K_EVENT, K_INHIBIT,
		K_MCOUNTEREN, K_SCOUNTEREN, K_HCOUNTEREN, K_SCOUNTOVF };

/* What CSRNO is; *index the counter, *high the RV32 upper half. */
static enum csr_kind decode(const struct hpmhw *pmu, unsigned int csrno,
			    unsigned int *index, bool *high)
{
	bool rv32 = pmu->cfg.xlen == 32;

	*high = false;
	*index = 0;
	if (csrno >= RVP_CSR_MCYCLE && csrno <= RVP_CSR_MHPMCOUNTER31 &&
	    csrno != RVP_CSR_MCYCLE + 1) {
		*index = csrno - RVP_CSR_MCYCLE;
		return K_MCOUNTER;
	}
	if (rv32 && csrno >= RVP_CSR_MCYCLEH &&
	    csrno <= RVP_CSR_MHPMCOUNTER31H && csrno != RVP_CSR_MCYCLEH + 1) {
		*index = csrno - RVP_CSR_MCYCLEH;
		*high = true;
		return K_MCOUNTER;
	}
	/* time/timeh (cycle + 1) are the timer's, not ours. */
	if (csrno >= RVP_CSR_CYCLE && csrno <= RVP_CSR_HPMCOUNTER31 &&
	    csrno != RVP_CSR_TIME) {
		*index = csrno - RVP_CSR_CYCLE;
		return K_UCOUNTER;
	}
	if (rv32 && csrno >= RVP_CSR_CYCLEH && csrno <= RVP_CSR_HPMCOUNTER31H &&
	    csrno != RVP_CSR_TIMEH) {
		*index = csrno - RVP_CSR_CYCLEH;
		*high = true;
		return K_UCOUNTER;
	}
	if (csrno >= RVP_CSR_MHPMEVENT3 && csrno <= RVP_CSR_MHPMEVENT31) {
		*index = csrno - RVP_CSR_MHPMEVENT3 + HPM_FIRST;
		return K_EVENT;
	}
	if (rv32 && pmu->cfg.sscofpmf && csrno >= RVP_CSR_MHPMEVENT3H &&
	    csrno <= RVP_CSR_MHPMEVENT31H) {
		*index = csrno - RVP_CSR_MHPMEVENT3H + HPM_FIRST;
		*high = true;
		return K_EVENT;
	}
	switch (csrno) {
	case RVP_CSR_MCOUNTINHIBIT:
		return K_INHIBIT;
	case RVP_CSR_MCOUNTEREN:
		return K_MCOUNTEREN;
	case RVP_CSR_SCOUNTEREN:
		return K_SCOUNTEREN;
	case RVP_CSR_HCOUNTEREN:
		return pmu->cfg.h_ext ? K_HCOUNTEREN : K_NONE;
	case RVP_CSR_SCOUNTOVF:
		return pmu->cfg.sscofpmf ? K_SCOUNTOVF : K_NONE;
	}
	return K_NONE;
}

/* Privilege rules by CSR number: bits 9:8 give the lowest level that may
 * access it, bits 11:10 = 3 make it read-only.  VU gets virtual-instruction
 * for S- and H-level CSRs, VS for H-level ones (H extension, "Traps"). */
static enum hw_access level_check(enum hw_mode mode, unsigned int csrno,
				  bool write)
{
	unsigned int level = (csrno >> 8) & 3;

	if (write && (csrno >> 10) == 3)
		return HW_ACCESS_ILLEGAL;
	if (mode == HW_MODE_M)
		return HW_ACCESS_OK;
	if (level == 3)
		return HW_ACCESS_ILLEGAL;
	if (mode == HW_MODE_U && level != 0)
		return HW_ACCESS_ILLEGAL;
	if (mode == HW_MODE_VU && level != 0)
		return HW_ACCESS_VIRTUAL;
	if (mode == HW_MODE_VS && level == 2)
		return HW_ACCESS_VIRTUAL;
	return HW_ACCESS_OK;
}

/* Zicntr/Zihpm read access of cycle/instret/hpmcounterN: mcounteren for
 * everything below M (illegal), hcounteren for V=1 and, in VU-mode, also
 * scounteren (virtual-instruction: the H extension raises it "when the
 * corresponding bit in either hcounteren or scounteren is 0 and the same
 * bit in mcounteren is 1"), scounteren for U (illegal). */
static enum hw_access counter_enabled(const struct hpmhw *pmu,
				      enum hw_mode mode, unsigned int index)
{
	uint32_t bit = 1u << index;

	if (mode == HW_MODE_M)
		return HW_ACCESS_OK;
	if (!(pmu->mcounteren & bit))
		return HW_ACCESS_ILLEGAL;
	if (hw_mode_is_virtual(mode) && !(pmu->hcounteren & bit))
		return HW_ACCESS_VIRTUAL;
	if (mode == HW_MODE_VU && !(pmu->scounteren & bit))
		return HW_ACCESS_VIRTUAL;
	if (mode == HW_MODE_U && !(pmu->scounteren & bit))
		return HW_ACCESS_ILLEGAL;
	return HW_ACCESS_OK;
}

static uint32_t enable_mask(const struct hpmhw *pmu)
{
	return pmu->implemented;
}

enum hw_access hpmhw_csr_read(struct hpmhw *pmu, enum hw_mode mode,
			      unsigned int csrno, uint64_t *val)
{
	unsigned int index;
	bool high;
	enum csr_kind kind = decode(pmu, csrno, &index, &high);
	enum hw_access acc;
	uint64_t v = 0;

	if (kind == K_NONE)
		return HW_ACCESS_NOT_MINE;
	acc = level_check(mode, csrno, false);
	if (acc != HW_ACCESS_OK)
		return acc;
	switch (kind) {
	case K_UCOUNTER:
		acc = counter_enabled(pmu, mode, index);
		if (acc != HW_ACCESS_OK)
			return acc;
		/* fall through */
	case K_MCOUNTER:
		v = ((pmu->implemented >> index) & 1) ? pmu->counter[index] : 0;
		break;
	case K_EVENT:
		v = ((pmu->implemented >> index) & 1) ? pmu->event[index] : 0;
		break;
	case K_INHIBIT:
		v = pmu->mcountinhibit;
		break;
	case K_MCOUNTEREN:
		v = pmu->mcounteren;
		break;
	case K_SCOUNTEREN:
		v = pmu->scounteren;
		break;
	case K_HCOUNTEREN:
		v = pmu->hcounteren;
		break;
	case K_SCOUNTOVF: {
		/* Sscofpmf "scountovf": the OF bits, masked by mcounteren
		 * below M and also by hcounteren in VS. */
		uint32_t mask = 0;

		for (unsigned int i = HPM_FIRST; i < HPMHW_COUNTERS; i++)
			if (pmu->event[i] & RVP_MHPMEVENT_OF)
				mask |= 1u << i;
		if (mode != HW_MODE_M)
			mask &= pmu->mcounteren;
		if (hw_mode_is_virtual(mode))
			mask &= pmu->hcounteren;
		v = mask;
		break;
	}
	case K_NONE:
		break;
	}
	if (high)
		v >>= 32;
	else if (pmu->cfg.xlen == 32)
		v &= 0xFFFFFFFFull;
	*val = v;
	return HW_ACCESS_OK;
}

/* mhpmeventN is WARL: unknown events read back as none, the Sscofpmf bits
 * exist only with Sscofpmf, VSINH/VUINH only with H. */
static uint64_t legal_event(const struct hpmhw *pmu, uint64_t val)
{
	uint64_t ev = val & RVP_MHPMEVENT_EVENT;
	uint64_t keep = 0;

	if (ev >= HPMHW_EVENT_COUNT)
		ev = HPMHW_EVENT_NONE;
	if (pmu->cfg.sscofpmf) {
		keep = RVP_MHPMEVENT_OF | RVP_MHPMEVENT_MINH |
		       RVP_MHPMEVENT_SINH | RVP_MHPMEVENT_UINH;
		if (pmu->cfg.h_ext)
			keep |= RVP_MHPMEVENT_VSINH | RVP_MHPMEVENT_VUINH;
	}
	return (val & keep) | ev;
}

static uint64_t merge(uint64_t old, uint64_t val, bool high, bool rv32)
{
	if (high)
		return (old & 0xFFFFFFFFull) | (val << 32);
	if (rv32)
		return (old & ~0xFFFFFFFFull) | (val & 0xFFFFFFFFull);
	return val;
}

enum hw_access hpmhw_csr_write(struct hpmhw *pmu, enum hw_mode mode,
			       unsigned int csrno, uint64_t val)
{
	unsigned int index;
	bool high, rv32 = pmu->cfg.xlen == 32;
	enum csr_kind kind = decode(pmu, csrno, &index, &high);
	enum hw_access acc;

	if (kind == K_NONE)
		return HW_ACCESS_NOT_MINE;
	acc = level_check(mode, csrno, true);
	if (acc != HW_ACCESS_OK)
		return acc;
	if (rv32)
		val &= 0xFFFFFFFFull;
	switch (kind) {
	case K_MCOUNTER:
		if ((pmu->implemented >> index) & 1)
			pmu->counter[index] =
				merge(pmu->counter[index], val, high, rv32);
		break;
	case K_EVENT:
		if ((pmu->implemented >> index) & 1) {
			uint64_t old = pmu->event[index];

			pmu->event[index] = legal_event(
				pmu, merge(old, val, high, rv32));
			/* What counts changes with the event and the
			 * inhibit bits, not with OF (an overflow handler
			 * clears it at every sample). */
			if ((old ^ pmu->event[index]) & ~RVP_MHPMEVENT_OF)
				recompute(pmu);
		}
		break;
	case K_INHIBIT:
		/* Bit 1 (time) does not exist. */
		pmu->mcountinhibit = (uint32_t)val & enable_mask(pmu);
		recompute(pmu);
		break;
	case K_MCOUNTEREN:
		pmu->mcounteren = (uint32_t)val & enable_mask(pmu);
		break;
	case K_SCOUNTEREN:
		pmu->scounteren = (uint32_t)val & enable_mask(pmu);
		break;
	case K_HCOUNTEREN:
		pmu->hcounteren = (uint32_t)val & enable_mask(pmu);
		break;
	default:	/* read-only: level_check refused the write */
		break;
	}
	return HW_ACCESS_OK;
}
