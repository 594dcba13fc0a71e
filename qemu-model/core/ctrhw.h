/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ctrhw.h - a freestanding model of Control Transfer Records (Smctr/Ssctr),
 * both the ratified v1.0 CSR layout and the v0.1.4 draft layout, chosen at
 * run time.
 *
 * The model is pure state plus return codes: the host (QEMU's target/riscv,
 * a TCG plugin, ctr-sim, tests, fuzzers) owns a struct ctrhw, tells it the
 * current privilege mode and the state-enable bits, forwards the CTR CSR
 * accesses and reports retired control transfers, traps, trap returns and
 * elapsed cycles.  Nothing here uses libc, globals or the host's headers.
 *
 * Spec constants come from include/rvperf/ctr.h; section names in comments
 * are those of the ratified spec ("Behavior", "Freeze", ...) unless a
 * comment says "draft", which means v0.1.4 chapter numbers.
 */
#ifndef RVPERF_QEMU_MODEL_CTRHW_H
#define RVPERF_QEMU_MODEL_CTRHW_H

#include "rvperf/types.h"
#include <stdbool.h>

#include "hwmodel.h"

enum ctrhw_layout {
	CTRHW_LAYOUT_RATIFIED,	/* v1.0: mctrctl, sctrdepth, SCTRCLR */
	CTRHW_LAYOUT_DRAFT,		/* v0.1.4: mctrcontrol, DEPTH, CLR */
};

/*
 * What an implementation chose where the spec lets it choose.
 * ctrhw_config_default() gives "everything implemented", depths 16-256.
 */
struct ctrhw_config {
	enum ctrhw_layout layout;
	/* Implemented optional control fields, as a mask in the layout's
	 * mctrctl/mctrcontrol bit positions; bits outside
	 * ctrhw_optional_fields() are ignored. */
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

struct ctrhw_entry {
	uint64_t source, target, data;
};

struct ctrhw_layout_desc;

#define CTRHW_MAX_DEPTH 256

struct ctrhw {
	/* Read by the inline fast paths; recomputed whenever the mode, a
	 * control register or FROZEN changes. */
	uint32_t accept;	/* bit T: a type-T transfer is recorded */
	bool counting;		/* CtrCycleCounter counts (CTR active) */
	enum hw_mode mode;

	uint64_t cycle_counter;	/* CtrCycleCounter, saturating */
	bool ccv_valid;		/* the next record may set CCV */

	uint64_t mctl;		/* mctrctl / mctrcontrol without DEPTH, CLR */
	uint64_t vsctl;		/* vsctrctl / vsctrcontrol likewise */
	unsigned int depth_log;	/* depth = 16 << depth_log */
	unsigned int wrptr;
	bool wrap;		/* draft mctrstatus.WRAP */
	bool frozen;
	bool mstateen_ctr, hstateen_ctr;

	const struct ctrhw_layout_desc *lay;
	struct ctrhw_config cfg;
	uint64_t mctl_wmask, vsctl_wmask;	/* writable control bits */
	uint64_t data_wmask, target_wmask, xlen_mask;
	unsigned int depth_log_min, depth_log_max;

	struct ctrhw_entry entry[CTRHW_MAX_DEPTH];	/* physical */
};

/* Every optional control field of a layout (all but the required ones). */
uint64_t ctrhw_optional_fields(enum ctrhw_layout layout);
void ctrhw_config_default(struct ctrhw_config *cfg,
			  enum ctrhw_layout layout);
/* NULL when the configuration is one the spec allows, else why not. */
const char *ctrhw_config_check(const struct ctrhw_config *cfg);

/* Reset state: everything zero, CTR disabled, depth the minimum supported,
 * mode M, state enables open.  Returns 0, or -1 for a config that
 * ctrhw_config_check() rejects. */
int ctrhw_init(struct ctrhw *ctr, const struct ctrhw_config *cfg);

/* The host changed mode without a transfer CTR sees (reset, debug). */
void ctrhw_set_mode(struct ctrhw *ctr, enum hw_mode mode);
/* mstateen0.CTR and hstateen0.CTR as the host's Smstateen has them (true,
 * true without Smstateen); the bit positions are ctrhw_stateen_bit(). */
void ctrhw_set_stateen(struct ctrhw *ctr, bool mstateen_ctr,
		       bool hstateen_ctr);
uint64_t ctrhw_stateen_bit(enum ctrhw_layout layout);

/*
 * CSR access from the current mode.  csrno is the number the instruction
 * names (the model does the V=1 redirection of sctrctl itself).  Returns
 * HW_ACCESS_NOT_MINE for numbers that are no CTR CSR of this layout, so
 * the host can try its own.
 */
enum hw_access ctrhw_csr_read(struct ctrhw *ctr, unsigned int csrno,
			      uint64_t *val);
enum hw_access ctrhw_csr_write(struct ctrhw *ctr, unsigned int csrno,
			       uint64_t val);

/*
 * An access to mireg*, sireg* or vsireg* (csrno as named by the
 * instruction) while the effective *iselect (vsiselect for sireg* when
 * V=1) holds iselect.  HW_ACCESS_NOT_MINE when iselect is outside
 * 0x200..0x2FF or the layout does not map this *ireg file to CTR.
 */
enum hw_access ctrhw_ireg_read(struct ctrhw *ctr, unsigned int csrno,
			       unsigned int iselect, uint64_t *val);
enum hw_access ctrhw_ireg_write(struct ctrhw *ctr, unsigned int csrno,
				unsigned int iselect, uint64_t val);

/* SCTRCLR executed in the current mode (ratified layout only). */
enum hw_access ctrhw_sctrclr(struct ctrhw *ctr);

/*
 * A retired control transfer that stays in the current mode: TYPE is a
 * ctrdata TYPE value (4, 5, 8-15; "Transfer Type Filtering"), MISP whether
 * the host's branch predictor (predhw.h, or none: false) mispredicted
 * it.  Disabled recording costs one load, one shift and one predictable
 * branch.
 */
void ctrhw_transfer_slow(struct ctrhw *ctr, unsigned int type,
			 uint64_t source, uint64_t target, bool misp);
static inline void ctrhw_transfer(struct ctrhw *ctr, unsigned int type,
				  uint64_t source, uint64_t target,
				  bool misp)
{
	if (__builtin_expect(!((ctr->accept >> (type & 15)) & 1), 1))
		return;
	ctrhw_transfer_slow(ctr, type & 15, source, target, misp);
}

/*
 * X[0..N-1], in-mode transfers in the current mode whose cycles the host
 * does not know (as QEMU without -icount): the same state as, for each in
 * order, ctrhw_cycles_lost() when counting and ctrhw_transfer().  Only
 * the records the buffer can still hold at the end are written; the ones
 * they overwrite just move WRPTR (and WRAP) as they would have.  Hosts
 * that buffer transfers between two looks at CTR use it.
 */
void ctrhw_transfers_untimed(struct ctrhw *ctr, const struct hw_xfer *x,
			     unsigned int n);

/*
 * X[0..N-1], in-mode transfers in the current mode with the cycles each
 * retired at: the same state as, for each in order, ctrhw_cycles() of the
 * cycles since *MARK (then its stamp) and ctrhw_transfer_slow() (not
 * mispredicted).  *MARK ends at the last one's stamp.  Hosts that keep
 * back the records a look at CTR can still find give them so.
 */
void ctrhw_transfers_timed(struct ctrhw *ctr, const struct hw_xfer_timed *x,
			   unsigned int n, uint64_t *mark);

/*
 * A trap from the current mode to TARGET (exception or interrupt CAUSE,
 * trapping instruction's pc EPC, handler address VECTOR); the model's mode
 * becomes TARGET.  Implements "Privilege Mode Transitions", "External
 * Traps" and "Freeze".
 */
void ctrhw_trap(struct ctrhw *ctr, bool interrupt, uint64_t cause,
		enum hw_mode target, uint64_t epc, uint64_t vector);
/* An MRET/SRET from the current mode at SOURCE back to TARGET at DEST. */
void ctrhw_trap_return(struct ctrhw *ctr, enum hw_mode target,
		       uint64_t source, uint64_t dest);

/* N cycles elapsed (at mcycle's rate) in the current mode. */
void ctrhw_cycles_slow(struct ctrhw *ctr, uint64_t n);
static inline void ctrhw_cycles(struct ctrhw *ctr, uint64_t n)
{
	if (__builtin_expect(ctr->counting, 0))
		ctrhw_cycles_slow(ctr, n);
}
/* Active cycles went uncounted (e.g. a host without cycle-exact timing):
 * the next record gets CCV=0 ("Cycle Counting"). */
void ctrhw_cycles_lost(struct ctrhw *ctr);

unsigned int ctrhw_depth(const struct ctrhw *ctr);
/* Logical entry N (0 = newest) without access checks, for save/restore and
 * tests; zeros at or beyond the depth. */
void ctrhw_entry_get(const struct ctrhw *ctr, unsigned int logical,
		     struct ctrhw_entry *out);

/* Whether MODE is enabled for recording (mctrctl.M/S/U, vsctrctl.S/U). */
bool ctrhw_mode_enabled(const struct ctrhw *ctr, enum hw_mode mode);

#endif /* RVPERF_QEMU_MODEL_CTRHW_H */
