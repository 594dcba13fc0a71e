// SPDX-License-Identifier: BSD-2-Clause
/*
 * plugin.c - a QEMU TCG plugin that runs the qemu-model core (CTR and the
 * counters) on the instruction stream of a stock QEMU, and writes a sample
 * with the CTR records each time the sampled counter overflows.
 *
 *   qemu-riscv64 -plugin librvperf-ctr.so,out=FILE[,filter=any,,u]
 *       [,ctl=0xVALUE][,depth=N][,layout=ratified|draft]
 *       [,event=instructions][,period=N][,misp=on][,batch=off]
 *       [,gate=off][,stats=on][,stubs=off]
 *       [,itrace=FILE | ,blocks=FILE][,nexus=FILE[,nx-OPTION=VALUE]...]
 *       [,noop=on] PROG ARGS
 *
 * itrace=FILE also writes every executed instruction (itrace_write.c), the
 * ground truth of N-Trace; blocks=FILE only the blocks' descriptions (the
 * code rvperf nexus record keeps).  nexus=FILE writes the N-Trace itself
 * (nexus_rec.c).  With event=none only these run.
 *
 * How transfers are seen.  RISC-V QEMU ends every translation block (TB) at
 * a control transfer, so each TB is classified once, when it is translated,
 * by its last instruction (the shared classifier).  One callback runs at
 * the start of every executed TB; it retires the previous TB's
 * instructions into the counter model and resolves the previous TB's
 * transfer: the current TB's address is where that transfer went.  A
 * conditional branch is taken when it went to its target, not taken when
 * it went to the next instruction; a direct jump must have gone to its
 * target; anything else means something intervened (a signal, a fault) and
 * the transfer is dropped and counted, never guessed.  Indirect transfers
 * take whatever address came next.  A sample lies at the instruction after
 * the one that overflowed the sampled counter, inside its block when
 * that is not the last (overflow_in(): the block's instruction offsets,
 * kept from translation, read only then).
 *
 * Batches.  In user mode the model does not run at every block.  In the
 * common case the callback only counts the block and queues it
 * (tb_exec_lean()), where each block went is checked when its record is
 * made, and only the blocks shortly before a sample are queued at all
 * (the gate; on plugin API 3+ the others call back not at all);
 * otherwise the callback queues the block and the model runs over the
 * queue in order when it fills (drain_defer(), drain_fast()).  Either way
 * the model catches up before every system call and at exit, and the CTR
 * records that would be overwritten before anything reads CTR are never
 * made (pend_range(), give_pending()).  The trace is the same byte for
 * byte as with batch=off, which runs the model at every block
 * (tests/plugin/record-test.sh compares them), but for the gate's short
 * samples.
 *
 * Modes.  In user mode (qemu-riscv64) everything runs in U-mode, exactly:
 * an ecall is a trap to S-mode and its return a trap return, which the
 * core treats as the privilege table says (an external trap, not recorded
 * unless STE).  In system mode QEMU 7.2 cannot tell the plugin the
 * privilege mode, so it is inferred from the address (the upper half of
 * the address space is S-mode, as Linux lays it out); QEMU 9.0 and later
 * export the "priv" register through the register API, and the plugin
 * reads it there instead.  Traps other than ecall are invisible to a
 * plugin on every version: they show up as a dropped transfer and a mode
 * change without a record.
 *
 * Processes.  In user mode the plugin follows the guest's mmap, clone and
 * execve through the syscall callbacks (syscall_entry(), syscall_return()):
 * an executable file mapping becomes an RVP_TRACE_MMAP record named by the
 * host path of the guest's fd (qemu-user passes host fds through, so
 * /proc/self/fd/N names the file without reading guest memory); a fork
 * (a new QEMU process) writes its own trace at OUT.PID and the parent an
 * RVP_TRACE_FORK record; an execve notes where the trace would end.
 *
 * Idle.  Without a sampling event and with no mode enabled for recording
 * the plugin registers no execution callback at all.
 */
#define _GNU_SOURCE	/* fallocate() */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "qemu_plugin_api.h"
#include "filter.h"
#include "itrace_write.h"
#include "nexus_rec.h"
#include "lean_stub.h"
#include "qemu-model/core/insnhw.h"
#include "qemu-model/core/harthw.h"
#include "rvp_trace.h"
#include "userspace/perfdata/ctr_branch.h"
#include "userspace/perfdata/perf_records.h"
#include "rvperf/csr.h"
#include "rvperf/ctr.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = 1;

enum tb_end {
	END_NONE,		/* falls through (size limit, page end, ...) */
	END_BRANCH,		/* conditional branch */
	END_DIRECT,		/* jal, c.j: target known */
	END_INDIRECT,		/* jalr, c.jr, cm.jt...: target seen next */
	END_ECALL,		/* a trap to the next mode up */
	END_XRET,		/* sret/mret (system mode) */
};

/* A lean count (struct lean_hot) holds instructions above this bit and
 * transfers below: small enough that a block's step is an x86-64
 * instruction's 32-bit immediate (lean_stub.c), large enough for the
 * transfers of a stretch, which has at most GATE_MAX_RUN instructions, or
 * of a full ring. */
#define LEAN_SHIFT 16
#define LEAN_LOW ((1ull << LEAN_SHIFT) - 1)
/* QEMU's most instructions in a block (TCG_MAX_INSNS). */
#define MAX_BLOCK_INSNS 512

/* What the loop over the queue reads of every block comes first, and the
 * whole fits one cache line (tb_trans() allocates them 64-byte aligned):
 * tb_exec_lean() reads lean_step at every block, one line a block. */
struct tb_desc {
	uint64_t start;
	/* drain_defer()'s check: the block went on to ok_a or ok_b, or
	 * anywhere when any_dst; 1 (no block starts there) for neither.
	 * ok_a is the target of a branch or a direct jump. */
	uint64_t ok_a, ok_b;
	uint16_t n_insns;	/* at most 512 */
	uint8_t last_len;	/* the last instruction's length */
	uint8_t end;
	uint8_t type;		/* ctrdata TYPE (taken, for END_BRANCH) */
	uint8_t any_dst;	/* END_NONE, END_INDIRECT */
	uint8_t transfer;	/* END_BRANCH, END_DIRECT, END_INDIRECT */
	/* type, but for END_BRANCH the not-taken TYPE, to which
	 * record_type() adds 1 for a branch taken. */
	uint8_t nt_type;
	/* n_insns + (transfer << 32): the check path and drain_defer() sum
	 * both in one add
	 * (a batch holds far fewer than 2^32 instructions). */
	uint64_t step;
	uint64_t last_pc;
	/* Where each instruction lies, in bytes from start: read only when
	 * a sample falls inside the block (overflow_in()), so it is kept
	 * apart, and the lines the callbacks read stay as dense. */
	const uint16_t *insn_off;
	/* The same two, the other way round, for tb_exec_lean()'s one
	 * subtraction: n_insns << LEAN_SHIFT | transfer. */
	uint64_t lean_step;
};

_Static_assert(sizeof(struct tb_desc) == 64, "struct tb_desc is one cache line");

/* Where the block goes when it does not transfer. */
static inline uint64_t fallthrough(const struct tb_desc *d)
{
	return d->last_pc + d->last_len;
}

/* The ctrdata TYPE of block P's transfer to DST, DST one P can reach.  No
 * branch on the block's kind or on what the guest's branch did: the host
 * would mispredict as often. */
static inline unsigned int record_type(const struct tb_desc *p, uint64_t dst)
{
	return p->nt_type + ((dst == p->ok_a) & (p->end == END_BRANCH));
}

/* Blocks a vCPU ran that the model has not seen yet (user mode). */
#define RING 4096

struct vcpu {
	/* The previous block (a description that no block precedes before
	 * the first), and where the next block goes in ring[]: those before
	 * are waiting. */
	const struct tb_desc *prev;
	const struct tb_desc **qpos;
	/* The check path (tb_exec_lean()'s slow paths): the steps of the
	 * blocks passed since the last write-back to unflushed and
	 * transfers, as in drain_defer(), and how many instructions make
	 * the sampled counter due (at most 2^32 - 1); the block before
	 * ring[0]. */
	uint64_t acc;
	uint32_t left;
	const struct tb_desc *seg_prev;
	uint64_t tid;
	/* Instructions (= cycles) given to the counter model, those not yet
	 * given, and how many more it takes to overflow the sampled counter:
	 * nothing reads the counters in between, so they are fed in one go
	 * when that many have run (or before a mode change).  The per-block
	 * work is one addition. */
	uint64_t flushed, unflushed, budget;
	/* Instructions retired when CTR's cycle counter was last fed: it is
	 * only seen in the records, so cycles go in just before a transfer
	 * is recorded or anything changes CTR's state.  Adding them in one
	 * go or a block at a time gives the same saturating count. */
	uint64_t ctr_mark;
	uint64_t transfers, dropped, samples;
	/* retired() when this process began (a forked child's vCPU goes on
	 * from its parent's count): the totals are this process's. */
	uint64_t born;
	/* User mode: the blocks the model has not seen yet, queued by the
	 * execution callback; the model runs over the queue, in order, when
	 * it fills, before every system call and at exit (drain()).  Nothing
	 * the model does depends on when it runs, only on the order of the
	 * blocks, so the trace is the same byte for byte as running it block
	 * by block.  tb_exec_lean() keeps here the blocks seen since the
	 * last flush, whose records are not made yet. */
	const struct tb_desc *ring[RING];
	/* Records CTR will hold, not yet given to it (drain_defer()): the
	 * newest are pend[(n - 1) & mask], [(n - 2) & mask], ...; the ring
	 * keeps twice the depth, more than the depth + 1 that matter. */
	uint64_t pend_n;
	unsigned int pend_mask;
	/* stamp: retired(v) then */
	struct hw_xfer_timed pend[2 * CTRHW_MAX_DEPTH];
	/* The gate (lean_gap()): a stretch of blocks since the last
	 * gap whose records have not yet covered depth + 1 (gapped, and
	 * how many they cover), and the stretch before a sample due. */
	bool gapped;
	uint64_t known;
	uint64_t gate_w;
	uint64_t span;		/* give_pending(): for the gate */
	uint64_t gate_base;	/* the scoreboard's count, armed */
	struct vcpu *gone;	/* the next in plugin.gone */
	struct lean_hot *hot;	/* its thread's tb_exec_lean() state */
	struct harthw hart;
	struct rvp_trace_entry entries[CTRHW_MAX_DEPTH];
} __attribute__((aligned(64)));

/*
 * The gate's per-vCPU scoreboard (plugin API level 3+): every block adds
 * its instructions and whether it ends in a transfer to count, inline, as
 * n_insns << GATE_SHIFT | transfer (gate_packed()), and calls back only if
 * count is below GATE_FIRE.  count is armed to wrap past 0 after so many
 * instructions (lean_unseen()); 0 (GATE_ON, and a new vCPU's) makes every
 * block call back for GATE_FIRE >> GATE_SHIFT instructions, and every
 * slow path of the callback, at most RING instructions apart, sets it
 * back to 0 while blocks are to be seen (lean_load()).
 *
 * Both constants fit in a sign-extended 32-bit immediate (a block has at
 * most 512 instructions), which is what the host's add and compare take:
 * no 64-bit constant to load at every block.  The transfers in the low
 * GATE_SHIFT bits cannot carry into the instructions: a run, armed or on,
 * has fewer than 2^GATE_SHIFT blocks.
 */
struct gate {
	uint64_t count;
};
#define GATE_SHIFT 16
#define GATE_FIRE 0x7fffffffull
#define GATE_ON 0ull
#define GATE_MAX_RUN (1ull << 15)	/* instructions an armed run lets pass */
#define GATE_DECAY 64

/* What precedes a vCPU's first block: no instructions, no transfer. */
static const struct tb_desc no_block;

#define MAX_VCPUS 1024

/* The trace's buffer (out_write()): written in pieces this large, and at
 * most this much lost where QEMU dies without calling at_exit() (a signal
 * such as ^C's killing the program). */
#define TRACE_BUFFER (64 << 10)

static inline uint64_t retired(const struct vcpu *v)
{
	return v->flushed + v->unflushed;
}

static struct {
	int api_level;
	bool system;
	bool active;		/* anything to do at execution time */
	enum ctrhw_layout layout;
	uint64_t ctl;
	unsigned int depth;
	enum hpmhw_event event;
	uint64_t period;
	bool misp;		/* run the predictor model: ctrtarget.MISP */
	bool fast_transfer;	/* transfers go straight to CTR (below) */
	bool defer;		/* and may wait (drain_defer()) */
	bool check;		/* and blocks are checked: tb_exec_lean() */
	bool lean_gate;		/* and the gate: only blocks near samples seen */
	bool batch;		/* user mode: queue blocks (batch=off: not) */
	bool noop;		/* noop=on: a callback per block, doing nothing */
	bool gate;		/* level 3+: the gate's scoreboard, no callback else */
	bool gate_off;		/* gate=off */
	bool stats;		/* stats=on: the gate's counts at exit */
	bool stubs_off;		/* stubs=off: tb_exec_lean() compiled */
	bool stubs;		/* its generated form (lean_stub.c) */
	struct qemu_plugin_scoreboard *gate_sb;
	uint64_t gaps, unsure;	/* gate statistics (unsure: short samples) */
	uint32_t ev_types;	/* transfer types the sampled event counts */
	int out_fd;		/* the trace (out_write()) */
	size_t out_used;
	bool out_failed;
	unsigned char *out_buf;
	struct rvp_trace_header header;
	pthread_mutex_t lock;
	struct vcpu *vcpus[MAX_VCPUS];
	/* vCPUs whose thread exited and whose index another thread took
	 * (first_block()): kept for the totals. */
	struct vcpu *gone;
	qemu_plugin_insn_data_v1_t insn_data_v1;
	qemu_plugin_insn_data_v3_t insn_data_v3;
	struct qemu_plugin_register *priv_reg;	/* level 2+ system mode */
	const char *itrace;		/* itrace=FILE (or blocks=FILE) */
	bool itrace_blocks_only;	/* blocks=FILE: no executions */
	const char *out_path;		/* out=FILE: a forked child's is .PID */
	/* perf=FILE: samples, mappings and forks go to FILE as perf.data
	 * records (perf_reserve(), perf_flush()), from perf_at= on, as
	 * rvperf record's attribute lays them out (perf_bst=, its
	 * branch_sample_type); comm= names the program's threads.  A
	 * forked child's go to FILE.PID, from 0. */
	const char *perf_path;
	uint64_t perf_at, perf_bst;
	const char *comm;
	int perf_fd;
	uint64_t perf_pos;	/* FILE's offset of perf_buf[0] */
	uint64_t perf_allocated;	/* FILE's blocks reserved up to here */
	bool perf_no_allocate;	/* FILE's filesystem reserves none */
	size_t perf_used;
	bool perf_failed;
	unsigned char *perf_buf;
	uint64_t branch_flags[2][16];	/* ctr_branch_flag_table() */
	/* The cloning thread's time at its last clone: a new thread's time
	 * goes on from there, so each thread's records come after the
	 * FORK record that creates it (perf orders events by time). */
	uint64_t thread_time;
} plugin = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
};

/*
 * QEMU reads qemu_plugin_version after dlopen() and refuses a level below
 * its minimum (2 since QEMU 9.0) or above its current one (1 before 9.0).
 * A level-2-only symbol tells them apart before QEMU looks.
 */
__attribute__((constructor)) static void choose_api_level(void)
{
	if (qemu_plugin_register_vcpu_tb_exec_inline_per_vcpu)
		qemu_plugin_version = 2;
}

/* One line on stderr: qemu_plugin_outs() goes to QEMU's log, which
 * system mode does not show unless asked (-d plugin). */
static void fail(const char *fmt, const char *arg)
{
	fprintf(stderr, "rvperf plugin: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
}

/* ---- translation */

static uint32_t insn_word(const struct qemu_plugin_insn *insn)
{
	uint8_t b[4] = { 0 };
	size_t n = qemu_plugin_insn_size(insn);

	if (n > 4)
		n = 4;
	if (plugin.insn_data_v3) {
		plugin.insn_data_v3(insn, b, n);
	} else {
		const uint8_t *p = plugin.insn_data_v1(insn);

		memcpy(b, p, n);
	}
	return b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24;
}

static void describe(struct tb_desc *d, uint32_t word, uint64_t pc)
{
	struct insnhw_class c;
	uint64_t target = 0;

	insnhw_classify(word, 64, INSNHW_ZCMP | INSNHW_ZCMT, true, &c);
	d->last_pc = pc;
	d->last_len = (uint8_t)c.length;
	d->type = c.type;
	if (c.type == RVP_CTRDATA_TYPE_NONE) {
		d->end = END_NONE;
	} else if (c.type == RVP_CTRDATA_TYPE_EXCEPTION) {
		d->end = END_ECALL;
	} else if (c.type == RVP_CTRDATA_TYPE_TRAP_RETURN) {
		d->end = END_XRET;
	} else if (c.conditional) {
		d->end = END_BRANCH;
		target = pc + c.offset;
	} else if (c.direct && !c.table_jump) {
		d->end = END_DIRECT;
		target = pc + c.offset;
	} else {
		d->end = END_INDIRECT;
	}
	d->ok_a = d->ok_b = 1;
	if (d->end == END_BRANCH) {
		d->ok_a = target;
		d->ok_b = fallthrough(d);
	} else if (d->end == END_DIRECT) {
		d->ok_a = d->ok_b = target;
	}
	d->any_dst = d->end == END_NONE || d->end == END_INDIRECT;
	d->nt_type = d->end == END_BRANCH ? RVP_CTRDATA_TYPE_NOT_TAKEN_BRANCH :
					    d->type;
	d->transfer = d->end == END_BRANCH || d->end == END_DIRECT ||
		      d->end == END_INDIRECT;
	d->step = d->n_insns + ((uint64_t)d->transfer << 32);
	d->lean_step = ((uint64_t)d->n_insns << LEAN_SHIFT) | d->transfer;
}

static void tb_exec_user(unsigned int vcpu_index, void *udata);
static void tb_exec_user_ecall(unsigned int vcpu_index, void *udata);
static void tb_exec_lean(unsigned int vcpu_index, void *udata);
static void tb_exec_lean_gated(unsigned int vcpu_index, void *udata);
static void tb_exec_lean_ecall(unsigned int vcpu_index, void *udata);
static void tb_exec_system(unsigned int vcpu_index, void *udata);

/* A block's share of the gate's count (struct gate). */
static inline uint64_t gate_packed(const struct tb_desc *d)
{
	return (uint64_t)d->n_insns << GATE_SHIFT | d->transfer;
}
static enum hw_mode mode_at(uint64_t pc);

/* itrace=FILE: each block described once, each execution noted. */
struct itrace_tb {
	uint32_t id;
	uint64_t start;
};

static void itrace_exec(unsigned int vcpu_index, void *udata)
{
	const struct itrace_tb *t = udata;

	rvp_itrace_exec(vcpu_index, t->id, hw_mode_priv(mode_at(t->start)));
}

static void nexus_exec_system(unsigned int vcpu_index, void *udata)
{
	rvp_nexus_exec(vcpu_index, udata,
		       hw_mode_priv(mode_at(rvp_nexus_block_start(udata))));
}

/* itrace=, blocks=, nexus=: the block's instructions, once. */
static void itrace_tb(struct qemu_plugin_tb *tb, size_t n)
{
	struct itrace_tb *t = malloc(sizeof(*t));
	uint32_t *words = malloc(n * sizeof(*words));
	enum qemu_plugin_cb_flags regs = plugin.priv_reg ? QEMU_PLUGIN_CB_R_REGS
							 : QEMU_PLUGIN_CB_NO_REGS;
	uint64_t start = qemu_plugin_tb_vaddr(tb);
	void *nx;
	size_t i;

	if (t && words) {
		for (i = 0; i < n; i++)
			words[i] = insn_word(qemu_plugin_tb_get_insn(tb, i));
		t->start = start;
		if (plugin.itrace)
			t->id = rvp_itrace_block(t->start, n, words);
		if (plugin.itrace && !plugin.itrace_blocks_only)
			qemu_plugin_register_vcpu_tb_exec_cb(tb, itrace_exec, regs, t);
		else
			free(t);
		if (rvp_nexus_wanted() && (nx = rvp_nexus_block(start, n, words)))
			qemu_plugin_register_vcpu_tb_exec_cb(tb, plugin.system ?
				nexus_exec_system : rvp_nexus_exec_user(), regs, nx);
	} else {
		free(t);
	}
	free(words);
}

/* noop=on: what QEMU's call of a per-block callback costs by itself, the
 * least any recording that sees every block pays (make bench). */
static void tb_exec_noop(unsigned int vcpu_index, void *udata)
{
	(void)vcpu_index;
	(void)udata;
}

/* The lean path's callback of block D: tb_exec_lean() as made for D's step
 * (lean_stub.c), where it was. */
static qemu_plugin_vcpu_udata_cb_t lean_callback(const struct tb_desc *d)
{
	lean_stub_cb cb;

	if (d->end == END_ECALL)
		return tb_exec_lean_ecall;
	cb = lean_stub(d->lean_step);
	return cb ? cb : tb_exec_lean;
}

/* The gate's conditional callback of block D: tb_exec_lean_gated() as
 * made for D's step, where it was (the generated callback's part for a
 * seen block: the gate leaves fast 0). */
static qemu_plugin_vcpu_udata_cb_t gated_callback(const struct tb_desc *d)
{
	lean_stub_cb cb = lean_stub_seen(d->lean_step);

	return cb ? cb : tb_exec_lean_gated;
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);
	struct qemu_plugin_insn *last;
	struct tb_desc *d;
	uint16_t *off;
	size_t i;

	(void)id;
	if (!n)
		return;
	if (plugin.itrace || rvp_nexus_wanted())
		itrace_tb(tb, n);
	if (plugin.noop) {
		qemu_plugin_register_vcpu_tb_exec_cb(tb, tb_exec_noop,
						     QEMU_PLUGIN_CB_NO_REGS, NULL);
		return;
	}
	if (!plugin.active)
		return;
	d = aligned_alloc(64, sizeof(*d));
	off = malloc(n * sizeof(*off));
	if (!d || !off) {
		free(d);
		free(off);
		return;
	}
	memset(d, 0, sizeof(*d));
	last = qemu_plugin_tb_get_insn(tb, n - 1);
	d->start = qemu_plugin_tb_vaddr(tb);
	d->n_insns = (uint16_t)n;
	for (i = 0; i < n; i++)
		off[i] = (uint16_t)(qemu_plugin_insn_vaddr(
				qemu_plugin_tb_get_insn(tb, i)) - d->start);
	d->insn_off = off;
	describe(d, insn_word(last), qemu_plugin_insn_vaddr(last));
	if (plugin.gate) {
		qemu_plugin_u64 count = { plugin.gate_sb, offsetof(struct gate, count) };

		/* In this order: QEMU runs them as registered. */
		qemu_plugin_register_vcpu_tb_exec_inline_per_vcpu(tb,
			QEMU_PLUGIN_INLINE_ADD_U64, count, gate_packed(d));
		if (d->end == END_ECALL)
			qemu_plugin_register_vcpu_tb_exec_cb(tb, tb_exec_lean_ecall,
				QEMU_PLUGIN_CB_NO_REGS, d);
		else
			qemu_plugin_register_vcpu_tb_exec_cond_cb(tb, gated_callback(d),
				QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_COND_LT, count,
				GATE_FIRE, d);
		return;
	}
	qemu_plugin_register_vcpu_tb_exec_cb(tb, plugin.system ? tb_exec_system :
						 plugin.check ? lean_callback(d) :
						 d->end == END_ECALL || !plugin.batch ?
						 tb_exec_user_ecall : tb_exec_user,
					     plugin.priv_reg ? QEMU_PLUGIN_CB_R_REGS
							     : QEMU_PLUGIN_CB_NO_REGS,
					     d);
}

/* ---- execution */

static enum hw_mode mode_at(uint64_t pc)
{
	if (!plugin.system)
		return HW_MODE_U;
	if (plugin.priv_reg && qemu_plugin_read_register) {
		static __thread struct rvp_gbytearray *buf;

		if (!buf)
			buf = g_byte_array_new();
		if (buf) {
			g_byte_array_set_size(buf, 0);
			if (qemu_plugin_read_register(plugin.priv_reg, buf) > 0)
				return buf->data[0] == 3 ? HW_MODE_M :
				       buf->data[0] == 1 ? HW_MODE_S : HW_MODE_U;
		}
	}
	return (int64_t)pc < 0 ? HW_MODE_S : HW_MODE_U;
}

/*
 * The trace goes out through a buffer of its own, not stdio: fwrite()
 * costs about 100 ns a call in its lock and bookkeeping, 3 ms of bzip2's
 * 130 at the default period in the two calls of each sample.  Callers hold
 * plugin.lock (except at set-up).  A write that fails drops the rest of the
 * trace, which rvperf record then reports as cut.
 */
/* BUF[0..N) to FD, at OFF (UINT64_MAX: where the file stands, which a
 * pipe allows); a failure is said once, naming WHAT, and *FAILED then
 * drops what follows (the reader finds the file cut). */
static void write_whole(int fd, const unsigned char *buf, size_t n,
			uint64_t off, bool *failed, const char *what)
{
	size_t done = 0;
	ssize_t k;

	while (done < n && !*failed) {
		k = off == UINT64_MAX ? write(fd, buf + done, n - done) :
		    pwrite(fd, buf + done, n - done, (off_t)(off + done));
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			fprintf(stderr, "rvperf plugin: cannot write %s: %s\n",
				what, k ? strerror(errno) : "no space");
			*failed = true;
		} else {
			done += (size_t)k;
		}
	}
}

static void out_flush(void)
{
	write_whole(plugin.out_fd, plugin.out_buf, plugin.out_used, UINT64_MAX,
		    &plugin.out_failed, "the trace");
	plugin.out_used = 0;
}

static void out_write(const void *data, size_t size)
{
	const unsigned char *p = data;

	while (size) {
		size_t room = TRACE_BUFFER - plugin.out_used;

		if (!room) {
			out_flush();
			continue;
		}
		if (room > size)
			room = size;
		memcpy(plugin.out_buf + plugin.out_used, p, room);
		plugin.out_used += room;
		p += room;
		size -= room;
	}
}

/* Opens PATH for the trace.  An existing file is emptied only if it holds
 * something: truncating one (O_TRUNC), even an empty one such as the
 * mkstemp() file of rvperf record, makes ext4 write it back at close
 * (auto_da_alloc), which deleting it a moment later then waits for. */
static int out_open(const char *path)
{
	struct stat st;
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0666);

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || (st.st_size && ftruncate(fd, 0))) {
		close(fd);
		return -1;
	}
	plugin.out_fd = fd;
	plugin.out_used = 0;
	plugin.out_failed = false;
	return 0;
}

/*
 * perf=FILE: perf.data's records, written by the plugin itself so that
 * rvperf record only writes the file's header, its first records and its
 * feature sections around them (no second pass over megabytes of
 * samples).  The records go out through a buffer of their own with
 * pwrite() at offsets the plugin keeps (rvperf record patches the build
 * ids of MMAP2 records at the offsets the trace gives); a record is never
 * split between two writes.  Callers hold plugin.lock (but at set-up).
 */
/*
 * FILE's blocks are reserved ahead of the records (fallocate(), the size
 * unchanged), PERF_AHEAD at a time: ext4 otherwise allocates each page's
 * block as it is written (delayed allocation), about a third of the
 * kernel's time for the records (bzip2's 7.3 MB: 1.4 ms of system time,
 * 0.9 ms with the blocks reserved).  What lies past the records at exit
 * is freed (perf_close()); a filesystem without fallocate() just writes.
 */
#define PERF_AHEAD (4 << 20)

static void perf_flush(void)
{
	uint64_t end = plugin.perf_pos + plugin.perf_used;

	if (end > plugin.perf_allocated && !plugin.perf_no_allocate) {
		if (fallocate(plugin.perf_fd, FALLOC_FL_KEEP_SIZE,
			      (off_t)plugin.perf_pos,
			      (off_t)(end + PERF_AHEAD - plugin.perf_pos)))
			plugin.perf_no_allocate = true;
		else
			plugin.perf_allocated = end + PERF_AHEAD;
	}
	write_whole(plugin.perf_fd, plugin.perf_buf, plugin.perf_used,
		    plugin.perf_pos, &plugin.perf_failed, "the perf data");
	plugin.perf_pos += plugin.perf_used;
	plugin.perf_used = 0;
}

/* Room for a record of SIZE bytes (a multiple of 8, at most
 * TRACE_BUFFER), which perf_records.h's encoders fill. */
static unsigned char *perf_reserve(size_t size)
{
	unsigned char *p;

	if (plugin.perf_used + size > TRACE_BUFFER)
		perf_flush();
	p = plugin.perf_buf + plugin.perf_used;
	plugin.perf_used += size;
	return p;
}

static int perf_open(const char *path, uint64_t at)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0666);

	if (fd < 0)
		return -1;
	plugin.perf_fd = fd;
	plugin.perf_pos = at;
	plugin.perf_used = 0;
	plugin.perf_failed = false;
	plugin.perf_allocated = 0;
	plugin.perf_no_allocate = false;
	return 0;
}

/* The last records out, and the blocks reserved past them freed (ext4
 * frees them on a truncation to the same size). */
static void perf_close(void)
{
	perf_flush();
	if (plugin.perf_allocated > plugin.perf_pos && !plugin.perf_failed &&
	    ftruncate(plugin.perf_fd, (off_t)plugin.perf_pos))
		plugin.perf_allocated = 0;	/* not a file: nothing held */
}

static inline bool perf_mode(void)
{
	return plugin.perf_path != NULL;
}

/* A sample as rvperf record's attribute lays it out: IP, TID, TIME,
 * PERIOD, then the branch stack (hw_idx 0: CTR's logical entry 0 is the
 * newest, as perf's stack is, and nothing was skipped). */
static void perf_sample(const struct vcpu *v, const struct rvp_trace_record *r,
			unsigned int nr)
{
	int hw_idx = !!(plugin.perf_bst & PERF_SAMPLE_BRANCH_HW_INDEX);
	unsigned char *p = perf_reserve(pd_sample_size(1, nr, hw_idx));
	struct pd_branch *b;
	unsigned int i;

	b = pd_encode_sample(p, r->ip, (uint32_t)plugin.header.pid,
			     (uint32_t)v->tid, r->time, r->period, 1, nr, hw_idx, 0);
	for (i = 0; i < nr; i++)
		ctr_branch_entry((const uint64_t (*)[16])plugin.branch_flags,
				 v->entries[i].source, v->entries[i].target,
				 v->entries[i].data, &b[i]);
}

static void perf_comm(uint64_t pid, uint64_t tid, uint64_t time)
{
	size_t len = strlen(plugin.comm);

	pd_encode_comm(perf_reserve(pd_comm_size(len)), (uint32_t)pid,
		       (uint32_t)tid, plugin.comm, len, time);
}

static void write_sample(struct vcpu *v, uint64_t ip)
{
	struct rvp_trace_record r = {
		.kind = RVP_TRACE_SAMPLE, .tid = v->tid, .ip = ip,
		.period = plugin.period, .time = retired(v),
		.mode = harthw_mode(&v->hart),
	};
	unsigned int i, depth = ctrhw_depth(&v->hart.ctr);

	for (i = 0; i < depth; i++) {
		struct ctrhw_entry e;

		ctrhw_entry_get(&v->hart.ctr, i, &e);
		if (!(e.source & RVP_CTRSOURCE_V))
			break;	/* the first invalid entry ends the stack */
		v->entries[i].source = e.source;
		v->entries[i].target = e.target;
		v->entries[i].data = e.data;
	}
	pthread_mutex_lock(&plugin.lock);
	if (v->gapped) {
		/* Fewer than depth + 1 records since the gate last let
		 * blocks pass unseen: the older entries CTR holds predate
		 * the unseen blocks, whose records are unknown.  The sample
		 * keeps the records known to be the newest (a short stack,
		 * as after a freeze), the oldest of them without a cycle
		 * count (it counts from an unknown record: CCV clear), and
		 * the stretch doubles. */
		if (i >= v->known) {
			i = (unsigned int)v->known;
			if (i)
				v->entries[i - 1].data &=
					~(RVP_CTRDATA_CCV | RVP_CTRDATA_CC);
		}
		plugin.unsure++;
		v->gate_w = v->gate_w * 2 < GATE_MAX_RUN ? v->gate_w * 2 :
			    GATE_MAX_RUN;
	} else if (v->span) {
		/* The gate's stretch: twice the span the last depth + 1
		 * records took, going down by 1/64 a sample when the
		 * records lie closer, so that it follows the program's
		 * phases instead of keeping the longest span ever seen. */
		uint64_t w = v->gate_w - v->gate_w / GATE_DECAY;

		if (w < 2 * v->span)
			w = 2 * v->span;
		v->gate_w = w < GATE_MAX_RUN ? w : GATE_MAX_RUN;
	}
	r.nr = i;
	v->span = 0;
	if (perf_mode()) {
		perf_sample(v, &r, i);
	} else {
		out_write(&r, sizeof(r));
		out_write(v->entries, sizeof(v->entries[0]) * i);
	}
	pthread_mutex_unlock(&plugin.lock);
	v->samples++;
}

/* Instructions until mhpmcounter3 overflows, when it counts them. */
static uint64_t next_budget(const struct vcpu *v)
{
	if (plugin.event != HPMHW_EVENT_INSTRUCTIONS &&
	    plugin.event != HPMHW_EVENT_CYCLES)
		return UINT64_MAX;
	return -v->hart.pmu.counter[3];
}

/*
 * Gives CTR the records drain_defer() kept back.  Between two looks at
 * CTR (a sample, a trap, anything but a plain transfer) only the last
 * DEPTH records can still be in it, so only the last DEPTH + 1 are given:
 * the oldest of these fills the entry that the newest overwrites again,
 * and leaves what every record leaves, a cycle count of 0 and CCV valid,
 * so the next one's cycles are counted from it, as they were from the
 * records that are skipped.  CTR then holds the same logical entries
 * with the same ctrdata as if it had seen every record (only the
 * physical WRPTR differs, and nothing here reads it).  Without RAS
 * emulation only: that pops entries.
 */
static void give_pending(struct vcpu *v)
{
	uint64_t n = v->pend_n, k = ctrhw_depth(&v->hart.ctr) + 1, j;

	if (!n)
		return;
	if (v->gapped && (v->known += n) >= k)
		v->gapped = false;
	/* The instructions the last depth + 1 records span, for
	 * write_sample() if a sample follows. */
	v->span = n >= k ? retired(v) - v->pend[(n - k) & v->pend_mask].stamp
			 : 0;
	/* In at most two runs: pend[] is a ring. */
	for (j = n > k ? n - k : 0; j < n;) {
		uint64_t at = j & v->pend_mask, run = v->pend_mask + 1 - at;

		if (run > n - j)
			run = n - j;
		ctrhw_transfers_timed(&v->hart.ctr, &v->pend[at],
				      (unsigned int)run, &v->ctr_mark);
		j += run;
	}
	v->pend_n = 0;
}

/* Gives the counter model the instructions and cycles run so far. */
static void flush_counts(struct vcpu *v)
{
	struct hpmhw *pmu = &v->hart.pmu;
	enum hw_mode mode = harthw_mode(&v->hart);

	hpmhw_count(pmu, mode, HPMHW_EVENT_INSTRUCTIONS, v->unflushed);
	hpmhw_count(pmu, mode, HPMHW_EVENT_CYCLES, v->unflushed);
	v->flushed += v->unflushed;
	v->unflushed = 0;
	v->budget = next_budget(v);
}

/* The counter overflowed: what the driver's LCOFI handler would do. */
static void take_sample(struct vcpu *v, uint64_t ip)
{
	struct hpmhw *pmu = &v->hart.pmu;

	write_sample(v, ip);
	hpmhw_csr_write(pmu, HW_MODE_M, RVP_CSR_MHPMEVENT3, plugin.event);
	hpmhw_csr_write(pmu, HW_MODE_M, RVP_CSR_MHPMCOUNTER3,
			-plugin.period);
	pmu->lcofi_pending = false;
	v->budget = next_budget(v);
}

static inline void flush_ctr_cycles(struct vcpu *v)
{
	uint64_t now = retired(v);

	ctrhw_cycles(&v->hart.ctr, now - v->ctr_mark);
	v->ctr_mark = now;
}

static void resolve(struct vcpu *v, const struct tb_desc *p, uint64_t dst)
{
	struct harthw *h = &v->hart;
	unsigned int type = p->type;

	switch (p->end) {
	case END_BRANCH:
		if (dst == p->ok_a)
			type = RVP_CTRDATA_TYPE_TAKEN_BRANCH;
		else if (dst == fallthrough(p))
			type = RVP_CTRDATA_TYPE_NOT_TAKEN_BRANCH;
		else
			goto dropped;
		break;
	case END_DIRECT:
		if (dst != p->ok_a)
			goto dropped;
		break;
	case END_INDIRECT:
		break;
	case END_ECALL:
		/* ecall from U traps to S (user mode: the kernel, which QEMU
		 * emulates) and sret comes back to the next instruction. */
		if (!plugin.system) {
			v->transfers++;
			flush_counts(v);
			flush_ctr_cycles(v);
			harthw_trap(h, false, RVP_EXC_ECALL_U, HW_MODE_S,
				    p->last_pc, 0);
			harthw_trap_return(h, HW_MODE_U, 0, dst);
			return;
		}
		goto dropped;	/* system mode: the handler is the next TB */
	case END_XRET:
		v->transfers++;
		flush_ctr_cycles(v);
		harthw_trap_return(h, mode_at(dst), p->last_pc, dst);
		return;
	}
	v->transfers++;
	if (plugin.fast_transfer) {
		/* No predictor, no branch event counted: only CTR cares,
		 * and its inline check drops what it does not record. */
		if ((h->ctr.accept >> type) & 1) {
			flush_ctr_cycles(v);
			ctrhw_transfer_slow(&h->ctr, type, p->last_pc, dst,
					    false);
		}
		return;
	}
	flush_ctr_cycles(v);
	harthw_transfer_len(h, type, p->last_pc, dst,
			    p->last_len);
	return;
dropped:
	v->dropped++;
}

/*
 * The sampled counter (instructions or cycles, one per instruction) is
 * due within block P, whose instructions are all in unflushed: it
 * overflows as the instruction that takes it to its budget retires, and
 * the interrupt is taken there, as on a hart without skid.  Overflowing
 * before P's last instruction, the sample is at the next instruction of
 * P, taken now: CTR holds the records made so far and P's transfer, if
 * any, comes after it; P's instructions after the sample count towards
 * the next period (several samples fall in one block when the period is
 * shorter than it).  Overflowing at P's last instruction, the sample is
 * where P goes, with P's transfer recorded: true, and the caller takes it
 * (block_ran()).  Every path that takes a sample of these events comes
 * here, so the cost is per sample: the offsets of P's instructions were
 * written when it was translated.
 */
static __attribute__((noinline)) bool overflow_in(struct vcpu *v,
						  const struct tb_desc *p)
{
	for (;;) {
		/* P's instructions after the one that overflows */
		uint64_t after = v->unflushed - v->budget;

		if (!after || after >= p->n_insns) {
			flush_counts(v);
			return v->hart.pmu.lcofi_pending;
		}
		v->unflushed -= after;
		flush_counts(v);
		if (v->hart.pmu.lcofi_pending)
			take_sample(v, p->start +
				    p->insn_off[p->n_insns - after]);
		v->unflushed += after;
		if (v->unflushed < v->budget)
			return false;
	}
}

static struct vcpu *vcpu_new(unsigned int index);

static inline struct vcpu *vcpu_get(unsigned int index)
{
	struct vcpu *v = index < MAX_VCPUS ? plugin.vcpus[index] : NULL;

	return __builtin_expect(v != NULL, 1) ? v : vcpu_new(index);
}

/* The previous block ran: its cycles elapse (one per instruction), its
 * instructions retire, then its last instruction transfers to D. */
static inline __attribute__((always_inline)) void
block_ran(struct vcpu *v, const struct tb_desc *p, const struct tb_desc *d,
	  bool fast_transfer)
{
	bool due = false;	/* the sampled counter overflowed */

	v->unflushed += p->n_insns;
	if (__builtin_expect(v->unflushed >= v->budget, 0))
		due = overflow_in(v, p);
	if (p->end == END_NONE)
		goto done;
	if (fast_transfer && p->end <= END_INDIRECT) {
		/* resolve()'s common case, inline: a transfer only CTR sees
		 * (the sampled event is instructions or cycles, so only the
		 * flush above can overflow it). */
		uint64_t dst = d->start;
		unsigned int type = record_type(p, dst);

		if (p->end == END_BRANCH) {
			if (__builtin_expect(dst != p->ok_a &&
					     dst != fallthrough(p), 0))
				goto slow;
		} else if (__builtin_expect(p->end == END_DIRECT &&
					    dst != p->ok_a, 0)) {
			goto slow;
		}
		v->transfers++;
		if ((v->hart.ctr.accept >> type) & 1) {
			flush_ctr_cycles(v);
			ctrhw_transfer_slow(&v->hart.ctr, type, p->last_pc,
					    dst, false);
		}
		goto done;
	}
slow:
	resolve(v, p, d->start);
	/* Other events count in the model's transfer path. */
	due = v->hart.pmu.lcofi_pending;
done:
	/* The counter overflowed at the block's last instruction: the
	 * interrupt is taken once its transfer has retired, and the
	 * sample's ip is where the program goes next. */
	if (__builtin_expect(due, 0))
		take_sample(v, d->start);
}

/* The model runs over the queued blocks, in order. */
static __attribute__((noinline)) void drain_fast(struct vcpu *v)
{
	const struct tb_desc *p = v->prev;
	unsigned int i, n = (unsigned int)(v->qpos - v->ring);

	for (i = 0; i < n; i++) {
		block_ran(v, p, v->ring[i], true);
		p = v->ring[i];
	}
	v->prev = p;
	v->qpos = v->ring;
}

static __attribute__((noinline)) void drain_any(struct vcpu *v)
{
	const struct tb_desc *p = v->prev;
	unsigned int i, n = (unsigned int)(v->qpos - v->ring);

	for (i = 0; i < n; i++) {
		block_ran(v, p, v->ring[i], false);
		p = v->ring[i];
	}
	v->prev = p;
	v->qpos = v->ring;
}

/*
 * Block P's transfer to DST, stamped RETIRED, into *G: 1 if it is a record
 * CTR keeps.  A transfer that went elsewhere (a signal) is dropped, as in
 * resolve(): only the lean callback queues such a block, and it counted
 * the transfer.
 */
static inline __attribute__((always_inline)) unsigned int
pend_one(struct vcpu *v, const struct tb_desc *p, uint64_t dst,
	 uint64_t retired, uint32_t accept, struct hw_xfer_timed *g)
{
	unsigned int type = record_type(p, dst);

	if (p->transfer &&
	    __builtin_expect(!(p->any_dst | (dst == p->ok_a) |
			       (dst == p->ok_b)), 0)) {
		v->transfers--;
		v->dropped++;
		return 0;
	}
	/* Written always, kept if recorded. */
	g->source = p->last_pc;
	g->target = dst;
	g->stamp = retired;
	g->type = type;
	return p->transfer & (accept >> type) & 1;
}

/*
 * The records of the transfers into ring[FROM..TO), which drain_defer()
 * checked but did not record, go to pend[]: only the last DEPTH + 1 of
 * them can matter (give_pending()), so they are found walking back from
 * the newest, and the walk stops there (at the default period a sample's
 * stack is found some 45 blocks back of the hundred or more queued).
 * FIRST_PREV is the block before ring[0].  RETIRED is retired(v) after
 * ring[TO - 1]'s predecessor retired, the time of the newest record.
 */
static __attribute__((noinline)) void
pend_range(struct vcpu *v, const struct tb_desc *first_prev,
	   unsigned int from, unsigned int to, uint64_t retired)
{
	struct hw_xfer_timed got[CTRHW_MAX_DEPTH + 1];
	unsigned int k = 0, want = ctrhw_depth(&v->hart.ctr) + 1;
	uint32_t accept = v->hart.ctr.accept;
	const struct tb_desc *const *ring = v->ring;
	/* The transfers into ring[j] for j >= lo come from ring[j - 1]; the
	 * one into ring[0], if it is in the range, from FIRST_PREV. */
	unsigned int j = to, lo = from ? from : 1;
	uint64_t dst;

	if (to <= from)
		return;
	dst = ring[to - 1]->start;
	while (j > lo) {
		const struct tb_desc *p = ring[--j - 1];

		k += pend_one(v, p, dst, retired, accept, &got[k]);
		if (k == want)
			goto found;
		retired -= p->n_insns;
		dst = p->start;
	}
	if (!from)
		k += pend_one(v, first_prev, dst, retired, accept, &got[k]);
found:
	while (k--)
		v->pend[v->pend_n++ & v->pend_mask] = got[k];
}

static __attribute__((noinline)) void block_ran_slow(struct vcpu *v,
						   const struct tb_desc *p,
						   const struct tb_desc *d)
{
	give_pending(v);
	if (plugin.fast_transfer)
		block_ran(v, p, d, true);
	else
		block_ran(v, p, d, false);
}

/*
 * drain_fast() for the common case, with the records kept back
 * (give_pending()): for -j any at the default period all but a few of
 * every sample's thousands of records are overwritten before anything
 * reads CTR.  The loop only counts instructions and checks that every
 * transfer went where it could (a branch to its target or the next
 * instruction, a jump to its target); the records of a run of such blocks
 * are made afterwards, the newest first, only as many as can matter
 * (pend_range()).  Anything else (the sampled counter due, an ecall, a
 * transfer gone elsewhere) goes through block_ran() after them.
 */
/* Instructions until the sampled counter is due, at most 2^32 - 1: the
 * low half of a sum of steps (tb_desc.step) is compared with it. */
static inline uint32_t check_left(const struct vcpu *v)
{
	uint64_t left = v->budget - v->unflushed;

	return left > UINT32_MAX ? UINT32_MAX : (uint32_t)left;
}

static inline __attribute__((always_inline)) void
drain_defer(struct vcpu *v, uint32_t ev_types)
{
	const struct tb_desc *first_prev = v->prev, *p = first_prev, *d;
	unsigned int i, from = 0, n = (unsigned int)(v->qpos - v->ring);
	/* The blocks' steps since the last write-back to v: instructions
	 * in the low 32 bits, transfers above; the sampled counter is due
	 * when the instructions reach left (a batch never gets to 2^32). */
	uint64_t acc = 0, left = check_left(v);
	/* A sampled event counted by transfer type (ev_types: the types it
	 * counts): how many the loop saw, how many more overflow it. */
	uint64_t ev = 0, ev_left = ev_types ? -v->hart.pmu.counter[3] : 0;

	for (i = 0; i < n; i++, p = d) {
		uint64_t a = acc + p->step, dst;
		unsigned int hit = 0;

		d = v->ring[i];
		dst = d->start;
		if (ev_types)
			hit = (ev_types >> record_type(p, dst)) & 1;
		if (__builtin_expect((uint32_t)a >= left ||
				     (ev_types && ev + hit >= ev_left) ||
				     !(p->any_dst | (dst == p->ok_a) |
				       (dst == p->ok_b)), 0)) {
			v->unflushed += (uint32_t)acc;
			v->transfers += acc >> 32;
			acc = 0;
			pend_range(v, first_prev, from, i,
				   v->flushed + v->unflushed);
			if (ev_types && ev)
				hpmhw_count(&v->hart.pmu,
					    harthw_mode(&v->hart),
					    plugin.event, ev);
			block_ran_slow(v, p, d);
			from = i + 1;
			left = check_left(v);
			ev = 0;
			if (ev_types)
				ev_left = -v->hart.pmu.counter[3];
			continue;
		}
		acc = a;
		ev += hit;
	}
	v->unflushed += (uint32_t)acc;
	v->transfers += acc >> 32;
	pend_range(v, first_prev, from, n, v->flushed + v->unflushed);
	if (ev_types && ev)
		hpmhw_count(&v->hart.pmu, harthw_mode(&v->hart),
			    plugin.event, ev);
	v->prev = p;
	v->qpos = v->ring;
}

/* drain_defer() for a sampled event the model counts per transfer
 * (branches, calls, ...; other events take tb_exec_lean()): only the
 * sampled counter counts, so the events go to it in one go, and the
 * transfer that overflows it goes through the model. */
static __attribute__((noinline)) void drain_defer_ev(struct vcpu *v)
{
	drain_defer(v, plugin.ev_types);
}

static void lean_flush(struct vcpu *v);
static void lean_hot_flush(struct lean_hot *h);

static void drain(struct vcpu *v)
{
	if (plugin.check && v->hot)
		lean_hot_flush(v->hot);
	else if (plugin.check)
		lean_flush(v);
	else if (plugin.defer)
		drain_defer_ev(v);
	else if (plugin.fast_transfer)
		drain_fast(v);
	else
		drain_any(v);
}

/* User mode: each vCPU is a thread of its own, which finds its vCPU here
 * in one load (initial-exec: no call), not in plugin.vcpus[]. */
static __thread struct vcpu *this_vcpu __attribute__((tls_model("initial-exec")));

/*
 * The first block a thread runs.  qemu-user gives the vCPU index of a
 * thread that exited to the next thread it creates: a vCPU found at the
 * index that is another thread's (its own tid) was that thread's, which
 * left through a system call (its records made, its gate on), so it is
 * kept for the totals and this thread starts a vCPU of its own.
 */
static __attribute__((noinline)) struct vcpu *first_block(unsigned int vcpu_index)
{
	struct vcpu *v = vcpu_get(vcpu_index);

	if (v && !plugin.system && v->tid != (uint64_t)syscall(SYS_gettid)) {
		pthread_mutex_lock(&plugin.lock);
		v->gone = plugin.gone;
		v->hot = NULL;	/* its thread's, gone */
		plugin.gone = v;
		plugin.vcpus[vcpu_index] = NULL;
		pthread_mutex_unlock(&plugin.lock);
		v = vcpu_new(vcpu_index);
	}
	return this_vcpu = v;
}

static void tb_exec_user(unsigned int vcpu_index, void *udata);

static __attribute__((noinline)) void
tb_exec_user_first(unsigned int vcpu_index, void *udata)
{
	if (first_block(vcpu_index))
		tb_exec_user(vcpu_index, udata);
}

/* User mode: one mode, so nothing but the block, queued.  Both calls are
 * tail calls: the common path needs no stack frame. */
static void tb_exec_user(unsigned int vcpu_index, void *udata)
{
	struct vcpu *v = this_vcpu;

	if (__builtin_expect(!v, 0)) {
		tb_exec_user_first(vcpu_index, udata);
		return;
	}
	*v->qpos++ = udata;
	if (__builtin_expect(v->qpos == v->ring + RING, 0))
		drain(v);
}

/* A block that ends in ecall: the model catches up before the system
 * call runs, so what the program does there (fork, exit) finds it
 * current. */
static void tb_exec_user_ecall(unsigned int vcpu_index, void *udata)
{
	struct vcpu *v = this_vcpu;

	if (__builtin_expect(!v, 0) && !(v = first_block(vcpu_index)))
		return;
	*v->qpos++ = udata;
	drain(v);
}

/*
 * The check path: the common case of drain_defer() (no sampled event
 * counted per transfer type) with no second pass over the queue.  acc
 * holds the steps of the blocks passed since the last write-back, up to
 * prev, whose own step is added when the next block starts; ring[] keeps
 * the blocks passed since the last flush (from the one after seg_prev),
 * whose records pend_range() makes when something is to read CTR, before
 * a system call, or when the ring is full.  Anything else goes through
 * check_slow(): the same order of work as drain_defer(), so the same
 * trace.
 */
/* The passed blocks' counts into v, their records into pend[]. */
static void check_flush(struct vcpu *v)
{
	v->unflushed += (uint32_t)v->acc;
	v->transfers += v->acc >> 32;
	v->acc = 0;
	pend_range(v, v->seg_prev, 0, (unsigned int)(v->qpos - v->ring),
		   v->flushed + v->unflushed);
	v->qpos = v->ring;
	v->seg_prev = v->prev;
}

static __attribute__((noinline)) void check_slow(struct vcpu *v,
						 const struct tb_desc *p,
						 const struct tb_desc *d)
{
	check_flush(v);
	block_ran_slow(v, p, d);
	v->prev = v->seg_prev = d;
	v->left = check_left(v);
}

static __attribute__((noinline)) void drain_check(struct vcpu *v)
{
	check_flush(v);
	v->left = check_left(v);
}

/*
 * The lean callback: the check path less what can wait.  Each block only
 * adds its own step to acc as it starts and queues itself; where each
 * block went is checked when its record is made (pend_range(): the last
 * depth + 1 before anything reads CTR), not at every block.  The sampled
 * counter's test needs no look at the previous block either: acc counts
 * every block that has started since the last write-back, seg_prev's and
 * the queued ones', so at block D it holds what the check path holds once
 * D starts.  Every other path is the check path's, through
 * lean_to_check() and lean_from_check(), so the trace is the same byte
 * for byte, but for a transfer that went elsewhere (a signal) among
 * blocks whose records are not made: counted as a transfer, not as
 * dropped, as in the gate's unseen stretches.
 */
static inline void lean_to_check(struct vcpu *v)
{
	const struct tb_desc *last = v->qpos != v->ring ? v->qpos[-1]
							: v->seg_prev;

	/* The check path counts the last block when the next starts. */
	v->acc -= last->step;
	v->prev = last;
}

/* After check_flush(): nothing queued, acc 0, prev = seg_prev, started.
 * The block after an ecall resolves the trap: the slow path, always. */
static inline void lean_from_check(struct vcpu *v)
{
	v->acc = v->prev->step;
	if (v->prev->end == END_ECALL)
		v->left = 0;
}

static __attribute__((noinline)) void lean_flush(struct vcpu *v)
{
	lean_to_check(v);
	drain_check(v);
	lean_from_check(v);
}

static __attribute__((noinline)) void lean_slow(struct vcpu *v,
						const struct tb_desc *d)
{
	lean_to_check(v);
	check_slow(v, v->prev, d);
	lean_from_check(v);
}

/*
 * What tb_exec_lean() touches at every block it is called for, in its
 * thread's own TLS (user mode: a vCPU is a thread), so that a block costs
 * one subtraction: no vCPU pointer to load, no test for a first block, no
 * compare with the sampled counter.  A count holds, above LEAN_SHIFT, how
 * many more instructions may start before a block must go the slow way
 * (lean_hot_slow(), which folds what was subtracted into acc and does
 * there what the callback did at every block before), and below it
 * LEAN_LOW less the transfers since it was loaded; each block subtracts
 * its lean_step, and a borrow out of the top is the slow way.  Where
 * QEMU calls every block (below plugin API level 3), tb_exec_lean() is
 * made at load time for each step (lean_stub.c): the subtraction with the
 * step and fast's TLS offset as its operands, a branch and a return, and
 * lean_block()'s queuing of a seen block with no call.
 * tb_exec_lean() subtracts from fast alone: in an unseen stretch (qpos
 * NULL: the gate, below) fast is the stretch's count, and while blocks are
 * seen it is 0, so that each of them borrows and lean_block() queues it
 * and subtracts from rem.  In an unseen stretch rem is 0, so that the
 * generated callback, which subtracts from rem before it looks at qpos,
 * sends the stretch's end the slow way.  rem's high half is what is left
 * until acc reaches left (the sampled counter due; the block that takes it
 * past left borrows, the one after it reaches left exactly borrows next)
 * or the ring's room less two, whichever is less: every block has an
 * instruction, so the queue cannot overflow.  Both 0 send the next block
 * the slow way: every thread starts so.
 */
struct lean_hot {
	uint64_t fast;
	uint64_t rem;
	const struct tb_desc **qpos;
	uint64_t reload;	/* the count (fast or rem) when last loaded */
	struct vcpu *v;
	unsigned int vcpu_index;
};

static __thread struct lean_hot lean_hot __attribute__((tls_model("initial-exec")));

/*
 * The gate (user mode, the check path of -j any): only the blocks shortly
 * before a sample are queued and checked; the others are an unseen
 * stretch, whose instructions and transfers are counted and whose records
 * are not made.  Queuing every block costs more than the rest of the
 * callback (bzip2 on QEMU 7.2: 0.12x plain of the callback's 0.3x), and
 * from plugin API level 3 (QEMU 9.1) the blocks of a stretch need no
 * callback at all: they count themselves inline into a per-vCPU
 * scoreboard (struct gate), and tb_exec_lean_gated() is a conditional
 * callback that runs only while the count is below GATE_FIRE.  Below that
 * level every block calls back and the stretch is kept in fast (qpos
 * NULL).
 *
 * lean_load() starts a stretch when the ring is empty and the sampled
 * counter is due more than twice gate_w instructions on; it ends gate_w
 * before, at the block that borrows from fast (level < 3) or whose
 * callback fires (level 3+: qpos is NULL), or at a block ending in
 * ecall, which always calls back (the model runs the trap, and the
 * system-call callbacks find it current).  lean_gap() then gives the
 * model the stretch: the transfer into the first block seen has no
 * record either, which matters only if fewer than depth + 1 records
 * follow before a sample (v->gapped): gate_w follows twice the span the
 * last depth + 1 records took (give_pending(), write_sample()), and a
 * sample that still falls short keeps only the records known (a short
 * stack), is counted and reported at exit.  A transfer in an unseen
 * stretch that went elsewhere (a signal) is counted as a transfer, not
 * as dropped.  While blocks are seen, every slow path (at most RING
 * instructions apart) sets the count back to GATE_ON.
 */
static inline struct gate *gate_of(unsigned int vcpu_index)
{
	return qemu_plugin_scoreboard_find(plugin.gate_sb, vcpu_index);
}

/* What the blocks queued since the last lean_load() added, into v; REM
 * is rem after the last of them. */
static inline void lean_fold(struct lean_hot *h, uint64_t rem)
{
	uint64_t used = h->reload - rem;

	h->v->acc += (used >> LEAN_SHIFT) + ((used & LEAN_LOW) << 32);
	h->v->qpos = h->qpos;
	h->reload = rem;
}

/* The unseen stretch ends: REM is fast after its last block (below level
 * 3); D, if any, is the block seen first, whose own share the scoreboard
 * already holds (level 3+). */
static __attribute__((noinline)) void lean_gap(struct lean_hot *h,
					       uint64_t rem,
					       const struct tb_desc *d)
{
	struct vcpu *v = h->v;
	uint64_t insns, transfers, used = h->reload - rem;

	h->qpos = v->qpos;
	h->reload = rem;
	if (plugin.gate) {
		uint64_t sum = gate_of(h->vcpu_index)->count - v->gate_base;

		if (d)
			sum -= gate_packed(d);
		insns = sum >> GATE_SHIFT;
		transfers = sum & ((1u << GATE_SHIFT) - 1);
	} else {
		insns = used >> LEAN_SHIFT;
		transfers = used & LEAN_LOW;
	}
	if (!insns)
		return;	/* no block ran unseen: the last seen is v->prev */
	/* acc holds the last block seen (lean_from_check()); with the
	 * stretch's it all retires, and nothing is queued. */
	v->acc += insns + (transfers << 32);
	check_flush(v);
	v->pend_n = 0;
	v->gapped = true;
	v->known = 0;
	v->prev = v->seg_prev = &no_block;
	v->left = check_left(v);
	plugin.gaps++;
}

/* An unseen stretch of RUN instructions from here. */
static void lean_unseen(struct lean_hot *h, uint64_t run)
{
	struct vcpu *v = h->v;

	h->qpos = NULL;
	/* At most GATE_MAX_RUN: the scoreboard's count, or fast's low half,
	 * holds the stretch's transfers. */
	if (run > GATE_MAX_RUN)
		run = GATE_MAX_RUN;
	if (plugin.gate) {
		/* The count reaches 2^64 (0: below GATE_FIRE) when the
		 * blocks from here have run more than RUN instructions. */
		v->gate_base = -((run + 1) << GATE_SHIFT);
		gate_of(h->vcpu_index)->count = v->gate_base;
		h->fast = h->reload = 0;
	} else {
		h->fast = h->reload = run << LEAN_SHIFT | LEAN_LOW;
	}
	/* The generated callback (lean_stub.c) subtracts from rem as well
	 * when fast borrows: 0 sends the stretch's end the slow way. */
	h->rem = 0;
}

static inline void lean_load(struct lean_hot *h)
{
	const struct vcpu *v = h->v;
	uint32_t acc = (uint32_t)v->acc;
	uint64_t room = (uint64_t)(v->ring + RING - v->qpos), n = 0;

	h->qpos = v->qpos;
	if (acc < v->left && room >= 2) {
		n = v->left - acc;
		if (plugin.lean_gate && v->qpos == v->ring &&
		    n > 2 * v->gate_w) {
			lean_unseen(h, n - v->gate_w);
			return;
		}
		if (n > room - 2)
			n = room - 2;
		n = n << LEAN_SHIFT | LEAN_LOW;
	}
	h->rem = h->reload = n;
	h->fast = 0;
	if (plugin.gate)
		gate_of(h->vcpu_index)->count = GATE_ON;
}

/* A block that borrowed: rem is already less its lean_step. */
static __attribute__((noinline)) void lean_hot_slow(unsigned int vcpu_index,
						    const struct tb_desc *d)
{
	struct lean_hot *h = &lean_hot;
	struct vcpu *v = h->v;
	bool far = false;

	if (__builtin_expect(!v, 0)) {
		v = first_block(vcpu_index);
		h->fast = h->rem = h->reload = 0;
		if (!v)
			return;	/* no memory: the next block tries again */
		h->v = v;
		h->vcpu_index = vcpu_index;
		v->hot = h;
		h->qpos = v->qpos;
	} else if (!h->qpos) {
		lean_gap(h, h->fast + d->lean_step, d);
		/* A stretch is at most GATE_MAX_RUN: if the sample is
		 * still far, the next one starts after D. */
		far = (uint32_t)v->acc + d->n_insns + 2 * v->gate_w < v->left;
	} else {
		lean_fold(h, h->rem + d->lean_step);
	}
	if ((uint32_t)v->acc >= v->left) {
		lean_slow(v, d);
	} else {
		v->acc += d->step;
		*v->qpos++ = d;
		if (v->qpos == v->ring + RING || far)
			lean_flush(v);
	}
	lean_load(h);
}

/* The generated callback's slow way (lean_stub.c): both fast and rem
 * borrowed. */
static void lean_stub_slow(unsigned int vcpu_index, void *udata)
{
	lean_hot_slow(vcpu_index, udata);
}

/*
 * *rem -= step; true if that borrowed.  On x86-64 one read-modify-write
 * instruction and a branch on its carry: GCC makes of the C form a load,
 * a subtraction and a store, which QEMU 7.2's call of every block pays
 * for many times over (a loop of short blocks: 1.23-1.28x plain with the
 * one instruction, 1.50-1.54x with the three, best of 11).
 */
static inline bool lean_take(uint64_t *rem, uint64_t step)
{
#if defined(__x86_64__) && defined(__GNUC__)
	asm goto("subq %1, %0\n\tjb %l[borrow]"
		 : : "m"(*rem), "r"(step) : "cc", "memory" : borrow);
	return false;
borrow:
	return true;
#else
	return __builtin_sub_overflow(*rem, step, rem);
#endif
}

/* A block that tb_exec_lean() sent on (fast borrowed), or that the gate's
 * conditional callback let through: one seen (fast is 0 while blocks are
 * seen) is queued here, and what borrowed from rem goes the slow way. */
static inline void lean_block(unsigned int vcpu_index, const struct tb_desc *d)
{
	struct lean_hot *h = &lean_hot;
	const struct tb_desc **q = h->qpos;

	if (__builtin_expect(q && !lean_take(&h->rem, d->lean_step), 1)) {
		h->fast = 0;
		*q = d;
		h->qpos = q + 1;
		return;
	}
	lean_hot_slow(vcpu_index, d);
}

/* Out of line for tb_exec_lean(), whose common path stays a subtraction
 * and a return; the gate's callback has it inline. */
static __attribute__((noinline)) void lean_block_out(unsigned int vcpu_index,
						     void *udata)
{
	lean_block(vcpu_index, udata);
}

/* Every block, below plugin API level 3: in an unseen stretch only the
 * subtraction; a seen block, and the stretch's end, borrow. */
static void tb_exec_lean(unsigned int vcpu_index, void *udata)
{
	const struct tb_desc *d = udata;

	if (lean_take(&lean_hot.fast, d->lean_step))
		lean_block_out(vcpu_index, udata);
}

/* The gate's conditional callback (level 3+): only seen blocks, and the
 * first after a stretch, call it. */
static void tb_exec_lean_gated(unsigned int vcpu_index, void *udata)
{
	lean_block(vcpu_index, udata);
}

/* Everything queued through the model (a thread's own state, or that of
 * one stopped at exit: struct lean_hot is only written by its thread).
 * At exit, a program that a signal ended may be in an unseen stretch:
 * its last block retires too, where with every block seen none follows
 * to retire it. */
static __attribute__((noinline)) void lean_hot_flush(struct lean_hot *h)
{
	if (h->qpos)
		lean_fold(h, h->rem);
	else
		lean_gap(h, h->fast, NULL);
	lean_flush(h->v);
	lean_load(h);
}

/* A block that ends in ecall: the model catches up before the call, and
 * the next block takes the slow path (it resolves the ecall).  The block
 * itself is seen: it ends an unseen stretch. */
static void tb_exec_lean_ecall(unsigned int vcpu_index, void *udata)
{
	const struct tb_desc *d = udata;

	if (lean_hot.qpos) {
		lean_block(vcpu_index, d);	/* seen: tb_exec_lean()'s way */
	} else {
		lean_hot.fast -= d->lean_step;
		lean_hot_slow(vcpu_index, d);
	}
	if (lean_hot.v)
		lean_hot_flush(&lean_hot);
}

/* System mode: the mode may have changed between the blocks. */
static void tb_exec_system(unsigned int vcpu_index, void *udata)
{
	const struct tb_desc *d = udata;
	struct vcpu *v = vcpu_get(vcpu_index);
	const struct tb_desc *p;
	enum hw_mode m;

	if (!v)
		return;
	p = v->prev;
	v->prev = d;
	m = mode_at(d->start);
	if (m == harthw_mode(&v->hart)) {
		block_ran(v, p, d, plugin.fast_transfer);
		return;
	}
	v->unflushed += p->n_insns;
	if (v->unflushed >= v->budget)
		overflow_in(v, p);	/* the last instruction's sample below */
	flush_counts(v);
	flush_ctr_cycles(v);
	if (p->end == END_ECALL) {
		/* The ecall's trap, seen as its handler running. */
		harthw_trap(&v->hart, false,
			    RVP_EXC_ECALL_U + hw_mode_priv(harthw_mode(&v->hart)),
			    m, p->last_pc, d->start);
		v->transfers++;
	} else if (p->end == END_XRET) {
		resolve(v, p, d->start);
	} else {
		/* A trap the plugin API does not show (interrupt, fault). */
		if (p->end != END_NONE)
			v->dropped++;
		harthw_set_mode(&v->hart, m);
	}
	if (v->hart.pmu.lcofi_pending)
		take_sample(v, d->start);
}

/* ---- the guest's processes and mappings (user mode) */

/* riscv64 Linux system call numbers and flags (asm-generic). */
#define NR_CLONE	220
#define NR_EXIT		93
#define NR_EXECVE	221
#define NR_MMAP		222
#define NR_EXECVEAT	281
#define NR_CLONE3	435
#define G_CLONE_VM	0x100
#define G_CLONE_VFORK	0x4000
#define G_PROT_EXEC	0x4
#define G_MAP_ANONYMOUS	0x20

/* The arguments of the system call this guest thread is in: the return
 * callback has only the number and the result. */
static __thread struct {
	int64_t num;
	uint64_t a[6];
} in_syscall;

/* A record of another kind than a sample: the kind's struct (size a
 * multiple of 8), then str NUL-padded to 8 bytes.  Under plugin.lock. */
static void write_event(const struct vcpu *v, uint64_t kind, const void *body,
			size_t size, const char *str)
{
	static const char zeros[8];
	size_t len = str ? strlen(str) : 0, pad = str ? 8 - len % 8 : 0;
	struct rvp_trace_record r = {
		.kind = kind, .tid = v->tid, .time = retired(v),
		.nr = (size + len + pad) / 8,
	};

	out_write(&r, sizeof(r));
	out_write(body, size);
	if (str) {
		out_write(str, len);
		out_write(zeros, pad);
	}
}

/* This process's totals so far (at exit, or before an exec). */
static void add_totals(struct rvp_trace_totals *t, const struct vcpu *v)
{
	t->transfers += v->transfers;
	t->dropped += v->dropped;
	t->samples += v->samples;
	t->instructions += retired(v) - v->born;
}

static void process_totals(struct rvp_trace_totals *t)
{
	const struct vcpu *v;
	unsigned int i;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < MAX_VCPUS; i++)
		if (plugin.vcpus[i])
			add_totals(t, plugin.vcpus[i]);
	for (v = plugin.gone; v; v = v->gone)
		add_totals(t, v);
}

/* The header holds what is known only once the program runs: rewritten
 * in place, everything before it out first. */
static void rewrite_header(void)
{
	out_flush();
	if (!plugin.out_failed &&
	    pwrite(plugin.out_fd, &plugin.header, sizeof(plugin.header), 0) !=
	    (ssize_t)sizeof(plugin.header))
		fprintf(stderr, "rvperf plugin: cannot write the trace's "
			"header\n");
}

/* MMAP2 of an executable file mapping, as the kernel reports it (device
 * and inode; rvperf record puts the file's build id in their place, at
 * m->perf_off, which this sets). */
static void perf_mmap2(const struct vcpu *v, struct rvp_trace_mmap *m,
		       const char *path)
{
	size_t len = strlen(path);
	uint32_t dev[2] = { major(m->dev), minor(m->dev) };
	uint64_t ino[2] = { m->ino, 0 };
	unsigned char ident[24];

	if (pd_mmap2_size(len) > TRACE_BUFFER)
		return;
	memcpy(ident, dev, sizeof(dev));
	memcpy(ident + 8, ino, sizeof(ino));
	m->perf_off = plugin.perf_pos + plugin.perf_used;
	pd_encode_mmap2(perf_reserve(pd_mmap2_size(len)), PERF_RECORD_MISC_USER,
			(uint32_t)plugin.header.pid, (uint32_t)v->tid, m->start,
			m->len, m->pgoff, ident, (uint32_t)m->prot,
			(uint32_t)m->flags, path, len, retired(v));
}

static void mapped(struct vcpu *v, uint64_t start)
{
	struct rvp_trace_mmap m = {
		.start = start, .len = in_syscall.a[1],
		.pgoff = in_syscall.a[5], .prot = in_syscall.a[2],
		.flags = in_syscall.a[3],
	};
	char link[64], path[4096];
	struct stat st;
	int fd = (int)in_syscall.a[4];
	ssize_t n;

	if (!(m.prot & G_PROT_EXEC) || (m.flags & G_MAP_ANONYMOUS) || fd < 0)
		return;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	if (n <= 0)
		return;
	path[n] = '\0';
	if (fstat(fd, &st) == 0) {
		m.dev = st.st_dev;
		m.ino = st.st_ino;
	}
	m.path_len = (uint64_t)n;
	m.perf_off = UINT64_MAX;
	pthread_mutex_lock(&plugin.lock);
	if (perf_mode())
		perf_mmap2(v, &m, path);
	write_event(v, RVP_TRACE_MMAP, &m, sizeof(m), path);
	pthread_mutex_unlock(&plugin.lock);
}

/* In the child of a fork, on the forking thread, the only one left: its
 * own trace at OUT.PID, the parent's unwritten bytes dropped (the parent
 * writes them), the vCPUs of the parent's other threads forgotten. */
static void became_child(unsigned int vcpu_index)
{
	char path[4096];
	struct vcpu *v = plugin.vcpus[vcpu_index];
	unsigned int i;

	pthread_mutex_init(&plugin.lock, NULL);	/* another thread's? */
	close(plugin.out_fd);
	snprintf(path, sizeof(path), "%s.%d", plugin.out_path, (int)getpid());
	if (out_open(path)) {
		fail("cannot create '%s'", path);
		out_open("/dev/null");
	}
	plugin.header.pid = getpid();
	out_write(&plugin.header, sizeof(plugin.header));
	for (i = 0; i < MAX_VCPUS; i++)
		if (i != vcpu_index)
			plugin.vcpus[i] = NULL;
	plugin.gone = NULL;
	if (v) {
		v->tid = syscall(SYS_gettid);
		v->transfers = v->dropped = v->samples = 0;
		v->born = retired(v);
	}
	if (perf_mode()) {
		close(plugin.perf_fd);
		snprintf(path, sizeof(path), "%s.%d", plugin.perf_path,
			 (int)getpid());
		if (perf_open(path, 0)) {
			fail("cannot create '%s'", path);
			perf_open("/dev/null", 0);
		}
		if (v)
			perf_comm(plugin.header.pid, v->tid, v->born);
	}
}

/* FORK, as the kernel reports a clone (its sample_id the new task's); a
 * new thread is named at once (a new process names itself, in its own
 * file: became_child()). */
static void perf_fork(const struct vcpu *v, const struct rvp_trace_fork *f,
		      bool thread)
{
	uint64_t time = retired(v);

	pd_encode_fork(perf_reserve(PD_FORK_SIZE), (uint32_t)f->pid,
		       (uint32_t)f->ppid, (uint32_t)f->tid, (uint32_t)f->ptid,
		       time);
	if (thread)
		perf_comm(f->pid, f->tid, time);
}

static void cloned(struct vcpu *v, int64_t num, int64_t ret)
{
	struct rvp_trace_fork f = {
		.ppid = getpid(), .tid = (uint64_t)ret, .ptid = v->tid,
	};
	bool thread;

	if (num == NR_CLONE) {
		/* qemu-user runs a vfork as a fork */
		thread = (in_syscall.a[0] & G_CLONE_VM) &&
			 !(in_syscall.a[0] & G_CLONE_VFORK);
	} else {
		char task[64];

		snprintf(task, sizeof(task), "/proc/self/task/%" PRId64, ret);
		thread = access(task, F_OK) == 0;
	}
	f.pid = thread ? f.ppid : (uint64_t)ret;
	pthread_mutex_lock(&plugin.lock);
	if (perf_mode())
		perf_fork(v, &f, thread);
	write_event(v, RVP_TRACE_FORK, &f, sizeof(f), NULL);
	if (!thread)	/* the child's trace begins after this in time */
		out_flush();
	pthread_mutex_unlock(&plugin.lock);
}

static void execs(struct vcpu *v)
{
	struct rvp_trace_totals t;

	/* Everything out before the image is replaced; if the exec fails,
	 * records simply follow. */
	give_pending(v);
	pthread_mutex_lock(&plugin.lock);
	process_totals(&t);
	write_event(v, RVP_TRACE_EXEC, &t, sizeof(t), NULL);
	if (perf_mode())
		perf_flush();
	rewrite_header();
	pthread_mutex_unlock(&plugin.lock);
}

static void syscall_entry(qemu_plugin_id_t id, unsigned int vcpu_index,
			  int64_t num, uint64_t a1, uint64_t a2, uint64_t a3,
			  uint64_t a4, uint64_t a5, uint64_t a6, uint64_t a7,
			  uint64_t a8)
{
	struct vcpu *v;

	(void)id;
	(void)a7;
	(void)a8;
	in_syscall.num = num;
	in_syscall.a[0] = a1;
	in_syscall.a[1] = a2;
	in_syscall.a[2] = a3;
	in_syscall.a[3] = a4;
	in_syscall.a[4] = a5;
	in_syscall.a[5] = a6;
	if (num == NR_CLONE || num == NR_CLONE3) {
		/* The child must not inherit unwritten bytes of ours. */
		v = vcpu_get(vcpu_index);
		pthread_mutex_lock(&plugin.lock);
		out_flush();
		if (perf_mode())
			perf_flush();
		if (v)
			plugin.thread_time = retired(v);
		pthread_mutex_unlock(&plugin.lock);
	} else if ((num == NR_EXECVE || num == NR_EXECVEAT) &&
		   (v = vcpu_get(vcpu_index))) {
		drain(v);
		execs(v);
	} else if (num == NR_EXIT && (v = vcpu_get(vcpu_index)) && v->hot) {
		/* The thread ends, and its TLS with it. */
		drain(v);
		v->hot = NULL;
	}
}

static void syscall_return(qemu_plugin_id_t id, unsigned int vcpu_index,
			   int64_t num, int64_t ret)
{
	struct vcpu *v;

	(void)id;
	if (num != in_syscall.num || ret < 0 || !(v = vcpu_get(vcpu_index)))
		return;
	if (num == NR_MMAP) {
		mapped(v, (uint64_t)ret);
	} else if (num == NR_CLONE || num == NR_CLONE3) {
		if (ret == 0 && (uint64_t)getpid() != plugin.header.pid)
			became_child(vcpu_index);
		else if (ret > 0)
			cloned(v, num, ret);
	}
}

/* ---- set-up */

static int setup_hart(struct harthw *h)
{
	struct harthw_config cfg;
	uint64_t ctl = plugin.ctl;
	unsigned int depth_code = 0;

	harthw_config_default(&cfg, plugin.layout);
	cfg.ctr.misp = plugin.misp;	/* the predictor model sets MISP */
	if (harthw_init(h, &cfg))
		return -1;
	while ((16u << depth_code) < plugin.depth)
		depth_code++;
	harthw_set_mode(h, HW_MODE_M);
	if (plugin.layout == CTRHW_LAYOUT_DRAFT) {
		/* DEPTH is a thermometer code: 16 << n entries is n ones. */
		ctl |= (uint64_t)((1u << depth_code) - 1)
		       << RVP_CTR_DRAFT_MCTRCONTROL_DEPTH_SHIFT;
		harthw_csr_write(h, RVP_CTR_DRAFT_CSR_MCTRCONTROL, ctl);
	} else {
		harthw_csr_write(h, RVP_CTR_V1_CSR_SCTRDEPTH, depth_code);
		harthw_csr_write(h, RVP_CTR_V1_CSR_MCTRCTL, ctl);
	}
	if (plugin.event != HPMHW_EVENT_NONE) {
		harthw_csr_write(h, RVP_CSR_MHPMEVENT3, plugin.event);
		harthw_csr_write(h, RVP_CSR_MHPMCOUNTER3, -plugin.period);
		/* Only the sampling counter counts: nothing reads mcycle
		 * or minstret here, and they would cost time per block. */
		harthw_csr_write(h, RVP_CSR_MCOUNTINHIBIT, 0x5);
	}
	harthw_set_mode(h, plugin.system ? HW_MODE_S : HW_MODE_U);
	return 0;
}

static struct vcpu *vcpu_new(unsigned int index)
{
	struct vcpu *v;

	if (index >= MAX_VCPUS)
		return NULL;
	/* First block of this vCPU, on its own thread (user mode: a guest
	 * thread), so gettid() names the guest thread. */
	v = aligned_alloc(64, sizeof(*v));
	if (v)
		memset(v, 0, sizeof(*v));
	if (!v || setup_hart(&v->hart)) {
		free(v);
		return NULL;
	}
	v->prev = v->seg_prev = &no_block;
	v->qpos = v->ring;
	v->pend_mask = 2 * ctrhw_depth(&v->hart.ctr) - 1;
	/* The gate's first stretch: 64 instructions a record (see
	 * give_pending() for how it grows). */
	v->gate_w = 64 * (ctrhw_depth(&v->hart.ctr) + 1);
	v->budget = next_budget(v);
	v->left = check_left(v);
	v->tid = syscall(SYS_gettid);
	pthread_mutex_lock(&plugin.lock);
	/* Cycles and stamps count from here, as from 0 (differences only). */
	v->flushed = v->ctr_mark = v->born = plugin.thread_time;
	if (!plugin.system && !plugin.header.entry_code) {
		/* QEMU 7.2 loads plugins before the program: these are only
		 * valid once it runs. */
		plugin.header.entry_code = qemu_plugin_entry_code();
		plugin.header.start_code = qemu_plugin_start_code();
		plugin.header.end_code = qemu_plugin_end_code();
		/* Out now: QEMU does not call at_exit() when a signal
		 * kills the program (^C, on 7.2 and 10.2 alike), and the
		 * trace up to there is still read (rvperf record converts
		 * a cut one). */
		rewrite_header();
	}
	plugin.vcpus[index] = v;
	pthread_mutex_unlock(&plugin.lock);
	return v;
}

static void at_exit(qemu_plugin_id_t id, void *udata)
{
	struct rvp_trace_record r = { .kind = RVP_TRACE_END };
	struct rvp_trace_totals t = { 0 };
	unsigned int i;

	(void)id;
	(void)udata;
	rvp_nexus_close();
	rvp_itrace_close();
	for (i = 0; i < MAX_VCPUS; i++) {
		struct vcpu *v = plugin.vcpus[i];

		if (!v)
			continue;
		drain(v);	/* other vCPUs are stopped by now */
		give_pending(v);
	}
	pthread_mutex_lock(&plugin.lock);
	process_totals(&t);
	if (perf_mode())
		perf_close();
	/* Perf records that could not all be written may end inside one:
	 * without its end the trace says so, and rvperf record keeps the
	 * whole records only. */
	if (!plugin.perf_failed) {
		out_write(&r, sizeof(r));
		out_write(&t, sizeof(t));
	}
	rewrite_header();
	pthread_mutex_unlock(&plugin.lock);
	if (plugin.stats)
		fprintf(stderr, "rvperf plugin: gate %s, %" PRIu64 " gaps, %"
			PRIu64 " unsure samples, %" PRIu64 " instructions%s\n",
			plugin.lean_gate ? "on" : "off", plugin.gaps,
			plugin.unsure, t.instructions,
			plugin.stubs ? ", generated callbacks" : "");
	else if (plugin.unsure)
		fprintf(stderr, "rvperf plugin: %" PRIu64 " samples hold only "
			"the branch records made since the gate's last unseen "
			"stretch (gate=off records them whole)\n",
			plugin.unsure);
}

static void vcpu_init(qemu_plugin_id_t id, unsigned int vcpu_index)
{
	struct rvp_garray *regs;
	unsigned int i;

	(void)id;
	(void)vcpu_index;
	if (!plugin.system || plugin.priv_reg || !qemu_plugin_get_registers)
		return;
	regs = qemu_plugin_get_registers();
	if (!regs)
		return;
	for (i = 0; i < regs->len; i++) {
		qemu_plugin_reg_descriptor *r =
			&((qemu_plugin_reg_descriptor *)regs->data)[i];

		if (r->name && !strcmp(r->name, "priv"))
			plugin.priv_reg = r->handle;
	}
	g_array_free(regs, 1);
}

static int parse_u64(const char *s, uint64_t *out)
{
	char *end;

	errno = 0;
	*out = strtoull(s, &end, 0);
	return errno || end == s || *end;
}

/* NAME=on or NAME=off into *flag; -1 (after saying why) otherwise. */
static int parse_on_off(const char *name, const char *val, bool *flag)
{
	if (!strcmp(val, "on"))
		*flag = true;
	else if (!strcmp(val, "off"))
		*flag = false;
	else {
		fprintf(stderr, "rvperf plugin: %s '%s' is not on or off\n",
			name, val);
		return -1;
	}
	return 0;
}

static int parse_args(int argc, char **argv, const char **out_path)
{
	const char *filter = NULL;
	bool have_ctl = false, gate;
	char err[200];
	uint64_t v;
	int i, nx;

	for (i = 0; i < argc; i++) {
		char *a = argv[i], *val = strchr(a, '=');

		if (!val) {
			fail("argument '%s' is not KEY=VALUE", a);
			return -1;
		}
		*val++ = '\0';
		if (!strcmp(a, "out")) {
			*out_path = val;
		} else if (!strcmp(a, "perf")) {
			plugin.perf_path = val;
		} else if (!strcmp(a, "comm")) {
			plugin.comm = val;
		} else if (!strcmp(a, "perf_at") || !strcmp(a, "perf_bst")) {
			if (parse_u64(val, !strcmp(a, "perf_at") ?
				      &plugin.perf_at : &plugin.perf_bst)) {
				fail("%s is not a number", a);
				return -1;
			}
		} else if (!strcmp(a, "itrace") || !strcmp(a, "blocks")) {
			if (plugin.itrace) {
				fail("give itrace= or blocks=, once%s", "");
				return -1;
			}
			plugin.itrace = val;
			plugin.itrace_blocks_only = !strcmp(a, "blocks");
		} else if (!strcmp(a, "filter")) {
			filter = val;
		} else if (!strcmp(a, "ctl")) {
			if (parse_u64(val, &plugin.ctl)) {
				fail("bad ctl value '%s'", val);
				return -1;
			}
			have_ctl = true;
		} else if (!strcmp(a, "depth")) {
			if (parse_u64(val, &v) || v < 16 || v > 256 ||
			    (v & (v - 1))) {
				fail("depth '%s' is not 16, 32, 64, 128 or 256", val);
				return -1;
			}
			plugin.depth = v;
		} else if (!strcmp(a, "layout")) {
			if (!strcmp(val, "ratified")) {
				plugin.layout = CTRHW_LAYOUT_RATIFIED;
			} else if (!strcmp(val, "draft")) {
				plugin.layout = CTRHW_LAYOUT_DRAFT;
			} else {
				fail("layout '%s' is not ratified or draft", val);
				return -1;
			}
		} else if (!strcmp(a, "event")) {
			int e;

			for (e = 1; e < HPMHW_EVENT_COUNT; e++)
				if (!strcmp(val, hpmhw_event_name(e)))
					break;
			if (!strcmp(val, "none")) {
				e = HPMHW_EVENT_NONE;
			} else if (e == HPMHW_EVENT_COUNT) {
				fail("unknown event '%s'", val);
				return -1;
			}
			plugin.event = e;
		} else if (!strcmp(a, "misp")) {
			if (parse_on_off(a, val, &plugin.misp))
				return -1;
		} else if (!strcmp(a, "batch")) {
			if (parse_on_off(a, val, &plugin.batch))
				return -1;
		} else if (!strcmp(a, "gate")) {
			if (parse_on_off(a, val, &gate))
				return -1;
			plugin.gate_off = !gate;
		} else if (!strcmp(a, "stats")) {
			if (parse_on_off(a, val, &plugin.stats))
				return -1;
		} else if (!strcmp(a, "stubs")) {
			bool stubs;

			if (parse_on_off(a, val, &stubs))
				return -1;
			plugin.stubs_off = !stubs;
		} else if (!strcmp(a, "noop")) {
			if (parse_on_off(a, val, &plugin.noop))
				return -1;
		} else if (!strcmp(a, "period")) {
			if (parse_u64(val, &plugin.period) || !plugin.period ||
			    plugin.period >> 47) {
				fail("bad period '%s'", val);
				return -1;
			}
		} else if ((nx = rvp_nexus_arg(a, val)) != 1) {
			if (nx)
				return -1;
		} else {
			fail("unknown argument '%s'", a);
			return -1;
		}
	}
	if (filter && have_ctl) {
		fail("give filter= or ctl=, not both%s", "");
		return -1;
	}
	if (filter && rvp_branch_filter_parse(filter, plugin.layout,
			rvp_branch_filter_mode_bit(plugin.layout, 'u') |
			(plugin.system ? rvp_branch_filter_mode_bit(plugin.layout, 'k') : 0),
			&plugin.ctl, err, sizeof(err))) {
		fail("%s", err);
		return -1;
	}
	return 0;
}

/*
 * The gate needs records close together: CTR must record every taken
 * branch and every jump, call and return (-j any), so that the last
 * depth + 1 records before a sample lie within a short stretch.
 */
static bool accepts_jumps(void)
{
	const uint32_t need = 1u << RVP_CTRDATA_TYPE_TAKEN_BRANCH | 0xFF00u;
	struct harthw *h = calloc(1, sizeof(*h));
	bool yes = h && !setup_hart(h) && (h->ctr.accept & need) == need;

	free(h);
	return yes;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info,
					   int argc, char **argv)
{
	struct rvp_trace_header h = { .magic = RVP_TRACE_MAGIC };
	const char *out_path = NULL;
	uint64_t modes;

	if (strcmp(info->target_name, "riscv64")) {
		fail("target is %s, not riscv64", info->target_name);
		return -1;
	}
	plugin.api_level = info->version.cur;
	plugin.system = info->system_emulation;
	plugin.depth = 16;
	plugin.event = HPMHW_EVENT_INSTRUCTIONS;
	plugin.period = 10007;
	plugin.batch = true;
	if (plugin.api_level >= 3)
		plugin.insn_data_v3 =
			(qemu_plugin_insn_data_v3_t)(void *)qemu_plugin_insn_data;
	else
		plugin.insn_data_v1 =
			(qemu_plugin_insn_data_v1_t)(void *)qemu_plugin_insn_data;
	if (parse_args(argc, argv, &out_path))
		return -1;
	if (!out_path) {
		fail("no out=FILE given%s", "");
		return -1;
	}
	plugin.out_path = out_path;
	plugin.out_buf = malloc(TRACE_BUFFER);
	if (!plugin.out_buf || out_open(out_path)) {
		fail("cannot create '%s'", out_path);
		return -1;
	}
	modes = rvp_branch_filter_mode_bit(plugin.layout, 'u') |
		rvp_branch_filter_mode_bit(plugin.layout, 'k') |
		rvp_branch_filter_mode_bit(plugin.layout, 'h');
	if (plugin.event == HPMHW_EVENT_MISPREDICTS)
		plugin.misp = true;
	plugin.fast_transfer = !plugin.misp &&
		(plugin.event == HPMHW_EVENT_NONE ||
		 plugin.event == HPMHW_EVENT_INSTRUCTIONS ||
		 plugin.event == HPMHW_EVENT_CYCLES);
	/* The sampled event, if the model counts it per transfer type
	 * (harthw_transfer_len()); the predictor's is not kept back. */
	switch (plugin.event) {
	case HPMHW_EVENT_BRANCHES:
		plugin.ev_types = 1u << RVP_CTRDATA_TYPE_NOT_TAKEN_BRANCH |
				  1u << RVP_CTRDATA_TYPE_TAKEN_BRANCH;
		break;
	case HPMHW_EVENT_TAKEN_BRANCHES:
		plugin.ev_types = 1u << RVP_CTRDATA_TYPE_TAKEN_BRANCH;
		break;
	case HPMHW_EVENT_CALLS:
		plugin.ev_types = 1u << RVP_CTRDATA_TYPE_INDIRECT_CALL |
				  1u << RVP_CTRDATA_TYPE_DIRECT_CALL;
		break;
	case HPMHW_EVENT_RETURNS:
		plugin.ev_types = 1u << RVP_CTRDATA_TYPE_FUNCTION_RETURN;
		break;
	case HPMHW_EVENT_OTHER_JUMPS:
		/* Every transfer type but those above (and no transfer). */
		plugin.ev_types = 0xFFF0u &
			~(1u << RVP_CTRDATA_TYPE_NOT_TAKEN_BRANCH |
			  1u << RVP_CTRDATA_TYPE_TAKEN_BRANCH |
			  1u << RVP_CTRDATA_TYPE_INDIRECT_CALL |
			  1u << RVP_CTRDATA_TYPE_DIRECT_CALL |
			  1u << RVP_CTRDATA_TYPE_FUNCTION_RETURN);
		break;
	default:	/* instructions, cycles: the budget; traps: slow path */
		plugin.ev_types = 0;
		break;
	}
	/* RAS emulation pops records: those cannot wait; nor can the
	 * predictor's view of every transfer (MISP). */
	plugin.defer = !plugin.system && plugin.batch && !plugin.misp &&
		!(plugin.ctl & (plugin.layout == CTRHW_LAYOUT_DRAFT ?
				RVP_CTR_DRAFT_MCTRCONTROL_RASEMU :
				RVP_CTR_V1_MCTRCTL_RASEMU));
	/* The common case checks each block in its callback; a sampled
	 * event counted per transfer type takes drain_defer_ev(). */
	plugin.check = plugin.defer && !plugin.ev_types;
	plugin.gate = plugin.check && !plugin.gate_off && plugin.api_level >= 3 &&
		qemu_plugin_scoreboard_new && qemu_plugin_scoreboard_find &&
		qemu_plugin_register_vcpu_tb_exec_inline_per_vcpu &&
		qemu_plugin_register_vcpu_tb_exec_cond_cb && accepts_jumps();
	if (plugin.gate &&
	    !(plugin.gate_sb = qemu_plugin_scoreboard_new(sizeof(struct gate))))
		plugin.gate = false;
	plugin.lean_gate = plugin.gate ||
		(plugin.check && !plugin.gate_off && accepts_jumps());
	/* tb_exec_lean() where every block calls back, and the gate's
	 * tb_exec_lean_gated() (the stubs' part for a seen block). */
	plugin.stubs = plugin.check && !plugin.system &&
		!plugin.stubs_off &&
		!lean_stubs_make(&(struct lean_stub_vars){
					.fast = &lean_hot.fast,
					.rem = &lean_hot.rem,
					.qpos = &lean_hot.qpos,
				 }, lean_stub_slow, MAX_BLOCK_INSNS, LEAN_SHIFT);
	plugin.active = plugin.event != HPMHW_EVENT_NONE ||
			(plugin.ctl & modes);

	h.layout = plugin.layout;
	h.ctl = plugin.ctl;
	h.depth = plugin.depth;
	h.event = plugin.event;
	h.period = plugin.period;
	h.pid = getpid();
	h.system = plugin.system;
	h.misp = plugin.misp;
	plugin.header = h;
	/* Rewritten at exit, once the program's addresses are known. */
	out_write(&h, sizeof(h));
	if (plugin.perf_path) {
		if (plugin.system) {
			fail("perf= is for user mode%s", "");
			return -1;
		}
		if (!plugin.comm)
			plugin.comm = "";
		plugin.perf_buf = malloc(TRACE_BUFFER);
		if (!plugin.perf_buf || perf_open(plugin.perf_path,
						  plugin.perf_at)) {
			fail("cannot open '%s'", plugin.perf_path);
			return -1;
		}
		ctr_branch_flag_table(plugin.branch_flags, plugin.misp,
				      ctr_branch_priv(plugin.ctl, plugin.layout));
	}

	if (plugin.itrace && rvp_itrace_open(plugin.itrace, plugin.system)) {
		fail("cannot create '%s'", plugin.itrace);
		return -1;
	}
	if (rvp_nexus_open())
		return -1;
	if (plugin.active || plugin.itrace || rvp_nexus_wanted()) {
		qemu_plugin_register_vcpu_init_cb(id, vcpu_init);
		qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	}
	if (plugin.active && !plugin.system) {
		qemu_plugin_register_vcpu_syscall_cb(id, syscall_entry);
		qemu_plugin_register_vcpu_syscall_ret_cb(id, syscall_return);
	}
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
