/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rvp_ctr.h - a freestanding model of Control Transfer Records (Smctr/Ssctr),
 * both the ratified v1.0 CSR layout and the v0.1.4 draft layout, chosen at
 * run time.
 *
 * The model is pure state plus return codes: the host (QEMU's target/riscv,
 * a TCG plugin, ctr-sim, tests, fuzzers) owns a struct rvp_ctr, tells it the
 * current privilege mode and the state-enable bits, forwards the CTR CSR
 * accesses and reports retired control transfers, traps, trap returns and
 * elapsed cycles.  Nothing here uses libc, globals or the host's headers.
 *
 * Spec constants come from include/rvperf/ctr.h; section names in comments
 * are those of the ratified spec ("Behavior", "Freeze", ...) unless a
 * comment says "draft", which means v0.1.4 chapter numbers.
 */
#ifndef RVPERF_QEMU_MODEL_RVP_CTR_H
#define RVPERF_QEMU_MODEL_RVP_CTR_H

#include "rvperf/types.h"
#include <stdbool.h>

#include "rvp_model.h"

enum rvp_ctr_layout {
	RVP_CTR_LAYOUT_RATIFIED,	/* v1.0: mctrctl, sctrdepth, SCTRCLR */
	RVP_CTR_LAYOUT_DRAFT,		/* v0.1.4: mctrcontrol, DEPTH, CLR */
};

/*
 * What an implementation chose where the spec lets it choose.
 * rvp_ctr_config_default() gives "everything implemented", depths 16-256.
 */
struct rvp_ctr_config {
	enum rvp_ctr_layout layout;
	/* Implemented optional control fields, as a mask in the layout's
	 * mctrctl/mctrcontrol bit positions; bits outside
	 * rvp_ctr_optional_fields() are ignored. */
	uint64_t ctl_optional;
	unsigned int depth_min, depth_max;	/* entries: 16, 32, ..., 256 */
	bool cycle_counting;	/* ctrdata.CCV and CCM (Cycle Counting) */
	unsigned int cce_bits;	/* implemented CCE bits, 0..4 */
	bool type_field;	/* ctrdata.TYPE */
	bool misp;		/* ctrtarget.MISP (the host's predictor says) */
	bool h_ext;		/* H extension: VS/VU modes, vsctrctl */
	bool sscofpmf;		/* makes LCOFIFRZ mandatory (ratified) */
	unsigned int xlen;	/* 32 or 64 (MXLEN = XLEN) */
};

struct rvp_ctr_entry {
	uint64_t source, target, data;
};

struct rvp_ctr_layout_desc;

#define RVP_CTR_MAX_DEPTH 256

struct rvp_ctr {
	/* Read by the inline fast paths; recomputed whenever the mode, a
	 * control register or FROZEN changes. */
	uint32_t accept;	/* bit T: a type-T transfer is recorded */
	bool counting;		/* CtrCycleCounter counts (CTR active) */
	enum rvp_mode mode;

	uint64_t cycle_counter;	/* CtrCycleCounter, saturating */
	bool ccv_valid;		/* the next record may set CCV */

	uint64_t mctl;		/* mctrctl / mctrcontrol without DEPTH, CLR */
	uint64_t vsctl;		/* vsctrctl / vsctrcontrol likewise */
	unsigned int depth_log;	/* depth = 16 << depth_log */
	unsigned int wrptr;
	bool wrap;		/* draft mctrstatus.WRAP */
	bool frozen;
	bool mstateen_ctr, hstateen_ctr;

	const struct rvp_ctr_layout_desc *lay;
	struct rvp_ctr_config cfg;
	uint64_t mctl_wmask, vsctl_wmask;	/* writable control bits */
	uint64_t data_wmask, target_wmask, xlen_mask;
	unsigned int depth_log_min, depth_log_max;

	struct rvp_ctr_entry entry[RVP_CTR_MAX_DEPTH];	/* physical */
};

/* Every optional control field of a layout (all but the required ones). */
uint64_t rvp_ctr_optional_fields(enum rvp_ctr_layout layout);
void rvp_ctr_config_default(struct rvp_ctr_config *cfg,
			    enum rvp_ctr_layout layout);
/* NULL when the configuration is one the spec allows, else why not. */
const char *rvp_ctr_config_check(const struct rvp_ctr_config *cfg);

/* Reset state: everything zero, CTR disabled, depth the minimum supported,
 * mode M, state enables open.  Returns 0, or -1 for a config that
 * rvp_ctr_config_check() rejects. */
int rvp_ctr_init(struct rvp_ctr *ctr, const struct rvp_ctr_config *cfg);

/* The host changed mode without a transfer CTR sees (reset, debug). */
void rvp_ctr_set_mode(struct rvp_ctr *ctr, enum rvp_mode mode);
/* mstateen0.CTR and hstateen0.CTR as the host's Smstateen has them (true,
 * true without Smstateen); the bit positions are rvp_ctr_stateen_bit(). */
void rvp_ctr_set_stateen(struct rvp_ctr *ctr, bool mstateen_ctr,
			 bool hstateen_ctr);
uint64_t rvp_ctr_stateen_bit(enum rvp_ctr_layout layout);

/*
 * CSR access from the current mode.  csrno is the number the instruction
 * names (the model does the V=1 redirection of sctrctl itself).  Returns
 * RVP_ACCESS_NOT_MINE for numbers that are no CTR CSR of this layout, so
 * the host can try its own.
 */
enum rvp_access rvp_ctr_csr_read(struct rvp_ctr *ctr, unsigned int csrno,
				 uint64_t *val);
enum rvp_access rvp_ctr_csr_write(struct rvp_ctr *ctr, unsigned int csrno,
				  uint64_t val);

/*
 * An access to mireg*, sireg* or vsireg* (csrno as named by the
 * instruction) while the effective *iselect (vsiselect for sireg* when
 * V=1) holds iselect.  RVP_ACCESS_NOT_MINE when iselect is outside
 * 0x200..0x2FF or the layout does not map this *ireg file to CTR.
 */
enum rvp_access rvp_ctr_ireg_read(struct rvp_ctr *ctr, unsigned int csrno,
				  unsigned int iselect, uint64_t *val);
enum rvp_access rvp_ctr_ireg_write(struct rvp_ctr *ctr, unsigned int csrno,
				   unsigned int iselect, uint64_t val);

/* SCTRCLR executed in the current mode (ratified layout only). */
enum rvp_access rvp_ctr_sctrclr(struct rvp_ctr *ctr);

/*
 * A retired control transfer that stays in the current mode: TYPE is a
 * ctrdata TYPE value (4, 5, 8-15; "Transfer Type Filtering"), MISP whether
 * the host's branch predictor (rvp_pred.h, or none: false) mispredicted
 * it.  Disabled recording costs one load, one shift and one predictable
 * branch.
 */
void rvp_ctr_transfer_slow(struct rvp_ctr *ctr, unsigned int type,
			   uint64_t source, uint64_t target, bool misp);
static inline void rvp_ctr_transfer(struct rvp_ctr *ctr, unsigned int type,
				    uint64_t source, uint64_t target,
				    bool misp)
{
	if (__builtin_expect(!((ctr->accept >> (type & 15)) & 1), 1))
		return;
	rvp_ctr_transfer_slow(ctr, type & 15, source, target, misp);
}

/*
 * X[0..N-1], in-mode transfers in the current mode whose cycles the host
 * does not know (as QEMU without -icount): the same state as, for each in
 * order, rvp_ctr_cycles_lost() when counting and rvp_ctr_transfer().  Only
 * the records the buffer can still hold at the end are written; the ones
 * they overwrite just move WRPTR (and WRAP) as they would have.  Hosts
 * that buffer transfers between two looks at CTR use it.
 */
void rvp_ctr_transfers_untimed(struct rvp_ctr *ctr, const struct rvp_xfer *x,
			       unsigned int n);

/*
 * A trap from the current mode to TARGET (exception or interrupt CAUSE,
 * trapping instruction's pc EPC, handler address VECTOR); the model's mode
 * becomes TARGET.  Implements "Privilege Mode Transitions", "External
 * Traps" and "Freeze".
 */
void rvp_ctr_trap(struct rvp_ctr *ctr, bool interrupt, uint64_t cause,
		  enum rvp_mode target, uint64_t epc, uint64_t vector);
/* An MRET/SRET from the current mode at SOURCE back to TARGET at DEST. */
void rvp_ctr_trap_return(struct rvp_ctr *ctr, enum rvp_mode target,
			 uint64_t source, uint64_t dest);

/* N cycles elapsed (at mcycle's rate) in the current mode. */
void rvp_ctr_cycles_slow(struct rvp_ctr *ctr, uint64_t n);
static inline void rvp_ctr_cycles(struct rvp_ctr *ctr, uint64_t n)
{
	if (__builtin_expect(ctr->counting, 0))
		rvp_ctr_cycles_slow(ctr, n);
}
/* Active cycles went uncounted (e.g. a host without cycle-exact timing):
 * the next record gets CCV=0 ("Cycle Counting"). */
void rvp_ctr_cycles_lost(struct rvp_ctr *ctr);

unsigned int rvp_ctr_depth(const struct rvp_ctr *ctr);
/* Logical entry N (0 = newest) without access checks, for save/restore and
 * tests; zeros at or beyond the depth. */
void rvp_ctr_entry_get(const struct rvp_ctr *ctr, unsigned int logical,
		       struct rvp_ctr_entry *out);

/* Whether MODE is enabled for recording (mctrctl.M/S/U, vsctrctl.S/U). */
bool rvp_ctr_mode_enabled(const struct rvp_ctr *ctr, enum rvp_mode mode);

#endif /* RVPERF_QEMU_MODEL_RVP_CTR_H */
