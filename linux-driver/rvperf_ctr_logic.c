// SPDX-License-Identifier: GPL-2.0-only
/*
 * rvperf CTR branch stacks: the logic that touches no hardware.
 *
 * The hardware is programmed with the union of what the active branch
 * events want; every record is then filtered again for each event by
 * transfer type and privilege (the ARM BRBE driver's model), so two events
 * with different filters each get exactly what they asked for.
 */

#include <kunit/visibility.h>
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/minmax.h>
#include <linux/string.h>

#include "rvperf_ctr_logic.h"
#include "rvperf_ctr_regs.h"

#define T(x)	BIT(RVP_CTRDATA_TYPE_##x)

#define RVCTR_TYPES_CALL	(T(INDIRECT_CALL) | T(DIRECT_CALL))
#define RVCTR_TYPES_TRAP	(T(EXCEPTION) | T(INTERRUPT))
#define RVCTR_TYPES_RETURN	(T(FUNCTION_RETURN) | T(TRAP_RETURN))
#define RVCTR_TYPES_IND_JUMP	(T(INDIRECT_JUMP) | T(OTHER_INDIRECT_JUMP))
/*
 * Every defined TYPE but not-taken branches (perf has no name for them);
 * TYPE 0 (no TYPE support) goes to ANY events, see rvctr_record_to_entry().
 */
#define RVCTR_TYPES_ANY		(GENMASK(15, 1) & ~(T(NOT_TAKEN_BRANCH) | \
				 BIT(6) | BIT(7)))

#define RVCTR_PRIV_FLAGS	(PERF_SAMPLE_BRANCH_USER | \
				 PERF_SAMPLE_BRANCH_KERNEL | \
				 PERF_SAMPLE_BRANCH_HV)
#define RVCTR_TYPE_FLAGS	(PERF_SAMPLE_BRANCH_ANY | \
				 PERF_SAMPLE_BRANCH_ANY_CALL | \
				 PERF_SAMPLE_BRANCH_ANY_RETURN | \
				 PERF_SAMPLE_BRANCH_IND_CALL | \
				 PERF_SAMPLE_BRANCH_COND | \
				 PERF_SAMPLE_BRANCH_IND_JUMP | \
				 PERF_SAMPLE_BRANCH_CALL | \
				 PERF_SAMPLE_BRANCH_CALL_STACK)
#define RVCTR_INFO_FLAGS	(PERF_SAMPLE_BRANCH_NO_FLAGS | \
				 PERF_SAMPLE_BRANCH_NO_CYCLES | \
				 PERF_SAMPLE_BRANCH_TYPE_SAVE | \
				 PERF_SAMPLE_BRANCH_HW_INDEX | \
				 PERF_SAMPLE_BRANCH_PRIV_SAVE)

/**
 * rvctr_filter_init() - what a branch event records
 * @f: filled in
 * @bst: the event's attr.branch_sample_type
 * @kernel_start: lowest kernel virtual address (TASK_SIZE in the driver)
 *
 * Transactional-memory flags, branch counters and any flag this driver
 * does not know are refused.  PERF_SAMPLE_BRANCH_HV is accepted: perf sets
 * it unless exclude_hv, and there is no hypervisor level CTR records from
 * S-mode, so it adds nothing.  CALL_STACK is exclusive of the type flags
 * (RAS emulation records calls and returns only).
 *
 * Return: 0, or -EOPNOTSUPP.
 */
int rvctr_filter_init(struct rvctr_filter *f, u64 bst,
		      unsigned long kernel_start)
{
	u32 types = 0;

	if (bst & ~(u64)(RVCTR_PRIV_FLAGS | RVCTR_TYPE_FLAGS | RVCTR_INFO_FLAGS))
		return -EOPNOTSUPP;
	if ((bst & PERF_SAMPLE_BRANCH_CALL_STACK) &&
	    (bst & (RVCTR_TYPE_FLAGS & ~PERF_SAMPLE_BRANCH_CALL_STACK)))
		return -EOPNOTSUPP;

	if (bst & PERF_SAMPLE_BRANCH_ANY)
		types |= RVCTR_TYPES_ANY;
	if (bst & PERF_SAMPLE_BRANCH_ANY_CALL)
		types |= RVCTR_TYPES_CALL | RVCTR_TYPES_TRAP;
	if (bst & PERF_SAMPLE_BRANCH_ANY_RETURN)
		types |= RVCTR_TYPES_RETURN;
	if (bst & PERF_SAMPLE_BRANCH_IND_CALL)
		types |= T(INDIRECT_CALL);
	if (bst & PERF_SAMPLE_BRANCH_CALL)
		types |= T(DIRECT_CALL);
	if (bst & PERF_SAMPLE_BRANCH_COND)
		types |= T(TAKEN_BRANCH);
	if (bst & PERF_SAMPLE_BRANCH_IND_JUMP)
		types |= RVCTR_TYPES_IND_JUMP;
	/*
	 * RAS emulation pops on a return, pushes on a call and does both on a
	 * co-routine swap (Ssctr 1.0, RAS emulation mode): inhibiting swaps
	 * would leave the swapped-out frame on the stack.
	 */
	if (bst & PERF_SAMPLE_BRANCH_CALL_STACK)
		types |= RVCTR_TYPES_CALL | T(FUNCTION_RETURN) |
			 T(COROUTINE_SWAP);
	if (!types)
		return -EOPNOTSUPP;

	f->types = types;
	f->priv = 0;
	if (bst & PERF_SAMPLE_BRANCH_USER)
		f->priv |= RVCTR_PRIV_USER;
	if (bst & PERF_SAMPLE_BRANCH_KERNEL)
		f->priv |= RVCTR_PRIV_KERNEL;
	if (!f->priv)
		return -EOPNOTSUPP;
	f->branch_sample_type = bst;
	f->faults = !!(bst & PERF_SAMPLE_BRANCH_ANY);
	f->misp = true;		/* the driver says when the hart has none */
	f->kernel_start = kernel_start;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(rvctr_filter_init);

/* The option bits of the control register in a layout. */
struct rvctr_ctl_layout {
	u64 u, s, rasemu, lcofifrz;
	u64 not_options;	/* bits of the register that are no option */
};

static const struct rvctr_ctl_layout rvctr_ctl_v1 = {
	.u = RVP_CTR_V1_MCTRCTL_U,
	.s = RVP_CTR_V1_MCTRCTL_S,
	.rasemu = RVP_CTR_V1_MCTRCTL_RASEMU,
	.lcofifrz = RVP_CTR_V1_MCTRCTL_LCOFIFRZ,
};

#ifdef CONFIG_RVPERF_CTR_LAYOUT_DRAFT
/* The draft sets DEPTH on its own; CLR is a command. */
static const struct rvctr_ctl_layout rvctr_ctl_draft = {
	.u = RVP_CTR_DRAFT_MCTRCONTROL_U,
	.s = RVP_CTR_DRAFT_MCTRCONTROL_S,
	.rasemu = RVP_CTR_DRAFT_MCTRCONTROL_RASEMU,
	.lcofifrz = RVP_CTR_DRAFT_MCTRCONTROL_LCOFIFRZ,
	.not_options = RVP_CTR_DRAFT_MCTRCONTROL_DEPTH |
		       RVP_CTR_DRAFT_MCTRCONTROL_CLR,
};
#endif

static const struct rvctr_ctl_layout *rvctr_ctl_of(enum rvctr_layout layout)
{
#ifdef CONFIG_RVPERF_CTR_LAYOUT_DRAFT
	if (layout == RVCTR_LAYOUT_DRAFT)
		return &rvctr_ctl_draft;
#endif
	return &rvctr_ctl_v1;
}

/**
 * rvctr_ctl_bits() - s*ctrctl value for a set of events
 * @layout: CSR layout
 * @types: union of the events' rvctr_filter.types
 * @priv: union of their RVCTR_PRIV_*
 * @call_stack: RAS emulation (only when every active event is CALL_STACK)
 * @impl: the control bits the hart implements (rvctr_probe_ctl())
 *
 * Every transfer type not wanted is inhibited; not-taken branches are
 * enabled only if asked for.  Freezing on a local counter overflow
 * (LCOFIFRZ) is always on: records are read in the overflow handler.
 * Everything but S and U is optional in Ssctr 1.0: a bit the hart does
 * not implement is left out (the per-event software filter drops a type
 * the hart could not inhibit; the handler freezes by hand without
 * LCOFIFRZ; rvctr_impl_allows() refuses call stacks without RASEMU).
 *
 * Return: the control register value.
 */
u64 rvctr_ctl_bits(enum rvctr_layout layout, u32 types, u32 priv,
		   bool call_stack, u64 impl)
{
	const struct rvctr_ctl_layout *l = rvctr_ctl_of(layout);
	u64 inh = (u64)(~types & 0xffff) << RVP_CTR_FILTER_SHIFT;
	u64 ctl;

	/* NTBREN opts in where the other filter bits opt out. */
	inh &= ~(u64)BIT_ULL(RVP_CTR_FILTER_SHIFT + RVP_CTRDATA_TYPE_NOT_TAKEN_BRANCH);
	if (types & T(NOT_TAKEN_BRANCH))
		inh |= BIT_ULL(RVP_CTR_FILTER_SHIFT + RVP_CTRDATA_TYPE_NOT_TAKEN_BRANCH);
	/* Bit 0 (TYPE NONE) and the reserved 6, 7 have no filter bit. */
	inh &= ~(u64)(BIT_ULL(RVP_CTR_FILTER_SHIFT) | BIT_ULL(RVP_CTR_FILTER_SHIFT + 6) |
		      BIT_ULL(RVP_CTR_FILTER_SHIFT + 7));
	/* Bits 32 + 1, 2, 3 are EXCINH, INTRINH, TRETINH. */
	ctl = inh | l->lcofifrz;
	if (priv & RVCTR_PRIV_USER)
		ctl |= l->u;
	if (priv & RVCTR_PRIV_KERNEL)
		ctl |= l->s;
	if (call_stack)
		ctl |= l->rasemu;
	return ctl & impl;
}
EXPORT_SYMBOL_IF_KUNIT(rvctr_ctl_bits);

/**
 * rvctr_probe_ctl() - the control bits a hart implements
 * @layout: CSR layout
 * @write_read: writes its value to the control register and returns what
 *	reads back (the driver's CSR access; a fake one in KUnit)
 * @arg: for @write_read
 *
 * Write all ones, read back: WARL bits of unimplemented options (RASEMU,
 * LCOFIFRZ, NTBREN, each transfer-type inhibit) read 0.  The register is
 * left 0, recording off.
 *
 * Return: the implemented option bits, or 0 when the mandatory S and U
 * bits do not stick (not a usable CTR).
 */
u64 rvctr_probe_ctl(enum rvctr_layout layout,
		    u64 (*write_read)(void *arg, u64 val), void *arg)
{
	const struct rvctr_ctl_layout *l = rvctr_ctl_of(layout);
	u64 need = l->u | l->s;
	u64 impl = write_read(arg, ~0ULL) & ~l->not_options;

	write_read(arg, 0);
	return (impl & need) == need ? impl : 0;
}
EXPORT_SYMBOL_IF_KUNIT(rvctr_probe_ctl);

/**
 * rvctr_impl_allows() - whether a hart can record what an event asks
 * @layout: CSR layout
 * @impl: rvctr_probe_ctl()'s answer
 * @bst: the event's branch_sample_type
 *
 * A call stack needs RAS emulation; everything else can be filtered in
 * software from what the hart records.
 *
 * Return: true when the event can be accepted.
 */
bool rvctr_impl_allows(enum rvctr_layout layout, u64 impl, u64 bst)
{
	return !(bst & PERF_SAMPLE_BRANCH_CALL_STACK) ||
	       (impl & rvctr_ctl_of(layout)->rasemu);
}
EXPORT_SYMBOL_IF_KUNIT(rvctr_impl_allows);

/**
 * rvctr_type_to_perf() - CTR TYPE to PERF_BR_* (and new_type)
 * @ctr_type: ctrdata.TYPE
 * @syscall: for an exception, whether ecall raised it
 * @type: PERF_BR_*
 * @new_type: PERF_BR_NEW_* when @type is PERF_BR_EXTEND_ABI, else 0
 *
 * CTR records no exception cause, so the reader looks at the source
 * instruction: ecall is PERF_BR_SYSCALL.  Other synchronous exceptions
 * (faults, ebreak: data or instruction is not known) are
 * PERF_BR_RISCV_EXCEPTION, not-taken branches PERF_BR_RISCV_NOT_TAKEN and
 * co-routine swaps PERF_BR_RISCV_COROUTINE_SWAP: perf has no generic name
 * for them.
 */
void rvctr_type_to_perf(unsigned int ctr_type, bool syscall, u8 *type,
			u8 *new_type)
{
	*new_type = 0;
	switch (ctr_type) {
	case RVP_CTRDATA_TYPE_EXCEPTION:
		if (syscall) {
			*type = PERF_BR_SYSCALL;
			break;
		}
		*type = PERF_BR_EXTEND_ABI;
		*new_type = PERF_BR_RISCV_EXCEPTION;
		break;
	case RVP_CTRDATA_TYPE_INTERRUPT:
		*type = PERF_BR_IRQ;
		break;
	case RVP_CTRDATA_TYPE_TRAP_RETURN:
		*type = PERF_BR_ERET;
		break;
	case RVP_CTRDATA_TYPE_NOT_TAKEN_BRANCH:
		*type = PERF_BR_EXTEND_ABI;
		*new_type = PERF_BR_RISCV_NOT_TAKEN;
		break;
	case RVP_CTRDATA_TYPE_TAKEN_BRANCH:
		*type = PERF_BR_COND;
		break;
	case RVP_CTRDATA_TYPE_INDIRECT_CALL:
		*type = PERF_BR_IND_CALL;
		break;
	case RVP_CTRDATA_TYPE_DIRECT_CALL:
		*type = PERF_BR_CALL;
		break;
	case RVP_CTRDATA_TYPE_INDIRECT_JUMP:
	case RVP_CTRDATA_TYPE_OTHER_INDIRECT_JUMP:
		*type = PERF_BR_IND;
		break;
	case RVP_CTRDATA_TYPE_DIRECT_JUMP:
	case RVP_CTRDATA_TYPE_OTHER_DIRECT_JUMP:
		*type = PERF_BR_UNCOND;
		break;
	case RVP_CTRDATA_TYPE_COROUTINE_SWAP:
		*type = PERF_BR_EXTEND_ABI;
		*new_type = PERF_BR_RISCV_COROUTINE_SWAP;
		break;
	case RVP_CTRDATA_TYPE_FUNCTION_RETURN:
		*type = PERF_BR_RET;
		break;
	default:		/* NONE and the reserved 6, 7 */
		*type = PERF_BR_UNKNOWN;
		break;
	}
}
EXPORT_SYMBOL_IF_KUNIT(rvctr_type_to_perf);

/**
 * rvctr_decode_cycles() - elapsed cycles of a record, for perf
 * @data: ctrdata
 *
 * CC is CCE (4 bits) and CCM (12 bits): CCM when CCE is 0, else
 * (4096 + CCM) << (CCE - 1).  perf has 16 bits for it, so larger counts
 * are clamped to 0xffff.  Without CCV the count is not valid: 0.
 *
 * Return: the cycle count for perf_branch_entry.cycles.
 */
u16 rvctr_decode_cycles(u64 data)
{
	u64 cce, ccm, cycles;

	if (!(data & RVP_CTRDATA_CCV))
		return 0;
	cce = (data & RVP_CTRDATA_CCE) >> RVP_CTRDATA_CCE_SHIFT;
	ccm = (data & RVP_CTRDATA_CCM) >> RVP_CTRDATA_CCM_SHIFT;
	cycles = cce ? (4096 + ccm) << (cce - 1) : ccm;
	return min_t(u64, cycles, 0xffff);
}
EXPORT_SYMBOL_IF_KUNIT(rvctr_decode_cycles);

/**
 * rvctr_depth_decode() - number of entries from the depth CSR field
 * @layout: CSR layout
 * @csr: the register with the depth (sctrdepth) as read back
 *
 * sctrdepth encodes 2^(DEPTH + 4) in 3 bits (5-7 reserved).
 *
 * Return: the depth, or 0 for a reserved or malformed encoding.
 */
unsigned int rvctr_depth_decode(enum rvctr_layout layout, u64 csr)
{
	unsigned int enc;

#ifdef CONFIG_RVPERF_CTR_LAYOUT_DRAFT
	if (layout == RVCTR_LAYOUT_DRAFT) {
		/* sctrcontrol.DEPTH: a thermometer code, 16 << popcount */
		enc = (csr & RVP_CTR_DRAFT_MCTRCONTROL_DEPTH) >>
		      RVP_CTR_DRAFT_MCTRCONTROL_DEPTH_SHIFT;
		if (enc & (enc + 1))	/* not of the form 0b0..01..1 */
			return 0;
		return 16U << hweight32(enc);
	}
#endif
	enc = csr & RVP_CTR_V1_SCTRDEPTH_DEPTH;
	return enc <= 4 ? 16U << enc : 0;
}
EXPORT_SYMBOL_IF_KUNIT(rvctr_depth_decode);

#ifdef RVPERF_CTR_DEPTH_KNOBS
/**
 * rvctr_depth_report() - entries reported to perf
 * @depth: hardware depth
 * @cap: cap at RVCTR_DEPTH_CAP (older perf tools drop deeper stacks)
 *
 * Return: the number of entries a sample may carry.
 */
unsigned int rvctr_depth_report(unsigned int depth, bool cap)
{
	return cap ? min_t(unsigned int, depth, RVCTR_DEPTH_CAP) : depth;
}
EXPORT_SYMBOL_IF_KUNIT(rvctr_depth_report);
#endif

static bool rvctr_is_kernel(const struct rvctr_filter *f, u64 addr)
{
	return addr >= f->kernel_start;
}

/**
 * rvctr_record_to_entry() - one valid record as a perf entry for an event
 * @f: the event's filter
 * @rec: the record (ctrsource.V set)
 * @e: filled in when the record is kept
 *
 * The record is dropped when the event did not ask for its type; an
 * exception other than ecall is a call only to ANY events (perf's
 * ANY_CALL means calls, syscalls and interrupts, not faults).  An
 * address at a privilege the event excluded is never reported: when both
 * ends are excluded the record is dropped, when one is (a trap into the
 * kernel, a return to user) that address reads 0.  Flags, cycles, type
 * and privilege are filled in only as the event asked.
 *
 * Return: true when @e is to be reported.
 */
bool rvctr_record_to_entry(const struct rvctr_filter *f,
			   const struct rvctr_record *rec,
			   struct perf_branch_entry *e)
{
	u64 bst = f->branch_sample_type;
	unsigned int ctr_type = rec->data & RVP_CTRDATA_TYPE;
	u64 from = rec->source & ~RVP_CTRSOURCE_V;
	u64 to = rec->target & ~RVP_CTRTARGET_MISP;
	bool from_k = rvctr_is_kernel(f, from), to_k = rvctr_is_kernel(f, to);
	bool from_ok = f->priv & (from_k ? RVCTR_PRIV_KERNEL : RVCTR_PRIV_USER);
	bool to_ok = f->priv & (to_k ? RVCTR_PRIV_KERNEL : RVCTR_PRIV_USER);
	u8 type, new_type;

	if (!(rec->source & RVP_CTRSOURCE_V))
		return false;
	/* TYPE 0: an implementation without TYPE; only ANY takes it. */
	if (ctr_type == RVP_CTRDATA_TYPE_NONE) {
		if (!(bst & PERF_SAMPLE_BRANCH_ANY))
			return false;
	} else if (!(f->types & BIT(ctr_type))) {
		return false;
	} else if (ctr_type == RVP_CTRDATA_TYPE_EXCEPTION && !rec->syscall &&
		   !f->faults) {
		return false;
	}
	if (!from_ok && !to_ok)
		return false;

	memset(e, 0, sizeof(*e));
	e->from = from_ok ? from : 0;
	e->to = to_ok ? to : 0;
	/* Without ctrtarget.MISP nothing is known: both flags stay 0. */
	if (!(bst & PERF_SAMPLE_BRANCH_NO_FLAGS) && f->misp) {
		e->mispred = !!(rec->target & RVP_CTRTARGET_MISP);
		e->predicted = !e->mispred;
	}
	if (!(bst & PERF_SAMPLE_BRANCH_NO_CYCLES))
		e->cycles = rvctr_decode_cycles(rec->data);
	if (bst & PERF_SAMPLE_BRANCH_TYPE_SAVE) {
		rvctr_type_to_perf(ctr_type, rec->syscall, &type, &new_type);
		e->type = type;
		e->new_type = new_type;
	}
	if (bst & PERF_SAMPLE_BRANCH_PRIV_SAVE) {
		/* The privilege the transfer ran at: that of its source. */
		if (from_ok)
			e->priv = from_k ? PERF_BR_PRIV_KERNEL : PERF_BR_PRIV_USER;
		else
			e->priv = PERF_BR_PRIV_UNKNOWN;
	}
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(rvctr_record_to_entry);

/**
 * rvctr_build_stack() - an event's branch stack from the raw records
 * @f: the event's filter
 * @raw: the records read, newest first
 * @nr_raw: how many
 * @max: the most entries a sample carries
 * @hw_idx: the hardware index of @raw[0]
 * @entries: filled in
 * @hw_idx_out: @hw_idx when @entries are @raw's newest records one for
 *	one, else -1ULL: once the software filter dropped a record, entry
 *	i is no longer hardware entry @hw_idx - i, and perf's stitching
 *	would match the wrong records.
 *
 * Return: the number of entries.
 */
unsigned int rvctr_build_stack(const struct rvctr_filter *f,
			       const struct rvctr_record *raw,
			       unsigned int nr_raw, unsigned int max,
			       u64 hw_idx, struct perf_branch_entry *entries,
			       u64 *hw_idx_out)
{
	unsigned int i, n = 0;
	bool dropped = false;

	for (i = 0; i < nr_raw && n < max; i++) {
		if (rvctr_record_to_entry(f, &raw[i], &entries[n]))
			n++;
		else
			dropped = true;
	}
	*hw_idx_out = dropped ? -1ULL : hw_idx;
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(rvctr_build_stack);

/**
 * rvctr_stack_save() - keep a call-stack task's records at switch out
 * @t: the task's save area
 * @depth: the hart's depth
 * @ops: the buffer (frozen by the caller)
 * @arg: for @ops
 *
 * Reads from the newest entry to the first invalid one, as Intel's LBR
 * code does: a shallow stack costs a few CSR accesses, not 4 * @depth.
 */
void rvctr_stack_save(struct rvctr_task_ctx *t, unsigned int depth,
		      const struct rvctr_stack_ops *ops, void *arg)
{
	unsigned int i;

	depth = min_t(unsigned int, depth, RVCTR_MAX_DEPTH);
	for (i = 0; i < depth; i++) {
		ops->read(arg, i, &t->rec[i]);
		if (!(t->rec[i].source & RVP_CTRSOURCE_V))
			break;
	}
	t->nr = i;
	t->depth = depth;
	t->valid = true;
}
EXPORT_SYMBOL_IF_KUNIT(rvctr_stack_save);

/**
 * rvctr_stack_restore() - give a call-stack task its records back
 * @t: the task's save area
 * @depth: the hart's depth
 * @untouched: the buffer still holds what rvctr_stack_save() read from it
 *	(nothing recorded or cleared it since): nothing to write
 * @ops: the buffer (frozen by the caller)
 * @arg: for @ops
 *
 * A save area is restored once: @valid is cleared, so a task that comes
 * back without having been saved again starts empty, not with a stale
 * stack.  Entries older than the saved ones are cleared.
 */
void rvctr_stack_restore(struct rvctr_task_ctx *t, unsigned int depth,
			 bool untouched, const struct rvctr_stack_ops *ops,
			 void *arg)
{
	unsigned int i;

	if (!t->valid || t->depth != depth) {
		t->valid = false;
		ops->clear(arg);
		return;
	}
	t->valid = false;
	if (untouched)
		return;
	ops->clear(arg);
	for (i = 0; i < t->nr; i++)
		ops->write(arg, i, &t->rec[i]);
}
EXPORT_SYMBOL_IF_KUNIT(rvctr_stack_restore);
