// SPDX-License-Identifier: BSD-2-Clause
/* hart.c - the CSR file and event plumbing of rvp_hart.h. */
#include "rvp_hart.h"

#include "rvperf/csr.h"
#include "rvperf/ctr.h"

/* Smcsrind: *iselect is WARL; the model keeps 12 bits (0..0xFFF). */
#define ISELECT_MASK 0xFFFull

void rvp_hart_config_default(struct rvp_hart_config *cfg,
			     enum rvp_ctr_layout layout)
{
	rvp_ctr_config_default(&cfg->ctr, layout);
	cfg->hpm_counters = 29;
	cfg->smstateen = true;
}

const char *rvp_hart_config_check(const struct rvp_hart_config *cfg)
{
	if (cfg->hpm_counters > 29)
		return "at most 29 hpm counters";
	return rvp_ctr_config_check(&cfg->ctr);
}

static void push_stateen(struct rvp_hart *hart)
{
	uint64_t bit = rvp_ctr_stateen_bit(hart->ctr.cfg.layout);

	if (!hart->smstateen) {
		rvp_ctr_set_stateen(&hart->ctr, true, true);
		return;
	}
	rvp_ctr_set_stateen(&hart->ctr, hart->mstateen0 & bit,
			    !hart->ctr.cfg.h_ext || (hart->hstateen0 & bit));
}

int rvp_hart_init(struct rvp_hart *hart, const struct rvp_hart_config *cfg)
{
	struct rvp_pmu_config pc = {
		.hpm_counters = cfg->hpm_counters,
		.sscofpmf = cfg->ctr.sscofpmf,
		.h_ext = cfg->ctr.h_ext,
		.xlen = cfg->ctr.xlen,
	};

	if (rvp_hart_config_check(cfg))
		return -1;
	if (rvp_ctr_init(&hart->ctr, &cfg->ctr))
		return -1;
	rvp_pmu_init(&hart->pmu, &pc, (void *)0, (void *)0);
	rvp_pred_init(&hart->pred);
	hart->smstateen = cfg->smstateen;
	hart->mstateen0 = hart->hstateen0 = 0;
	hart->miselect = hart->siselect = hart->vsiselect = 0;
	push_stateen(hart);
	return 0;
}

void rvp_hart_set_mode(struct rvp_hart *hart, enum rvp_mode mode)
{
	rvp_ctr_set_mode(&hart->ctr, mode);
}

/* Smstateen bits the model implements in mstateen0 and hstateen0: SE0
 * (bit 63, gates hstateen0), CSRIND (bit 60) and the layout's CTR bit. */
static uint64_t stateen_wmask(const struct rvp_hart *hart)
{
	return RVP_STATEEN0_SE0 | RVP_STATEEN0_CSRIND |
	       rvp_ctr_stateen_bit(hart->ctr.cfg.layout);
}

static bool rv32(const struct rvp_hart *hart)
{
	return hart->ctr.cfg.xlen == 32;
}

static uint64_t merge_half(uint64_t old, uint64_t val, bool high, bool is32)
{
	if (high)
		return (old & 0xFFFFFFFFull) | ((val & 0xFFFFFFFFull) << 32);
	if (is32)
		return (old & ~0xFFFFFFFFull) | (val & 0xFFFFFFFFull);
	return val;
}

/* mstateen0(h), hstateen0(h): *reg points at the register, *high for the
 * RV32 upper half; RVP_ACCESS_OK when the access may proceed. */
static enum rvp_access stateen_reg(struct rvp_hart *hart, unsigned int csrno,
				   uint64_t **reg, bool *high)
{
	enum rvp_mode mode = rvp_hart_mode(hart);
	bool is_h;

	*high = false;
	switch (csrno) {
	case RVP_CSR_MSTATEEN0H:
	case RVP_CSR_HSTATEEN0H:
		if (!rv32(hart))
			return RVP_ACCESS_NOT_MINE;
		*high = true;
		break;
	case RVP_CSR_MSTATEEN0:
	case RVP_CSR_HSTATEEN0:
		break;
	default:
		return RVP_ACCESS_NOT_MINE;
	}
	if (!hart->smstateen)
		return RVP_ACCESS_NOT_MINE;
	is_h = csrno == RVP_CSR_HSTATEEN0 || csrno == RVP_CSR_HSTATEEN0H;
	if (!is_h) {
		*reg = &hart->mstateen0;
		return mode == RVP_MODE_M ? RVP_ACCESS_OK : RVP_ACCESS_ILLEGAL;
	}
	if (!hart->ctr.cfg.h_ext)
		return RVP_ACCESS_NOT_MINE;
	*reg = &hart->hstateen0;
	if (mode == RVP_MODE_M)
		return RVP_ACCESS_OK;
	/* Smstateen: mstateen0.SE0 = 0 makes hstateen0 illegal below M. */
	if (mode == RVP_MODE_U || !(hart->mstateen0 & RVP_STATEEN0_SE0))
		return RVP_ACCESS_ILLEGAL;
	if (rvp_mode_is_virtual(mode))
		return RVP_ACCESS_VIRTUAL;
	return RVP_ACCESS_OK;
}

/* Which *iselect an *ireg or *iselect CSR uses, after the V=1 redirection
 * of siselect/sireg* to vsiselect/vsireg*; 0 when CSRNO is none of them. */
static uint64_t *iselect_of(struct rvp_hart *hart, unsigned int csrno,
			    bool *is_select, unsigned int *level)
{
	unsigned int base = csrno & ~0xFu, off = csrno & 0xF;

	if (base != RVP_CSR_MISELECT && base != RVP_CSR_SISELECT &&
	    base != RVP_CSR_VSISELECT)
		return (void *)0;
	/* *iselect, *ireg..*ireg3, *ireg4..*ireg6 (offset 4 is *iph). */
	if (off > 7 || off == 4)
		return (void *)0;
	*is_select = off == 0;
	*level = (csrno >> 8) & 3;
	if (base == RVP_CSR_MISELECT)
		return &hart->miselect;
	if (base == RVP_CSR_VSISELECT)
		return &hart->vsiselect;
	return rvp_mode_is_virtual(rvp_hart_mode(hart)) ? &hart->vsiselect
							: &hart->siselect;
}

/*
 * Access rules for *iselect and *ireg (Smcsrind/Sscsrind, Smstateen, the
 * H extension's virtual-instruction rules), in priority order: what
 * HS-mode could not do either is illegal (a missing register, an M-level
 * one below M, U-mode, mstateen0.CSRIND = 0, and for the CTR range
 * mstateen0.CTR = 0); what only V=1 forbids is virtual (VU-mode, H-level
 * registers from VS, hstateen0.CSRIND = 0).
 */
static enum rvp_access csrind_check(const struct rvp_hart *hart,
				    unsigned int level, bool ctr_range)
{
	enum rvp_mode mode = rvp_hart_mode(hart);

	if (level == 2 && !hart->ctr.cfg.h_ext)
		return RVP_ACCESS_ILLEGAL;
	if (mode == RVP_MODE_M)
		return RVP_ACCESS_OK;
	if (level == 3 || mode == RVP_MODE_U)
		return RVP_ACCESS_ILLEGAL;
	if (hart->smstateen && !(hart->mstateen0 & RVP_STATEEN0_CSRIND))
		return RVP_ACCESS_ILLEGAL;
	if (ctr_range && !hart->ctr.mstateen_ctr)
		return RVP_ACCESS_ILLEGAL;
	if (mode == RVP_MODE_VU || (mode == RVP_MODE_VS && level == 2))
		return RVP_ACCESS_VIRTUAL;
	if (mode == RVP_MODE_VS && hart->smstateen &&
	    !(hart->hstateen0 & RVP_STATEEN0_CSRIND))
		return RVP_ACCESS_VIRTUAL;
	return RVP_ACCESS_OK;
}

static enum rvp_access csr_access(struct rvp_hart *hart, unsigned int csrno,
				  bool write, uint64_t *val)
{
	enum rvp_mode mode = rvp_hart_mode(hart);
	enum rvp_access acc;
	uint64_t *reg, *sel;
	bool high, is_select;
	unsigned int level;

	acc = write ? rvp_ctr_csr_write(&hart->ctr, csrno, *val)
		    : rvp_ctr_csr_read(&hart->ctr, csrno, val);
	if (acc != RVP_ACCESS_NOT_MINE)
		return acc;
	acc = write ? rvp_pmu_csr_write(&hart->pmu, mode, csrno, *val)
		    : rvp_pmu_csr_read(&hart->pmu, mode, csrno, val);
	if (acc != RVP_ACCESS_NOT_MINE)
		return acc;

	sel = iselect_of(hart, csrno, &is_select, &level);
	if (sel) {
		bool ctr_range = !is_select &&
				 *sel >= RVP_CTR_ISELECT_FIRST &&
				 *sel <= RVP_CTR_ISELECT_LAST;

		acc = csrind_check(hart, level, ctr_range);
		if (acc != RVP_ACCESS_OK)
			return acc;
		if (is_select) {
			if (write)
				*sel = *val & ISELECT_MASK;
			else
				*val = *sel;
			return RVP_ACCESS_OK;
		}
		acc = write ? rvp_ctr_ireg_write(&hart->ctr, csrno,
						 (unsigned int)*sel, *val)
			    : rvp_ctr_ireg_read(&hart->ctr, csrno,
						(unsigned int)*sel, val);
		/* No other indirect register is implemented: Smcsrind
		 * recommends illegal-instruction for such *iselect values. */
		return acc == RVP_ACCESS_NOT_MINE ? RVP_ACCESS_ILLEGAL : acc;
	}

	if (csrno == RVP_CSR_MIP) {
		/* Only LCOFIP is modeled: set by counter overflow (Sscofpmf),
		 * cleared by software. */
		if (mode != RVP_MODE_M)
			return RVP_ACCESS_ILLEGAL;
		if (write)
			hart->pmu.lcofi_pending = *val & RVP_MIP_LCOFIP;
		else
			*val = hart->pmu.lcofi_pending ? RVP_MIP_LCOFIP : 0;
		return RVP_ACCESS_OK;
	}

	acc = stateen_reg(hart, csrno, &reg, &high);
	if (acc == RVP_ACCESS_NOT_MINE)
		return RVP_ACCESS_ILLEGAL;
	if (acc != RVP_ACCESS_OK)
		return acc;
	if (write) {
		uint64_t wmask = stateen_wmask(hart);

		/* hstateen0 bits are read-only 0 where mstateen0's are 0. */
		if (reg == &hart->hstateen0)
			wmask &= hart->mstateen0;
		*reg = merge_half(*reg, *val, high, rv32(hart)) & wmask;
		if (reg == &hart->mstateen0)
			hart->hstateen0 &= hart->mstateen0;
		push_stateen(hart);
	} else {
		*val = high ? *reg >> 32 : rv32(hart) ? *reg & 0xFFFFFFFFull : *reg;
	}
	return RVP_ACCESS_OK;
}

enum rvp_access rvp_hart_csr_read(struct rvp_hart *hart, unsigned int csrno,
				  uint64_t *val)
{
	uint64_t v = 0;
	enum rvp_access acc = csr_access(hart, csrno, false, &v);

	if (acc == RVP_ACCESS_OK)
		*val = v;
	return acc;
}

enum rvp_access rvp_hart_csr_write(struct rvp_hart *hart, unsigned int csrno,
				   uint64_t val)
{
	return csr_access(hart, csrno, true, &val);
}

enum rvp_access rvp_hart_sctrclr(struct rvp_hart *hart)
{
	return rvp_ctr_sctrclr(&hart->ctr);
}

void rvp_hart_transfer(struct rvp_hart *hart, unsigned int type,
		       uint64_t source, uint64_t target)
{
	rvp_hart_transfer_len(hart, type, source, target, 0);
}

void rvp_hart_transfer_len(struct rvp_hart *hart, unsigned int type,
			   uint64_t source, uint64_t target,
			   unsigned int length)
{
	enum rvp_mode mode = rvp_hart_mode(hart);
	bool misp = rvp_pred_update(&hart->pred, type, source, target, length);

	switch (type) {
	case RVP_CTRDATA_TYPE_NOT_TAKEN_BRANCH:
	case RVP_CTRDATA_TYPE_TAKEN_BRANCH:
		rvp_pmu_count(&hart->pmu, mode, RVP_PMU_EVENT_BRANCHES, 1);
		if (type == RVP_CTRDATA_TYPE_TAKEN_BRANCH)
			rvp_pmu_count(&hart->pmu, mode,
				      RVP_PMU_EVENT_TAKEN_BRANCHES, 1);
		if (misp)
			rvp_pmu_count(&hart->pmu, mode,
				      RVP_PMU_EVENT_MISPREDICTS, 1);
		break;
	case RVP_CTRDATA_TYPE_INDIRECT_CALL:
	case RVP_CTRDATA_TYPE_DIRECT_CALL:
		rvp_pmu_count(&hart->pmu, mode, RVP_PMU_EVENT_CALLS, 1);
		break;
	case RVP_CTRDATA_TYPE_FUNCTION_RETURN:
		rvp_pmu_count(&hart->pmu, mode, RVP_PMU_EVENT_RETURNS, 1);
		break;
	default:
		rvp_pmu_count(&hart->pmu, mode, RVP_PMU_EVENT_OTHER_JUMPS, 1);
		break;
	}
	rvp_ctr_transfer(&hart->ctr, type, source, target, misp);
}

void rvp_hart_retire(struct rvp_hart *hart, uint64_t n)
{
	rvp_pmu_count(&hart->pmu, rvp_hart_mode(hart),
		      RVP_PMU_EVENT_INSTRUCTIONS, n);
}

void rvp_hart_cycles(struct rvp_hart *hart, uint64_t n)
{
	rvp_pmu_count(&hart->pmu, rvp_hart_mode(hart), RVP_PMU_EVENT_CYCLES,
		      n);
	rvp_ctr_cycles(&hart->ctr, n);
}

void rvp_hart_trap(struct rvp_hart *hart, bool interrupt, uint64_t cause,
		   enum rvp_mode target, uint64_t epc, uint64_t vector)
{
	rvp_pmu_count(&hart->pmu, rvp_hart_mode(hart),
		      interrupt ? RVP_PMU_EVENT_INTERRUPTS
				: RVP_PMU_EVENT_EXCEPTIONS,
		      1);
	/* Taking the LCOFI clears nothing: software clears LCOFIP. */
	rvp_ctr_trap(&hart->ctr, interrupt, cause, target, epc, vector);
}

void rvp_hart_trap_return(struct rvp_hart *hart, enum rvp_mode target,
			  uint64_t source, uint64_t dest)
{
	rvp_ctr_trap_return(&hart->ctr, target, source, dest);
}
