/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * harthw.h - a hart-sized wrapper around the CTR and counter models for
 * hosts that have no CSR file of their own (ctr-sim, the TCG plugin, tests,
 * fuzzers): the current mode, Smcsrind/Sscsrind *iselect registers,
 * Smstateen's mstateen0/hstateen0, mip.LCOFIP, the branch predictor, and
 * CSR dispatch to the CTR and counter models.  QEMU's target/riscv has all
 * of this already and uses ctrhw.h and hpmhw.h directly.
 */
#ifndef RVPERF_QEMU_MODEL_HARTHW_H
#define RVPERF_QEMU_MODEL_HARTHW_H

#include "ctrhw.h"
#include "hpmhw.h"
#include "predhw.h"

struct harthw_config {
	struct ctrhw_config ctr;
	unsigned int hpm_counters;	/* mhpmcounter3.. implemented */
	bool smstateen;
};

struct harthw {
	struct ctrhw ctr;
	struct hpmhw pmu;
	struct predhw pred;
	bool smstateen;
	uint64_t mstateen0, hstateen0;
	uint64_t miselect, siselect, vsiselect;
};

void harthw_config_default(struct harthw_config *cfg,
			     enum ctrhw_layout layout);
/* NULL when valid, else why not. */
const char *harthw_config_check(const struct harthw_config *cfg);
int harthw_init(struct harthw *hart, const struct harthw_config *cfg);

static inline enum hw_mode harthw_mode(const struct harthw *hart)
{
	return hart->ctr.mode;
}
void harthw_set_mode(struct harthw *hart, enum hw_mode mode);

/* CSR access from the current mode; never HW_ACCESS_NOT_MINE (a CSR no
 * part implements is illegal). */
enum hw_access harthw_csr_read(struct harthw *hart, unsigned int csrno,
				  uint64_t *val);
enum hw_access harthw_csr_write(struct harthw *hart, unsigned int csrno,
				   uint64_t val);
enum hw_access harthw_sctrclr(struct harthw *hart);

/* One retired control transfer within the mode (ctrdata TYPE), through the
 * predictor, the counters and CTR. */
void harthw_transfer(struct harthw *hart, unsigned int type,
		       uint64_t source, uint64_t target);
/* The same, by an instruction of LENGTH bytes (2 or 4), which the
 * predictor needs for a compressed call's return address. */
void harthw_transfer_len(struct harthw *hart, unsigned int type,
			   uint64_t source, uint64_t target,
			   unsigned int length);
/* N instructions retired / N cycles elapsed in the current mode. */
void harthw_retire(struct harthw *hart, uint64_t n);
void harthw_cycles(struct harthw *hart, uint64_t n);
void harthw_trap(struct harthw *hart, bool interrupt, uint64_t cause,
		   enum hw_mode target, uint64_t epc, uint64_t vector);
void harthw_trap_return(struct harthw *hart, enum hw_mode target,
			  uint64_t source, uint64_t dest);

#endif /* RVPERF_QEMU_MODEL_HARTHW_H */
