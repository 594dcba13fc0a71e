// SPDX-License-Identifier: BSD-2-Clause
/*
 * codec.c - N-Trace messages to bytes and back.
 *
 * A byte is MDO[5:0] << 2 | MSEO[1:0].  The fields of a message are one
 * bit string, LSB first: TCODE fills the first MDO, fixed fields follow
 * without padding, a variable field goes on from wherever the fixed ones
 * stopped and ends at a byte whose MSEO says "end of field" (01) or "end
 * of message" (11).  So the layout of each TCODE is: how many fixed bits
 * after TCODE (SRC included) and how many variable fields.
 */
#include <stdio.h>
#include <string.h>

#include "nexus_int.h"

#define MSEO_NORMAL	0
#define MSEO_END_FIELD	1
#define MSEO_RESERVED	2
#define MSEO_END_MSG	3
#define IDLE_BYTE	0xFF

const char *nx_tcode_name(unsigned int tcode)
{
	switch (tcode) {
	case NX_TCODE_OWNERSHIP: return "Ownership";
	case NX_TCODE_DIRECT_BRANCH: return "DirectBranch";
	case NX_TCODE_INDIRECT_BRANCH: return "IndirectBranch";
	case NX_TCODE_ERROR: return "Error";
	case NX_TCODE_PROG_TRACE_SYNC: return "ProgTraceSync";
	case NX_TCODE_DIRECT_BRANCH_SYNC: return "DirectBranchSync";
	case NX_TCODE_INDIRECT_BRANCH_SYNC: return "IndirectBranchSync";
	case NX_TCODE_RESOURCE_FULL: return "ResourceFull";
	case NX_TCODE_INDIRECT_BRANCH_HIST: return "IndirectBranchHist";
	case NX_TCODE_INDIRECT_BRANCH_HIST_SYNC: return "IndirectBranchHistSync";
	case NX_TCODE_REPEAT_BRANCH: return "RepeatBranch";
	case NX_TCODE_PROG_TRACE_CORRELATION: return "ProgTraceCorrelation";
	}
	if (tcode >= NX_TCODE_VENDOR_FIRST && tcode <= NX_TCODE_VENDOR_LAST)
		return "VendorDefined";
	return "Reserved";
}

/* Kinds of variable fields, in the order a message sends them. */
enum var_kind { V_ICNT, V_UADDR, V_FADDR, V_HIST, V_DATA, V_RDATA1 };

struct layout {
	unsigned int fixed;		/* bits after TCODE and SRC */
	unsigned int n_vars;		/* without TSTAMP */
	enum var_kind vars[3];
};

/* The layout of a known TCODE given its fixed fields (RCODE and CDF
 * change the count); 0 for an unknown TCODE. */
static inline int layout_of(unsigned int tcode, unsigned int rcode,
			    unsigned int cdf, struct layout *l)
{
	static const struct layout
		own = { 0, 1, { V_DATA } },
		db = { 0, 1, { V_ICNT } },
		ib = { 2, 2, { V_ICNT, V_UADDR } },
		err = { 4, 1, { V_DATA } },
		sync = { 4, 2, { V_ICNT, V_FADDR } },
		ibs = { 6, 2, { V_ICNT, V_FADDR } },
		rf = { 4, 1, { V_DATA } },
		rf2 = { 4, 2, { V_DATA, V_RDATA1 } },
		ibh = { 2, 3, { V_ICNT, V_UADDR, V_HIST } },
		ibhs = { 6, 3, { V_ICNT, V_FADDR, V_HIST } },
		rb = { 0, 1, { V_DATA } },
		ptc0 = { 6, 1, { V_ICNT } },
		ptc1 = { 6, 2, { V_ICNT, V_HIST } };

	switch (tcode) {
	case NX_TCODE_OWNERSHIP: *l = own; return 1;
	case NX_TCODE_DIRECT_BRANCH: *l = db; return 1;
	case NX_TCODE_INDIRECT_BRANCH: *l = ib; return 1;
	case NX_TCODE_ERROR: *l = err; return 1;
	case NX_TCODE_PROG_TRACE_SYNC:
	case NX_TCODE_DIRECT_BRANCH_SYNC: *l = sync; return 1;
	case NX_TCODE_INDIRECT_BRANCH_SYNC: *l = ibs; return 1;
	case NX_TCODE_RESOURCE_FULL:
		*l = rcode == NX_RCODE_HIST_REPEAT ? rf2 : rf;
		return 1;
	case NX_TCODE_INDIRECT_BRANCH_HIST: *l = ibh; return 1;
	case NX_TCODE_INDIRECT_BRANCH_HIST_SYNC: *l = ibhs; return 1;
	case NX_TCODE_REPEAT_BRANCH: *l = rb; return 1;
	case NX_TCODE_PROG_TRACE_CORRELATION:
		*l = cdf == 1 ? ptc1 : ptc0;
		return 1;
	}
	return 0;
}

/* The fixed fields after SRC, LSB first, as one value. */
static uint64_t fixed_value(const struct nx_msg *m)
{
	switch (m->tcode) {
	case NX_TCODE_INDIRECT_BRANCH:
	case NX_TCODE_INDIRECT_BRANCH_HIST:
		return m->btype & 3;
	case NX_TCODE_ERROR:
		return m->etype & 15;
	case NX_TCODE_PROG_TRACE_SYNC:
	case NX_TCODE_DIRECT_BRANCH_SYNC:
		return m->sync & 15;
	case NX_TCODE_INDIRECT_BRANCH_SYNC:
	case NX_TCODE_INDIRECT_BRANCH_HIST_SYNC:
		return (m->sync & 15) | (m->btype & 3) << 4;
	case NX_TCODE_RESOURCE_FULL:
		return m->rcode & 15;
	case NX_TCODE_PROG_TRACE_CORRELATION:
		return (m->evcode & 15) | (m->cdf & 3) << 4;
	}
	return 0;
}

/* ---- writing */

struct bitw {
	uint8_t *out;
	size_t n;
	uint64_t acc;		/* bits not yet in a byte */
	unsigned int bits;	/* how many (< 6 between calls) */
};

static inline __attribute__((always_inline)) void
put_fixed(struct bitw *w, uint64_t v, unsigned int nbits)
{
	if (nbits < 64)
		v &= (1ull << nbits) - 1;
	w->acc |= v << w->bits;
	w->bits += nbits;
	while (w->bits >= 6) {
		w->out[w->n++] = (uint8_t)((w->acc & 0x3F) << 2 | MSEO_NORMAL);
		w->acc >>= 6;
		w->bits -= 6;
	}
}

static unsigned int bit_length(uint64_t v)
{
	return v ? 64 - (unsigned int)__builtin_clzll(v) : 0;
}

/* A variable field of CHUNKS MDOs carrying V (the last with MSEO 01). */
static inline __attribute__((always_inline)) void
put_var_chunks(struct bitw *w, uint64_t v, unsigned int chunks)
{
	unsigned int room = 6 - w->bits;	/* in the open MDO */

	w->out[w->n++] = (uint8_t)(((w->acc | v << w->bits) & 0x3F) << 2 |
				   (chunks == 1 ? MSEO_END_FIELD : MSEO_NORMAL));
	v = room < 64 ? v >> room : 0;
	while (--chunks) {
		w->out[w->n++] = (uint8_t)((v & 0x3F) << 2 |
					   (chunks == 1 ? MSEO_END_FIELD
							: MSEO_NORMAL));
		v >>= 6;
	}
	w->acc = 0;
	w->bits = 0;
}

static inline __attribute__((always_inline)) void
put_var(struct bitw *w, uint64_t v)
{
	unsigned int need = bit_length(v), room = 6 - w->bits, chunks = 1;

	if (need > room)
		chunks += (need - room + 5) / 6;
	put_var_chunks(w, v, chunks);
}

/* An address field: bits [XLEN-1:1] of A.  With MSB extension the top
 * bit of the last MDO stands for every bit above it, so the field stops
 * as soon as the bits above it all equal that bit. */
static void put_addr(struct bitw *w, const struct nx_config *cfg, uint64_t a)
{
	unsigned int width = cfg->xlen - 1, room = 6 - w->bits, chunks;
	uint64_t f = a >> 1;

	if (width < 64)
		f &= (1ull << width) - 1;
	if (!cfg->ext_addr_msb) {
		put_var(w, f);
		return;
	}
	for (chunks = 1;; chunks++) {
		unsigned int avail = room + 6 * (chunks - 1);
		uint64_t top, above;

		if (avail > width)
			break;
		top = f >> (avail - 1) & 1;
		above = f >> avail;	/* avail <= width <= 63 */
		if (above == (top ? ((1ull << (width - avail)) - 1) : 0))
			break;
	}
	put_var_chunks(w, f, chunks);
}

size_t nx_branch_bytes(const struct nx_config *cfg, unsigned int tcode,
		       unsigned int btype, uint64_t icnt, uint64_t addr,
		       uint64_t hist, uint8_t *out)
{
	return nx_branch_bytes_inline(cfg->xlen, tcode, btype, icnt, addr, hist,
				      out, false);
}

size_t nx_msg_encode(const struct nx_config *cfg, const struct nx_msg *m,
		     uint8_t *out)
{
	struct bitw w = { .out = out };
	struct layout l;
	unsigned int i;

	if ((m->tcode == NX_TCODE_DIRECT_BRANCH ||
	     m->tcode == NX_TCODE_INDIRECT_BRANCH ||
	     m->tcode == NX_TCODE_INDIRECT_BRANCH_HIST) &&
	    !cfg->src_bits && !m->has_tstamp && !cfg->ext_addr_msb) {
		size_t n = nx_branch_bytes(cfg, m->tcode, m->btype, m->icnt,
					   m->addr, m->hist, out);

		if (n)
			return n;
	}
	if (!layout_of(m->tcode, m->rcode, m->cdf, &l))
		return 0;
	put_fixed(&w, m->tcode, 6);
	if (cfg->src_bits)
		put_fixed(&w, m->src, cfg->src_bits);
	if (l.fixed)
		put_fixed(&w, fixed_value(m), l.fixed);
	for (i = 0; i < l.n_vars; i++) {
		switch (l.vars[i]) {
		case V_ICNT: put_var(&w, m->icnt); break;
		case V_UADDR:
		case V_FADDR: put_addr(&w, cfg, m->addr); break;
		case V_HIST: put_var(&w, m->hist); break;
		case V_DATA: put_var(&w, m->data); break;
		case V_RDATA1: put_var(&w, m->rdata1); break;
		}
	}
	if (m->has_tstamp)
		put_var(&w, m->tstamp);
	out[w.n - 1] |= MSEO_END_MSG;
	return w.n;
}

/* ---- reading */

void nx_reader_init(struct nx_reader *r, const struct nx_config *cfg,
		    const uint8_t *data, size_t len, size_t base)
{
	memset(r, 0, sizeof(*r));
	r->data = data;
	r->len = len;
	r->base = base;
	r->cfg = *cfg;
}

#define MAX_VARS 8

/* Fixed bits after TCODE (SRC excluded) of each TCODE, and whether the
 * TCODE is one N-Trace defines: the reader's per-message lookups. */
static const uint8_t fixed_bits[64] = {
	[NX_TCODE_INDIRECT_BRANCH] = 2, [NX_TCODE_ERROR] = 4,
	[NX_TCODE_PROG_TRACE_SYNC] = 4, [NX_TCODE_DIRECT_BRANCH_SYNC] = 4,
	[NX_TCODE_INDIRECT_BRANCH_SYNC] = 6, [NX_TCODE_RESOURCE_FULL] = 4,
	[NX_TCODE_INDIRECT_BRANCH_HIST] = 2,
	[NX_TCODE_INDIRECT_BRANCH_HIST_SYNC] = 6,
	[NX_TCODE_PROG_TRACE_CORRELATION] = 6,
};

/* Skips to after the next end-of-message byte (or the end). */
static void skip_message(struct nx_reader *r)
{
	while (r->pos < r->len && (r->data[r->pos++] & 3) != MSEO_END_MSG)
		;
}

static enum nx_read_status bad(struct nx_reader *r, struct nx_msg *m,
			       size_t start, const char *why)
{
	snprintf(r->err, sizeof(r->err), "%s", why);
	memset(m, 0, sizeof(*m));
	m->offset = r->base + start;
	m->size = r->pos - start;
	return NX_READ_BAD;
}

/* An address field: BITS collected, TOP the last MDO's highest bit. */
static uint64_t addr_of(const struct nx_config *cfg, uint64_t f,
			unsigned int bits, bool top)
{
	unsigned int width = cfg->xlen - 1;

	if (cfg->ext_addr_msb && top && bits < width)
		f |= ~0ull << bits;
	if (width < 64)
		f &= (1ull << width) - 1;
	return f << 1;
}

enum nx_read_status nx_read(struct nx_reader *r, struct nx_msg *m)
{
	const uint8_t *data = r->data;
	uint64_t vals[MAX_VARS], cur = 0, fixed = 0;
	unsigned int bits[MAX_VARS], n_vars = 0, cur_bits = 0;
	unsigned int fixed_need, fixed_have = 0, tcode, nv, i;
	uint8_t tops = 0, overflow = 0;
	size_t pos = r->pos, len = r->len, start;
	struct layout l = { 0 };
	bool known;
	uint8_t b;

	/* Idle bytes; any other end-of-message byte outside a message is
	 * the tail of one we did not see the start of. */
	while (pos < len && data[pos] == IDLE_BYTE)
		pos++;
	r->pos = pos;
	if (pos >= len)
		return NX_READ_END;
	start = pos;
	b = data[pos++];
	r->pos = pos;
	if ((b & 3) != MSEO_NORMAL) {
		if ((b & 3) != MSEO_END_MSG)
			skip_message(r);
		return bad(r, m, start, (b & 3) == MSEO_END_MSG ?
			   "end of a message that never started" :
			   "message starts with a field end or reserved MSEO");
	}
	tcode = b >> 2;
	known = layout_of(tcode, 0, 0, &l);
	fixed_need = r->cfg.src_bits + fixed_bits[tcode];
	/* The common message, quickly: whole in the buffer, no field longer
	 * than 60 bits, nothing wrong.  Anything else is read again below,
	 * byte by byte, by the general loop that reports what is wrong. */
	if (len - start >= NX_MAX_MESSAGE_BYTES && fixed_need <= 32) {
		const uint8_t *p = data + pos, *lim = data + start + NX_MAX_MESSAGE_BYTES;
		unsigned int sh, skip = fixed_need;

		for (;;) {
			uint64_t acc = 0;

			sh = 0;
			do {
				if (p == lim || sh == 60)
					goto general;
				b = *p++;
				acc |= (uint64_t)(b >> 2) << sh;
				sh += 6;
			} while (!(b & 3));
			if ((b & 3) == MSEO_RESERVED || sh <= skip || n_vars == MAX_VARS)
				goto general;
			if (skip) {
				fixed = acc & ((1ull << skip) - 1);
				acc >>= skip;
				sh -= skip;
				skip = 0;
			}
			vals[n_vars] = acc;
			bits[n_vars] = sh;
			tops |= (uint8_t)((b >> 7) << n_vars);
			n_vars++;
			if ((b & 3) == MSEO_END_MSG)
				break;
		}
		pos = (size_t)(p - data);
		r->pos = pos;
		goto scanned;
general:
		fixed = 0;
		n_vars = 0;
		tops = 0;
	}
	for (;;) {
		unsigned int mdo, mseo;

		if (pos >= len) {
			r->pos = pos;
			r->cut = true;
			return bad(r, m, start, "trace ends inside a message");
		}
		b = data[pos++];
		mseo = b & 3;
		mdo = b >> 2;
		if (__builtin_expect(fixed_have < fixed_need, 0)) {
			unsigned int take = fixed_need - fixed_have;

			if (take > 6)
				take = 6;
			fixed |= (uint64_t)(mdo & ((1u << take) - 1)) << fixed_have;
			fixed_have += take;
			mdo >>= take;
			if (take < 6) {
				cur = mdo;
				cur_bits = 6 - take;
			}
		} else {
			if (cur_bits < 58) {
				cur |= (uint64_t)mdo << cur_bits;
			} else if (cur_bits < 64) {
				cur |= (uint64_t)mdo << cur_bits;
				overflow |= (mdo >> (64 - cur_bits)) != 0;
			} else {
				overflow |= mdo != 0;
			}
			cur_bits += 6;
		}
		if (__builtin_expect(mseo == MSEO_NORMAL, 1))
			continue;
		r->pos = pos;
		if (mseo == MSEO_RESERVED) {
			skip_message(r);
			return bad(r, m, start, "reserved MSEO value 10");
		}
		/* End of a field (and maybe of the message). */
		if (fixed_have < fixed_need || !cur_bits) {
			if (mseo != MSEO_END_MSG)
				skip_message(r);
			return bad(r, m, start, fixed_have < fixed_need ?
				   "message ends inside its fixed fields" :
				   "empty variable field");
		}
		if (n_vars < MAX_VARS) {
			vals[n_vars] = cur;
			bits[n_vars] = cur_bits;
			/* The last MDO's top bit is the byte's top bit. */
			tops |= (uint8_t)((b >> 7) << n_vars);
		}
		n_vars++;
		cur = 0;
		cur_bits = 0;
		if (mseo == MSEO_END_MSG)
			break;
	}
scanned:
	m->tcode = tcode;
	m->offset = r->base + start;
	m->size = pos - start;
	m->n_vars = n_vars;
	m->src = 0;
	if (r->cfg.src_bits) {
		m->src = fixed & ((1u << r->cfg.src_bits) - 1);
		fixed >>= r->cfg.src_bits;
	}
	/* The messages of a program's flow, most of any trace, directly. */
	if ((tcode == NX_TCODE_INDIRECT_BRANCH_HIST && n_vars == 3) ||
	    (tcode == NX_TCODE_INDIRECT_BRANCH && n_vars == 2)) {
		if (overflow)
			goto too_long;
		m->sync = m->etype = m->rcode = m->evcode = m->cdf = 0;
		m->data = m->rdata1 = m->tstamp = 0;
		m->has_tstamp = false;
		m->btype = fixed & 3;
		m->icnt = vals[0];
		m->addr = addr_of(&r->cfg, vals[1], bits[1], (tops >> 1) & 1);
		m->hist = n_vars == 3 ? vals[2] : 0;
		return NX_READ_MSG;
	}
	m->sync = m->btype = m->etype = m->rcode = m->evcode = m->cdf = 0;
	m->icnt = m->addr = m->hist = m->data = m->rdata1 = m->tstamp = 0;
	m->has_tstamp = false;
	if (!known) {
		/* Vendor-defined or reserved: the caller decides. */
		m->data = n_vars ? vals[0] : 0;
		return NX_READ_MSG;
	}
	switch (tcode) {
	case NX_TCODE_INDIRECT_BRANCH:
	case NX_TCODE_INDIRECT_BRANCH_HIST:
		m->btype = fixed & 3;
		break;
	case NX_TCODE_ERROR:
		m->etype = fixed & 15;
		break;
	case NX_TCODE_PROG_TRACE_SYNC:
	case NX_TCODE_DIRECT_BRANCH_SYNC:
		m->sync = fixed & 15;
		break;
	case NX_TCODE_INDIRECT_BRANCH_SYNC:
	case NX_TCODE_INDIRECT_BRANCH_HIST_SYNC:
		m->sync = fixed & 15;
		m->btype = (fixed >> 4) & 3;
		break;
	case NX_TCODE_RESOURCE_FULL:
		m->rcode = fixed & 15;
		if (m->rcode > NX_RCODE_HIST_REPEAT) {
			/* A reserved RCODE: its RDATA fields are unknown; keep
			 * the first, do not guess which one is TSTAMP. */
			m->data = vals[0];
			return NX_READ_MSG;
		}
		if (m->rcode == NX_RCODE_HIST_REPEAT)
			layout_of(tcode, m->rcode, 0, &l);
		break;
	case NX_TCODE_PROG_TRACE_CORRELATION:
		m->evcode = fixed & 15;
		m->cdf = (fixed >> 4) & 3;
		if (m->cdf == 1)
			layout_of(tcode, 0, 1, &l);
		break;
	}
	nv = l.n_vars;
	if (n_vars == nv + 1 && r->cfg.tstamp) {
		m->has_tstamp = true;
		m->tstamp = vals[nv];
	} else if (n_vars != nv) {
		snprintf(r->err, sizeof(r->err), "%s with %u variable fields, not %u%s",
			 nx_tcode_name(tcode), n_vars, nv,
			 r->cfg.tstamp ? " (+TSTAMP)" : "");
		return NX_READ_BAD;
	}
	if (overflow) {
too_long:
		snprintf(r->err, sizeof(r->err), "%s: a field longer than 64 bits",
			 nx_tcode_name(tcode));
		return NX_READ_BAD;
	}
	for (i = 0; i < nv; i++) {
		switch (l.vars[i]) {
		case V_ICNT: m->icnt = vals[i]; break;
		case V_UADDR:
		case V_FADDR:
			m->addr = addr_of(&r->cfg, vals[i], bits[i], (tops >> i) & 1);
			break;
		case V_HIST: m->hist = vals[i]; break;
		case V_DATA: m->data = vals[i]; break;
		case V_RDATA1: m->rdata1 = vals[i]; break;
		}
	}
	return NX_READ_MSG;
}
