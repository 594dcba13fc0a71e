// SPDX-License-Identifier: BSD-2-Clause
/*
 * sim_hw.c - the simulated harts and memory behind sbi-sim and the fuzzer.
 *
 * CSR behaviour follows the privileged spec where the core depends on it:
 * unimplemented counters are read-only zero, mcountinhibit bit 1 is
 * read-only zero, mhpmeventNh exists only with Sscofpmf on RV32, the
 * Smcntrpmf cfg CSRs and scountovf exist only with their extensions,
 * sctrdepth.DEPTH is WARL (an unsupported value leaves the old one), and
 * Ssqosid's srmcfg (0x181, the draft CTR's sctrcontrol number) has WARL
 * RCID and MCID fields of 6 bits each.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rvperf/csr.h>
#include <rvperf/ctr.h>
#include "opensbi-ext/core/rvp_sbi_pmu_csr.h"
#include "sim_hw.h"

#define XMASK(h)	((h)->xlen == 32 ? 0xFFFFFFFFULL : ~0ULL)
/* srmcfg's implemented ID bits (RCIDLEN = MCIDLEN = 6). */
#define SRMCFG_WARL	((RVP_SRMCFG_RCID | RVP_SRMCFG_MCID) & 0x003F003FULL)
#define INH_BITS	(RVP_MHPMEVENT_MINH | RVP_MHPMEVENT_SINH | \
			 RVP_MHPMEVENT_UINH | RVP_MHPMEVENT_VSINH | \
			 RVP_MHPMEVENT_VUINH)

static uint64_t width_mask(unsigned int w)
{
	return w >= 64 ? ~0ULL : (1ULL << w) - 1;
}

static unsigned int ctr_width(const struct sim_hart *h, unsigned int n)
{
	return n < 3 ? h->fixed_width : h->hpm_width;
}

static int implemented(const struct sim_hart *h, unsigned int n)
{
	return n < 32 && n != 1 && (h->ctr_mask & (1U << n));
}

/* Bits of mhpmeventN a write can set. */
static uint64_t evt_mask(const struct sim_hart *h)
{
	/* Without Sscofpmf the top byte holds nothing. */
	return h->sscofpmf ? ~0ULL : RVP_SBI_PMU_RAW_V2_EVENT_MASK;
}

static uint64_t ctl_writable(const struct sim_hart *h)
{
	uint64_t m = RVP_CTR_V1_MCTRCTL_U | RVP_CTR_V1_MCTRCTL_S |
		     RVP_CTR_V1_MCTRCTL_RASEMU | RVP_CTR_V1_MCTRCTL_STE |
		     RVP_CTR_V1_MCTRCTL_BPFRZ | RVP_CTR_V1_MCTRCTL_EXCINH |
		     RVP_CTR_V1_MCTRCTL_INTRINH | RVP_CTR_V1_MCTRCTL_TRETINH |
		     RVP_CTR_V1_MCTRCTL_NTBREN | RVP_CTR_V1_MCTRCTL_TKBRINH |
		     RVP_CTR_V1_MCTRCTL_INDCALLINH |
		     RVP_CTR_V1_MCTRCTL_DIRCALLINH |
		     RVP_CTR_V1_MCTRCTL_INDJMPINH |
		     RVP_CTR_V1_MCTRCTL_DIRJMPINH |
		     RVP_CTR_V1_MCTRCTL_CORSWAPINH |
		     RVP_CTR_V1_MCTRCTL_RETINH |
		     RVP_CTR_V1_MCTRCTL_INDLJMPINH |
		     RVP_CTR_V1_MCTRCTL_DIRLJMPINH;

	/* "If the Sscofpmf extension is implemented, LCOFIFRZ must be
	 * writable" (and without it there is no LCOFI to freeze on). */
	if (h->sscofpmf)
		m |= RVP_CTR_V1_MCTRCTL_LCOFIFRZ;
	if (h->ctr_ext == 2)
		m |= RVP_CTR_V1_MCTRCTL_M | RVP_CTR_V1_MCTRCTL_MTE;
	return m;
}

/* ---- the v0.1.4 draft layout: one control register with DEPTH (a
 * thermometer code) and CLR, FROZEN at bit 15, state-enable bit 55. */
static int draft(const struct sim_hart *h)
{
	return h->ctr_layout == RVP_SBI_CTR_LAYOUT_DRAFT;
}

static uint64_t draft_writable(void)
{
	return RVP_CTR_DRAFT_MCTRCONTROL_M | RVP_CTR_DRAFT_MCTRCONTROL_S |
	       RVP_CTR_DRAFT_MCTRCONTROL_U | RVP_CTR_DRAFT_MCTRCONTROL_MTE |
	       RVP_CTR_DRAFT_MCTRCONTROL_STE |
	       RVP_CTR_DRAFT_MCTRCONTROL_RASEMU |
	       RVP_CTR_DRAFT_MCTRCONTROL_BPFRZ |
	       RVP_CTR_DRAFT_MCTRCONTROL_LCOFIFRZ |
	       RVP_CTR_DRAFT_MCTRCONTROL_ETEN | RVP_CTR_DRAFT_MCTRCONTROL_NTBREN |
	       RVP_CTR_DRAFT_MCTRCONTROL_EXCINH |
	       RVP_CTR_DRAFT_MCTRCONTROL_INTRINH |
	       RVP_CTR_DRAFT_MCTRCONTROL_TRETINH |
	       RVP_CTR_DRAFT_MCTRCONTROL_TKBRINH |
	       RVP_CTR_DRAFT_MCTRCONTROL_INDCALLINH |
	       RVP_CTR_DRAFT_MCTRCONTROL_DIRCALLINH |
	       RVP_CTR_DRAFT_MCTRCONTROL_INDJUMPINH |
	       RVP_CTR_DRAFT_MCTRCONTROL_DIRJUMPINH |
	       RVP_CTR_DRAFT_MCTRCONTROL_CORSWAPINH |
	       RVP_CTR_DRAFT_MCTRCONTROL_RETINH |
	       RVP_CTR_DRAFT_MCTRCONTROL_INDOJMPINH |
	       RVP_CTR_DRAFT_MCTRCONTROL_DIROJMPINH;
}

static uint64_t frozen_bit(const struct sim_hart *h)
{
	return draft(h) ? RVP_CTR_DRAFT_MCTRSTATUS_FROZEN
			: RVP_CTR_V1_SCTRSTATUS_FROZEN;
}

static uint64_t draft_ctl_read(const struct sim_hart *h)
{
	return h->csr.ctrctl |
	       (((1ULL << h->csr.ctrdepth) - 1)
		<< RVP_CTR_DRAFT_MCTRCONTROL_DEPTH_SHIFT);
}

/* A write of the control register: M-level bits only through mctrcontrol
 * (MASK), DEPTH if it is a supported thermometer code, CLR clears. */
static void draft_ctl_write(struct sim_hart *h, uint64_t v, uint64_t mask)
{
	uint64_t code = (v & RVP_CTR_DRAFT_MCTRCONTROL_DEPTH) >>
			RVP_CTR_DRAFT_MCTRCONTROL_DEPTH_SHIFT;
	unsigned int n;

	h->csr.ctrctl = (h->csr.ctrctl & ~mask) | (v & mask);
	for (n = 0; n <= 4; n++)
		if (code == (1ULL << n) - 1 && (h->ctr_depths & (1U << n)))
			h->csr.ctrdepth = n;
	if (v & RVP_CTR_DRAFT_MCTRCONTROL_CLR) {
		h->csr.ctr_entries = 0;
		h->csr.ctrstatus = 0;
	}
}

static unsigned int ctr_depth(const struct sim_hart *h)
{
	return 16U << (h->csr.ctrdepth & RVP_CTR_V1_SCTRDEPTH_DEPTH);
}

uint64_t sim_csr_read(struct sim_hart *h, unsigned int csr, int *exists)
{
	unsigned int n;
	uint64_t v = 0;

	*exists = 1;
	if (csr >= RVP_SBI_PMU_CSR_MCOUNTER(0) && csr <= RVP_SBI_PMU_CSR_MCOUNTER(31)) {
		n = csr - RVP_SBI_PMU_CSR_MCOUNTER(0);
		if (n == 1)
			goto missing;
		return h->csr.ctr[n] & XMASK(h);
	}
	if (csr >= RVP_SBI_PMU_CSR_MCOUNTERH(0) &&
	    csr <= RVP_SBI_PMU_CSR_MCOUNTERH(31)) {
		n = csr - RVP_SBI_PMU_CSR_MCOUNTERH(0);
		if (h->xlen != 32 || n == 1)
			goto missing;
		return h->csr.ctr[n] >> 32;
	}
	if (csr >= RVP_SBI_PMU_CSR_UCOUNTER(0) && csr <= RVP_SBI_PMU_CSR_UCOUNTER(31)) {
		n = csr - RVP_SBI_PMU_CSR_UCOUNTER(0);
		return n == 1 ? 0 : h->csr.ctr[n] & XMASK(h);
	}
	if (csr >= RVP_SBI_PMU_CSR_MHPMEVENT(3) && csr <= RVP_SBI_PMU_CSR_MHPMEVENT(31))
		return h->csr.evt[csr - RVP_SBI_PMU_CSR_MHPMEVENT(0)] & XMASK(h);
	if (csr >= RVP_SBI_PMU_CSR_MHPMEVENTH(3) &&
	    csr <= RVP_SBI_PMU_CSR_MHPMEVENTH(31)) {
		if (h->xlen != 32 || !h->sscofpmf)
			goto missing;
		return h->csr.evt[csr - RVP_SBI_PMU_CSR_MHPMEVENTH(0)] >> 32;
	}
	switch (csr) {
	case RVP_CSR_MCOUNTINHIBIT:
		return h->csr.inhibit;
	case RVP_CSR_MCYCLECFG:
	case RVP_CSR_MINSTRETCFG:
		if (!h->smcntrpmf)
			goto missing;
		return h->csr.cfg[csr - RVP_CSR_MCYCLECFG] & XMASK(h);
	case RVP_CSR_MCYCLECFGH:
	case RVP_CSR_MINSTRETCFGH:
		if (!h->smcntrpmf || h->xlen != 32)
			goto missing;
		return h->csr.cfg[csr - RVP_CSR_MCYCLECFGH] >> 32;
	case RVP_CSR_SCOUNTOVF:
		if (!h->sscofpmf)
			goto missing;
		for (n = 3; n < 32; n++)
			if (h->csr.evt[n] & RVP_MHPMEVENT_OF)
				v |= 1ULL << n;
		return v;
	case RVP_CSR_MIP:
		return h->csr.mip & XMASK(h);
	case RVP_CSR_MIDELEG:
		return h->csr.mideleg & XMASK(h);
	case RVP_CSR_MSTATEEN0:
		if (!h->smstateen)
			goto missing;
		return h->csr.mstateen0 & XMASK(h);
	case RVP_CTR_V1_CSR_MCTRCTL:
		if (h->ctr_ext != 2 || draft(h))
			goto missing;
		return h->csr.ctrctl & XMASK(h);
	case RVP_CTR_V1_CSR_SCTRCTL:
		if (!h->ctr_ext || draft(h))
			goto missing;
		return h->csr.ctrctl & ~(RVP_CTR_V1_MCTRCTL_M |
					 RVP_CTR_V1_MCTRCTL_MTE) & XMASK(h);
	case RVP_CTR_V1_CSR_SCTRDEPTH:
		if (!h->ctr_ext || draft(h))
			goto missing;
		return h->csr.ctrdepth;
	case RVP_CTR_V1_CSR_SCTRSTATUS:
		if (!h->ctr_ext || draft(h))
			goto missing;
		return h->csr.ctrstatus;
	case RVP_CTR_DRAFT_CSR_MCTRCONTROL:
	case RVP_CTR_DRAFT_CSR_MCTRSTATUS:
		if (h->ctr_ext != 2 || !draft(h))
			goto missing;
		return csr == RVP_CTR_DRAFT_CSR_MCTRSTATUS ? h->csr.ctrstatus :
		       draft_ctl_read(h) & XMASK(h);
	case RVP_CTR_DRAFT_CSR_SCTRCONTROL:	/* = RVP_CSR_SRMCFG */
		if (h->ssqosid)
			return h->csr.srmcfg & XMASK(h);
		if (!h->ctr_ext || !draft(h))
			goto missing;
		return draft_ctl_read(h) & ~(RVP_CTR_DRAFT_MCTRCONTROL_M |
					     RVP_CTR_DRAFT_MCTRCONTROL_MTE) &
		       XMASK(h);
	case RVP_CTR_DRAFT_CSR_SCTRSTATUS:
		if (!h->ctr_ext || !draft(h))
			goto missing;
		return h->csr.ctrstatus;
	default:
		break;
	}
missing:
	*exists = 0;
	return 0;
}

void sim_csr_write(struct sim_hart *h, unsigned int csr, uint64_t v,
		   int *exists)
{
	unsigned int n;
	uint64_t m;

	*exists = 1;
	v &= XMASK(h);
	if (csr >= RVP_SBI_PMU_CSR_MCOUNTER(0) && csr <= RVP_SBI_PMU_CSR_MCOUNTER(31)) {
		n = csr - RVP_SBI_PMU_CSR_MCOUNTER(0);
		if (n == 1)
			goto missing;
		if (!implemented(h, n))
			return;		/* read-only zero */
		m = h->xlen == 32 ? 0xFFFFFFFFULL : ~0ULL;
		h->csr.ctr[n] = ((h->csr.ctr[n] & ~m) | v) &
				width_mask(ctr_width(h, n));
		return;
	}
	if (csr >= RVP_SBI_PMU_CSR_MCOUNTERH(0) &&
	    csr <= RVP_SBI_PMU_CSR_MCOUNTERH(31)) {
		n = csr - RVP_SBI_PMU_CSR_MCOUNTERH(0);
		if (h->xlen != 32 || n == 1)
			goto missing;
		if (!implemented(h, n))
			return;
		h->csr.ctr[n] = ((h->csr.ctr[n] & 0xFFFFFFFFULL) | (v << 32)) &
				width_mask(ctr_width(h, n));
		return;
	}
	if (csr >= RVP_SBI_PMU_CSR_MHPMEVENT(3) &&
	    csr <= RVP_SBI_PMU_CSR_MHPMEVENT(31)) {
		n = csr - RVP_SBI_PMU_CSR_MHPMEVENT(0);
		if (!implemented(h, n))
			return;
		m = h->xlen == 32 ? 0xFFFFFFFFULL : ~0ULL;
		h->csr.evt[n] = ((h->csr.evt[n] & ~m) | v) & evt_mask(h);
		return;
	}
	if (csr >= RVP_SBI_PMU_CSR_MHPMEVENTH(3) &&
	    csr <= RVP_SBI_PMU_CSR_MHPMEVENTH(31)) {
		n = csr - RVP_SBI_PMU_CSR_MHPMEVENTH(0);
		if (h->xlen != 32 || !h->sscofpmf)
			goto missing;
		if (!implemented(h, n))
			return;
		h->csr.evt[n] = ((h->csr.evt[n] & 0xFFFFFFFFULL) | (v << 32)) &
				evt_mask(h);
		return;
	}
	switch (csr) {
	case RVP_CSR_MCOUNTINHIBIT:
		m = v & h->ctr_mask & ~2ULL;
		/* Counters that start now with OF set (QEMU: no deadline). */
		for (n = 3; n < 32; n++)
			if ((h->csr.inhibit & ~m & (1ULL << n)) &&
			    (h->csr.evt[n] & RVP_MHPMEVENT_OF))
				h->csr.of_starts |= 1ULL << n;
		h->csr.inhibit = m;
		return;
	case RVP_CSR_MCYCLECFG:
	case RVP_CSR_MINSTRETCFG:
		if (!h->smcntrpmf)
			goto missing;
		n = csr - RVP_CSR_MCYCLECFG;
		m = h->xlen == 32 ? 0xFFFFFFFFULL : ~0ULL;
		h->csr.cfg[n] = ((h->csr.cfg[n] & ~m) | v) & INH_BITS;
		return;
	case RVP_CSR_MCYCLECFGH:
	case RVP_CSR_MINSTRETCFGH:
		if (!h->smcntrpmf || h->xlen != 32)
			goto missing;
		n = csr - RVP_CSR_MCYCLECFGH;
		h->csr.cfg[n] = ((h->csr.cfg[n] & 0xFFFFFFFFULL) | (v << 32)) &
				INH_BITS;
		return;
	case RVP_CSR_SCOUNTOVF:
		goto missing;	/* read-only: a write traps */
	case RVP_CSR_MIP:
		/* LCOFIP is writable by M-mode (Sscofpmf). */
		if (h->sscofpmf)
			h->csr.mip = (h->csr.mip & ~RVP_MIP_LCOFIP) |
				     (v & RVP_MIP_LCOFIP);
		return;
	case RVP_CSR_MIDELEG:
		m = RVP_MIP_LCOFIP | 0x222;	/* LCOFI, SSI, STI, SEI */
		if (!h->sscofpmf)
			m &= ~RVP_MIP_LCOFIP;
		h->csr.mideleg = v & m;
		return;
	case RVP_CSR_MSTATEEN0:
		if (!h->smstateen)
			goto missing;
		m = !h->ctr_ext ? 0 : draft(h) ? RVP_CTR_DRAFT_STATEEN0_CTR :
		    RVP_CTR_V1_STATEEN0_CTR;
		if (h->ssqosid)
			m |= RVP_STATEEN0_SRMCFG;
		h->csr.mstateen0 = v & m;
		return;
	case RVP_CTR_DRAFT_CSR_MCTRCONTROL:
		if (h->ctr_ext != 2 || !draft(h))
			goto missing;
		draft_ctl_write(h, v, draft_writable());
		return;
	case RVP_CTR_DRAFT_CSR_SCTRCONTROL:	/* = RVP_CSR_SRMCFG */
		if (h->ssqosid) {
			h->csr.srmcfg = v & SRMCFG_WARL;
			return;
		}
		if (!h->ctr_ext || !draft(h))
			goto missing;
		draft_ctl_write(h, v, draft_writable() &
				~(RVP_CTR_DRAFT_MCTRCONTROL_M |
				  RVP_CTR_DRAFT_MCTRCONTROL_MTE));
		return;
	case RVP_CTR_DRAFT_CSR_MCTRSTATUS:
	case RVP_CTR_DRAFT_CSR_SCTRSTATUS:
		if (!h->ctr_ext || !draft(h) ||
		    (csr == RVP_CTR_DRAFT_CSR_MCTRSTATUS && h->ctr_ext != 2))
			goto missing;
		h->csr.ctrstatus = v & (RVP_CTR_DRAFT_MCTRSTATUS_FROZEN |
					RVP_CTR_DRAFT_MCTRSTATUS_WRAP |
					((uint64_t)ctr_depth(h) - 1));
		return;
	case RVP_CTR_V1_CSR_MCTRCTL:
		if (h->ctr_ext != 2 || draft(h))
			goto missing;
		h->csr.ctrctl = v & ctl_writable(h);
		return;
	case RVP_CTR_V1_CSR_SCTRCTL:
		if (!h->ctr_ext || draft(h))
			goto missing;
		m = ctl_writable(h) & ~(RVP_CTR_V1_MCTRCTL_M |
					RVP_CTR_V1_MCTRCTL_MTE);
		h->csr.ctrctl = (h->csr.ctrctl & ~m) | (v & m);
		return;
	case RVP_CTR_V1_CSR_SCTRDEPTH:
		if (!h->ctr_ext || draft(h))
			goto missing;
		n = v & RVP_CTR_V1_SCTRDEPTH_DEPTH;
		if (h->ctr_depths & (1U << n))
			h->csr.ctrdepth = n;
		return;
	case RVP_CTR_V1_CSR_SCTRSTATUS:
		if (!h->ctr_ext || draft(h))
			goto missing;
		h->csr.ctrstatus = v & (RVP_CTR_V1_SCTRSTATUS_FROZEN |
					((uint64_t)ctr_depth(h) - 1));
		return;
	default:
		break;
	}
missing:
	*exists = 0;
}

/* ------------------------------------------------------------ memory */

uint8_t *sim_mem(struct sim *s, uint64_t addr, uint64_t len,
		 enum sim_region_kind *kind)
{
	unsigned int i;

	for (i = 0; i < s->nr_reg; i++) {
		struct sim_region *r = &s->reg[i];

		if (addr >= r->base && len <= r->size &&
		    addr - r->base <= r->size - len) {
			if (kind)
				*kind = r->kind;
			return r->mem + (addr - r->base);
		}
	}
	return NULL;
}

static int overlaps(uint64_t a, uint64_t alen, uint64_t b, uint64_t blen)
{
	return a < b + blen && b < a + alen;
}

/* S-mode may access [addr, addr + len): inside one RAM region, touching
 * no firmware or MMIO region (regions can be set up to overlap on
 * purpose, so both are checked). */
static int smode_ok(struct sim *s, uint64_t addr, uint64_t len)
{
	enum sim_region_kind kind;
	unsigned int i;

	if (!len || addr + (len - 1) < addr)
		return 0;
	for (i = 0; i < s->nr_reg; i++)
		if (s->reg[i].kind != SIM_RAM &&
		    overlaps(addr, len, s->reg[i].base, s->reg[i].size))
			return 0;
	for (i = 0; i < s->nr_reg; i++) {
		struct sim_region *r = &s->reg[i];

		if (r->kind == SIM_RAM && addr >= r->base &&
		    len <= r->size && addr - r->base <= r->size - len)
			return 1;
	}
	(void)kind;
	return 0;
}

int sim_add_region(struct sim *s, enum sim_region_kind kind, uint64_t base,
		   uint64_t size)
{
	struct sim_region *r;

	if (s->nr_reg >= SIM_MAX_REGIONS) {
		snprintf(s->err, sizeof(s->err), "too many regions");
		return -1;
	}
	if (!size || size > SIM_MAX_REGION_SIZE || base + (size - 1) < base) {
		snprintf(s->err, sizeof(s->err), "bad region size");
		return -1;
	}
	r = &s->reg[s->nr_reg];
	r->mem = calloc(1, size);
	if (!r->mem) {
		snprintf(s->err, sizeof(s->err), "out of memory");
		return -1;
	}
	r->kind = kind;
	r->base = base;
	r->size = size;
	/* A recognisable pattern in memory S-mode must never see changed. */
	if (kind != SIM_RAM)
		memset(r->mem, 0xA5, size);
	s->nr_reg++;
	return 0;
}

/* ------------------------------------------------------------ ops */

static uint64_t op_csr_read(void *ctx, unsigned int csr)
{
	struct sim_hart *h = ctx;
	int exists;
	uint64_t v = sim_csr_read(h, csr, &exists);

	h->csr_reads[csr & 0xFFF]++;
	if (!exists)
		h->illegal_csr++;
	return v;
}

static void op_csr_write(void *ctx, unsigned int csr, uint64_t val)
{
	struct sim_hart *h = ctx;
	int exists;

	sim_csr_write(h, csr, val, &exists);
	h->csr_writes[csr & 0xFFF]++;
	if (!exists)
		h->illegal_csr++;
}

static int op_csr_probe(void *ctx, unsigned int csr, uint64_t *val)
{
	struct sim_hart *h = ctx;
	int exists;

	h->csr_reads[csr & 0xFFF]++;
	*val = sim_csr_read(h, csr, &exists);
	return exists ? 0 : -1;
}

static void log_access(struct sim_hart *h, uint64_t addr, uint64_t len,
		       int write)
{
	if (h->nr_acc < sizeof(h->acc) / sizeof(h->acc[0])) {
		h->acc[h->nr_acc].addr = addr;
		h->acc[h->nr_acc].len = len;
		h->acc[h->nr_acc].write = write;
	}
	h->nr_acc++;
}

static int op_smode_range_ok(void *ctx, uint64_t addr, uint64_t size,
			     int write)
{
	struct sim_hart *h = ctx;

	(void)write;
	return smode_ok(h->sim, addr, size);
}

/* The sim's memory is the host's: a map hands out the backing store.
 * Each map is one entry of the access log ('expect accesses N'). */
static void *op_smode_map(void *ctx, uint64_t addr, uint64_t len, int write)
{
	struct sim_hart *h = ctx;

	log_access(h, addr, len, write);
	if (!smode_ok(h->sim, addr, len)) {
		h->bad_access++;
		return NULL;
	}
	h->mapped++;
	return sim_mem(h->sim, addr, len, NULL);
}

static void op_smode_unmap(void *ctx, uint64_t addr, uint64_t len)
{
	struct sim_hart *h = ctx;

	(void)addr;
	(void)len;
	h->mapped--;
}

static int op_fw_platform_event_ok(void *ctx, uint64_t data)
{
	struct sim_hart *h = ctx;

	return data < h->fw_platform_max;
}

static void op_ctr_clear(void *ctx)
{
	struct sim_hart *h = ctx;

	h->csr.ctr_entries = 0;
}

const struct rvp_sbi_pmu_ops sim_pmu_ops = {
	.csr_read = op_csr_read,
	.csr_write = op_csr_write,
	.csr_probe = op_csr_probe,
	.smode_range_ok = op_smode_range_ok,
	.smode_map = op_smode_map,
	.smode_unmap = op_smode_unmap,
	.fw_platform_event_ok = op_fw_platform_event_ok,
	.ctr_clear = op_ctr_clear,
};

/* ------------------------------------------------------------ harts */

void sim_init(struct sim *s)
{
	memset(s, 0, sizeof(*s));
}

void sim_free(struct sim *s)
{
	unsigned int i;

	for (i = 0; i < s->nr_reg; i++)
		free(s->reg[i].mem);
	s->nr_reg = 0;
}

void sim_hart_defaults(struct sim *s, struct sim_hart *h, unsigned int id)
{
	memset(h, 0, sizeof(*h));
	h->sim = s;
	h->id = id;
	h->xlen = 64;
	/* QEMU virt's default: mcycle, minstret, mhpmcounter3..18. */
	h->ctr_mask = 0x7FFFD;
	h->hpm_width = 64;
	h->fixed_width = 64;
	h->sscofpmf = 1;
	h->smstateen = 1;
	h->ctr_ext = 0;
	h->ctr_depths = 0x1F;
	h->mode = 'S';
	h->plat.num_fw_ctrs = 16;
	h->plat.fw_impl_first = 1;
	h->plat.fw_impl_last = 0;
}

static int parse_u64(const char *v, uint64_t *out)
{
	char *end;

	if (!*v)
		return -1;
	*out = strtoull(v, &end, 0);
	return *end ? -1 : 0;
}

int sim_hart_set(struct sim_hart *h, const char *key, const char *val)
{
	struct sim *s = h->sim;
	uint64_t v = 0, v2 = 0;
	const char *colon;
	char buf[64];

	if (!strcmp(key, "ram") || !strcmp(key, "fwmem") ||
	    !strcmp(key, "mmio")) {
		colon = strchr(val, ':');
		if (!colon || (size_t)(colon - val) >= sizeof(buf))
			goto bad;
		memcpy(buf, val, colon - val);
		buf[colon - val] = 0;
		if (parse_u64(buf, &v) || parse_u64(colon + 1, &v2))
			goto bad;
		return sim_add_region(s, !strcmp(key, "ram") ? SIM_RAM :
				      !strcmp(key, "fwmem") ? SIM_FW : SIM_MMIO,
				      v, v2);
	}
	if (!strcmp(key, "fw_impl")) {
		colon = strchr(val, '-');
		if (!colon || (size_t)(colon - val) >= sizeof(buf))
			goto bad;
		memcpy(buf, val, colon - val);
		buf[colon - val] = 0;
		if (parse_u64(buf, &v) || parse_u64(colon + 1, &v2) ||
		    v > 0xFFFF || v2 > 0xFFFF)
			goto bad;
		h->plat.fw_impl_first = (uint32_t)v;
		h->plat.fw_impl_last = (uint32_t)v2;
		return 0;
	}
	if (!strcmp(key, "mode")) {
		if (strlen(val) != 1 || !strchr("MSUVW", val[0]))
			goto bad;
		h->mode = val[0];
		return 0;
	}
	if (!strcmp(key, "ctr")) {
		if (!strcmp(val, "none"))
			h->ctr_ext = 0;
		else if (!strcmp(val, "ssctr"))
			h->ctr_ext = 1;
		else if (!strcmp(val, "smctr"))
			h->ctr_ext = 2;
		else
			goto bad;
		return 0;
	}
	if (!strcmp(key, "isa") || !strcmp(key, "isa_string")) {
		/* riscv,isa-extensions as a comma list ("none": empty), or a
		 * riscv,isa string; parsed as the hosts parse them. */
		size_t i, n = strlen(val);

		if (n >= sizeof(buf))
			goto bad;
		memcpy(buf, val, n + 1);
		if (!strcmp(key, "isa")) {
			if (!strcmp(val, "none"))
				n = 0;
			for (i = 0; i < n; i++)
				if (buf[i] == ',')
					buf[i] = 0;
			h->isa = rvp_sbi_ctr_isa_parse(buf, (unsigned int)n + !!n,
						       1);
		} else {
			h->isa = rvp_sbi_ctr_isa_parse(buf, (unsigned int)n, 0);
		}
		h->isa_ssqosid = strstr(val, "ssqosid") != NULL;
		h->isa_set = 1;
		return 0;
	}
	if (!strcmp(key, "layout")) {
		if (!strcmp(val, "v1"))
			h->ctr_layout = RVP_SBI_CTR_LAYOUT_V1;
		else if (!strcmp(val, "draft"))
			h->ctr_layout = RVP_SBI_CTR_LAYOUT_DRAFT;
		else
			goto bad;
		return 0;
	}
	if (parse_u64(val, &v))
		goto bad;
	if (!strcmp(key, "id"))
		return 0;	/* chosen by the caller */
	else if (!strcmp(key, "xlen") && (v == 32 || v == 64))
		h->xlen = (unsigned int)v;
	else if (!strcmp(key, "counters") && v <= 0xFFFFFFFFULL)
		h->ctr_mask = (uint32_t)v & ~2U;
	else if (!strcmp(key, "width") && v >= 1 && v <= 64)
		h->hpm_width = (unsigned int)v;
	else if (!strcmp(key, "fixed_width") && v >= 1 && v <= 64)
		h->fixed_width = (unsigned int)v;
	else if (!strcmp(key, "sscofpmf") && v <= 1)
		h->sscofpmf = (int)v;
	else if (!strcmp(key, "smcntrpmf") && v <= 1)
		h->smcntrpmf = (int)v;
	else if (!strcmp(key, "smstateen") && v <= 1)
		h->smstateen = (int)v;
	else if (!strcmp(key, "ssqosid") && v <= 1)
		h->ssqosid = (int)v;
	else if (!strcmp(key, "ctr_draft") && v <= 1)
		h->ctr_policy.draft = (uint8_t)v;
	else if (!strcmp(key, "qemu_quirks") && v <= 1)
		h->plat.qemu_quirks = (uint8_t)v;
	else if (!strcmp(key, "depths") && v && v <= 0x1F)
		h->ctr_depths = (uint32_t)v;
	else if (!strcmp(key, "fw_ctrs") && v <= RVP_SBI_PMU_MAX_FW_CTRS)
		h->plat.num_fw_ctrs = (unsigned int)v;
	else if (!strcmp(key, "fw_platform") && v <= 0xFFFFFFFFULL)
		h->fw_platform_max = (unsigned int)v;
	else if (!strcmp(key, "snapshot") && v <= 1)
		h->plat.no_snapshot = !v;
	else if (!strcmp(key, "event_info") && v <= 1)
		h->plat.no_event_info = !v;
	else if (!strcmp(key, "force_minh") && v <= 1)
		h->plat.force_minh = (uint8_t)v;
	else if (!strcmp(key, "ctr_depth") && v <= 256)
		h->ctr_policy.depth = (unsigned int)v;
	else if (!strcmp(key, "ctr_record_m") && v <= 1)
		h->ctr_policy.record_m = (uint8_t)v;
	else if (!strcmp(key, "ctr_mte") && v <= 1)
		h->ctr_policy.mte = (uint8_t)v;
	else if (!strcmp(key, "ctr_lcofifrz") && v <= 1)
		h->ctr_policy.lcofifrz = (uint8_t)v;
	else
		goto bad;
	return 0;
bad:
	snprintf(s->err, sizeof(s->err), "bad hart setting %s=%s", key, val);
	return -1;
}

int sim_hart_boot(struct sim_hart *h)
{
	struct sim *s = h->sim;
	unsigned int n;

	if (h->ssqosid && h->ctr_ext && draft(h)) {
		snprintf(s->err, sizeof(s->err), "ssqosid and the draft CTR "
			 "layout both claim CSR 0x181");
		return -1;
	}
	/* Undeclared: the ISA string lists what the hart has (the draft
	 * declared as QEMU's model does, in the ratified names). */
	if (!h->isa_set) {
		h->isa = h->ctr_ext == 2 ? RVP_SBI_CTR_ISA_SMCTR |
					   RVP_SBI_CTR_ISA_SSCTR :
			 h->ctr_ext == 1 ? RVP_SBI_CTR_ISA_SSCTR : 0;
		h->isa_ssqosid = h->ssqosid;
	}
	memset(&h->csr, 0, sizeof(h->csr));
	memset(h->csr_reads, 0, sizeof(h->csr_reads));
	memset(h->csr_writes, 0, sizeof(h->csr_writes));
	/* Ssqosid state as the boot left it: some IDs, and mstateen0's
	 * SRMCFG bit where the ISA string declares Ssqosid (OpenSBI sets
	 * it from there before the PMU and CTR init run). */
	if (h->ssqosid) {
		h->csr.srmcfg = 0x00030005ULL & SRMCFG_WARL;
		if (h->isa_ssqosid && h->smstateen)
			h->csr.mstateen0 = RVP_STATEEN0_SRMCFG;
	}
	/* Before discovery the counters hold whatever they hold. */
	for (n = 0; n < 32; n++)
		if (implemented(h, n))
			h->csr.ctr[n] = (0x1000ULL * n + 7) &
					width_mask(ctr_width(h, n));
	/* ... and so do the Smcntrpmf filters (all five inhibits here). */
	if (h->smcntrpmf)
		h->csr.cfg[0] = h->csr.cfg[2] = INH_BITS;
	/* As a firmware boot: one platform description for every hart (the
	 * options of the hart booted last), each hart probing its own
	 * counters in rvp_sbi_pmu_hart_init(). */
	s->plat = h->plat;
	s->plat.xlen = h->xlen;
	s->plat.maps = s->have_maps ? &s->maps : NULL;
	if (rvp_sbi_pmu_hart_init(&h->pmu, &s->plat, &sim_pmu_ops, h)) {
		snprintf(s->err, sizeof(s->err), "PMU init refused the hart");
		return -1;
	}
	h->csr.ctrdepth = 0;
	rvp_sbi_ctr_hart_init(&sim_pmu_ops, h, &h->ctr, &h->ctr_policy, h->isa);
	h->present = 1;
	return 0;
}

/* ------------------------------------------------------------ events */

static int mode_inhibited(const struct sim_hart *h, uint64_t bits)
{
	switch (h->mode) {
	case 'M': return !!(bits & RVP_MHPMEVENT_MINH);
	case 'S': return !!(bits & RVP_MHPMEVENT_SINH);
	case 'U': return !!(bits & RVP_MHPMEVENT_UINH);
	case 'V': return !!(bits & RVP_MHPMEVENT_VSINH);
	default: return !!(bits & RVP_MHPMEVENT_VUINH);
	}
}

static void count(struct sim_hart *h, unsigned int n, uint64_t c)
{
	uint64_t max = width_mask(ctr_width(h, n));
	uint64_t old = h->csr.ctr[n];

	h->csr.ctr[n] = (old + c) & max;
	/* Sscofpmf: a wrap sets OF and, if OF was clear, raises LCOFI. */
	if (n >= 3 && h->sscofpmf && c > max - old) {
		if (!(h->csr.evt[n] & RVP_MHPMEVENT_OF)) {
			h->csr.mip |= RVP_MIP_LCOFIP;
			/* LCOFIFRZ is bit 12 in both layouts. */
			if (h->csr.ctrctl & RVP_CTR_V1_MCTRCTL_LCOFIFRZ)
				h->csr.ctrstatus |= frozen_bit(h);
		}
		h->csr.evt[n] |= RVP_MHPMEVENT_OF;
	}
}

void sim_tick_fixed(struct sim_hart *h, unsigned int n, uint64_t c)
{
	if (!implemented(h, n) || (h->csr.inhibit & (1ULL << n)))
		return;
	if (h->smcntrpmf && mode_inhibited(h, h->csr.cfg[n]))
		return;
	count(h, n, c);
}

void sim_tick_hpm(struct sim_hart *h, uint64_t sel, uint64_t c)
{
	unsigned int n;

	for (n = 3; n < 32; n++) {
		uint64_t ev = h->csr.evt[n];

		if (!implemented(h, n) || (h->csr.inhibit & (1ULL << n)))
			continue;
		if ((ev & RVP_SBI_PMU_RAW_V2_EVENT_MASK) != sel || !sel)
			continue;
		if (h->sscofpmf && mode_inhibited(h, ev))
			continue;
		count(h, n, c);
	}
}

void sim_tick_branch(struct sim_hart *h, uint64_t c)
{
	uint64_t bit;
	unsigned int depth;

	if (!h->ctr_ext || (h->csr.ctrstatus & frozen_bit(h)))
		return;
	if (draft(h))
		bit = h->mode == 'M' ? RVP_CTR_DRAFT_MCTRCONTROL_M :
		      (h->mode == 'S' || h->mode == 'V') ?
		      RVP_CTR_DRAFT_MCTRCONTROL_S : RVP_CTR_DRAFT_MCTRCONTROL_U;
	else
		bit = h->mode == 'M' ? RVP_CTR_V1_MCTRCTL_M :
		      (h->mode == 'S' || h->mode == 'V') ?
		      RVP_CTR_V1_MCTRCTL_S : RVP_CTR_V1_MCTRCTL_U;
	if (!(h->csr.ctrctl & bit))
		return;
	depth = ctr_depth(h);
	h->csr.ctr_entries = c >= depth - h->csr.ctr_entries ? depth :
			     h->csr.ctr_entries + c;
}

struct rvp_sbiret sim_ecall(struct sim_hart *h, uint64_t eid, uint64_t fid,
			    const uint64_t a[6])
{
	struct rvp_sbiret r = { RVP_SBI_ERR_NOT_SUPPORTED, 0 };

	h->nr_acc = 0;
	memset(h->csr_reads, 0, sizeof(h->csr_reads));
	memset(h->csr_writes, 0, sizeof(h->csr_writes));
	if ((eid & XMASK(h)) != RVP_SBI_EXT_PMU)
		return r;
	return rvp_sbi_pmu_ecall(&h->pmu, (unsigned long)(fid & XMASK(h)), a);
}
