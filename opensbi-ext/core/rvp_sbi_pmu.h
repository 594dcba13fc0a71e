/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rvp_sbi_pmu.h - a freestanding SBI PMU extension core (SBI v3.0 PMU chapter,
 * all nine functions), hostable by OpenSBI, by a bare-metal M-mode firmware
 * and by the host simulator sbi-sim.
 *
 * Split of responsibilities:
 *  - policy lives here: which logical counter takes which event, the
 *    argument checks, the error codes, the snapshot and event-info layouts;
 *  - plumbing lives in the host's struct rvp_sbi_pmu_ops: CSR access by number,
 *    S-mode memory checks and copies, and platform firmware events.
 *
 * No libc, no globals: the host owns every struct and passes it in.  All
 * state of one hart is in struct rvp_sbi_pmu_hart, including what its hardware
 * has (each hart probes its own counters: harts may differ); nothing is
 * shared between harts except the read-only struct rvp_sbi_pmu_platform.
 *
 * Re-entrancy contract.  The functions below are not re-entrant on one
 * hart: while one of them runs on a struct rvp_sbi_pmu_hart, no other may be
 * called on the same struct (from a nested trap, an M-mode interrupt or an
 * SSE/NMI path).  In OpenSBI this holds by construction: PMU ecalls and the
 * firmware-event sites all run in M-mode trap context with MIE clear and
 * never nest into each other.  A host that feeds firmware events from an
 * M-mode interrupt it leaves enabled during ecalls must mask it around
 * rvp_sbi_pmu_ecall().  Different harts never share a struct and need no lock.
 * Work per call is bounded by the counters (at most 63) and the riscv,pmu
 * maps (at most 64 entries each), never by a count S-mode chooses:
 * event_get_info answers at most RVP_SBI_PMU_EVENT_INFO_MAX_ENTRIES entries.
 *
 * Register values are carried as uint64_t whatever the XLEN; hw.xlen (32 or
 * 64) says how many of their bits are meaningful, so one build of the core
 * on a 64-bit host can act as an RV32 or an RV64 SBI implementation.
 */
#ifndef RVPERF_OPENSBI_EXT_RVP_SBI_PMU_H
#define RVPERF_OPENSBI_EXT_RVP_SBI_PMU_H

#include <rvperf/types.h>
#include <rvperf/sbi_pmu.h>

/*
 * Logical counters: 0..num_hw-1 are the implemented hardware counters in
 * CSR order (mcycle, minstret, mhpmcounter3..31; `time` is not a counter the
 * PMU can configure, so it gets no index), then num_fw firmware counters.
 * Dense numbering keeps every index below num_counters valid, which is what
 * a caller iterating counter_get_info over 0..num_counters-1 expects.
 */
#define RVP_SBI_PMU_MAX_HW_CTRS	31
#define RVP_SBI_PMU_MAX_FW_CTRS	32
#define RVP_SBI_PMU_MAX_CTRS	(RVP_SBI_PMU_MAX_HW_CTRS + RVP_SBI_PMU_MAX_FW_CTRS)

/* Capacity of each devicetree riscv,pmu map (entries). */
#define RVP_SBI_PMU_MAX_MAP		64

struct rvp_sbiret {
	long error;
	uint64_t value;
};

/* Host plumbing.  ctx is the host's own per-hart pointer. */
struct rvp_sbi_pmu_ops {
	/* Read or write a CSR of the calling hart, XLEN bits wide. */
	uint64_t (*csr_read)(void *ctx, unsigned int csr);
	void (*csr_write)(void *ctx, unsigned int csr, uint64_t val);
	/*
	 * Whether the CSR exists (reading it would not trap); the value read
	 * is stored in *val.  Used only for discovery (CTR, Smstateen,
	 * Smcntrpmf); may be NULL when the host passes a ready description.
	 */
	int (*csr_probe)(void *ctx, unsigned int csr, uint64_t *val);
	/*
	 * Whether S-mode itself may access [addr, addr + size) (write access
	 * when write is non-zero): not firmware, not MMIO, not another
	 * domain's memory.  size is non-zero and addr + size does not wrap;
	 * the core has checked that already.  The answer must not change
	 * while S-mode runs: the snapshot area is checked once, when S-mode
	 * sets it, and only mapped by every start and stop after that.
	 */
	int (*smode_range_ok)(void *ctx, uint64_t addr, uint64_t size,
			      int write);
	/*
	 * Make [addr, addr + len) of S-mode memory (already accepted by
	 * smode_range_ok) accessible to M-mode and return where M-mode sees
	 * it, or NULL.  Every successful map is undone by one smode_unmap of
	 * the same range before the PMU call returns, and a PMU call maps at
	 * most one range: on Smepmp hardware each map is a PMP reprogram.
	 * write: whether the core will write through the mapping.
	 */
	void *(*smode_map)(void *ctx, uint64_t addr, uint64_t len, int write);
	void (*smode_unmap)(void *ctx, uint64_t addr, uint64_t len);
	/*
	 * Whether SBI_PMU_FW_PLATFORM with this event_data is an event the
	 * platform can report.  NULL: no platform firmware events.
	 */
	int (*fw_platform_event_ok)(void *ctx, uint64_t event_data);
	/*
	 * Execute SCTRCLR (ratified CTR): zeroes every CTR entry.  NULL when
	 * the host has no CTR; the draft layout clears through a CSR bit
	 * instead and does not need it.
	 */
	void (*ctr_clear)(void *ctx);
};

/* riscv,event-to-mhpmevent: one event_idx and its mhpmevent selector. */
struct rvp_sbi_pmu_evt_sel {
	uint32_t event_idx;
	uint64_t select;
};

/* riscv,event-to-mhpmcounters: event_idx range and hardware counter bitmap
 * (bit N = mhpmcounterN, bit 0 = mcycle, bit 2 = minstret). */
struct rvp_sbi_pmu_evt_ctrs {
	uint32_t first, last;
	uint32_t ctr_map;
};

/* riscv,raw-event-to-mhpmcounters: raw event_data matching select under
 * mask may use the counters of ctr_map. */
struct rvp_sbi_pmu_raw_ctrs {
	uint64_t select, mask;
	uint32_t ctr_map;
};

struct rvp_sbi_pmu_maps {
	unsigned int nr_sel, nr_ctrs, nr_raw;
	struct rvp_sbi_pmu_evt_sel sel[RVP_SBI_PMU_MAX_MAP];
	struct rvp_sbi_pmu_evt_ctrs ctrs[RVP_SBI_PMU_MAX_MAP];
	struct rvp_sbi_pmu_raw_ctrs raw[RVP_SBI_PMU_MAX_MAP];
};

/* What the hart's hardware has (rvp_sbi_pmu_discover() fills it by probing). */
struct rvp_sbi_pmu_hw {
	unsigned int xlen;		/* 32 or 64 */
	uint32_t ctr_mask;		/* bit N: counter N implemented (1 never) */
	uint8_t width[32];		/* counter N's width in bits */
	uint8_t sscofpmf;		/* mhpmevent OF and xINH bits */
	uint8_t smcntrpmf;		/* mcyclecfg/minstretcfg filters */
};

/*
 * event_get_info answers at most this many entries per call (one 4 KiB
 * page of them): a call with more fails with SBI_ERR_FAILED and writes
 * nothing, so M-mode never runs with interrupts off for a time S-mode
 * chooses.  Every event the chapter defines fits in a handful of such
 * calls (Linux asks for 52 entries at once).
 */
#define RVP_SBI_PMU_EVENT_INFO_MAX_ENTRIES	256

/* Read-only description shared by every hart it applies to. */
struct rvp_sbi_pmu_platform {
	unsigned int xlen;		/* 32 or 64 */
	const struct rvp_sbi_pmu_maps *maps;	/* NULL: no riscv,pmu node */
	unsigned int num_fw_ctrs;	/* <= RVP_SBI_PMU_MAX_FW_CTRS */
	/* Implementation-specific firmware events supported: codes
	 * fw_impl_first..fw_impl_last (none when first > last). */
	uint32_t fw_impl_first, fw_impl_last;
	uint8_t no_snapshot;		/* FID 7 answers NOT_SUPPORTED */
	uint8_t no_event_info;		/* FID 8 answers NOT_SUPPORTED */
	/* Policy: never let S-mode count M-mode (MINH forced on), the
	 * filters being hints the implementation may override.  Also the
	 * Smcntrpmf filters mcycle and minstret get at hart init. */
	uint8_t force_minh;
	/* The hart is QEMU's (its virt board): work around QEMU's stale
	 * overflow deadline (rvp_sbi_pmu.c, start_far()).  The host sets it
	 * only there; with RVPERF_QEMU_QUIRKS=0 at build time the workaround
	 * is not compiled and this is ignored. */
	uint8_t qemu_quirks;
};

/* Everything one hart's PMU needs; the host allocates it per hart. */
struct rvp_sbi_pmu_hart {
	const struct rvp_sbi_pmu_platform *plat;
	const struct rvp_sbi_pmu_ops *ops;
	void *ctx;
	struct rvp_sbi_pmu_hw hw;			/* this hart's, probed at init */
	uint64_t xmask;				/* XLEN bits set */
	uint32_t ctr_to_logical_dense;		/* see rvp_sbi_pmu.c, hw_to_logical */
	unsigned int num_hw;			/* logical hardware counters */
	unsigned int num_ctrs;			/* num_hw + num_fw_ctrs */
	uint8_t hw_ctr[RVP_SBI_PMU_MAX_HW_CTRS];	/* logical -> counter N */
	uint64_t configured;			/* logical counters mapped */
	uint64_t started;			/* logical counters started */
	uint32_t event_idx[RVP_SBI_PMU_MAX_CTRS];
	uint64_t event_data[RVP_SBI_PMU_MAX_CTRS];
	uint64_t fw_value[RVP_SBI_PMU_MAX_FW_CTRS];
	uint8_t shmem_enabled;
	uint64_t shmem_addr;
	uint32_t inhibit;			/* mcountinhibit as written */
};

/*
 * Probes the calling hart's counters through ops (write all-ones, read
 * back: unimplemented counters are read-only zero) and whether Sscofpmf
 * and Smcntrpmf are there.  Leaves the counters inhibited and zeroed.
 */
void rvp_sbi_pmu_discover(const struct rvp_sbi_pmu_ops *ops, void *ctx,
			  unsigned int xlen, struct rvp_sbi_pmu_hw *hw);

/*
 * Sets up the calling hart: probes its counters (rvp_sbi_pmu_discover), every
 * counter stopped and unmapped, hpm counters inhibited, mcycle and
 * minstret left counting (S-mode reads them through cycle/instret even
 * when nobody configured them), their Smcntrpmf filters reset (MINH when
 * plat->force_minh).  Call it on every boot of the hart, on that hart.
 * Returns 0 or SBI_ERR_INVALID_PARAM for a description the core cannot
 * serve.
 */
int rvp_sbi_pmu_hart_init(struct rvp_sbi_pmu_hart *h,
			  const struct rvp_sbi_pmu_platform *plat,
			  const struct rvp_sbi_pmu_ops *ops, void *ctx);

/*
 * The PMU extension's ecall: fid and args[0..5] = a0..a5 as S-mode passed them (each
 * XLEN bits; higher bits are ignored).
 */
struct rvp_sbiret rvp_sbi_pmu_ecall(struct rvp_sbi_pmu_hart *h, unsigned long fid,
				    const uint64_t *args);

/* The nine functions, for hosts that dispatch themselves. */
struct rvp_sbiret rvp_sbi_pmu_num_counters(struct rvp_sbi_pmu_hart *h);
struct rvp_sbiret rvp_sbi_pmu_counter_get_info(struct rvp_sbi_pmu_hart *h,
					       uint64_t cidx);
struct rvp_sbiret rvp_sbi_pmu_counter_config_matching(struct rvp_sbi_pmu_hart *h,
						      uint64_t cbase,
						      uint64_t cmask,
						      uint64_t flags,
						      uint64_t event_idx,
						      uint64_t event_data);
struct rvp_sbiret rvp_sbi_pmu_counter_start(struct rvp_sbi_pmu_hart *h,
					    uint64_t cbase, uint64_t cmask,
					    uint64_t flags, uint64_t ival);
struct rvp_sbiret rvp_sbi_pmu_counter_stop(struct rvp_sbi_pmu_hart *h,
					   uint64_t cbase, uint64_t cmask,
					   uint64_t flags);
struct rvp_sbiret rvp_sbi_pmu_counter_fw_read(struct rvp_sbi_pmu_hart *h,
					      uint64_t cidx);
struct rvp_sbiret rvp_sbi_pmu_counter_fw_read_hi(struct rvp_sbi_pmu_hart *h,
						 uint64_t cidx);
struct rvp_sbiret rvp_sbi_pmu_snapshot_set_shmem(struct rvp_sbi_pmu_hart *h,
						 uint64_t lo, uint64_t hi,
						 uint64_t flags);
struct rvp_sbiret rvp_sbi_pmu_event_get_info(struct rvp_sbi_pmu_hart *h,
					     uint64_t lo, uint64_t hi,
					     uint64_t num_entries,
					     uint64_t flags);

/*
 * A firmware event happened count times on this hart (the host calls it
 * from its trap and IPI paths).  Every started firmware counter mapped to
 * the event counts it; for SBI_PMU_FW_PLATFORM the event_data must match
 * too.  code is the event code (event_idx[15:0]).
 */
void rvp_sbi_pmu_fw_event(struct rvp_sbi_pmu_hart *h, uint32_t code,
			  uint64_t event_data, uint64_t count);

/*
 * Logical counters that are started and have overflowed (Sscofpmf OF
 * set): what a local counter overflow interrupt taken in M-mode is about
 * (0: a spurious one).  Always 0 without Sscofpmf.
 */
uint64_t rvp_sbi_pmu_overflowed(struct rvp_sbi_pmu_hart *h);

#endif /* RVPERF_OPENSBI_EXT_RVP_SBI_PMU_H */
