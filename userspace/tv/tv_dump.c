// SPDX-License-Identifier: BSD-2-Clause
/*
 * tv_dump.c - the trace listing (`rvperf tv dump`), formatted without
 * stdio: fields go into a buffer with tv_fmt.h's writers, the buffer goes
 * out with one fwrite per 64 KiB.  The text is what the listing's printf
 * calls wrote before (tests/tv/fastpath-test holds it to golden listings).
 */
#include "tv_dump.h"

#include <stdlib.h>
#include <string.h>

#include "qemu-model/core/insnhw.h"
#include "rvperf/ctr.h"
#include "tv_disas.h"
#include "tv_fmt.h"

/* Buffered text before a write; every line fits in LINE_MAX_LEN. */
#define DUMP_BUF	(64u << 10)
#define LINE_MAX_LEN	512u
/* The disassembler's buffer (tv_disas truncates to it). */
#define DIS_LEN		96

/*
 * Disassemblies kept by instruction word (the pc checked for pc-relative ones):
 * a program runs the same instructions over and over, and disassembling
 * costs more than the rest of a group's text.  Direct-mapped.
 */
#define DIS_CACHE_BITS	10
struct tv_dump_dis {
	uint64_t pc;		/* where it was disassembled */
	uint32_t insn;
	bool valid;
	bool pc_relative;	/* its text holds for that pc only */
	uint8_t len;
	char text[DIS_LEN];
};

/* A register's name, padded as "%-8s" (the widest name is 13). */
struct tv_dump_name {
	char text[15];
	uint8_t len;
};

int tv_dump_init(struct tv_dump *dp, const struct tv_config *cfg, FILE *out)
{
	memset(dp, 0, sizeof(*dp));
	dp->cfg = *cfg;
	dp->out = out;
	dp->buf = malloc(DUMP_BUF + LINE_MAX_LEN);
	dp->dis = calloc(1u << DIS_CACHE_BITS, sizeof(*dp->dis));
	dp->names = malloc(TV_NREGS * sizeof(*dp->names));
	if (!dp->buf || !dp->dis || !dp->names) {
		tv_dump_free(dp);
		return -1;
	}
	for (unsigned int r = 0; r < TV_NREGS; r++) {
		struct tv_dump_name *n = &dp->names[r];
		char name[32];
		size_t len = strlen(tv_reg_name((uint16_t)r, name, sizeof(name)));

		if (len > sizeof(n->text))	/* none is: see above */
			len = sizeof(n->text);
		memset(n->text, ' ', sizeof(n->text));
		memcpy(n->text, name, len);
		n->len = (uint8_t)(len < 8 ? 8 : len);
	}
	return 0;
}

void tv_dump_free(struct tv_dump *dp)
{
	free(dp->buf);
	free(dp->dis);
	free(dp->names);
	dp->buf = NULL;
	dp->dis = NULL;
	dp->names = NULL;
}

int tv_dump_flush(struct tv_dump *dp)
{
	if (dp->len && dp->out && fwrite(dp->buf, 1, dp->len, dp->out) != dp->len)
		dp->write_error = true;
	dp->written += dp->len;
	dp->len = 0;
	return dp->write_error ? -1 : 0;
}

/* Where the next line goes, with room for it. */
static inline char *line(struct tv_dump *dp)
{
	if (dp->len > DUMP_BUF)
		tv_dump_flush(dp);
	return dp->buf + dp->len;
}

static inline void line_end(struct tv_dump *dp, char *p)
{
	*p++ = '\n';
	dp->len = (size_t)(p - dp->buf);
}

static const char *transfer_name(unsigned int type)
{
	switch (type) {
	case RVP_CTRDATA_TYPE_EXCEPTION: return "exception";
	case RVP_CTRDATA_TYPE_TRAP_RETURN: return "trap return";
	case RVP_CTRDATA_TYPE_NOT_TAKEN_BRANCH: return "branch";
	case RVP_CTRDATA_TYPE_TAKEN_BRANCH: return "branch";
	case RVP_CTRDATA_TYPE_INDIRECT_CALL: return "indirect call";
	case RVP_CTRDATA_TYPE_DIRECT_CALL: return "call";
	case RVP_CTRDATA_TYPE_INDIRECT_JUMP: return "indirect jump";
	case RVP_CTRDATA_TYPE_DIRECT_JUMP: return "jump";
	case RVP_CTRDATA_TYPE_COROUTINE_SWAP: return "co-routine swap";
	case RVP_CTRDATA_TYPE_FUNCTION_RETURN: return "return";
	case RVP_CTRDATA_TYPE_OTHER_INDIRECT_JUMP: return "indirect jump";
	case RVP_CTRDATA_TYPE_OTHER_DIRECT_JUMP: return "jump";
	}
	return NULL;
}

/* "name" then spaces up to WIDTH ("%-*s"). */
static inline char *padded(char *p, const char *s, unsigned int width)
{
	char *start = p;

	p = fmt_str(p, s);
	return fmt_pad(p, start, width);
}

/* INSN at PC disassembled: valid until the next call. */
static const struct tv_dump_dis *disas(struct tv_dump *dp, uint32_t insn, uint64_t pc)
{
	/* By word alone: a pc-relative word recurs at its own pc mostly. */
	struct tv_dump_dis *e = &dp->dis[(insn * 0x9e3779b1u) >> (32 - DIS_CACHE_BITS)];

	if (e->valid && e->insn == insn && (!e->pc_relative || e->pc == pc))
		return e;
	tv_disas(insn, pc, dp->cfg.xlen, e->text, sizeof(e->text));
	e->len = (uint8_t)strlen(e->text);
	e->insn = insn;
	e->pc = pc;
	e->pc_relative = tv_disas_pc_relative(insn, dp->cfg.xlen);
	e->valid = true;
	return e;
}

/* The decimal text of a group's index. */
static inline char *put_index(char *p, struct tv_dump *dp, uint64_t index)
{
	char *t = dp->index_text;
	int i = (int)dp->index_len - 1;

	/*
	 * Plus one, as an odometer turns, in the text and in its copy:
	 * reading the text back right after a digit was stored would wait
	 * for the store (a wide load over a narrow store is not forwarded).
	 */
	memcpy(p, t, sizeof(dp->index_text));
	if (dp->index_len && index == dp->index + 1) {
		while (i >= 0 && t[i] == '9')
			t[i--] = '0';
		if (i >= 0) {
			p[i] = ++t[i];
			memset(p + i + 1, '0', dp->index_len - (unsigned int)i - 1);
			dp->index = index;
			return p + dp->index_len;
		}
	} else if (dp->index_len && index == dp->index) {
		return p + dp->index_len;
	}
	/* A digit more, or another index: written out. */
	dp->index_len = (unsigned int)(fmt_udec(t, index) - t);
	dp->index = index;
	memcpy(p, t, dp->index_len);
	return p + dp->index_len;
}

/* The disassembly's text. */
static inline char *put_dis(char *p, const struct tv_dump_dis *e)
{
	/* Most are shorter than 32: a copy of a size known when compiling
	 * (a few moves; a variable size would be a call or rep movs). */
	if (e->len <= 32)
		memcpy(p, e->text, 32);
	else
		memcpy(p, e->text, sizeof(e->text));
	return p + e->len;
}

/* A register's name padded to 8 ("%-8s"). */
static inline char *put_reg(char *p, const struct tv_dump *dp, uint16_t reg)
{
	char name[32];

	if (reg < TV_NREGS) {
		memcpy(p, dp->names[reg].text, sizeof(dp->names[reg].text));
		return p + dp->names[reg].len;
	}
	return padded(p, tv_reg_name(reg, name, sizeof(name)), 8);
}

/* One item's line; DIS is the instruction item's disassembly. */
static void dump_item(struct tv_dump *dp, const struct tv_item *it,
		      const struct tv_dump_dis *dis)
{
	char *p = line(dp);

	*p++ = ' ';
	*p++ = ' ';
	p = fmt_hex(p, it->offset, 8);
	*p++ = ' ';
	*p++ = ' ';
	switch (it->op) {
	case TV_OP_FULL_REG:
		p = put_reg(p, dp, it->reg);
		p = fmt_lit(p, " = 0x");
		p = fmt_hex(p, it->value, tv_reg_bytes(&dp->cfg, it->reg) * 2);
		break;
	case TV_OP_INCR_REG_ADD:
		p = put_reg(p, dp, it->reg);
		p = fmt_lit(p, " += ");
		p = fmt_sdec(p, (int64_t)it->value);
		break;
	case TV_OP_INCR_REG_OR:
		p = put_reg(p, dp, it->reg);
		p = fmt_lit(p, " |= 0x");
		p = fmt_hex(p, it->value, 2);
		break;
	case TV_OP_ADDL_STATE:
		if (it->id == TV_AS_PRIV) {
			p = fmt_lit(p, "priv     = ");
			p = fmt_udec(p, it->value);
			p = fmt_str(p, it->value == 3 ? " (M)" : it->value == 1 ? " (S)"
				    : it->value == 0 ? " (U)" : " (?)");
		} else {
			p = padded(p, tv_addl_name(it->id), 8);
			p = fmt_lit(p, " = 0x");
			p = fmt_hex(p, it->value, 1);
		}
		break;
	case TV_OP_MEM_REQ:
		p = fmt_lit(p, "mem ");
		p = padded(p, tv_mem_op_name(it->id), 7);
		p = fmt_lit(p, " [0x");
		p = fmt_hex(p, it->value, 1);
		p = fmt_lit(p, "] ");
		p = fmt_udec(p, 1u << it->size);
		p = fmt_lit(p, " bytes");
		if (it->has_data) {
			p = fmt_lit(p, " data 0x");
			p = fmt_hex(p, it->data, 1);
		}
		break;
	case TV_OP_MEM_RSP:
		p = fmt_str(p, it->result == 0 ? "mem response ok" : it->result == 1
			    ? "mem response failed" : "mem response ?");
		if (it->has_data) {
			p = fmt_lit(p, " data 0x");
			p = fmt_hex(p, it->data, 1);
		}
		break;
	case TV_OP_INSN16:
	case TV_OP_INSN32:
		p = fmt_lit(p, "insn ");
		p = fmt_hex(p, it->value, it->op == TV_OP_INSN16 ? 4 : 8);
		*p++ = ' ';
		*p++ = ' ';
		p = put_dis(p, dis);
		break;
	default:
		p = fmt_str(p, tv_op_name(it->op));
	}
	line_end(dp, p);
}

void tv_dump_group(struct tv_dump *dp, const struct tv_group *g)
{
	const struct tv_item *it, *end = g->items + g->n_items;
	uint64_t pc_before = dp->pc, pc = dp->pc;
	uint32_t insn = 0;
	unsigned int ilen = 0;
	bool incr_pc = false, new_pc = false;
	char *p;

	/*
	 * The pc after the group as tv_shadow_apply has it: a pc item sets
	 * it, increment-pc adds the (last) instruction's length unless a pc
	 * item came.  Only the pc is needed here, not the whole shadow state.
	 */
	for (it = g->items; it < end; it++) {
		switch (it->op) {
		case TV_OP_INCR_PC:
			incr_pc = true;
			break;
		case TV_OP_ADDL_STATE:
			if (it->id == TV_AS_PC) {
				pc = it->value;
				new_pc = true;
			}
			break;
		case TV_OP_INSN16:
		case TV_OP_INSN32:
			insn = (uint32_t)it->value;
			ilen = it->op == TV_OP_INSN16 ? 2 : 4;
			break;
		}
	}
	if (incr_pc && !new_pc && ilen)
		pc = (pc + ilen) & (dp->cfg.xlen == 32 ? 0xffffffffull : ~0ull);
	dp->pc = pc;

	p = line(dp);
	p = fmt_lit(p, "group ");
	p = put_index(p, dp, g->index);
	p = fmt_lit(p, " at byte 0x");
	p = fmt_hex(p, g->offset, 1);
	if (!g->grouped)
		p = fmt_lit(p, " (outside begin/end)");
	if (g->has_init)
		p = fmt_lit(p, " state initialization");
	if (g->has_reset)
		p = fmt_lit(p, " hart reset");
	if (g->forgiven)
		p = fmt_lit(p, " (lenient: forgave a malformed boundary)");
	if (g->has_insn) {
		struct insnhw_class c;
		const char *t;
		bool taken;

		p = fmt_lit(p, ": pc 0x");
		p = fmt_hex(p, pc_before, 1);
		*p++ = ' ';
		*p++ = ' ';
		p = put_dis(p, disas(dp, insn, pc_before));
		/* The classifier (qemu-model/core) names the transfer. */
		insnhw_classify(insn, dp->cfg.xlen, 0, true, &c);
		taken = pc != pc_before + c.length;
		insnhw_classify(insn, dp->cfg.xlen, 0, taken, &c);
		t = transfer_name(c.type);
		if (t) {
			p = fmt_lit(p, "  [");
			p = fmt_str(p, t);
			if (c.conditional)
				p = fmt_str(p, taken ? " taken" : " not taken");
			*p++ = ']';
		}
	}
	line_end(dp, p);
	for (it = g->items; it < end; it++)
		dump_item(dp, it, it->op == TV_OP_INSN16 || it->op == TV_OP_INSN32
			  ? disas(dp, (uint32_t)it->value, pc_before) : NULL);
	p = line(dp);
	line_end(dp, p);
}

void tv_dump_error(struct tv_dump *dp, const struct tv_error *err)
{
	char *p = line(dp);

	p = fmt_lit(p, "error at byte 0x");
	p = fmt_hex(p, err->offset, 1);
	p = fmt_lit(p, ": ");
	p = fmt_str(p, err->msg);
	p = fmt_lit(p, " (skipping to the next begin-group)\n");
	line_end(dp, p);
}
