// SPDX-License-Identifier: BSD-2-Clause
/*
 * fastpath-test - the fast paths of the trace tools against their
 * references:
 *  - tv_fmt.h's number and format writers against printf's;
 *  - the disassembler's pc-relative test (the dump keeps disassemblies by
 *    instruction word when the text does not depend on the pc): every
 *    other instruction reads the same at any pc;
 *  - the decoder over a whole buffer (its fast path) against the same
 *    bytes fed one at a time (its general path): the same groups, items,
 *    errors with their offsets and resynchronisation, on random traces of
 *    every item kind, XLEN 64 and 32, FLEN 64/32/0, MLEN 64/34, strict
 *    and lenient, clean and with damaged bytes;
 *  - the listing (tv_dump) of those traces against the one the printf
 *    listing wrote before it (tests/tv/dump-golden.txt for a trace of
 *    every line kind; the listings' length and FNV-1a hash for the random
 *    ones, from `rvperf tv dump` of the stdio version, header line off).
 *
 * "fastpath-test --write DIR" writes the traces and their .cfg files, to
 * make the golden figures again with a listing one trusts.
 */
#include "tap.h"
#include "userspace/tv/tv.h"
#include "userspace/tv/tv_disas.h"
#include "userspace/tv/tv_dump.h"
#include "userspace/tv/tv_fmt.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* A value with 1 to 64 significant bits, now and then 0 or all ones. */
static uint64_t rnd_value(void)
{
	unsigned int k = rnd() % 70;

	if (k == 64)
		return 0;
	if (k == 65)
		return ~0ull;
	return rnd() >> (k % 64);
}

/* ------------------------------------------------------------ tv_fmt.h */

static void formatter(void)
{
	unsigned int bad_hex = 0, bad_dec = 0, bad_sn = 0, n = 0;
	char a[64], b[64];

	for (int i = 0; i < 200000; i++) {
		uint64_t v = i < 64 ? 1ull << i : i < 128 ? (1ull << (i - 64)) - 1 : rnd_value();
		unsigned int min = (unsigned int)(rnd() % 17);
		char *e;

		e = fmt_hex(a, v, min);
		*e = 0;
		snprintf(b, sizeof(b), "%0*" PRIx64, (int)min, v);
		if (strcmp(a, b) && bad_hex++ < 5)
			tap_diag("fmt_hex(%" PRIx64 ", %u): %s, printf %s", v, min, a, b);
		e = fmt_udec(a, v);
		*e = 0;
		snprintf(b, sizeof(b), "%" PRIu64, v);
		if (strcmp(a, b) && bad_dec++ < 5)
			tap_diag("fmt_udec(%" PRIu64 "): %s", v, a);
		e = fmt_sdec(a, (int64_t)v);
		*e = 0;
		snprintf(b, sizeof(b), "%" PRId64, (int64_t)v);
		if (strcmp(a, b) && bad_dec++ < 5)
			tap_diag("fmt_sdec(%" PRId64 "): %s", (int64_t)v, a);
		/* The disassembler's directives, and a buffer too short. */
		{
			size_t len = i % 7 ? sizeof(a) : 1 + rnd() % 12;
			int ra = fmt_sn(a, len, "%s,%lld(%s) %u 0x%x %04x %08x %c %llx %d",
					"zero", (long long)v, "s11", (unsigned int)v,
					(unsigned int)(v >> 7), (unsigned int)v & 0xffff,
					(unsigned int)(v >> 3), 'w', (unsigned long long)v, (int)v);
			int rb = snprintf(b, len, "%s,%lld(%s) %u 0x%x %04x %08x %c %llx %d",
					  "zero", (long long)v, "s11", (unsigned int)v,
					  (unsigned int)(v >> 7), (unsigned int)v & 0xffff,
					  (unsigned int)(v >> 3), 'w', (unsigned long long)v, (int)v);

			if ((ra != rb || strcmp(a, b)) && bad_sn++ < 5)
				tap_diag("fmt_sn: \"%s\" (%d), snprintf \"%s\" (%d)", a, ra, b, rb);
		}
		n++;
	}
	tap_ok(bad_hex == 0, "fmt_hex writes what %%0*llx writes (%u values)", n);
	tap_ok(bad_dec == 0, "fmt_udec and fmt_sdec write what %%llu and %%lld write");
	tap_ok(bad_sn == 0, "fmt_sn writes and counts what snprintf does, also truncated");
}

/* ------------------------------------------------------------ disassembler */

static void pc_relative(void)
{
	unsigned int bad = 0, rel = 0, checked = 0;
	char a[96], b[96];

	for (unsigned int xlen = 32; xlen <= 64; xlen += 32) {
		for (uint32_t k = 0; k < 0x10000 + 400000; k++) {
			uint32_t insn = k < 0x10000 ? k : (uint32_t)rnd() | 3;
			bool r = tv_disas_pc_relative(insn, xlen);
			int known = tv_disas(insn, 0x1000, xlen, a, sizeof(a));

			if ((insn & 3) == 3 && k < 0x10000)
				continue;	/* 32-bit ones come from the random half */
			tv_disas(insn, 0x7654320, xlen, b, sizeof(b));
			checked++;
			rel += r;
			/* Not pc-relative: the same text.  Pc-relative: a target. */
			if ((!r && strcmp(a, b)) || (r && known && !strcmp(a, b))) {
				if (bad++ < 5)
					tap_diag("RV%u %08x: pc-relative %d, \"%s\" / \"%s\"",
						 xlen, insn, r, a, b);
			}
		}
	}
	tap_ok(bad == 0 && rel > 1000,
	       "exactly the pc-relative instructions read differently at another pc (%u of %u)",
	       rel, checked);
}

/* ------------------------------------------------------------ traces */

struct trace_kind {
	const char *name;
	unsigned int xlen, flen, mlen;
	enum tv_mode mode;
	bool damaged;
};

static const struct trace_kind kinds[] = {
	{ "rv64-strict", 64, 64, 64, TV_STRICT, false },
	{ "rv64-lenient-damaged", 64, 64, 64, TV_LENIENT, true },
	{ "rv64-strict-damaged", 64, 64, 64, TV_STRICT, true },
	{ "rv32-strict", 32, 32, 34, TV_STRICT, false },
	{ "rv32-lenient-damaged", 32, 0, 32, TV_LENIENT, true },
	{ "rv64-flen32-strict-damaged", 64, 32, 34, TV_STRICT, true },
};

/* A random instruction word: 16-bit or 32-bit, often a real one. */
static uint32_t rnd_insn(void)
{
	static const uint32_t real[] = {
		0x00b50533, 0x6214, 0xe208, 0xf9ed, 0x34029073, 0x0116f3d3, 0x0001,
		0xfe0718e3, 0x008000ef, 0x30200073, 0x00000073, 0x100522af, 0x0005a503,
	};

	switch (rnd() % 4) {
	case 0:
		return real[rnd() % (sizeof(real) / sizeof(real[0]))];
	case 1:
		return (uint32_t)rnd() & 0xffff;
	default:
		return (uint32_t)rnd() | 3;
	}
}

static uint16_t rnd_reg(void)
{
	switch (rnd() % 6) {
	case 0:
	case 1:
		return TV_REG_GPR(rnd() % 32);
	case 2:	/* with FLEN 0, an error */
		return TV_REG_FPR(rnd() % 32);
	case 3:	/* named CSRs and others */
		return (uint16_t)(rnd() % 2 ? 0x300 + rnd() % 0x50 : rnd() % 0x1000);
	case 4:
		return (uint16_t)(0xc00 + rnd() % 4);
	default:	/* beyond the register space the shadow keeps */
		return (uint16_t)(0x1040 + rnd() % 0x1000);
	}
}

/* One random item (sometimes a grouping opcode in the middle). */
static void rnd_item(struct tv_buf *b, const struct tv_config *cfg, bool lenient)
{
	unsigned int k = (unsigned int)(rnd() % 20), op;

	switch (k) {
	case 0: case 1: case 2:
		tv_enc_full_reg(b, cfg, rnd_reg(), rnd_value());
		break;
	case 3:
		tv_enc_incr_reg_add(b, rnd_reg(), (int8_t)rnd());
		break;
	case 4:
		tv_enc_incr_reg_or(b, rnd_reg(), (uint8_t)rnd());
		break;
	case 5: case 6:
		/* Identifiers 0 and 11 are unknown, privilege above 3 strict
		 * mode's error: the fast path must leave them to the other. */
		op = (unsigned int)(rnd() % 12);
		tv_enc_addl(b, cfg, op, op == TV_AS_PRIV ? rnd() % 6 : rnd_value());
		break;
	case 7: case 8: {
		unsigned int mop = (unsigned int)(rnd() % 14), size = (unsigned int)(rnd() % 4);

		tv_enc_mem_req(b, cfg, rnd_value(), mop, size, rnd_value());
		if (rnd() % 4)
			tv_enc_mem_rsp(b, size, rnd() % 8 ? 0 : (unsigned int)(rnd() % (lenient ? 3 : 2)),
				       tv_mem_rsp_has_data(mop), rnd_value());
		break;
	}
	case 9:
		tv_enc_op(b, TV_OP_HART_RESET);
		break;
	case 10:
		tv_enc_op(b, TV_OP_STATE_INIT);
		break;
	case 11:
		if (lenient)
			tv_enc_op(b, rnd() % 2 ? TV_OP_END_GROUP : TV_OP_BEGIN_GROUP);
		break;
	default:
		tv_enc_insn(b, rnd_insn());
		break;
	}
}

static void make_trace(struct tv_buf *b, const struct trace_kind *kind, unsigned int groups)
{
	struct tv_config cfg = { kind->xlen, kind->flen, kind->mlen, 0 };
	bool lenient = kind->mode == TV_LENIENT;

	for (unsigned int i = 0; i < groups; i++) {
		unsigned int n = (unsigned int)(rnd() % 5);
		unsigned int shape = (unsigned int)(rnd() % 16);

		/* Mostly instruction groups as a recorder writes them. */
		if (shape < 10) {
			tv_enc_op(b, TV_OP_BEGIN_GROUP);
			if (shape < 8)
				tv_enc_op(b, TV_OP_INCR_PC);
			else
				tv_enc_addl(b, &cfg, TV_AS_PC, rnd_value() & ~1ull);
			tv_enc_insn(b, rnd_insn());
			if (shape % 3 == 0)
				tv_enc_full_reg(b, &cfg, TV_REG_GPR(1 + rnd() % 31), rnd_value());
			if (shape == 4)
				tv_enc_addl(b, &cfg, TV_AS_EADDR, rnd_value());
			tv_enc_op(b, TV_OP_END_GROUP);
			continue;
		}
		if (shape != 15)	/* 15: items outside a group */
			tv_enc_op(b, TV_OP_BEGIN_GROUP);
		for (unsigned int j = 0; j < n; j++)
			rnd_item(b, &cfg, lenient);
		if (shape != 15 && (shape != 14 || !lenient))	/* 14: implied end */
			tv_enc_op(b, TV_OP_END_GROUP);
	}
	if (kind->damaged && b->len) {
		/* A changed byte every 400 or so. */
		for (size_t k = b->len / 400 + 1; k > 0; k--)
			b->data[rnd() % b->len] = (uint8_t)rnd();
	}
}

/* ------------------------------------------------------------ decoder */

/* One step of decoding, as the listing sees it. */
struct event {
	int st;
	struct tv_group g;	/* items copied below */
	struct tv_error err;
};

static bool same_items(const struct tv_item *a, const struct tv_item *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (a[i].op != b[i].op || a[i].id != b[i].id || a[i].size != b[i].size ||
		    a[i].result != b[i].result || a[i].reg != b[i].reg ||
		    a[i].has_data != b[i].has_data || a[i].value != b[i].value ||
		    a[i].data != b[i].data || a[i].offset != b[i].offset)
			return false;
	return true;
}

static bool same_group(const struct tv_group *a, const struct tv_group *b)
{
	return a->index == b->index && a->offset == b->offset &&
	       a->end_offset == b->end_offset && a->n_items == b->n_items &&
	       a->grouped == b->grouped && a->has_insn == b->has_insn &&
	       a->has_reset == b->has_reset && a->has_init == b->has_init &&
	       a->has_incr_pc == b->has_incr_pc && a->forgiven == b->forgiven &&
	       same_items(a->items, b->items, a->n_items);
}

/* The next step fed one byte at a time. */
static enum tv_status next_fed(struct tv_decoder *d, struct tv_group *g,
			       const struct tv_buf *b, size_t *fed)
{
	for (;;) {
		enum tv_status st = tv_dec_next(d, g);

		if (st != TV_MORE)
			return st;
		if (*fed < b->len) {
			tv_dec_feed(d, b->data + *fed, 1);
			++*fed;
		} else {
			tv_dec_finish(d);
		}
	}
}

/* Whole buffer against byte by byte; returns the groups, or -1. */
static long compare_decoders(const struct tv_buf *b, const struct tv_config *cfg,
			     enum tv_mode mode, unsigned long *errors)
{
	struct tv_decoder whole, fed;
	struct tv_group g, h;
	size_t pos = 0;
	long groups = 0;

	*errors = 0;
	tv_dec_init(&whole, cfg, mode);
	tv_dec_init(&fed, cfg, mode);
	tv_dec_set_buffer(&whole, b->data, b->len);
	for (;;) {
		enum tv_status s1 = tv_dec_next(&whole, &g);
		enum tv_status s2 = next_fed(&fed, &h, b, &pos);

		if (s1 != s2 || (s1 == TV_GROUP && !same_group(&g, &h)) ||
		    (s1 == TV_ERROR && (whole.err.offset != fed.err.offset ||
					strcmp(whole.err.msg, fed.err.msg)))) {
			tap_diag("step %ld: whole %d (%s at 0x%" PRIx64 "), fed %d (%s at 0x%" PRIx64 ")",
				 groups, s1, whole.err.msg, whole.err.offset, s2, fed.err.msg,
				 fed.err.offset);
			if (s1 == TV_GROUP && s2 == TV_GROUP)
				tap_diag("group %" PRIu64 "/%" PRIu64 " at 0x%" PRIx64 "/0x%" PRIx64
					 "-0x%" PRIx64 "/0x%" PRIx64 ", %zu/%zu items, forgiven %u/%u",
					 g.index, h.index, g.offset, h.offset, g.end_offset,
					 h.end_offset, g.n_items, h.n_items, g.forgiven, h.forgiven);
			groups = -1;
			break;
		}
		if (s1 == TV_END)
			break;
		if (s1 == TV_ERROR)
			++*errors;
		else
			groups++;
	}
	tv_dec_free(&whole);
	tv_dec_free(&fed);
	return groups;
}

/*
 * Memory responses not right after their request (late: strict mode's
 * error, lenient mode's forgiveness) and with no request in the group,
 * among well-formed groups, in the middle of a buffer where the decoder's
 * fast path runs: it must leave them to the general path.
 */
static void late_responses(void)
{
	static const enum tv_mode modes[] = { TV_STRICT, TV_LENIENT };
	struct tv_config cfg;

	tv_config_default(&cfg);
	for (size_t m = 0; m < 2; m++) {
		struct tv_buf b = { 0 };
		unsigned long errors;
		long groups;

		for (unsigned int i = 0; i < 300; i++) {
			tv_enc_op(&b, TV_OP_BEGIN_GROUP);
			tv_enc_insn(&b, 0x00053503);	/* ld a0,0(a0) */
			if (i % 3 != 2)
				tv_enc_mem_req(&b, &cfg, 0x1000 + 8 * i, TV_MEM_LOAD, 3, 0);
			if (i % 3 == 1)
				tv_enc_full_reg(&b, &cfg, TV_REG_GPR(10), i);	/* late */
			if (i % 3 != 2)
				tv_enc_mem_rsp(&b, 3, 0, true, i);
			tv_enc_op(&b, TV_OP_INCR_PC);
			if (i % 3 == 2)
				tv_enc_mem_rsp(&b, 3, 0, true, i);	/* no request */
			tv_enc_op(&b, TV_OP_END_GROUP);
		}
		groups = compare_decoders(&b, &cfg, modes[m], &errors);
		tap_ok(groups > 0 && (modes[m] == TV_LENIENT || errors >= 100),
		       "%s: late and orphan memory responses decode alike whole and byte by byte "
		       "(%ld groups, %lu errors)", m ? "lenient" : "strict", groups, errors);
		tv_buf_free(&b);
	}
}

/* ------------------------------------------------------------ listing */

/* The listing of B, as rvperf tv dump writes it after its header line. */
static char *listing(const struct tv_buf *b, const struct tv_config *cfg,
		     enum tv_mode mode, size_t *len)
{
	struct tv_decoder d;
	struct tv_dump dp;
	struct tv_group g;
	enum tv_status st;
	char *text = NULL;
	FILE *f = open_memstream(&text, len);

	if (!f || tv_dump_init(&dp, cfg, f))
		return NULL;
	tv_dec_init(&d, cfg, mode);
	tv_dec_set_buffer(&d, b->data, b->len);
	while ((st = tv_dec_next(&d, &g)) != TV_END) {
		if (st == TV_ERROR)
			tv_dump_error(&dp, &d.err);
		else
			tv_dump_group(&dp, &g);
	}
	tv_dump_flush(&dp);
	tv_dump_free(&dp);
	tv_dec_free(&d);
	fclose(f);
	return text;
}

static uint64_t fnv1a(const char *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (uint8_t)p[i]) * 0x100000001b3ull;
	return h;
}

/*
 * The listings of the random traces (3000 groups each, the generator's
 * seed as above) by `rvperf tv dump` before tv_dump: bytes and FNV-1a.
 */
static const struct {
	uint64_t len, hash;
} golden[] = {
	{ 432008, 0xd28c72792ef4694cull },	/* rv64-strict */
	{ 435093, 0xc4e7f882fb3302bdull },	/* rv64-lenient-damaged */
	{ 420307, 0xbb813f1b039800faull },	/* rv64-strict-damaged */
	{ 408822, 0xc5e5b3987d6c5279ull },	/* rv32-strict */
	{ 417014, 0x4785eb5b8fa22e27ull },	/* rv32-lenient-damaged */
	{ 417379, 0xf3ad3224c4c103faull },	/* rv64-flen32-strict-damaged */
};

/* A trace with every kind of line, against its listing in full. */
static void every_line(const char *golden_path, const char *dir)
{
	struct tv_config cfg;
	struct tv_buf b = { 0 };
	char *text, *want = NULL;
	size_t len, want_len = 0;
	FILE *f;

	tv_config_default(&cfg);
	tv_enc_op(&b, TV_OP_BEGIN_GROUP);	/* state initialisation */
	tv_enc_op(&b, TV_OP_STATE_INIT);
	tv_enc_full_reg(&b, &cfg, TV_REG_GPR(2), 0x3ffffff000);
	tv_enc_full_reg(&b, &cfg, TV_REG_FPR(31), 0x400921fb54442d18);
	tv_enc_full_reg(&b, &cfg, 0x320, 5);	/* mcountinhibit: the widest name */
	tv_enc_full_reg(&b, &cfg, 0x7c0, 1);	/* unnamed CSR */
	tv_enc_full_reg(&b, &cfg, 0x2345, 7);	/* beyond the register space */
	tv_enc_addl(&b, &cfg, TV_AS_PC, 0x80000000);
	tv_enc_addl(&b, &cfg, TV_AS_PRIV, 3);
	tv_enc_mem_req(&b, &cfg, 0x80001000, TV_MEM_STORE, 3, 0x1122334455667788);
	tv_enc_op(&b, TV_OP_END_GROUP);
	tv_enc_op(&b, TV_OP_BEGIN_GROUP);	/* a load with its response */
	tv_enc_op(&b, TV_OP_INCR_PC);
	tv_enc_insn(&b, 0x0005a503);
	tv_enc_mem_req(&b, &cfg, 0x80001000, TV_MEM_LOAD, 2, 0);
	tv_enc_mem_rsp(&b, 2, 0, true, 0x55667788);
	tv_enc_full_reg(&b, &cfg, TV_REG_GPR(10), 0x55667788);
	tv_enc_op(&b, TV_OP_END_GROUP);
	tv_enc_op(&b, TV_OP_BEGIN_GROUP);	/* a taken branch */
	tv_enc_insn(&b, 0xfe0718e3);
	tv_enc_addl(&b, &cfg, TV_AS_PC, 0x80000000 - 16);
	tv_enc_op(&b, TV_OP_END_GROUP);
	tv_enc_op(&b, TV_OP_BEGIN_GROUP);	/* a not taken one, compressed */
	tv_enc_op(&b, TV_OP_INCR_PC);
	tv_enc_insn(&b, 0xc119);
	tv_enc_op(&b, TV_OP_END_GROUP);
	tv_enc_op(&b, TV_OP_BEGIN_GROUP);	/* an sc that failed, fcsr */
	tv_enc_op(&b, TV_OP_INCR_PC);
	tv_enc_insn(&b, 0x18b5262f);
	tv_enc_mem_req(&b, &cfg, 0x80001008, TV_MEM_SC, 2, 0xdead);
	tv_enc_mem_rsp(&b, 2, 1, false, 0);
	tv_enc_incr_reg_add(&b, TV_REG_GPR(12), -3);
	tv_enc_incr_reg_or(&b, 0x003, 0x1f);
	tv_enc_op(&b, TV_OP_END_GROUP);
	tv_enc_op(&b, TV_OP_BEGIN_GROUP);	/* a trap */
	tv_enc_addl(&b, &cfg, TV_AS_PC, 0x80000100);
	tv_enc_insn(&b, 0x00000073);
	tv_enc_full_reg(&b, &cfg, 0x341, 0x80000010);
	tv_enc_full_reg(&b, &cfg, 0x342, 8);
	tv_enc_addl(&b, &cfg, TV_AS_PRIV, 3);
	tv_enc_addl(&b, &cfg, TV_AS_MTIME, 123456789);
	tv_enc_addl(&b, &cfg, TV_AS_PADDR, 0x80002000);
	tv_enc_addl(&b, &cfg, TV_AS_PC_PADDR, 0x80000100);
	tv_enc_addl(&b, &cfg, TV_AS_STORE16, 0xbeef);
	tv_enc_op(&b, TV_OP_END_GROUP);
	tv_enc_op(&b, TV_OP_BEGIN_GROUP);	/* mret, an amo, an unknown word */
	tv_enc_insn(&b, 0x30200073);
	tv_enc_addl(&b, &cfg, TV_AS_PC, 0x80000014);
	tv_enc_mem_req(&b, &cfg, 0x80001010, TV_MEM_AMOADD, 3, 1);
	tv_enc_mem_rsp(&b, 3, 0, true, 41);
	tv_enc_insn(&b, 0x0000);
	tv_enc_op(&b, TV_OP_END_GROUP);
	tv_enc_op(&b, TV_OP_BEGIN_GROUP);	/* a hart reset */
	tv_enc_op(&b, TV_OP_HART_RESET);
	tv_enc_addl(&b, &cfg, TV_AS_PC, 0x1000);
	tv_enc_addl(&b, &cfg, TV_AS_PRIV, 0);
	tv_enc_op(&b, TV_OP_END_GROUP);
	tv_enc_op(&b, TV_OP_INCR_PC);	/* an error, then ungrouped items */
	tv_enc_insn(&b, 0x4501);
	tv_enc_op(&b, TV_OP_END_GROUP);
	tv_enc_op(&b, TV_OP_BEGIN_GROUP);
	tv_enc_op(&b, TV_OP_INCR_PC);
	tv_enc_insn(&b, 0x00c5f593);
	tv_enc_op(&b, TV_OP_END_GROUP);
	tv_enc_addl(&b, &cfg, TV_AS_PRIV, 1);
	if (dir) {
		char path[512];

		snprintf(path, sizeof(path), "%s/every-line.tv", dir);
		f = fopen(path, "wb");
		if (f) {
			fwrite(b.data, 1, b.len, f);
			fclose(f);
		}
		tv_buf_free(&b);
		return;
	}
	text = listing(&b, &cfg, TV_STRICT, &len);
	f = fopen(golden_path, "rb");
	if (f) {
		want = malloc(1 << 16);
		want_len = want ? fread(want, 1, 1 << 16, f) : 0;
		fclose(f);
	}
	if (!want_len) {
		tap_ok(0, "cannot read %s", golden_path);
	} else {
		/* Past rvperf tv dump's header line. */
		char *body = memchr(want, '\n', want_len);
		size_t body_len = body ? want_len - (size_t)(body + 1 - want) : 0;

		if (!text || len != body_len || memcmp(text, body + 1, len)) {
			size_t i = 0;

			while (text && i < len && i < body_len && text[i] == body[1 + i])
				i++;
			tap_diag("first difference at byte %zu: ours \"%.60s\"", i,
				 text ? text + i : "");
			tap_ok(0, "the listing of every kind of line is %s's", golden_path);
		} else {
			tap_ok(1, "the listing of every kind of line is %s's", golden_path);
		}
	}
	free(want);
	free(text);
	tv_buf_free(&b);
}

int main(int argc, char **argv)
{
	const char *dir = argc > 2 && !strcmp(argv[1], "--write") ? argv[2] : NULL;
	unsigned int bad_listing = 0;

	if (!dir) {
		formatter();
		pc_relative();
		late_responses();
	}
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		const struct trace_kind *kind = &kinds[k];
		struct tv_config cfg = { kind->xlen, kind->flen, kind->mlen, 0 };
		struct tv_buf b = { 0 };
		unsigned long errors;
		size_t len;
		char *text;
		long groups;

		rng = 0x9e3779b97f4a7c15ull + k;
		make_trace(&b, kind, 3000);
		if (dir) {
			char path[512], line[200];
			FILE *f;

			snprintf(path, sizeof(path), "%s/%s.tv", dir, kind->name);
			f = fopen(path, "wb");
			if (f) {
				fwrite(b.data, 1, b.len, f);
				fclose(f);
			}
			snprintf(path, sizeof(path), "%s/%s.tv.cfg", dir, kind->name);
			f = fopen(path, "w");
			if (f) {
				tv_config_format(&cfg, line, sizeof(line));
				fprintf(f, "%s\n", line);
				fclose(f);
			}
			tv_buf_free(&b);
			continue;
		}
		groups = compare_decoders(&b, &cfg, kind->mode, &errors);
		tap_ok(groups > 1000 && (!kind->damaged || errors > 0),
		       "%s: whole-buffer and byte-by-byte decoding agree (%ld groups, %lu errors)",
		       kind->name, groups, errors);
		text = listing(&b, &cfg, kind->mode, &len);
		if (!text || k >= sizeof(golden) / sizeof(golden[0]) ||
		    len != golden[k].len || fnv1a(text, len) != golden[k].hash) {
			bad_listing++;
			tap_diag("%s: listing of %zu bytes, hash %016" PRIx64, kind->name, len,
				 text ? fnv1a(text, len) : 0);
		}
		free(text);
		tv_buf_free(&b);
	}
	if (dir) {
		every_line(NULL, dir);
		return 0;
	}
	tap_ok(bad_listing == 0, "the listings of the random traces are the printf listing's");
	every_line("tests/tv/dump-golden.txt", NULL);
	return tap_done();
}
