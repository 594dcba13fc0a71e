/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tv.h - the tandem-verification trace protocol (Bluespec's Trace Protocol
 * Specification, draft 2018-11-20): encoder, streaming decoder, trace
 * configuration, register names, shadow state.  Host C, no globals: every
 * function works on the objects it is given.
 *
 * A trace is a byte stream of items (an opcode byte and its payload).  The
 * items between a begin-group and the next end-group (or begin-group) are
 * one atomic state update; the decoder hands them out a group at a time.
 * Payload widths depend on XLEN, FLEN and MLEN, which the protocol leaves
 * to an agreement between the two ends: here that is struct tv_config,
 * which also names the state elements a partial trace never carries.
 */
#ifndef RVPERF_TV_H
#define RVPERF_TV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Opcodes (the trace format table). */
enum tv_op {
	TV_OP_BEGIN_GROUP = 1,
	TV_OP_END_GROUP = 2,
	TV_OP_INCR_PC = 3,
	TV_OP_FULL_REG = 4,
	TV_OP_INCR_REG_ADD = 5,	/* 8-bit signed offset */
	TV_OP_INCR_REG_OR = 6,	/* 8-bit OR mask */
	TV_OP_ADDL_STATE = 7,
	TV_OP_MEM_REQ = 8,
	TV_OP_MEM_RSP = 9,
	TV_OP_HART_RESET = 10,
	TV_OP_STATE_INIT = 11,
	TV_OP_INSN16 = 16,
	TV_OP_INSN32 = 17,
};

/* Additional-state identifiers. */
enum tv_addl {
	TV_AS_PRIV = 1,
	TV_AS_PADDR = 2,
	TV_AS_EADDR = 3,
	TV_AS_STORE8 = 4,
	TV_AS_STORE16 = 5,
	TV_AS_STORE32 = 6,
	TV_AS_STORE64 = 7,
	TV_AS_MTIME = 8,
	TV_AS_PC_PADDR = 9,
	TV_AS_PC = 10,
};

/* Memory request operations (4 bits) and sizes (4 bits: 1 << n bytes). */
enum tv_mem_op {
	TV_MEM_LOAD = 0,
	TV_MEM_STORE = 1,
	TV_MEM_LR = 2,
	TV_MEM_SC = 3,
	TV_MEM_AMOSWAP = 4,
	TV_MEM_AMOADD = 5,
	TV_MEM_AMOXOR = 6,
	TV_MEM_AMOAND = 7,
	TV_MEM_AMOOR = 8,
	TV_MEM_AMOMIN = 9,
	TV_MEM_AMOMAX = 10,
	TV_MEM_AMOMINU = 11,
	TV_MEM_AMOMAXU = 12,
	TV_MEM_FETCH = 13,
};

/* Register addresses: the Debug spec's 16-bit space. */
#define TV_REG_CSR(n)	((uint16_t)(n))		/* 0x0000-0x0fff */
#define TV_REG_GPR(n)	((uint16_t)(0x1000 + (n)))
#define TV_REG_FPR(n)	((uint16_t)(0x1020 + (n)))
#define TV_REG_IS_GPR(a)	((a) >= 0x1000 && (a) < 0x1020)
#define TV_REG_IS_FPR(a)	((a) >= 0x1020 && (a) < 0x1040)

/*
 * State elements a partial trace may lack (tv_config.absent).  The decoder
 * does not look at them; the shadow state leaves them out of comparisons
 * and copies (the partial-trace section).
 */
enum tv_elem {
	TV_EL_PC = 1u << 0,	/* pc (incr-pc and the pc item) */
	TV_EL_INSN = 1u << 1,	/* instruction items */
	TV_EL_GPR = 1u << 2,
	TV_EL_FPR = 1u << 3,
	TV_EL_CSR = 1u << 4,
	TV_EL_PRIV = 1u << 5,
	TV_EL_PADDR = 1u << 6,	/* physical data address */
	TV_EL_EADDR = 1u << 7,	/* effective data address */
	TV_EL_STDATA = 1u << 8,	/* memory store data (ids 4-7) */
	TV_EL_MEM = 1u << 9,	/* memory contents (requests, responses) */
	TV_EL_MTIME = 1u << 10,
	TV_EL_PC_PADDR = 1u << 11,
};
#define TV_EL_ALL 0xfffu

struct tv_config {
	unsigned int xlen;	/* 32 or 64 */
	unsigned int flen;	/* 0, 32 or 64 */
	unsigned int mlen;	/* 32, 34 or 64 bits (fields round up to bytes) */
	unsigned int absent;	/* TV_EL_* bits */
};

/* RV64 with F/D and 64-bit addresses, nothing absent. */
void tv_config_default(struct tv_config *cfg);
/* Checks the widths; returns 0 or -1 with a message in ERR. */
int tv_config_check(const struct tv_config *cfg, char *err, size_t errlen);
/*
 * The configuration as one text line, "xlen=64 flen=64 mlen=64
 * absent=gpr,csr": what record and from-elf write next to a trace
 * (FILE.cfg) and every command reads back.  Parse accepts any subset of
 * the keys on top of what CFG already holds.
 */
size_t tv_config_format(const struct tv_config *cfg, char *buf, size_t len);
int tv_config_parse(struct tv_config *cfg, const char *text, char *err,
		    size_t errlen);
/* "gpr", "csr", ...: one TV_EL_* bit, 0 when unknown. */
unsigned int tv_elem_by_name(const char *name);
const char *tv_elem_name(unsigned int bit);

/* Payload bytes of an MLEN field. */
static inline unsigned int tv_mlen_bytes(const struct tv_config *cfg)
{
	return (cfg->mlen + 7) / 8;
}

/* ------------------------------------------------------------- items */

/* One decoded item.  Which members mean something depends on op. */
struct tv_item {
	uint8_t op;		/* enum tv_op */
	uint8_t id;		/* TV_OP_ADDL_STATE: enum tv_addl;
				 * TV_OP_MEM_REQ: enum tv_mem_op */
	uint8_t size;		/* memory request/response: size code */
	uint8_t result;		/* memory response: 0 success, 1 failure */
	uint16_t reg;		/* register items: address */
	bool has_data;		/* memory request/response carries data */
	uint64_t value;		/* register value, increment (sign-extended)
				 * or OR mask, additional state, instruction,
				 * memory address */
	uint64_t data;		/* memory data */
	uint64_t offset;	/* byte offset of the opcode in the stream */
};

/* Does a memory request of OP carry data / its response? */
bool tv_mem_req_has_data(unsigned int op);
bool tv_mem_rsp_has_data(unsigned int op);
/* Payload bytes of an additional-state identifier, 0 when unknown. */
unsigned int tv_addl_bytes(const struct tv_config *cfg, unsigned int id);
/* Payload bytes of a full register at ADDR (XLEN, or FLEN for FPRs). */
unsigned int tv_reg_bytes(const struct tv_config *cfg, uint16_t addr);

/* ------------------------------------------------------------- encoder */

/*
 * The encoder appends to a growing buffer the caller owns and frees
 * (tv_buf_free).  Each function writes one item; tv_enc_item writes any
 * decoded item back, which is how a trace round-trips.  Values wider than
 * their field are truncated to it.
 */
struct tv_buf {
	uint8_t *data;
	size_t len, cap;
	bool oom;		/* an allocation failed: data is incomplete */
};
void tv_buf_free(struct tv_buf *b);

void tv_enc_op(struct tv_buf *b, enum tv_op op);	/* payload-less ops */
/* Bytes already encoded (a precomputed run of items). */
void tv_enc_raw(struct tv_buf *b, const uint8_t *bytes, size_t n);
void tv_enc_full_reg(struct tv_buf *b, const struct tv_config *cfg,
		     uint16_t addr, uint64_t value);
void tv_enc_incr_reg_add(struct tv_buf *b, uint16_t addr, int8_t delta);
void tv_enc_incr_reg_or(struct tv_buf *b, uint16_t addr, uint8_t mask);
void tv_enc_addl(struct tv_buf *b, const struct tv_config *cfg,
		 enum tv_addl id, uint64_t value);
/* SIZE is the size code (0-3); DATA is written for stores, sc and amos. */
void tv_enc_mem_req(struct tv_buf *b, const struct tv_config *cfg,
		    uint64_t addr, enum tv_mem_op op, unsigned int size,
		    uint64_t data);
/* HAS_DATA: a load, lr, amo or fetch response (then SIZE bytes follow). */
void tv_enc_mem_rsp(struct tv_buf *b, unsigned int size, unsigned int result,
		    bool has_data, uint64_t data);
/* 16-bit or 32-bit instruction item, from the instruction's low bits. */
void tv_enc_insn(struct tv_buf *b, uint32_t insn);
void tv_enc_item(struct tv_buf *b, const struct tv_config *cfg,
		 const struct tv_item *it);

/* ------------------------------------------------------------- decoder */

enum tv_mode {
	TV_STRICT,	/* reject what the notes forbid */
	TV_LENIENT,	/* forgive what Bluespec's dump tool forgave */
};

/* A group: the items of one begin/end pair (or ungrouped items). */
struct tv_group {
	uint64_t index;		/* 0, 1, ... in stream order */
	uint64_t offset;	/* byte offset of its first item */
	uint64_t end_offset;	/* byte offset just past it */
	const struct tv_item *items;	/* valid until the next call */
	size_t n_items;
	bool grouped;		/* false: items outside begin/end */
	bool has_insn, has_reset, has_init, has_incr_pc;
	/* Lenient mode: what was forgiven in it (TV_FORGAVE_*). */
	unsigned int forgiven;
};
#define TV_FORGAVE_ORPHAN_END	(1u << 0)
#define TV_FORGAVE_NESTED_BEGIN	(1u << 1)
#define TV_FORGAVE_LATE_RSP	(1u << 2)

struct tv_error {
	uint64_t offset;	/* of the offending byte */
	char msg[120];
};

struct tv_decoder {
	struct tv_config cfg;
	enum tv_mode mode;
	/* Input: either the caller's buffer or our own copy of fed bytes. */
	const uint8_t *in;
	size_t in_len, pos;
	uint8_t *own;		/* tv_dec_feed()'s buffer */
	size_t own_cap;
	uint64_t base;		/* stream offset of in[0] */
	bool final;		/* no more bytes will come */
	uint64_t groups;	/* groups yielded so far */
	struct tv_item *items;
	size_t items_cap;
	struct tv_error err;
	bool after_error;	/* next call first skips to a begin-group */
	/* Lenient: what was forgiven before the group being put together,
	 * kept over TV_MORE (the bytes forgiven are consumed by then). */
	unsigned int forgiven;
	uint8_t reg_bytes[2];
	uint8_t addl_bytes[16];
};

void tv_dec_init(struct tv_decoder *d, const struct tv_config *cfg,
		 enum tv_mode mode);
void tv_dec_free(struct tv_decoder *d);
/* The whole trace at once (not copied: keep it alive while decoding). */
void tv_dec_set_buffer(struct tv_decoder *d, const uint8_t *buf, size_t len);
/* Or chunk by chunk (copied); tv_dec_finish() says no more will come. */
int tv_dec_feed(struct tv_decoder *d, const uint8_t *buf, size_t len);
void tv_dec_finish(struct tv_decoder *d);

enum tv_status {
	TV_GROUP = 1,	/* *g holds the next group */
	TV_END = 0,	/* the trace ended cleanly */
	TV_MORE = -1,	/* a group is incomplete: feed more bytes */
	TV_ERROR = -2,	/* d->err says what and where; calling again
			 * continues at the next begin-group after it */
};
enum tv_status tv_dec_next(struct tv_decoder *d, struct tv_group *g);

/* ------------------------------------------------------------- names */

/* "x3/gp", "ft7", "mie", "csr0x7c0": the name of a register address. */
const char *tv_reg_name(uint16_t addr, char *buf, size_t len);
/* The address of a name (x3, gp, f7, ft7, mie, csr0x7c0), -1 if none. */
int tv_reg_by_name(const char *name);
const char *tv_op_name(unsigned int op);
const char *tv_addl_name(unsigned int id);
const char *tv_mem_op_name(unsigned int op);


/* ------------------------------------------------------------- shadow */

/*
 * The shadow state of the tandem-verification section: every state change
 * of a trace applied to a copy of the hart's state, group by group.  Each
 * apply also lists the elements the group touched, so two states can be
 * compared where either changed (the efficient comparison the section
 * allows: after a comparison both agree everywhere else).
 */
enum tv_kind {
	TV_K_PC, TV_K_REG, TV_K_PRIV, TV_K_PADDR, TV_K_EADDR, TV_K_PC_PADDR,
	TV_K_STDATA, TV_K_MTIME, TV_K_MEM, TV_K_INSN,
};

/* One state element: a register, a memory range (up to 8 bytes), ... */
struct tv_elem_ref {
	uint8_t kind;		/* enum tv_kind */
	uint8_t size;		/* TV_K_MEM: bytes */
	uint16_t reg;		/* TV_K_REG: address */
	uint64_t addr;		/* TV_K_MEM: first byte */
};

#define TV_NREGS 0x1040		/* CSRs, GPRs, FPRs */

struct tv_shadow {
	struct tv_config cfg;
	uint64_t regs[TV_NREGS];
	uint8_t reg_known[TV_NREGS / 8];
	uint64_t pc, priv, paddr, eaddr, pc_paddr, stdata, mtime;
	unsigned int known;		/* TV_EL_* of the scalars above */
	/* Memory, byte by byte in pages of 4 KiB (tv_shadow.c). */
	struct tv_page **pages;
	size_t page_cap, page_used;
	struct tv_page *last_page;
	/* The last group applied. */
	struct tv_elem_ref *touched;
	size_t n_touched, touched_cap;
	uint64_t pc_before;		/* pc when the group began */
	uint32_t insn;			/* its instruction, if has_insn */
	bool has_insn, has_reset, has_init;
	uint64_t ignored_regs;		/* register items beyond TV_NREGS */
};

int tv_shadow_init(struct tv_shadow *s, const struct tv_config *cfg);
void tv_shadow_free(struct tv_shadow *s);
void tv_shadow_apply(struct tv_shadow *s, const struct tv_group *g);
/* An element's value (memory: little-endian bytes); false when unknown. */
bool tv_shadow_get(const struct tv_shadow *s, const struct tv_elem_ref *e,
		   uint64_t *value);
void tv_shadow_set(struct tv_shadow *s, const struct tv_elem_ref *e,
		   uint64_t value);
void tv_shadow_touch(struct tv_shadow *s, const struct tv_elem_ref *e);
/* The TV_EL_* class an element belongs to (for absent elements). */
unsigned int tv_elem_class(const struct tv_elem_ref *e);
const char *tv_elem_ref_name(const struct tv_elem_ref *e, char *buf,
			     size_t len);

/*
 * Non-deterministic elements: excluded from comparisons, and a register
 * an instruction reads from a non-deterministic CSR (rdtime, csrr mip)
 * takes the reference's value instead of being compared.
 */
#define TV_NONDET_RANGES 8
struct tv_nondet {
	uint8_t regs[TV_NREGS / 8];
	unsigned int classes;	/* TV_EL_* wholly non-deterministic */
	/* Memory (device registers): a load from it is an input too. */
	struct { uint64_t lo, hi; } mem[TV_NONDET_RANGES];	/* [lo, hi) */
	unsigned int n_mem;
};
/*
 * A register name (mip, cycle, time, a0 ...), an element class, a memory
 * range "mem:ADDR[+LEN]" (LEN default 8), or "mtime": the time CSRs, the
 * mtime item and the virt machine's ACLINT mtime register (0x200bff8).
 */
int tv_nondet_add(struct tv_nondet *nd, const char *name);
bool tv_nondet_has(const struct tv_nondet *nd, const struct tv_elem_ref *e);
bool tv_nondet_mem(const struct tv_nondet *nd, uint64_t addr, unsigned int size);
/* A load's destination register (address, GPR or FPR), 0 if not a load. */
uint16_t tv_insn_load_dest(uint32_t insn, unsigned int xlen);

/* ------------------------------------------------------------- diff */

struct tv_divergence {
	uint64_t group;		/* index in trace A */
	uint64_t offset_a, offset_b;	/* byte offsets of the groups */
	uint64_t pc;		/* where A's instruction executed */
	uint32_t insn;
	bool has_insn;
	struct tv_elem_ref elem;
	uint64_t a, b;
	bool a_known, b_known;
	const char *what;	/* NULL, or a divergence of the trace's shape */
};

typedef int (*tv_report_fn)(void *ctx, const struct tv_divergence *d);

struct tv_diff_opts {
	struct tv_config cfg_a, cfg_b;
	enum tv_mode mode;
	const struct tv_nondet *nondet;	/* may be NULL */
	uint64_t max;			/* stop after this many; 0: all */
	/* A user-mode run's inputs from its kernel and loader are declared
	 * non-deterministic: the results of the system calls that read the
	 * thread or process id, the clock or random bytes, and the AT_RANDOM
	 * bytes; so is what an instruction computes from them (registers and
	 * memory it writes), until overwritten.  See tv_shadow.c. */
	bool user_inputs;
	tv_report_fn report;
	void *ctx;
};

struct tv_diff_result {
	uint64_t groups;
	uint64_t divergences;
	uint64_t skipped;		/* groups of interrupt handlers only one
					 * trace ran at that point (mip declared) */
	int err_trace;			/* 0, or 1/2: that trace did not decode */
	struct tv_error err;
};

/*
 * Compares trace A (the reference) with trace B group by group: applies
 * each to its shadow state, compares the elements either group touched
 * (minus absent and non-deterministic ones), reports every difference
 * and copies A's value into B's shadow so the comparison goes on.  With
 * mip declared non-deterministic, an interrupt only one trace takes at a
 * point is an input: that trace's handler runs uncompared until it
 * returns to where it was interrupted.
 * Returns 0 when no divergence, 1 with divergences, -1 when a trace does
 * not decode (res->err).
 */
int tv_diff(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen,
	    const struct tv_diff_opts *opts, struct tv_diff_result *res);

/*
 * A riscv64 Linux system call whose result differs from run to run (the
 * thread or process id, the clock, random bytes): its result is an input,
 * and so is the buffer it fills, BUF_ARG's register (-1: none) holding
 * its address and LEN bytes (or, LEN_ARG >= 0, that argument's value).
 */
bool tv_syscall_input(uint64_t nr, unsigned int *buf_arg, uint64_t *len, int *len_arg);

/* For an instruction: a CSR read's destination register and CSR. */
bool tv_insn_reads_csr(uint32_t insn, unsigned int *rd, unsigned int *csr);

#endif /* RVPERF_TV_H */
