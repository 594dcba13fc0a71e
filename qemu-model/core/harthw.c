// SPDX-License-Identifier: BSD-2-Clause
/* harthw.c - the CSR file and event plumbing of harthw.h. */
#include "harthw.h"

#include "rvperf/csr.h"
#include "rvperf/ctr.h"

/* Smcsrind: *iselect is WARL; the model keeps 12 bits (0..0xFFF). */
#define ISELECT_MASK 0xFFFull

void harthw_config_default(struct harthw_config *cfg,
			   enum ctrhw_layout layout)
{
	ctrhw_config_default(&cfg->ctr, layout);
	cfg->hpm_counters = 29;
	cfg->smstateen = true;
}

const char *harthw_config_check(const struct harthw_config *cfg)
{
	if (cfg->hpm_counters > 29)
		return "at most 29 hpm counters";
	return ctrhw_config_check(&cfg->ctr);
}

static void push_stateen(struct harthw *hart)
{
	uint64_t bit = ctrhw_stateen_bit(hart->ctr.cfg.layout);

	if (!hart->smstateen) {
		ctrhw_set_stateen(&hart->ctr, true, true);
		return;
	}
	ctrhw_set_stateen(&hart->ctr, hart->mstateen0 & bit,
			  !hart->ctr.cfg.h_ext || (hart->hstateen0 & bit));
}

int harthw_init(struct harthw *hart, const struct harthw_config *cfg)
{
	struct hpmhw_config pc = {
		.hpm_counters = cfg->hpm_counters,
		.sscofpmf = cfg->ctr.sscofpmf,
		.h_ext = cfg->ctr.h_ext,
		.xlen = cfg->ctr.xlen,
	};

	if (harthw_config_check(cfg))
		return -1;
	if (ctrhw_init(&hart->ctr, &cfg->ctr))
		return -1;
	hpmhw_init(&hart->pmu, &pc, (void *)0, (void *)0);
	predhw_init(&hart->pred);
	hart->smstateen = cfg->smstateen;
	hart->mstateen0 = hart->hstateen0 = 0;
	hart->miselect = hart->siselect = hart->vsiselect = 0;
	push_stateen(hart);
	return 0;
}

void harthw_set_mode(struct harthw *hart, enum hw_mode mode)
{
	ctrhw_set_mode(&hart->ctr, mode);
}

/* Smstateen bits the model implements in mstateen0 and hstateen0: SE0
 * (bit 63, gates hstateen0), CSRIND (bit 60) and the layout's CTR bit. */
static uint64_t stateen_wmask(const struct harthw *hart)
{
	return RVP_STATEEN0_SE0 | RVP_STATEEN0_CSRIND |
	       ctrhw_stateen_bit(hart->ctr.cfg.layout);
}

static bool rv32(const struct harthw *hart)
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
 * RV32 upper half; HW_ACCESS_OK when the access may proceed. */
static enum hw_access stateen_reg(struct harthw *hart, unsigned int csrno,
				  uint64_t **reg, bool *high)
{
	enum hw_mode mode = harthw_mode(hart);
	bool is_h;

	*high = false;
	switch (csrno) {
	case RVP_CSR_MSTATEEN0H:
	case RVP_CSR_HSTATEEN0H:
		if (!rv32(hart))
			return HW_ACCESS_NOT_MINE;
		*high = true;
		break;
	case RVP_CSR_MSTATEEN0:
	case RVP_CSR_HSTATEEN0:
		break;
	default:
		return HW_ACCESS_NOT_MINE;
	}
	if (!hart->smstateen)
		return HW_ACCESS_NOT_MINE;
	is_h = csrno == RVP_CSR_HSTATEEN0 || csrno == RVP_CSR_HSTATEEN0H;
	if (!is_h) {
		*reg = &hart->mstateen0;
		return mode == HW_MODE_M ? HW_ACCESS_OK : HW_ACCESS_ILLEGAL;
	}
	if (!hart->ctr.cfg.h_ext)
		return HW_ACCESS_NOT_MINE;
	*reg = &hart->hstateen0;
	if (mode == HW_MODE_M)
		return HW_ACCESS_OK;
	/* Smstateen: mstateen0.SE0 = 0 makes hstateen0 illegal below M. */
	if (mode == HW_MODE_U || !(hart->mstateen0 & RVP_STATEEN0_SE0))
		return HW_ACCESS_ILLEGAL;
	if (hw_mode_is_virtual(mode))
		return HW_ACCESS_VIRTUAL;
	return HW_ACCESS_OK;
}

/* Which *iselect an *ireg or *iselect CSR uses, after the V=1 redirection
 * of siselect/sireg* to vsiselect/vsireg*; 0 when CSRNO is none of them. */
static uint64_t *iselect_of(struct harthw *hart, unsigned int csrno,
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
	return hw_mode_is_virtual(harthw_mode(hart)) ? &hart->vsiselect
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
static enum hw_access csrind_check(const struct harthw *hart,
				   unsigned int level, bool ctr_range)
{
	enum hw_mode mode = harthw_mode(hart);

	if (level == 2 && !hart->ctr.cfg.h_ext)
		return HW_ACCESS_ILLEGAL;
	if (mode == HW_MODE_M)
		return HW_ACCESS_OK;
	if (level == 3 || mode == HW_MODE_U)
		return HW_ACCESS_ILLEGAL;
	if (hart->smstateen && !(hart->mstateen0 & RVP_STATEEN0_CSRIND))
		return HW_ACCESS_ILLEGAL;
	if (ctr_range && !hart->ctr.mstateen_ctr)
		return HW_ACCESS_ILLEGAL;
	if (mode == HW_MODE_VU || (mode == HW_MODE_VS && level == 2))
		return HW_ACCESS_VIRTUAL;
	if (mode == HW_MODE_VS && hart->smstateen &&
	    !(hart->hstateen0 & RVP_STATEEN0_CSRIND))
		return HW_ACCESS_VIRTUAL;
	return HW_ACCESS_OK;
}

static enum hw_access csr_access(struct harthw *hart, unsigned int csrno,
				 bool write, uint64_t *val)
{
	enum hw_mode mode = harthw_mode(hart);
	enum hw_access acc;
	uint64_t *reg, *sel;
	bool high, is_select;
	unsigned int level;

	acc = write ? ctrhw_csr_write(&hart->ctr, csrno, *val)
		    : ctrhw_csr_read(&hart->ctr, csrno, val);
	if (acc != HW_ACCESS_NOT_MINE)
		return acc;
	acc = write ? hpmhw_csr_write(&hart->pmu, mode, csrno, *val)
		    : hpmhw_csr_read(&hart->pmu, mode, csrno, val);
	if (acc != HW_ACCESS_NOT_MINE)
		return acc;

	sel = iselect_of(hart, csrno, &is_select, &level);
	if (sel) {
		bool ctr_range = !is_select &&
				 *sel >= RVP_CTR_ISELECT_FIRST &&
				 *sel <= RVP_CTR_ISELECT_LAST;

		acc = csrind_check(hart, level, ctr_range);
		if (acc != HW_ACCESS_OK)
			return acc;
		if (is_select) {
			if (write)
				*sel = *val & ISELECT_MASK;
			else
				*val = *sel;
			return HW_ACCESS_OK;
		}
		acc = write ? ctrhw_ireg_write(&hart->ctr, csrno,
					       (unsigned int)*sel, *val)
			    : ctrhw_ireg_read(&hart->ctr, csrno,
					      (unsigned int)*sel, val);
		/* No other indirect register is implemented: Smcsrind
		 * recommends illegal-instruction for such *iselect values. */
		return acc == HW_ACCESS_NOT_MINE ? HW_ACCESS_ILLEGAL : acc;
	}

	if (csrno == RVP_CSR_MIP) {
		/* Only LCOFIP is modeled: set by counter overflow (Sscofpmf),
		 * cleared by software. */
		if (mode != HW_MODE_M)
			return HW_ACCESS_ILLEGAL;
		if (write)
			hart->pmu.lcofi_pending = *val & RVP_MIP_LCOFIP;
		else
			*val = hart->pmu.lcofi_pending ? RVP_MIP_LCOFIP : 0;
		return HW_ACCESS_OK;
	}

	acc = stateen_reg(hart, csrno, &reg, &high);
	if (acc == HW_ACCESS_NOT_MINE)
		return HW_ACCESS_ILLEGAL;
	if (acc != HW_ACCESS_OK)
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
	return HW_ACCESS_OK;
}

enum hw_access harthw_csr_read(struct harthw *hart, unsigned int csrno,
			       uint64_t *val)
{
	uint64_t v = 0;
	enum hw_access acc = csr_access(hart, csrno, false, &v);

	if (acc == HW_ACCESS_OK)
		*val = v;
	return acc;
}

enum hw_access harthw_csr_write(struct harthw *hart, unsigned int csrno,
				uint64_t val)
{
	return csr_access(hart, csrno, true, &val);
}

enum hw_access harthw_sctrclr(struct harthw *hart)
{
	return ctrhw_sctrclr(&hart->ctr);
}

void harthw_transfer(struct harthw *hart, unsigned int type,
		     uint64_t source, uint64_t target)
{
	harthw_transfer_len(hart, type, source, target, 0);
}

void harthw_transfer_len(struct harthw *hart, unsigned int type,
			 uint64_t source, uint64_t target,
			 unsigned int length)
{
	enum hw_mode mode = harthw_mode(hart);
	bool misp = predhw_update(&hart->pred, type, source, target, length);

	switch (type) {
	case RVP_CTRDATA_TYPE_NOT_TAKEN_BRANCH:
	case RVP_CTRDATA_TYPE_TAKEN_BRANCH:
		hpmhw_count(&hart->pmu, mode, HPMHW_EVENT_BRANCHES, 1);
		if (type == RVP_CTRDATA_TYPE_TAKEN_BRANCH)
			hpmhw_count(&hart->pmu, mode,
				    HPMHW_EVENT_TAKEN_BRANCHES, 1);
		if (misp)
			hpmhw_count(&hart->pmu, mode,
				    HPMHW_EVENT_MISPREDICTS, 1);
		break;
	case RVP_CTRDATA_TYPE_INDIRECT_CALL:
	case RVP_CTRDATA_TYPE_DIRECT_CALL:
		hpmhw_count(&hart->pmu, mode, HPMHW_EVENT_CALLS, 1);
		break;
	case RVP_CTRDATA_TYPE_FUNCTION_RETURN:
		hpmhw_count(&hart->pmu, mode, HPMHW_EVENT_RETURNS, 1);
		break;
	default:
		hpmhw_count(&hart->pmu, mode, HPMHW_EVENT_OTHER_JUMPS, 1);
		break;
	}
	ctrhw_transfer(&hart->ctr, type, source, target, misp);
}

void harthw_retire(struct harthw *hart, uint64_t n)
{
	hpmhw_count(&hart->pmu, harthw_mode(hart),
		    HPMHW_EVENT_INSTRUCTIONS, n);
}

void harthw_cycles(struct harthw *hart, uint64_t n)
{
	hpmhw_count(&hart->pmu, harthw_mode(hart), HPMHW_EVENT_CYCLES,
		    n);
	ctrhw_cycles(&hart->ctr, n);
}

void harthw_trap(struct harthw *hart, bool interrupt, uint64_t cause,
		 enum hw_mode target, uint64_t epc, uint64_t vector)
{
	hpmhw_count(&hart->pmu, harthw_mode(hart),
		    interrupt ? HPMHW_EVENT_INTERRUPTS
				: HPMHW_EVENT_EXCEPTIONS,
		      1);
	/* Taking the LCOFI clears nothing: software clears LCOFIP. */
	ctrhw_trap(&hart->ctr, interrupt, cause, target, epc, vector);
}

void harthw_trap_return(struct harthw *hart, enum hw_mode target,
			uint64_t source, uint64_t dest)
{
	ctrhw_trap_return(&hart->ctr, target, source, dest);
}
