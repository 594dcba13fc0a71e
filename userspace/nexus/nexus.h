/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nexus.h - RISC-V N-Trace (Nexus-based trace, 1.0.0_rc7): the message
 * codec, an encoder fed by retired instructions, a decoder that rebuilds
 * the executed PC sequence from messages and program images, and the
 * configuration an encoded file carries in its header.
 *
 * No globals: every state lives in the structures the caller owns, so
 * several encoders and decoders run side by side.  See README.md for the
 * data flow and the limits.
 */
#ifndef RVPERF_NEXUS_H
#define RVPERF_NEXUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "qemu-model/core/insnhw.h"
#include "rvperf/ntrace.h"

/* TCODEs of the messages N-Trace 1.0 defines (its "Fields in Messages"). */
#define NX_TCODE_OWNERSHIP		2
#define NX_TCODE_DIRECT_BRANCH		3
#define NX_TCODE_INDIRECT_BRANCH	4
#define NX_TCODE_ERROR			8
#define NX_TCODE_PROG_TRACE_SYNC	9
#define NX_TCODE_DIRECT_BRANCH_SYNC	11
#define NX_TCODE_INDIRECT_BRANCH_SYNC	12
#define NX_TCODE_RESOURCE_FULL		27
#define NX_TCODE_INDIRECT_BRANCH_HIST	28
#define NX_TCODE_INDIRECT_BRANCH_HIST_SYNC 29
#define NX_TCODE_REPEAT_BRANCH		30
#define NX_TCODE_PROG_TRACE_CORRELATION	33
#define NX_TCODE_VENDOR_FIRST		56
#define NX_TCODE_VENDOR_LAST		62

/* SYNC reasons, B-TYPE, RCODE and EVCODE values used here. */
#define NX_SYNC_EXTERNAL_TRIGGER	0
#define NX_SYNC_EXIT_RESET		1
#define NX_SYNC_PERIODIC		2
#define NX_SYNC_EXIT_DEBUG		3
#define NX_SYNC_ICNT_OVERFLOW		4
#define NX_SYNC_TRACE_ENABLE		5
#define NX_SYNC_FIFO_OVERRUN		7
#define NX_BTYPE_INDIRECT		0
#define NX_BTYPE_TRAP			1
#define NX_BTYPE_EXCEPTION		2
#define NX_BTYPE_INTERRUPT		3
#define NX_RCODE_ICNT			0
#define NX_RCODE_HIST			1
#define NX_RCODE_HIST_REPEAT		2
#define NX_EVCODE_DEBUG			0
#define NX_EVCODE_TRACE_DISABLED	4

/* The longest message N-Trace allows (its transmission chapter). */
#define NX_MAX_MESSAGE_BYTES		38

enum nx_mode { NX_MODE_BTM = 3, NX_MODE_HTM = 6 };	/* trTeInstMode */

/* Implicit return (trTeInstImplicitReturnMode). */
enum nx_return_mode {
	NX_RETURN_OFF = 0,
	NX_RETURN_COUNTER = 1,		/* count of nested calls */
	NX_RETURN_PARTIAL = 2,		/* stack of the low 32 address bits */
	NX_RETURN_STACK = 3,		/* stack of full return addresses */
};

/* Periodic synchronisation (trTeInstSyncMode): what sync_period counts. */
enum nx_sync_mode { NX_SYNC_OFF = 0, NX_SYNC_MESSAGES = 1, NX_SYNC_ICNT = 2 };

#define NX_REPEAT_BRANCH	(1u << 0)	/* RepeatBranch messages */
#define NX_REPEAT_HISTORY	(1u << 1)	/* ResourceFull RCODE=2 */

struct nx_config {
	enum nx_mode mode;
	unsigned int xlen;		/* 32 or 64 */
	unsigned int src_bits;		/* SRC field width; 0: no SRC */
	unsigned int src_id;		/* our SRC (encoder); decoder: filter */
	bool tstamp;			/* TSTAMP fields (trTsEnable) */
	bool ext_addr_msb;		/* trTeInstExtendAddrMSB */
	enum nx_return_mode ret_mode;
	unsigned int ret_depth;		/* stack depth or counter limit, 1-32 */
	unsigned int repeat;		/* NX_REPEAT_* */
	bool seq_jump;			/* trTeInstEnSequentialJump */
	bool all_jumps;			/* trTeInstEnAllJumps */
	enum nx_sync_mode sync_mode;
	uint32_t sync_period;		/* messages or I-CNT units */
	bool ownership;			/* trTeContext */
	unsigned int icnt_bits;		/* I-CNT overflows past 1 << icnt_bits */
	bool icnt_sync;			/* HTM: overflow as IndirectBranchHistSync
					 * SYNC=4 when HIST holds bits */
	unsigned int hist_bits;		/* HIST overflows at 1 << hist_bits */
	unsigned int start_sync;	/* SYNC of the first ProgTraceSync */
	unsigned int exts;		/* INSNHW_* of the traced hart */
};

/* The defaults: HTM, RV64, no SRC/TSTAMP, no optimisation; the I-CNT and
 * HIST limits of the spec's simple encoder. */
void nx_config_default(struct nx_config *cfg);
/* Checks ranges; 0, or -1 with a reason in ERR. */
int nx_config_check(const struct nx_config *cfg, char *err, size_t errlen);

/* ---- the file header: "rvperf-nexus 1\n", "key=value\n" lines, "end\n".
 * A raw message stream never starts with 'r' (0x72: MSEO=10 is reserved),
 * so a file with and one without the header are told apart. */
#define NX_HEADER_MAGIC "rvperf-nexus 1\n"
/* Writes the header into BUF (at least 1024 bytes); returns its length. */
size_t nx_header_format(const struct nx_config *cfg, char *buf, size_t len);
/* Parses a header at the start of DATA: its length (0: no header), or -1
 * with a reason in ERR (CFG then holds what was read). */
long nx_header_parse(const uint8_t *data, size_t len, struct nx_config *cfg,
		     char *err, size_t errlen);
/* Sets one option by its header key ("mode", "callstack", ...): 0 or -1. */
int nx_config_set(struct nx_config *cfg, const char *key, const char *value);

/* ---- messages */
struct nx_msg {
	unsigned int tcode;
	unsigned int src;
	unsigned int sync, btype;
	unsigned int etype, rcode, evcode, cdf;
	uint64_t icnt;
	/* F-ADDR: the full address; U-ADDR: the XOR with the reference
	 * (both with bit 0 clear, MSB extension already applied). */
	uint64_t addr;
	uint64_t hist;
	/* PROCESS (Ownership), ECODE (Error), B-CNT (RepeatBranch),
	 * RDATA[0] (ResourceFull). */
	uint64_t data;
	uint64_t rdata1;		/* HREPEAT (RCODE=2) */
	uint64_t tstamp;
	bool has_tstamp;
	unsigned int n_vars;		/* variable fields read (unknown TCODEs) */
	size_t offset;			/* where the message starts */
	size_t size;			/* bytes */
};

const char *nx_tcode_name(unsigned int tcode);
/* Whether TCODE carries SYNC + F-ADDR (TCODEs 9, 11, 12, 29). */
static inline bool nx_tcode_is_sync(unsigned int tcode)
{
	return tcode < 32 && ((1u << NX_TCODE_PROG_TRACE_SYNC |
			       1u << NX_TCODE_DIRECT_BRANCH_SYNC |
			       1u << NX_TCODE_INDIRECT_BRANCH_SYNC |
			       1u << NX_TCODE_INDIRECT_BRANCH_HIST_SYNC) >> tcode & 1);
}

/* Encodes M into OUT (NX_MAX_MESSAGE_BYTES + a margin: 48 bytes);
 * returns the length. */
size_t nx_msg_encode(const struct nx_config *cfg, const struct nx_msg *m,
		     uint8_t *out);

/* Message reader over a byte buffer.  Survives any input: idle bytes are
 * skipped, a message of any length is scanned without storage (a run of
 * zero bytes is one long field), a bad message is reported with its
 * offset and the reader goes on at the next message start. */
enum nx_read_status {
	NX_READ_MSG = 0,		/* *msg holds a message */
	NX_READ_END = 1,		/* no more bytes */
	NX_READ_BAD = 2,		/* *msg: offset/size of the bad bytes */
};
struct nx_reader {
	const uint8_t *data;
	size_t len, pos;
	size_t base;			/* offset of data[0] in the file */
	struct nx_config cfg;
	char err[128];			/* why the last NX_READ_BAD */
	bool cut;			/* it was: the data ended inside
					 * the message (nothing follows) */
};
void nx_reader_init(struct nx_reader *r, const struct nx_config *cfg,
		    const uint8_t *data, size_t len, size_t base);
enum nx_read_status nx_read(struct nx_reader *r, struct nx_msg *msg);

/* ---- encoder */

/* One retired instruction at the trace ingress port. */
struct nx_insn {
	uint64_t addr;
	unsigned int len;		/* bytes: 2 or 4 (any even) */
	unsigned int itype;		/* RVP_ITYPE_* (3- or 4-bit port) */
	unsigned int priv;		/* 0 U, 1 S, 3 M */
	bool v;
	bool seq_inferable;		/* jalr right after lui/auipc of rs1 */
	uint64_t context;		/* scontext, reported after syncs */
	uint64_t tstamp;
};

typedef int (*nx_sink_fn)(void *ctx, const uint8_t *data, size_t len);

/* The shifts an IndirectBranchHist's bytes take from the highest set bit
 * of each field (encoder.c, ibh_u()). */
struct nx_ibh_tab {
	uint8_t i6[64], i8[64], f6[64], f8[64], h8[64], tc[64];
};

struct nx_encoder {
	/* What the per-block way (nx_ingress_block()) reads and writes at
	 * most blocks, first and together: two cache lines where the
	 * struct starts on one (rvperf's plugin allocates it so), instead
	 * of six spread behind the buffer, which QEMU's own work between
	 * two blocks pushes out.  I-CNT and HIST accumulated, the limit of
	 * each, the reference address for U-ADDR. */
	uint64_t icnt, icnt_limit;
	uint64_t hist, hist_limit;
	uint64_t ref_addr;
	size_t fill;
	uint64_t n_insns;
	/* icnt_limit while the per-block way may write a branch message
	 * itself (quick, fast_ok, nothing held, no on_msg), else 0: its one
	 * test of I-CNT answers the others too; and 8 (a message's bit)
	 * when not fast_ok, else 0, or-ed to its action (block_flags_set(),
	 * which the per-block way calls after its general way: feed the
	 * encoder nothing else between two blocks). */
	uint64_t msg_limit;
	unsigned int lane_or;
	bool fast;			/* the configuration allows nx_enc_insn()'s
					 * inline way */
	bool fast_ok;			/* and now: started, no message waiting */
	bool quick;			/* common messages written directly */
	bool pdep;			/* and the CPU's PDEP makes their bytes
					 * (x86-64 BMI2 where it is fast; not
					 * with RVPERF_NEXUS_NO_PDEP set) */
	/* The inline way per itype: 0 not there; else 1 | shift << 1 |
	 * bit << 2 (HIST = HIST << shift | bit; I-CNT always), or 1 | 8 |
	 * TCODE << 8: that message (B-TYPE 0) waits for the next address. */
	uint16_t fast_tab[16];
	uint64_t n_msgs;		/* after nx_enc_finish() */
	uint64_t n_bytes;		/* flushed; with fill, all (after
					 * nx_enc_finish(): all) */
	uint64_t addr_mask;		/* XLEN's addresses */
	/* A full HIST held back for repeated history, and its repeats. */
	uint64_t held_hist, held_repeat;
	/* Called with every message written (tests, dump); may be NULL;
	 * set after nx_enc_init(). */
	void (*on_msg)(void *ctx, const struct nx_msg *m);
	void *on_msg_ctx;
	struct nx_config cfg;
	nx_sink_fn sink;
	void *sink_ctx;
	int error;			/* a sink failure, sticky */
	/* The message waiting for the next address. */
	unsigned int next_tcode, next_btype, next_sync;
	unsigned int pending_sync;	/* SYNC of a pending Sync message */
	uint64_t next_tstamp;
	bool started;
	/* The last branch message, for RepeatBranch, and how often it has
	 * repeated since. */
	struct nx_msg last_branch;
	uint64_t last_target;
	bool have_last_branch;
	uint64_t bcnt;
	uint64_t held_tstamp;
	/* Repeated history found as NexRv finds it (repeat=3): a full HIST
	 * is dealt with at the next instruction (rf_due), the held pattern
	 * may be cut to 30 or 28 bits (held_shift 1 or 3). */
	bool nexrv_hist, rf_due;
	unsigned int held_shift;
	/* Implicit return: the stack (ring) and its use. */
	uint64_t stack[32];
	unsigned int sp, depth;
	/* Periodic sync. */
	uint64_t since_sync;
	bool sync_due;
	/* What Ownership last said. */
	unsigned int priv;
	bool v;
	uint64_t context;
	bool owner_known;
	uint64_t last_tstamp, insn_tstamp;
	uint64_t pending_ret;		/* the stack's prediction */
	/* Statistics. */
	uint64_t by_tcode[64];
	/* A copy of encoder.c's table, here so that the register that
	 * addresses the fields above addresses it too (a shared object's
	 * own table takes one more, and more saved registers). */
	struct nx_ibh_tab ibh;
	uint8_t buf[1 << 16];
	uint8_t buf_slack[8];		/* what the per-block way may write
					 * past the fill, were it at the end */
};

/* SINK receives the bytes (never the header); returns 0 or -1. */
int nx_enc_init(struct nx_encoder *e, const struct nx_config *cfg,
		nx_sink_fn sink, void *ctx);
/* Retires one instruction. */
void nx_enc_insn_slow(struct nx_encoder *e, const struct nx_insn *in);

/* The common case inline: an instruction that only adds to I-CNT and
 * HIST (linear, an HTM branch, a BTM branch not taken, a direct jump or
 * call that needs neither the stack nor all-jumps mode) or leaves a
 * message of B-TYPE 0 for the next one (a BTM branch taken, an indirect
 * jump that needs neither the stack nor sequential-jump inference), no
 * message waiting, nothing reported per instruction; the rest, and
 * whatever overflows, goes the general way (nx_enc_insn_slow). */
static inline void nx_enc_insn(struct nx_encoder *e, const struct nx_insn *in)
{
	unsigned int a = e->fast_tab[in->itype & 15];
	uint64_t icnt = e->icnt + in->len / 2, hist;

	if (!e->fast_ok || !a)
		goto slow;
	if (a & 8) {
		if (icnt > e->icnt_limit)
			goto slow;
		e->icnt = icnt;
		e->next_tcode = a >> 8;
		e->next_btype = 0;
		e->next_tstamp = in->tstamp;
		e->insn_tstamp = in->tstamp;
		e->n_insns++;
		e->fast_ok = false;
		return;
	}
	hist = e->hist;
	if (a & 2)
		hist = hist << 1 | (a >> 2 & 1);
	if (icnt > e->icnt_limit || (hist & e->hist_limit))
		goto slow;
	e->icnt = icnt;
	e->hist = hist;
	e->insn_tstamp = in->tstamp;
	e->n_insns++;
	return;
slow:
	nx_enc_insn_slow(e, in);
}
/* N linear instructions of UNITS in all, none the first since a message:
 * 0, or -1 (nothing done) when they must go one by one. */
int nx_enc_linear(struct nx_encoder *e, uint64_t units, uint64_t n,
		  uint64_t tstamp);
/* Messages were lost (a FIFO overrun): Error now, a sync next. */
void nx_enc_overrun(struct nx_encoder *e);
/* Trace stops: ProgTraceCorrelation with EVCODE, then the bytes flushed.
 * Returns 0, or -1 if the sink failed. */
int nx_enc_finish(struct nx_encoder *e, unsigned int evcode);

struct nx_itrace_block;

/* ---- ingress: raw instructions (address + encoding) to nx_insn, with the
 * shared classifier.  An instruction is known once the next one's address
 * is: that says whether a branch was taken, and a successor the
 * instruction cannot have means a trap came between (itype interrupt). */
struct nx_ingress {
	/* The per-block way's fields first (see struct nx_encoder): the
	 * held instruction, when (quicker, no sequential jumps) it is the
	 * last of block QB, whose q_* say how its successor's address
	 * decides its itype; its mode and instruction count. */
	const struct nx_itrace_block *qb;
	unsigned int priv;
	uint64_t tstamp;
	bool have;
	uint64_t addr;
	uint32_t word;
	/* The held instruction's class, when the caller knew it. */
	struct insnhw_class cls;
	bool cls_known;
	/* The previous retired instruction, for sequential jumps. */
	bool prev_valid;
	uint64_t prev_addr;
	uint32_t prev_word;
	struct nx_config cfg;
};
void nx_ingress_init(struct nx_ingress *g, const struct nx_config *cfg);
/* Gives one executed instruction; when the previous one is now known it
 * is written to *OUT and 1 returned, else 0. */
int nx_ingress_step(struct nx_ingress *g, uint64_t addr, uint32_t word,
		    unsigned int priv, uint64_t tstamp, struct nx_insn *out);
/* The last instruction (its successor never ran): 1 and *OUT, or 0. */
int nx_ingress_flush(struct nx_ingress *g, struct nx_insn *out);

/* ---- program images */
struct nx_image_seg;
struct nx_image {
	struct nx_image_seg *segs;
	unsigned int n_segs;
	struct nx_image_seg *last;	/* lookup cache */
	struct nx_config cfg;		/* xlen, exts, seq_jump */
};
void nx_image_init(struct nx_image *img, const struct nx_config *cfg);
/* Adds the executable PT_LOAD segments of ELF; BASE: where its lowest
 * segment is loaded (ELF_NATIVE_BASE: at its own addresses).  0 or -1
 * with a reason in ERR. */
#define NX_ELF_NATIVE_BASE UINT64_MAX
int nx_image_add_elf(struct nx_image *img, const char *path, uint64_t base,
		     char *err, size_t errlen);
/* ELF's class as an XLEN (32 or 64), or -1 with a reason in ERR. */
int nx_elf_xlen(const char *path, char *err, size_t errlen);
/* Bytes of code in the images (what a trace can walk). */
uint64_t nx_image_code_bytes(const struct nx_image *img);
/* The executable PT_LOAD segments of ELF at its own addresses, what
 * nx_image_add_elf() would load, without loading them: up to MAX
 * [start, end) ranges, their number, or -1 with a reason in ERR. */
int nx_image_exec_ranges(const char *path, uint64_t (*r)[2], int max,
			 char *err, size_t errlen);
/* Adds LEN bytes of code at ADDR (copied). */
int nx_image_add_code(struct nx_image *img, uint64_t addr,
		      const uint8_t *code, size_t len);
void nx_image_free(struct nx_image *img);
/* Reads the instruction at ADDR: its encoding, or -1 outside the image. */
int nx_image_word(struct nx_image *img, uint64_t addr, uint32_t *word);

/* ---- decoder */

/* A run of consecutive instructions [start, end) executed in order. */
struct nx_block {
	uint64_t start, end;
	uint64_t n_insns;
	uint64_t tstamp;		/* of the message that reported it */
	unsigned int priv;
	bool v;
	uint64_t context;
	enum nx_block_end {
		NX_END_NONE,		/* runs on, or the trace stops */
		NX_END_TRANSFER,	/* its last instruction jumped (taken
					 * branch, jump, call, return), maybe to
					 * the next address */
		NX_END_TRAP,		/* a trap came after its last one */
	} end_kind;
};

enum nx_event {
	NX_EV_SYNC,			/* decoding (re)started at a sync */
	NX_EV_ERROR_MSG,		/* an Error message */
	NX_EV_DAMAGE,			/* bad bytes or an impossible path */
	NX_EV_OWNERSHIP,
	NX_EV_STOP,			/* ProgTraceCorrelation */
	NX_EV_IGNORED,			/* vendor-defined message */
	NX_EV_TRUNCATED,		/* the data ends inside the message at
					 * offset: the trace's end is missing
					 * (counted as damage) */
};

struct nx_decoder_ops {
	/* Either or both; a non-zero return stops the decoder. */
	int (*block)(void *ctx, const struct nx_block *b);
	int (*insn)(void *ctx, uint64_t pc, unsigned int len);
	/* Messages and events (offset: of the message in the file). */
	void (*msg)(void *ctx, const struct nx_msg *m, uint64_t abs_tstamp);
	void (*event)(void *ctx, enum nx_event ev, size_t offset,
		      const char *what);
	void *ctx;
};

struct nx_hist_run {
	uint64_t bits;			/* the bits, first one the highest */
	unsigned int n;			/* how many */
	uint64_t repeat;		/* times left, including this one */
	unsigned int pos;		/* bits of this repeat used */
};

struct nx_decoder {
	struct nx_config cfg;
	struct nx_image *img;
	struct nx_decoder_ops ops;
	bool synced;
	uint64_t pc;
	uint64_t ref_addr;
	uint64_t tstamp;
	unsigned int priv;
	bool v;
	uint64_t context;
	/* I-CNT reported but not walked yet (ResourceFull). */
	uint64_t credit;
	/* HIST bits reported, not used yet. */
	struct nx_hist_run hist[64];
	unsigned int hist_head, hist_n;
	/* Return stack (all implicit return modes keep addresses). */
	uint64_t stack[32];
	unsigned int sp, depth;
	/* The last branch message's effect, for RepeatBranch. */
	struct nx_msg last_branch;
	uint64_t last_target;
	bool have_last_branch;
	/* I-CNT walked ahead of its report (HIST bits lead the way). */
	uint64_t owed;
	/* The block being walked. */
	uint64_t blk_start, blk_n;
	/* Sequential jump: the lui/auipc just walked, the jalr it feeds. */
	uint64_t seq_pc, seq_value;
	unsigned int seq_reg;
	bool seq_valid;
	bool stop;
	/* nx_dec_run's data ended with a ProgTraceCorrelation (the trace
	 * stopped there): without it, the trace's end is missing. */
	bool ended;
	size_t msg_offset;
	/* Statistics. */
	uint64_t n_insns, n_msgs, n_damage, n_skipped;
	char err[160];
};

void nx_dec_init(struct nx_decoder *d, const struct nx_config *cfg,
		 struct nx_image *img, const struct nx_decoder_ops *ops);
/* Decodes a whole message stream (BASE: its offset in the file).  Returns
 * the number of damage events (0: clean), or -1 if a callback stopped it. */
long nx_dec_run(struct nx_decoder *d, const uint8_t *data, size_t len,
		size_t base);
/* Feeds one message (the streaming form). */
int nx_dec_msg(struct nx_decoder *d, const struct nx_msg *m);

/* ---- the TCG plugin's instruction trace (itrace=FILE, rvp_itrace.h): the
 * executed instructions of the first vCPU it names, in order. */
struct nx_itrace_block {
	/* What the per-block way reads at most executions comes first, in
	 * the first 64 bytes (one cache line where the block is allocated
	 * on one, as rvperf's plugin does). */
	uint64_t start;
	/* How the last instruction resolves from the address that follows
	 * (q_kind: a conditional branch, taken at q_target, not at q_fall;
	 * a direct jump, to q_target; a linear one, to q_fall; anything
	 * else, q_itype wherever it goes; 0: sequential jumps are
	 * configured, ask resolve()), and the same as selects (q_kind not
	 * 0): the itype at q_target, else at q_fall, else; the last's
	 * units. */
	uint64_t q_target, q_fall;
	uint32_t n;
	/* The units of all but the last. */
	uint32_t lin_units;
	/* nx_ingress_block()'s notes: -1 not looked at yet, 1 when every
	 * instruction but the last is linear; then the rest below.  Until
	 * then, and when not simple, lin_units is UINT32_MAX (more than
	 * I-CNT holds: the per-block way's one test). */
	int8_t simple;
	uint8_t q_it_target, q_it_fall, q_it_else, q_units;
	uint8_t q_kind, q_itype, q_len;
	/* What the encoder's inline way does (nx_encoder.fast_tab, as
	 * encoder.c's lane() puts it) with the itypes at q_target, at q_fall
	 * and else, in 16-bit lanes: one load and two selects per
	 * execution, where the itypes would take three loads, their selects
	 * and a table lookup. */
	uint64_t q_acts;
	const uint32_t *words;
	/* The first's units, the middle's, the last's address and class,
	 * the one before the last. */
	uint32_t first_units, mid_units;
	uint64_t last_addr;
	struct insnhw_class last_cls;
	uint32_t prev_word;
	uint64_t prev_addr;
};
struct nx_itrace {
	const uint32_t *w;
	size_t nw, pos;
	struct nx_itrace_block **blocks;	/* by id; each stays put */
	size_t n_blocks;
	int vcpu, want_vcpu;
	bool other_vcpus;		/* more than one vCPU ran */
	bool system;			/* recorded in system mode */
	uint32_t priv;
	struct nx_itrace_block *cur;
	uint32_t cur_i;
	uint64_t cur_pc;
};
/* DATA stays the caller's; 0, or -1 when it is not an instruction trace. */
int nx_itrace_open(struct nx_itrace *it, const uint8_t *data, size_t len);
/* The next instruction: 1, 0 at the end, -1 when the file is damaged. */
int nx_itrace_next(struct nx_itrace *it, uint64_t *pc, uint32_t *word,
		   unsigned int *priv);
/* The next executed block (all its instructions), NULL at the end or
 * on damage (*BAD set).  Do not mix with nx_itrace_next() mid-block. */
struct nx_itrace_block *nx_itrace_next_block(struct nx_itrace *it,
					     unsigned int *priv, bool *bad);
void nx_itrace_free(struct nx_itrace *it);

/* Feeds a whole executed block through the ingress into the encoder: the
 * same messages as its instructions one by one, but a block whose
 * instructions before the last are all linear costs about as much as one
 * instruction.  TSTAMP is the block's first instruction's. */
void nx_ingress_block(struct nx_ingress *g, struct nx_encoder *e,
		      struct nx_itrace_block *b, unsigned int priv,
		      uint64_t tstamp);
/* nx_ingress_block(G, E, B, 0, 0), a little quicker, for a trace without
 * timestamps whose every block is U-mode and given this way (the plugin's
 * user mode): without PDEP, or with it for an encoder whose pdep is set
 * (the caller chooses once instead of a test per message). */
void nx_ingress_block_u(struct nx_ingress *g, struct nx_encoder *e,
			struct nx_itrace_block *b);
void nx_ingress_block_u_pdep(struct nx_ingress *g, struct nx_encoder *e,
			     struct nx_itrace_block *b);

#endif /* RVPERF_NEXUS_H */
