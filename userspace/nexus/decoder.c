// SPDX-License-Identifier: BSD-2-Clause
/*
 * decoder.c - messages + program images -> the executed PC sequence.
 *
 * The decoder walks the code from the last known PC.  I-CNT says how many
 * 16-bit units a message covers, HIST says which way its conditional
 * branches went, the address says where the instruction at its end went.
 * ResourceFull messages hand over I-CNT and HIST before the message that
 * ends the stretch: HIST bits are walked at once, as far as they reach
 * (the units walked ahead are owed and paid by the next I-CNT), and
 * reported I-CNT as far as no branch is missing a bit, so nothing piles
 * up however long the stretch.
 *
 * Anything that cannot be (a bad message, an address outside the images,
 * an I-CNT ending inside an instruction or running through a jump whose
 * target is not known) is reported with the message's offset; decoding
 * resumes at the next synchronisation message.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "nexus_int.h"

enum walk_mode { W_BITS, W_CREDIT, W_FINAL };
/* What ends a final walk: an address (jump target, sync), a trap (the
 * last instruction only counts), a taken DirectBranch, or a stop. */
enum fin { FIN_ADDR, FIN_TRAP, FIN_DIRECT, FIN_STOP };

#define WALK_OK		0
#define WALK_DAMAGE	(-1)
#define WALK_STOPPED	(-2)

void nx_dec_init(struct nx_decoder *d, const struct nx_config *cfg,
		 struct nx_image *img, const struct nx_decoder_ops *ops)
{
	memset(d, 0, sizeof(*d));
	d->cfg = *cfg;
	d->img = img;
	if (ops)
		d->ops = *ops;
}

static void event(struct nx_decoder *d, enum nx_event ev, const char *what)
{
	if (d->ops.event)
		d->ops.event(d->ops.ctx, ev, d->msg_offset, what);
}

/* The open block ends at END (as KIND says); the next starts at NEXT. */
static inline __attribute__((always_inline)) int close_block(struct nx_decoder *d, uint64_t end, uint64_t next,
		       enum nx_block_end kind)
{
	struct nx_block b;

	if (d->blk_n) {
		b.start = d->blk_start;
		b.end = end;
		b.n_insns = d->blk_n;
		b.tstamp = d->tstamp;
		b.priv = d->priv;
		b.v = d->v;
		b.context = d->context;
		b.end_kind = kind;
		d->n_insns += d->blk_n;
		d->blk_n = 0;
		if (d->ops.insn) {
			uint64_t pc = b.start;

			while (pc != end) {
				const struct nx_entry *e = nx_image_entry(d->img, pc);
				unsigned int len = e ? 2u * e->units : 2;

				if (d->ops.insn(d->ops.ctx, pc, len))
					d->stop = true;
				pc += len;
			}
		}
		if (d->ops.block && d->ops.block(d->ops.ctx, &b))
			d->stop = true;
	}
	d->blk_start = next;
	return d->stop ? WALK_STOPPED : WALK_OK;
}

static int damage(struct nx_decoder *d, const char *fmt, uint64_t a)
{
	snprintf(d->err, sizeof(d->err), fmt, a);
	/* What was walked before is right: give it out. */
	close_block(d, d->pc, d->pc, NX_END_NONE);
	d->n_damage++;
	event(d, NX_EV_DAMAGE, d->err);
	d->synced = false;
	return WALK_DAMAGE;
}

static void unsync(struct nx_decoder *d)
{
	d->synced = false;
}

/* ---- HIST bits */

static inline int hist_add(struct nx_decoder *d, uint64_t hist, uint64_t repeat)
{
	struct nx_hist_run *r;
	unsigned int n;

	if (!hist)
		return damage(d, "HIST without its stop bit%.0" PRIu64, 0);
	n = 63 - (unsigned int)__builtin_clzll(hist);
	if (!n || !repeat)
		return WALK_OK;
	if (d->hist_n == sizeof(d->hist) / sizeof(d->hist[0]))
		return damage(d, "more than 64 HIST fields waiting for I-CNT%.0" PRIu64, 0);
	r = &d->hist[(d->hist_head + d->hist_n++) % 64];
	r->bits = hist & ((1ull << n) - 1);
	r->n = n;
	r->repeat = repeat;
	r->pos = 0;
	return WALK_OK;
}

static inline int hist_pop(struct nx_decoder *d)
{
	struct nx_hist_run *r = &d->hist[d->hist_head];
	int bit = (r->bits >> (r->n - 1 - r->pos)) & 1;

	if (++r->pos == r->n) {
		r->pos = 0;
		if (!--r->repeat) {
			d->hist_head = (d->hist_head + 1) % 64;
			d->hist_n--;
		}
	}
	return bit;
}

/* ---- return stack */

static void push(struct nx_decoder *d, uint64_t ret)
{
	d->stack[d->sp] = ret;
	d->sp = (d->sp + 1) % d->cfg.ret_depth;
	if (d->depth < d->cfg.ret_depth)
		d->depth++;
}

static uint64_t pop(struct nx_decoder *d)
{
	d->sp = (d->sp + d->cfg.ret_depth - 1) % d->cfg.ret_depth;
	d->depth--;
	return d->stack[d->sp];
}

/* ---- the walk */

static inline void use_units(struct nx_decoder *d, enum walk_mode mode,
			     uint64_t *left, unsigned int u)
{
	if (mode != W_BITS) {
		*left -= u;
	} else if (d->credit >= u) {
		d->credit -= u;
	} else {
		d->owed += u - d->credit;
		d->credit = 0;
	}
}

/*
 * Walks from d->pc.  W_BITS: until the HIST bits run out (units come from
 * the credit, then are owed); W_CREDIT: as far as *LEFT units go without a
 * missing bit or an unknown target; W_FINAL: exactly *LEFT units, the last
 * instruction as FIN says, TARGET the address of FIN_ADDR/FIN_TRAP.
 *
 * Always inlined with constant MODE and FIN (walk_final() picks the
 * instance), so each instance tests only what can differ; the PC, the
 * block's count and the units left live in registers and are written
 * back before anything that reads them from *D.
 */
#define WALK_SAVE() do { d->pc = pc; d->blk_n = n; d->seq_valid = seqv; } while (0)

static inline __attribute__((always_inline)) int
walk_t(struct nx_decoder *d, const enum walk_mode mode, uint64_t *left,
       const enum fin fin, uint64_t target)
{
	const bool htm = d->cfg.mode == NX_MODE_HTM;
	const bool rets = d->cfg.ret_mode != NX_RETURN_OFF;
	const uint64_t mask = d->cfg.xlen == 32 ? 0xFFFFFFFFull : ~0ull;
	bool ended_direct = false;
	/* A local copy: *LEFT may alias the decoder's fields. */
	uint64_t rem = *left;
	uint64_t pc = d->pc, n = d->blk_n;
	bool seqv = d->seq_valid;
	/* The segment walked last, in registers. */
	uint64_t seg_start = 1, seg_len = 0;
	const struct nx_entry *tab = NULL;

	for (;;) {
		const struct nx_entry *e;
		uint64_t next;
		unsigned int u, kind;
		bool last, inferable, seq;

		if (mode == W_BITS ? !d->hist_n : !rem)
			break;
		if (__builtin_expect(pc - seg_start < seg_len, 1)) {
			e = &tab[(pc - seg_start) >> 1];
		} else {
			e = nx_image_entry(d->img, pc);
			if (!e) {
				WALK_SAVE();
				return damage(d, "address 0x%" PRIx64 " is outside the program images", pc);
			}
			seg_start = d->img->last->start;
			seg_len = d->img->last->end - seg_start;
			tab = d->img->last->tab;
		}
		if (e->kind == K_LINEAR) {
			unsigned int k = e->run_insns;

			u = e->run_units;
			if (mode != W_BITS && u > rem) {
				u = e->units;
				k = 1;
				if (u > rem) {
					if (mode == W_FINAL) {
						WALK_SAVE();
						return damage(d, "I-CNT ends inside the instruction at 0x%" PRIx64, pc);
					}
					break;
				}
			}
			pc = (pc + 2ull * u) & mask;
			n += k;
			seqv = false;
			use_units(d, mode, &rem, u);
			continue;
		}
		u = e->units;
		if (e->kind == K_INVALID) {
			WALK_SAVE();
			return damage(d, "the instruction at 0x%" PRIx64 " runs past its image", pc);
		}
		if (mode != W_BITS && u > rem) {
			if (mode == W_FINAL) {
				WALK_SAVE();
				return damage(d, "I-CNT ends inside the instruction at 0x%" PRIx64, pc);
			}
			break;
		}
		last = mode == W_FINAL && rem == u;
		next = (pc + u * 2ull) & mask;
		kind = e->kind;
		if (!rets) {
			if (kind == K_CALL)
				kind = K_JUMP;
			else if (kind == K_ICALL || kind == K_RET || kind == K_SWAP)
				kind = K_IJUMP;
		}
		if (fin == FIN_TRAP && last) {
			/* The trap came after it: only counted. */
			n++;
			pc = next;
			use_units(d, mode, &rem, u);
			seqv = false;
			break;
		}
		switch (kind) {
		case K_LOADC:
			d->seq_value = (e->off & ENTRY_PCREL ? pc : 0) +
				       (uint64_t)ENTRY_VALUE(e);
			d->seq_reg = ENTRY_REG(e);
			d->seq_pc = next;
			n++;
			pc = next;
			use_units(d, mode, &rem, u);
			seqv = true;
			continue;
		case K_BRANCH:
		case K_JUMP:
		case K_CALL: {
			bool taken;

			if (kind != K_BRANCH && !d->cfg.all_jumps) {
				taken = true;
			} else if (htm) {
				if (!d->hist_n) {
					if (fin == FIN_STOP && last) {
						taken = false;
					} else if (mode == W_FINAL) {
						WALK_SAVE();
						return damage(d, "no HIST bit for the branch at 0x%" PRIx64, pc);
					} else {
						goto wait;
					}
				} else {
					taken = hist_pop(d);
				}
				if (kind != K_BRANCH && !taken) {
					WALK_SAVE();
					return damage(d, "HIST says the jump at 0x%" PRIx64 " was not taken", pc);
				}
			} else {
				taken = fin == FIN_DIRECT && last;
				if (kind != K_BRANCH && !taken && !(last && fin != FIN_DIRECT)) {
					WALK_SAVE();
					return damage(d, "the jump at 0x%" PRIx64 " should have ended a DirectBranch", pc);
				}
				if (kind != K_BRANCH)
					taken = true;
			}
			if (kind == K_CALL)
				push(d, next);
			n++;
			use_units(d, mode, &rem, u);
			seqv = false;
			if (taken) {
				uint64_t to = (pc + (int64_t)e->off) & mask;

				d->blk_n = n;
				n = 0;
				if (close_block(d, next, to, NX_END_TRANSFER)) {
					d->pc = to;
					d->seq_valid = false;
					return WALK_STOPPED;
				}
				pc = to;
			} else {
				pc = next;
			}
			if (fin == FIN_DIRECT && last) {
				if (!taken) {
					WALK_SAVE();
					return damage(d, "DirectBranch ends at 0x%" PRIx64 ", not a taken branch", pc);
				}
				ended_direct = true;
			}
			continue;
		}
		default:
			break;
		}
		/* An indirect transfer: inferable from a constant just loaded,
		 * or (returns) from the stack, or it must end the message. */
		seq = kind != K_XRET && seqv && d->cfg.seq_jump &&
		      pc == d->seq_pc && ENTRY_REG(e) == d->seq_reg;
		inferable = seq || ((kind == K_RET || kind == K_SWAP) && d->depth);
		if (!last || fin != FIN_ADDR) {
			if (!inferable) {
				if (fin == FIN_STOP && last) {
					n++;
					pc = next;
					use_units(d, mode, &rem, u);
					break;
				}
				if (mode == W_FINAL) {
					WALK_SAVE();
					return damage(d, "I-CNT runs through the jump at 0x%" PRIx64 " whose target is not known", pc);
				}
				goto wait;
			}
			if (fin == FIN_DIRECT && last) {
				WALK_SAVE();
				return damage(d, "DirectBranch ends at 0x%" PRIx64 ", not a branch", pc);
			}
		}
		/* Stack effects, the same whether inferable or not. */
		if ((kind == K_RET || kind == K_SWAP) && d->depth) {
			uint64_t r = pop(d);

			if (!seq)
				next = r;
		}
		if (seq)
			next = (d->seq_value + ENTRY_IMM(e)) & ~1ull & mask;
		if (kind == K_ICALL || kind == K_SWAP)
			push(d, (pc + u * 2ull) & mask);
		if (fin == FIN_ADDR && last)
			next = target;
		n++;
		use_units(d, mode, &rem, u);
		seqv = false;
		d->blk_n = n;
		n = 0;
		if (close_block(d, (pc + u * 2ull) & mask, next, NX_END_TRANSFER)) {
			d->pc = next;
			d->seq_valid = false;
			return WALK_STOPPED;
		}
		pc = next;
	}
	if (mode == W_FINAL && fin == FIN_DIRECT && !ended_direct) {
		WALK_SAVE();
		return damage(d, "DirectBranch does not end at a taken branch (at 0x%" PRIx64 ")", pc);
	}
wait:
	WALK_SAVE();
	*left = rem;
	return WALK_OK;
}

/* The instances: the walks ahead of a ResourceFull (rare), and one final
 * walk for each way a message ends. */
static __attribute__((noinline)) int walk(struct nx_decoder *d,
					  enum walk_mode mode, uint64_t *left)
{
	return mode == W_BITS ? walk_t(d, W_BITS, left, FIN_STOP, 0)
			      : walk_t(d, W_CREDIT, left, FIN_STOP, 0);
}

static __attribute__((noinline)) int walk_addr(struct nx_decoder *d,
					       uint64_t *left, uint64_t target)
{
	return walk_t(d, W_FINAL, left, FIN_ADDR, target);
}

static __attribute__((noinline)) int walk_other(struct nx_decoder *d,
						uint64_t *left, enum fin fin,
						uint64_t target)
{
	switch (fin) {
	case FIN_TRAP: return walk_t(d, W_FINAL, left, FIN_TRAP, target);
	case FIN_DIRECT: return walk_t(d, W_FINAL, left, FIN_DIRECT, 0);
	default: return walk_t(d, W_FINAL, left, FIN_STOP, 0);
	}
}

/* Eager walks after a ResourceFull. */
static int walk_ahead(struct nx_decoder *d)
{
	uint64_t left;
	int r;

	if (d->hist_n) {
		r = walk(d, W_BITS, &left);
		if (r)
			return r;
	}
	left = d->credit;
	r = walk(d, W_CREDIT, &left);
	d->credit = left;
	return r;
}

/* The message ends a stretch of ICNT more units. */
static inline __attribute__((always_inline)) int walk_final(struct nx_decoder *d, uint64_t icnt, enum fin fin,
		      uint64_t target)
{
	uint64_t total;
	int r;

	if (d->owed > d->credit + icnt)
		return damage(d, "I-CNT %" PRIu64 " is shorter than the path HIST bits took", icnt);
	total = d->credit + icnt - d->owed;
	d->credit = d->owed = 0;
	r = fin == FIN_ADDR ? walk_addr(d, &total, target)
			    : walk_other(d, &total, fin, target);
	if (r)
		return r;
	if (d->hist_n && fin != FIN_STOP)
		return damage(d, "HIST bits left over at the end of a message%.0" PRIu64, 0);
	d->hist_n = 0;
	d->hist_head = 0;
	if (fin == FIN_ADDR || fin == FIN_TRAP) {
		/* Where the message goes on from the next instruction (a
		 * SYNC=4 boundary), a lui/auipc just walked still feeds the
		 * jalr after it. */
		if (target != d->pc || fin == FIN_TRAP) {
			/* A block never spans a trap: the mode may change. */
			if (close_block(d, d->pc, target,
					fin == FIN_TRAP ? NX_END_TRAP : NX_END_TRANSFER))
				return WALK_STOPPED;
			d->seq_valid = false;
		}
		d->pc = target;
	}
	return WALK_OK;
}

static void reset_state(struct nx_decoder *d)
{
	d->credit = d->owed = 0;
	d->hist_n = d->hist_head = 0;
	d->sp = d->depth = 0;
	d->seq_valid = false;
	d->have_last_branch = false;
}

/* A branch message (or one RepeatBranch repeats): TARGET resolved. */
static inline __attribute__((always_inline)) int
branch(struct nx_decoder *d, const struct nx_msg *m, uint64_t target)
{
	int r;

	if (m->tcode == NX_TCODE_INDIRECT_BRANCH_HIST ||
	    m->tcode == NX_TCODE_INDIRECT_BRANCH_HIST_SYNC) {
		r = hist_add(d, m->hist, 1);
		if (r)
			return r;
	}
	if (m->tcode == NX_TCODE_DIRECT_BRANCH)
		return walk_final(d, m->icnt, FIN_DIRECT, 0);
	if (m->tcode == NX_TCODE_DIRECT_BRANCH_SYNC) {
		r = walk_final(d, m->icnt, FIN_DIRECT, 0);
		if (r)
			return r;
		if (d->pc != target &&
		    close_block(d, d->pc, target, NX_END_TRANSFER))
			return WALK_STOPPED;
		d->pc = target;
		return WALK_OK;
	}
	return walk_final(d, m->icnt, m->btype ? FIN_TRAP : FIN_ADDR, target);
}

/* What RepeatBranch repeats: only the fields branch() reads. */
static inline void keep_branch(struct nx_decoder *d, const struct nx_msg *m)
{
	d->last_branch.tcode = m->tcode;
	d->last_branch.btype = m->btype;
	d->last_branch.icnt = m->icnt;
	d->last_branch.hist = m->hist;
	d->have_last_branch = true;
}

static bool sync_resets(unsigned int sync)
{
	return sync != NX_SYNC_EXTERNAL_TRIGGER && sync != NX_SYNC_ICNT_OVERFLOW &&
	       sync != 6;
}

int nx_dec_msg(struct nx_decoder *d, const struct nx_msg *m)
{
	uint64_t target;
	int r = WALK_OK;

	if (d->cfg.src_bits && m->src != d->cfg.src_id)
		return 0;
	d->msg_offset = m->offset;
	d->n_msgs++;
	if (m->has_tstamp)
		d->tstamp = nx_tcode_is_sync(m->tcode) ? m->tstamp
						       : d->tstamp + m->tstamp;
	if (d->ops.msg)
		d->ops.msg(d->ops.ctx, m, d->tstamp);
	if (!d->synced) {
		if (!nx_tcode_is_sync(m->tcode)) {
			if (m->tcode != NX_TCODE_OWNERSHIP)
				d->n_skipped++;
			return 0;
		}
		reset_state(d);
		d->synced = true;
		d->pc = d->ref_addr = d->blk_start = m->addr;
		d->blk_n = 0;
		event(d, NX_EV_SYNC, "synchronised");
		return 0;
	}
	switch (m->tcode) {
	case NX_TCODE_OWNERSHIP:
		d->priv = (m->data >> 2) & 3;
		d->v = (m->data >> 4) & 1;
		if ((m->data & 3) >= 2)
			d->context = m->data >> 5;
		event(d, NX_EV_OWNERSHIP, "ownership");
		return 0;
	case NX_TCODE_DIRECT_BRANCH:
		r = branch(d, m, 0);
		keep_branch(d, m);
		break;
	case NX_TCODE_INDIRECT_BRANCH:
	case NX_TCODE_INDIRECT_BRANCH_HIST:
		target = d->ref_addr ^ m->addr;
		d->ref_addr = target;
		r = branch(d, m, target);
		keep_branch(d, m);
		d->last_target = target;
		break;
	case NX_TCODE_PROG_TRACE_SYNC:
		d->ref_addr = m->addr;
		r = walk_final(d, m->icnt, FIN_STOP, 0);
		if (!r) {
			if (d->pc != m->addr &&
			    close_block(d, d->pc, m->addr, NX_END_NONE))
				return -1;
			d->pc = m->addr;
		}
		if (sync_resets(m->sync))
			reset_state(d);
		break;
	case NX_TCODE_DIRECT_BRANCH_SYNC:
	case NX_TCODE_INDIRECT_BRANCH_SYNC:
	case NX_TCODE_INDIRECT_BRANCH_HIST_SYNC:
		d->ref_addr = m->addr;
		r = branch(d, m, m->addr);
		if (sync_resets(m->sync))
			reset_state(d);
		break;
	case NX_TCODE_RESOURCE_FULL:
		if (m->rcode == NX_RCODE_ICNT) {
			if (d->owed >= m->data) {
				d->owed -= m->data;
			} else {
				d->credit += m->data - d->owed;
				d->owed = 0;
			}
		} else if (m->rcode == NX_RCODE_HIST) {
			r = hist_add(d, m->data, 1);
		} else if (m->rcode == NX_RCODE_HIST_REPEAT) {
			r = hist_add(d, m->data, m->rdata1);
		} else {
			r = damage(d, "ResourceFull with reserved RCODE %" PRIu64, m->rcode);
		}
		if (!r)
			r = walk_ahead(d);
		break;
	case NX_TCODE_REPEAT_BRANCH: {
		uint64_t i;

		if (!d->have_last_branch) {
			r = damage(d, "RepeatBranch without a branch message before it%.0" PRIu64, 0);
			break;
		}
		/* A branch message that walks nothing ends where it ended
		 * before: once is as good as B-CNT times. */
		if (!d->last_branch.icnt && d->last_branch.hist <= 1 &&
		    d->last_branch.tcode != NX_TCODE_DIRECT_BRANCH && m->data > 1) {
			r = branch(d, &d->last_branch, d->last_target);
			break;
		}
		for (i = 0; i < m->data && !r && !d->stop; i++) {
			if (d->last_branch.tcode != NX_TCODE_DIRECT_BRANCH)
				d->ref_addr = d->last_target;
			r = branch(d, &d->last_branch, d->last_target);
		}
		break;
	}
	case NX_TCODE_PROG_TRACE_CORRELATION:
		if (m->cdf == 1)
			r = hist_add(d, m->hist, 1);
		if (!r)
			r = walk_final(d, m->icnt, FIN_STOP, 0);
		if (!r) {
			close_block(d, d->pc, d->pc, NX_END_NONE);
			event(d, NX_EV_STOP, "trace stopped");
			unsync(d);
		}
		break;
	case NX_TCODE_ERROR:
		close_block(d, d->pc, d->pc, NX_END_NONE);
		event(d, NX_EV_ERROR_MSG, "Error message: trace lost");
		unsync(d);
		break;
	default:
		if (m->tcode >= NX_TCODE_VENDOR_FIRST && m->tcode <= NX_TCODE_VENDOR_LAST) {
			event(d, NX_EV_IGNORED, "vendor-defined message ignored");
			break;
		}
		r = damage(d, "reserved TCODE %" PRIu64, m->tcode);
		break;
	}
	if (r == WALK_STOPPED || d->stop)
		return -1;
	return 0;
}

/* ---- the fast way through the common messages */

/* The MDOs of the eight bytes of X (little-endian), 6 bits each, as one
 * 48-bit string: what the reader collects byte by byte, in a few steps. */
static inline uint64_t mdo_string(uint64_t x)
{
	x = (x >> 2) & 0x3F3F3F3F3F3F3F3Full;
	x = (x & 0x003F003F003F003Full) | (x & 0x3F003F003F003F00ull) >> 2;
	x = (x & 0x00000FFF00000FFFull) | (x & 0x0FFF00000FFF0000ull) >> 4;
	return (x & 0xFFFFFFull) | (x >> 8 & 0xFFFFFF000000ull);
}

#define BYTE_LSBS 0x0101010101010101ull

/*
 * A DirectBranch, IndirectBranch or IndirectBranchHist of at most eight
 * bytes at P (eight readable), for a synchronised decoder without SRC or
 * TSTAMP: taken whole from one 64-bit load and handled as nx_dec_msg()
 * would.  Returns the message's length, or 0 when it is anything else (or
 * anything is wrong with it): then the general reader takes it.  *R: what
 * nx_dec_msg() returns.
 */
static inline __attribute__((always_inline)) size_t
fast_msg(struct nx_decoder *d, const uint8_t *p, size_t offset, int *r)
{
	uint64_t x, ends, endmsg, w, icnt, f, target;
	unsigned int tcode, e1, e2, e3, len, width;
	int wr;

	memcpy(&x, p, 8);
	x = __builtin_bswap64(__builtin_bswap64(x));	/* host order: LE */
	tcode = (unsigned int)x & 0xFF;
	/* MSEO 00 and TCODE 3, 4 or 28. */
	if (tcode != NX_TCODE_INDIRECT_BRANCH_HIST << 2 &&
	    tcode != NX_TCODE_INDIRECT_BRANCH << 2 &&
	    tcode != NX_TCODE_DIRECT_BRANCH << 2)
		return 0;
	tcode >>= 2;
	endmsg = x & x >> 1 & BYTE_LSBS;
	if (!endmsg)
		return 0;
	len = ((unsigned int)__builtin_ctzll(endmsg) >> 3) + 1;
	ends = (x | x >> 1) & BYTE_LSBS;
	if (len < 8) {
		ends &= (1ull << (8 * len)) - 1;
		/* MSEO 10 (reserved) anywhere in it */
		if ((x >> 1 & ~x & BYTE_LSBS) & ((1ull << (8 * len)) - 1))
			return 0;
	} else if (x >> 1 & ~x & BYTE_LSBS) {
		return 0;
	}
	w = mdo_string(x);
	e1 = (unsigned int)__builtin_ctzll(ends) >> 3;
	d->msg_offset = offset;
	d->n_msgs++;
	if (tcode == NX_TCODE_DIRECT_BRANCH) {
		if (ends & (ends - 1))
			return 0;
		icnt = w >> 6 & ((1ull << (6 * e1)) - 1);
		wr = walk_final(d, icnt, FIN_DIRECT, 0);
		d->last_branch.tcode = tcode;
		d->last_branch.btype = 0;
		d->last_branch.icnt = icnt;
		d->last_branch.hist = 0;
		d->have_last_branch = true;
		*r = wr == WALK_STOPPED || d->stop ? -1 : 0;
		return len;
	}
	ends &= ends - 1;
	if (!ends)
		return 0;
	e2 = (unsigned int)__builtin_ctzll(ends) >> 3;
	ends &= ends - 1;
	if (tcode == NX_TCODE_INDIRECT_BRANCH ? ends != 0 : !ends || (ends & (ends - 1)))
		return 0;
	/* I-CNT after TCODE and B-TYPE; the address; HIST. */
	icnt = w >> 8 & ((1ull << (6 * e1 - 2)) - 1);
	f = w >> (6 * (e1 + 1)) & ((1ull << (6 * (e2 - e1))) - 1);
	width = d->cfg.xlen - 1;
	if (d->cfg.ext_addr_msb && (p[e2] >> 7) && 6 * (e2 - e1) < width)
		f |= ~0ull << (6 * (e2 - e1));
	if (width < 64)
		f &= (1ull << width) - 1;
	target = d->ref_addr ^ (f << 1);
	d->ref_addr = target;
	d->last_branch.tcode = tcode;
	d->last_branch.btype = (unsigned int)(w >> 6) & 3;
	d->last_branch.icnt = icnt;
	d->last_branch.hist = 0;
	if (tcode == NX_TCODE_INDIRECT_BRANCH_HIST) {
		uint64_t hist;

		e3 = (unsigned int)__builtin_ctzll(ends) >> 3;
		hist = w >> (6 * (e2 + 1)) & ((1ull << (6 * (e3 - e2))) - 1);
		d->last_branch.hist = hist;
		wr = hist_add(d, hist, 1);
		if (wr)
			goto out;
	}
	wr = walk_final(d, icnt, d->last_branch.btype ? FIN_TRAP : FIN_ADDR, target);
out:
	d->have_last_branch = true;
	d->last_target = target;
	*r = wr == WALK_STOPPED || d->stop ? -1 : 0;
	return len;
}

long nx_dec_run(struct nx_decoder *d, const uint8_t *data, size_t len,
		size_t base)
{
	struct nx_reader rd;
	struct nx_msg m;
	uint64_t before = d->n_damage;
	/* The common messages the quick way (fast_msg()) when nothing needs
	 * them as struct nx_msg. */
	bool fast = !d->ops.msg && !d->cfg.src_bits && !d->cfg.tstamp &&
		    len >= 8;
	/* The last message was a ProgTraceCorrelation.  It unsyncs the
	 * decoder, so the next message, if any, comes through nx_read (not
	 * fast_msg): this is kept up to date without the quick way. */
	bool stopped = false;

	nx_reader_init(&rd, &d->cfg, data, len, base);
	for (;;) {
		enum nx_read_status s;

		if (fast && d->synced && len - rd.pos >= 8) {
			int r;
			size_t n = fast_msg(d, data + rd.pos, base + rd.pos, &r);

			if (n) {
				rd.pos += n;
				if (r)
					return -1;
				continue;
			}
		}
		s = nx_read(&rd, &m);

		d->ended = s == NX_READ_END && stopped;
		if (s == NX_READ_END)
			break;
		stopped = s == NX_READ_MSG &&
			  m.tcode == NX_TCODE_PROG_TRACE_CORRELATION;
		if (s == NX_READ_BAD) {
			d->msg_offset = m.offset;
			snprintf(d->err, sizeof(d->err), "bad message: %s", rd.err);
			if (d->synced)
				close_block(d, d->pc, d->pc, NX_END_NONE);
			d->n_damage++;
			/* A cut trace (a full buffer, a copy that stopped)
			 * is not damage inside: said as what it is. */
			event(d, rd.cut ? NX_EV_TRUNCATED : NX_EV_DAMAGE, d->err);
			unsync(d);
			continue;
		}
		if (nx_dec_msg(d, &m))
			return -1;
	}
	return (long)(d->n_damage - before);
}
