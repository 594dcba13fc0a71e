// SPDX-License-Identifier: BSD-2-Clause
/*
 * rvp_sbi_ctr.c - CTR management in M-mode (Smctr/Ssctr v1.0, "CSRs", "State
 * Enable Access Control", "Freeze"; and the v0.1.4 draft's mctrcontrol,
 * with DEPTH and CLR in the control register and the state-enable bit at
 * 55, only where the hart declares it and the build allows it),
 * freestanding.
 */
#include "rvp_sbi_ctr.h"
#include "rvp_sbi_pmu_csr.h"
#include <rvperf/ctr.h>

static int draft_probe_depth(const struct rvp_sbi_pmu_ops *ops, void *ctx,
			     struct rvp_sbi_ctr_hart *c);

static int probe(const struct rvp_sbi_pmu_ops *ops, void *ctx, unsigned int csr,
		 uint64_t *val)
{
	uint64_t dummy;

	if (!ops->csr_probe)
		return -1;
	return ops->csr_probe(ctx, csr, val ? val : &dummy);
}

/* Whether the name of length n at p is name. */
static int name_is(const char *p, unsigned int n, const char *name)
{
	unsigned int i;

	for (i = 0; i < n && name[i] && p[i] == name[i]; i++)
		;
	return i == n && !name[i];
}

static unsigned int isa_bit(const char *p, unsigned int n)
{
	if (name_is(p, n, "smctr"))
		return RVP_SBI_CTR_ISA_SMCTR;
	if (name_is(p, n, "ssctr"))
		return RVP_SBI_CTR_ISA_SSCTR;
	if (name_is(p, n, RVP_SBI_CTR_ISA_DRAFT_NAME))
		return RVP_SBI_CTR_ISA_DRAFT;
	return 0;
}

unsigned int rvp_sbi_ctr_isa_parse(const char *isa, unsigned int len,
				   int list)
{
	unsigned int i, start = 0, bits = 0;
	char sep = list ? '\0' : '_';
	int end;

	if (!isa)
		return 0;
	for (i = 0; i <= len; i++) {
		end = i == len || (!list && !isa[i]);
		if (!end && isa[i] != sep)
			continue;
		/* [start, i) is a name; riscv,isa's first is the base ISA
		 * and its single-letter extensions. */
		if (list || start)
			bits |= isa_bit(isa + start, i - start);
		if (end)
			break;
		start = i + 1;
	}
	return bits;
}

int rvp_sbi_ctr_probe(const struct rvp_sbi_pmu_ops *ops, void *ctx,
		      struct rvp_sbi_ctr_hart *c,
		      const struct rvp_sbi_ctr_policy *policy, unsigned int isa)
{
	unsigned int enc;

	c->layout = RVP_SBI_CTR_LAYOUT_NONE;
	c->smctr = c->ssctr = 0;
	c->max_depth = c->depth = 0;
	c->ctl = 0;
	c->lcofi_delegated = 0;
	c->smstateen = !probe(ops, ctx, RVP_CSR_MSTATEEN0, NULL);
	/* scountovf exists exactly when Sscofpmf (and so LCOFI) does. */
	c->sscofpmf = !probe(ops, ctx, RVP_CSR_SCOUNTOVF, NULL);

	/* Only what the hart declares is looked at; a declared CSR that
	 * traps is not there (the ISA string can claim more than the hart
	 * has: QEMU's draft model declares smctr with the draft's CSRs). */
	if (isa & RVP_SBI_CTR_ISA_SMCTR)
		c->smctr = !probe(ops, ctx, RVP_CTR_V1_CSR_MCTRCTL, NULL);
	if (isa & (RVP_SBI_CTR_ISA_SMCTR | RVP_SBI_CTR_ISA_SSCTR))
		c->ssctr = !probe(ops, ctx, RVP_CTR_V1_CSR_SCTRCTL, NULL);
	if (c->smctr || c->ssctr) {
		c->layout = RVP_SBI_CTR_LAYOUT_V1;
	} else if (policy && policy->draft && (isa & RVP_SBI_CTR_ISA_DRAFT)) {
		/* The draft's CSRs sit at other numbers (0x381/0x181); 0x181
		 * is Ssqosid's srmcfg, hence its own declaration. */
		c->smctr = !probe(ops, ctx, RVP_CTR_DRAFT_CSR_MCTRCONTROL, NULL);
		c->ssctr = !probe(ops, ctx, RVP_CTR_DRAFT_CSR_SCTRCONTROL, NULL);
		if (c->smctr || c->ssctr)
			c->layout = RVP_SBI_CTR_LAYOUT_DRAFT;
	}
	if (c->layout == RVP_SBI_CTR_LAYOUT_NONE)
		return RVP_SBI_ERR_NOT_SUPPORTED;
	if (c->layout == RVP_SBI_CTR_LAYOUT_DRAFT)
		return draft_probe_depth(ops, ctx, c);

	/* sctrdepth.DEPTH is WARL: an encoding that reads back as written
	 * is supported; the largest such is the maximum. */
	for (enc = RVP_CTR_V1_DEPTH_ENC_256 + 1; enc-- > 0;) {
		ops->csr_write(ctx, RVP_CTR_V1_CSR_SCTRDEPTH, enc);
		if ((ops->csr_read(ctx, RVP_CTR_V1_CSR_SCTRDEPTH) &
		     RVP_CTR_V1_SCTRDEPTH_DEPTH) == enc) {
			c->max_depth = 16U << enc;
			break;
		}
	}
	if (!c->max_depth)
		c->layout = RVP_SBI_CTR_LAYOUT_NONE;
	return c->max_depth ? 0 : RVP_SBI_ERR_NOT_SUPPORTED;
}

/* ---- the v0.1.4 draft layout */

/* Its DEPTH is a thermometer code: 16 << n entries is n ones. */
static uint64_t draft_depth_code(unsigned int entries)
{
	unsigned int n = 0;

	while (n < 4 && (16U << n) < entries)
		n++;
	return ((1ULL << n) - 1) << RVP_CTR_DRAFT_MCTRCONTROL_DEPTH_SHIFT;
}

static unsigned int draft_depth_entries(uint64_t ctl)
{
	uint64_t code = (ctl & RVP_CTR_DRAFT_MCTRCONTROL_DEPTH) >>
			RVP_CTR_DRAFT_MCTRCONTROL_DEPTH_SHIFT;
	unsigned int n = 0;

	while (n < 4 && (code & (1ULL << n)))
		n++;
	return 16U << n;
}

/* The control register M-mode writes: mctrcontrol with Smctr, else the
 * S-level one (an Ssctr-only hart leaves M-mode to someone else). */
static unsigned int draft_ctl_csr(const struct rvp_sbi_ctr_hart *c)
{
	return c->smctr ? RVP_CTR_DRAFT_CSR_MCTRCONTROL :
			  RVP_CTR_DRAFT_CSR_SCTRCONTROL;
}

/* DEPTH is WARL: the largest code that reads back as written is the
 * maximum. */
static int draft_probe_depth(const struct rvp_sbi_pmu_ops *ops, void *ctx,
			     struct rvp_sbi_ctr_hart *c)
{
	unsigned int csr = draft_ctl_csr(c), entries;

	for (entries = 256; entries >= 16; entries /= 2) {
		uint64_t code = draft_depth_code(entries);

		ops->csr_write(ctx, csr, code);
		if ((ops->csr_read(ctx, csr) &
		     RVP_CTR_DRAFT_MCTRCONTROL_DEPTH) == code) {
			c->max_depth = entries;
			break;
		}
	}
	ops->csr_write(ctx, csr, 0);
	if (!c->max_depth)
		c->layout = RVP_SBI_CTR_LAYOUT_NONE;
	return c->max_depth ? 0 : RVP_SBI_ERR_NOT_SUPPORTED;
}

static unsigned int depth_enc(unsigned int entries)
{
	unsigned int enc = 0;

	while (enc < RVP_CTR_V1_DEPTH_ENC_256 && (16U << enc) < entries)
		enc++;
	return enc;
}

static void ctr_clear(const struct rvp_sbi_pmu_ops *ops, void *ctx,
		      const struct rvp_sbi_ctr_hart *c)
{
	if (c->layout == RVP_SBI_CTR_LAYOUT_NONE)
		return;
	if (c->layout == RVP_SBI_CTR_LAYOUT_DRAFT) {
		/* Writing CLR = 1 zeroes the entries and mctrstatus (draft
		 * 2.1); the rest of the register is written back as it is,
		 * as SCTRCLR leaves the ratified mctrctl alone. */
		unsigned int csr = draft_ctl_csr(c);

		ops->csr_write(ctx, csr, ops->csr_read(ctx, csr) |
			       RVP_CTR_DRAFT_MCTRCONTROL_CLR);
		ops->csr_write(ctx, RVP_CTR_DRAFT_CSR_SCTRSTATUS, 0);
		return;
	}
	/* SCTRCLR zeroes every entry for every depth and restarts cycle
	 * counting; sctrstatus (WRPTR, FROZEN) is set apart. */
	if (ops->ctr_clear)
		ops->ctr_clear(ctx);
	ops->csr_write(ctx, RVP_CTR_V1_CSR_SCTRSTATUS, 0);
}

/* The M-mode state CTR needs, written again after a non-retentive
 * suspend lost it: LCOFI delegation, mstateen0.CTR, depth, mctrctl. */
static void ctr_apply(const struct rvp_sbi_pmu_ops *ops, void *ctx,
		      const struct rvp_sbi_ctr_hart *c)
{
	uint64_t v;

	if (c->lcofi_delegated) {
		v = ops->csr_read(ctx, RVP_CSR_MIDELEG);
		ops->csr_write(ctx, RVP_CSR_MIDELEG, v | RVP_MIP_LCOFIP);
	}
	if (c->layout == RVP_SBI_CTR_LAYOUT_NONE)
		return;
	/* Without mstateen0.CTR, S-mode's sctr* accesses and SCTRCLR trap;
	 * the draft has the bit at 55, the ratified spec at 54. */
	if (c->smstateen) {
		v = ops->csr_read(ctx, RVP_CSR_MSTATEEN0);
		ops->csr_write(ctx, RVP_CSR_MSTATEEN0, v |
			       (c->layout == RVP_SBI_CTR_LAYOUT_DRAFT ?
				RVP_CTR_DRAFT_STATEEN0_CTR :
				RVP_CTR_V1_STATEEN0_CTR));
	}
	if (c->layout == RVP_SBI_CTR_LAYOUT_DRAFT) {
		/* DEPTH lives in the control register (c->ctl has it). */
		ops->csr_write(ctx, draft_ctl_csr(c), c->ctl);
		return;
	}
	ops->csr_write(ctx, RVP_CTR_V1_CSR_SCTRDEPTH, depth_enc(c->depth));
	if (c->smctr)
		ops->csr_write(ctx, RVP_CTR_V1_CSR_MCTRCTL, c->ctl);
}

/* The draft's half of rvp_sbi_ctr_hart_init(): one register holds the policy
 * bits and DEPTH. */
static int draft_hart_init(const struct rvp_sbi_pmu_ops *ops, void *ctx,
			   struct rvp_sbi_ctr_hart *c,
			   const struct rvp_sbi_ctr_policy *policy,
			   unsigned int want)
{
	unsigned int csr = draft_ctl_csr(c);

	c->ctl = draft_depth_code(want);
	ops->csr_write(ctx, csr, c->ctl);
	if ((ops->csr_read(ctx, csr) & RVP_CTR_DRAFT_MCTRCONTROL_DEPTH) !=
	    c->ctl)
		/* Not a supported depth: fall back to the maximum. */
		c->ctl = draft_depth_code(c->max_depth);
	if (c->smctr) {
		if (policy->record_m)
			c->ctl |= RVP_CTR_DRAFT_MCTRCONTROL_M;
		/* Draft 5.2.1: external traps are recorded only with ETEN
		 * and the target mode's xTE. */
		if (policy->mte)
			c->ctl |= RVP_CTR_DRAFT_MCTRCONTROL_MTE |
				  RVP_CTR_DRAFT_MCTRCONTROL_ETEN;
		if (policy->lcofifrz && c->lcofi_delegated)
			c->ctl |= RVP_CTR_DRAFT_MCTRCONTROL_LCOFIFRZ;
	}
	ctr_apply(ops, ctx, c);
	/* Keep only what the hardware implements (WARL fields). */
	c->ctl = ops->csr_read(ctx, csr) & ~RVP_CTR_DRAFT_MCTRCONTROL_CLR;
	c->depth = draft_depth_entries(c->ctl);
	ctr_clear(ops, ctx, c);
	return 0;
}

int rvp_sbi_ctr_hart_init(const struct rvp_sbi_pmu_ops *ops, void *ctx,
			  struct rvp_sbi_ctr_hart *c,
			  const struct rvp_sbi_ctr_policy *policy,
			  unsigned int isa)
{
	static const struct rvp_sbi_ctr_policy defaults;
	unsigned int want, enc;
	uint64_t v;

	if (!policy)
		policy = &defaults;
	rvp_sbi_ctr_probe(ops, ctx, c, policy, isa);

	/* LCOFI goes to S-mode, whose perf driver handles it (Sscofpmf);
	 * mideleg is WARL, so what reads back is what holds. */
	if (c->sscofpmf) {
		v = ops->csr_read(ctx, RVP_CSR_MIDELEG);
		ops->csr_write(ctx, RVP_CSR_MIDELEG, v | RVP_MIP_LCOFIP);
		c->lcofi_delegated = !!(ops->csr_read(ctx, RVP_CSR_MIDELEG) &
					RVP_MIP_LCOFIP);
	}
	if (c->layout == RVP_SBI_CTR_LAYOUT_NONE)
		return RVP_SBI_ERR_NOT_SUPPORTED;

	want = policy->depth ? policy->depth : c->max_depth;
	if (want > c->max_depth)
		want = c->max_depth;
	if (c->layout == RVP_SBI_CTR_LAYOUT_DRAFT)
		return draft_hart_init(ops, ctx, c, policy, want);
	enc = depth_enc(want);
	ops->csr_write(ctx, RVP_CTR_V1_CSR_SCTRDEPTH, enc);
	if ((ops->csr_read(ctx, RVP_CTR_V1_CSR_SCTRDEPTH) &
	     RVP_CTR_V1_SCTRDEPTH_DEPTH) != enc)
		/* Not a supported depth: fall back to the maximum. */
		enc = depth_enc(c->max_depth);
	c->depth = 16U << enc;

	/* Nothing recorded until S-mode enables it: S and U off, M-mode and
	 * traps to M-mode only if the policy says so.  LCOFIFRZ only while
	 * LCOFI reaches S-mode, so a freeze is always seen by the handler
	 * that unfreezes. */
	c->ctl = 0;
	if (c->smctr) {
		if (policy->record_m)
			c->ctl |= RVP_CTR_V1_MCTRCTL_M;
		if (policy->mte)
			c->ctl |= RVP_CTR_V1_MCTRCTL_MTE;
		if (policy->lcofifrz && c->lcofi_delegated)
			c->ctl |= RVP_CTR_V1_MCTRCTL_LCOFIFRZ;
	}
	ctr_apply(ops, ctx, c);
	/* Keep only what the hardware implements (WARL fields). */
	if (c->smctr)
		c->ctl = ops->csr_read(ctx, RVP_CTR_V1_CSR_MCTRCTL);
	ctr_clear(ops, ctx, c);
	return 0;
}

void rvp_sbi_ctr_hart_start(const struct rvp_sbi_pmu_ops *ops, void *ctx,
			    const struct rvp_sbi_ctr_hart *c)
{
	ctr_clear(ops, ctx, c);
}

void rvp_sbi_ctr_hart_resume(const struct rvp_sbi_pmu_ops *ops, void *ctx,
			     const struct rvp_sbi_ctr_hart *c)
{
	/* The hart's CSRs may have been lost with its power: put the M-mode
	 * state back before the records go. */
	ctr_apply(ops, ctx, c);
	ctr_clear(ops, ctx, c);
}
