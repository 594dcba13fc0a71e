// SPDX-License-Identifier: BSD-2-Clause
/*
 * tv_shadow.c - the shadow state of a trace, non-deterministic elements,
 * and the comparison of two traces (tv_diff).
 */
#include "tv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------- memory */

/*
 * Memory in pages of 4 KiB, each with its bytes and a bit per byte known:
 * a byte-by-byte hash was most of what a verifier spends on a program's
 * loads and stores.  The pages are found through open addressing on
 * their number; the last one used is tried first (accesses cluster).
 */
#define PAGE_BITS 12
#define PAGE_SIZE (1u << PAGE_BITS)
struct tv_page {
	uint64_t number;
	uint8_t known[PAGE_SIZE / 8];
	uint8_t val[PAGE_SIZE];
};

static size_t page_slot(uint64_t number, size_t cap)
{
	/* Fibonacci hashing: neighbouring pages spread over the table. */
	return (size_t)((number * 0x9e3779b97f4a7c15ull) >> 20) & (cap - 1);
}

static int page_grow(struct tv_shadow *s)
{
	size_t cap = s->page_cap ? s->page_cap * 2 : 256;
	struct tv_page **pages = calloc(cap, sizeof(*pages));

	if (!pages)
		return -1;
	for (size_t i = 0; i < s->page_cap; i++) {
		size_t j;

		if (!s->pages[i])
			continue;
		for (j = page_slot(s->pages[i]->number, cap); pages[j]; j = (j + 1) & (cap - 1))
			;
		pages[j] = s->pages[i];
	}
	free(s->pages);
	s->pages = pages;
	s->page_cap = cap;
	return 0;
}

/* ADDR's page; made when CREATE, else NULL when nothing there is known. */
static struct tv_page *mem_page(const struct tv_shadow *cs, uint64_t addr, bool create)
{
	/* The last-page cache is not the state: a const lookup updates it. */
	struct tv_shadow *s = (struct tv_shadow *)cs;
	uint64_t number = addr >> PAGE_BITS;
	struct tv_page *p = s->last_page;
	size_t j = 0;

	if (p && p->number == number)
		return p;
	if (s->page_cap) {
		for (j = page_slot(number, s->page_cap); (p = s->pages[j]);
		     j = (j + 1) & (s->page_cap - 1))
			if (p->number == number)
				return s->last_page = p;
	}
	if (!create)
		return NULL;
	if (2 * (s->page_used + 1) > s->page_cap) {
		if (page_grow(s))
			return NULL;
		for (j = page_slot(number, s->page_cap); s->pages[j]; j = (j + 1) & (s->page_cap - 1))
			;
	}
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->number = number;
	s->pages[j] = p;
	s->page_used++;
	return s->last_page = p;
}

static void mem_put(struct tv_shadow *s, uint64_t addr, uint8_t v)
{
	struct tv_page *p = mem_page(s, addr, true);
	unsigned int off = (unsigned int)(addr & (PAGE_SIZE - 1));

	if (!p)
		return;
	p->val[off] = v;
	p->known[off / 8] |= (uint8_t)(1u << (off % 8));
}

static bool mem_get(const struct tv_shadow *s, uint64_t addr, uint8_t *v)
{
	const struct tv_page *p = mem_page(s, addr, false);
	unsigned int off = (unsigned int)(addr & (PAGE_SIZE - 1));

	if (!p || !(p->known[off / 8] & (1u << (off % 8))))
		return false;
	*v = p->val[off];
	return true;
}

/* ------------------------------------------------------------- state */

int tv_shadow_init(struct tv_shadow *s, const struct tv_config *cfg)
{
	memset(s, 0, sizeof(*s));
	s->cfg = *cfg;
	s->touched_cap = 64;
	s->touched = malloc(s->touched_cap * sizeof(*s->touched));
	return s->touched ? 0 : -1;
}

void tv_shadow_free(struct tv_shadow *s)
{
	for (size_t i = 0; i < s->page_cap; i++)
		free(s->pages[i]);
	free(s->pages);
	free(s->touched);
	s->pages = NULL;
	s->page_cap = s->page_used = 0;
	s->last_page = NULL;
	s->touched = NULL;
}

unsigned int tv_elem_class(const struct tv_elem_ref *e)
{
	switch (e->kind) {
	case TV_K_PC: return TV_EL_PC;
	case TV_K_REG:
		return TV_REG_IS_GPR(e->reg) ? TV_EL_GPR
		     : TV_REG_IS_FPR(e->reg) ? TV_EL_FPR : TV_EL_CSR;
	case TV_K_PRIV: return TV_EL_PRIV;
	case TV_K_PADDR: return TV_EL_PADDR;
	case TV_K_EADDR: return TV_EL_EADDR;
	case TV_K_PC_PADDR: return TV_EL_PC_PADDR;
	case TV_K_STDATA: return TV_EL_STDATA;
	case TV_K_MTIME: return TV_EL_MTIME;
	case TV_K_MEM: return TV_EL_MEM;
	case TV_K_INSN: return TV_EL_INSN;
	}
	return 0;
}

const char *tv_elem_ref_name(const struct tv_elem_ref *e, char *buf, size_t len)
{
	switch (e->kind) {
	case TV_K_REG:
		return tv_reg_name(e->reg, buf, len);
	case TV_K_MEM:
		snprintf(buf, len, "mem[0x%llx/%u]", (unsigned long long)e->addr, e->size);
		return buf;
	default:
		snprintf(buf, len, "%s", tv_elem_name(tv_elem_class(e)));
		return buf;
	}
}

static uint64_t *scalar(struct tv_shadow *s, unsigned int kind)
{
	switch (kind) {
	case TV_K_PC: return &s->pc;
	case TV_K_PRIV: return &s->priv;
	case TV_K_PADDR: return &s->paddr;
	case TV_K_EADDR: return &s->eaddr;
	case TV_K_PC_PADDR: return &s->pc_paddr;
	case TV_K_STDATA: return &s->stdata;
	case TV_K_MTIME: return &s->mtime;
	case TV_K_INSN: return NULL;
	}
	return NULL;
}

bool tv_shadow_get(const struct tv_shadow *s, const struct tv_elem_ref *e,
		   uint64_t *value)
{
	switch (e->kind) {
	case TV_K_REG:
		if (e->reg >= TV_NREGS || !(s->reg_known[e->reg / 8] & (1u << (e->reg % 8))))
			return false;
		*value = s->regs[e->reg];
		return true;
	case TV_K_MEM: {
		uint64_t v = 0;
		unsigned int off = (unsigned int)(e->addr & (PAGE_SIZE - 1));

		/* Within one page (nearly always): one lookup. */
		if (off + e->size <= PAGE_SIZE && e->size <= 8) {
			const struct tv_page *p = mem_page(s, e->addr, false);

			if (!p)
				return false;
			for (unsigned int i = 0; i < e->size; i++, off++) {
				if (!(p->known[off / 8] & (1u << (off % 8))))
					return false;
				v |= (uint64_t)p->val[off] << (8 * i);
			}
			*value = v;
			return true;
		}
		for (unsigned int i = 0; i < e->size; i++) {
			uint8_t byte;

			if (!mem_get(s, e->addr + i, &byte))
				return false;
			v |= (uint64_t)byte << (8 * i);
		}
		*value = v;
		return true;
	}
	case TV_K_INSN:
		if (!s->has_insn)
			return false;
		*value = s->insn;
		return true;
	default:
		if (!(s->known & tv_elem_class(e)))
			return false;
		*value = *scalar((struct tv_shadow *)s, e->kind);
		return true;
	}
}

static inline uint64_t reg_mask(const struct tv_shadow *s, uint16_t reg)
{
	unsigned int bits = TV_REG_IS_FPR(reg) ? s->cfg.flen : s->cfg.xlen;

	return bits >= 64 ? ~0ull : (1ull << bits) - 1;
}

void tv_shadow_set(struct tv_shadow *s, const struct tv_elem_ref *e,
		   uint64_t value)
{
	switch (e->kind) {
	case TV_K_REG:
		if (e->reg >= TV_NREGS) {
			s->ignored_regs++;
			return;
		}
		s->regs[e->reg] = value & reg_mask(s, e->reg);
		s->reg_known[e->reg / 8] |= (uint8_t)(1u << (e->reg % 8));
		return;
	case TV_K_MEM: {
		unsigned int off = (unsigned int)(e->addr & (PAGE_SIZE - 1));
		struct tv_page *p;

		/* Within one page (nearly always): one lookup. */
		if (off + e->size <= PAGE_SIZE && e->size <= 8 &&
		    (p = mem_page(s, e->addr, true))) {
			for (unsigned int i = 0; i < e->size; i++, off++) {
				p->val[off] = (uint8_t)(value >> (8 * i));
				p->known[off / 8] |= (uint8_t)(1u << (off % 8));
			}
			return;
		}
		for (unsigned int i = 0; i < e->size; i++)
			mem_put(s, e->addr + i, (uint8_t)(value >> (8 * i)));
		return;
	}
	case TV_K_INSN:
		s->insn = (uint32_t)value;
		s->has_insn = true;
		return;
	default:
		*scalar(s, e->kind) = value;
		s->known |= tv_elem_class(e);
		return;
	}
}

void tv_shadow_touch(struct tv_shadow *s, const struct tv_elem_ref *e)
{
	if (s->n_touched == s->touched_cap) {
		struct tv_elem_ref *p = realloc(s->touched, 2 * s->touched_cap * sizeof(*p));

		if (!p)
			return;
		s->touched = p;
		s->touched_cap *= 2;
	}
	s->touched[s->n_touched++] = *e;
}

static void set_touch(struct tv_shadow *s, unsigned int kind, uint16_t reg,
		      uint64_t addr, unsigned int size, uint64_t value)
{
	struct tv_elem_ref e = { .kind = (uint8_t)kind, .reg = reg,
				 .addr = addr, .size = (uint8_t)size };

	tv_shadow_set(s, &e, value);
	tv_shadow_touch(s, &e);
}

static uint64_t sext(uint64_t v, unsigned int bytes)
{
	unsigned int sh = 64 - 8 * bytes;

	return bytes >= 8 ? v : (uint64_t)((int64_t)(v << sh) >> sh);
}

/* The value an AMO leaves in memory, from the old one and its operand. */
static uint64_t amo_result(unsigned int op, unsigned int bytes, uint64_t old,
			   uint64_t opnd)
{
	int64_t so = (int64_t)sext(old, bytes), sn = (int64_t)sext(opnd, bytes);
	uint64_t mask = bytes >= 8 ? ~0ull : (1ull << (8 * bytes)) - 1;

	old &= mask;
	opnd &= mask;
	switch (op) {
	case TV_MEM_AMOSWAP: return opnd;
	case TV_MEM_AMOADD: return old + opnd;
	case TV_MEM_AMOXOR: return old ^ opnd;
	case TV_MEM_AMOAND: return old & opnd;
	case TV_MEM_AMOOR: return old | opnd;
	case TV_MEM_AMOMIN: return so < sn ? old : opnd;
	case TV_MEM_AMOMAX: return so > sn ? old : opnd;
	case TV_MEM_AMOMINU: return old < opnd ? old : opnd;
	case TV_MEM_AMOMAXU: return old > opnd ? old : opnd;
	}
	return opnd;
}

static void apply_mem(struct tv_shadow *s, const struct tv_item *req,
		      const struct tv_item *rsp)
{
	unsigned int bytes = 1u << req->size;
	uint64_t old;

	switch (req->id) {
	case TV_MEM_STORE:
		set_touch(s, TV_K_MEM, 0, req->value, bytes, req->data);
		return;
	case TV_MEM_SC:
		if (!rsp || rsp->result == 0)
			set_touch(s, TV_K_MEM, 0, req->value, bytes, req->data);
		return;
	case TV_MEM_LOAD:
	case TV_MEM_LR:
	case TV_MEM_FETCH:
		/* What memory held: an observation the shadow learns. */
		if (rsp && rsp->has_data)
			set_touch(s, TV_K_MEM, 0, req->value, bytes, rsp->data);
		return;
	default: {	/* AMOs */
		struct tv_elem_ref e = { .kind = TV_K_MEM, .addr = req->value,
					 .size = (uint8_t)bytes };

		if (rsp && rsp->has_data)
			old = rsp->data;
		else if (!tv_shadow_get(s, &e, &old))
			return;	/* the new value cannot be known */
		set_touch(s, TV_K_MEM, 0, req->value, bytes,
			  amo_result(req->id, bytes, old, req->data));
		return;
	}
	}
}

void tv_shadow_apply(struct tv_shadow *s, const struct tv_group *g)
{
	const struct tv_item *it = g->items, *end = it + g->n_items;
	const struct tv_item *req = NULL;
	bool incr_pc = false, new_pc = false;
	unsigned int ilen = 0;

	s->n_touched = 0;
	s->pc_before = s->pc;
	s->has_insn = g->has_insn;
	s->has_reset = g->has_reset;
	s->has_init = g->has_init;
	for (; it < end; it++) {
		if (req && it->op != TV_OP_MEM_RSP) {
			apply_mem(s, req, NULL);
			req = NULL;
		}
		switch (it->op) {
		case TV_OP_INCR_PC:
			incr_pc = true;
			break;
		case TV_OP_FULL_REG:
			if (it->reg < TV_NREGS && s->n_touched < s->touched_cap) {
				/* The common item, without the general calls. */
				uint16_t r = it->reg;
				struct tv_elem_ref *e = &s->touched[s->n_touched++];

				s->regs[r] = it->value & reg_mask(s, r);
				s->reg_known[r / 8] |= (uint8_t)(1u << (r % 8));
				*e = (struct tv_elem_ref){ .kind = TV_K_REG, .reg = r };
				break;
			}
			set_touch(s, TV_K_REG, it->reg, 0, 0, it->value);
			break;
		case TV_OP_INCR_REG_ADD:
		case TV_OP_INCR_REG_OR: {
			struct tv_elem_ref e = { .kind = TV_K_REG, .reg = it->reg };
			uint64_t v = 0;

			tv_shadow_get(s, &e, &v);
			v = it->op == TV_OP_INCR_REG_ADD ? v + it->value : v | it->value;
			set_touch(s, TV_K_REG, it->reg, 0, 0, v);
			break;
		}
		case TV_OP_ADDL_STATE: {
			static const uint8_t kinds[] = {
				[TV_AS_PRIV] = TV_K_PRIV, [TV_AS_PADDR] = TV_K_PADDR,
				[TV_AS_EADDR] = TV_K_EADDR, [TV_AS_STORE8] = TV_K_STDATA,
				[TV_AS_STORE16] = TV_K_STDATA, [TV_AS_STORE32] = TV_K_STDATA,
				[TV_AS_STORE64] = TV_K_STDATA, [TV_AS_MTIME] = TV_K_MTIME,
				[TV_AS_PC_PADDR] = TV_K_PC_PADDR, [TV_AS_PC] = TV_K_PC,
			};

			if (it->id == TV_AS_PC)
				new_pc = true;
			if (it->id < sizeof(kinds))
				set_touch(s, kinds[it->id], 0, 0, 0, it->value);
			break;
		}
		case TV_OP_MEM_REQ:
			req = it;
			break;
		case TV_OP_MEM_RSP:
			if (req)
				apply_mem(s, req, it);
			req = NULL;
			break;
		case TV_OP_INSN16:
		case TV_OP_INSN32:
			s->insn = (uint32_t)it->value;
			ilen = it->op == TV_OP_INSN16 ? 2 : 4;
			break;
		}
	}
	if (req)
		apply_mem(s, req, NULL);
	/* Increment pc: by the group's instruction, unless pc was given.
	 * Nearly every group: set and touched without the general calls. */
	if (incr_pc && !new_pc && ilen) {
		uint64_t mask = s->cfg.xlen == 32 ? 0xffffffffull : ~0ull;
		struct tv_elem_ref e = { .kind = TV_K_PC };

		s->pc = (s->pc + ilen) & mask;
		s->known |= TV_EL_PC;
		if (s->n_touched < s->touched_cap)
			s->touched[s->n_touched++] = e;
		else
			tv_shadow_touch(s, &e);
	}
	if (g->has_insn) {
		struct tv_elem_ref e = { .kind = TV_K_INSN };

		if (s->n_touched < s->touched_cap)
			s->touched[s->n_touched++] = e;
		else
			tv_shadow_touch(s, &e);
	}
}

/* ------------------------------------------------------------- nondet */

int tv_nondet_add(struct tv_nondet *nd, const char *name)
{
	unsigned int cls = tv_elem_by_name(name);
	int reg;

	if (strcmp(name, "mtime") == 0) {
		/* The additional-state mtime, the time CSRs that read it, and
		 * the virt machine's ACLINT register it is. */
		nd->classes |= TV_EL_MTIME;
		nd->regs[0xc01 / 8] |= 1u << (0xc01 % 8);
		nd->regs[0xc81 / 8] |= 1u << (0xc81 % 8);
		return tv_nondet_add(nd, "mem:0x200bff8+8");
	}
	if (strncmp(name, "mem:", 4) == 0) {
		char *end;
		uint64_t lo = strtoull(name + 4, &end, 0), n = 8;

		if (end == name + 4 || (*end && *end != '+'))
			return -1;
		if (*end == '+') {
			n = strtoull(end + 1, &end, 0);
			if (*end || !n)
				return -1;
		}
		if (nd->n_mem == TV_NONDET_RANGES)
			return -1;
		nd->mem[nd->n_mem].lo = lo;
		nd->mem[nd->n_mem++].hi = lo + n;
		return 0;
	}
	reg = tv_reg_by_name(name);
	if (reg >= 0 && reg < TV_NREGS) {
		nd->regs[reg / 8] |= (uint8_t)(1u << (reg % 8));
		return 0;
	}
	if (cls) {
		nd->classes |= cls;
		return 0;
	}
	return -1;
}

bool tv_nondet_mem(const struct tv_nondet *nd, uint64_t addr, unsigned int size)
{
	for (unsigned int i = 0; i < nd->n_mem; i++)
		if (addr < nd->mem[i].hi && addr + size > nd->mem[i].lo)
			return true;
	return false;
}

uint16_t tv_insn_load_dest(uint32_t i, unsigned int xlen)
{
	unsigned int rd = i >> 7 & 31;

	if ((i & 3) != 3) {
		unsigned int q = i & 3, f3 = i >> 13 & 7, rdp = 8 + (i >> 2 & 7);

		if (q == 0 && f3 == 1)
			return TV_REG_FPR(rdp);			/* c.fld */
		if (q == 0 && f3 == 2)
			return TV_REG_GPR(rdp);			/* c.lw */
		if (q == 0 && f3 == 3)
			return xlen == 64 ? TV_REG_GPR(rdp) : TV_REG_FPR(rdp);
		if (q == 2 && f3 == 1)
			return TV_REG_FPR(rd);			/* c.fldsp */
		if (q == 2 && f3 == 2 && rd)
			return TV_REG_GPR(rd);			/* c.lwsp */
		if (q == 2 && f3 == 3 && rd)
			return xlen == 64 ? TV_REG_GPR(rd) : TV_REG_FPR(rd);
		return 0;
	}
	if ((i & 0x7f) == 0x03 && rd)
		return TV_REG_GPR(rd);
	if ((i & 0x7f) == 0x07)
		return TV_REG_FPR(rd);
	return 0;
}

bool tv_nondet_has(const struct tv_nondet *nd, const struct tv_elem_ref *e)
{
	if (nd->classes & tv_elem_class(e))
		return true;
	if (e->kind == TV_K_MEM && tv_nondet_mem(nd, e->addr, e->size))
		return true;
	return e->kind == TV_K_REG && e->reg < TV_NREGS &&
	       (nd->regs[e->reg / 8] & (1u << (e->reg % 8)));
}

bool tv_insn_reads_csr(uint32_t insn, unsigned int *rd, unsigned int *csr)
{
	unsigned int f3 = insn >> 12 & 7;

	if ((insn & 0x7f) != 0x73 || f3 == 0 || f3 == 4)
		return false;
	*rd = insn >> 7 & 31;
	*csr = insn >> 20;
	return *rd != 0;
}

/* ------------------------------------------------------------- diff */

static bool same_ref(const struct tv_elem_ref *x, const struct tv_elem_ref *y)
{
	return x->kind == y->kind && x->reg == y->reg && x->addr == y->addr &&
	       x->size == y->size;
}

/*
 * A user-mode run's inputs (tv_diff_opts.user_inputs).  Its kernel and
 * loader give it values no two runs share: thread and process ids, the
 * clock, random bytes (getrandom, AT_RANDOM), which the program copies and
 * computes with (the TCB's tid, the stack canary in every frame, the
 * pointer guard).  Such a value is not resynchronised: B keeps its own, so
 * the two shadow states keep differing where inputs went.  An instruction
 * reading a register or memory that is tainted (marked so and differing
 * between the states, or never known in either) writes tainted results,
 * uncompared; one reading none writes untainted ones, compared as ever.
 * Byte-identical groups, which the comparison skips, write the same values
 * to both states, so a mark they leave behind no longer counts.
 */
struct user_inputs {
	uint64_t regs;			/* GPRs 0-31, FPRs 32-63 */
	struct tv_shadow mem;		/* byte 1: tainted (a byte map) */
	bool mem_ok;
	uint64_t sp0;			/* the first sp: argc, argv, envp, auxv */
	bool have_sp0, at_random_done;
	/* The group being compared. */
	bool derived;			/* reads something tainted */
	bool syscall_result;		/* a0 of a declared system call */
	uint64_t pre_a0, pre_a1;	/* A's, before the group */
	bool pre_known;
};

struct diff_ctx {
	const struct tv_diff_opts *o;
	struct tv_diff_result *res;
	struct tv_shadow *a, *b;
	const struct tv_group *ga, *gb;
	unsigned int absent;
	int exempt_rd;		/* GPR taken from A without comparison */
	bool stop;
	struct user_inputs *ui;	/* NULL: opts->user_inputs off */
};

static void report(struct diff_ctx *c, const struct tv_elem_ref *e,
		   const char *what)
{
	struct tv_divergence d = { 0 };

	d.group = c->ga ? c->ga->index : c->gb->index;
	d.offset_a = c->ga ? c->ga->offset : 0;
	d.offset_b = c->gb ? c->gb->offset : 0;
	d.pc = c->a->pc_before;
	d.insn = c->a->insn;
	d.has_insn = c->a->has_insn;
	d.what = what;
	if (e) {
		d.elem = *e;
		d.a_known = tv_shadow_get(c->a, e, &d.a);
		d.b_known = tv_shadow_get(c->b, e, &d.b);
	}
	c->res->divergences++;
	if (c->o->report && c->o->report(c->o->ctx, &d))
		c->stop = true;
	if (c->o->max && c->res->divergences >= c->o->max)
		c->stop = true;
}

/* What an instruction reads from the registers (RV32/RV64 GC): up to three
 * register addresses into SRC; their number.  The link register a jump
 * writes and what a CSR instruction reads from its CSR depend on no source. */
static unsigned int insn_sources(uint32_t insn, unsigned int xlen,
				 uint16_t src[3])
{
	unsigned int n = 0, rs1 = insn >> 15 & 31, rs2 = insn >> 20 & 31;
	unsigned int f3 = insn >> 13 & 7, r = insn >> 7 & 31, r2 = insn >> 2 & 31;
	unsigned int p1 = 8 + (insn >> 7 & 7), p2 = 8 + (insn >> 2 & 7);

#define G(x) (src[n++] = TV_REG_GPR(x))
#define F(x) (src[n++] = TV_REG_FPR(x))
	if ((insn & 3) == 3) {
		switch (insn & 0x7f) {
		case 0x03: case 0x07: case 0x13: case 0x1b: case 0x67:
			if ((insn & 0x7f) != 0x67)
				G(rs1);
			break;
		case 0x23: case 0x2f: case 0x33: case 0x3b: case 0x63:
			G(rs1);
			G(rs2);
			break;
		case 0x27:
			G(rs1);
			F(rs2);
			break;
		case 0x43: case 0x47: case 0x4b: case 0x4f:
			F(rs1);
			F(rs2);
			F(insn >> 27);
			break;
		case 0x53:
			switch (insn >> 27) {
			case 0x1a: case 0x1e:	/* from an integer */
				G(rs1);
				break;
			case 0x08: case 0x0b: case 0x18: case 0x1c:
				F(rs1);
				break;
			default:
				F(rs1);
				F(rs2);
			}
			break;
		}
		return n;
	}
	switch ((insn & 3) << 3 | f3) {
	case 000:			/* c.addi4spn */
		G(2);
		break;
	case 001: case 002: case 003:	/* c.fld, c.lw, c.ld/c.flw */
		G(p1);
		break;
	case 005:			/* c.fsd */
		G(p1);
		F(p2);
		break;
	case 006:			/* c.sw */
		G(p1);
		G(p2);
		break;
	case 007:			/* c.sd / c.fsw */
		G(p1);
		if (xlen == 64)
			G(p2);
		else
			F(p2);
		break;
	case 010:			/* c.addi */
		G(r);
		break;
	case 011:			/* c.addiw (RV64) / c.jal */
		if (xlen == 64)
			G(r);
		break;
	case 013:			/* c.addi16sp / c.lui */
		if (r == 2)
			G(2);
		break;
	case 014:			/* c.srli ... c.and, c.subw, c.addw */
		G(p1);
		if ((insn >> 10 & 3) == 3)
			G(p2);
		break;
	case 016: case 017:		/* c.beqz, c.bnez */
		G(p1);
		break;
	case 020:			/* c.slli */
		G(r);
		break;
	case 021: case 022: case 023:	/* c.fldsp, c.lwsp, c.ldsp */
		G(2);
		break;
	case 024:			/* c.jr c.mv c.ebreak c.jalr c.add */
		if (r2 && (insn >> 12 & 1))
			G(r);
		if (r2)
			G(r2);
		break;
	case 025:			/* c.fsdsp */
		G(2);
		F(r2);
		break;
	case 026:			/* c.swsp */
		G(2);
		G(r2);
		break;
	case 027:			/* c.sdsp / c.fswsp */
		G(2);
		if (xlen == 64)
			G(r2);
		else
			F(r2);
		break;
	}
#undef G
#undef F
	return n;
}

static unsigned int taint_bit(uint16_t reg)
{
	return TV_REG_IS_GPR(reg) ? reg - 0x1000u : reg - 0x1020u + 32u;
}

/* REG differs between the states where the inputs went. */
static bool reg_tainted(const struct diff_ctx *c, uint16_t reg)
{
	struct tv_elem_ref e = { .kind = TV_K_REG, .reg = reg };
	uint64_t va, vb;

	if (!(c->ui->regs >> taint_bit(reg) & 1))
		return false;
	return tv_shadow_get(c->a, &e, &va) && tv_shadow_get(c->b, &e, &vb) &&
	       va != vb;
}

/* A byte of memory: marked, and differing or never known in either. */
static bool mem_tainted(const struct diff_ctx *c, uint64_t addr)
{
	uint8_t mark, va = 0, vb = 0;
	bool ka, kb;

	if (!c->ui->mem_ok || !mem_get(&c->ui->mem, addr, &mark) || !mark)
		return false;
	ka = mem_get(c->a, addr, &va);
	kb = mem_get(c->b, addr, &vb);
	return !ka || !kb || va != vb;
}

static void mem_mark(struct diff_ctx *c, uint64_t addr, uint64_t len, bool on)
{
	for (uint64_t i = 0; c->ui->mem_ok && i < len; i++)
		mem_put(&c->ui->mem, addr + i, on);
}

/* The word at ADDR in A's state (XLEN wide), if known. */
static bool word_at(const struct diff_ctx *c, uint64_t addr, uint64_t *v)
{
	struct tv_elem_ref e = { .kind = TV_K_MEM, .addr = addr,
				 .size = (uint8_t)(c->a->cfg.xlen / 8) };

	return tv_shadow_get(c->a, &e, v);
}

/*
 * The AT_RANDOM bytes: found in the auxiliary vector above the first sp
 * (argc, argv[], NULL, envp[], NULL, then type/value pairs) once the
 * program has read it, which it does before it reads those bytes.
 */
static void find_at_random(struct diff_ctx *c)
{
	uint64_t w = c->a->cfg.xlen / 8, p = c->ui->sp0, v, type;

	if (!c->ui->have_sp0 || c->ui->at_random_done || !word_at(c, p, &v) ||
	    v > 4096)
		return;
	p += w * (v + 2);		/* envp[0] */
	for (unsigned int i = 0; i < 4096 && word_at(c, p, &v) && v; i++)
		p += w;
	if (!word_at(c, p, &v))
		return;
	p += w;				/* past envp's NULL: the pairs */
	for (unsigned int i = 0; i < 64; i++, p += 2 * w) {
		if (!word_at(c, p, &type) || !word_at(c, p + w, &v))
			return;	/* not read yet */
		if (type == 0)
			break;
		if (type == 25) {	/* AT_RANDOM: 16 bytes at v */
			mem_mark(c, v, 16, true);
			break;
		}
	}
	c->ui->at_random_done = true;
}

/* riscv64 Linux system calls whose results differ from run to run: the
 * buffer they fill (argument register, length; or len_reg: the length is
 * that argument), or none. */
bool tv_syscall_input(uint64_t nr, unsigned int *buf_arg, uint64_t *len, int *len_arg)
{
	static const struct {
		uint16_t nr;
		int8_t buf_arg, len_arg;
		uint16_t len;
	} calls[] = {
		{ 96, -1, -1, 0 },	/* set_tid_address: the tid */
		{ 172, -1, -1, 0 },	/* getpid */
		{ 173, -1, -1, 0 },	/* getppid */
		{ 178, -1, -1, 0 },	/* gettid */
		{ 220, -1, -1, 0 },	/* clone: the child's id */
		{ 435, -1, -1, 0 },	/* clone3 */
		{ 113, 1, -1, 16 },	/* clock_gettime */
		{ 403, 1, -1, 16 },	/* clock_gettime64 (RV32) */
		{ 169, 0, -1, 16 },	/* gettimeofday */
		{ 153, 0, -1, 32 },	/* times */
		{ 165, 1, -1, 144 },	/* getrusage */
		{ 179, 0, -1, 112 },	/* sysinfo */
		{ 278, 0, 1, 0 },	/* getrandom */
	};

	for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]); i++)
		if (calls[i].nr == nr) {
			*buf_arg = (unsigned int)calls[i].buf_arg;
			*len_arg = calls[i].len_arg;
			*len = calls[i].len;
			return true;
		}
	return false;
}

/* Before group GA is applied: does its instruction read anything tainted? */
static void inputs_before(struct diff_ctx *c, const struct tv_group *ga)
{
	struct user_inputs *ui = c->ui;
	struct tv_elem_ref a0 = { .kind = TV_K_REG, .reg = TV_REG_GPR(10) };
	struct tv_elem_ref a1 = { .kind = TV_K_REG, .reg = TV_REG_GPR(11) };
	uint16_t src[3];
	uint32_t insn = 0;
	bool has_insn = false;

	ui->derived = false;
	ui->pre_known = tv_shadow_get(c->a, &a0, &ui->pre_a0) &&
			tv_shadow_get(c->a, &a1, &ui->pre_a1);
	find_at_random(c);
	for (size_t i = 0; i < ga->n_items; i++) {
		const struct tv_item *it = &ga->items[i];

		if (it->op == TV_OP_INSN16 || it->op == TV_OP_INSN32) {
			insn = (uint32_t)it->value;
			has_insn = true;
		} else if (it->op == TV_OP_MEM_REQ && it->id != TV_MEM_STORE &&
			   it->id != TV_MEM_FETCH) {
			for (unsigned int k = 0; k < (1u << it->size); k++)
				ui->derived |= mem_tainted(c, it->value + k);
		}
	}
	if (!has_insn)
		return;
	for (unsigned int i = 0, n = insn_sources(insn, c->a->cfg.xlen, src); i < n; i++)
		ui->derived |= reg_tainted(c, src[i]);
}

/* After A's and B's groups are applied: a declared system call's result. */
static void inputs_syscall(struct diff_ctx *c)
{
	struct user_inputs *ui = c->ui;
	struct tv_elem_ref a7 = { .kind = TV_K_REG, .reg = TV_REG_GPR(17) };
	uint64_t nr, len;
	unsigned int buf_arg;
	int len_arg;

	ui->syscall_result = false;
	/* A user-mode ecall: the kernel is not traced, so the next group is
	 * the instruction after it. */
	if (!c->a->has_insn || c->a->insn != 0x00000073 ||
	    c->a->pc != c->a->pc_before + 4 || !tv_shadow_get(c->a, &a7, &nr) ||
	    !tv_syscall_input(nr, &buf_arg, &len, &len_arg))
		return;
	ui->syscall_result = true;
	if (buf_arg <= 1 && ui->pre_known) {
		uint64_t buf = buf_arg ? ui->pre_a1 : ui->pre_a0;

		if (len_arg >= 0)
			len = len_arg ? ui->pre_a1 : ui->pre_a0;
		mem_mark(c, buf, len < (1u << 20) ? len : 1u << 20, true);
	}
}

/* After the comparison: what the group wrote is tainted or not. */
static void inputs_after(struct diff_ctx *c)
{
	struct user_inputs *ui = c->ui;
	const struct tv_shadow *s[2] = { c->a, c->b };

	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < s[k]->n_touched; i++) {
			const struct tv_elem_ref *e = &s[k]->touched[i];
			bool t = ui->derived || (ui->syscall_result &&
						 e->kind == TV_K_REG &&
						 e->reg == TV_REG_GPR(10));

			if (e->kind == TV_K_REG && (TV_REG_IS_GPR(e->reg) ||
						    TV_REG_IS_FPR(e->reg))) {
				if (t)
					ui->regs |= 1ull << taint_bit(e->reg);
				else
					ui->regs &= ~(1ull << taint_bit(e->reg));
			}
		}
	/* Memory the group wrote (not what a load observed). */
	for (size_t i = 0; i < c->ga->n_items; i++) {
		const struct tv_item *it = &c->ga->items[i];

		if (it->op == TV_OP_MEM_REQ && it->id != TV_MEM_LOAD &&
		    it->id != TV_MEM_LR && it->id != TV_MEM_FETCH)
			mem_mark(c, it->value, 1u << it->size, ui->derived);
	}
}

/* An element the group wrote from inputs: neither compared nor copied. */
static bool from_inputs(const struct diff_ctx *c, const struct tv_elem_ref *e)
{
	if (!c->ui)
		return false;
	if (c->ui->syscall_result && e->kind == TV_K_REG && e->reg == TV_REG_GPR(10))
		return true;
	return c->ui->derived && (e->kind == TV_K_MEM || e->kind == TV_K_STDATA ||
				  e->kind == TV_K_EADDR || e->kind == TV_K_PADDR ||
				  (e->kind == TV_K_REG && (TV_REG_IS_GPR(e->reg) ||
							   TV_REG_IS_FPR(e->reg))));
}

static void compare_elem(struct diff_ctx *c, const struct tv_elem_ref *e)
{
	uint64_t va = 0, vb = 0;
	bool ka, kb;

	if (c->absent & tv_elem_class(e))
		return;
	if (from_inputs(c, e))
		return;
	if (e->kind == TV_K_REG && e->reg == TV_REG_GPR(c->exempt_rd) && c->exempt_rd) {
		if (tv_shadow_get(c->a, e, &va))
			tv_shadow_set(c->b, e, va);
		return;
	}
	if (c->o->nondet && tv_nondet_has(c->o->nondet, e))
		return;
	ka = tv_shadow_get(c->a, e, &va);
	kb = tv_shadow_get(c->b, e, &vb);
	if (ka == kb && va == vb)
		return;
	report(c, e, NULL);
	if (ka)	/* resynchronise: B takes A's value */
		tv_shadow_set(c->b, e, va);
}

static void compare_groups(struct diff_ctx *c)
{
	struct tv_shadow *a = c->a, *b = c->b;
	unsigned int rd, csr;

	c->exempt_rd = 0;
	if (a->has_insn && c->o->nondet && tv_insn_reads_csr(a->insn, &rd, &csr)) {
		struct tv_elem_ref e = { .kind = TV_K_REG, .reg = (uint16_t)csr };

		if (tv_nondet_has(c->o->nondet, &e))
			c->exempt_rd = (int)rd;
	}
	/* A load from non-deterministic memory: its register is an input. */
	if (a->has_insn && c->o->nondet && c->o->nondet->n_mem) {
		uint16_t dest = tv_insn_load_dest(a->insn, a->cfg.xlen);

		for (size_t i = 0; dest && TV_REG_IS_GPR(dest) && i < a->n_touched; i++)
			if (a->touched[i].kind == TV_K_MEM &&
			    tv_nondet_mem(c->o->nondet, a->touched[i].addr, a->touched[i].size))
				c->exempt_rd = dest - 0x1000;
	}
	for (size_t i = 0; i < a->n_touched && !c->stop; i++)
		compare_elem(c, &a->touched[i]);
	for (size_t i = 0; i < b->n_touched && !c->stop; i++) {
		size_t k;

		for (k = 0; k < a->n_touched; k++)
			if (same_ref(&a->touched[k], &b->touched[i]))
				break;
		if (k == a->n_touched)
			compare_elem(c, &b->touched[i]);
	}
}

/*
 * The length of a well-formed group at P (begin, then the common items,
 * then an end or the next begin), or 0 when anything about it is unusual
 * (the decoder then takes it: state initialisation, reset, items outside
 * groups, anything it would reject).  No item is built: this only finds
 * where the group ends.
 */
static size_t quick_group_len(const struct tv_decoder *d, const uint8_t *buf,
			      size_t len, size_t p, bool *implied)
{
	size_t start = p;
	unsigned int na = tv_mlen_bytes(&d->cfg), prev = 0, req_op = 0;
	bool insn = false, incr = false;

	if (p >= len || buf[p] != TV_OP_BEGIN_GROUP)
		return 0;
	p++;
	while (p < len) {
		unsigned int op = buf[p], n;

		switch (op) {
		case TV_OP_END_GROUP:
			*implied = false;
			return incr && !insn ? 0 : p + 1 - start;
		case TV_OP_BEGIN_GROUP:
			*implied = true;
			return p == start + 1 || (incr && !insn) ? 0 : p - start;
		case TV_OP_INCR_PC:
			incr = true;
			n = 1;
			break;
		case TV_OP_FULL_REG:
			if (p + 3 > len)
				return 0;
			n = d->reg_bytes[TV_REG_IS_FPR(buf[p + 1] | buf[p + 2] << 8)];
			if (!n)
				return 0;
			n += 3;
			break;
		case TV_OP_INCR_REG_ADD:
		case TV_OP_INCR_REG_OR:
			n = 4;
			break;
		case TV_OP_ADDL_STATE:
			if (p + 2 > len)
				return 0;
			n = buf[p + 1] < 16 ? d->addl_bytes[buf[p + 1]] : 0;
			if (!n || (buf[p + 1] == TV_AS_PRIV && p + 3 <= len && buf[p + 2] > 3))
				return 0;
			n += 2;
			break;
		case TV_OP_MEM_REQ:
			if (p + 2 + na > len || (buf[p + 1 + na] & 0xf) > TV_MEM_FETCH ||
			    buf[p + 1 + na] >> 4 > 3)
				return 0;
			req_op = buf[p + 1 + na] & 0xf;
			n = 2 + na + (tv_mem_req_has_data(req_op) ? 1u << (buf[p + 1 + na] >> 4) : 0);
			break;
		case TV_OP_MEM_RSP:
			if (prev != TV_OP_MEM_REQ || p + 2 > len || (buf[p + 1] & 0xf) > 3 ||
			    buf[p + 1] >> 4 > 1)
				return 0;
			n = 2 + (tv_mem_rsp_has_data(req_op) ? 1u << (buf[p + 1] & 0xf) : 0);
			break;
		case TV_OP_INSN16:
			insn = true;
			n = 3;
			break;
		case TV_OP_INSN32:
			insn = true;
			n = 5;
			break;
		default:
			return 0;	/* reset, state init, unknown */
		}
		prev = op;
		p += n;
	}
	return 0;	/* the trace ends inside it */
}

/*
 * How far A's bytes from PA agree with B's from PB: the end in A of the
 * agreement, looked for at least up to NEED and in blocks beyond it (one
 * comparison covers many groups).
 */
static size_t agree_end(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen,
			size_t pa, size_t pb, size_t from, size_t need)
{
	const size_t block = 4096;
	size_t e = from, limit = alen - pa < blen - pb ? alen : pa + (blen - pb);

	while (e < limit) {
		size_t n = limit - e < block ? limit - e : block;

		if (memcmp(a + e, b + pb + (e - pa), n)) {
			while (a[e] == b[pb + (e - pa)])
				e++;
			return e;
		}
		e += n;
		if (e >= need + 16 * block)
			break;
	}
	return e;
}

/* A group that is an interrupt: no instruction, a cause with the top bit. */
static bool is_interrupt(const struct tv_group *g, unsigned int xlen)
{
	if (g->has_insn || g->has_init || g->has_reset)
		return false;
	for (size_t i = 0; i < g->n_items; i++) {
		const struct tv_item *it = &g->items[i];

		if (it->op == TV_OP_FULL_REG && (it->reg == 0x342 || it->reg == 0x142) &&
		    (it->value >> (xlen - 1) & 1))
			return true;
	}
	return false;
}

static bool is_xret(const struct tv_shadow *s)
{
	return s->has_insn && (s->insn == 0x30200073 || s->insn == 0x10200073);
}

/*
 * An interrupt one trace took and the other did not (yet): with mip
 * declared non-deterministic it is an input, so that trace runs alone
 * through it, its handler, up to the return to where it was
 * interrupted, applying the groups to its shadow state uncompared.
 * Returns the status of the group after it (in *G).
 */
static enum tv_status excursion(struct tv_decoder *d, struct tv_shadow *s,
				struct tv_group *g, uint64_t *skipped)
{
	uint64_t back = s->pc;	/* where the interrupt came: its xepc */
	enum tv_status st;

	for (size_t i = 0; i < g->n_items; i++) {
		const struct tv_item *it = &g->items[i];

		if (it->op == TV_OP_FULL_REG && (it->reg == 0x341 || it->reg == 0x141))
			back = it->value;
	}
	tv_shadow_apply(s, g);
	for (;;) {
		st = tv_dec_next(d, g);
		if (st != TV_GROUP)
			return st;
		tv_shadow_apply(s, g);
		++*skipped;
		if (is_xret(s) && s->pc == back)
			break;
	}
	return tv_dec_next(d, g);
}

/* The first sp: from trace A's first groups (the state at the start), in
 * U-mode only (a bare-metal program has no auxiliary vector). */
static void user_inputs_init(struct user_inputs *ui, struct diff_ctx *c,
			     const uint8_t *a, size_t alen)
{
	struct tv_decoder d;
	struct tv_group g;

	memset(ui, 0, sizeof(*ui));
	ui->mem_ok = !tv_shadow_init(&ui->mem, &c->o->cfg_a);
	tv_dec_init(&d, &c->o->cfg_a, c->o->mode);
	tv_dec_set_buffer(&d, a, alen);
	for (int n = 0; n < 4 && !ui->have_sp0 && tv_dec_next(&d, &g) == TV_GROUP; n++) {
		bool user = false, sp = false;

		for (size_t i = 0; i < g.n_items; i++) {
			const struct tv_item *it = &g.items[i];

			if (it->op == TV_OP_FULL_REG && it->reg == TV_REG_GPR(2)) {
				ui->sp0 = it->value;
				sp = true;
			}
			if (it->op == TV_OP_ADDL_STATE && it->id == TV_AS_PRIV)
				user = it->value == 0;
		}
		ui->have_sp0 = sp && user;
	}
	tv_dec_free(&d);
	c->ui = ui;
}

int tv_diff(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen,
	    const struct tv_diff_opts *opts, struct tv_diff_result *res)
{
	struct tv_decoder da, db;
	struct tv_shadow sa, sb;
	struct tv_group ga, gb;
	struct diff_ctx c = { .o = opts, .res = res, .a = &sa, .b = &sb };
	struct user_inputs ui = { 0 };
	size_t pa = 0, pb = 0;	/* where the fast path is */
	size_t agree = 0;	/* A's bytes from pa agree with B's up to here */
	size_t agree_delta = 0;	/* ... for this pb - pa */
	bool fast, irq_nondet;
	int rc = 0;

	memset(res, 0, sizeof(*res));
	c.absent = opts->cfg_a.absent | opts->cfg_b.absent;
	tv_dec_init(&da, &opts->cfg_a, opts->mode);
	tv_dec_init(&db, &opts->cfg_b, opts->mode);
	tv_dec_set_buffer(&da, a, alen);
	tv_dec_set_buffer(&db, b, blen);
	if (tv_shadow_init(&sa, &opts->cfg_a) || tv_shadow_init(&sb, &opts->cfg_b)) {
		res->err_trace = 1;
		snprintf(res->err.msg, sizeof(res->err.msg), "out of memory");
		return -1;
	}
	fast = opts->cfg_a.xlen == opts->cfg_b.xlen && opts->cfg_a.flen == opts->cfg_b.flen &&
	       opts->cfg_a.mlen == opts->cfg_b.mlen;
	{
		struct tv_elem_ref mip = { .kind = TV_K_REG, .reg = 0x344 };

		irq_nondet = opts->nondet && tv_nondet_has(opts->nondet, &mip);
	}
	if (opts->user_inputs)
		user_inputs_init(&ui, &c, a, alen);
	while (!c.stop) {
		enum tv_status sta, stb;

		/*
		 * Byte-identical groups change identical shadow states the
		 * same way: nothing to compare.  Their bytes are only applied
		 * to the shadow states (below) when a group differs.
		 */
		if (fast) {
			bool implied = false;
			size_t la = quick_group_len(&da, a, alen, pa, &implied);
			/* The same bytes are the same group in B when B's ends
			 * the same way: by them, or by the begin-group after
			 * (which then agrees too). */
			size_t need = pa + la + (implied ? 1 : 0);

			if (la) {
				if (agree_delta != pb - pa || agree < pa) {
					agree_delta = pb - pa;
					agree = pa;
				}
				if (agree < need)
					agree = agree_end(a, alen, b, blen, pa, pb, agree, need);
				if (need <= agree) {
					pa += la;
					pb += la;
					res->groups++;
					continue;
				}
			}
			if (pa >= alen && pb >= blen)
				break;	/* both ended together */
			/*
			 * The skipped groups are the same bytes in both: each
			 * is decoded once, from A, and applied to both shadow
			 * states; B's decoder moves on by its length.
			 */
			while (da.pos < pa && db.pos < pb && tv_dec_next(&da, &ga) == TV_GROUP) {
				tv_shadow_apply(&sa, &ga);
				tv_shadow_apply(&sb, &ga);
				db.pos += (size_t)(ga.end_offset - ga.offset);
				db.groups++;
			}
			while (da.pos < pa && tv_dec_next(&da, &ga) == TV_GROUP)
				tv_shadow_apply(&sa, &ga);
			while (db.pos < pb && tv_dec_next(&db, &gb) == TV_GROUP)
				tv_shadow_apply(&sb, &gb);
		}
		sta = tv_dec_next(&da, &ga);
		stb = tv_dec_next(&db, &gb);
		/* An interrupt in one trace only: an input when declared. */
		while (irq_nondet && sta == TV_GROUP && stb == TV_GROUP &&
		       is_interrupt(&ga, opts->cfg_a.xlen) != is_interrupt(&gb, opts->cfg_b.xlen)) {
			if (is_interrupt(&ga, opts->cfg_a.xlen))
				sta = excursion(&da, &sa, &ga, &res->skipped);
			else
				stb = excursion(&db, &sb, &gb, &res->skipped);
		}

		if (sta == TV_ERROR || stb == TV_ERROR) {
			res->err_trace = sta == TV_ERROR ? 1 : 2;
			res->err = sta == TV_ERROR ? da.err : db.err;
			rc = -1;
			break;
		}
		if (sta == TV_END && stb == TV_END)
			break;
		if (sta == TV_END || stb == TV_END) {
			c.ga = sta == TV_GROUP ? &ga : NULL;
			c.gb = stb == TV_GROUP ? &gb : NULL;
			report(&c, NULL, sta == TV_END ? "trace A ends here"
							: "trace B ends here");
			break;
		}
		if (c.ui)
			inputs_before(&c, &ga);
		tv_shadow_apply(&sa, &ga);
		tv_shadow_apply(&sb, &gb);
		c.ga = &ga;
		c.gb = &gb;
		if (c.ui)
			inputs_syscall(&c);
		compare_groups(&c);
		if (c.ui)
			inputs_after(&c);
		res->groups++;
		pa = da.pos;
		pb = db.pos;
	}
	tv_dec_free(&da);
	tv_dec_free(&db);
	tv_shadow_free(&sa);
	tv_shadow_free(&sb);
	if (c.ui)
		tv_shadow_free(&ui.mem);
	if (rc == 0 && res->divergences)
		rc = 1;
	return rc;
}
