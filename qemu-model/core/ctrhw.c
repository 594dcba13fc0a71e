// SPDX-License-Identifier: BSD-2-Clause
/*
 * ctrhw.c - the CTR model (see ctrhw.h).  Both layouts share one state
 * struct; a layout descriptor says where each field sits and which CSR
 * numbers exist, so recording logic never tests the layout itself.
 */
#include "ctrhw.h"

#include "rvperf/ctr.h"

/* Where a layout puts things.  Control fields are masks in mctrctl. */
struct ctrhw_layout_desc {
	unsigned int csr_mctl, csr_sctl, csr_vsctl;
	unsigned int csr_mctlh, csr_sctlh, csr_vsctlh;	/* RV32 only; 0: none */
	unsigned int csr_mstatus;	/* 0: none (ratified) */
	unsigned int csr_sstatus;
	unsigned int csr_depth;		/* 0: none (draft: DEPTH in the control) */
	uint64_t m, s, u, rasemu, ste, mte, bpfrz, lcofifrz, eten;
	uint64_t clr, depth;		/* draft only; 0 in ratified */
	unsigned int depth_shift;
	uint64_t required;		/* always writable */
	uint64_t optional;		/* writable when implemented */
	uint64_t ntbren;
	uint64_t inhibit[16];		/* xxxINH bit of each TYPE, 0: none */
	uint64_t status_wrptr, status_wrap, status_frozen;
	uint64_t stateen_ctr;
	bool mireg_entries;		/* draft: miselect reaches the entries */
	bool sctrclr;			/* ratified: the SCTRCLR instruction */
};

#define V1(x) RVP_CTR_V1_MCTRCTL_##x
static const struct ctrhw_layout_desc layout_ratified = {
	.csr_mctl = RVP_CTR_V1_CSR_MCTRCTL,
	.csr_sctl = RVP_CTR_V1_CSR_SCTRCTL,
	.csr_vsctl = RVP_CTR_V1_CSR_VSCTRCTL,
	.csr_sstatus = RVP_CTR_V1_CSR_SCTRSTATUS,
	.csr_depth = RVP_CTR_V1_CSR_SCTRDEPTH,
	.m = V1(M), .s = V1(S), .u = V1(U), .rasemu = V1(RASEMU),
	.ste = V1(STE), .mte = V1(MTE), .bpfrz = V1(BPFRZ),
	.lcofifrz = V1(LCOFIFRZ),
	/* "All fields are optional except for M, S, U, and BPFRZ." */
	.required = V1(M) | V1(S) | V1(U) | V1(BPFRZ),
	.optional = V1(RASEMU) | V1(STE) | V1(MTE) | V1(LCOFIFRZ) |
		    V1(EXCINH) | V1(INTRINH) | V1(TRETINH) | V1(NTBREN) |
		    V1(TKBRINH) | V1(INDCALLINH) | V1(DIRCALLINH) |
		    V1(INDJMPINH) | V1(DIRJMPINH) | V1(CORSWAPINH) |
		    V1(RETINH) | V1(INDLJMPINH) | V1(DIRLJMPINH),
	.ntbren = V1(NTBREN),
	.inhibit = {
		[RVP_CTRDATA_TYPE_EXCEPTION] = V1(EXCINH),
		[RVP_CTRDATA_TYPE_INTERRUPT] = V1(INTRINH),
		[RVP_CTRDATA_TYPE_TRAP_RETURN] = V1(TRETINH),
		[RVP_CTRDATA_TYPE_TAKEN_BRANCH] = V1(TKBRINH),
		[RVP_CTRDATA_TYPE_INDIRECT_CALL] = V1(INDCALLINH),
		[RVP_CTRDATA_TYPE_DIRECT_CALL] = V1(DIRCALLINH),
		[RVP_CTRDATA_TYPE_INDIRECT_JUMP] = V1(INDJMPINH),
		[RVP_CTRDATA_TYPE_DIRECT_JUMP] = V1(DIRJMPINH),
		[RVP_CTRDATA_TYPE_COROUTINE_SWAP] = V1(CORSWAPINH),
		[RVP_CTRDATA_TYPE_FUNCTION_RETURN] = V1(RETINH),
		[RVP_CTRDATA_TYPE_OTHER_INDIRECT_JUMP] = V1(INDLJMPINH),
		[RVP_CTRDATA_TYPE_OTHER_DIRECT_JUMP] = V1(DIRLJMPINH),
	},
	.status_wrptr = RVP_CTR_V1_SCTRSTATUS_WRPTR,
	.status_frozen = RVP_CTR_V1_SCTRSTATUS_FROZEN,
	.stateen_ctr = RVP_CTR_V1_STATEEN0_CTR,
	.sctrclr = true,
};
#undef V1

#define DR(x) RVP_CTR_DRAFT_MCTRCONTROL_##x
static const struct ctrhw_layout_desc layout_draft = {
	.csr_mctl = RVP_CTR_DRAFT_CSR_MCTRCONTROL,
	.csr_sctl = RVP_CTR_DRAFT_CSR_SCTRCONTROL,
	.csr_vsctl = RVP_CTR_DRAFT_CSR_VSCTRCONTROL,
	.csr_mctlh = RVP_CTR_DRAFT_CSR_MCTRCONTROLH,
	.csr_sctlh = RVP_CTR_DRAFT_CSR_SCTRCONTROLH,
	.csr_vsctlh = RVP_CTR_DRAFT_CSR_VSCTRCONTROLH,
	.csr_mstatus = RVP_CTR_DRAFT_CSR_MCTRSTATUS,
	.csr_sstatus = RVP_CTR_DRAFT_CSR_SCTRSTATUS,
	.m = DR(M), .s = DR(S), .u = DR(U), .rasemu = DR(RASEMU),
	.ste = DR(STE), .mte = DR(MTE), .bpfrz = DR(BPFRZ),
	.lcofifrz = DR(LCOFIFRZ), .eten = DR(ETEN),
	.clr = DR(CLR), .depth = DR(DEPTH), .depth_shift = DR(DEPTH_SHIFT),
	/* draft 2.1: "M, CLR, and DEPTH are required fields.  S is required
	 * if S-mode is implemented, and U ... if U-mode is implemented."
	 * CLR and DEPTH are handled apart from the stored bits. */
	.required = DR(M) | DR(S) | DR(U),
	.optional = DR(MTE) | DR(STE) | DR(RASEMU) | DR(BPFRZ) |
		    DR(LCOFIFRZ) | DR(EXCINH) | DR(INTRINH) | DR(TRETINH) |
		    DR(NTBREN) | DR(TKBRINH) | DR(ETEN) | DR(INDCALLINH) |
		    DR(DIRCALLINH) | DR(INDJUMPINH) | DR(DIRJUMPINH) |
		    DR(CORSWAPINH) | DR(RETINH) | DR(INDOJMPINH) |
		    DR(DIROJMPINH),
	.ntbren = DR(NTBREN),
	.inhibit = {
		[RVP_CTRDATA_TYPE_EXCEPTION] = DR(EXCINH),
		[RVP_CTRDATA_TYPE_INTERRUPT] = DR(INTRINH),
		[RVP_CTRDATA_TYPE_TRAP_RETURN] = DR(TRETINH),
		[RVP_CTRDATA_TYPE_TAKEN_BRANCH] = DR(TKBRINH),
		[RVP_CTRDATA_TYPE_INDIRECT_CALL] = DR(INDCALLINH),
		[RVP_CTRDATA_TYPE_DIRECT_CALL] = DR(DIRCALLINH),
		[RVP_CTRDATA_TYPE_INDIRECT_JUMP] = DR(INDJUMPINH),
		[RVP_CTRDATA_TYPE_DIRECT_JUMP] = DR(DIRJUMPINH),
		[RVP_CTRDATA_TYPE_COROUTINE_SWAP] = DR(CORSWAPINH),
		[RVP_CTRDATA_TYPE_FUNCTION_RETURN] = DR(RETINH),
		[RVP_CTRDATA_TYPE_OTHER_INDIRECT_JUMP] = DR(INDOJMPINH),
		[RVP_CTRDATA_TYPE_OTHER_DIRECT_JUMP] = DR(DIROJMPINH),
	},
	.status_wrptr = RVP_CTR_DRAFT_MCTRSTATUS_WRPTR,
	.status_wrap = RVP_CTR_DRAFT_MCTRSTATUS_WRAP,
	.status_frozen = RVP_CTR_DRAFT_MCTRSTATUS_FROZEN,
	.stateen_ctr = RVP_CTR_DRAFT_STATEEN0_CTR,
	.mireg_entries = true,
};
#undef DR

/* Transfer types that stay within a mode, i.e. everything but traps and
 * trap returns (which ctrhw_trap/_trap_return handle). */
#define TYPE_BIT(t) (1u << (t))
#define INMODE_TYPES                                                         \
	(TYPE_BIT(RVP_CTRDATA_TYPE_NOT_TAKEN_BRANCH) |                       \
	 TYPE_BIT(RVP_CTRDATA_TYPE_TAKEN_BRANCH) |                           \
	 TYPE_BIT(RVP_CTRDATA_TYPE_INDIRECT_CALL) |                          \
	 TYPE_BIT(RVP_CTRDATA_TYPE_DIRECT_CALL) |                            \
	 TYPE_BIT(RVP_CTRDATA_TYPE_INDIRECT_JUMP) |                          \
	 TYPE_BIT(RVP_CTRDATA_TYPE_DIRECT_JUMP) |                            \
	 TYPE_BIT(RVP_CTRDATA_TYPE_COROUTINE_SWAP) |                         \
	 TYPE_BIT(RVP_CTRDATA_TYPE_FUNCTION_RETURN) |                        \
	 TYPE_BIT(RVP_CTRDATA_TYPE_OTHER_INDIRECT_JUMP) |                    \
	 TYPE_BIT(RVP_CTRDATA_TYPE_OTHER_DIRECT_JUMP))
/* "RAS Emulation Mode": calls, returns and co-routine swaps only. */
#define RASEMU_TYPES                                                         \
	(TYPE_BIT(RVP_CTRDATA_TYPE_INDIRECT_CALL) |                          \
	 TYPE_BIT(RVP_CTRDATA_TYPE_DIRECT_CALL) |                            \
	 TYPE_BIT(RVP_CTRDATA_TYPE_COROUTINE_SWAP) |                         \
	 TYPE_BIT(RVP_CTRDATA_TYPE_FUNCTION_RETURN))


/* The CC field saturates well below this; the counter must not wrap. */
#define CYCLE_COUNTER_CAP 0xFFFFFFFFull

static const struct ctrhw_layout_desc *layout_of(enum ctrhw_layout l)
{
	return l == CTRHW_LAYOUT_DRAFT ? &layout_draft : &layout_ratified;
}

uint64_t ctrhw_optional_fields(enum ctrhw_layout layout)
{
	return layout_of(layout)->optional;
}

uint64_t ctrhw_stateen_bit(enum ctrhw_layout layout)
{
	return layout_of(layout)->stateen_ctr;
}

void ctrhw_config_default(struct ctrhw_config *cfg,
			  enum ctrhw_layout layout)
{
	cfg->layout = layout;
	cfg->ctl_optional = ctrhw_optional_fields(layout);
	cfg->depth_min = 16;
	cfg->depth_max = 256;
	cfg->cycle_counting = true;
	cfg->cce_bits = 4;
	cfg->type_field = true;
	cfg->misp = false;
	cfg->h_ext = true;
	cfg->sscofpmf = true;
	cfg->xlen = 64;
}

static int depth_log_of(unsigned int depth)
{
	for (int i = 0; i <= 4; i++)
		if (depth == 16u << i)
			return i;
	return -1;
}

const char *ctrhw_config_check(const struct ctrhw_config *cfg)
{
	const struct ctrhw_layout_desc *lay;
	uint64_t opt;
	int lo, hi;

	if (cfg->layout != CTRHW_LAYOUT_RATIFIED &&
	    cfg->layout != CTRHW_LAYOUT_DRAFT)
		return "unknown layout";
	lay = layout_of(cfg->layout);
	opt = cfg->ctl_optional & lay->optional;
	lo = depth_log_of(cfg->depth_min);
	hi = depth_log_of(cfg->depth_max);
	if (lo < 0 || hi < 0)
		return "depths must be 16, 32, 64, 128 or 256";
	if (lo > hi)
		return "minimum depth above maximum depth";
	if (cfg->cce_bits > 4)
		return "at most 4 CCE bits";
	if (cfg->xlen != 32 && cfg->xlen != 64)
		return "xlen must be 32 or 64";
	if (cfg->layout == CTRHW_LAYOUT_RATIFIED) {
		/* "External Traps": MTE and STE come together. */
		if (!(opt & lay->mte) != !(opt & lay->ste))
			return "MTE and STE must be implemented together";
		/* mctrctl: "If the Sscofpmf extension is implemented,
		 * LCOFIFRZ must be writable." */
		if (cfg->sscofpmf && !(opt & lay->lcofifrz))
			return "LCOFIFRZ is required with Sscofpmf";
	} else {
		/* draft 5.2.1: "If ETEN is implemented, MTE must be
		 * implemented as well, as must STE ..." */
		if ((opt & lay->eten) &&
		    (opt & (lay->mte | lay->ste)) != (lay->mte | lay->ste))
			return "ETEN requires MTE and STE";
	}
	return (void *)0;
}

unsigned int ctrhw_depth(const struct ctrhw *ctr)
{
	return 16u << ctr->depth_log;
}

static unsigned int depth_mask(const struct ctrhw *ctr)
{
	return (16u << ctr->depth_log) - 1;
}

bool ctrhw_mode_enabled(const struct ctrhw *ctr, enum hw_mode mode)
{
	const struct ctrhw_layout_desc *lay = ctr->lay;

	switch (mode) {
	case HW_MODE_M:
		return ctr->mctl & lay->m;
	case HW_MODE_S:
		return ctr->mctl & lay->s;
	case HW_MODE_U:
		return ctr->mctl & lay->u;
	case HW_MODE_VS:	/* vsctrctl.S sits where sctrctl.S does */
		return ctr->vsctl & lay->s;
	case HW_MODE_VU:
		return ctr->vsctl & lay->u;
	}
	return false;
}

/* The control register whose filter bits apply: vsctrctl when V=1
 * ("CSRs"; draft chapter 2: "ctrcontrol" is the active one). */
static uint64_t active_ctl(const struct ctrhw *ctr, enum hw_mode mode)
{
	return hw_mode_is_virtual(mode) ? ctr->vsctl : ctr->mctl;
}

/* Types recorded under control register CTL ("Transfer Type Filtering",
 * "RAS Emulation Mode"), traps and trap returns included. */
static uint32_t accepted_types(const struct ctrhw *ctr, uint64_t ctl)
{
	const struct ctrhw_layout_desc *lay = ctr->lay;
	uint32_t types = 0;

	if (ctl & lay->rasemu)
		return RASEMU_TYPES;
	for (unsigned int t = 1; t < 16; t++) {
		if (t == RVP_CTRDATA_TYPE_NOT_TAKEN_BRANCH) {
			if (ctl & lay->ntbren)
				types |= TYPE_BIT(t);
		} else if (t == 6 || t == 7) {
			continue;	/* reserved encodings */
		} else if (!(ctl & lay->inhibit[t])) {
			types |= TYPE_BIT(t);
		}
	}
	return types;
}

/* The fast-path masks follow the mode, the control registers, FROZEN. */
static void recompute(struct ctrhw *ctr)
{
	bool active = !ctr->frozen && ctrhw_mode_enabled(ctr, ctr->mode);

	ctr->accept = active ? accepted_types(ctr, active_ctl(ctr, ctr->mode)) &
				       INMODE_TYPES
			     : 0;
	ctr->counting = active && ctr->cfg.cycle_counting;
}

int ctrhw_init(struct ctrhw *ctr, const struct ctrhw_config *cfg)
{
	const struct ctrhw_layout_desc *lay;
	unsigned char *p = (unsigned char *)ctr;

	if (ctrhw_config_check(cfg))
		return -1;
	for (unsigned long i = 0; i < sizeof(*ctr); i++)
		p[i] = 0;
	lay = layout_of(cfg->layout);
	ctr->lay = lay;
	ctr->cfg = *cfg;
	ctr->mode = HW_MODE_M;
	ctr->mstateen_ctr = ctr->hstateen_ctr = true;
	ctr->depth_log_min = (unsigned int)depth_log_of(cfg->depth_min);
	ctr->depth_log_max = (unsigned int)depth_log_of(cfg->depth_max);
	ctr->depth_log = ctr->depth_log_min;
	ctr->mctl_wmask = lay->required | (cfg->ctl_optional & lay->optional);
	/* vsctrctl: no M, no MTE ("vsctrctl" register diagram); its optional
	 * fields match sctrctl's. */
	ctr->vsctl_wmask = ctr->mctl_wmask & ~(lay->m | lay->mte);
	ctr->xlen_mask = cfg->xlen == 32 ? 0xFFFFFFFFull : ~0ull;
	ctr->target_wmask = ~(uint64_t)RVP_CTRTARGET_MISP |
			    (cfg->misp ? RVP_CTRTARGET_MISP : 0);
	ctr->data_wmask = 0;
	if (cfg->type_field)
		ctr->data_wmask |= RVP_CTRDATA_TYPE;
	if (cfg->cycle_counting)
		/* CCV, all 12 CCM bits, the low cce_bits of CCE. */
		ctr->data_wmask |= RVP_CTRDATA_CCV |
			((((1ull << (12 + cfg->cce_bits)) - 1))
			 << RVP_CTRDATA_CC_SHIFT);
	/* Unknown count at reset: the first record says so. */
	ctr->ccv_valid = false;
	recompute(ctr);
	return 0;
}

void ctrhw_set_mode(struct ctrhw *ctr, enum hw_mode mode)
{
	ctr->mode = mode;
	recompute(ctr);
}

void ctrhw_set_stateen(struct ctrhw *ctr, bool mstateen_ctr,
		       bool hstateen_ctr)
{
	ctr->mstateen_ctr = mstateen_ctr;
	/* Smstateen: hstateen0.CTR is read-only 0 while mstateen0.CTR=0. */
	ctr->hstateen_ctr = mstateen_ctr && hstateen_ctr;
}

/* ------------------------------------------------------------ recording */

/* "Cycle Counting": CCE = 0 below 4096, else the index of the most
 * significant one minus 11, and CCM = counter[CCE+10:CCE-1]; saturates
 * when every implemented CCE and CCM bit is 1. */
static uint64_t cc_encode(uint64_t count, unsigned int cce_bits)
{
	unsigned int cce_max = (1u << cce_bits) - 1, msb, cce;

	if (count < 4096)
		return count;
	msb = 63 - (unsigned int)__builtin_clzll(count);
	cce = msb - 11;
	if (cce > cce_max)
		return ((uint64_t)cce_max << 12) | 0xFFF;
	return ((uint64_t)cce << 12) | ((count >> (cce - 1)) & 0xFFF);
}

static uint64_t record_data(struct ctrhw *ctr, unsigned int type)
{
	uint64_t data = 0;

	if (ctr->cfg.type_field)
		data |= (uint64_t)type << RVP_CTRDATA_TYPE_SHIFT;
	if (ctr->cfg.cycle_counting) {
		data |= cc_encode(ctr->cycle_counter, ctr->cfg.cce_bits)
			<< RVP_CTRDATA_CC_SHIFT;
		if (ctr->ccv_valid)
			data |= RVP_CTRDATA_CCV;
	}
	/* The count restarts with every record. */
	ctr->cycle_counter = 0;
	ctr->ccv_valid = true;
	return data;
}

static void fill(struct ctrhw *ctr, struct ctrhw_entry *e,
		 unsigned int type, uint64_t source, uint64_t target,
		 bool misp)
{
	e->source = ((source & ~1ull) | RVP_CTRSOURCE_V) &
		    ctr->xlen_mask;
	e->target = ((target & ~1ull) &
		     ctr->xlen_mask) |
		    (misp && ctr->cfg.misp ? RVP_CTRTARGET_MISP : 0);
	e->data = record_data(ctr, type);
}

/* "Behavior": a qualified transfer goes to the WRPTR entry, which becomes
 * logical entry 0; WRPTR then advances (draft: WRAP on wrapping). */
static void push_record(struct ctrhw *ctr, unsigned int type,
			uint64_t source, uint64_t target, bool misp)
{
	fill(ctr, &ctr->entry[ctr->wrptr], type, source, target, misp);
	if (ctr->wrptr == depth_mask(ctr)) {
		ctr->wrptr = 0;
		ctr->wrap = true;
	} else {
		ctr->wrptr++;
	}
}

void ctrhw_transfer_slow(struct ctrhw *ctr, unsigned int type,
			 uint64_t source, uint64_t target, bool misp)
{
	if (active_ctl(ctr, ctr->mode) & ctr->lay->rasemu) {
		unsigned int mask = depth_mask(ctr);

		if (type == RVP_CTRDATA_TYPE_FUNCTION_RETURN) {
			/* Pop: decrement WRPTR, invalidate that entry.  The
			 * count is not reset; the popped call's cycles are
			 * not carried, so the next record says CCV=0 (the
			 * simplification the RASEMU note allows). */
			if (ctr->wrptr == 0)
				ctr->wrap = false;	/* draft 2.4 */
			ctr->wrptr = (ctr->wrptr - 1) & mask;
			ctr->entry[ctr->wrptr].source &=
				~(uint64_t)RVP_CTRSOURCE_V;
			ctr->ccv_valid = false;
			return;
		}
		if (type == RVP_CTRDATA_TYPE_COROUTINE_SWAP) {
			/* Overwrite logical entry 0; WRPTR stays. */
			fill(ctr, &ctr->entry[(ctr->wrptr - 1) & mask], type,
			     source, target, misp);
			return;
		}
	}
	push_record(ctr, type, source, target, misp);
}

void ctrhw_transfers_untimed(struct ctrhw *ctr, const struct hw_xfer *x,
			     unsigned int n)
{
	uint32_t accept = ctr->accept;
	unsigned int i = 0, kept = 0, skip = 0, mask = depth_mask(ctr);

	if (!n)
		return;
	if (accept && (active_ctl(ctr, ctr->mode) & ctr->lay->rasemu)) {
		/* Returns pop entries: every record counts. */
		for (; i < n; i++) {
			if (ctr->counting)
				ctr->ccv_valid = false;
			ctrhw_transfer(ctr, x[i].type, x[i].source,
				       x[i].target, x[i].misp);
		}
		return;
	}
	/* From the newest back to the DEPTH newest records recorded, which
	 * are the ones written; the older ones are only counted. */
	for (i = n; i > 0 && kept <= mask;)
		kept += (accept >> (x[--i].type & 15)) & 1;
	if (!kept) {
		/* ctrhw_cycles_lost() for each: nothing else happens */
		if (ctr->counting)
			ctr->ccv_valid = false;
		return;
	}
	for (unsigned int j = 0; j < i; j++)
		skip += (accept >> (x[j].type & 15)) & 1;
	if (skip) {
		/* Overwritten before anything can read them: they only move
		 * WRPTR (WRAP once it passes the end) and restart the cycle
		 * count, as each record does. */
		if (ctr->wrptr + skip > mask)
			ctr->wrap = true;
		ctr->wrptr = (ctr->wrptr + skip) & mask;
		ctr->cycle_counter = 0;
		ctr->ccv_valid = true;
	}
	/* The first record left takes the cycle count so far (push_record);
	 * the later ones follow a record with no cycles known in between:
	 * CC = 0 and CCV = 0, just the TYPE. */
	for (; !((accept >> (x[i].type & 15)) & 1); i++)
		;
	if (ctr->counting)
		ctr->ccv_valid = false;
	push_record(ctr, x[i].type & 15, x[i].source, x[i].target,
		    x[i].misp);
	{
		uint64_t xmask = ctr->xlen_mask;
		uint64_t misp_bit = ctr->cfg.misp ? RVP_CTRTARGET_MISP : 0;
		bool type_field = ctr->cfg.type_field;
		unsigned int w = ctr->wrptr;
		bool wrapped = false;

		for (i++; i < n; i++) {
			unsigned int type = x[i].type & 15;
			struct ctrhw_entry *e = &ctr->entry[w];

			if (!((accept >> type) & 1))
				continue;
			e->source = ((x[i].source & ~1ull) | RVP_CTRSOURCE_V) &
				    xmask;
			e->target = (x[i].target & ~1ull & xmask) |
				    (x[i].misp ? misp_bit : 0);
			e->data = type_field ? (uint64_t)type <<
					       RVP_CTRDATA_TYPE_SHIFT : 0;
			wrapped |= w == mask;
			w = (w + 1) & mask;
		}
		ctr->wrptr = w;
		ctr->wrap |= wrapped;
		/* what record_data() leaves */
		ctr->cycle_counter = 0;
		ctr->ccv_valid = true;
	}
	/* ctrhw_cycles_lost() before a last transfer not recorded */
	if (ctr->counting && !((accept >> (x[n - 1].type & 15)) & 1))
		ctr->ccv_valid = false;
}

void ctrhw_transfers_timed(struct ctrhw *ctr, const struct hw_xfer_timed *x,
			   unsigned int n, uint64_t *mark)
{
	/* Returns pop entries under RAS emulation: ctrhw_transfer_slow()'s
	 * way; otherwise one push each, with no call between (bzip2 at the
	 * default period: 17 a sample). */
	bool rasemu = active_ctl(ctr, ctr->mode) & ctr->lay->rasemu;
	uint64_t m = *mark;
	unsigned int i;

	for (i = 0; i < n; i++) {
		ctrhw_cycles(ctr, x[i].stamp - m);
		m = x[i].stamp;
		if (rasemu)
			ctrhw_transfer_slow(ctr, (unsigned int)x[i].type,
					    x[i].source, x[i].target, false);
		else
			push_record(ctr, (unsigned int)x[i].type, x[i].source,
				    x[i].target, false);
	}
	*mark = m;
}

void ctrhw_cycles_slow(struct ctrhw *ctr, uint64_t n)
{
	uint64_t c = ctr->cycle_counter + n;

	if (c < n || c > CYCLE_COUNTER_CAP)
		c = CYCLE_COUNTER_CAP;
	ctr->cycle_counter = c;
}

void ctrhw_cycles_lost(struct ctrhw *ctr)
{
	ctr->ccv_valid = false;
}

/* "External Traps": the xTE bits a trap from SRC to DST needs, the
 * intervening modes' included (ratified table "External Trap Enable
 * Requirements"); draft 5.2.1: ETEN and the target's xTE only. */
static bool external_trap_enabled(const struct ctrhw *ctr,
				  enum hw_mode src, enum hw_mode dst,
				  uint64_t cfg_ctl)
{
	const struct ctrhw_layout_desc *lay = ctr->lay;
	bool mte = ctr->mctl & lay->mte;
	bool ste = ctr->mctl & lay->ste;
	bool vste = ctr->vsctl & lay->ste;

	if (ctr->cfg.layout == CTRHW_LAYOUT_DRAFT) {
		if (!(cfg_ctl & lay->eten))
			return false;
		return dst == HW_MODE_M ? mte : dst == HW_MODE_S ? ste : vste;
	}
	switch (dst) {
	case HW_MODE_M:
		return mte && (src == HW_MODE_S || ste) &&
		       (src != HW_MODE_VU || vste);
	case HW_MODE_S:
		return ste && (src != HW_MODE_VU || vste);
	case HW_MODE_VS:
		return vste;
	default:
		return false;
	}
}

void ctrhw_trap(struct ctrhw *ctr, bool interrupt, uint64_t cause,
		enum hw_mode target, uint64_t epc, uint64_t vector)
{
	const struct ctrhw_layout_desc *lay = ctr->lay;
	enum hw_mode src = ctr->mode;
	unsigned int type = interrupt ? RVP_CTRDATA_TYPE_INTERRUPT
				      : RVP_CTRDATA_TYPE_EXCEPTION;
	/* "Freeze": the freeze bits of the target mode's register
	 * (vsctrctl for traps to VS, sctrctl = mctrctl's bits for HS and
	 * M; "Virtualization Mode Transitions"). */
	uint64_t tgt_ctl = target == HW_MODE_VS ? ctr->vsctl : ctr->mctl;
	/* Every other field: vsctrctl whenever V=1 on either side. */
	uint64_t cfg_ctl = hw_mode_is_virtual(src) ||
				   hw_mode_is_virtual(target)
			   ? ctr->vsctl
			   : ctr->mctl;
	bool src_en, dst_en;

	ctr->mode = target;
	if ((interrupt && cause == RVP_IRQ_LCOFI && (tgt_ctl & lay->lcofifrz)) ||
	    (!interrupt && cause == RVP_EXC_BREAKPOINT &&
	     (tgt_ctl & lay->bpfrz))) {
		/* The freezing trap itself is not recorded. */
		ctr->frozen = true;
		recompute(ctr);
		return;
	}
	if (!ctr->frozen && !(cfg_ctl & lay->rasemu)) {
		src_en = ctrhw_mode_enabled(ctr, src);
		dst_en = ctrhw_mode_enabled(ctr, target);
		if (dst_en && !(cfg_ctl & lay->inhibit[type])) {
			/* From a disabled mode: partially recorded, source
			 * PC 0 ("Privilege Mode Transitions" table). */
			push_record(ctr, type, src_en ? epc : 0, vector,
				    false);
		} else if (src_en && !dst_en &&
			   external_trap_enabled(ctr, src, target, cfg_ctl)) {
			/* External trap: target PC 0, EXCINH/INTRINH do
			 * not apply. */
			push_record(ctr, type, epc, 0, false);
		}
	}
	recompute(ctr);
}

void ctrhw_trap_return(struct ctrhw *ctr, enum hw_mode target,
		       uint64_t source, uint64_t dest)
{
	const struct ctrhw_layout_desc *lay = ctr->lay;
	enum hw_mode src = ctr->mode;
	uint64_t cfg_ctl = hw_mode_is_virtual(src) ||
				   hw_mode_is_virtual(target)
			   ? ctr->vsctl
			   : ctr->mctl;

	ctr->mode = target;
	if (!ctr->frozen && !(cfg_ctl & lay->rasemu) &&
	    ctrhw_mode_enabled(ctr, src) &&
	    !(cfg_ctl & lay->inhibit[RVP_CTRDATA_TYPE_TRAP_RETURN])) {
		/* To a disabled mode: partially recorded, target PC 0. */
		push_record(ctr, RVP_CTRDATA_TYPE_TRAP_RETURN, source,
			    ctrhw_mode_enabled(ctr, target) ? dest : 0,
			    false);
	}
	recompute(ctr);
}

/* ------------------------------------------------------------ CSRs */

enum ctr_reg {
	REG_NONE,
	REG_MCTL, REG_SCTL, REG_VSCTL,
	REG_MCTLH, REG_SCTLH, REG_VSCTLH,
	REG_MSTATUS, REG_SSTATUS, REG_DEPTH,
};

static enum ctr_reg decode_csr(const struct ctrhw *ctr, unsigned int csrno)
{
	const struct ctrhw_layout_desc *lay = ctr->lay;

	if (csrno == lay->csr_mctl)
		return REG_MCTL;
	if (csrno == lay->csr_sctl)
		return REG_SCTL;
	if (csrno == lay->csr_vsctl)
		return REG_VSCTL;
	if (csrno == lay->csr_sstatus)
		return REG_SSTATUS;
	if (lay->csr_mstatus && csrno == lay->csr_mstatus)
		return REG_MSTATUS;
	if (lay->csr_depth && csrno == lay->csr_depth)
		return REG_DEPTH;
	if (lay->csr_mctlh && csrno == lay->csr_mctlh)
		return REG_MCTLH;
	if (lay->csr_sctlh && csrno == lay->csr_sctlh)
		return REG_SCTLH;
	if (lay->csr_vsctlh && csrno == lay->csr_vsctlh)
		return REG_VSCTLH;
	return REG_NONE;
}

/*
 * Who may access a CTR CSR ("State Enable Access Control"; draft chapter
 * 4), in the order the privileged spec checks: an M-level CSR below M is
 * illegal; mstateen0.CTR=0 makes CTR state illegal below M (VS/VU
 * included: HS-mode could not access it either); U-mode reaches no
 * S-level CSR; VU-mode gets virtual-instruction for S- and H-level
 * CSRs; VS-mode for H-level CSRs (vsctrctl) and sctrdepth, and for
 * sctrctl/sctrstatus while hstateen0.CTR=0.
 */
static enum hw_access check_access(const struct ctrhw *ctr,
				   unsigned int csrno, bool is_depth,
				   bool vs_redirectable)
{
	unsigned int level = (csrno >> 8) & 3;

	if (ctr->mode == HW_MODE_M)
		return HW_ACCESS_OK;
	if (level == 3)
		return HW_ACCESS_ILLEGAL;
	if (!ctr->mstateen_ctr)
		return HW_ACCESS_ILLEGAL;
	switch (ctr->mode) {
	case HW_MODE_U:
		return HW_ACCESS_ILLEGAL;
	case HW_MODE_VU:
		return HW_ACCESS_VIRTUAL;
	case HW_MODE_VS:
		if (level == 2 || is_depth)
			return HW_ACCESS_VIRTUAL;
		if (!vs_redirectable || !ctr->hstateen_ctr)
			return HW_ACCESS_VIRTUAL;
		return HW_ACCESS_OK;
	default:
		return HW_ACCESS_OK;
	}
}

static uint64_t depth_field(const struct ctrhw *ctr)
{
	/* draft 2.1: thermometer code, 2^depth_log - 1 (0000, 0001, 0011,
	 * 0111, 1111 for 16 .. 256). */
	return ((uint64_t)((1u << ctr->depth_log) - 1) << ctr->lay->depth_shift) &
	       ctr->lay->depth;
}

static uint64_t read_ctl(const struct ctrhw *ctr, enum ctr_reg reg)
{
	const struct ctrhw_layout_desc *lay = ctr->lay;

	switch (reg) {
	case REG_MCTL:
	case REG_MCTLH:
		return ctr->mctl | depth_field(ctr);
	case REG_SCTL:
	case REG_SCTLH:
		/* sctrctl: M and MTE read-only 0 */
		if (hw_mode_is_virtual(ctr->mode))
			return ctr->vsctl | depth_field(ctr);
		return (ctr->mctl & ~(lay->m | lay->mte)) | depth_field(ctr);
	case REG_VSCTL:
	case REG_VSCTLH:
		/* draft 2.3: vsctrcontrol.DEPTH is a read-only copy */
		return ctr->vsctl | depth_field(ctr);
	default:
		return 0;
	}
}

static void clear_entries(struct ctrhw *ctr, unsigned int count)
{
	for (unsigned int i = 0; i < count; i++) {
		ctr->entry[i].source = 0;
		ctr->entry[i].target = 0;
		ctr->entry[i].data = 0;
	}
}

static void set_depth_log(struct ctrhw *ctr, unsigned int dl)
{
	if (dl < ctr->depth_log_min)
		dl = ctr->depth_log_min;
	if (dl > ctr->depth_log_max)
		dl = ctr->depth_log_max;
	ctr->depth_log = dl;
	/* "On depth changes, WRPTR holds an unspecified but legal value":
	 * the model keeps the bits the new depth can hold. */
	ctr->wrptr &= depth_mask(ctr);
}

/* draft 2.1: a DEPTH write picks the depth of the highest set bit of the
 * thermometer code (so 0000 is 16 and 1xxx is 256), clamped to the
 * supported range, which is how the draft's Discovery reads min and max. */
static unsigned int draft_depth_log(uint64_t field)
{
	unsigned int dl = 0;

	while (field) {
		dl++;
		field >>= 1;
	}
	return dl;
}

static void write_ctl(struct ctrhw *ctr, enum ctr_reg reg, uint64_t val)
{
	const struct ctrhw_layout_desc *lay = ctr->lay;
	bool to_vs = reg == REG_VSCTL || reg == REG_VSCTLH ||
		     ((reg == REG_SCTL || reg == REG_SCTLH) &&
		      hw_mode_is_virtual(ctr->mode));
	bool high = reg == REG_MCTLH || reg == REG_SCTLH || reg == REG_VSCTLH;
	uint64_t old = to_vs ? ctr->vsctl : ctr->mctl;
	unsigned int old_depth = ctrhw_depth(ctr);
	bool clr = false;

	if (high) {
		val = (val << 32) | (old & 0xFFFFFFFFull);
	} else if (ctr->cfg.xlen == 32) {
		/* RV32 reaches bits 31:0 only ("CSR Listing" note). */
		val = (val & 0xFFFFFFFFull) | (old & ~0xFFFFFFFFull);
		clr = val & lay->clr;
	} else {
		clr = val & lay->clr;
	}
	if (to_vs) {
		ctr->vsctl = val & ctr->vsctl_wmask;
	} else {
		uint64_t keep = reg == REG_SCTL || reg == REG_SCTLH
					? (lay->m | lay->mte)
					: 0;

		ctr->mctl = (val & ctr->mctl_wmask & ~keep) | (old & keep);
		if (lay->depth && !high)
			set_depth_log(ctr, draft_depth_log(
				(val & lay->depth) >> lay->depth_shift));
	}
	/* draft 2.1/2.4: CLR zeroes the entries and mctrstatus; through
	 * vsctrcontrol only when V=1 (draft 2.3).  The model clears up to
	 * the larger of the old and new depth, so a CLR that reduces DEPTH
	 * leaves nothing in the now-inaccessible entries (draft 2.1 note). */
	if (clr && (!to_vs || hw_mode_is_virtual(ctr->mode))) {
		unsigned int n = ctrhw_depth(ctr);

		clear_entries(ctr, n > old_depth ? n : old_depth);
		ctr->wrptr = 0;
		ctr->wrap = false;
		ctr->frozen = false;
	}
	/* "Cycle Counting": writes to xctrctl reset the counter, and the
	 * next record has CCV=0. */
	ctr->cycle_counter = 0;
	ctr->ccv_valid = false;
	recompute(ctr);
}

static uint64_t read_status(const struct ctrhw *ctr)
{
	const struct ctrhw_layout_desc *lay = ctr->lay;

	return ((uint64_t)ctr->wrptr & lay->status_wrptr) |
	       (ctr->wrap ? lay->status_wrap : 0) |
	       (ctr->frozen ? lay->status_frozen : 0);
}

static void write_status(struct ctrhw *ctr, uint64_t val)
{
	const struct ctrhw_layout_desc *lay = ctr->lay;

	/* WRPTR bits above depth-1 are read-only 0. */
	ctr->wrptr = (unsigned int)(val & lay->status_wrptr) & depth_mask(ctr);
	ctr->wrap = lay->status_wrap && (val & lay->status_wrap);
	ctr->frozen = val & lay->status_frozen;
	recompute(ctr);
}

/*
 * Which CTR register csrno is (*reg, *high for an RV32 upper half) and
 * whether the current mode may access it, for a read or a write alike.
 */
static enum hw_access csr_access(struct ctrhw *ctr, unsigned int csrno,
				 enum ctr_reg *reg_out, bool *high_out)
{
	enum ctr_reg reg = decode_csr(ctr, csrno);
	bool high = reg == REG_MCTLH || reg == REG_SCTLH || reg == REG_VSCTLH;

	*reg_out = reg;
	*high_out = high;
	if (reg == REG_NONE)
		return HW_ACCESS_NOT_MINE;
	/* Registers this configuration lacks: vsctrctl without H, the
	 * RV32-only upper halves in RV64. */
	if ((reg == REG_VSCTL || reg == REG_VSCTLH) && !ctr->cfg.h_ext)
		return HW_ACCESS_ILLEGAL;
	if (high && ctr->cfg.xlen != 32)
		return HW_ACCESS_ILLEGAL;
	return check_access(ctr, csrno, reg == REG_DEPTH,
			    reg == REG_SCTL || reg == REG_SCTLH ||
				    reg == REG_SSTATUS);
}

enum hw_access ctrhw_csr_read(struct ctrhw *ctr, unsigned int csrno,
			      uint64_t *val)
{
	enum ctr_reg reg;
	bool high;
	enum hw_access acc = csr_access(ctr, csrno, &reg, &high);

	if (acc != HW_ACCESS_OK)
		return acc;
	switch (reg) {
	case REG_MSTATUS:
	case REG_SSTATUS:
		*val = read_status(ctr);
		break;
	case REG_DEPTH:
		*val = ctr->depth_log;
		break;
	default:
		*val = read_ctl(ctr, reg);
		if (high)
			*val >>= 32;
		break;
	}
	*val &= ctr->xlen_mask;
	return HW_ACCESS_OK;
}

enum hw_access ctrhw_csr_write(struct ctrhw *ctr, unsigned int csrno,
			       uint64_t val)
{
	enum ctr_reg reg;
	bool high;
	enum hw_access acc = csr_access(ctr, csrno, &reg, &high);

	if (acc != HW_ACCESS_OK)
		return acc;
	val &= ctr->xlen_mask;
	switch (reg) {
	case REG_MSTATUS:
	case REG_SSTATUS:
		write_status(ctr, val);
		break;
	case REG_DEPTH: {
		/* sctrdepth.DEPTH is WARL: reserved codes (11x, 101) read
		 * back as the deepest supported depth. */
		unsigned int dl = (unsigned int)(val & RVP_CTR_V1_SCTRDEPTH_DEPTH);

		set_depth_log(ctr, dl > RVP_CTR_V1_DEPTH_ENC_256
					   ? ctr->depth_log_max
					   : dl);
		break;
	}
	default:
		write_ctl(ctr, reg, val);
		break;
	}
	return HW_ACCESS_OK;
}

/* Which *ireg (1..6) of which file (its *iselect number) CSRNO is; 0 for
 * none (Smcsrind/Sscsrind). */
static int ireg_decode(unsigned int csrno, unsigned int *file)
{
	static const struct {
		unsigned int csr, file;
		int n;
	} iregs[] = {
		{ RVP_CSR_MIREG, RVP_CSR_MISELECT, 1 },
		{ RVP_CSR_MIREG2, RVP_CSR_MISELECT, 2 },
		{ RVP_CSR_MIREG3, RVP_CSR_MISELECT, 3 },
		{ RVP_CSR_MIREG4, RVP_CSR_MISELECT, 4 },
		{ RVP_CSR_MIREG5, RVP_CSR_MISELECT, 5 },
		{ RVP_CSR_MIREG6, RVP_CSR_MISELECT, 6 },
		{ RVP_CSR_SIREG, RVP_CSR_SISELECT, 1 },
		{ RVP_CSR_SIREG2, RVP_CSR_SISELECT, 2 },
		{ RVP_CSR_SIREG3, RVP_CSR_SISELECT, 3 },
		{ RVP_CSR_SIREG4, RVP_CSR_SISELECT, 4 },
		{ RVP_CSR_SIREG5, RVP_CSR_SISELECT, 5 },
		{ RVP_CSR_SIREG6, RVP_CSR_SISELECT, 6 },
		{ RVP_CSR_VSIREG, RVP_CSR_VSISELECT, 1 },
		{ RVP_CSR_VSIREG2, RVP_CSR_VSISELECT, 2 },
		{ RVP_CSR_VSIREG3, RVP_CSR_VSISELECT, 3 },
		{ RVP_CSR_VSIREG4, RVP_CSR_VSISELECT, 4 },
		{ RVP_CSR_VSIREG5, RVP_CSR_VSISELECT, 5 },
		{ RVP_CSR_VSIREG6, RVP_CSR_VSISELECT, 6 },
	};

	for (unsigned int i = 0; i < sizeof(iregs) / sizeof(iregs[0]); i++) {
		if (iregs[i].csr == csrno) {
			*file = iregs[i].file;
			return iregs[i].n;
		}
	}
	return 0;
}

/* Who may reach the entries through which *ireg file ("Entry Registers",
 * "State Enable Access Control"; draft chapters 3 and 4). */
static enum hw_access ireg_access(const struct ctrhw *ctr,
				  unsigned int csrno, unsigned int iselect,
				  int *n)
{
	unsigned int file = 0;

	*n = ireg_decode(csrno, &file);
	if (!*n || iselect < RVP_CTR_ISELECT_FIRST ||
	    iselect > RVP_CTR_ISELECT_LAST)
		return HW_ACCESS_NOT_MINE;
	if (file == RVP_CSR_MISELECT) {
		/* Ratified: "an extension could ... make CTR entries
		 * accessible via miselect/mireg*": v1.0 does not. */
		if (!ctr->lay->mireg_entries)
			return HW_ACCESS_NOT_MINE;
		return ctr->mode == HW_MODE_M ? HW_ACCESS_OK
					       : HW_ACCESS_ILLEGAL;
	}
	if (file == RVP_CSR_VSISELECT && !ctr->cfg.h_ext)
		return HW_ACCESS_NOT_MINE;
	return check_access(ctr, csrno, false, file == RVP_CSR_SISELECT);
}

static uint64_t *entry_field(struct ctrhw *ctr, unsigned int iselect,
			     int n)
{
	unsigned int logical = iselect - RVP_CTR_ISELECT_FIRST;
	struct ctrhw_entry *e;

	/* Entries at or beyond the depth read 0 and ignore writes;
	 * *ireg4..6 are read-only 0. */
	if (logical >= ctrhw_depth(ctr) || n > 3)
		return (void *)0;
	/* Logical X is physical (WRPTR - X - 1) % depth ("sctrstatus"). */
	e = &ctr->entry[(ctr->wrptr - logical - 1) & depth_mask(ctr)];
	return n == 1 ? &e->source : n == 2 ? &e->target : &e->data;
}

enum hw_access ctrhw_ireg_read(struct ctrhw *ctr, unsigned int csrno,
			       unsigned int iselect, uint64_t *val)
{
	int n;
	enum hw_access acc = ireg_access(ctr, csrno, iselect, &n);
	uint64_t *f;

	if (acc != HW_ACCESS_OK)
		return acc;
	f = entry_field(ctr, iselect, n);
	*val = f ? *f & ctr->xlen_mask : 0;
	return HW_ACCESS_OK;
}

enum hw_access ctrhw_ireg_write(struct ctrhw *ctr, unsigned int csrno,
				unsigned int iselect, uint64_t val)
{
	int n;
	enum hw_access acc = ireg_access(ctr, csrno, iselect, &n);
	uint64_t *f;

	if (acc != HW_ACCESS_OK)
		return acc;
	f = entry_field(ctr, iselect, n);
	if (!f)
		return HW_ACCESS_OK;
	/* Narrow writes are zero-extended ("ctrsource"). */
	val &= ctr->xlen_mask;
	if (n == 2)
		val &= ctr->target_wmask;
	else if (n == 3)
		val &= ctr->data_wmask;
	*f = val;
	return HW_ACCESS_OK;
}

enum hw_access ctrhw_sctrclr(struct ctrhw *ctr)
{
	if (!ctr->lay->sctrclr)
		return HW_ACCESS_ILLEGAL;
	/* "Supervisor CTR Clear Instruction" and "State Enable Access
	 * Control": illegal in U, virtual in VU, gated by mstateen0.CTR
	 * below M and by hstateen0.CTR in VS. */
	switch (ctr->mode) {
	case HW_MODE_M:
		break;
	case HW_MODE_U:
		return HW_ACCESS_ILLEGAL;
	case HW_MODE_S:
		if (!ctr->mstateen_ctr)
			return HW_ACCESS_ILLEGAL;
		break;
	case HW_MODE_VS:
		if (!ctr->mstateen_ctr)
			return HW_ACCESS_ILLEGAL;
		if (!ctr->hstateen_ctr)
			return HW_ACCESS_VIRTUAL;
		break;
	case HW_MODE_VU:
		return ctr->mstateen_ctr ? HW_ACCESS_VIRTUAL
					 : HW_ACCESS_ILLEGAL;
	}
	/* Zeroes every entry register for all depths, the cycle counter and
	 * CCV (the next record has CCV=0). */
	clear_entries(ctr, CTRHW_MAX_DEPTH);
	ctr->cycle_counter = 0;
	ctr->ccv_valid = false;
	return HW_ACCESS_OK;
}

void ctrhw_entry_get(const struct ctrhw *ctr, unsigned int logical,
		     struct ctrhw_entry *out)
{
	if (logical >= ctrhw_depth(ctr)) {
		out->source = out->target = out->data = 0;
		return;
	}
	*out = ctr->entry[(ctr->wrptr - logical - 1) & depth_mask(ctr)];
}
