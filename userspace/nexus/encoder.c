// SPDX-License-Identifier: BSD-2-Clause
/*
 * encoder.c - the N-Trace encoder: retired instructions in, messages out.
 *
 * It follows the message-generation rules of the spec (and the shape of
 * its simple encoder): every instruction adds its 16-bit units to I-CNT;
 * an instruction whose successor the decoder cannot infer makes a message
 * that is written when the next instruction arrives, because only then is
 * its target known.  HIST collects conditional branch outcomes in HTM.
 * Around that: I-CNT and HIST overflow (ResourceFull), held-back full
 * HISTs counted as one repeated history, RepeatBranch for identical branch
 * messages, the implicit-return stack, periodic synchronisation (a branch
 * message becomes its Sync form), Ownership, timestamps, Error on overrun
 * and ProgTraceCorrelation at the end.
 *
 * The decoder (decoder.c) mirrors each decision; the rules both keep are:
 * the instruction that ends a message with a trap B-TYPE has no effect but
 * its count; calls push and returns pop whether or not they are inferable;
 * a return is inferable when the stack predicted the address it went to.
 */
#include <stdlib.h>
#include <string.h>

#include "nexus_int.h"
#include "qemu-model/core/insnhw.h"
#include "rvperf/ctr.h"
#include "rvperf/ntrace.h"

/* Not a TCODE: the pending "message" of a return whose target the stack
 * predicted; it only becomes an IndirectBranch if the prediction fails. */
#define PENDING_RETURN	64

/* n_bytes counts the bytes flushed, so that writing a message adds to
 * the fill alone; the total is n_bytes + fill. */
static void flush_bytes(struct nx_encoder *e)
{
	if (e->fill && !e->error && e->sink(e->sink_ctx, e->buf, e->fill))
		e->error = -1;
	e->n_bytes += e->fill;
	e->fill = 0;
}

/* The per-block way's msg_limit and lane_or from what they stand for:
 * after each change of held_repeat, at the end of the per-block way's
 * slow case (which every block's first execution takes, so on_msg is set
 * by then; what it fed nx_enc_insn() may have changed fast_ok), and where
 * fast_ok is cleared outside it (nx_enc_overrun(), nx_enc_finish()). */
static void block_flags_set(struct nx_encoder *e)
{
	e->msg_limit = e->quick && e->fast_ok && !e->held_repeat && !e->on_msg ?
		       e->icnt_limit : 0;
	e->lane_or = e->fast_ok ? 0 : 8;
}

/* The messages written so far (n_msgs), from the counts per TCODE, which
 * is all that writing one adds to. */
static void count_msgs(struct nx_encoder *e)
{
	unsigned int i;

	e->n_msgs = 0;
	for (i = 0; i < 64; i++)
		e->n_msgs += e->by_tcode[i];
}

/* Writes M, with a timestamp of ABS (absolute after a sync). */
static void put_msg(struct nx_encoder *e, struct nx_msg *m, uint64_t abs)
{
	m->src = e->cfg.src_id;
	m->has_tstamp = e->cfg.tstamp;
	if (e->cfg.tstamp) {
		if (nx_tcode_is_sync(m->tcode))
			m->tstamp = abs;
		else
			m->tstamp = abs - e->last_tstamp;
		e->last_tstamp = abs;
	}
	if (e->fill + 64 > sizeof(e->buf))
		flush_bytes(e);
	m->offset = e->n_bytes + e->fill;
	m->size = nx_msg_encode(&e->cfg, m, e->buf + e->fill);
	e->fill += m->size;
	e->by_tcode[m->tcode & 63]++;
	if (e->cfg.sync_mode == NX_SYNC_MESSAGES && ++e->since_sync >=
	    e->cfg.sync_period)
		e->sync_due = true;
	if (e->on_msg)
		e->on_msg(e->on_msg_ctx, m);
}

static void flush_repeat_now(struct nx_encoder *e)
{
	{
		struct nx_msg m = { .tcode = NX_TCODE_REPEAT_BRANCH,
				    .data = e->bcnt };

		put_msg(e, &m, e->insn_tstamp);
		e->bcnt = 0;
	}
}

static inline void flush_repeat(struct nx_encoder *e)
{
	if (e->bcnt)
		flush_repeat_now(e);
}

static void flush_held_now(struct nx_encoder *e)
{
	struct nx_msg m = { .tcode = NX_TCODE_RESOURCE_FULL };

	flush_repeat(e);
	e->have_last_branch = false;
	m.data = e->held_hist;
	if (e->held_repeat == 1) {
		m.rcode = NX_RCODE_HIST;
	} else {
		m.rcode = NX_RCODE_HIST_REPEAT;
		m.rdata1 = e->held_repeat;
	}
	put_msg(e, &m, e->held_tstamp);
	e->held_repeat = 0;
	e->held_shift = 0;
	block_flags_set(e);
}

static inline void flush_held(struct nx_encoder *e)
{
	if (e->held_repeat)
		flush_held_now(e);
}

/* Any message but a repeatable branch one: what was held goes first. */
static void put_other(struct nx_encoder *e, struct nx_msg *m, uint64_t abs)
{
	flush_held(e);
	flush_repeat(e);
	e->have_last_branch = false;
	put_msg(e, m, abs);
}

static void stack_reset(struct nx_encoder *e)
{
	e->sp = e->depth = 0;
}

static void stack_push(struct nx_encoder *e, uint64_t ret)
{
	if (e->cfg.ret_mode == NX_RETURN_OFF)
		return;
	e->stack[e->sp] = ret;
	e->sp = (e->sp + 1) % e->cfg.ret_depth;
	if (e->depth < e->cfg.ret_depth)
		e->depth++;
}

/* 1 and the predicted address (any address: counter mode) or 0. */
static int stack_pop(struct nx_encoder *e, uint64_t *ret)
{
	if (e->cfg.ret_mode == NX_RETURN_OFF || !e->depth)
		return 0;
	e->sp = (e->sp + e->cfg.ret_depth - 1) % e->cfg.ret_depth;
	e->depth--;
	*ret = e->stack[e->sp];
	return 1;
}

static bool prediction_holds(const struct nx_encoder *e, uint64_t predicted,
			     uint64_t actual)
{
	switch (e->cfg.ret_mode) {
	case NX_RETURN_COUNTER:
		return true;
	case NX_RETURN_PARTIAL:
		return (uint32_t)predicted == (uint32_t)actual;
	default:
		return predicted == actual;
	}
}

static void put_ownership(struct nx_encoder *e, const struct nx_insn *in,
			  bool after_sync)
{
	struct nx_msg m = { .tcode = NX_TCODE_OWNERSHIP };

	m.data = (after_sync ? 2 : 0) | (uint64_t)(in->priv & 3) << 2 |
		 (uint64_t)in->v << 4;
	if (after_sync)
		m.data |= in->context << 5;
	put_other(e, &m, in->tstamp);
	e->priv = in->priv;
	e->v = in->v;
	e->context = in->context;
	e->owner_known = true;
}

/* After a sync message that resets the encoder (all but SYNC 0, 4, 6). */
static void after_sync(struct nx_encoder *e, unsigned int sync,
		       const struct nx_insn *in)
{
	if (sync != NX_SYNC_EXTERNAL_TRIGGER && sync != NX_SYNC_ICNT_OVERFLOW &&
	    sync != 6) {
		stack_reset(e);
		e->since_sync = 0;
		e->sync_due = false;
	}
	if (e->cfg.ownership)
		put_ownership(e, in, true);
}

static bool same_branch(const struct nx_msg *a, const struct nx_msg *b)
{
	return a->tcode == b->tcode && a->btype == b->btype &&
	       a->icnt == b->icnt && a->hist == b->hist;
}

/* The message waiting for the address of IN, the next instruction. */
static void emit_pending(struct nx_encoder *e, const struct nx_insn *in)
{
	unsigned int tcode = e->next_tcode;
	uint64_t addr = in->addr;
	struct nx_msg m = { 0 };

	e->next_tcode = 0;
	if (tcode == PENDING_RETURN)
		tcode = NX_TCODE_INDIRECT_BRANCH_HIST;
	/* HTM with an empty HIST: the shorter IndirectBranch will do. */
	if (tcode == NX_TCODE_INDIRECT_BRANCH_HIST &&
	    (e->cfg.mode != NX_MODE_HTM || e->hist == 1))
		tcode = NX_TCODE_INDIRECT_BRANCH;
	if (nx_tcode_is_sync(tcode))
		m.sync = e->pending_sync;
	if (e->sync_due && !nx_tcode_is_sync(tcode)) {
		/* Periodic synchronisation rides on the next branch message
		 * (a SYNC=4 one stays: it does not reset the encoder, so a
		 * lui/auipc before it still feeds the jalr after it). */
		tcode = tcode == NX_TCODE_DIRECT_BRANCH ? NX_TCODE_DIRECT_BRANCH_SYNC :
			tcode == NX_TCODE_INDIRECT_BRANCH ? NX_TCODE_INDIRECT_BRANCH_SYNC :
			NX_TCODE_INDIRECT_BRANCH_HIST_SYNC;
		m.sync = NX_SYNC_PERIODIC;
	}
	m.tcode = tcode;
	m.btype = e->next_btype;
	m.icnt = e->icnt;
	if (tcode == NX_TCODE_INDIRECT_BRANCH_HIST ||
	    tcode == NX_TCODE_INDIRECT_BRANCH_HIST_SYNC)
		m.hist = e->hist;
	if (nx_tcode_is_sync(tcode))
		m.addr = addr;
	else if (tcode != NX_TCODE_DIRECT_BRANCH)
		m.addr = e->ref_addr ^ addr;
	e->icnt = 0;
	e->hist = 1;
	if (!nx_tcode_is_sync(tcode) && (e->cfg.repeat & NX_REPEAT_BRANCH) &&
	    !e->held_repeat && e->have_last_branch &&
	    same_branch(&m, &e->last_branch) &&
	    (tcode == NX_TCODE_DIRECT_BRANCH || e->last_target == addr)) {
		e->bcnt++;
	} else {
		flush_held(e);
		flush_repeat(e);
		put_msg(e, &m, e->next_tstamp);
		if (e->cfg.repeat & NX_REPEAT_BRANCH) {
			e->last_branch = m;
			e->last_target = addr;
			e->have_last_branch = !nx_tcode_is_sync(tcode);
		}
	}
	if (tcode != NX_TCODE_DIRECT_BRANCH)
		e->ref_addr = addr;
	if (nx_tcode_is_sync(tcode))
		after_sync(e, m.sync, in);
}

/*
 * emit_pending() for the common message (DirectBranch, IndirectBranch,
 * IndirectBranchHist) when nothing else is involved: no RepeatBranch, no
 * held HIST, no sync due, no SRC/TSTAMP/MSB extension, nobody watching
 * the messages (on_msg): the bytes written directly.  0 when it is not
 * that case (emit_pending() then does it).
 */
static inline int quick_emit(struct nx_encoder *e, const struct nx_insn *in)
{
	unsigned int tcode = e->next_tcode;
	uint64_t addr = in->addr, field;
	size_t n;

	if (e->sync_due || e->held_repeat || e->on_msg)
		return 0;
	if (tcode == PENDING_RETURN)
		tcode = NX_TCODE_INDIRECT_BRANCH_HIST;
	if (tcode == NX_TCODE_INDIRECT_BRANCH_HIST &&
	    (e->cfg.mode != NX_MODE_HTM || e->hist == 1))
		tcode = NX_TCODE_INDIRECT_BRANCH;
	if (tcode != NX_TCODE_DIRECT_BRANCH && tcode != NX_TCODE_INDIRECT_BRANCH &&
	    tcode != NX_TCODE_INDIRECT_BRANCH_HIST)
		return 0;
	if (e->fill + 64 > sizeof(e->buf))
		flush_bytes(e);
	field = tcode == NX_TCODE_DIRECT_BRANCH ? 0 : e->ref_addr ^ addr;
	n = nx_branch_bytes(&e->cfg, tcode, e->next_btype, e->icnt, field,
			    tcode == NX_TCODE_INDIRECT_BRANCH_HIST ? e->hist : 0,
			    e->buf + e->fill);
	if (!n)
		return 0;
	e->fill += n;
	e->by_tcode[tcode]++;
	e->next_tcode = 0;
	e->icnt = 0;
	e->hist = 1;
	if (tcode != NX_TCODE_DIRECT_BRANCH)
		e->ref_addr = addr;
	return 1;
}

static void start(struct nx_encoder *e, const struct nx_insn *in)
{
	struct nx_msg m = { .tcode = NX_TCODE_PROG_TRACE_SYNC,
			    .sync = e->next_sync, .addr = in->addr };

	put_other(e, &m, in->tstamp);
	e->ref_addr = in->addr;
	e->started = true;
	e->icnt = 0;
	e->hist = 1;
	after_sync(e, m.sync, in);
}

/*
 * What the bytes of an IndirectBranchHist take from each field's highest
 * set bit T (nx_var_chunks()), as shifts: I-CNT (room 4 after B-TYPE)
 * has C1 MDOs, the address (room 6) C2, HIST C3; the address starts at
 * bit 6 + 6 * C1 of the MDO string and HIST 6 * C2 after it; the byte
 * ending each field is byte C1, C1 + C2 and C1 + C2 + C3 (the last).
 * HIST with its stop bit alone (T 0) is empty: no field, the message an
 * IndirectBranch.  One table each, where the arithmetic takes three
 * instructions or four.
 */
#define IBH_T4(M, t)	M(t), M(t + 1), M(t + 2), M(t + 3)
#define IBH_T16(M, t)	IBH_T4(M, t), IBH_T4(M, t + 4), IBH_T4(M, t + 8), IBH_T4(M, t + 12)
#define IBH_T64(M)	{ IBH_T16(M, 0), IBH_T16(M, 16), IBH_T16(M, 32), IBH_T16(M, 48) }
#define IBH_I6(t)	(6 + 6 * NX_MDOS_1((t) + 2))
#define IBH_I8(t)	(8 * NX_MDOS_1((t) + 2))
#define IBH_F6(t)	(6 * NX_MDOS_1(t))
#define IBH_F8(t)	(8 * NX_MDOS_1(t))
#define IBH_H8(t)	((t) ? 8 * NX_MDOS_1(t) : 0)
#define IBH_TC(t)	((t) ? NX_TCODE_INDIRECT_BRANCH_HIST : NX_TCODE_INDIRECT_BRANCH)
static const struct nx_ibh_tab ibh_tab = {
	IBH_T64(IBH_I6), IBH_T64(IBH_I8), IBH_T64(IBH_F6), IBH_T64(IBH_F8),
	IBH_T64(IBH_H8), IBH_T64(IBH_TC)
};

/* fast_tab's action for a message of TCODE waiting for its target. */
#define ACT_MSG(tcode)	(1 | 8 | (tcode) << 8)

int nx_enc_init(struct nx_encoder *e, const struct nx_config *cfg,
		nx_sink_fn sink, void *ctx)
{
	if (nx_config_check(cfg, NULL, 0))
		return -1;
	memset(e, 0, sizeof(*e));
	e->cfg = *cfg;
	e->sink = sink;
	e->sink_ctx = ctx;
	e->hist = 1;
	e->icnt_limit = 1ull << cfg->icnt_bits;
	e->addr_mask = cfg->xlen == 32 ? 0xFFFFFFFFull : ~0ull;
	e->hist_limit = 1ull << cfg->hist_bits;
	e->nexrv_hist = cfg->repeat == NX_REPEAT_HISTORY;
	if (e->nexrv_hist)
		e->hist_limit >>= 1;	/* full at hist_bits - 1 bits */
	/* Nothing per instruction but I-CNT and HIST (Ownership looks at
	 * each one's mode, sync by I-CNT counts units). */
	e->fast = cfg->sync_mode != NX_SYNC_ICNT && !cfg->ownership;
	e->quick = !(cfg->repeat & NX_REPEAT_BRANCH) &&
		   cfg->sync_mode != NX_SYNC_MESSAGES && !cfg->tstamp &&
		   !cfg->src_bits && !cfg->ext_addr_msb;
	block_flags_set(e);
	e->ibh = ibh_tab;
	if (e->fast) {
		bool htm = cfg->mode == NX_MODE_HTM;
		uint16_t linear = 1, jump = 1;
		uint16_t direct = ACT_MSG(NX_TCODE_DIRECT_BRANCH);
		uint16_t indirect = ACT_MSG(htm ? NX_TCODE_INDIRECT_BRANCH_HIST
					    : NX_TCODE_INDIRECT_BRANCH);

		/* What nx_enc_insn_slow() would do, when it is only that. */
		if (cfg->all_jumps)
			jump = htm ? 7 : direct;
		e->fast_tab[RVP_ITYPE_NO_SPECIAL_TYPE] = linear;
		e->fast_tab[RVP_ITYPE_NON_TAKEN_BRANCH] = htm ? 3 : linear;
		e->fast_tab[RVP_ITYPE_TAKEN_BRANCH] = htm ? 7 : direct;
		e->fast_tab[RVP_ITYPE_OTHER_INFERABLE_JUMP] = jump;
		if (!cfg->seq_jump) {
			e->fast_tab[RVP_ITYPE_UNINFERABLE_JUMP] = indirect;
			e->fast_tab[RVP_ITYPE_OTHER_UNINFERABLE_JUMP] = indirect;
		}
		/* Calls push and returns pop when there is a stack. */
		if (cfg->ret_mode == NX_RETURN_OFF) {
			e->fast_tab[RVP_ITYPE_INFERABLE_CALL] = jump;
			if (!cfg->seq_jump) {
				e->fast_tab[RVP_ITYPE_UNINFERABLE_CALL] = indirect;
				e->fast_tab[RVP_ITYPE_RETURN] = indirect;
				e->fast_tab[RVP_ITYPE_COROUTINE_SWAP] = indirect;
			}
		}
	}
	e->next_sync = cfg->start_sync;
#if defined(__x86_64__) && defined(__GNUC__)
	/* PDEP is one fast instruction on Intel and on AMD since Zen 3,
	 * microcode before (family 15h, 17h). */
	__builtin_cpu_init();
	e->pdep = __builtin_cpu_supports("bmi2") &&
		  (__builtin_cpu_is("intel") ||
		   (__builtin_cpu_is("amd") && !__builtin_cpu_is("amdfam15h") &&
		    !__builtin_cpu_is("amdfam17h"))) &&
		  !getenv("RVPERF_NEXUS_NO_PDEP");
#endif
	return 0;
}

static void set_pending(struct nx_encoder *e, unsigned int tcode,
			unsigned int btype, uint64_t tstamp)
{
	e->next_tcode = tcode;
	e->next_btype = btype;
	e->next_tstamp = tstamp;
}

/* Whether the 32-bit HIST words PREV and HIST (stop bits at 31) hold a
 * pattern of 28 or 30 bits repeated across them (NexRv's
 * IsHistMatch_30_28): 28, 30 or 0. */
static unsigned int hist_match_30_28(uint64_t prev, uint64_t hist)
{
	if ((prev & 7) == ((prev >> 28) & 7) &&
	    (prev & 0x0FFFFFF8) == ((hist >> 3) & 0x0FFFFFF8))
		return 28;
	if ((prev & 1) == ((prev >> 30) & 1) &&
	    (prev & 0x3FFFFFFE) == ((hist >> 1) & 0x3FFFFFFE))
		return 30;
	return 0;
}

/*
 * A full HIST with repeat=3, at the instruction after the branch that
 * filled it, as NexRv's encoder does it: the first is held; one equal to
 * the held pattern (after the bits a shorter pattern leaves over) counts
 * a repeat; the second of a run may still match as a 30- or 28-bit
 * pattern (the held one is cut, the bits past it stay in HIST); anything
 * else sends the held one (ResourceFull RCODE 1, or 2 with its count)
 * and is held itself.
 */
static void nexrv_full(struct nx_encoder *e, uint64_t tstamp)
{
	uint64_t full = e->hist, left = 1;
	unsigned int s = e->held_shift, match;

	e->rf_due = false;
	if (!e->held_repeat) {
		e->held_hist = full;
		e->held_shift = 0;
		e->held_repeat = 1;
		e->held_tstamp = tstamp;
		block_flags_set(e);
	} else if ((full >> s) == e->held_hist) {
		left = 1ull << s | (full & ((1ull << s) - 1));
		e->held_repeat++;
	} else if (e->held_repeat == 1 && e->cfg.hist_bits == 32 &&
		   (match = hist_match_30_28(e->held_hist, full))) {
		s = 31 - match;
		e->held_shift = s;
		e->held_hist >>= s;
		left = 1ull << (2 * s) | (full & ((1ull << (2 * s)) - 1));
		e->held_repeat++;
	} else {
		flush_held_now(e);
		e->held_hist = full;
		e->held_shift = 0;
		e->held_repeat = 1;
		e->held_tstamp = tstamp;
		block_flags_set(e);
	}
	e->hist = left;
}

void nx_enc_insn_slow(struct nx_encoder *e, const struct nx_insn *in)
{
	unsigned int itype = in->itype, units = in->len / 2;

	bool htm = e->cfg.mode == NX_MODE_HTM;
	unsigned int indirect = htm ? NX_TCODE_INDIRECT_BRANCH_HIST
				    : NX_TCODE_INDIRECT_BRANCH;
	uint64_t prev_icnt, ret;

	e->insn_tstamp = in->tstamp;
	if (e->rf_due)
		nexrv_full(e, in->tstamp);
	/* Calls and returns with implicit return, when nothing else is
	 * going on: the stack, and a message waiting if the return needs
	 * one. */
	if (e->fast_ok && e->cfg.ret_mode != NX_RETURN_OFF && !e->cfg.seq_jump &&
	    e->icnt + units <= e->icnt_limit &&
	    (itype == RVP_ITYPE_RETURN || itype == RVP_ITYPE_UNINFERABLE_CALL ||
	     (itype == RVP_ITYPE_INFERABLE_CALL && !e->cfg.all_jumps))) {
		e->n_insns++;
		e->icnt += units;
		if (itype == RVP_ITYPE_RETURN) {
			if (stack_pop(e, &ret)) {
				e->pending_ret = ret;
				set_pending(e, PENDING_RETURN, 0, in->tstamp);
			} else {
				set_pending(e, indirect, 0, in->tstamp);
			}
			e->fast_ok = false;
		} else {
			stack_push(e, in->addr + in->len);
			if (itype == RVP_ITYPE_UNINFERABLE_CALL) {
				set_pending(e, indirect, 0, in->tstamp);
				e->fast_ok = false;
			}
		}
		return;
	}
	if (!e->started) {
		start(e, in);
	} else if (e->next_tcode) {
		if (e->next_tcode == PENDING_RETURN &&
		    prediction_holds(e, e->pending_ret, in->addr))
			e->next_tcode = 0;
		else if (!e->quick || !quick_emit(e, in))
			emit_pending(e, in);
		/* The instruction itself, the inline way if it can. */
		if ((e->fast_tab[itype & 15] & 9) == 1 && !e->next_tcode) {
			unsigned int a = e->fast_tab[itype & 15];
			uint64_t icnt = e->icnt + units;
			uint64_t hist = e->hist << (a >> 1 & 1) | (a >> 2 & 1);

			if (icnt <= e->icnt_limit && !(hist & e->hist_limit)) {
				e->icnt = icnt;
				e->hist = hist;
				e->n_insns++;
				e->fast_ok = true;
				return;
			}
		}
	}
	if (e->cfg.ownership && (!e->owner_known || in->priv != e->priv ||
				 in->v != e->v))
		put_ownership(e, in, false);
	e->n_insns++;
	prev_icnt = e->icnt;
	e->icnt += units;
	if (e->cfg.sync_mode == NX_SYNC_ICNT) {
		e->since_sync += units;
		if (e->since_sync >= e->cfg.sync_period)
			e->sync_due = true;
	}

	/* A 4-bit itype on an encoder without implicit return is what the
	 * 3-bit port would have said. */
	if (e->cfg.ret_mode == NX_RETURN_OFF) {
		if (itype == RVP_ITYPE_UNINFERABLE_CALL ||
		    itype == RVP_ITYPE_COROUTINE_SWAP || itype == RVP_ITYPE_RETURN ||
		    itype == RVP_ITYPE_OTHER_UNINFERABLE_JUMP)
			itype = RVP_ITYPE_UNINFERABLE_JUMP;
		else if (itype == RVP_ITYPE_INFERABLE_CALL ||
			 itype == RVP_ITYPE_OTHER_INFERABLE_JUMP)
			itype = e->cfg.all_jumps ? RVP_ITYPE_TAKEN_BRANCH
						 : RVP_ITYPE_NO_SPECIAL_TYPE;
	}
	switch (itype) {
	case RVP_ITYPE_NON_TAKEN_BRANCH:
		if (htm)
			e->hist <<= 1;
		break;
	case RVP_ITYPE_TAKEN_BRANCH:
		if (htm)
			e->hist = e->hist << 1 | 1;
		else
			set_pending(e, NX_TCODE_DIRECT_BRANCH, 0, in->tstamp);
		break;
	case RVP_ITYPE_EXCEPTION:
		set_pending(e, indirect, NX_BTYPE_EXCEPTION, in->tstamp);
		break;
	case RVP_ITYPE_INTERRUPT:
		set_pending(e, indirect, NX_BTYPE_INTERRUPT, in->tstamp);
		break;
	case RVP_ITYPE_EXCEPTION_OR_INTERRUPT_RETURN:
		set_pending(e, indirect, 0, in->tstamp);
		break;
	case RVP_ITYPE_UNINFERABLE_JUMP:
	case RVP_ITYPE_OTHER_UNINFERABLE_JUMP:
		if (!(e->cfg.seq_jump && in->seq_inferable))
			set_pending(e, indirect, 0, in->tstamp);
		break;
	case RVP_ITYPE_UNINFERABLE_CALL:
		stack_push(e, in->addr + in->len);
		if (!(e->cfg.seq_jump && in->seq_inferable))
			set_pending(e, indirect, 0, in->tstamp);
		break;
	case RVP_ITYPE_INFERABLE_CALL:
		stack_push(e, in->addr + in->len);
		if (e->cfg.all_jumps) {
			if (htm)
				e->hist = e->hist << 1 | 1;
			else
				set_pending(e, NX_TCODE_DIRECT_BRANCH, 0, in->tstamp);
		}
		break;
	case RVP_ITYPE_OTHER_INFERABLE_JUMP:
		if (e->cfg.all_jumps) {
			if (htm)
				e->hist = e->hist << 1 | 1;
			else
				set_pending(e, NX_TCODE_DIRECT_BRANCH, 0, in->tstamp);
		}
		break;
	case RVP_ITYPE_RETURN:
	case RVP_ITYPE_COROUTINE_SWAP: {
		bool predicted = stack_pop(e, &ret);

		if (itype == RVP_ITYPE_COROUTINE_SWAP)
			stack_push(e, in->addr + in->len);
		if (e->cfg.seq_jump && in->seq_inferable)
			break;
		if (predicted) {
			e->pending_ret = ret;
			set_pending(e, PENDING_RETURN, 0, in->tstamp);
		} else {
			set_pending(e, indirect, 0, in->tstamp);
		}
		break;
	}
	default:
		break;
	}

	if (e->icnt > e->icnt_limit) {
		if (e->cfg.icnt_sync && htm && e->hist != 1 && !e->next_tcode) {
			/* The spec's choice for HTM with history: a Sync
			 * message (SYNC=4) carrying I-CNT, HIST and the next
			 * address, without resetting the encoder. */
			set_pending(e, NX_TCODE_INDIRECT_BRANCH_HIST_SYNC, 0, in->tstamp);
			e->pending_sync = NX_SYNC_ICNT_OVERFLOW;
		} else {
			struct nx_msg m = { .tcode = NX_TCODE_RESOURCE_FULL,
					    .rcode = NX_RCODE_ICNT, .data = prev_icnt };

			put_other(e, &m, in->tstamp);
			e->icnt = units;
		}
	}
	if ((e->hist & e->hist_limit) && e->nexrv_hist) {
		e->rf_due = true;
	} else if (e->hist & e->hist_limit) {
		uint64_t full = e->hist >> 1;

		if ((e->cfg.repeat & NX_REPEAT_HISTORY) && e->held_repeat &&
		    e->held_hist == full) {
			e->held_repeat++;
		} else {
			flush_held(e);
			if (e->cfg.repeat & NX_REPEAT_HISTORY) {
				e->held_hist = full;
				e->held_repeat = 1;
				e->held_tstamp = in->tstamp;
				block_flags_set(e);
			} else {
				struct nx_msg m = { .tcode = NX_TCODE_RESOURCE_FULL,
						    .rcode = NX_RCODE_HIST,
						    .data = full };

				put_other(e, &m, in->tstamp);
			}
		}
		e->hist = 2 | (e->hist & 1);
	}
	e->fast_ok = e->fast && e->started && !e->next_tcode && !e->rf_due;
}

int nx_enc_linear(struct nx_encoder *e, uint64_t units, uint64_t n,
		  uint64_t tstamp)
{
	if (!e->fast_ok || e->icnt + units > e->icnt_limit)
		return -1;
	e->icnt += units;
	e->n_insns += n;
	e->insn_tstamp = tstamp;
	return 0;
}

void nx_enc_overrun(struct nx_encoder *e)
{
	struct nx_msg m = { .tcode = NX_TCODE_ERROR, .etype = 0,
			    .data = 1u << 2 };	/* program trace lost */

	/* What was waiting is what got lost. */
	e->next_tcode = 0;
	e->held_repeat = 0;
	e->held_shift = 0;
	e->rf_due = false;
	e->bcnt = 0;
	e->have_last_branch = false;
	e->icnt = 0;
	e->hist = 1;
	put_msg(e, &m, e->insn_tstamp);
	e->started = false;
	e->fast_ok = false;
	block_flags_set(e);
	e->next_sync = NX_SYNC_FIFO_OVERRUN;
	e->owner_known = false;
}

int nx_enc_finish(struct nx_encoder *e, unsigned int evcode)
{
	struct nx_msg m = { .tcode = NX_TCODE_PROG_TRACE_CORRELATION,
			    .evcode = evcode };

	if (e->rf_due)
		nexrv_full(e, e->insn_tstamp);
	if (e->started) {
		/* A message still waiting for its target: the decoder only
		 * needs the count, which the correlation carries. */
		e->next_tcode = 0;
		m.icnt = e->icnt;
		if (e->cfg.mode == NX_MODE_HTM) {
			m.cdf = 1;
			m.hist = e->hist;
		}
		put_other(e, &m, e->insn_tstamp);
		e->started = false;
		e->fast_ok = false;
		block_flags_set(e);
	}
	flush_bytes(e);
	count_msgs(e);
	return e->error;
}

/* ---- ingress */

/* Operands for sequential jumps: the ingress here, the decoder's table
 * (image.c) too; here so that the encoder links without libelf. */
static int64_t sext(uint64_t v, unsigned int bits)
{
	uint64_t m = 1ull << (bits - 1);

	return (int64_t)((v ^ m) - m);
}

int nx_const_load(uint32_t w, unsigned int *rd, int64_t *value,
		  bool *pc_relative)
{
	if ((w & 3) == 3) {
		unsigned int op = w & 0x7F;

		if (op != 0x37 && op != 0x17)
			return 0;
		*rd = (w >> 7) & 0x1F;
		*value = sext(w & 0xFFFFF000u, 32);
		*pc_relative = op == 0x17;
		return *rd != 0;
	}
	/* c.lui: quadrant 1, funct3 011, rd not x0/x2, nzimm[17|16:12]. */
	if ((w & 3) == 1 && ((w >> 13) & 7) == 3) {
		unsigned int r = (w >> 7) & 0x1F;
		uint32_t imm = ((w >> 12) & 1) << 17 | ((w >> 2) & 0x1F) << 12;

		if (r == 0 || r == 2 || !imm)
			return 0;
		*rd = r;
		*value = sext(imm, 18);
		*pc_relative = false;
		return 1;
	}
	return 0;
}

int nx_jalr_operands(uint32_t w, unsigned int *rs1, int64_t *imm)
{
	if ((w & 3) == 3) {
		if ((w & 0x7F) != 0x67 || ((w >> 12) & 7))
			return 0;
		*rs1 = (w >> 15) & 0x1F;
		*imm = sext(w >> 20, 12);
		return 1;
	}
	/* c.jr / c.jalr: quadrant 2, funct3 100, rs2 0, rs1 not 0. */
	if ((w & 3) == 2 && ((w >> 13) & 7) == 4 && !((w >> 2) & 0x1F) &&
	    ((w >> 7) & 0x1F)) {
		*rs1 = (w >> 7) & 0x1F;
		*imm = 0;
		return 1;
	}
	return 0;
}


/* The held instruction is not the last of a noted block (nx_ingress.qb):
 * every successor gives it the general way (lanes of 8, lane()), so the
 * per-block way needs no test for it. */
static const struct nx_itrace_block no_block = {
	.q_target = ~0ull, .q_fall = ~0ull, .lin_units = UINT32_MAX,
	.q_acts = 0x0008000800080008ull,	/* lane(): the general way */
};

void nx_ingress_init(struct nx_ingress *g, const struct nx_config *cfg)
{
	memset(g, 0, sizeof(*g));
	g->cfg = *cfg;
	g->qb = &no_block;
}

/* Classifies the held instruction now that NEXT (its successor's
 * address) is known; NEXT_KNOWN false at the end of the stream. */
static void resolve(struct nx_ingress *g, uint64_t next, bool next_known,
		    struct nx_insn *out)
{
	struct insnhw_class c;
	uint64_t target, mask = g->cfg.xlen == 32 ? 0xFFFFFFFFull : ~0ull;
	bool fits = true;

	if (g->cls_known)
		c = g->cls;
	else
		insnhw_classify(g->word, g->cfg.xlen, g->cfg.exts, true, &c);
	target = (g->addr + (uint64_t)c.offset) & mask;
	memset(out, 0, sizeof(*out));
	out->addr = g->addr;
	out->len = c.length;
	out->priv = g->priv;
	out->tstamp = g->tstamp;
	out->itype = c.itype;
	if (c.conditional) {
		bool taken = next_known && next == target;

		out->itype = taken ? RVP_ITYPE_TAKEN_BRANCH : RVP_ITYPE_NON_TAKEN_BRANCH;
		fits = !next_known || taken || next == ((g->addr + c.length) & mask);
	} else if (c.table_jump) {
		/* Its target comes from memory the decoder does not see. */
		out->itype = c.itype == RVP_ITYPE_INFERABLE_CALL ?
			     RVP_ITYPE_UNINFERABLE_CALL : RVP_ITYPE_OTHER_UNINFERABLE_JUMP;
	} else if (c.direct) {
		fits = !next_known || next == target;
	} else if (c.itype == RVP_ITYPE_NO_SPECIAL_TYPE) {
		fits = !next_known || next == ((g->addr + c.length) & mask);
	}
	if (!fits)
		out->itype = RVP_ITYPE_INTERRUPT;	/* something came between */
	if (g->cfg.seq_jump && g->prev_valid &&
	    g->prev_addr + ((g->prev_word & 3) == 3 ? 4 : 2) == g->addr) {
		unsigned int rd, rs1;
		int64_t v, imm;
		bool pcrel;

		if (nx_const_load(g->prev_word, &rd, &v, &pcrel) &&
		    nx_jalr_operands(g->word, &rs1, &imm) && rs1 == rd) {
			uint64_t to = ((pcrel ? g->prev_addr : 0) + v + imm) & ~1ull & mask;

			/* It went where the constant says, or a trap came. */
			if (!next_known || next == to)
				out->seq_inferable = true;
			else
				out->itype = RVP_ITYPE_INTERRUPT;
		}
	}
	g->prev_valid = true;
	g->prev_addr = g->addr;
	g->prev_word = g->word;
}

int nx_ingress_step(struct nx_ingress *g, uint64_t addr, uint32_t word,
		    unsigned int priv, uint64_t tstamp, struct nx_insn *out)
{
	int ret = 0;

	if (g->have) {
		resolve(g, addr, true, out);
		if (out->itype == RVP_ITYPE_INTERRUPT)
			g->prev_valid = false;
		ret = 1;
	}
	g->have = true;
	g->addr = addr;
	g->word = word;
	g->priv = priv;
	g->tstamp = tstamp;
	g->cls_known = false;
	g->qb = &no_block;
	return ret;
}

enum { Q_NONE, Q_COND, Q_DIRECT, Q_LINEAR, Q_OTHER };

/* The itype of the last instruction of QB (q_kind not 0) when NEXT ran
 * after it. */
static inline unsigned int quick_itype(const struct nx_itrace_block *qb,
				       uint64_t next)
{
	/* Masks, not branches: whether a guest branch was taken is what
	 * the host predicts worst here. */
	unsigned int fall = -(unsigned int)(next == qb->q_fall);
	unsigned int target = -(unsigned int)(next == qb->q_target);
	unsigned int it = qb->q_it_else;

	it ^= (it ^ qb->q_it_fall) & fall;
	return it ^ ((it ^ qb->q_it_target) & target);
}

/* resolve() for a held instruction whose block's q_* are known (no
 * sequential jumps configured): the same nx_insn, in a few steps. */
static inline void quick_resolve(struct nx_ingress *g, uint64_t next,
				 struct nx_insn *out)
{
	unsigned int itype = quick_itype(g->qb, next);

	out->addr = g->addr;
	out->len = g->qb->q_len;
	out->itype = itype;
	out->priv = g->priv;
	out->v = false;
	out->seq_inferable = false;
	out->context = 0;
	out->tstamp = g->tstamp;
	g->prev_valid = true;
	g->prev_addr = g->addr;
	g->prev_word = g->word;
}

static unsigned int insn_len(uint32_t word)
{
	return (word & 3) == 3 ? 4 : 2;
}

/* A lane of q_acts: the inline way's action for ITYPE (fast_tab) as the
 * per-block way takes it.  A message (8 | TCODE << 8) as it is; without
 * an inline way 8, a message of TCODE 0, which the per-block way sends
 * the general way after its one test of the message bit; I-CNT/HIST
 * alone as HIST = (HIST << 1 | BIT) >> (1 - SHIFT): BIT at bit 6, 1 -
 * SHIFT in the bits a shift count takes (one shift, no mask). */
static uint16_t lane(const struct nx_encoder *e, unsigned int itype)
{
	unsigned int a = e->fast_tab[itype & 15];

	if (!a)
		return 8;
	if (a & 8)
		return (uint16_t)a;
	return (uint16_t)((a & 2 ? 0 : 1) | (a & 4 ? 64 : 0));
}

/* Whether every instruction of B but the last is linear (a QEMU block
 * ends at each transfer, so this is the rule, not the exception); the
 * units of those between the first and the last; the last's address and
 * class. */
static void note_block(const struct nx_ingress *g, const struct nx_encoder *e,
		       struct nx_itrace_block *b)
{
	uint64_t pc = b->start, mask = g->cfg.xlen == 32 ? 0xFFFFFFFFull : ~0ull;
	uint32_t i, units = 0;
	struct insnhw_class c;

	b->simple = 1;
	for (i = 0; i + 1 < b->n; i++) {
		struct insnhw_class c;

		insnhw_classify(b->words[i], g->cfg.xlen, g->cfg.exts, true, &c);
		if (c.type != RVP_CTRDATA_TYPE_NONE ||
		    c.itype != RVP_ITYPE_NO_SPECIAL_TYPE)
			b->simple = 0;
		if (i)
			units += insn_len(b->words[i]) / 2;
		pc += insn_len(b->words[i]);
	}
	b->mid_units = units;
	b->last_addr = pc;
	b->first_units = insn_len(b->words[0]) / 2;
	b->lin_units = b->n > 1 ? b->first_units + units : 0;
	/* The per-block way takes a block's linear units in one go; more
	 * than I-CNT holds (never from QEMU) go one by one. */
	if (b->lin_units > 1ull << g->cfg.icnt_bits)
		b->simple = 0;
	/* A block that is not simple has more units than I-CNT holds, for
	 * the per-block way: its only test sends it the general way. */
	if (!b->simple)
		b->lin_units = UINT32_MAX;
	if (b->n > 1) {
		b->prev_word = b->words[b->n - 2];
		b->prev_addr = pc - insn_len(b->prev_word);
	}
	insnhw_classify(b->words[b->n - 1], g->cfg.xlen, g->cfg.exts, true,
			&b->last_cls);
	/* What resolve() will make of the last one, wherever it goes. */
	c = b->last_cls;
	b->q_kind = Q_OTHER;
	b->q_itype = (uint8_t)c.itype;
	b->q_len = (uint8_t)c.length;
	b->q_target = (pc + (uint64_t)c.offset) & mask;
	b->q_fall = (pc + c.length) & mask;
	if (g->cfg.seq_jump)
		b->q_kind = Q_NONE;
	else if (c.conditional)
		b->q_kind = Q_COND;
	else if (c.table_jump)
		b->q_itype = c.itype == RVP_ITYPE_INFERABLE_CALL ?
			     RVP_ITYPE_UNINFERABLE_CALL : RVP_ITYPE_OTHER_UNINFERABLE_JUMP;
	else if (c.direct)
		b->q_kind = Q_DIRECT;
	else if (c.itype == RVP_ITYPE_NO_SPECIAL_TYPE)
		b->q_kind = Q_LINEAR;
	/* The same as three choices without a branch (quick_itype()): the
	 * itype when the next address is q_target, else when it is q_fall,
	 * else. */
	b->q_it_target = b->q_it_fall = b->q_it_else = b->q_itype;
	switch (b->q_kind) {
	case Q_COND:
		b->q_it_target = RVP_ITYPE_TAKEN_BRANCH;
		b->q_it_fall = RVP_ITYPE_NON_TAKEN_BRANCH;
		b->q_it_else = RVP_ITYPE_INTERRUPT;
		break;
	case Q_DIRECT:
		b->q_it_fall = b->q_it_else = RVP_ITYPE_INTERRUPT;
		break;
	case Q_LINEAR:
		b->q_target = b->q_fall;
		b->q_it_else = RVP_ITYPE_INTERRUPT;
		break;
	}
	b->q_units = b->q_len / 2;
	b->q_acts = lane(e, b->q_it_target) | (uint64_t)lane(e, b->q_it_fall) << 16 |
		    (uint64_t)lane(e, b->q_it_else) << 32;
}

/* lane(quick_itype(QB, NEXT)), from the lanes of q_acts: in the low 16
 * bits, the next lane above (no mask where the bits tested are low). */
static inline unsigned int quick_action(const struct nx_itrace_block *qb,
					uint64_t next)
{
	unsigned int shift = next == qb->q_fall ? 16 : 32;

	shift = next == qb->q_target ? 0 : shift;
	return (unsigned int)(qb->q_acts >> shift);
}

/*
 * The common execution of a simple block B after the last instruction of
 * block QB (no sequential jumps), the encoder in its inline way (fast_ok):
 * that instruction resolved from B's start, then B's linear instructions,
 * as nx_enc_insn() and quick_emit() would take them one by one, in one go.
 * nx_ingress_block(): it only adds to I-CNT and HIST; block_msg(): it
 * makes a branch message, written directly (0, with nothing changed, when
 * anything else is involved: an overflow, the stack, a trap, a message of
 * another kind; the general way then, as for nx_ingress_block()).
 */
static inline __attribute__((always_inline)) int
block_msg_k(struct nx_encoder *e, const struct nx_itrace_block *qb,
	    const struct nx_itrace_block *b, unsigned int tcode, bool pdep)
{
	uint64_t icnt = e->icnt + qb->q_units, hist = e->hist, field;
	uint64_t indirect;
	size_t n;

	/* IndirectBranchHist with an empty HIST: IndirectBranch (28 -> 4),
	 * without a branch. */
	tcode ^= (NX_TCODE_INDIRECT_BRANCH_HIST ^ NX_TCODE_INDIRECT_BRANCH) &
		 -(unsigned int)((tcode == NX_TCODE_INDIRECT_BRANCH_HIST) & (hist == 1));
	/* The address field, cut to XLEN here, so that the bytes are made
	 * for RV64 (no width to look up); none for DirectBranch. */
	indirect = -(uint64_t)(tcode != NX_TCODE_DIRECT_BRANCH);
	field = (e->ref_addr ^ b->start) & e->addr_mask & indirect;
	/* The bytes first: they go past the fill, which the buffer always
	 * has room for (every write leaves 24 bytes at least, and
	 * buf_slack is beyond), and count only if nothing below says no. */
	n = nx_branch_bytes_inline(64, tcode, 0, icnt, field, hist,
				   e->buf + e->fill, pdep);
	/* No sync can be due: quick rules out sync by messages, fast_ok
	 * (the caller's) sync by I-CNT.  I-CNT with B's linear units within
	 * the limit (an unnoted or not simple B has more), a buffer with
	 * room for the next (a full one goes the general way, which
	 * flushes it: no call here, so this way saves no registers), a
	 * message this way writes (msg_limit: 0 when the quick way is off,
	 * the encoder off its inline way, a HIST held or on_msg watching).
	 * One test: each costs, however well predicted, at every message. */
	if (__builtin_expect((icnt + b->lin_units > e->msg_limit) |
			     (e->fill + 64 > sizeof(e->buf)) | (n == 0), 0))
		return 0;
	e->fill += n;
	e->by_tcode[tcode]++;
	e->ref_addr = (b->start & indirect) | (e->ref_addr & ~indirect);
	e->icnt = b->lin_units;
	e->hist = 1;
	e->n_insns += b->n;
	return 1;
}

/* HTM's only kind from the table (IndirectBranchHist, or IndirectBranch
 * when HIST is empty) with its masks folded: two copies, one test on a
 * constant per configuration. */
static inline __attribute__((always_inline)) int
block_msg(struct nx_encoder *e, const struct nx_itrace_block *qb,
	  const struct nx_itrace_block *b, unsigned int a, bool pdep)
{
	if (__builtin_expect(a >> 8 == NX_TCODE_INDIRECT_BRANCH_HIST, 1))
		return block_msg_k(e, qb, b, NX_TCODE_INDIRECT_BRANCH_HIST, pdep);
	return block_msg_k(e, qb, b, a >> 8, pdep);
}

/* The held instruction's address and encoding, when only QB says them
 * (nx_ingress_block()'s quick way leaves them there). */
static inline void held_from_block(struct nx_ingress *g)
{
	if (g->qb != &no_block) {
		g->addr = g->qb->last_addr;
		g->word = g->qb->words[g->qb->n - 1];
	}
}

static __attribute__((noinline)) void
ingress_block_slow(struct nx_ingress *g, struct nx_encoder *e,
		   struct nx_itrace_block *b, unsigned int priv, uint64_t tstamp)
{
	struct nx_insn in;
	uint32_t i, n = b->n;

	if (b->simple < 0)
		note_block(g, e, b);
	held_from_block(g);
	if (!b->simple) {
		uint64_t pc = b->start;

		for (i = 0; i < n; i++) {
			if (nx_ingress_step(g, pc, b->words[i], priv, tstamp + i, &in))
				nx_enc_insn(e, &in);
			pc += insn_len(b->words[i]);
		}
		block_flags_set(e);
		return;
	}
	/* The previous block's last instruction goes where this one starts. */
	if (g->have) {
		if (g->qb != &no_block)
			quick_resolve(g, b->start, &in);
		else
			resolve(g, b->start, true, &in);
		nx_enc_insn(e, &in);
	}
	if (n > 1) {
		/* Linear, one after the other: in one go, or the first on its
		 * own (it may carry the message the previous transfer left)
		 * and the others in one go. */
		if (nx_enc_linear(e, b->first_units + b->mid_units, n - 1,
				  tstamp + n - 2)) {
			memset(&in, 0, sizeof(in));
			in.addr = b->start;
			in.len = 2 * b->first_units;
			in.itype = RVP_ITYPE_NO_SPECIAL_TYPE;
			in.priv = priv;
			in.tstamp = tstamp;
			nx_enc_insn(e, &in);
			if (n > 2 && nx_enc_linear(e, b->mid_units, n - 2, tstamp + n - 2)) {
				in.addr += in.len;
				for (i = 1; i + 1 < n; i++) {
					in.len = insn_len(b->words[i]);
					in.tstamp = tstamp + i;
					nx_enc_insn(e, &in);
					in.addr += in.len;
				}
			}
		}
		g->prev_valid = true;
		g->prev_addr = b->prev_addr;
		g->prev_word = b->prev_word;
	}
	/* B's last instruction waits for the address that follows. */
	g->have = true;
	g->addr = b->last_addr;
	g->word = b->words[n - 1];
	g->priv = priv;
	g->tstamp = tstamp + n - 1;
	g->qb = b->q_kind ? b : &no_block;
	if (!b->q_kind) {
		g->cls = b->last_cls;
		g->cls_known = true;
	} else {
		g->cls_known = false;
	}
	block_flags_set(e);
}

#if defined(__x86_64__) && defined(__GNUC__)
/* A CPU with PDEP has the rest of BMI2: shifts by a register without CL. */
#define NX_BMI2 __attribute__((target("bmi2")))
#else
#define NX_BMI2
#endif

/* After the quick way: B's last instruction is held, its address and
 * encoding left in B (held_from_block()); with no sequential jumps, the
 * one before it is not needed.  The last the encoder saw is B's last
 * linear one, or QB's last when B has no other.  U (nx_ingress_block_u()):
 * no timestamps, the mode always 0, nothing to note but B. */
static inline __attribute__((always_inline)) void
held_block(struct nx_ingress *g, struct nx_encoder *e,
	   struct nx_itrace_block *b, unsigned int priv, uint64_t tstamp,
	   bool u)
{
	if (!u && e->cfg.tstamp) {	/* else nothing reads them */
		e->insn_tstamp = b->n > 1 ? tstamp + b->n - 2 : g->tstamp;
		g->tstamp = tstamp + b->n - 1;
	}
	g->qb = b;
	if (!u)
		g->priv = priv;
}

/* The highest set bit of V, not 0: BSR, in a register that indexes
 * (from __builtin_clzll() GCC widens the int it makes). */
static inline uint64_t top_bit(uint64_t v)
{
#if defined(__x86_64__) && defined(__GNUC__)
	uint64_t t;

	__asm__("bsrq %1, %0" : "=r"(t) : "rm"(v));
	return t;
#else
	return 63 ^ (uint64_t)__builtin_clzll(v);
#endif
}

/*
 * block_msg_k() for HTM's IndirectBranchHist (or IndirectBranch, HIST
 * empty) in the user-mode way (nx_ingress_block_u()), whole: half of a
 * trace's blocks in a program that returns often (a return is such a
 * message without a stack).  The bytes of this one kind, without the
 * masks that make three kinds one, and the field lengths as shifts from
 * tables (ibh_tab); then B held as ingress_msg() does.  The same bytes as
 * nx_branch_bytes_inline(); an empty HIST's stop bit lands past the
 * message's last byte (or above the 48 bits PDEP takes), where the next
 * message writes.  The tests first, so that their values are not kept
 * across the bytes: some 64 instructions, where block_msg() took 100.
 */
static inline __attribute__((always_inline)) void
ibh_u(struct nx_ingress *g, struct nx_encoder *e, struct nx_itrace_block *b,
      const struct nx_itrace_block *qb, bool pdep)
{
	uint64_t icnt = e->icnt + qb->q_units, hist, f, w, x, ti, tf, th;
	uint64_t s6a, s6b, s8a, s8b, s8c, tcode;
	size_t fill = e->fill;

	if (__builtin_expect((icnt + b->lin_units > e->msg_limit) |
			     (fill + 64 > sizeof(e->buf)), 0))
		goto slow;
	/* Not 0: I-CNT has the held instruction's units, HIST its stop
	 * bit; the address field may be. */
	ti = top_bit(icnt);
	s6a = e->ibh.i6[ti];
	s8a = e->ibh.i8[ti];
	w = icnt << 8;
	f = ((e->ref_addr ^ b->start) & e->addr_mask) >> 1;
	tf = top_bit(f | 1);
	w |= f << (s6a & 63);
	/* W made here, not after the HIST field: GCC otherwise or-s the
	 * fields together at the end and keeps them all until then, in
	 * registers it saves and restores. */
	__asm__("" : "+r"(w));
	s6b = s6a + e->ibh.f6[tf];
	s8b = s8a + e->ibh.f8[tf];
	hist = e->hist;
	th = top_bit(hist);
	w |= hist << (s6b & 63);
	s8c = s8b + e->ibh.h8[th];
	tcode = e->ibh.tc[th];
	w |= tcode;
	x = nx_spread_mdo(w, pdep);
	/* MSEO: the ends of I-CNT and of the address, the message's end. */
	x |= 1ull << (s8a & 63) | 1ull << (s8b & 63) | 3ull << (s8c & 63);
	memcpy(e->buf + fill, &x, 8);
	/* As block_msg_k(): a message longer than eight bytes (S8C, its
	 * last byte's bit, past 56) goes the general way too. */
	if (__builtin_expect(s8c > 56, 0))
		goto slow;
	e->fill = fill + (s8c >> 3) + 1;
	/* Two stores, not one of two lanes built in a vector register. */
	__asm__("" ::: "memory");
	e->by_tcode[tcode]++;
	e->icnt = b->lin_units;
	e->hist = 1;
	e->n_insns += b->n;
	e->ref_addr = b->start;
	g->qb = b;
	return;
slow:
	ingress_block_slow(g, e, b, 0, 0);
}

static __attribute__((noinline)) NX_BMI2 void
ibh_u_pdep(struct nx_ingress *g, struct nx_encoder *e, struct nx_itrace_block *b,
	   const struct nx_itrace_block *qb)
{
	ibh_u(g, e, b, qb, true);
}

static __attribute__((noinline)) void
ibh_u_plain(struct nx_ingress *g, struct nx_encoder *e, struct nx_itrace_block *b,
	    const struct nx_itrace_block *qb)
{
	ibh_u(g, e, b, qb, false);
}

/* The message case of ingress_block(), on its own so that the I-CNT/HIST
 * case, most blocks, saves no registers; with or without PDEP. */
static inline __attribute__((always_inline)) void
ingress_msg(struct nx_ingress *g, struct nx_encoder *e,
	    struct nx_itrace_block *b, unsigned int a, unsigned int priv,
	    uint64_t tstamp, bool pdep, bool u)
{
	if (block_msg(e, g->qb, b, a, pdep))
		held_block(g, e, b, priv, tstamp, u);
	else
		ingress_block_slow(g, e, b, priv, tstamp);
}

static __attribute__((noinline)) NX_BMI2 void
ingress_msg_pdep(struct nx_ingress *g, struct nx_encoder *e,
		 struct nx_itrace_block *b, unsigned int a, unsigned int priv,
		 uint64_t tstamp)
{
	ingress_msg(g, e, b, a, priv, tstamp, true, false);
}

static __attribute__((noinline)) void
ingress_msg_plain(struct nx_ingress *g, struct nx_encoder *e,
		  struct nx_itrace_block *b, unsigned int a, unsigned int priv,
		  uint64_t tstamp)
{
	ingress_msg(g, e, b, a, priv, tstamp, false, false);
}

/* The same for nx_ingress_block_u(): the mode and count constants. */
static __attribute__((noinline)) NX_BMI2 void
ingress_msg_pdep_u(struct nx_ingress *g, struct nx_encoder *e,
		   struct nx_itrace_block *b, unsigned int a)
{
	ingress_msg(g, e, b, a, 0, 0, true, true);
}

static __attribute__((noinline)) void
ingress_msg_plain_u(struct nx_ingress *g, struct nx_encoder *e,
		    struct nx_itrace_block *b, unsigned int a)
{
	ingress_msg(g, e, b, a, 0, 0, false, true);
}

/*
 * One execution of B.  Every test costs at every block, however well the
 * host predicts it (hundreds of millions a second, between QEMU's own
 * branches), so there is one, the message bit, before the message-or-not
 * branch and one after: a held instruction that is not the last of a
 * noted block (no_block), an encoder not in its inline way (lane_or) and
 * an itype with no inline way all give a message of TCODE 0, which the
 * message side sends the general way; an unnoted or not simple B has
 * more linear units than I-CNT holds.
 */
static inline __attribute__((always_inline)) void
ingress_block(struct nx_ingress *g, struct nx_encoder *e,
	      struct nx_itrace_block *b, unsigned int priv, uint64_t tstamp,
	      bool u, int pdep)
{
	const struct nx_itrace_block *qb = g->qb;
	unsigned int a, tcode;
	uint64_t icnt, hist;

	/* The encoder not in its inline way: the message bit (lane_or),
	 * then the general way (TCODE 0 or msg_limit 0). */
	a = quick_action(qb, b->start) | e->lane_or;
	if (a & 8) {
		/* Tail calls: this function keeps no registers.  PDEP: 1 or
		 * 0 when the caller knows (nx_ingress_block_u_pdep()), else
		 * -1.  HTM's kind first, one compare of the lane (with
		 * lane_or's bit too, which ibh_u()'s msg_limit catches). */
		if (u && pdep == 1 && (uint16_t)a == ACT_MSG(NX_TCODE_INDIRECT_BRANCH_HIST)) {
			ibh_u_pdep(g, e, b, qb);
			return;
		}
		if (u && pdep == 0 && (uint16_t)a == ACT_MSG(NX_TCODE_INDIRECT_BRANCH_HIST)) {
			ibh_u_plain(g, e, b, qb);
			return;
		}
		tcode = (a >> 8) & 0xFF;
		a &= 0xFFFF;
		if (__builtin_expect(tcode == 0, 0))
			ingress_block_slow(g, e, b, priv, tstamp);
		else if (u && (pdep == 1 || (pdep < 0 && e->pdep)))
			ingress_msg_pdep_u(g, e, b, a);
		else if (u)
			ingress_msg_plain_u(g, e, b, a);
		else if (e->pdep)
			ingress_msg_pdep(g, e, b, a, priv, tstamp);
		else
			ingress_msg_plain(g, e, b, a, priv, tstamp);
		return;
	}
	icnt = e->icnt + qb->q_units + b->lin_units;
	/* A & 63: 1 - SHIFT (lane()).  HIST below its limit (the inline
	 * way keeps it there) and shifted by one bit at most: at or above
	 * it when full. */
	hist = (e->hist << 1 | (a >> 6 & 1)) >> (a & 63);
	if (__builtin_expect((icnt > e->icnt_limit) | (hist >= e->hist_limit), 0)) {
		ingress_block_slow(g, e, b, priv, tstamp);
		return;
	}
	e->icnt = icnt;
	e->hist = hist;
	e->n_insns += b->n;
	held_block(g, e, b, priv, tstamp, u);
}

void nx_ingress_block(struct nx_ingress *g, struct nx_encoder *e,
		      struct nx_itrace_block *b, unsigned int priv,
		      uint64_t tstamp)
{
	ingress_block(g, e, b, priv, tstamp, false, -1);
}

/* The mode and the count as constants: two registers fewer to keep
 * across the message's bytes, and nothing to note of either.  Only for a
 * trace without timestamps, every block given this way. */
void nx_ingress_block_u(struct nx_ingress *g, struct nx_encoder *e,
			struct nx_itrace_block *b)
{
	ingress_block(g, e, b, 0, 0, true, 0);
}

NX_BMI2 void nx_ingress_block_u_pdep(struct nx_ingress *g, struct nx_encoder *e,
				     struct nx_itrace_block *b)
{
	ingress_block(g, e, b, 0, 0, true, 1);
}

int nx_ingress_flush(struct nx_ingress *g, struct nx_insn *out)
{
	if (!g->have)
		return 0;
	held_from_block(g);
	resolve(g, 0, false, out);
	g->have = false;
	return 1;
}
