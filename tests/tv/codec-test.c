// SPDX-License-Identifier: BSD-2-Clause
/*
 * codec-test - the trace protocol's encoder and decoder against the
 * specification's own examples (Appendix C, byte for byte, both ways) and
 * sizes (Appendix D), XLEN 32 and 64, partial-trace configurations, the
 * strict and lenient decoders, streaming and error recovery.
 */
#include "tap.h"
#include "userspace/tv/tv.h"

#include <stdlib.h>

/* ------------------------------------------------------------ helpers */

static struct tv_item I(unsigned int op)
{
	struct tv_item it = { .op = (uint8_t)op };
	return it;
}

static struct tv_item REG(uint16_t addr, uint64_t v)
{
	struct tv_item it = { .op = TV_OP_FULL_REG, .reg = addr, .value = v };
	return it;
}

static struct tv_item REGOR(uint16_t addr, uint8_t m)
{
	struct tv_item it = { .op = TV_OP_INCR_REG_OR, .reg = addr, .value = m };
	return it;
}

static struct tv_item AS(unsigned int id, uint64_t v)
{
	struct tv_item it = { .op = TV_OP_ADDL_STATE, .id = (uint8_t)id, .value = v };
	return it;
}

static struct tv_item INSN(uint32_t insn)
{
	struct tv_item it = { .op = (insn & 3) == 3 ? TV_OP_INSN32 : TV_OP_INSN16,
			      .value = insn };
	return it;
}

static void encode_items(struct tv_buf *b, const struct tv_config *cfg,
			 const struct tv_item *items, size_t n)
{
	for (size_t i = 0; i < n; i++)
		tv_enc_item(b, cfg, &items[i]);
}

static int same_item(const struct tv_item *a, const struct tv_item *b)
{
	return a->op == b->op && a->id == b->id && a->reg == b->reg &&
	       a->value == b->value && a->size == b->size &&
	       a->result == b->result && a->data == b->data;
}

static void hex(char *out, size_t len, const uint8_t *p, size_t n)
{
	size_t k = 0;

	out[0] = 0;
	for (size_t i = 0; i < n && k + 4 < len; i++)
		k += (size_t)snprintf(out + k, len - k, "%02x ", p[i]);
}

/*
 * One example table: our encoding of ITEMS (begin and end included) must
 * be BYTES exactly, and decoding BYTES must give one group with ITEMS
 * between the begin and the end.
 */
static void example(const char *name, const struct tv_item *items, size_t n,
		    const uint8_t *bytes, size_t nbytes)
{
	struct tv_config cfg;
	struct tv_buf b = { 0 };
	struct tv_decoder d;
	struct tv_group g;
	char got[400], want[400];
	int same;

	tv_config_default(&cfg);
	encode_items(&b, &cfg, items, n);
	same = b.len == nbytes && memcmp(b.data, bytes, nbytes) == 0;
	if (!tap_ok(same, "Table %s: encoder writes the table's bytes", name)) {
		hex(got, sizeof(got), b.data, b.len);
		hex(want, sizeof(want), bytes, nbytes);
		tap_diag("got  %s", got);
		tap_diag("want %s", want);
	}
	tv_dec_init(&d, &cfg, TV_STRICT);
	tv_dec_set_buffer(&d, bytes, nbytes);
	same = tv_dec_next(&d, &g) == TV_GROUP && g.grouped &&
	       g.n_items == n - 2 && g.offset == 0 && g.end_offset == nbytes;
	for (size_t i = 0; same && i < n - 2; i++)
		same = same_item(&g.items[i], &items[i + 1]);
	same = same && tv_dec_next(&d, &g) == TV_END;
	tap_ok(same, "Table %s: strict decoder reads the table's bytes back as one group of %zu items",
	       name, n - 2);
	tv_dec_free(&d);
	tv_buf_free(&b);
}

#define EXAMPLE(name, items, ...) do { \
	static const uint8_t bytes_[] = { __VA_ARGS__ }; \
	example(name, items, sizeof(items) / sizeof(items[0]), bytes_, sizeof(bytes_)); \
} while (0)

/* ------------------------------------------------------------ Appendix C */

static void appendix_c(void)
{
	/* C.1 add gp, t0, t1 */
	const struct tv_item c1[] = {
		I(1), I(3), INSN(0x006281b3), REG(0x1003, 0x1234), I(2),
	};
	EXAMPLE("C.1 add gp, t0, t1", c1,
		0x01, 0x03, 0x11, 0xb3, 0x81, 0x62, 0x00,
		0x04, 0x03, 0x10, 0x34, 0x12, 0, 0, 0, 0, 0, 0, 0x02);

	/*
	 * C.2 jr 256(sp).  The table writes the pc identifier as "10", but
	 * its bytes are hex and pc is identifier 10 decimal: 0x0a, as the
	 * identifier table says.
	 */
	const struct tv_item c2[] = {
		I(1), AS(TV_AS_PC, 0x0c000100), INSN(0x10010067), I(2),
	};
	EXAMPLE("C.2 jr 256(sp) (pc identifier 0x0a, not the table's 10)", c2,
		0x01, 0x07, 0x0a, 0x00, 0x01, 0x00, 0x0c, 0, 0, 0, 0,
		0x11, 0x67, 0x00, 0x01, 0x10, 0x02);

	/* C.3 fadd.s ft7, fa3, fa7: NaN-boxed single, fcsr ORed. */
	const struct tv_item c3[] = {
		I(1), I(3), INSN(0x0116f3d3), REG(0x1027, 0xffffffff66fef4f9ull),
		REGOR(0x0003, 0x01), I(2),
	};
	EXAMPLE("C.3 fadd.s ft7, fa3, fa7", c3,
		0x01, 0x03, 0x11, 0xd3, 0xf3, 0x16, 0x01,
		0x04, 0x27, 0x10, 0xf9, 0xf4, 0xfe, 0x66, 0xff, 0xff, 0xff, 0xff,
		0x06, 0x03, 0x00, 0x01, 0x02);

	/*
	 * C.4 c.sub a0, a1.  The table's address bytes "10 10" are x16 (a6);
	 * a0 is x10, address 0x100a per the register numbering.
	 */
	const struct tv_item c4[] = {
		I(1), I(3), INSN(0x8d0d), REG(0x100a, 0xffffffff12345678ull), I(2),
	};
	EXAMPLE("C.4 c.sub a0, a1 (a0 is 0a 10, not the table's 10 10)", c4,
		0x01, 0x03, 0x10, 0x0d, 0x8d,
		0x04, 0x0a, 0x10, 0x78, 0x56, 0x34, 0x12, 0xff, 0xff, 0xff, 0xff,
		0x02);

	/*
	 * C.5 lw tp, 8(t0).  The table's opcode "10" is the 16-bit
	 * instruction, but four instruction bytes follow: a 32-bit
	 * instruction is opcode 17, 0x11.
	 */
	const struct tv_item c5[] = {
		I(1), I(3), INSN(0x0082a203), REG(0x1004, 0x55aa55aa55aa55aaull),
		AS(TV_AS_PADDR, 0x01000008), I(2),
	};
	EXAMPLE("C.5 lw tp, 8(t0) (opcode 0x11 for the 32-bit instruction, not the table's 10)", c5,
		0x01, 0x03, 0x11, 0x03, 0xa2, 0x82, 0x00,
		0x04, 0x04, 0x10, 0xaa, 0x55, 0xaa, 0x55, 0xaa, 0x55, 0xaa, 0x55,
		0x07, 0x02, 0x08, 0x00, 0x00, 0x01, 0, 0, 0, 0,
		0x02);

	/* C.6 csrrc s1, mie, a1 */
	const struct tv_item c6[] = {
		I(1), I(3), INSN(0x3045b4f3), REG(0x1009, 0x888),
		REG(0x0304, 0x880), I(2),
	};
	EXAMPLE("C.6 csrrc s1, mie, a1", c6,
		0x01, 0x03, 0x11, 0xf3, 0xb4, 0x45, 0x30,
		0x04, 0x09, 0x10, 0x88, 0x08, 0, 0, 0, 0, 0, 0,
		0x04, 0x04, 0x03, 0x80, 0x08, 0, 0, 0, 0, 0, 0,
		0x02);

	/* C.7 illegal instruction (pc identifier 0x0a, as in C.2) */
	const struct tv_item c7[] = {
		I(1), AS(TV_AS_PC, 0x10000), INSN(0x00000000),
		REG(0x0341, 0x81234), REG(0x0342, 2), REG(0x0300, 0xa000018b0ull),
		REG(0x0343, 0), AS(TV_AS_PRIV, 3), I(2),
	};
	/* A 32-bit all-zero instruction: INSN() would pick 16 bits. */
	((struct tv_item *)c7)[2].op = TV_OP_INSN32;
	EXAMPLE("C.7 illegal instruction (pc identifier 0x0a)", c7,
		0x01, 0x07, 0x0a, 0x00, 0x00, 0x01, 0, 0, 0, 0, 0,
		0x11, 0, 0, 0, 0,
		0x04, 0x41, 0x03, 0x34, 0x12, 0x08, 0, 0, 0, 0, 0,
		0x04, 0x42, 0x03, 0x02, 0, 0, 0, 0, 0, 0, 0,
		0x04, 0x00, 0x03, 0xb0, 0x18, 0, 0, 0x0a, 0, 0, 0,
		0x04, 0x43, 0x03, 0, 0, 0, 0, 0, 0, 0, 0,
		0x07, 0x01, 0x03, 0x02);

	/* C.8 interrupt: no instruction item. */
	const struct tv_item c8[] = {
		I(1), AS(TV_AS_PC, 0x10000),
		REG(0x0341, 0x81256), REG(0x0342, 0x8000000000000003ull),
		REG(0x0300, 0xa000018b0ull), REG(0x0343, 0), AS(TV_AS_PRIV, 3),
		I(2),
	};
	EXAMPLE("C.8 interrupt (pc identifier 0x0a)", c8,
		0x01, 0x07, 0x0a, 0x00, 0x00, 0x01, 0, 0, 0, 0, 0,
		0x04, 0x41, 0x03, 0x56, 0x12, 0x08, 0, 0, 0, 0, 0,
		0x04, 0x42, 0x03, 0x03, 0, 0, 0, 0, 0, 0, 0x80,
		0x04, 0x00, 0x03, 0xb0, 0x18, 0, 0, 0x0a, 0, 0, 0,
		0x04, 0x43, 0x03, 0, 0, 0, 0, 0, 0, 0, 0,
		0x07, 0x01, 0x03, 0x02);
}

/* ------------------------------------------------------------ Appendix D */

/* The appendix's elements, written by our encoder (RV64, MLEN 64). */
enum { F_PCINC = 1, F_PCFULL = 2, F_INSN = 4, F_GPR = 8, F_CSR = 16,
       F_FPR = 32, F_FCSR = 64, F_PADDR = 128, F_EADDR = 256,
       F_MEMDATA = 512, F_TRAP = 1024 };

static size_t category_size(unsigned int f)
{
	struct tv_config cfg;
	struct tv_buf b = { 0 };
	size_t n;

	tv_config_default(&cfg);
	tv_enc_op(&b, TV_OP_BEGIN_GROUP);
	if (f & F_PCINC)
		tv_enc_op(&b, TV_OP_INCR_PC);
	if (f & F_PCFULL)
		tv_enc_addl(&b, &cfg, TV_AS_PC, 0x80001000);
	if (f & F_INSN)
		tv_enc_insn(&b, 0x00000013);
	if (f & F_GPR)
		tv_enc_full_reg(&b, &cfg, TV_REG_GPR(10), 1);
	if (f & F_CSR)
		tv_enc_full_reg(&b, &cfg, 0x304, 1);
	if (f & F_FPR)
		tv_enc_full_reg(&b, &cfg, TV_REG_FPR(1), 1);
	if (f & F_FCSR)
		tv_enc_incr_reg_or(&b, 0x003, 1);
	if (f & F_PADDR)
		tv_enc_addl(&b, &cfg, TV_AS_PADDR, 0x80002000);
	if (f & F_EADDR)
		tv_enc_addl(&b, &cfg, TV_AS_EADDR, 0x2000);
	if (f & F_MEMDATA)
		tv_enc_addl(&b, &cfg, TV_AS_STORE64, 7);
	if (f & F_TRAP) {	/* xepc, xcause, xstatus, xtval, priv */
		tv_enc_full_reg(&b, &cfg, 0x341, 0);
		tv_enc_full_reg(&b, &cfg, 0x342, 0);
		tv_enc_full_reg(&b, &cfg, 0x300, 0);
		tv_enc_full_reg(&b, &cfg, 0x343, 0);
		tv_enc_addl(&b, &cfg, TV_AS_PRIV, 3);
	}
	tv_enc_op(&b, TV_OP_END_GROUP);
	n = b.len;
	tv_buf_free(&b);
	return n;
}

static void appendix_d(void)
{
	/*
	 * Appendix D's rows are consistent with begin+end 2 bytes, increment
	 * pc 1, pc 10, a full register 11, an address or store datum 10,
	 * fcsr's OR update 4, priv 3, and an instruction of 9 bytes.  The
	 * opcode table makes a 32-bit instruction 5 bytes (opcode + 32 bits),
	 * so every row with an instruction is 4 bytes smaller here.  The
	 * "branch, jump" row (27) matches none of this: by its own costs it
	 * would be 21 (branch and link, 32, is 21 + a register), 17 here.
	 */
	static const struct {
		const char *name;
		unsigned int fields;
		size_t appendix;
	} rows[] = {
		{ "integer computation", F_PCINC | F_INSN | F_GPR, 23 },
		{ "nop", F_PCINC | F_INSN, 12 },
		{ "branch, jump", F_PCFULL | F_INSN, 27 },
		{ "branch and link, jump and link", F_PCFULL | F_INSN | F_GPR, 32 },
		{ "load", F_PCINC | F_INSN | F_GPR | F_PADDR, 33 },
		{ "load (virtual address)", F_PCINC | F_INSN | F_GPR | F_PADDR | F_EADDR, 43 },
		{ "store", F_PCINC | F_INSN | F_PADDR | F_MEMDATA, 32 },
		{ "store (virtual address)", F_PCINC | F_INSN | F_PADDR | F_EADDR | F_MEMDATA, 42 },
		{ "sc, amo", F_PCINC | F_INSN | F_GPR | F_PADDR | F_EADDR | F_MEMDATA, 53 },
		{ "csr read-write", F_PCINC | F_INSN | F_CSR | F_GPR, 34 },
		{ "csr read only", F_PCINC | F_INSN | F_GPR, 23 },
		{ "csr write only", F_PCINC | F_INSN | F_CSR, 23 },
		{ "floating point computation", F_PCINC | F_INSN | F_FPR | F_FCSR, 27 },
		{ "floating point move", F_PCINC | F_INSN | F_GPR, 23 },
		{ "floating point conversion", F_PCINC | F_INSN | F_GPR | F_FCSR, 27 },
		{ "floating point load", F_PCINC | F_INSN | F_FPR | F_PADDR | F_EADDR, 43 },
		{ "floating point store", F_PCINC | F_INSN | F_PADDR | F_EADDR | F_MEMDATA, 42 },
		{ "interrupt", F_PCFULL | F_TRAP, 59 },
		{ "exception", F_PCFULL | F_INSN | F_TRAP, 68 },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		size_t ours = category_size(rows[i].fields);
		size_t want = rows[i].appendix - (rows[i].fields & F_INSN ? 4 : 0);

		if (strcmp(rows[i].name, "branch, jump") == 0)
			want = 21 - 4;
		tap_eq_u64(ours, want, "Appendix D %s: %zu bytes (appendix %zu%s)",
			   rows[i].name, ours, rows[i].appendix,
			   rows[i].fields & F_INSN ? ", counting a 9-byte instruction" : "");
	}
}

/* ------------------------------------------------------------ XLEN 32 */

static void xlen32(void)
{
	struct tv_config cfg = { .xlen = 32, .flen = 64, .mlen = 34 };
	struct tv_buf b = { 0 };
	struct tv_decoder d;
	struct tv_group g;
	/* Widths follow XLEN, FLEN and MLEN. */
	tv_enc_op(&b, TV_OP_BEGIN_GROUP);
	tv_enc_addl(&b, &cfg, TV_AS_PC, 0x80001000);
	tv_enc_full_reg(&b, &cfg, TV_REG_GPR(1), 0x12345678);
	tv_enc_full_reg(&b, &cfg, TV_REG_FPR(1), 0x0807060504030201ull);
	tv_enc_addl(&b, &cfg, TV_AS_PADDR, 0x300002000ull);
	tv_enc_mem_req(&b, &cfg, 0x280000000ull, TV_MEM_STORE, 1, 0xaabb);
	tv_enc_mem_rsp(&b, 1, 0, false, 0);
	tv_enc_op(&b, TV_OP_END_GROUP);
	{
		static const uint8_t exp[] = {
			0x01,
			0x07, 0x0a, 0x00, 0x10, 0x00, 0x80,
			0x04, 0x01, 0x10, 0x78, 0x56, 0x34, 0x12,
			0x04, 0x21, 0x10, 1, 2, 3, 4, 5, 6, 7, 8,
			0x07, 0x02, 0x00, 0x20, 0x00, 0x00, 0x03,
			0x08, 0x00, 0x00, 0x00, 0x80, 0x02, 0x11, 0xbb, 0xaa,
			0x09, 0x01,
			0x02,
		};
		char got[400];

		if (!tap_ok(b.len == sizeof(exp) && memcmp(b.data, exp, sizeof(exp)) == 0,
			    "XLEN 32, FLEN 64, MLEN 34: pc 4 bytes, x1 4, f1 8, addresses 5, op/size nibbles low first")) {
			hex(got, sizeof(got), b.data, b.len);
			tap_diag("got %s", got);
		}
	}
	tv_dec_init(&d, &cfg, TV_STRICT);
	tv_dec_set_buffer(&d, b.data, b.len);
	tap_ok(tv_dec_next(&d, &g) == TV_GROUP && g.n_items == 6 &&
	       g.items[0].value == 0x80001000 && g.items[1].value == 0x12345678 &&
	       g.items[2].value == 0x0807060504030201ull &&
	       g.items[3].value == 0x300002000ull &&
	       g.items[4].value == 0x280000000ull && g.items[4].id == TV_MEM_STORE &&
	       g.items[4].size == 1 && g.items[4].data == 0xaabb &&
	       g.items[5].op == TV_OP_MEM_RSP && !g.items[5].has_data,
	       "XLEN 32: decoded back to the same values");
	tv_dec_free(&d);

	/* The same bytes under XLEN 64 mean something else. */
	tv_config_default(&cfg);
	tv_dec_init(&d, &cfg, TV_STRICT);
	tv_dec_set_buffer(&d, b.data, b.len);
	tap_ok(tv_dec_next(&d, &g) != TV_GROUP || g.n_items != 6 ||
	       g.items[0].value != 0x80001000,
	       "XLEN 64 reads an XLEN 32 trace differently (the parameters must agree)");
	tv_dec_free(&d);
	tv_buf_free(&b);
}

/* ------------------------------------------------------------ FLEN */

static void flen(void)
{
	struct tv_config cfg = { .xlen = 64, .flen = 32, .mlen = 64 };
	struct tv_buf b = { 0 };
	struct tv_decoder d;
	struct tv_group g;
	static const uint8_t want[] = {
		0x01, 0x04, 0x27, 0x10, 0xf9, 0xf4, 0xfe, 0x66,	/* ft7, 4 bytes */
		0x04, 0x0a, 0x10, 1, 0, 0, 0, 0, 0, 0, 0, 0x02,	/* a0, 8 bytes */
	};

	tv_enc_op(&b, TV_OP_BEGIN_GROUP);
	tv_enc_full_reg(&b, &cfg, TV_REG_FPR(7), 0x66fef4f9);
	tv_enc_full_reg(&b, &cfg, TV_REG_GPR(10), 1);
	tv_enc_op(&b, TV_OP_END_GROUP);
	tap_ok(b.len == sizeof(want) && memcmp(b.data, want, b.len) == 0,
	       "FLEN 32: an FPR carries 4 bytes, a GPR XLEN's 8");
	tv_dec_init(&d, &cfg, TV_STRICT);
	tv_dec_set_buffer(&d, b.data, b.len);
	tap_ok(tv_dec_next(&d, &g) == TV_GROUP && g.n_items == 2 &&
	       g.items[0].value == 0x66fef4f9 && g.items[1].value == 1,
	       "FLEN 32: decoded back");
	tv_dec_free(&d);
	cfg.flen = 0;
	tv_dec_init(&d, &cfg, TV_LENIENT);
	tv_dec_set_buffer(&d, b.data, b.len);
	tap_ok(tv_dec_next(&d, &g) == TV_ERROR && d.err.offset == 1,
	       "FLEN 0 (no F): an FPR item is an error at its byte (%s)", d.err.msg);
	tv_dec_free(&d);
	tv_buf_free(&b);
}

/* ------------------------------------------------------------ memory */

static void memory_items(void)
{
	struct tv_config cfg;
	struct tv_buf b = { 0 };
	struct tv_decoder d;
	struct tv_group g;
	int ok;

	tv_config_default(&cfg);
	tv_enc_op(&b, TV_OP_BEGIN_GROUP);
	tv_enc_op(&b, TV_OP_INCR_PC);
	tv_enc_insn(&b, 0x00b5202f);	/* amoadd.w */
	tv_enc_mem_req(&b, &cfg, 0x1000, TV_MEM_AMOADD, 2, 5);
	tv_enc_mem_rsp(&b, 2, 0, true, 0x10);
	tv_enc_mem_req(&b, &cfg, 0x2000, TV_MEM_LOAD, 3, 0);
	tv_enc_mem_rsp(&b, 3, 0, true, 0x1122334455667788ull);
	tv_enc_mem_req(&b, &cfg, 0x3000, TV_MEM_SC, 3, 9);
	tv_enc_mem_rsp(&b, 3, 1, false, 0);
	tv_enc_mem_req(&b, &cfg, 0x4000, TV_MEM_FETCH, 2, 0);
	tv_enc_op(&b, TV_OP_END_GROUP);
	/* 1+1+5 + (1+8+1+4)+(1+1+4) + (1+8+1)+(1+1+8) + (1+8+1+8)+(1+1) + (1+8+1) + 1 */
	tap_eq_u64(b.len, 7 + 14 + 6 + 10 + 10 + 18 + 2 + 10 + 1,
		   "memory requests carry data for stores/sc/amo, responses for loads/amo");
	tv_dec_init(&d, &cfg, TV_STRICT);
	tv_dec_set_buffer(&d, b.data, b.len);
	ok = tv_dec_next(&d, &g) == TV_GROUP && g.n_items == 9 &&
	     g.items[2].data == 5 && g.items[3].data == 0x10 &&
	     g.items[5].data == 0x1122334455667788ull &&
	     g.items[7].result == 1 && !g.items[7].has_data &&
	     g.items[8].id == TV_MEM_FETCH && !g.items[8].has_data;
	tap_ok(ok, "memory requests and responses decode (amo, load, failed sc, fetch without response)");
	tv_dec_free(&d);
	tv_buf_free(&b);
}

/* ------------------------------------------------------------ strict/lenient */

struct run {
	int groups, errors;
	uint64_t first_err;
	char msg[120];
	unsigned int forgiven;
};

static struct run decode_all(const uint8_t *p, size_t n, enum tv_mode mode)
{
	struct tv_config cfg;
	struct tv_decoder d;
	struct tv_group g;
	struct run r = { 0 };
	enum tv_status st;

	tv_config_default(&cfg);
	tv_dec_init(&d, &cfg, mode);
	tv_dec_set_buffer(&d, p, n);
	while ((st = tv_dec_next(&d, &g)) != TV_END) {
		if (st == TV_ERROR) {
			if (!r.errors++) {
				r.first_err = d.err.offset;
				snprintf(r.msg, sizeof(r.msg), "%s", d.err.msg);
			}
			continue;
		}
		r.groups++;
		r.forgiven |= g.forgiven;
	}
	tv_dec_free(&d);
	return r;
}

static void strict_and_lenient(void)
{
	/* group: begin, incr pc, insn, end (8 bytes) */
#define G 0x01, 0x03, 0x11, 0x13, 0, 0, 0, 0x02
	static const uint8_t orphan_end[] = { G, 0x02, G };
	static const uint8_t nested_begin[] = { G, 0x01, G };
	static const uint8_t incr_no_insn[] = { G, 0x01, 0x03, 0x02, G };
	static const uint8_t incr_outside[] = { G, 0x03, G };
	static const uint8_t late_rsp[] = {
		G, 0x01, 0x08, 0, 0x10, 0, 0, 0, 0, 0, 0, 0x20,
		0x11, 0x03, 0x20, 0, 0, 0x09, 0x02, 0x44, 0x33, 0x22, 0x11, 0x02, G,
	};
	static const uint8_t init_insn[] = {
		G, 0x01, 0x0b, 0x11, 0x13, 0, 0, 0, 0x02, G,
	};
	static const uint8_t init_reset[] = { G, 0x01, 0x0b, 0x0a, 0x02, G };
	static const uint8_t missing_rsp[] = {
		0x01, 0x0b, 0x08, 0, 0x10, 0, 0, 0, 0, 0, 0, 0x21, 0x78, 0x56, 0x34, 0x12,
		0x02, G,
	};
	static const uint8_t implied_end[] = { 0x01, 0x03, 0x11, 0x13, 0, 0, 0, G };
	static const uint8_t bad_opcode[] = { G, 0x01, 0x0c, 0x02, G };
	struct run r;

	r = decode_all(orphan_end, sizeof(orphan_end), TV_STRICT);
	tap_ok(r.errors == 1 && r.first_err == 8 && r.groups == 2,
	       "strict: orphan end-group rejected at byte 8, decoding goes on (%s)", r.msg);
	r = decode_all(orphan_end, sizeof(orphan_end), TV_LENIENT);
	tap_ok(r.errors == 0 && r.groups == 2 && (r.forgiven & TV_FORGAVE_ORPHAN_END),
	       "lenient: orphan end-group forgiven");
	r = decode_all(nested_begin, sizeof(nested_begin), TV_STRICT);
	tap_ok(r.errors == 1 && r.first_err == 9 && r.groups == 2,
	       "strict: nested begin-group (begin, begin) rejected at byte 9 (%s)", r.msg);
	r = decode_all(nested_begin, sizeof(nested_begin), TV_LENIENT);
	tap_ok(r.errors == 0 && r.groups == 2 && (r.forgiven & TV_FORGAVE_NESTED_BEGIN),
	       "lenient: nested begin-group forgiven");
	r = decode_all(implied_end, sizeof(implied_end), TV_STRICT);
	tap_ok(r.errors == 0 && r.groups == 2,
	       "strict: a begin-group ends the group before it (end-group may be omitted)");
	r = decode_all(incr_no_insn, sizeof(incr_no_insn), TV_STRICT);
	tap_ok(r.errors == 1 && r.first_err == 9 && r.groups == 2,
	       "strict: increment-pc in a group without an instruction rejected at byte 9 (%s)", r.msg);
	r = decode_all(incr_outside, sizeof(incr_outside), TV_STRICT);
	tap_ok(r.errors == 1 && r.first_err == 8 && r.groups == 2,
	       "strict: increment-pc outside a group rejected at byte 8 (%s)", r.msg);
	r = decode_all(late_rsp, sizeof(late_rsp), TV_STRICT);
	tap_ok(r.errors == 1 && r.first_err == 24 && r.groups == 2,
	       "strict: memory response not right after its request rejected at byte 24 (%s)", r.msg);
	r = decode_all(late_rsp, sizeof(late_rsp), TV_LENIENT);
	tap_ok(r.errors == 0 && r.groups == 3 && (r.forgiven & TV_FORGAVE_LATE_RSP),
	       "lenient: a late memory response is read with its request's width");
	r = decode_all(init_insn, sizeof(init_insn), TV_STRICT);
	tap_ok(r.errors == 1 && r.first_err == 9 && r.groups == 2,
	       "strict: state initialisation with an instruction rejected at byte 9 (%s)", r.msg);
	r = decode_all(init_reset, sizeof(init_reset), TV_STRICT);
	tap_ok(r.errors == 1 && r.first_err == 9 && r.groups == 2,
	       "strict: state initialisation with a hart reset rejected at byte 9 (%s)", r.msg);
	r = decode_all(init_insn, sizeof(init_insn), TV_LENIENT);
	tap_ok(r.errors == 0 && r.groups == 3, "lenient: state initialisation with an instruction passes");
	r = decode_all(missing_rsp, sizeof(missing_rsp), TV_STRICT);
	tap_ok(r.errors == 0 && r.groups == 2,
	       "strict and lenient: a memory request without response is allowed (responses may be omitted)");
	r = decode_all(bad_opcode, sizeof(bad_opcode), TV_LENIENT);
	tap_ok(r.errors == 1 && r.first_err == 9 && r.groups == 2,
	       "both modes: unknown opcode 12 at byte 9 is an error, decoding continues (%s)", r.msg);
	{
		static const uint8_t rsp_alone[] = { G, 0x01, 0x09, 0x02, 0x02, G };

		r = decode_all(rsp_alone, sizeof(rsp_alone), TV_LENIENT);
		tap_ok(r.errors == 1 && r.first_err == 9,
		       "a memory response with no request in its group is an error even when lenient");
	}
	{
		static const uint8_t truncated[] = { G, 0x01, 0x04, 0x03, 0x10, 0x01 };

		r = decode_all(truncated, sizeof(truncated), TV_STRICT);
		tap_ok(r.errors == 1 && r.first_err == 9 && r.groups == 1,
		       "a trace cut inside an item: error at the item's byte 9 (%s)", r.msg);
	}
#undef G
}

/* ------------------------------------------------------------ streaming */

static void streaming(void)
{
	struct tv_config cfg;
	struct tv_buf b = { 0 };
	struct tv_decoder whole, bytewise;
	struct tv_group g, h;
	int same = 1, groups = 0, more = 0;

	tv_config_default(&cfg);
	for (int i = 0; i < 1000; i++) {
		tv_enc_op(&b, TV_OP_BEGIN_GROUP);
		tv_enc_op(&b, TV_OP_INCR_PC);
		tv_enc_insn(&b, i & 1 ? 0x4501 : 0x00a50533);
		tv_enc_full_reg(&b, &cfg, TV_REG_GPR(10), (uint64_t)i * 0x0101010101ull);
		if (i % 7 == 0) {
			tv_enc_mem_req(&b, &cfg, 0x1000 + (uint64_t)i, TV_MEM_STORE, 2, (uint64_t)i);
			tv_enc_mem_rsp(&b, 2, 0, false, 0);
		}
		if (i % 3 == 0)
			tv_enc_op(&b, TV_OP_END_GROUP);	/* else implied */
	}
	tv_dec_init(&whole, &cfg, TV_STRICT);
	tv_dec_set_buffer(&whole, b.data, b.len);
	tv_dec_init(&bytewise, &cfg, TV_STRICT);
	for (size_t i = 0; i <= b.len && same; i++) {
		enum tv_status st;

		if (i < b.len)
			tv_dec_feed(&bytewise, b.data + i, 1);
		else
			tv_dec_finish(&bytewise);
		while ((st = tv_dec_next(&bytewise, &h)) == TV_GROUP) {
			same = tv_dec_next(&whole, &g) == TV_GROUP &&
			       g.n_items == h.n_items && g.offset == h.offset &&
			       g.end_offset == h.end_offset;
			for (size_t k = 0; same && k < g.n_items; k++)
				same = same_item(&g.items[k], &h.items[k]) &&
				       g.items[k].offset == h.items[k].offset;
			groups++;
		}
		more += st == TV_MORE;
		if (st == TV_ERROR)
			same = 0;
	}
	tap_ok(same && groups == 1000 && tv_dec_next(&whole, &g) == TV_END,
	       "fed one byte at a time, the decoder yields the same %d groups and offsets as over the whole buffer",
	       groups);
	tap_ok(more > 0, "an incomplete group asks for more bytes (TV_MORE)");
	tv_dec_free(&whole);
	tv_dec_free(&bytewise);
	tv_buf_free(&b);
}

/*
 * Every value-carrying item with every byte of its field set, many times
 * over in one buffer: the decoder's fast path (taken while the buffer has
 * room for the longest item) must give each value whole, up to its top
 * byte, for each configuration.
 */
static void fast_path_values(void)
{
	static const struct { unsigned int xlen, flen, mlen; } cfgs[] = {
		{ 64, 64, 64 }, { 64, 32, 64 }, { 32, 32, 34 }, { 32, 64, 32 },
	};
	static const uint8_t ids[] = {
		TV_AS_PRIV, TV_AS_PADDR, TV_AS_EADDR, TV_AS_STORE8, TV_AS_STORE16,
		TV_AS_STORE32, TV_AS_STORE64, TV_AS_MTIME, TV_AS_PC_PADDR, TV_AS_PC,
	};
	const uint64_t v = 0x8877665544332211ull;

	for (size_t c = 0; c < sizeof(cfgs) / sizeof(cfgs[0]); c++) {
		struct tv_config cfg;
		struct tv_buf b = { 0 };
		struct tv_decoder d;
		struct tv_group g;
		size_t groups = 0, bad = 0, values = 0;

		tv_config_default(&cfg);
		cfg.xlen = cfgs[c].xlen;
		cfg.flen = cfgs[c].flen;
		cfg.mlen = cfgs[c].mlen;
		for (int i = 0; i < 50; i++) {
			tv_enc_op(&b, TV_OP_BEGIN_GROUP);
			tv_enc_insn(&b, 0x8877bb33);
			tv_enc_full_reg(&b, &cfg, TV_REG_GPR(5), v);
			tv_enc_full_reg(&b, &cfg, TV_REG_FPR(7), v);
			tv_enc_full_reg(&b, &cfg, 0x341, v);
			for (size_t k = 0; k < sizeof(ids); k++)
				tv_enc_addl(&b, &cfg, ids[k], ids[k] == TV_AS_PRIV ? 3 : v);
			tv_enc_insn(&b, 0x9911);
			tv_enc_op(&b, TV_OP_END_GROUP);
		}
		tv_dec_init(&d, &cfg, TV_STRICT);
		tv_dec_set_buffer(&d, b.data, b.len);
		while (tv_dec_next(&d, &g) == TV_GROUP) {
			groups++;
			for (size_t k = 0; k < g.n_items; k++) {
				const struct tv_item *it = &g.items[k];
				unsigned int n = 0;
				uint64_t want;

				if (it->op == TV_OP_FULL_REG)
					n = tv_reg_bytes(&cfg, it->reg);
				else if (it->op == TV_OP_ADDL_STATE)
					n = tv_addl_bytes(&cfg, it->id);
				else
					continue;
				want = it->op == TV_OP_ADDL_STATE && it->id == TV_AS_PRIV ? 3
				       : n >= 8 ? v : v & ((1ull << (8 * n)) - 1);
				values++;
				if (it->value != want) {
					if (!bad)
						tap_diag("xlen %u flen %u mlen %u, %s at byte %llu: 0x%llx, not 0x%llx",
							 cfg.xlen, cfg.flen, cfg.mlen,
							 tv_op_name(it->op), (unsigned long long)it->offset,
							 (unsigned long long)it->value,
							 (unsigned long long)want);
					bad++;
				}
			}
		}
		tap_ok(groups == 50 && values == 50 * (3 + sizeof(ids)) && bad == 0,
		       "xlen %u flen %u mlen %u: every register and additional-state value decodes whole from a long buffer (%zu values, %zu wrong)",
		       cfg.xlen, cfg.flen, cfg.mlen, values, bad);
		tv_dec_free(&d);
		tv_buf_free(&b);
	}
}

/* ------------------------------------------------------------ config */

static void config(void)
{
	struct tv_config cfg;
	char buf[200], err[100];

	tv_config_default(&cfg);
	cfg.absent = TV_EL_GPR | TV_EL_CSR | TV_EL_MEM;
	tv_config_format(&cfg, buf, sizeof(buf));
	tap_eq_str(buf, "xlen=64 flen=64 mlen=64 absent=gpr,csr,mem",
		   "a partial trace's configuration names its absent elements");
	tv_config_default(&cfg);
	tap_ok(tv_config_parse(&cfg, "xlen=32 mlen=34 absent=fpr,priv\n", err, sizeof(err)) == 0 &&
	       cfg.xlen == 32 && cfg.mlen == 34 && cfg.flen == 64 &&
	       cfg.absent == (TV_EL_FPR | TV_EL_PRIV),
	       "configuration text parses back");
	tap_ok(tv_config_parse(&cfg, "xlen=48", err, sizeof(err)) != 0,
	       "xlen 48 refused (%s)", err);
	tap_ok(tv_config_parse(&cfg, "absent=gpr,bogus", err, sizeof(err)) != 0,
	       "unknown element refused (%s)", err);
	tv_config_default(&cfg);
	tap_ok(tv_config_parse(&cfg, "absent=none", err, sizeof(err)) == 0 && cfg.absent == 0,
	       "absent=none is a complete trace");
}

static void names(void)
{
	char buf[32];

	tap_eq_str(tv_reg_name(0x1003, buf, sizeof(buf)), "x3/gp", "0x1003 is x3/gp");
	tap_eq_str(tv_reg_name(0x1027, buf, sizeof(buf)), "f7/ft7", "0x1027 is f7/ft7");
	tap_eq_str(tv_reg_name(0x0304, buf, sizeof(buf)), "mie", "0x0304 is mie");
	tap_eq_str(tv_reg_name(0x07c0, buf, sizeof(buf)), "csr0x7c0", "unnamed CSRs by number");
	tap_eq_u64((uint64_t)tv_reg_by_name("a0"), 0x100a, "a0 is 0x100a");
	tap_eq_u64((uint64_t)tv_reg_by_name("fa3"), 0x102d, "fa3 is 0x102d");
	tap_eq_u64((uint64_t)tv_reg_by_name("mip"), 0x344, "mip is 0x344");
}

int main(void)
{
	appendix_c();
	appendix_d();
	xlen32();
	flen();
	memory_items();
	strict_and_lenient();
	streaming();
	fast_path_values();
	config();
	names();
	return tap_done();
}
