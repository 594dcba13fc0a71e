// SPDX-License-Identifier: BSD-2-Clause
/*
 * tv_codec.c - encoder and streaming decoder of the tandem-verification
 * trace protocol, and the trace configuration.
 *
 * Byte order: every multi-byte field is little-endian; the two 4-bit
 * fields of a memory request (op, size) and response (size, result) share
 * a byte, the first one in the low nibble.
 */
#include "tv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------- config */

void tv_config_default(struct tv_config *cfg)
{
	cfg->xlen = 64;
	cfg->flen = 64;
	cfg->mlen = 64;
	cfg->absent = 0;
}

int tv_config_check(const struct tv_config *cfg, char *err, size_t errlen)
{
	if (cfg->xlen != 32 && cfg->xlen != 64) {
		snprintf(err, errlen, "xlen must be 32 or 64, not %u", cfg->xlen);
		return -1;
	}
	if (cfg->flen != 0 && cfg->flen != 32 && cfg->flen != 64) {
		snprintf(err, errlen, "flen must be 0, 32 or 64, not %u", cfg->flen);
		return -1;
	}
	if (cfg->mlen < 32 || cfg->mlen > 64) {
		snprintf(err, errlen, "mlen must be 32 to 64, not %u", cfg->mlen);
		return -1;
	}
	return 0;
}

static const char *const elem_names[] = {
	"pc", "insn", "gpr", "fpr", "csr", "priv", "paddr", "eaddr",
	"stdata", "mem", "mtime", "pcpaddr",
};

unsigned int tv_elem_by_name(const char *name)
{
	for (size_t i = 0; i < sizeof(elem_names) / sizeof(elem_names[0]); i++)
		if (strcmp(name, elem_names[i]) == 0)
			return 1u << i;
	return 0;
}

const char *tv_elem_name(unsigned int bit)
{
	for (size_t i = 0; i < sizeof(elem_names) / sizeof(elem_names[0]); i++)
		if (bit == 1u << i)
			return elem_names[i];
	return "?";
}

size_t tv_config_format(const struct tv_config *cfg, char *buf, size_t len)
{
	size_t n = (size_t)snprintf(buf, len, "xlen=%u flen=%u mlen=%u absent=",
				    cfg->xlen, cfg->flen, cfg->mlen);
	bool first = true;

	for (size_t i = 0; i < sizeof(elem_names) / sizeof(elem_names[0]); i++) {
		if (!(cfg->absent & (1u << i)))
			continue;
		n += (size_t)snprintf(buf + (n < len ? n : len),
				      n < len ? len - n : 0, "%s%s",
				      first ? "" : ",", elem_names[i]);
		first = false;
	}
	if (first)
		n += (size_t)snprintf(buf + (n < len ? n : len),
				      n < len ? len - n : 0, "none");
	return n;
}

int tv_config_parse(struct tv_config *cfg, const char *text, char *err,
		    size_t errlen)
{
	char *copy = strdup(text), *save = NULL, *tok;
	int rc = 0;

	if (!copy) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (tok = strtok_r(copy, " \t\n", &save); tok && !rc;
	     tok = strtok_r(NULL, " \t\n", &save)) {
		char *eq = strchr(tok, '='), *end;
		unsigned long v;

		if (!eq) {
			snprintf(err, errlen, "'%s' is not key=value", tok);
			rc = -1;
			break;
		}
		*eq++ = 0;
		if (strcmp(tok, "absent") == 0) {
			char *s2 = NULL, *e;

			cfg->absent = 0;
			if (strcmp(eq, "none") == 0)
				continue;
			for (e = strtok_r(eq, ",", &s2); e;
			     e = strtok_r(NULL, ",", &s2)) {
				unsigned int bit = tv_elem_by_name(e);

				if (!bit) {
					snprintf(err, errlen,
						 "unknown element '%s'", e);
					rc = -1;
					break;
				}
				cfg->absent |= bit;
			}
			continue;
		}
		v = strtoul(eq, &end, 0);
		if (*eq == 0 || *end) {
			snprintf(err, errlen, "'%s' is not a number", eq);
			rc = -1;
		} else if (strcmp(tok, "xlen") == 0) {
			cfg->xlen = (unsigned int)v;
		} else if (strcmp(tok, "flen") == 0) {
			cfg->flen = (unsigned int)v;
		} else if (strcmp(tok, "mlen") == 0) {
			cfg->mlen = (unsigned int)v;
		} else {
			snprintf(err, errlen, "unknown key '%s'", tok);
			rc = -1;
		}
	}
	free(copy);
	return rc ? rc : tv_config_check(cfg, err, errlen);
}

/* ------------------------------------------------------------- widths */

bool tv_mem_req_has_data(unsigned int op)
{
	return op != TV_MEM_LOAD && op != TV_MEM_LR && op != TV_MEM_FETCH;
}

bool tv_mem_rsp_has_data(unsigned int op)
{
	/* A store or sc answers with its result only. */
	return op != TV_MEM_STORE && op != TV_MEM_SC;
}

unsigned int tv_addl_bytes(const struct tv_config *cfg, unsigned int id)
{
	switch (id) {
	case TV_AS_PRIV:
	case TV_AS_STORE8:
		return 1;
	case TV_AS_STORE16:
		return 2;
	case TV_AS_STORE32:
		return 4;
	case TV_AS_STORE64:
	case TV_AS_MTIME:
		return 8;
	case TV_AS_PADDR:
	case TV_AS_EADDR:
	case TV_AS_PC_PADDR:
		return tv_mlen_bytes(cfg);
	case TV_AS_PC:
		return cfg->xlen / 8;
	default:
		return 0;
	}
}

unsigned int tv_reg_bytes(const struct tv_config *cfg, uint16_t addr)
{
	return TV_REG_IS_FPR(addr) ? cfg->flen / 8 : cfg->xlen / 8;
}

/* ------------------------------------------------------------- encoder */

void tv_buf_free(struct tv_buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}

static uint8_t *buf_room(struct tv_buf *b, size_t n)
{
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 4096;
		uint8_t *p;

		while (cap < b->len + n)
			cap *= 2;
		p = realloc(b->data, cap);
		if (!p) {
			b->oom = true;
			return NULL;
		}
		b->data = p;
		b->cap = cap;
	}
	b->len += n;
	return b->data + b->len - n;
}

static void put_le(uint8_t *p, uint64_t v, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

void tv_enc_op(struct tv_buf *b, enum tv_op op)
{
	uint8_t *p = buf_room(b, 1);

	if (p)
		p[0] = (uint8_t)op;
}

void tv_enc_raw(struct tv_buf *b, const uint8_t *bytes, size_t n)
{
	uint8_t *p = buf_room(b, n);

	if (p)
		memcpy(p, bytes, n);
}

void tv_enc_full_reg(struct tv_buf *b, const struct tv_config *cfg,
		     uint16_t addr, uint64_t value)
{
	unsigned int n = tv_reg_bytes(cfg, addr);
	uint8_t *p = buf_room(b, 3 + n);

	if (!p)
		return;
	p[0] = TV_OP_FULL_REG;
	put_le(p + 1, addr, 2);
	put_le(p + 3, value, n);
}

void tv_enc_incr_reg_add(struct tv_buf *b, uint16_t addr, int8_t delta)
{
	uint8_t *p = buf_room(b, 4);

	if (!p)
		return;
	p[0] = TV_OP_INCR_REG_ADD;
	put_le(p + 1, addr, 2);
	p[3] = (uint8_t)delta;
}

void tv_enc_incr_reg_or(struct tv_buf *b, uint16_t addr, uint8_t mask)
{
	uint8_t *p = buf_room(b, 4);

	if (!p)
		return;
	p[0] = TV_OP_INCR_REG_OR;
	put_le(p + 1, addr, 2);
	p[3] = mask;
}

void tv_enc_addl(struct tv_buf *b, const struct tv_config *cfg,
		 enum tv_addl id, uint64_t value)
{
	unsigned int n = tv_addl_bytes(cfg, id);
	uint8_t *p = buf_room(b, 2 + n);

	if (!p)
		return;
	p[0] = TV_OP_ADDL_STATE;
	p[1] = (uint8_t)id;
	put_le(p + 2, value, n);
}

void tv_enc_mem_req(struct tv_buf *b, const struct tv_config *cfg,
		    uint64_t addr, enum tv_mem_op op, unsigned int size,
		    uint64_t data)
{
	unsigned int na = tv_mlen_bytes(cfg);
	unsigned int nd = tv_mem_req_has_data(op) ? 1u << (size & 3) : 0;
	uint8_t *p = buf_room(b, 2 + na + nd);

	if (!p)
		return;
	p[0] = TV_OP_MEM_REQ;
	put_le(p + 1, addr, na);
	p[1 + na] = (uint8_t)((op & 0xf) | (size & 0xf) << 4);
	put_le(p + 2 + na, data, nd);
}

void tv_enc_mem_rsp(struct tv_buf *b, unsigned int size, unsigned int result,
		    bool has_data, uint64_t data)
{
	unsigned int nd = has_data ? 1u << (size & 3) : 0;
	uint8_t *p = buf_room(b, 2 + nd);

	if (!p)
		return;
	p[0] = TV_OP_MEM_RSP;
	p[1] = (uint8_t)((size & 0xf) | (result & 0xf) << 4);
	put_le(p + 2, data, nd);
}

void tv_enc_insn(struct tv_buf *b, uint32_t insn)
{
	bool compressed = (insn & 3) != 3;
	uint8_t *p = buf_room(b, compressed ? 3 : 5);

	if (!p)
		return;
	p[0] = compressed ? TV_OP_INSN16 : TV_OP_INSN32;
	put_le(p + 1, insn, compressed ? 2 : 4);
}

void tv_enc_item(struct tv_buf *b, const struct tv_config *cfg,
		 const struct tv_item *it)
{
	switch (it->op) {
	case TV_OP_FULL_REG:
		tv_enc_full_reg(b, cfg, it->reg, it->value);
		break;
	case TV_OP_INCR_REG_ADD:
		tv_enc_incr_reg_add(b, it->reg, (int8_t)it->value);
		break;
	case TV_OP_INCR_REG_OR:
		tv_enc_incr_reg_or(b, it->reg, (uint8_t)it->value);
		break;
	case TV_OP_ADDL_STATE:
		tv_enc_addl(b, cfg, it->id, it->value);
		break;
	case TV_OP_MEM_REQ:
		tv_enc_mem_req(b, cfg, it->value, it->id, it->size, it->data);
		break;
	case TV_OP_MEM_RSP:
		tv_enc_mem_rsp(b, it->size, it->result, it->has_data, it->data);
		break;
	case TV_OP_INSN16: {
		uint8_t *p = buf_room(b, 3);

		if (p) {
			p[0] = TV_OP_INSN16;
			put_le(p + 1, it->value, 2);
		}
		break;
	}
	case TV_OP_INSN32: {
		uint8_t *p = buf_room(b, 5);

		if (p) {
			p[0] = TV_OP_INSN32;
			put_le(p + 1, it->value, 4);
		}
		break;
	}
	default:
		tv_enc_op(b, it->op);
		break;
	}
}

/* ------------------------------------------------------------- decoder */

void tv_dec_init(struct tv_decoder *d, const struct tv_config *cfg,
		 enum tv_mode mode)
{
	memset(d, 0, sizeof(*d));
	d->cfg = *cfg;
	d->mode = mode;
	d->reg_bytes[0] = (uint8_t)tv_reg_bytes(cfg, TV_REG_GPR(0));
	d->reg_bytes[1] = (uint8_t)tv_reg_bytes(cfg, TV_REG_FPR(0));
	for (unsigned int id = 0; id < 16; id++)
		d->addl_bytes[id] = (uint8_t)tv_addl_bytes(cfg, id);
}

void tv_dec_free(struct tv_decoder *d)
{
	free(d->own);
	free(d->items);
	d->own = NULL;
	d->items = NULL;
}

void tv_dec_set_buffer(struct tv_decoder *d, const uint8_t *buf, size_t len)
{
	d->in = buf;
	d->in_len = len;
	d->pos = 0;
	d->base = 0;
	d->final = true;
}

int tv_dec_feed(struct tv_decoder *d, const uint8_t *buf, size_t len)
{
	size_t keep = d->in_len - d->pos;

	/* Drop what was consumed, then append. */
	if (d->in && d->in != d->own)
		return -1;	/* mixing set_buffer and feed */
	if (d->own && d->pos)
		memmove(d->own, d->own + d->pos, keep);
	d->base += d->pos;
	d->pos = 0;
	if (keep + len > d->own_cap) {
		size_t cap = d->own_cap ? d->own_cap : 65536;
		uint8_t *p;

		while (cap < keep + len)
			cap *= 2;
		p = realloc(d->own, cap);
		if (!p)
			return -1;
		d->own = p;
		d->own_cap = cap;
	}
	if (len)
		memcpy(d->own + keep, buf, len);
	d->in = d->own;
	d->in_len = keep + len;
	return 0;
}

void tv_dec_finish(struct tv_decoder *d)
{
	d->final = true;
}

/* N (1-8) little-endian bytes at P; END bounds the buffer. */
static inline uint64_t get_le(const uint8_t *p, unsigned int n, const uint8_t *end)
{
	uint64_t v = 0;

	if (end - p >= 8) {
		/* One load, then the bytes beyond the field masked off. */
		memcpy(&v, p, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
		v = __builtin_bswap64(v);
#endif
		return n >= 8 ? v : v & ((1ull << (8 * n)) - 1);
	}
	for (unsigned int i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

static struct tv_item *new_item(struct tv_decoder *d, size_t n)
{
	if (n == d->items_cap) {
		size_t cap = d->items_cap ? d->items_cap * 2 : 64;
		struct tv_item *p = realloc(d->items, cap * sizeof(*p));

		if (!p)
			return NULL;
		d->items = p;
		d->items_cap = cap;
	}
	memset(&d->items[n], 0, sizeof(d->items[n]));
	return &d->items[n];
}

/* Outcome of parsing one item. */
enum { ITEM_OK, ITEM_SHORT, ITEM_BAD };

static enum tv_status fail(struct tv_decoder *d, size_t at, const char *msg)
{
	d->err.offset = d->base + at;
	snprintf(d->err.msg, sizeof(d->err.msg), "%s", msg);
	/* Continue after it, at a begin-group if it is one itself. */
	d->pos = d->in[at] == TV_OP_BEGIN_GROUP && at > d->pos ? at : at + 1;
	d->after_error = true;
	d->forgiven = 0;
	return TV_ERROR;
}

/*
 * Parses the payload of the item whose opcode is at P into IT.  PREV is the
 * memory request a response belongs to (NULL: none in this group).
 */
static inline __attribute__((always_inline))
int parse_item(struct tv_decoder *d, size_t p, struct tv_item *it,
	       const struct tv_item *req, size_t *next, const char **why)
{
	const uint8_t *in = d->in, *end = d->in + d->in_len;
	size_t avail = d->in_len - p - 1;
	unsigned int n, op = in[p];
	const uint8_t *q = in + p + 1;

	it->op = (uint8_t)op;
	it->offset = d->base + p;
	switch (op) {
	case TV_OP_BEGIN_GROUP:
	case TV_OP_END_GROUP:
	case TV_OP_INCR_PC:
	case TV_OP_HART_RESET:
	case TV_OP_STATE_INIT:
		*next = p + 1;
		return ITEM_OK;
	case TV_OP_FULL_REG:
		if (avail < 2)
			return ITEM_SHORT;
		it->reg = (uint16_t)(q[0] | q[1] << 8);
		n = tv_reg_bytes(&d->cfg, it->reg);
		if (n == 0) {
			*why = "floating-point register in a trace with flen=0";
			return ITEM_BAD;
		}
		if (avail < 2 + n)
			return ITEM_SHORT;
		it->value = get_le(q + 2, n, end);
		*next = p + 3 + n;
		return ITEM_OK;
	case TV_OP_INCR_REG_ADD:
	case TV_OP_INCR_REG_OR:
		if (avail < 3)
			return ITEM_SHORT;
		it->reg = (uint16_t)(q[0] | q[1] << 8);
		it->value = op == TV_OP_INCR_REG_ADD ? (uint64_t)(int64_t)(int8_t)q[2]
						     : q[2];
		*next = p + 4;
		return ITEM_OK;
	case TV_OP_ADDL_STATE:
		if (avail < 1)
			return ITEM_SHORT;
		it->id = q[0];
		n = tv_addl_bytes(&d->cfg, it->id);
		if (n == 0) {
			*why = "unknown additional-state identifier";
			return ITEM_BAD;
		}
		if (avail < 1 + n)
			return ITEM_SHORT;
		it->value = get_le(q + 1, n, end);
		if (it->id == TV_AS_PRIV && it->value > 3 && d->mode == TV_STRICT) {
			*why = "privilege mode above 3";
			return ITEM_BAD;
		}
		*next = p + 2 + n;
		return ITEM_OK;
	case TV_OP_MEM_REQ: {
		unsigned int na = tv_mlen_bytes(&d->cfg), nd;

		if (avail < na + 1)
			return ITEM_SHORT;
		it->value = get_le(q, na, end);
		it->id = q[na] & 0xf;
		it->size = q[na] >> 4;
		if (it->id > TV_MEM_FETCH) {
			*why = "unknown memory request operation";
			return ITEM_BAD;
		}
		if (it->size > 3) {
			*why = "memory request size above 64 bits";
			return ITEM_BAD;
		}
		it->has_data = tv_mem_req_has_data(it->id);
		nd = it->has_data ? 1u << it->size : 0;
		if (avail < na + 1 + nd)
			return ITEM_SHORT;
		it->data = get_le(q + na + 1, nd, end);
		*next = p + 2 + na + nd;
		return ITEM_OK;
	}
	case TV_OP_MEM_RSP: {
		unsigned int nd;

		if (!req) {
			*why = "memory response without a memory request";
			return ITEM_BAD;
		}
		if (avail < 1)
			return ITEM_SHORT;
		it->size = q[0] & 0xf;
		it->result = q[0] >> 4;
		it->id = req->id;
		if (it->size > 3) {
			*why = "memory response size above 64 bits";
			return ITEM_BAD;
		}
		if (it->result > 1 && d->mode == TV_STRICT) {
			*why = "memory response result neither success nor failure";
			return ITEM_BAD;
		}
		it->has_data = tv_mem_rsp_has_data(req->id);
		nd = it->has_data ? 1u << it->size : 0;
		if (avail < 1 + nd)
			return ITEM_SHORT;
		it->data = get_le(q + 1, nd, end);
		*next = p + 2 + nd;
		return ITEM_OK;
	}
	case TV_OP_INSN16:
		if (avail < 2)
			return ITEM_SHORT;
		it->value = get_le(q, 2, end);
		*next = p + 3;
		return ITEM_OK;
	case TV_OP_INSN32:
		if (avail < 4)
			return ITEM_SHORT;
		it->value = get_le(q, 4, end);
		*next = p + 5;
		return ITEM_OK;
	default:
		*why = "unknown opcode";
		return ITEM_BAD;
	}
}

/* Bits of the opcodes seen in a group (all opcodes are below 32). */
#define SEEN(op)	(1u << (op))
#define SEEN_INSN	(SEEN(TV_OP_INSN16) | SEEN(TV_OP_INSN32))

/* The first item of OP among N: its position in the input. */
static size_t first_item_at(const struct tv_decoder *d, size_t n, unsigned int op)
{
	for (size_t i = 0; i < n; i++)
		if (d->items[i].op == op)
			return (size_t)(d->items[i].offset - d->base);
	return d->pos;
}

/* An item's longest encoding (a memory request with MLEN and data 64). */
#define MAX_ITEM	18

static const uint64_t field_mask[9] = {
	0, 0xff, 0xffff, 0xffffff, 0xffffffff, 0xffffffffffull,
	0xffffffffffffull, 0xffffffffffffffull, ~0ull,
};

/* Eight little-endian bytes at P (the caller knows they are there). */
static inline uint64_t load_le64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	return v;
}

enum tv_status tv_dec_next(struct tv_decoder *d, struct tv_group *g)
{
	const uint8_t *in;
	size_t p, start, n = 0, next = 0, fast_end, cap;
	long req_i = -1;	/* index: items may move when they grow */
	const char *why = NULL;
	unsigned int forgiven = d->forgiven;
	uint32_t seen = 0;	/* SEEN() of the group's items */
	bool grouped;

	if (__builtin_expect(d->after_error, 0)) {
		const uint8_t *hit;

		/* Resynchronise at the next begin-group (or give up). */
		hit = d->pos < d->in_len
			? memchr(d->in + d->pos, TV_OP_BEGIN_GROUP, d->in_len - d->pos)
			: NULL;
		if (!hit) {
			d->pos = d->in_len;
			if (!d->final)
				return TV_MORE;
			d->after_error = false;
			return TV_END;
		}
		d->pos = (size_t)(hit - d->in);
		d->after_error = false;
	}
	in = d->in;
	/* Items up to here have room for their longest encoding and one
	 * more load: no bounds checks field by field. */
	fast_end = d->in_len > MAX_ITEM + 8 ? d->in_len - (MAX_ITEM + 8) : 0;
again:
	p = d->pos;
	if (p >= d->in_len) {
		/* An orphan end-group skipped: it belongs to the next group. */
		d->forgiven = d->final ? 0 : forgiven;
		return d->final ? TV_END : TV_MORE;
	}
	if (__builtin_expect(!d->items_cap, 0) && !new_item(d, 0))
		return fail(d, p, "out of memory");
	start = p;
	grouped = in[p] == TV_OP_BEGIN_GROUP;
	if (grouped)
		p++;
	else if (in[p] == TV_OP_END_GROUP) {
		if (d->mode == TV_STRICT)
			return fail(d, p, "end-group outside a group");
		/* An orphan end-group: skip it. */
		d->pos = p + 1;
		forgiven |= TV_FORGAVE_ORPHAN_END;
		goto again;
	}
	for (;;) {
		struct tv_item *it;
		unsigned int op;
		int rc;

		/*
		 * The common items: a table for the widths, one load for a
		 * field, no call.  Anything else, and the last bytes of the
		 * buffer, take the general path below.
		 */
		cap = d->items_cap;
		while (p < fast_end && n < cap) {
			const uint8_t *q = in + p;
			struct tv_item *f = &d->items[n];
			uint64_t w = load_le64(q + 1);
			unsigned int nb, id;
			uint16_t reg;

			op = q[0];
			switch (op) {
			case TV_OP_INCR_PC:
				*f = (struct tv_item){ .op = TV_OP_INCR_PC, .offset = d->base + p };
				p += 1;
				break;
			case TV_OP_INSN16:
				*f = (struct tv_item){ .op = TV_OP_INSN16, .offset = d->base + p,
						       .value = w & 0xffff };
				p += 3;
				break;
			case TV_OP_INSN32:
				*f = (struct tv_item){ .op = TV_OP_INSN32, .offset = d->base + p,
						       .value = w & 0xffffffff };
				p += 5;
				break;
			case TV_OP_FULL_REG:
				reg = (uint16_t)w;
				nb = d->reg_bytes[TV_REG_IS_FPR(reg)];
				if (!nb)
					goto general;
				*f = (struct tv_item){ .op = TV_OP_FULL_REG, .reg = reg,
						       .offset = d->base + p,
						       .value = load_le64(q + 3) & field_mask[nb] };
				p += 3 + nb;
				break;
			case TV_OP_ADDL_STATE:
				id = w & 0xff;
				nb = d->addl_bytes[id & 15];
				if (id > 15 || !nb || (id == TV_AS_PRIV && (w >> 8 & 0xff) > 3))
					goto general;
				*f = (struct tv_item){ .op = TV_OP_ADDL_STATE, .id = (uint8_t)id,
						       .offset = d->base + p,
						       .value = load_le64(q + 2) & field_mask[nb] };
				p += 2 + nb;
				break;
			case TV_OP_MEM_REQ: {
				unsigned int na = tv_mlen_bytes(&d->cfg), b = q[1 + na];

				id = b & 0xf;
				nb = b >> 4;
				if (id > TV_MEM_FETCH || nb > 3)
					goto general;
				*f = (struct tv_item){ .op = TV_OP_MEM_REQ, .id = (uint8_t)id,
						       .size = (uint8_t)nb, .offset = d->base + p,
						       .value = w & field_mask[na],
						       .has_data = tv_mem_req_has_data(id) };
				if (f->has_data)
					f->data = load_le64(q + 2 + na) & field_mask[1u << nb];
				p += 2 + na + (f->has_data ? 1u << nb : 0);
				req_i = (long)n;
				break;
			}
			case TV_OP_MEM_RSP: {
				const struct tv_item *req = &d->items[req_i < 0 ? 0 : req_i];
				unsigned int b = q[1];

				/* Anything but a response right after its request. */
				if (req_i < 0 || (size_t)req_i + 1 != n || (b & 0xf) > 3 ||
				    ((b >> 4) > 1 && d->mode == TV_STRICT))
					goto general;
				nb = b & 0xf;
				*f = (struct tv_item){ .op = TV_OP_MEM_RSP, .id = req->id,
						       .size = (uint8_t)nb, .result = (uint8_t)(b >> 4),
						       .offset = d->base + p,
						       .has_data = tv_mem_rsp_has_data(req->id) };
				if (f->has_data)
					f->data = load_le64(q + 2) & field_mask[1u << nb];
				p += 2 + (f->has_data ? 1u << nb : 0);
				break;
			}
			case TV_OP_END_GROUP:
				if (!grouped)
					goto general;
				next = p + 1;
				goto done;
			default:
				goto general;
			}
			seen |= SEEN(op);
			n++;
		}
general:
		if (p >= d->in_len) {
			if (!d->final) {
				/* A begin-group forgiven before START stays so. */
				d->pos = start;
				d->forgiven = forgiven;
				return TV_MORE;
			}
			if (grouped) {
				fail(d, start, "trace ends inside a group");
				d->pos = d->in_len;
				return TV_ERROR;
			}
			next = p;
			break;
		}
		op = in[p];
		if (op == TV_OP_BEGIN_GROUP) {
			if (grouped && n == 0) {
				/* begin, begin: the first one opened nothing. */
				if (d->mode == TV_STRICT)
					return fail(d, p, "nested begin-group");
				forgiven |= TV_FORGAVE_NESTED_BEGIN;
				start = p;
				p++;
				continue;
			}
			/* Implied end-group (or the end of ungrouped items). */
			next = p;
			break;
		}
		if (op == TV_OP_END_GROUP) {
			if (grouped) {
				next = p + 1;
				break;
			}
			if (d->mode == TV_STRICT)
				return fail(d, p, "end-group outside a group");
			forgiven |= TV_FORGAVE_ORPHAN_END;
			p++;
			continue;
		}
		it = new_item(d, n);
		if (!it)
			return fail(d, p, "out of memory");
		if (op == TV_OP_MEM_RSP && req_i >= 0 &&
		    d->items[n - 1].op != TV_OP_MEM_REQ) {
			if (d->mode == TV_STRICT)
				return fail(d, p, "memory response not right after its request");
			forgiven |= TV_FORGAVE_LATE_RSP;
		}
		rc = parse_item(d, p, it, req_i >= 0 ? &d->items[req_i] : NULL,
				&next, &why);
		if (rc == ITEM_SHORT) {
			if (!d->final) {
				d->pos = start;
				d->forgiven = forgiven;
				return TV_MORE;
			}
			fail(d, p, "trace ends inside an item");
			d->pos = d->in_len;	/* nothing after it to decode */
			return TV_ERROR;
		}
		if (rc == ITEM_BAD)
			return fail(d, p, why);
		if (op == TV_OP_MEM_REQ)
			req_i = (long)n;
		seen |= SEEN(op);
		n++;
		p = next;
	}
done:
	if (d->mode == TV_STRICT) {
		if ((seen & SEEN(TV_OP_INCR_PC)) && !(seen & SEEN_INSN))
			return fail(d, first_item_at(d, n, TV_OP_INCR_PC), grouped
				    ? "increment-pc in a group without an instruction"
				    : "increment-pc outside a group");
		if ((seen & SEEN(TV_OP_STATE_INIT)) &&
		    (seen & (SEEN_INSN | SEEN(TV_OP_HART_RESET))))
			return fail(d, first_item_at(d, n, TV_OP_STATE_INIT),
				    "state initialisation with an instruction or reset");
	}
	*g = (struct tv_group){
		.index = d->groups++,
		.offset = d->base + start,
		.end_offset = d->base + next,
		.items = d->items,
		.n_items = n,
		.grouped = grouped,
		.has_insn = (seen & SEEN_INSN) != 0,
		.has_reset = (seen & SEEN(TV_OP_HART_RESET)) != 0,
		.has_init = (seen & SEEN(TV_OP_STATE_INIT)) != 0,
		.has_incr_pc = (seen & SEEN(TV_OP_INCR_PC)) != 0,
		.forgiven = forgiven,
	};
	d->pos = next;
	d->forgiven = 0;
	return TV_GROUP;
}
