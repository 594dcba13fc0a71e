// SPDX-License-Identifier: BSD-2-Clause
/*
 * rvp_ctr.c - CTR management in M-mode (Smctr/Ssctr v1.0, "CSRs", "State
 * Enable Access Control", "Freeze"), freestanding.
 */
#include "rvp_ctr.h"
#include "rvp_pmu_csr.h"
#include <rvperf/ctr.h>

static int probe(const struct rvp_pmu_ops *ops, void *ctx, unsigned int csr,
		 uint64_t *val)
{
	uint64_t dummy;

	if (!ops->csr_probe)
		return -1;
	return ops->csr_probe(ctx, csr, val ? val : &dummy);
}

int rvp_ctr_probe(const struct rvp_pmu_ops *ops, void *ctx,
		  struct rvp_ctr_hart *c)
{
	unsigned int enc;

	c->layout = RVP_CTR_LAYOUT_NONE;
	c->smctr = c->ssctr = 0;
	c->max_depth = c->depth = 0;
	c->ctl = 0;
	c->lcofi_delegated = 0;
	c->smstateen = !probe(ops, ctx, RVP_CSR_MSTATEEN0, NULL);
	/* scountovf exists exactly when Sscofpmf (and so LCOFI) does. */
	c->sscofpmf = !probe(ops, ctx, RVP_CSR_SCOUNTOVF, NULL);

	/* The ISA string can claim CTR that a CSR access would trap on (or
	 * not list it at all): what the CSRs answer decides. */
	c->smctr = !probe(ops, ctx, RVP_CTR_V1_CSR_MCTRCTL, NULL);
	c->ssctr = !probe(ops, ctx, RVP_CTR_V1_CSR_SCTRCTL, NULL);
	if (c->smctr || c->ssctr)
		c->layout = RVP_CTR_LAYOUT_V1;
	if (c->layout == RVP_CTR_LAYOUT_NONE)
		return RVP_SBI_ERR_NOT_SUPPORTED;

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
	return c->max_depth ? 0 : RVP_SBI_ERR_NOT_SUPPORTED;
}

static unsigned int depth_enc(unsigned int entries)
{
	unsigned int enc = 0;

	while (enc < RVP_CTR_V1_DEPTH_ENC_256 && (16U << enc) < entries)
		enc++;
	return enc;
}

static void ctr_clear(const struct rvp_pmu_ops *ops, void *ctx,
		      const struct rvp_ctr_hart *c)
{
	if (c->layout == RVP_CTR_LAYOUT_NONE)
		return;
	/* SCTRCLR zeroes every entry for every depth and restarts cycle
	 * counting; sctrstatus (WRPTR, FROZEN) is set apart. */
	if (ops->ctr_clear)
		ops->ctr_clear(ctx);
	ops->csr_write(ctx, RVP_CTR_V1_CSR_SCTRSTATUS, 0);
}

/* The M-mode state CTR needs, written again after a non-retentive
 * suspend lost it: LCOFI delegation, mstateen0.CTR, depth, mctrctl. */
static void ctr_apply(const struct rvp_pmu_ops *ops, void *ctx,
		      const struct rvp_ctr_hart *c)
{
	uint64_t v;

	if (c->lcofi_delegated) {
		v = ops->csr_read(ctx, RVP_CSR_MIDELEG);
		ops->csr_write(ctx, RVP_CSR_MIDELEG, v | RVP_MIP_LCOFIP);
	}
	if (c->layout == RVP_CTR_LAYOUT_NONE)
		return;
	/* Without mstateen0.CTR, S-mode's sctr* accesses and SCTRCLR trap. */
	if (c->smstateen) {
		v = ops->csr_read(ctx, RVP_CSR_MSTATEEN0);
		ops->csr_write(ctx, RVP_CSR_MSTATEEN0,
			       v | RVP_CTR_V1_STATEEN0_CTR);
	}
	ops->csr_write(ctx, RVP_CTR_V1_CSR_SCTRDEPTH, depth_enc(c->depth));
	if (c->smctr)
		ops->csr_write(ctx, RVP_CTR_V1_CSR_MCTRCTL, c->ctl);
}

int rvp_ctr_hart_init(const struct rvp_pmu_ops *ops, void *ctx,
		      struct rvp_ctr_hart *c,
		      const struct rvp_ctr_policy *policy)
{
	static const struct rvp_ctr_policy defaults;
	unsigned int want, enc;
	uint64_t v;

	if (!policy)
		policy = &defaults;
	rvp_ctr_probe(ops, ctx, c);

	/* LCOFI goes to S-mode, whose perf driver handles it (Sscofpmf);
	 * mideleg is WARL, so what reads back is what holds. */
	if (c->sscofpmf) {
		v = ops->csr_read(ctx, RVP_CSR_MIDELEG);
		ops->csr_write(ctx, RVP_CSR_MIDELEG, v | RVP_MIP_LCOFIP);
		c->lcofi_delegated = !!(ops->csr_read(ctx, RVP_CSR_MIDELEG) &
					RVP_MIP_LCOFIP);
	}
	if (c->layout == RVP_CTR_LAYOUT_NONE)
		return RVP_SBI_ERR_NOT_SUPPORTED;

	want = policy->depth ? policy->depth : c->max_depth;
	if (want > c->max_depth)
		want = c->max_depth;
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

void rvp_ctr_hart_start(const struct rvp_pmu_ops *ops, void *ctx,
			const struct rvp_ctr_hart *c)
{
	ctr_clear(ops, ctx, c);
}

void rvp_ctr_hart_resume(const struct rvp_pmu_ops *ops, void *ctx,
			 const struct rvp_ctr_hart *c)
{
	/* The hart's CSRs may have been lost with its power: put the M-mode
	 * state back before the records go. */
	ctr_apply(ops, ctx, c);
	ctr_clear(ops, ctx, c);
}
