/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sim_hw.h - the simulated machine behind sbi-sim and the fuzzer: harts
 * with counter, Sscofpmf, Smcntrpmf, Smstateen, CTR and Ssqosid CSRs, an
 * ISA string that may or may not declare what they have, and physical
 * memory in regions S-mode may (RAM) or may not (firmware, MMIO) access.
 * It hosts the freestanding core through struct rvp_sbi_pmu_ops exactly as
 * OpenSBI or a bare-metal firmware would.
 */
#ifndef RVPERF_SIM_HW_H
#define RVPERF_SIM_HW_H

#include <stdint.h>
#include <stddef.h>

#include "opensbi-ext/core/rvp_sbi_pmu.h"
#include "opensbi-ext/core/rvp_sbi_ctr.h"

#define SIM_MAX_HARTS	4
#define SIM_MAX_REGIONS	8
#define SIM_MAX_REGION_SIZE	(64ULL << 20)

enum sim_region_kind { SIM_RAM, SIM_FW, SIM_MMIO };

struct sim_region {
	enum sim_region_kind kind;
	uint64_t base, size;
	uint8_t *mem;
};

/* The CSR state a hart has; compared whole by 'expect unchanged'. */
struct sim_csrs {
	uint64_t ctr[32];		/* counter N, width-masked */
	uint64_t evt[32];		/* mhpmeventN */
	uint64_t inhibit;		/* mcountinhibit */
	uint64_t cfg[3];		/* mcyclecfg [0], minstretcfg [2] */
	uint64_t mip, mie, mideleg, mstateen0;
	uint64_t ctrctl, ctrdepth, ctrstatus;	/* m-level CTR control */
	uint64_t sctrctl_shadow;		/* unused by layouts that alias */
	uint64_t ctr_entries;		/* recorded entries (model) */
	uint64_t srmcfg;		/* Ssqosid: RCID, MCID (WARL) */
	/* Counters whose mcountinhibit bit was cleared while their
	 * mhpmevent.OF was set: QEMU arms no overflow for those. */
	uint64_t of_starts;
};

struct sim_hart {
	struct sim *sim;
	int present;
	unsigned int id;
	/* configuration */
	unsigned int xlen;
	uint32_t ctr_mask;
	unsigned int hpm_width, fixed_width;
	int sscofpmf, smcntrpmf, smstateen;
	int ctr_ext;			/* 0 none, 1 Ssctr only, 2 Smctr */
	int ctr_layout;			/* RVP_SBI_CTR_LAYOUT_* */
	int ssqosid;			/* srmcfg 0x181, mstateen0 bit 55 */
	/* What the ISA string declares (RVP_SBI_CTR_ISA_*, and ssqosid):
	 * by default what the hart has, in the ratified names. */
	int isa_set;
	unsigned int isa;
	int isa_ssqosid;
	uint32_t ctr_depths;		/* bit e: depth encoding e exists */
	char mode;			/* 'M', 'S', 'U', 'V' (VS), 'W' (VU) */
	unsigned int fw_platform_max;	/* platform event_data < this */
	struct rvp_sbi_ctr_policy ctr_policy;
	/* state */
	struct sim_csrs csr;
	struct rvp_sbi_pmu_platform plat;	/* options of this hart's 'hart' line */
	struct rvp_sbi_pmu_hart pmu;
	struct rvp_sbi_ctr_hart ctr;
	/* faults the core must never cause */
	unsigned int illegal_csr;	/* access to a CSR that is not there */
	unsigned int bad_access;	/* S-mode memory outside S-mode RAM */
	int mapped;			/* smode_map minus smode_unmap calls */
	/* CSR accesses through the ops during the last ecall or, before
	 * any, the boot: reads (probes included) and writes */
	uint16_t csr_reads[4096], csr_writes[4096];
	/* memory the core touched during the last ecall */
	unsigned int nr_acc;
	struct { uint64_t addr, len; int write; } acc[64];
};

struct sim {
	struct sim_region reg[SIM_MAX_REGIONS];
	unsigned int nr_reg;
	struct rvp_sbi_pmu_maps maps;
	int have_maps;
	/* The platform description all harts share (OpenSBI has one). */
	struct rvp_sbi_pmu_platform plat;
	struct sim_hart hart[SIM_MAX_HARTS];
	unsigned int cur;
	char err[160];			/* last configuration error */
};

extern const struct rvp_sbi_pmu_ops sim_pmu_ops;

void sim_init(struct sim *s);
void sim_free(struct sim *s);
/* Adds a memory region; 0 or -1 (s->err says why). */
int sim_add_region(struct sim *s, enum sim_region_kind kind, uint64_t base,
		   uint64_t size);
/* Sets hart key=value before sim_hart_boot(); 0 or -1. */
int sim_hart_set(struct sim_hart *h, const char *key, const char *val);
void sim_hart_defaults(struct sim *s, struct sim_hart *h, unsigned int id);
/* Discovery and PMU/CTR init through the core, as a firmware boot would. */
int sim_hart_boot(struct sim_hart *h);

/* CSR access as the hart's M-mode sees it; *exists = 0 means it traps. */
uint64_t sim_csr_read(struct sim_hart *h, unsigned int csr, int *exists);
void sim_csr_write(struct sim_hart *h, unsigned int csr, uint64_t v,
		   int *exists);

/* Backing store of [addr, addr + len) if one region holds it all. */
uint8_t *sim_mem(struct sim *s, uint64_t addr, uint64_t len,
		 enum sim_region_kind *kind);

/* Hardware events: counter N counts 'n' (cycle: N = 0, instret: N = 2,
 * hpm: every running counter whose selector is sel). */
void sim_tick_fixed(struct sim_hart *h, unsigned int n, uint64_t count);
void sim_tick_hpm(struct sim_hart *h, uint64_t sel, uint64_t count);
/* count qualified transfers in the current mode, for CTR. */
void sim_tick_branch(struct sim_hart *h, uint64_t count);

/* One PMU ecall on the hart, with the access log reset first. */
struct rvp_sbiret sim_ecall(struct sim_hart *h, uint64_t eid, uint64_t fid,
			    const uint64_t a[6]);

#endif /* RVPERF_SIM_HW_H */
