// SPDX-License-Identifier: BSD-2-Clause
/*
 * synth.c - see synth.h.  The encodings are the unprivileged ISA's
 * formats (B, J, I, U; CB, CJ, CR); the run follows each instruction's
 * semantics, with random outcomes where a program's data would decide.
 */
#include <stdlib.h>
#include <string.h>

#include "synth.h"

enum slot_kind {
	S_LIN32, S_LIN16, S_BR32, S_BR16, S_JAL_CALL, S_JAL_JUMP, S_CJ,
	S_JALR_CALL, S_RET32, S_RET16, S_SWAP, S_CJALR, S_IJUMP,
	S_LUI, S_AUIPC, S_PAIR_JALR, S_ECALL, S_MRET, S_KINDS
};

/* Weights per 1000. */
static const unsigned int weight[S_KINDS] = {
	[S_LIN32] = 315, [S_LIN16] = 250, [S_BR32] = 110, [S_BR16] = 50,
	[S_JAL_CALL] = 40, [S_JAL_JUMP] = 20, [S_CJ] = 20, [S_JALR_CALL] = 30,
	[S_RET32] = 40, [S_RET16] = 30, [S_SWAP] = 10, [S_CJALR] = 10,
	[S_IJUMP] = 20, [S_LUI] = 20, [S_AUIPC] = 20, [S_ECALL] = 10,
	[S_MRET] = 5, [S_PAIR_JALR] = 0,
};

struct slot {
	uint64_t addr;
	uint8_t kind, len;
	uint8_t bias;		/* branches: taken in bias/256 */
	uint32_t word;
	uint64_t target;	/* direct transfers, pairs */
};

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static uint32_t enc_b(int64_t off, unsigned int rs1, unsigned int rs2)
{
	return (uint32_t)(((off >> 12) & 1) << 31 | ((off >> 5) & 0x3F) << 25 |
			  rs2 << 20 | rs1 << 15 | 1u << 12 |	/* bne */
			  ((off >> 1) & 0xF) << 8 | ((off >> 11) & 1) << 7 | 0x63);
}

static uint32_t enc_j(int64_t off, unsigned int rd)
{
	return (uint32_t)(((off >> 20) & 1) << 31 | ((off >> 1) & 0x3FF) << 21 |
			  ((off >> 11) & 1) << 20 | ((off >> 12) & 0xFF) << 12 |
			  rd << 7 | 0x6F);
}

static uint32_t enc_jalr(unsigned int rd, unsigned int rs1, int64_t imm)
{
	return (uint32_t)((imm & 0xFFF) << 20 | rs1 << 15 | rd << 7 | 0x67);
}

static uint32_t enc_cj(int64_t off)
{
	return (uint32_t)(0xA001 | ((off >> 11) & 1) << 12 | ((off >> 4) & 1) << 11 |
			  ((off >> 8) & 3) << 9 | ((off >> 10) & 1) << 8 |
			  ((off >> 6) & 1) << 7 | ((off >> 7) & 1) << 6 |
			  ((off >> 1) & 7) << 3 | ((off >> 5) & 1) << 2);
}

static uint32_t enc_cbnez(int64_t off)	/* c.bnez x8 */
{
	return (uint32_t)(0xE001 | ((off >> 8) & 1) << 12 | ((off >> 3) & 3) << 10 |
			  ((off >> 6) & 3) << 5 | ((off >> 1) & 3) << 3 |
			  ((off >> 5) & 1) << 2);
}

/* A slot (by index) near FROM within [-range, range], or -1. */
static long pick_near(const struct slot *sl, unsigned int n, unsigned int from,
		      int64_t range, uint64_t *seed, bool tight)
{
	int tries;

	for (tries = 0; tries < 16; tries++) {
		long span = tight ? 6 : (long)(range / 3);
		long i = (long)from + (long)(rnd(seed) % (2 * span + 1)) - span;
		int64_t d;

		if (tight)
			i = (long)from - 1 - (long)(rnd(seed) % 6);
		if (i < 0 || i >= (long)n)
			continue;
		d = (int64_t)(sl[i].addr - sl[from].addr);
		if (d >= -range && d <= range - 2)
			return i;
	}
	return -1;
}

static long slot_of(const struct slot *sl, unsigned int n, uint64_t addr)
{
	long lo = 0, hi = (long)n - 1;

	while (lo <= hi) {
		long mid = (lo + hi) / 2;

		if (sl[mid].addr == addr)
			return mid;
		if (sl[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

/* Pushes a return address; a full stack forgets its oldest. */
static void spush(uint64_t *stack, size_t *depth, size_t max, uint64_t v)
{
	if (*depth == max) {
		memmove(stack, stack + 1, (max - 1) * sizeof(*stack));
		(*depth)--;
	}
	stack[(*depth)++] = v;
}

int synth_build(struct synth *s, const struct synth_opts *o, size_t n_insns)
{
	unsigned int n = o->n_slots, i, max_depth = o->max_depth ? o->max_depth : 64;
	uint64_t seed = o->seed | 1, addr = o->base, *stack;
	struct slot *sl = calloc(n, sizeof(*sl));
	size_t depth = 0, k;
	long cur, prev = -1;

	memset(s, 0, sizeof(*s));
	stack = calloc(max_depth, sizeof(*stack));
	if (!sl || !stack || n < 16)
		goto fail;
	/* Kinds and addresses. */
	for (i = 0; i < n; i++) {
		unsigned int r = rnd(&seed) % 1000, kind = 0;

		while (r >= weight[kind]) {
			r -= weight[kind];
			kind++;
		}
		if ((kind == S_LUI || kind == S_AUIPC) && i + 1 >= n - 1)
			kind = S_LIN32;
		if (i == n - 1)
			kind = S_IJUMP;
		sl[i].kind = kind;
		sl[i].len = kind == S_LIN16 || kind == S_BR16 || kind == S_CJ ||
			    kind == S_RET16 || kind == S_CJALR ? 2 : 4;
		sl[i].addr = addr;
		sl[i].bias = (uint8_t)(rnd(&seed) % 3 == 0 ? 30 : rnd(&seed) % 2 ? 128 : 230);
		addr += sl[i].len;
		if (kind == S_LUI || kind == S_AUIPC) {
			i++;
			sl[i].kind = S_PAIR_JALR;
			sl[i].len = 4;
			sl[i].addr = addr;
			addr += 4;
		}
	}
	/* Encodings, targets. */
	for (i = 0; i < n; i++) {
		struct slot *t = &sl[i];
		long j;

		switch (t->kind) {
		case S_LIN32: t->word = 0x006282b3; break;	/* add x5,x5,x6 */
		case S_LIN16: t->word = 0x0405; break;		/* c.addi x8,1 */
		case S_BR32:
			j = pick_near(sl, n, i, 4096, &seed, rnd(&seed) % 2);
			if (j < 0) {
				t->kind = S_LIN32;
				t->word = 0x006282b3;
				break;
			}
			t->target = sl[j].addr;
			t->word = enc_b((int64_t)(t->target - t->addr), 5, 6);
			break;
		case S_BR16:
			j = pick_near(sl, n, i, 256, &seed, rnd(&seed) % 2);
			if (j < 0) {
				t->kind = S_LIN16;
				t->word = 0x0405;
				break;
			}
			t->target = sl[j].addr;
			t->word = enc_cbnez((int64_t)(t->target - t->addr));
			break;
		case S_JAL_CALL:
		case S_JAL_JUMP:
			j = pick_near(sl, n, i, 1 << 20, &seed, false);
			if (j < 0)
				j = 0;
			t->target = sl[j].addr;
			t->word = enc_j((int64_t)(t->target - t->addr),
					t->kind == S_JAL_CALL ? 1 : 0);
			break;
		case S_CJ:
			j = pick_near(sl, n, i, 2048, &seed, false);
			if (j < 0) {
				t->kind = S_LIN16;
				t->word = 0x0405;
				break;
			}
			t->target = sl[j].addr;
			t->word = enc_cj((int64_t)(t->target - t->addr));
			break;
		case S_JALR_CALL: t->word = enc_jalr(1, 6, 0); break;
		case S_RET32: t->word = enc_jalr(0, 1, 0); break;
		case S_RET16: t->word = 0x8082; break;		/* c.jr ra */
		case S_SWAP: t->word = enc_jalr(1, 5, 0); break;
		case S_CJALR: t->word = 0x9382; break;		/* c.jalr x7 */
		case S_IJUMP: t->word = enc_jalr(0, 7, 0); break;
		case S_ECALL: t->word = 0x00000073; break;
		case S_MRET: t->word = 0x30200073; break;
		case S_LUI:
		case S_AUIPC: {
			/* rd x7 (lui: jump) or ra (auipc: call), target any slot. */
			uint64_t tgt = sl[rnd(&seed) % n].addr, val;
			unsigned int rd = t->kind == S_LUI ? 7 : 1;
			int64_t rel = t->kind == S_LUI ? (int64_t)tgt
						       : (int64_t)(tgt - t->addr);
			int64_t hi = (rel + 0x800) >> 12, lo;

			val = (uint64_t)(int64_t)(int32_t)((uint32_t)hi << 12);
			if (t->kind == S_AUIPC)
				val += t->addr;
			lo = (int64_t)(tgt - val);
			t->word = (uint32_t)hi << 12 | rd << 7 |
				  (t->kind == S_LUI ? 0x37 : 0x17);
			sl[i + 1].word = enc_jalr(t->kind == S_LUI ? 0 : 1, rd, lo);
			sl[i + 1].target = tgt;
			t->target = tgt;
			i++;
			break;
		}
		}
	}
	s->base = o->base;
	s->code_len = addr - o->base;
	s->code = malloc(s->code_len);
	s->pc = malloc(n_insns * sizeof(*s->pc));
	s->word = malloc(n_insns * sizeof(*s->word));
	if (!s->code || !s->pc || !s->word)
		goto fail;
	for (i = 0; i < n; i++) {
		uint8_t *p = s->code + (sl[i].addr - o->base);

		p[0] = (uint8_t)sl[i].word;
		p[1] = (uint8_t)(sl[i].word >> 8);
		if (sl[i].len == 4) {
			p[2] = (uint8_t)(sl[i].word >> 16);
			p[3] = (uint8_t)(sl[i].word >> 24);
		}
	}
	/* The run. */
	cur = 0;
	for (k = 0; k < n_insns; k++) {
		struct slot *t = &sl[cur];
		long next = cur + 1 < (long)n ? cur + 1 : 0;
		uint64_t ret = t->addr + t->len;
		long any = (long)(rnd(&seed) % n);

		s->pc[k] = t->addr;
		s->word[k] = t->word;
		switch (t->kind) {
		case S_BR32:
		case S_BR16:
			if (rnd(&seed) % 256 < t->bias)
				next = slot_of(sl, n, t->target);
			break;
		case S_JAL_CALL:
		case S_JALR_CALL:
		case S_CJALR:
			spush(stack, &depth, max_depth, ret);
			next = t->kind == S_JAL_CALL ? slot_of(sl, n, t->target) : any;
			break;
		case S_JAL_JUMP:
		case S_CJ:
			next = slot_of(sl, n, t->target);
			break;
		case S_RET32:
		case S_RET16:
		case S_SWAP:
			if (depth && !(o->wild_returns && rnd(&seed) % 16 == 0))
				next = slot_of(sl, n, stack[--depth]);
			else
				next = any;
			if (t->kind == S_SWAP)
				spush(stack, &depth, max_depth, ret);
			break;
		case S_IJUMP:
		case S_MRET:
			next = any;
			break;
		case S_PAIR_JALR:
			/* The auipc pair is a call (jalr ra, imm(ra)). */
			next = prev == cur - 1 ? slot_of(sl, n, t->target) : any;
			if (sl[cur - 1].kind == S_AUIPC)
				spush(stack, &depth, max_depth, ret);
			break;
		default:
			break;
		}
		if (next < 0)
			goto fail;
		if (o->interrupts && rnd(&seed) % 512 == 0)
			next = any;
		prev = cur;
		cur = next;
	}
	s->n = n_insns;
	free(sl);
	free(stack);
	return 0;
fail:
	free(sl);
	free(stack);
	synth_free(s);
	return -1;
}

void synth_free(struct synth *s)
{
	free(s->code);
	free(s->pc);
	free(s->word);
	memset(s, 0, sizeof(*s));
}
