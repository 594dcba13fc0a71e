/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rvp_sbi_ctr.h - CTR (Smctr/Ssctr) management in M-mode, freestanding: find
 * which layout the hart has from what it declares (its ISA string), checked
 * against its CSRs, let S-mode reach CTR state
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

/*
 * What the hart declares (devicetree riscv,isa-extensions, or the riscv,isa
 * string): CTR is looked for only where declared.  A CSR is never probed
 * on the strength of its number alone: the v0.1.4 draft's sctrcontrol is
 * 0x181, which is Ssqosid's srmcfg, and the draft's state-enable bit 55 is
 * Ssqosid's SRMCFG bit.
 */
#define RVP_SBI_CTR_ISA_SMCTR	(1U << 0)	/* "smctr" */
#define RVP_SBI_CTR_ISA_SSCTR	(1U << 1)	/* "ssctr" */
/* The hart's CTR CSRs follow the v0.1.4 draft (mctrcontrol 0x381,
 * sctrcontrol 0x181, state-enable bit 55).  No specification names the
 * draft, so a vendor-style name says it; used only with policy.draft. */
#define RVP_SBI_CTR_ISA_DRAFT	(1U << 2)
#define RVP_SBI_CTR_ISA_DRAFT_NAME	"xrvperfctrdraft"

/*
 * The RVP_SBI_CTR_ISA_* a cpu node declares: isa is its
 * riscv,isa-extensions (list != 0: NUL-separated names, len bytes) or its
 * riscv,isa string (list == 0: "rv64imac_smctr_ssctr", multi-letter
 * extensions after '_').
 */
unsigned int rvp_sbi_ctr_isa_parse(const char *isa, unsigned int len,
				   int list);

/* What M-mode allows; the defaults (all zero) are the safe ones. */
struct rvp_sbi_ctr_policy {
	uint8_t record_m;	/* mctrctl.M: record M-mode (default never) */
	uint8_t mte;		/* mctrctl.MTE: traps to M-mode recorded */
	uint8_t lcofifrz;	/* freeze on LCOFI (needs LCOFI delegated) */
	unsigned int depth;	/* entries (16..256); 0: the maximum */
	/* The v0.1.4 draft layout may be used on a hart that declares it
	 * (RVP_SBI_CTR_ISA_DRAFT): build option RVPERF_CTR_DRAFT. */
	uint8_t draft;
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

/*
 * Finds CTR where isa (RVP_SBI_CTR_ISA_*) declares it: the ratified
 * layout's mctrctl/sctrctl for "smctr"/"ssctr", the draft's control
 * registers only for RVP_SBI_CTR_ISA_DRAFT with policy->draft.  A declared
 * CSR that traps is not there (an ISA string can claim more than the
 * hart has).  0 when CTR is there, else SBI_ERR_NOT_SUPPORTED with
 * c->layout NONE; no CTR CSR is touched that isa does not declare.
 */
int rvp_sbi_ctr_probe(const struct rvp_sbi_pmu_ops *ops, void *ctx,
		      struct rvp_sbi_ctr_hart *c,
		      const struct rvp_sbi_ctr_policy *policy, unsigned int isa);

/* Boot of a hart: state enable, LCOFI delegation, depth, mctrctl, clear.
 * A hart without CTR (or not declaring it) only gets LCOFI delegated
 * (when Sscofpmf is there). */
int rvp_sbi_ctr_hart_init(const struct rvp_sbi_pmu_ops *ops, void *ctx,
			  struct rvp_sbi_ctr_hart *c,
			  const struct rvp_sbi_ctr_policy *policy,
			  unsigned int isa);

/* Hart start (HSM) and resume from a non-retentive suspend: the records
 * left from before belong to someone else, so they go. */
void rvp_sbi_ctr_hart_start(const struct rvp_sbi_pmu_ops *ops, void *ctx,
			    const struct rvp_sbi_ctr_hart *c);
void rvp_sbi_ctr_hart_resume(const struct rvp_sbi_pmu_ops *ops, void *ctx,
			     const struct rvp_sbi_ctr_hart *c);

#endif /* RVPERF_OPENSBI_EXT_RVP_SBI_CTR_H */
