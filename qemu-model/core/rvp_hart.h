/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rvp_hart.h - a hart-sized wrapper around the CTR and counter models for
 * hosts that have no CSR file of their own (ctr-sim, the TCG plugin, tests,
 * fuzzers): the current mode, Smcsrind/Sscsrind *iselect registers,
 * Smstateen's mstateen0/hstateen0, mip.LCOFIP, the branch predictor, and
 * CSR dispatch to the CTR and counter models.  QEMU's target/riscv has all
 * of this already and uses rvp_ctr.h and rvp_pmu.h directly.
 */
#ifndef RVPERF_QEMU_MODEL_RVP_HART_H
#define RVPERF_QEMU_MODEL_RVP_HART_H

#include "rvp_ctr.h"
#include "rvp_pmu.h"
#include "rvp_pred.h"

struct rvp_hart_config {
	struct rvp_ctr_config ctr;
	unsigned int hpm_counters;	/* mhpmcounter3.. implemented */
	bool smstateen;
};

struct rvp_hart {
	struct rvp_ctr ctr;
	struct rvp_pmu pmu;
	struct rvp_pred pred;
	bool smstateen;
	uint64_t mstateen0, hstateen0;
	uint64_t miselect, siselect, vsiselect;
};

void rvp_hart_config_default(struct rvp_hart_config *cfg,
			     enum rvp_ctr_layout layout);
/* NULL when valid, else why not. */
const char *rvp_hart_config_check(const struct rvp_hart_config *cfg);
int rvp_hart_init(struct rvp_hart *hart, const struct rvp_hart_config *cfg);

static inline enum rvp_mode rvp_hart_mode(const struct rvp_hart *hart)
{
	return hart->ctr.mode;
}
void rvp_hart_set_mode(struct rvp_hart *hart, enum rvp_mode mode);

/* CSR access from the current mode; never RVP_ACCESS_NOT_MINE (a CSR no
 * part implements is illegal). */
enum rvp_access rvp_hart_csr_read(struct rvp_hart *hart, unsigned int csrno,
				  uint64_t *val);
enum rvp_access rvp_hart_csr_write(struct rvp_hart *hart, unsigned int csrno,
				   uint64_t val);
enum rvp_access rvp_hart_sctrclr(struct rvp_hart *hart);

/* One retired control transfer within the mode (ctrdata TYPE), through the
 * predictor, the counters and CTR. */
void rvp_hart_transfer(struct rvp_hart *hart, unsigned int type,
		       uint64_t source, uint64_t target);
/* The same, by an instruction of LENGTH bytes (2 or 4), which the
 * predictor needs for a compressed call's return address. */
void rvp_hart_transfer_len(struct rvp_hart *hart, unsigned int type,
			   uint64_t source, uint64_t target,
			   unsigned int length);
/* N instructions retired / N cycles elapsed in the current mode. */
void rvp_hart_retire(struct rvp_hart *hart, uint64_t n);
void rvp_hart_cycles(struct rvp_hart *hart, uint64_t n);
void rvp_hart_trap(struct rvp_hart *hart, bool interrupt, uint64_t cause,
		   enum rvp_mode target, uint64_t epc, uint64_t vector);
void rvp_hart_trap_return(struct rvp_hart *hart, enum rvp_mode target,
			  uint64_t source, uint64_t dest);

#endif /* RVPERF_QEMU_MODEL_RVP_HART_H */
