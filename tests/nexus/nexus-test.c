// SPDX-License-Identifier: BSD-2-Clause
/*
 * nexus-test - the N-Trace library against the spec's own examples, every
 * message type through the codec, encode -> decode round trips over every
 * option on random code (instruction by instruction), and damaged traces.
 */
#include <stdlib.h>
#include <string.h>

#include "userspace/nexus/nexus.h"
#include "rvperf/ntrace.h"
#include "synth.h"
#include "tap.h"

/* ---- byte buffers */

struct bytes {
	uint8_t *p;
	size_t n, cap;
};

static int bytes_sink(void *ctx, const uint8_t *data, size_t len)
{
	struct bytes *b = ctx;

	if (b->n + len > b->cap) {
		b->cap = (b->n + len) * 2 + 4096;
		b->p = realloc(b->p, b->cap);
		if (!b->p)
			return -1;
	}
	memcpy(b->p + b->n, data, len);
	b->n += len;
	return 0;
}

/* ---- what the decoder gives */

struct pcs {
	uint64_t *pc;
	size_t n, cap;
	size_t limit;		/* stop the decoder beyond this */
	unsigned int damage;
	size_t first_damage;
	unsigned int stops;
	unsigned int cuts;	/* NX_EV_TRUNCATED */
	size_t cut_at;
	bool ended;		/* the decoder's: a ProgTraceCorrelation last */
};

static int collect(void *ctx, uint64_t pc, unsigned int len)
{
	struct pcs *p = ctx;

	(void)len;
	if (p->limit && p->n >= p->limit)
		return -1;
	if (p->n == p->cap) {
		p->cap = p->cap * 2 + 1024;
		p->pc = realloc(p->pc, p->cap * sizeof(*p->pc));
		if (!p->pc)
			return -1;
	}
	p->pc[p->n++] = pc;
	return 0;
}

static void on_event(void *ctx, enum nx_event ev, size_t offset, const char *what)
{
	struct pcs *p = ctx;

	(void)what;
	if (ev == NX_EV_DAMAGE && !p->damage++)
		p->first_damage = offset;
	if (ev == NX_EV_STOP)
		p->stops++;
	if (ev == NX_EV_TRUNCATED && !p->cuts++)
		p->cut_at = offset;
}

static struct nx_msg msgs[64];
static size_t n_msgs;

static void keep_msg(void *ctx, const struct nx_msg *m)
{
	(void)ctx;
	if (n_msgs < 64)
		msgs[n_msgs] = *m;
	n_msgs++;
}

/* ---- the spec's worked example (transmission chapter) */

static void test_worked_example(void)
{
	/* Idle, then an IndirectBranchHist, then idle. */
	static const uint8_t trace[] = { 0xFF, 0x70, 0xD0, 0x1D, 0x1D, 0xF8,
					 0xFF, 0xFF };
	struct nx_config cfg;
	struct nx_reader r;
	struct nx_msg m;
	uint8_t out[64];
	size_t n;

	nx_config_default(&cfg);
	nx_reader_init(&r, &cfg, trace, sizeof(trace), 0);
	tap_ok(nx_read(&r, &m) == NX_READ_MSG, "worked example: one message read");
	tap_eq_u64(m.tcode, NX_TCODE_INDIRECT_BRANCH_HIST, "worked example: TCODE 28");
	tap_eq_u64(m.offset, 1, "worked example: it starts after the idle byte");
	tap_eq_u64(m.size, 6, "worked example: six bytes, the last 0xFF ends it");
	tap_eq_u64(m.btype, 0, "worked example: B-TYPE 0");
	tap_eq_u64(m.icnt, 0x7D, "worked example: I-CNT 0x7D");
	tap_eq_u64(m.addr >> 1, 0x7, "worked example: U-ADDR 0x7");
	tap_eq_u64(m.hist, 0xFFE, "worked example: HIST 0xFFE");
	tap_ok(nx_read(&r, &m) == NX_READ_END, "worked example: then only idle");
	memset(&m, 0, sizeof(m));
	m.tcode = NX_TCODE_INDIRECT_BRANCH_HIST;
	m.icnt = 0x7D;
	m.addr = 0x7 << 1;
	m.hist = 0xFFE;
	n = nx_msg_encode(&cfg, &m, out);
	tap_ok(n == 6 && !memcmp(out, trace + 1, 6),
	       "worked example: encoding the fields gives the same six bytes");
}

/* ---- address compression and the MSB extension (Address Compression,
 * Virtual Addresses Optimization chapters) */

static void test_addresses(void)
{
	/* F-ADDR field 0xF_1FFF_FFFF with MSB extension: the spec's bytes. */
	static const uint8_t ext[] = { 0x24, 0x0D, 0xFC, 0xFC, 0xFC, 0xFC,
				       0x7C, 0xF3 };
	struct nx_config cfg;
	struct nx_encoder e;
	struct nx_reader r;
	struct bytes b = { 0 };
	struct nx_insn in = { .len = 4, .itype = RVP_ITYPE_OTHER_UNINFERABLE_JUMP };
	struct nx_msg m;
	uint8_t out[64];
	size_t n;

	nx_config_default(&cfg);
	cfg.ext_addr_msb = true;
	nx_reader_init(&r, &cfg, ext, sizeof(ext), 0);
	tap_ok(nx_read(&r, &m) == NX_READ_MSG && m.tcode == NX_TCODE_PROG_TRACE_SYNC &&
	       m.sync == 3 && m.icnt == 0, "MSB extension example: ProgTraceSync read");
	tap_eq_u64(m.addr, 0xFFFFFFFE3FFFFFFEull,
		   "MSB extension example: F-ADDR 0xF_1FFF_FFFF extends to 0xFFFF_FFFE_3FFF_FFFE");
	n = nx_msg_encode(&cfg, &m, out);
	tap_ok(n == sizeof(ext) && !memcmp(out, ext, n),
	       "MSB extension example: encoding gives the spec's bytes back");
	cfg.ext_addr_msb = false;
	n = nx_msg_encode(&cfg, &m, out);
	tap_eq_u64(n, 2 + 11, "without the extension the same address takes 11 MDOs");

	/* The XOR example: 0x3FC04, 0x3F368, 0x3E100. */
	nx_config_default(&cfg);
	nx_enc_init(&e, &cfg, bytes_sink, &b);
	e.on_msg = keep_msg;
	n_msgs = 0;
	in.addr = 0x3FC04;
	nx_enc_insn(&e, &in);
	in.addr = 0x3F368;
	nx_enc_insn(&e, &in);
	in.addr = 0x3E100;
	in.itype = 0;
	nx_enc_insn(&e, &in);
	nx_enc_finish(&e, NX_EVCODE_TRACE_DISABLED);
	tap_ok(n_msgs == 4 && msgs[0].addr >> 1 == 0x1FE02 &&
	       msgs[1].addr >> 1 == 0x7B6 && msgs[2].addr >> 1 == 0x934,
	       "address compression example: F-ADDR 0x1FE02, U-ADDR 0x7B6, 0x934");
	free(b.p);
}

/* ---- every message type through the codec */

static uint64_t rnd_state = 88172645463325252ull;

static uint64_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

static uint64_t rnd_bits(unsigned int max)
{
	unsigned int n = rnd() % (max + 1);

	return n ? rnd() >> (64 - n) : 0;
}

static int same_msg(const struct nx_msg *a, const struct nx_msg *b)
{
	return a->tcode == b->tcode && a->src == b->src && a->sync == b->sync &&
	       a->btype == b->btype && a->etype == b->etype &&
	       a->rcode == b->rcode && a->evcode == b->evcode && a->cdf == b->cdf &&
	       a->icnt == b->icnt && a->addr == b->addr && a->hist == b->hist &&
	       a->data == b->data && a->rdata1 == b->rdata1 &&
	       a->has_tstamp == b->has_tstamp && a->tstamp == b->tstamp;
}

static void test_message_types(void)
{
	static const unsigned int tcodes[] = {
		NX_TCODE_OWNERSHIP, NX_TCODE_DIRECT_BRANCH, NX_TCODE_INDIRECT_BRANCH,
		NX_TCODE_ERROR, NX_TCODE_PROG_TRACE_SYNC, NX_TCODE_DIRECT_BRANCH_SYNC,
		NX_TCODE_INDIRECT_BRANCH_SYNC, NX_TCODE_RESOURCE_FULL,
		NX_TCODE_INDIRECT_BRANCH_HIST, NX_TCODE_INDIRECT_BRANCH_HIST_SYNC,
		NX_TCODE_REPEAT_BRANCH, NX_TCODE_PROG_TRACE_CORRELATION,
	};
	unsigned int t, round;

	for (t = 0; t < sizeof(tcodes) / sizeof(tcodes[0]); t++) {
		unsigned int bad = 0, maxlen = 0;

		for (round = 0; round < 4000; round++) {
			struct nx_config cfg;
			struct nx_msg m = { .tcode = tcodes[t] }, got;
			struct nx_reader r;
			uint8_t buf[80];
			size_t n;

			nx_config_default(&cfg);
			cfg.src_bits = rnd() % 2 ? rnd() % 13 : 0;
			cfg.tstamp = rnd() % 2;
			cfg.ext_addr_msb = rnd() % 2;
			cfg.xlen = rnd() % 4 ? 64 : 32;
			if (cfg.src_bits)
				m.src = rnd() & ((1u << cfg.src_bits) - 1);
			m.sync = rnd() % 16;
			m.btype = rnd() % 4;
			m.etype = rnd() % 16;
			m.rcode = rnd() % 3;
			m.evcode = rnd() % 16;
			m.cdf = rnd() % 2;
			m.icnt = rnd_bits(22);
			m.addr = rnd_bits(cfg.xlen) & ~1ull;
			if (cfg.xlen == 64 && rnd() % 3 == 0)
				m.addr |= 0xFFFFFFF000000000ull;	/* upper half */
			m.hist = rnd_bits(32) | 1;
			m.data = rnd_bits(64);
			m.rdata1 = rnd_bits(20);
			m.has_tstamp = cfg.tstamp && rnd() % 4;
			m.tstamp = m.has_tstamp ? rnd_bits(64) : 0;
			/* Fields the type does not have read back as 0. */
			switch (m.tcode) {
			case NX_TCODE_INDIRECT_BRANCH:
			case NX_TCODE_INDIRECT_BRANCH_HIST:
			case NX_TCODE_INDIRECT_BRANCH_SYNC:
			case NX_TCODE_INDIRECT_BRANCH_HIST_SYNC:
				break;
			default:
				m.btype = 0;
			}
			if (!nx_tcode_is_sync(m.tcode))
				m.sync = 0;
			if (m.tcode != NX_TCODE_ERROR)
				m.etype = 0;
			if (m.tcode != NX_TCODE_RESOURCE_FULL)
				m.rcode = 0;
			if (m.tcode != NX_TCODE_RESOURCE_FULL || m.rcode != 2)
				m.rdata1 = 0;
			if (m.tcode != NX_TCODE_PROG_TRACE_CORRELATION)
				m.evcode = m.cdf = 0;
			if (m.tcode != NX_TCODE_INDIRECT_BRANCH_HIST &&
			    m.tcode != NX_TCODE_INDIRECT_BRANCH_HIST_SYNC &&
			    !(m.tcode == NX_TCODE_PROG_TRACE_CORRELATION && m.cdf == 1))
				m.hist = 0;
			if (m.tcode == NX_TCODE_OWNERSHIP || m.tcode == NX_TCODE_ERROR ||
			    m.tcode == NX_TCODE_RESOURCE_FULL ||
			    m.tcode == NX_TCODE_REPEAT_BRANCH ||
			    m.tcode == NX_TCODE_PROG_TRACE_CORRELATION ||
			    m.tcode == NX_TCODE_DIRECT_BRANCH)
				m.addr = 0;
			else if (cfg.xlen == 32)
				m.addr &= 0xFFFFFFFEu;
			if (m.tcode == NX_TCODE_OWNERSHIP || m.tcode == NX_TCODE_ERROR ||
			    m.tcode == NX_TCODE_RESOURCE_FULL ||
			    m.tcode == NX_TCODE_REPEAT_BRANCH)
				m.icnt = 0;
			if (m.tcode != NX_TCODE_OWNERSHIP && m.tcode != NX_TCODE_ERROR &&
			    m.tcode != NX_TCODE_RESOURCE_FULL &&
			    m.tcode != NX_TCODE_REPEAT_BRANCH)
				m.data = 0;
			n = nx_msg_encode(&cfg, &m, buf);
			if (n > maxlen)
				maxlen = n;
			nx_reader_init(&r, &cfg, buf, n, 0);
			if (nx_read(&r, &got) != NX_READ_MSG || !same_msg(&m, &got) ||
			    got.size != n || nx_read(&r, &got) != NX_READ_END)
				bad++;
		}
		tap_ok(!bad, "%s: 4000 random messages (SRC, TSTAMP, XLEN, MSB "
		       "extension varied) encode and read back equal", nx_tcode_name(tcodes[t]));
		if (tcodes[t] == NX_TCODE_INDIRECT_BRANCH_HIST_SYNC)
			tap_ok(maxlen <= NX_MAX_MESSAGE_BYTES + 2,
			       "IndirectBranchHistSync: at most %u bytes with a 12-bit SRC (got %u)",
			       NX_MAX_MESSAGE_BYTES + 2, maxlen);
	}
}

/* ---- the branch messages bit by bit: the codec writes DirectBranch,
 * IndirectBranch and IndirectBranchHist of up to eight bytes its own
 * quick way (and the decoder reads them so); here a plain writer, one bit
 * at a time, as the transmission chapter describes it, says what the
 * bytes must be. */

struct bitlist {
	uint8_t bit[512], end[512];	/* end: MSEO of the MDO ending here */
	unsigned int n;
};

static void bl_put(struct bitlist *b, uint64_t v, unsigned int bits)
{
	unsigned int i;

	for (i = 0; i < bits; i++)
		b->bit[b->n++] = (v >> i) & 1;
}

/* A variable field: at least one bit, then up to the MDO boundary, and on
 * while bits of V are left. */
static void bl_var(struct bitlist *b, uint64_t v, unsigned int mseo)
{
	do {
		b->bit[b->n++] = v & 1;
		v >>= 1;
	} while (v || b->n % 6);
	b->end[b->n / 6 - 1] = (uint8_t)mseo;
}

static size_t bl_bytes(const struct bitlist *b, uint8_t *out)
{
	unsigned int i, k;

	for (i = 0; i < b->n / 6; i++) {
		out[i] = b->end[i];
		for (k = 0; k < 6; k++)
			out[i] |= (uint8_t)(b->bit[6 * i + k] << (2 + k));
	}
	return b->n / 6;
}

static void test_branch_bytes(void)
{
	static const unsigned int tcodes[] = {
		NX_TCODE_DIRECT_BRANCH, NX_TCODE_INDIRECT_BRANCH,
		NX_TCODE_INDIRECT_BRANCH_HIST,
	};
	unsigned int t, round;

	for (t = 0; t < 3; t++) {
		unsigned int bad = 0, bad_read = 0, short_ones = 0;

		for (round = 0; round < 20000; round++) {
			struct nx_config cfg;
			struct nx_msg m = { .tcode = tcodes[t] }, got;
			struct bitlist bl;
			struct nx_reader r;
			uint8_t want[80], buf[80];
			size_t n, wn;
			uint64_t f;

			nx_config_default(&cfg);
			cfg.xlen = rnd() % 4 ? 64 : 32;
			m.icnt = rnd_bits(rnd() % 4 ? 12 : 60);
			m.addr = rnd_bits(rnd() % 4 ? 16 : cfg.xlen) & ~1ull;
			if (tcodes[t] != NX_TCODE_DIRECT_BRANCH)
				m.btype = rnd() % 4;
			else
				m.addr = 0;
			if (tcodes[t] == NX_TCODE_INDIRECT_BRANCH_HIST)
				m.hist = rnd_bits(rnd() % 4 ? 10 : 32) | 1;
			memset(&bl, 0, sizeof(bl));
			bl_put(&bl, m.tcode, 6);
			if (tcodes[t] == NX_TCODE_DIRECT_BRANCH) {
				bl_var(&bl, m.icnt, 3);
			} else {
				f = m.addr >> 1;
				if (cfg.xlen == 32)
					f &= 0x7FFFFFFF;
				bl_put(&bl, m.btype, 2);
				bl_var(&bl, m.icnt, 1);
				bl_var(&bl, f, tcodes[t] == NX_TCODE_INDIRECT_BRANCH ? 3 : 1);
				if (tcodes[t] == NX_TCODE_INDIRECT_BRANCH_HIST)
					bl_var(&bl, m.hist, 3);
			}
			wn = bl_bytes(&bl, want);
			short_ones += wn <= 8;
			n = nx_msg_encode(&cfg, &m, buf);
			if (n != wn || memcmp(buf, want, n))
				bad++;
			nx_reader_init(&r, &cfg, want, wn, 0);
			if (nx_read(&r, &got) != NX_READ_MSG || !same_msg(&m, &got))
				bad_read++;
		}
		tap_ok(!bad && !bad_read && short_ones > 10000,
		       "%s: 20000 random messages (%u of at most 8 bytes) encode to the "
		       "bytes a bit-by-bit writer makes, and read back (%u, %u wrong)",
		       nx_tcode_name(tcodes[t]), short_ones, bad, bad_read);
	}
}

/* The longest message: the spec's bound is 38 bytes (it counts a 30-bit
 * I-CNT). */
static void test_max_size(void)
{
	struct nx_config cfg;
	struct nx_msg m = { .tcode = NX_TCODE_INDIRECT_BRANCH_HIST_SYNC,
			    .icnt = (1u << 30) - 1, .addr = ~1ull,
			    .hist = 0xFFFFFFFFu, .has_tstamp = true,
			    .tstamp = ~0ull };
	uint8_t buf[80];

	nx_config_default(&cfg);
	cfg.tstamp = true;
	cfg.src_bits = 12;
	tap_ok(nx_msg_encode(&cfg, &m, buf) <= NX_MAX_MESSAGE_BYTES,
	       "the longest message (IndirectBranchHistSync, every field full) fits 38 bytes");
}

/* ---- the reader survives anything */

static void test_reader_robust(void)
{
	struct nx_config cfg;
	struct nx_reader r;
	struct nx_msg m;
	uint8_t *buf = calloc(1, 1 << 20);
	unsigned int round, msgs = 0, bads = 0;
	enum nx_read_status s;

	nx_config_default(&cfg);
	nx_reader_init(&r, &cfg, buf, 1 << 20, 0);
	s = nx_read(&r, &m);
	tap_ok(s == NX_READ_BAD && m.offset == 0 && m.size == 1 << 20,
	       "a megabyte of zero bytes is one endless field, reported at offset 0");
	for (round = 0; round < 200; round++) {
		size_t i;

		for (i = 0; i < 4096; i++)
			buf[i] = (uint8_t)rnd();
		nx_reader_init(&r, &cfg, buf, 4096, 0);
		while ((s = nx_read(&r, &m)) != NX_READ_END) {
			if (s == NX_READ_MSG)
				msgs++;
			else
				bads++;
			if (m.offset + m.size > 4096)
				break;
		}
	}
	tap_ok(msgs && bads, "random bytes: messages and bad stretches told apart "
	       "(%u and %u), every offset inside the input", msgs, bads);
	free(buf);
}

/* ---- the spec's I-CNT examples (I-CNT Handling in BTM/HTM mode) */

static const uint8_t icnt_code_100[] = {
	0x06, 0x94,			/* 0x100 c.add x8,x1 */
	0x63, 0x1f, 0x00, 0x0e,		/* 0x102 bne x0,x0,+0xFE -> 0x200 */
	0xb3, 0x82, 0x62, 0x00,		/* 0x106 add */
	0x63, 0x1b, 0x00, 0x1e,		/* 0x10A bne x0,x0,+0x1F6 -> 0x300 */
	0x06, 0x94,			/* 0x10E c.add */
	0xb3, 0x82, 0x62, 0x00,		/* 0x110 add */
	0x02, 0x90,			/* 0x114 c.ebreak */
};

static void test_icnt_examples(void)
{
	static const uint8_t code_200[] = { 0x06, 0x94, 0x02, 0x90 };
	static const uint8_t code_300[] = { 0xb3, 0x82, 0x62, 0x00, 0x02, 0x90 };
	static const struct { uint64_t addr; uint32_t word; } run1[] = {
		{ 0x100, 0x9406 }, { 0x102, 0x0e001f63 }, { 0x200, 0x9406 },
	}, run2[] = {
		{ 0x100, 0x9406 }, { 0x102, 0x0e001f63 }, { 0x106, 0x006282b3 },
		{ 0x10A, 0x1e001b63 }, { 0x300, 0x006282b3 },
	};
	unsigned int mode;

	for (mode = 0; mode < 2; mode++) {
		struct nx_config cfg;
		struct nx_image img;
		struct nx_encoder e;
		struct nx_ingress g;
		struct nx_insn in;
		struct nx_decoder d;
		struct pcs got = { 0 };
		struct nx_decoder_ops ops = { .insn = collect, .ctx = &got };
		struct bytes b = { 0 };
		unsigned int run;

		nx_config_default(&cfg);
		cfg.mode = mode ? NX_MODE_HTM : NX_MODE_BTM;
		nx_image_init(&img, &cfg);
		nx_image_add_code(&img, 0x100, icnt_code_100, sizeof(icnt_code_100));
		nx_image_add_code(&img, 0x200, code_200, sizeof(code_200));
		nx_image_add_code(&img, 0x300, code_300, sizeof(code_300));
		for (run = 0; run < 2; run++) {
			size_t i, n = run ? 5 : 3;
			int ok;

			b.n = 0;
			got.n = 0;
			nx_enc_init(&e, &cfg, bytes_sink, &b);
			e.on_msg = keep_msg;
			n_msgs = 0;
			nx_ingress_init(&g, &cfg);
			for (i = 0; i < n; i++) {
				uint64_t a = run ? run2[i].addr : run1[i].addr;
				uint32_t w = run ? run2[i].word : run1[i].word;

				if (nx_ingress_step(&g, a, w, 0, 0, &in))
					nx_enc_insn(&e, &in);
			}
			if (nx_ingress_flush(&g, &in))
				nx_enc_insn(&e, &in);
			nx_enc_finish(&e, NX_EVCODE_DEBUG);
			if (mode == 0)
				ok = n_msgs == 3 && msgs[1].tcode == NX_TCODE_DIRECT_BRANCH &&
				     msgs[1].icnt == (run ? 7 : 3) &&
				     msgs[2].tcode == NX_TCODE_PROG_TRACE_CORRELATION &&
				     msgs[2].icnt == (run ? 2 : 1) && msgs[2].cdf == 0;
			else
				ok = n_msgs == 2 &&
				     msgs[1].tcode == NX_TCODE_PROG_TRACE_CORRELATION &&
				     msgs[1].icnt == (run ? 9 : 4) &&
				     msgs[1].hist == (run ? 0x5 : 0x3) && msgs[1].cdf == 1;
			tap_ok(ok && msgs[0].tcode == NX_TCODE_PROG_TRACE_SYNC &&
			       msgs[0].icnt == 0 && msgs[0].addr == 0x100,
			       "I-CNT example (%s, %s branch taken): the spec's messages",
			       mode ? "HTM" : "BTM", run ? "second" : "first");
			nx_dec_init(&d, &cfg, &img, &ops);
			nx_dec_run(&d, b.p, b.n, 0);
			ok = got.n == n && d.n_damage == 0;
			for (i = 0; ok && i < n; i++)
				ok = got.pc[i] == (run ? run2[i].addr : run1[i].addr);
			tap_ok(ok, "I-CNT example (%s, %s branch taken): decodes to the run",
			       mode ? "HTM" : "BTM", run ? "second" : "first");
		}
		free(got.pc);
		free(b.p);
		nx_image_free(&img);
	}
}

/* ---- round trips on random code */

struct rt_result {
	size_t bytes;
	unsigned int msgs_by_type[64];
	int mismatch;			/* index of first difference, or -1 */
	unsigned int damage;
};

static int encode_synth(const struct nx_config *cfg, const struct synth *s,
			struct bytes *b, struct nx_encoder *e)
{
	struct nx_ingress g;
	struct nx_insn in;
	size_t i;

	b->n = 0;
	if (nx_enc_init(e, cfg, bytes_sink, b))
		return -1;
	nx_ingress_init(&g, cfg);
	for (i = 0; i < s->n; i++) {
		if (nx_ingress_step(&g, s->pc[i], s->word[i], 0, i, &in))
			nx_enc_insn(e, &in);
	}
	if (nx_ingress_flush(&g, &in))
		nx_enc_insn(e, &in);
	return nx_enc_finish(e, NX_EVCODE_TRACE_DISABLED);
}

static int decode_bytes(const struct nx_config *cfg, struct nx_image *img,
			const uint8_t *p, size_t n, struct pcs *got)
{
	struct nx_decoder d;
	struct nx_decoder_ops ops = { .insn = collect, .event = on_event, .ctx = got };
	int r;

	got->n = 0;
	got->damage = 0;
	got->stops = 0;
	got->cuts = 0;
	got->limit = 4 << 20;
	nx_dec_init(&d, cfg, img, &ops);
	r = (int)nx_dec_run(&d, p, n, 0);
	got->ended = d.ended;
	return r;
}

static long first_difference(const struct synth *s, const struct pcs *got)
{
	size_t i;

	for (i = 0; i < s->n && i < got->n; i++)
		if (s->pc[i] != got->pc[i])
			return (long)i;
	return s->n == got->n ? -1 : (long)i;
}

static struct nx_encoder enc;

static void test_round_trips(void)
{
	static const char *const ret_names[] = { "off", "counter", "partial", "stack" };
	unsigned int round, failures = 0, configs = 0;
	uint64_t total_insns = 0;
	struct bytes b = { 0 };
	struct pcs got = { 0 };
	bool seen_tcode[64] = { false };

	for (round = 0; round < 240; round++) {
		struct nx_config cfg;
		struct synth_opts o = { .base = 0x10000, .n_slots = 600 + round * 7,
					.seed = 1000 + round };
		struct synth s;
		struct nx_image img;
		long diff;
		unsigned int t;

		nx_config_default(&cfg);
		cfg.mode = round % 2 ? NX_MODE_HTM : NX_MODE_BTM;
		cfg.ret_mode = (round / 2) % 4;
		cfg.ret_depth = (round / 8) % 3 == 0 ? 32 : (round / 8) % 3 == 1 ? 4 : 1;
		cfg.repeat = (round / 24) % 4 == 0 ? 0 : (round / 24) % 4 == 1 ?
			     NX_REPEAT_BRANCH : (round / 24) % 4 == 2 ?
			     NX_REPEAT_BRANCH | NX_REPEAT_HISTORY : NX_REPEAT_HISTORY;
		cfg.seq_jump = (round / 72) % 2;
		cfg.all_jumps = round % 5 == 0;
		cfg.sync_mode = round % 3;
		cfg.sync_period = cfg.sync_mode == NX_SYNC_MESSAGES ? 7 : 300;
		cfg.tstamp = round % 7 < 3;
		cfg.ownership = round % 4 == 1;
		cfg.src_bits = round % 6 == 2 ? 5 : 0;
		cfg.src_id = cfg.src_bits ? 17 : 0;
		cfg.ext_addr_msb = round % 3 == 1;
		cfg.icnt_bits = round % 4 == 3 ? 6 : 16;
		cfg.icnt_sync = round % 8 == 7;
		cfg.hist_bits = round % 8 < 4 ? 4 : 30;
		if (round >= 200)	/* upper-half addresses */
			o.base = 0xFFFFFFFF80000000ull;
		o.wild_returns = cfg.ret_mode != NX_RETURN_COUNTER;
		o.interrupts = cfg.ret_mode != NX_RETURN_COUNTER;
		o.max_depth = cfg.ret_mode == NX_RETURN_COUNTER ? cfg.ret_depth : 0;
		if (synth_build(&s, &o, 20000)) {
			failures++;
			continue;
		}
		nx_image_init(&img, &cfg);
		nx_image_add_code(&img, s.base, s.code, s.code_len);
		configs++;
		if (encode_synth(&cfg, &s, &b, &enc) ||
		    decode_bytes(&cfg, &img, b.p, b.n, &got) != 0 ||
		    (diff = first_difference(&s, &got)) >= 0) {
			failures++;
			if (failures <= 12)
				tap_diag("round %u (mode %s, return %s/%u, repeat %u, seq %d, "
					 "all-jumps %d, sync %u): %zu decoded of %zu, damage %u at %zu",
					 round, cfg.mode == NX_MODE_HTM ? "htm" : "btm",
					 ret_names[cfg.ret_mode], cfg.ret_depth, cfg.repeat,
					 cfg.seq_jump, cfg.all_jumps, cfg.sync_mode, got.n, s.n,
					 got.damage, got.first_damage);
		}
		for (t = 0; t < 64; t++)
			if (enc.by_tcode[t])
				seen_tcode[t] = true;
		total_insns += s.n;
		nx_image_free(&img);
		synth_free(&s);
	}
	tap_ok(!failures, "encode -> decode of random code, %u option combinations "
	       "(BTM/HTM, implicit return off/counter/partial/stack at depths 32/4/1, "
	       "repeat 0/1/2/3, sequential jumps, all jumps, periodic sync, timestamps, "
	       "ownership, SRC, MSB extension, small I-CNT (overflow as ResourceFull "
	       "or SYNC=4) and HIST): %" PRIu64
	       " instructions equal one by one (%u failed)", configs, total_insns, failures);
	tap_ok(seen_tcode[NX_TCODE_DIRECT_BRANCH] && seen_tcode[NX_TCODE_INDIRECT_BRANCH] &&
	       seen_tcode[NX_TCODE_INDIRECT_BRANCH_HIST] &&
	       seen_tcode[NX_TCODE_DIRECT_BRANCH_SYNC] &&
	       seen_tcode[NX_TCODE_INDIRECT_BRANCH_SYNC] &&
	       seen_tcode[NX_TCODE_INDIRECT_BRANCH_HIST_SYNC] &&
	       seen_tcode[NX_TCODE_RESOURCE_FULL] && seen_tcode[NX_TCODE_REPEAT_BRANCH] &&
	       seen_tcode[NX_TCODE_OWNERSHIP] && seen_tcode[NX_TCODE_PROG_TRACE_SYNC] &&
	       seen_tcode[NX_TCODE_PROG_TRACE_CORRELATION],
	       "the round trips produced every message the encoder writes");
	free(b.p);
	free(got.pc);
}

/* Overrun: Error, then ProgTraceSync SYNC=7; the decoder resumes there. */
/* ---- repeat=3: repeated history as NexRv finds it.  A loop whose one
 * conditional branch follows a pattern of P outcomes: full HISTs (31
 * bits) repeat, and with P 28 or 30 the held pattern is cut to P bits,
 * sent once with its count (ResourceFull RCODE 2); a trap in the middle
 * sends what is held and carries the bits left over.  Decoded, it gives
 * the same PCs back. */

struct hrep {
	unsigned int rcode2, max_bits, min_bits;
};

static void note_hrepeat(void *ctx, const struct nx_msg *m)
{
	struct hrep *h = ctx;
	unsigned int bits;

	if (m->tcode != NX_TCODE_RESOURCE_FULL || m->rcode != NX_RCODE_HIST_REPEAT)
		return;
	bits = 63 - (unsigned int)__builtin_clzll(m->data | 1);
	h->rcode2++;
	if (bits > h->max_bits)
		h->max_bits = bits;
	if (!h->min_bits || bits < h->min_bits)
		h->min_bits = bits;
}

static void test_nexrv_repeat(void)
{
	/* 0x10000: beq x0, x0, +8; nop; jal x0, -8 */
	static const uint32_t loop[] = { 0x00000463, 0x00000013, 0xFF9FF06F };
	static const unsigned int periods[] = { 28, 30, 31, 1 };
	const uint64_t base = 0x10000;
	unsigned int k;

	for (k = 0; k < 4; k++) {
		unsigned int p = periods[k], i;
		uint32_t pattern = (uint32_t)rnd() | 1u << (p - 1);
		struct synth s = { .base = base };
		struct nx_config cfg;
		struct nx_image img;
		struct bytes b = { 0 };
		struct pcs got = { 0 };
		struct hrep h = { 0 };
		uint8_t code[12];
		size_t cap = 200000;
		long diff;
		int r;

		memcpy(code, loop, sizeof(code));	/* little-endian host */
		s.pc = malloc(cap * sizeof(*s.pc));
		s.word = malloc(cap * sizeof(*s.word));
		for (i = 0; i < 1860 && s.n + 3 < cap; i++) {
			bool taken = pattern >> (i % p) & 1;

			s.pc[s.n] = base;
			s.word[s.n++] = loop[0];
			if (!taken) {
				s.pc[s.n] = base + 4;
				s.word[s.n++] = loop[1];
			}
			/* A trap after the jump once, halfway: it goes to
			 * the nop instead of the beq. */
			if (i == 935) {
				s.pc[s.n] = base + 8;
				s.word[s.n++] = loop[2];
			}
			s.pc[s.n] = base + 8;
			s.word[s.n++] = loop[2];
		}
		nx_config_default(&cfg);
		cfg.hist_bits = 32;
		cfg.icnt_bits = 22;
		nx_config_set(&cfg, "repeat", "3");
		r = encode_synth(&cfg, &s, &b, &enc);
		/* again with the messages watched (not the quick way) */
		if (!r) {
			struct bytes b2 = { 0 };
			struct nx_ingress g;
			struct nx_insn in;
			size_t j;

			nx_enc_init(&enc, &cfg, bytes_sink, &b2);
			enc.on_msg = note_hrepeat;
			enc.on_msg_ctx = &h;
			nx_ingress_init(&g, &cfg);
			for (j = 0; j < s.n; j++)
				if (nx_ingress_step(&g, s.pc[j], s.word[j], 0, j, &in))
					nx_enc_insn(&enc, &in);
			if (nx_ingress_flush(&g, &in))
				nx_enc_insn(&enc, &in);
			r = nx_enc_finish(&enc, NX_EVCODE_TRACE_DISABLED) ||
			    b2.n != b.n || memcmp(b2.p, b.p, b.n);
			free(b2.p);
		}
		nx_image_init(&img, &cfg);
		nx_image_add_code(&img, base, code, sizeof(code));
		diff = r ? 0 : decode_bytes(&cfg, &img, b.p, b.n, &got) ? 0 :
		       first_difference(&s, &got);
		if (r || diff >= 0)
			tap_diag("period %u: encode %d, first difference %ld (of %zu, got %zu, %u damage)",
				 p, r, diff, s.n, got.n, got.damage);
		tap_ok(!r && diff < 0 && h.rcode2 >= 2 &&
		       h.max_bits == (p >= 28 ? p : 31) && h.min_bits <= h.max_bits,
		       "repeat=3, a branch with a period of %u: %zu instructions in %zu "
		       "bytes decode equal (%u repeated HISTs of %u bits)", p, s.n, b.n,
		       h.rcode2, h.max_bits);
		nx_image_free(&img);
		free(s.pc);
		free(s.word);
		free(b.p);
		free(got.pc);
	}
}

static void test_overrun(void)
{
	struct synth_opts o = { .base = 0x10000, .n_slots = 1500, .seed = 99,
				.wild_returns = true, .interrupts = true };
	struct nx_config cfg;
	struct nx_image img;
	struct nx_ingress g;
	struct nx_insn in;
	struct synth s;
	struct bytes b = { 0 };
	struct pcs got = { 0 };
	size_t i, lost_from = 5000;
	int ok;

	nx_config_default(&cfg);
	synth_build(&s, &o, 10000);
	nx_image_init(&img, &cfg);
	nx_image_add_code(&img, s.base, s.code, s.code_len);
	nx_enc_init(&enc, &cfg, bytes_sink, &b);
	nx_ingress_init(&g, &cfg);
	for (i = 0; i < s.n; i++) {
		if (i == lost_from) {
			/* The instruction waiting in the ingress is lost too. */
			nx_enc_overrun(&enc);
			nx_ingress_init(&g, &cfg);
		}
		if (nx_ingress_step(&g, s.pc[i], s.word[i], 0, 0, &in))
			nx_enc_insn(&enc, &in);
	}
	if (nx_ingress_flush(&g, &in))
		nx_enc_insn(&enc, &in);
	nx_enc_finish(&enc, NX_EVCODE_TRACE_DISABLED);
	decode_bytes(&cfg, &img, b.p, b.n, &got);
	/* Lost: the instruction in the ingress and the stretch whose I-CNT
	 * the lost messages held.  Before: a prefix; after: all. */
	ok = enc.by_tcode[NX_TCODE_ERROR] == 1 && !got.damage &&
	     got.n > s.n - lost_from && got.n < s.n;
	for (i = 0; ok && i < s.n - lost_from; i++)
		ok = got.pc[got.n - 1 - i] == s.pc[s.n - 1 - i];
	for (i = 0; ok && i < got.n - (s.n - lost_from); i++)
		ok = got.pc[i] == s.pc[i];
	tap_ok(ok, "overrun: an Error message, a SYNC=7 restart; what the lost "
	       "messages held is missing, everything before and after decoded "
	       "(%zu of %zu)", got.n, s.n);
	nx_image_free(&img);
	synth_free(&s);
	free(b.p);
	free(got.pc);
}

/* ---- damaged traces */

static void test_damage(void)
{
	struct synth_opts o = { .base = 0x10000, .n_slots = 1500, .seed = 99,
				.wild_returns = true, .interrupts = true };
	struct nx_config cfg;
	struct nx_image img;
	struct synth s;
	struct bytes b = { 0 };
	struct pcs got = { 0 };
	unsigned int round, bad_flip = 0, flips_reported = 0;
	int r;
	size_t prefix, suffix, cut;

	nx_config_default(&cfg);
	cfg.sync_mode = NX_SYNC_MESSAGES;
	cfg.sync_period = 40;
	synth_build(&s, &o, 50000);
	nx_image_init(&img, &cfg);
	nx_image_add_code(&img, s.base, s.code, s.code_len);
	encode_synth(&cfg, &s, &b, &enc);

	/* One damaged byte: what comes before and after is decoded. */
	for (round = 0; round < 50; round++) {
		size_t at = b.n / 4 + rnd() % (b.n / 2);
		uint8_t old = b.p[at];

		b.p[at] ^= (uint8_t)(1u << (rnd() % 8));
		decode_bytes(&cfg, &img, b.p, b.n, &got);
		b.p[at] = old;
		for (prefix = 0; prefix < got.n && prefix < s.n &&
		     got.pc[prefix] == s.pc[prefix]; prefix++)
			;
		for (suffix = 0; suffix < got.n && suffix < s.n &&
		     got.pc[got.n - 1 - suffix] == s.pc[s.n - 1 - suffix]; suffix++)
			;
		if (got.damage) {
			flips_reported++;
			if (got.first_damage > at + NX_MAX_MESSAGE_BYTES * 64 ||
			    got.first_damage + NX_MAX_MESSAGE_BYTES < at)
				bad_flip++;
		}
		/* Decoded = right prefix + right suffix (a flip may also go
		 * unnoticed and change a path: then at most a stretch up
		 * to the next sync differs). */
		if (prefix < s.n / 8 || suffix < s.n / 8)
			bad_flip++;
	}
	tap_ok(!bad_flip, "50 traces with one flipped bit: the start and the end "
	       "decode right, damage is reported near the flip (%u of 50 reported)",
	       flips_reported);
	tap_ok(flips_reported >= 25, "most flips are caught as damage (%u of 50)",
	       flips_reported);

	/* Truncated: everything up to the cut decodes, the cut is reported
	 * as a cut (not damage inside), and the end as missing. */
	decode_bytes(&cfg, &img, b.p, b.n, &got);
	tap_ok(got.ended && !got.cuts, "the whole trace ends with its "
	       "ProgTraceCorrelation (ended), nothing cut");
	cut = b.n / 2;
	while ((b.p[cut - 1] & 3) == 3)
		cut--;		/* inside a message */
	r = decode_bytes(&cfg, &img, b.p, cut, &got);
	for (prefix = 0; prefix < got.n && got.pc[prefix] == s.pc[prefix]; prefix++)
		;
	tap_ok(got.cuts == 1 && !got.damage && r == 1 && got.cut_at < cut &&
	       got.cut_at + NX_MAX_MESSAGE_BYTES >= cut && !got.ended &&
	       prefix == got.n && got.n > s.n / 3, "truncated mid-message: %zu "
	       "instructions before the cut decoded, the cut message reported "
	       "(NX_EV_TRUNCATED) at %zu", got.n, got.cut_at);
	while ((b.p[cut - 1] & 3) != 3)
		cut--;		/* after a whole message */
	decode_bytes(&cfg, &img, b.p, cut, &got);
	for (prefix = 0; prefix < got.n && got.pc[prefix] == s.pc[prefix]; prefix++)
		;
	tap_ok(!got.cuts && !got.damage && !got.ended && prefix == got.n &&
	       got.n > s.n / 3, "truncated after a whole message: %zu "
	       "instructions decoded, not ended", got.n);

	/* Starting mid-message: reported or skipped, then decoded from the
	 * next sync to the end. */
	cut = b.n / 3;
	while ((b.p[cut - 1] & 3) == 3 || (b.p[cut] & 3) == 3)
		cut++;
	decode_bytes(&cfg, &img, b.p + cut, b.n - cut, &got);
	for (suffix = 0; suffix < got.n && got.pc[got.n - 1 - suffix] ==
	     s.pc[s.n - 1 - suffix]; suffix++)
		;
	tap_ok(suffix == got.n && got.n > s.n / 2 && got.stops == 1,
	       "starting mid-message: from the next sync on, %zu instructions decoded, "
	       "all right", got.n);

	/* An address outside the image is reported with its offset. */
	{
		struct nx_image small;

		nx_image_init(&small, &cfg);
		nx_image_add_code(&small, s.base, s.code, s.code_len / 2);
		decode_bytes(&cfg, &small, b.p, b.n, &got);
		tap_ok(got.damage > 0 && got.n > 0,
		       "half the image: the first address outside it is reported "
		       "(first at offset %zu), %zu instructions decoded",
		       got.first_damage, got.n);
		nx_image_free(&small);
	}
	nx_image_free(&img);
	synth_free(&s);
	free(b.p);
	free(got.pc);
}

/* ---- timestamps: each message's absolute time comes back */

static uint64_t enc_abs[4096];
static size_t n_enc_abs;
static uint64_t enc_last;

static void note_enc_time(void *ctx, const struct nx_msg *m)
{
	(void)ctx;
	enc_last = nx_tcode_is_sync(m->tcode) ? m->tstamp : enc_last + m->tstamp;
	if (n_enc_abs < 4096)
		enc_abs[n_enc_abs++] = enc_last;
}

static uint64_t dec_abs[4096];
static size_t n_dec_abs;

static void note_dec_time(void *ctx, const struct nx_msg *m, uint64_t abs)
{
	(void)ctx;
	(void)m;
	if (n_dec_abs < 4096)
		dec_abs[n_dec_abs++] = abs;
}

static void test_timestamps(void)
{
	struct synth_opts o = { .base = 0x10000, .n_slots = 500, .seed = 3 };
	struct nx_config cfg;
	struct nx_image img;
	struct nx_decoder d;
	struct nx_decoder_ops ops = { .msg = note_dec_time };
	struct synth s;
	struct bytes b = { 0 };
	struct nx_ingress g;
	struct nx_insn in;
	size_t i;
	bool ok, monotonic = true;

	nx_config_default(&cfg);
	cfg.tstamp = true;
	cfg.sync_mode = NX_SYNC_MESSAGES;
	cfg.sync_period = 10;
	synth_build(&s, &o, 5000);
	nx_image_init(&img, &cfg);
	nx_image_add_code(&img, s.base, s.code, s.code_len);
	nx_enc_init(&enc, &cfg, bytes_sink, &b);
	enc.on_msg = note_enc_time;
	nx_ingress_init(&g, &cfg);
	for (i = 0; i < s.n; i++)
		if (nx_ingress_step(&g, s.pc[i], s.word[i], 0, 1000 + 3 * i, &in))
			nx_enc_insn(&enc, &in);
	nx_enc_finish(&enc, 4);
	nx_dec_init(&d, &cfg, &img, &ops);
	nx_dec_run(&d, b.p, b.n, 0);
	ok = n_enc_abs == n_dec_abs && n_enc_abs > 100;
	for (i = 0; ok && i < n_enc_abs; i++) {
		ok = enc_abs[i] == dec_abs[i];
		if (i && dec_abs[i] < dec_abs[i - 1])
			monotonic = false;
	}
	tap_ok(ok && monotonic, "timestamps: %zu messages, absolute at syncs and "
	       "relative between, decode to the times they were encoded with", n_dec_abs);
	nx_image_free(&img);
	synth_free(&s);
	free(b.p);
}

/* ---- Ownership: the privilege mode of every block comes back */

static const uint8_t *own_expect;
static size_t own_at;
static unsigned int own_bad;

static int check_priv(void *ctx, const struct nx_block *b)
{
	uint64_t i;

	(void)ctx;
	for (i = 0; i < b->n_insns; i++)
		if (own_expect[own_at + i] != b->priv)
			own_bad++;
	own_at += b->n_insns;
	return 0;
}

static void test_ownership(void)
{
	struct synth_opts o = { .base = 0x10000, .n_slots = 1500, .seed = 77,
				.interrupts = true, .wild_returns = true };
	struct nx_decoder_ops ops = { .block = check_priv };
	struct nx_config cfg;
	struct nx_image img;
	struct nx_decoder d;
	struct nx_ingress g;
	struct nx_insn in;
	struct synth s;
	struct bytes b = { 0 };
	uint8_t *priv;
	unsigned int mode = 0, changes = 0;
	size_t i, n = 0;

	nx_config_default(&cfg);
	cfg.ownership = true;
	cfg.sync_mode = NX_SYNC_MESSAGES;
	cfg.sync_period = 50;
	synth_build(&s, &o, 30000);
	priv = malloc(s.n);
	nx_image_init(&img, &cfg);
	nx_image_add_code(&img, s.base, s.code, s.code_len);
	nx_enc_init(&enc, &cfg, bytes_sink, &b);
	nx_ingress_init(&g, &cfg);
	/* A trap (exception, interrupt) enters S-mode, a trap return and
	 * the next trap from S-mode go back to U-mode. */
	for (i = 0; i <= s.n; i++) {
		int have = i < s.n ? nx_ingress_step(&g, s.pc[i], s.word[i], 0, i, &in)
				   : nx_ingress_flush(&g, &in);

		if (!have)
			continue;
		in.priv = mode;
		priv[n++] = (uint8_t)mode;
		nx_enc_insn(&enc, &in);
		if (in.itype == RVP_ITYPE_EXCEPTION || in.itype == RVP_ITYPE_INTERRUPT ||
		    in.itype == RVP_ITYPE_EXCEPTION_OR_INTERRUPT_RETURN) {
			mode ^= 1;
			changes++;
		}
	}
	nx_enc_finish(&enc, NX_EVCODE_DEBUG);
	own_expect = priv;
	own_at = 0;
	own_bad = 0;
	nx_dec_init(&d, &cfg, &img, &ops);
	nx_dec_run(&d, b.p, b.n, 0);
	tap_ok(own_at == n && !own_bad && changes > 50 &&
	       enc.by_tcode[NX_TCODE_OWNERSHIP] > changes,
	       "Ownership: %u mode changes at traps and returns, each block "
	       "decoded with its instructions' mode (%" PRIu64 " Ownership messages)",
	       changes, enc.by_tcode[NX_TCODE_OWNERSHIP]);
	free(priv);
	nx_image_free(&img);
	synth_free(&s);
	free(b.p);
}

/* ---- the header */

static void test_header(void)
{
	struct nx_config a, b;
	char buf[1024], err[128];
	long n;

	nx_config_default(&a);
	a.mode = NX_MODE_BTM;
	a.ret_mode = NX_RETURN_PARTIAL;
	a.ret_depth = 7;
	a.repeat = NX_REPEAT_BRANCH | NX_REPEAT_HISTORY;
	a.sync_mode = NX_SYNC_ICNT;
	a.sync_period = 1234;
	a.tstamp = a.ownership = a.seq_jump = a.all_jumps = a.ext_addr_msb = true;
	a.src_bits = 4;
	a.src_id = 9;
	a.icnt_bits = 12;
	a.icnt_sync = true;
	a.hist_bits = 17;
	a.start_sync = 5;
	n = (long)nx_header_format(&a, buf, sizeof(buf));
	tap_ok(nx_header_parse((uint8_t *)buf, (size_t)n, &b, err, sizeof(err)) == n &&
	       !memcmp(&a, &b, sizeof(a)), "the header carries every option");
	tap_ok(nx_header_parse((const uint8_t *)"\xff\x24", 2, &b, err, sizeof(err)) == 0,
	       "a raw trace has no header");
	memcpy(buf + n - 9, "zzz", 3);
	tap_ok(nx_header_parse((uint8_t *)buf, (size_t)n, &b, err, sizeof(err)) < 0,
	       "a damaged header is refused: %s", err);
}

int main(void)
{
	test_worked_example();
	test_addresses();
	test_message_types();
	test_branch_bytes();
	test_max_size();
	test_reader_robust();
	test_icnt_examples();
	test_header();
	test_round_trips();
	test_nexrv_repeat();
	test_overrun();
	test_timestamps();
	test_ownership();
	test_damage();
	return tap_done();
}
