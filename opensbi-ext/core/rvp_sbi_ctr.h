/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rvp_sbi_ctr.h - CTR (Smctr/Ssctr) management in M-mode, freestanding: find
 * which layout the hart has by probing its CSRs, let S-mode reach CTR state
 * through mstateen0, program mctrctl and the depth from policy, clear the
 * records whenever a hart (re)starts so nothing recorded before leaks, and
 * keep LCOFI delegation consistent with LCOFIFRZ.
 *
 * Uses the CSR and SCTRCLR plumbing of struct rvp_sbi_pmu_ops.
 */
#ifndef RVPERF_OPENSBI_EXT_RVP_SBI_CTR_H
#define RVPERF_OPENSBI_EXT_RVP_SBI_CTR_H

#include "rvp_sbi_pmu.h"

enum rvp_sbi_ctr_layout {
	RVP_SBI_CTR_LAYOUT_NONE = 0,
	RVP_SBI_CTR_LAYOUT_V1,	/* ratified v1.0: mctrctl 0x34E, sctrdepth */
	RVP_SBI_CTR_LAYOUT_DRAFT,	/* v0.1.4 draft: mctrcontrol, DEPTH field */
};

/* What M-mode allows; the defaults (all zero) are the safe ones. */
struct rvp_sbi_ctr_policy {
	uint8_t record_m;	/* mctrctl.M: record M-mode (default never) */
	uint8_t mte;		/* mctrctl.MTE: traps to M-mode recorded */
	uint8_t lcofifrz;	/* freeze on LCOFI (needs LCOFI delegated) */
	unsigned int depth;	/* entries (16..256); 0: the maximum */
};

struct rvp_sbi_ctr_hart {
	enum rvp_sbi_ctr_layout layout;
	uint8_t smctr;		/* mctrctl exists */
	uint8_t ssctr;		/* sctrctl exists */
	uint8_t smstateen;	/* mstateen0 exists */
	uint8_t sscofpmf;	/* LCOFI exists (scountovf probes it) */
	uint8_t lcofi_delegated;
	unsigned int max_depth;	/* entries */
	unsigned int depth;	/* entries programmed */
	uint64_t ctl;		/* mctrctl value programmed */
};

/* Probes the CSRs (not the ISA string): 0 when CTR is there, else
 * SBI_ERR_NOT_SUPPORTED with c->layout NONE. */
int rvp_sbi_ctr_probe(const struct rvp_sbi_pmu_ops *ops, void *ctx,
		      struct rvp_sbi_ctr_hart *c);

/* Boot of a hart: state enable, LCOFI delegation, depth, mctrctl, clear.
 * A hart without CTR only gets LCOFI delegated (when Sscofpmf is there). */
int rvp_sbi_ctr_hart_init(const struct rvp_sbi_pmu_ops *ops, void *ctx,
			  struct rvp_sbi_ctr_hart *c,
			  const struct rvp_sbi_ctr_policy *policy);

/* Hart start (HSM) and resume from a non-retentive suspend: the records
 * left from before belong to someone else, so they go. */
void rvp_sbi_ctr_hart_start(const struct rvp_sbi_pmu_ops *ops, void *ctx,
			    const struct rvp_sbi_ctr_hart *c);
void rvp_sbi_ctr_hart_resume(const struct rvp_sbi_pmu_ops *ops, void *ctx,
			     const struct rvp_sbi_ctr_hart *c);

#endif /* RVPERF_OPENSBI_EXT_RVP_SBI_CTR_H */
