// SPDX-License-Identifier: BSD-2-Clause
/*
 * diff_ctr - differential test: random sequences of mode changes, CSR
 * writes and reads (every CTR CSR, the iselect/ireg files, the state
 * enables, from every mode), transfers of every type, traps, trap returns,
 * cycles and SCTRCLR, run through the qemu-model core (harthw, as ctr-sim
 * uses it) and through naive_ctr.c, a plain transcription of the spec.
 * Every CSR read, every trap outcome and, after each step, every logical
 * entry, WRPTR, WRAP, FROZEN and the state-enable bits must agree.  Both
 * layouts; each episode draws an implementation (CCE bits, optional
 * fields, depth range, TYPE, cycle counting, Smstateen, H, RV32).
 *
 * The sequence runs in episodes of 300 or 3000 steps (long enough for
 * deep buffers to wrap) from reset; a mismatch
 * prints the seed, the step and the episode so far as a ctr-sim scenario
 * (replay: ctr-sim FILE), and fails.
 *
 *	diff-ctr [STEPS [SEED...]]	default: 4,000,000 steps per layout
 *					over fixed seeds plus a time-based one
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "naive_ctr.h"
#include "qemu-model/core/harthw.h"
#include "rvperf/csr.h"
#include "rvperf/ctr.h"
#include "tap.h"

#define EPISODE_MAX 3000	/* steps per episode: 300 or 3000 */

static uint64_t rng_state;

static uint64_t rnd(void)
{
	/* splitmix64 */
	uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static unsigned int below(unsigned int n)
{
	return (unsigned int)(rnd() % n);
}

/* The episode so far, as scenario text. */
static char script[EPISODE_MAX * 96 + 512];
static size_t script_len;

static void emit(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void emit(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(script + script_len, sizeof(script) - script_len, fmt,
		      ap);
	va_end(ap);
	if (n > 0 && script_len + (size_t)n < sizeof(script))
		script_len += (size_t)n;
}

static const char *const mode_names[6] = { "U", "S", "?", "M", "VU", "VS" };

static const unsigned int v1_csrs[] = {
	RVP_CTR_V1_CSR_MCTRCTL, RVP_CTR_V1_CSR_SCTRCTL,
	RVP_CTR_V1_CSR_VSCTRCTL, RVP_CTR_V1_CSR_SCTRDEPTH,
	RVP_CTR_V1_CSR_SCTRSTATUS,
	RVP_CSR_MISELECT, RVP_CSR_SISELECT, RVP_CSR_VSISELECT,
	RVP_CSR_SIREG, RVP_CSR_SIREG2, RVP_CSR_SIREG3, RVP_CSR_SIREG4,
	RVP_CSR_SIREG5, RVP_CSR_SIREG6,
	RVP_CSR_VSIREG, RVP_CSR_VSIREG2, RVP_CSR_VSIREG3, RVP_CSR_VSIREG4,
	RVP_CSR_VSIREG5, RVP_CSR_VSIREG6,
	RVP_CSR_MSTATEEN0, RVP_CSR_HSTATEEN0,
};
#define NCSRS (sizeof(v1_csrs) / sizeof(v1_csrs[0]))

/* The draft layout is run on a hart without H (the naive model has no
 * V=1 for it: the draft leaves open whose fields count across V). */
static const unsigned int draft_csrs[] = {
	RVP_CTR_DRAFT_CSR_MCTRCONTROL, RVP_CTR_DRAFT_CSR_SCTRCONTROL,
	RVP_CTR_DRAFT_CSR_MCTRSTATUS, RVP_CTR_DRAFT_CSR_SCTRSTATUS,
	RVP_CSR_MISELECT, RVP_CSR_SISELECT,
	RVP_CSR_MIREG, RVP_CSR_MIREG2, RVP_CSR_MIREG3, RVP_CSR_MIREG4,
	RVP_CSR_MIREG5, RVP_CSR_MIREG6,
	RVP_CSR_SIREG, RVP_CSR_SIREG2, RVP_CSR_SIREG3, RVP_CSR_SIREG4,
	RVP_CSR_SIREG5, RVP_CSR_SIREG6,
	RVP_CSR_MSTATEEN0,
};
#define NDCSRS (sizeof(draft_csrs) / sizeof(draft_csrs[0]))

/* and with H */
static const unsigned int draft_h_csrs[] = {
	RVP_CTR_DRAFT_CSR_VSCTRCONTROL, RVP_CSR_VSISELECT,
	RVP_CSR_VSIREG, RVP_CSR_VSIREG2, RVP_CSR_VSIREG3, RVP_CSR_VSIREG4,
	RVP_CSR_VSIREG5, RVP_CSR_VSIREG6, RVP_CSR_HSTATEEN0,
};
#define NDHCSRS (sizeof(draft_h_csrs) / sizeof(draft_h_csrs[0]))

static bool draft, h_ext, rv32;

static const unsigned int rv32_csrs[] = {
	RVP_CSR_MSTATEEN0H, RVP_CSR_HSTATEEN0H,
};

static unsigned int pick_csr(void)
{
	unsigned int i;

	if (rv32 && below(10) == 0) {
		static const unsigned int dh[] = {
			RVP_CTR_DRAFT_CSR_MCTRCONTROLH,
			RVP_CTR_DRAFT_CSR_SCTRCONTROLH,
			RVP_CTR_DRAFT_CSR_VSCTRCONTROLH,
		};

		if (draft && below(2))
			return dh[below(h_ext ? 3 : 2)];
		return draft && !h_ext ? rv32_csrs[0] : rv32_csrs[below(2)];
	}
	if (!draft)
		return v1_csrs[below(NCSRS)];
	i = below(h_ext ? NDCSRS + NDHCSRS : NDCSRS);
	return i < NDCSRS ? draft_csrs[i] : draft_h_csrs[i - NDCSRS];
}

static const unsigned int xfer_types[] = { 4, 5, 8, 9, 10, 11, 12, 13, 14,
					   15 };

struct run {
	struct harthw hart;
	struct naive_ctr nv;
	uint64_t seed;
	unsigned long step;
	unsigned int cce;
	const char *why;
};

static uint64_t interesting(unsigned int csr)
{
	static const uint64_t ctl[] = {
		0, ~0ull, 0x7, 0x3, 0x5, 0x1F87ull, 0x1000000007ull,
		0x80ull | 0x7, 0x1800ull | 0x7, 0x300ull | 0x2,
		0x0000FF3E00000007ull, 0x301, 0x101, 0x103,
	};

	switch (below(4)) {
	case 0:
		return rnd();
	case 1:
		return rnd() & rnd();
	default:
		break;
	}
	if (csr == RVP_CTR_V1_CSR_SCTRDEPTH)
		return below(9);
	if (csr == RVP_CTR_DRAFT_CSR_MCTRCONTROL ||
	    csr == RVP_CTR_DRAFT_CSR_SCTRCONTROL ||
	    csr == RVP_CTR_DRAFT_CSR_VSCTRCONTROL) {
		static const uint64_t dctl[] = {
			0, ~0ull, 0x7, 0x3, 0x6, 0x1F07ull, 0x4000000007ull,
			0x400ull | 0x7, 0x1800ull | 0x7, 0x300ull | 0x2,
			0x0000FF7E00000007ull, 0x4000000304ull,
			0x4000000204ull, 0x4000000302ull,
		};

		return dctl[below(sizeof(dctl) / sizeof(dctl[0]))] |
		       (uint64_t)below(16) << 16 | (below(6) ? 0 : 0x80) |
		       (below(3) ? 0 : rnd() & 0x0000FF7F00001F87ull);
	}
	if (csr == RVP_CTR_DRAFT_CSR_MCTRSTATUS ||
	    csr == RVP_CTR_DRAFT_CSR_SCTRSTATUS)
		return (rnd() & 0x1FF) | (below(2) ? 1ull << 15 : 0) |
		       (below(2) ? 1ull << 14 : 0);
	if (csr == RVP_CTR_V1_CSR_SCTRSTATUS)
		return (rnd() & 0x1FF) | (below(2) ? 1ull << 31 : 0);
	if (csr == RVP_CSR_MISELECT || csr == RVP_CSR_SISELECT ||
	    csr == RVP_CSR_VSISELECT)
		return below(8) ? 0x200 + below(0x100) : rnd() & 0xFFF;
	if (csr == RVP_CSR_MSTATEEN0H || csr == RVP_CSR_HSTATEEN0H)
		return (below(5) ? 1ull << 31 : 0) |
		       (below(5) ? 1ull << 28 : 0) |
		       (below(4) ? 1ull << (draft ? 23 : 22) : 0);
	if (csr == RVP_CTR_DRAFT_CSR_MCTRCONTROLH ||
	    csr == RVP_CTR_DRAFT_CSR_SCTRCONTROLH ||
	    csr == RVP_CTR_DRAFT_CSR_VSCTRCONTROLH)
		return below(2) ? rnd() : rnd() & 0xFF7E;
	if (csr == RVP_CSR_MSTATEEN0 || csr == RVP_CSR_HSTATEEN0)
		/* SE0, CSRIND and CTR mostly open */
		return (below(5) ? 1ull << 63 : 0) |
		       (below(5) ? 1ull << 60 : 0) |
		       (below(4) ? 1ull << (draft ? 55 : 54) : 0);
	if ((csr >= RVP_CSR_SIREG && csr <= RVP_CSR_VSIREG6) ||
	    (csr >= RVP_CSR_MIREG && csr <= RVP_CSR_MIREG6))
		return (rnd() & ~0xFFFF0000FFFF0000ull) | below(2);
	return ctl[below(sizeof(ctl) / sizeof(ctl[0]))] |
	       (below(3) ? 0 : rnd() & 0x0000FF3F00001F87ull);
}

static unsigned int effective_select(struct run *r, unsigned int csr)
{
	if (csr >= RVP_CSR_MIREG && csr <= RVP_CSR_MIREG6)
		return (unsigned int)r->hart.miselect;
	if (csr >= RVP_CSR_VSIREG && csr <= RVP_CSR_VSIREG6)
		return (unsigned int)r->hart.vsiselect;
	if (hw_mode_is_virtual(harthw_mode(&r->hart)))
		return (unsigned int)r->hart.vsiselect;
	return (unsigned int)r->hart.siselect;
}

static bool is_ireg(unsigned int csr)
{
	return (csr >= RVP_CSR_SIREG && csr <= RVP_CSR_SIREG6) ||
	       (csr >= RVP_CSR_VSIREG && csr <= RVP_CSR_VSIREG6) ||
	       (csr >= RVP_CSR_MIREG && csr <= RVP_CSR_MIREG6);
}

static uint64_t compare_mask(unsigned int csr)
{
	if (csr == RVP_CSR_MSTATEEN0H || csr == RVP_CSR_HSTATEEN0H)
		return 1ull << 31 | 1ull << 28 | 1ull << (draft ? 23 : 22);
	/* the state-enable bits modelled: SE0, CSRIND, CTR */
	if (csr == RVP_CSR_MSTATEEN0 || csr == RVP_CSR_HSTATEEN0)
		return 1ull << 63 | 1ull << 60 | 1ull << (draft ? 55 : 54);
	return ~0ull;
}

/* After a depth change WRPTR and the newly reachable entries are
 * "unspecified but legal": adopt the core's. */
static void adopt_depth(struct run *r)
{
	unsigned int depth = ctrhw_depth(&r->hart.ctr);

	if (depth != naive_depth(&r->nv))
		return;
	r->nv.wrptr = r->hart.ctr.wrptr;
	for (unsigned int x = 0; x < depth; x++) {
		struct ctrhw_entry e;
		unsigned int p = (unsigned int)((r->nv.wrptr + 2 * depth - x -
						 1) % depth);

		ctrhw_entry_get(&r->hart.ctr, x, &e);
		r->nv.src[p] = e.source;
		r->nv.dst[p] = e.target;
		r->nv.data[p] = e.data;
	}
}

static bool mismatch(struct run *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static bool mismatch(struct run *r, const char *fmt, ...)
{
	static char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	r->why = buf;
	return false;
}

static bool check_state(struct run *r)
{
	unsigned int depth = ctrhw_depth(&r->hart.ctr);

	if (depth != naive_depth(&r->nv))
		return mismatch(r, "depth %u, naive %u", depth,
				naive_depth(&r->nv));
	if (r->hart.ctr.wrptr != r->nv.wrptr)
		return mismatch(r, "WRPTR %u, naive %" PRIu64,
				r->hart.ctr.wrptr, r->nv.wrptr);
	if (r->nv.smstateen) {
		int cb = draft ? 55 : 54;
		uint64_t m = (uint64_t)r->nv.mstateen_ctr << cb |
			     (uint64_t)r->nv.mstateen_csrind << 60 |
			     (uint64_t)r->nv.mstateen_se0 << 63;
		uint64_t h = (uint64_t)r->nv.hstateen_ctr << cb |
			     (uint64_t)r->nv.hstateen_csrind << 60 |
			     (uint64_t)r->nv.hstateen_se0 << 63;

		if (r->hart.mstateen0 != m || r->hart.hstateen0 != (h & m))
			return mismatch(r, "mstateen0/hstateen0 0x%" PRIx64
					" 0x%" PRIx64 ", naive 0x%" PRIx64
					" 0x%" PRIx64, r->hart.mstateen0,
					r->hart.hstateen0, m, h);
	}
	if (draft && r->hart.ctr.wrap != r->nv.wrap)
		return mismatch(r, "WRAP %d, naive %d", r->hart.ctr.wrap,
				r->nv.wrap);
	if (r->hart.ctr.frozen != r->nv.frozen)
		return mismatch(r, "FROZEN %d, naive %d", r->hart.ctr.frozen,
				r->nv.frozen);
	for (unsigned int x = 0; x < depth; x++) {
		struct ctrhw_entry e;
		unsigned int p = (unsigned int)((r->nv.wrptr + 2 * depth - x -
						 1) % depth);

		ctrhw_entry_get(&r->hart.ctr, x, &e);
		if (e.source != r->nv.src[p] || e.target != r->nv.dst[p] ||
		    e.data != r->nv.data[p])
			return mismatch(r, "logical entry %u: core 0x%" PRIx64
					" 0x%" PRIx64 " 0x%" PRIx64 ", naive 0x%"
					PRIx64 " 0x%" PRIx64 " 0x%" PRIx64,
					x, e.source, e.target, e.data,
					r->nv.src[p], r->nv.dst[p],
					r->nv.data[p]);
	}
	return true;
}

static bool trap_allowed(int from, int to)
{
	static const int rank[6] = { 0, 2, 0, 3, 0, 1 };

	if (to == HW_MODE_U || to == HW_MODE_VU)
		return false;
	if (hw_mode_is_virtual(to) && !hw_mode_is_virtual(from))
		return false;
	return rank[to] >= rank[from];
}

static bool xret_allowed(int from, int to)
{
	if (from == HW_MODE_M)
		return true;
	if (from == HW_MODE_S)
		return to != HW_MODE_M;
	if (from == HW_MODE_VS)
		return to == HW_MODE_VS || to == HW_MODE_VU;
	return false;
}

static const int modes[5] = { HW_MODE_U, HW_MODE_S, HW_MODE_M,
			      HW_MODE_VU, HW_MODE_VS };
#define NMODES (h_ext ? 5u : 3u)

static uint64_t addr(void)
{
	uint64_t a = below(4) ? 0x80000000ull + (rnd() & 0xFFFFE)
			      : rnd() & ~1ull;

	return rv32 ? a & 0xFFFFFFFFull : a;
}

static bool step(struct run *r)
{
	unsigned int k = below(100);
	int mode = harthw_mode(&r->hart);

	if (k < 8) {
		int m = modes[below(NMODES)];

		emit("priv %s\n", mode_names[m]);
		harthw_set_mode(&r->hart, (enum hw_mode)m);
		r->nv.mode = m;
	} else if (k < 30) {
		unsigned int csr = pick_csr();
		uint64_t v = interesting(csr);
		int a, b;
		unsigned int old_depth = naive_depth(&r->nv);

		if (is_ireg(csr) && (effective_select(r, csr) < 0x200 ||
				     effective_select(r, csr) > 0x2FF))
			return true;
		emit("csrw 0x%x 0x%" PRIx64 "\n", csr, v);
		a = harthw_csr_write(&r->hart, csr, v);
		b = naive_csr_write(&r->nv, csr, v);
		if (b < 0)
			return true;
		if (a != b)
			return mismatch(r, "csrw 0x%x from %s: core %d, naive %d",
					csr, mode_names[mode], a, b);
		if (a == HW_ACCESS_OK && (csr == RVP_CTR_V1_CSR_SCTRDEPTH ||
		    csr == RVP_CTR_DRAFT_CSR_MCTRCONTROL ||
		    csr == RVP_CTR_DRAFT_CSR_SCTRCONTROL)) {
			/* DEPTH is WARL: a reserved code, a non-thermometer
			 * code or an unsupported depth may become any
			 * supported depth; adopt the core's if it is one */
			unsigned int d = ctrhw_depth(&r->hart.ctr), c = 0;

			while ((16u << c) < d)
				c++;
			if ((16u << c) != d || c < r->nv.dmin || c > r->nv.dmax)
				return mismatch(r, "DEPTH write gave depth %u, "
						"outside the supported range", d);
			if (c != r->nv.depth_code) {
				bool supported_code;
				uint64_t code = draft ? (v >> 16) & 0xF : v & 7;
				static const uint64_t enc[5] = { 0, 1, 3, 7, 15 };

				supported_code = false;
				for (uint64_t e = r->nv.dmin; e <= r->nv.dmax; e++)
					if ((draft ? enc[e] : e) == code)
						supported_code = true;
				if (supported_code)
					return mismatch(r, "DEPTH write: depth %u, "
							"naive %u", d,
							naive_depth(&r->nv));
				r->nv.depth_code = c;
				r->nv.wrptr &= d - 1;
				if (draft && (v & 0x80))
					r->nv.wrptr = 0;
			}
		}
		if ((csr == RVP_CTR_V1_CSR_SCTRDEPTH || draft) &&
		    naive_depth(&r->nv) != old_depth)
			adopt_depth(r);
	} else if (k < 50) {
		unsigned int csr = pick_csr();
		uint64_t va = 0, vb = 0;
		int a, b;

		if (is_ireg(csr) && (effective_select(r, csr) < 0x200 ||
				     effective_select(r, csr) > 0x2FF))
			return true;
		emit("csrr 0x%x\n", csr);
		a = harthw_csr_read(&r->hart, csr, &va);
		b = naive_csr_read(&r->nv, csr, &vb);
		if (b < 0)
			return true;
		if (a != b)
			return mismatch(r, "csrr 0x%x from %s: core %d, naive %d",
					csr, mode_names[mode], a, b);
		if (a == HW_ACCESS_OK &&
		    (va & compare_mask(csr)) != (vb & compare_mask(csr)))
			return mismatch(r, "csrr 0x%x from %s: core 0x%" PRIx64
					", naive 0x%" PRIx64, csr,
					mode_names[mode], va, vb);
	} else if (k < 75) {
		unsigned int t = xfer_types[below(10)];
		uint64_t s = addr(), d = addr();

		emit("xfer %u 0x%" PRIx64 " 0x%" PRIx64 "\n", t, s, d);
		harthw_transfer(&r->hart, t, s, d);
		naive_transfer(&r->nv, t, s, d);
	} else if (k < 83) {
		uint64_t n = below(4) ? below(64) : rnd() >> below(64);

		emit("cycles %" PRIu64 "\n", n);
		harthw_cycles(&r->hart, n);
		naive_cycles(&r->nv, n);
	} else if (k < 90) {
		static const uint64_t causes[] = { 3, 13, 2, 8, 9, 7, 5, 3, 13 };
		bool intr = below(2);
		uint64_t cause = causes[below(9)], s = addr(), v = addr();
		int to = modes[below(NMODES)];

		if (!trap_allowed(mode, to))
			return true;
		emit("trap %s %" PRIu64 " %s 0x%" PRIx64 " 0x%" PRIx64 "\n",
		     intr ? "int" : "exc", cause, mode_names[to], s, v);
		harthw_trap(&r->hart, intr, cause, (enum hw_mode)to, s, v);
		naive_trap(&r->nv, intr, cause, to, s, v);
	} else if (k < 97) {
		int to = modes[below(NMODES)];
		uint64_t s = addr(), d = addr();

		if (!xret_allowed(mode, to))
			return true;
		emit("xret %s 0x%" PRIx64 " 0x%" PRIx64 "\n", mode_names[to],
		     s, d);
		harthw_trap_return(&r->hart, (enum hw_mode)to, s, d);
		naive_xret(&r->nv, to, s, d);
	} else {
		int a, b;

		emit("sctrclr\n");
		a = harthw_sctrclr(&r->hart);
		b = naive_sctrclr(&r->nv);
		if (a != b)
			return mismatch(r, "sctrclr from %s: core %d, naive %d",
					mode_names[mode], a, b);
	}
	return check_state(r);
}

/* impl fields= as ctr-sim spells them. */
static void emit_fields(uint64_t impl)
{
	static const struct { int bit; const char *v1, *dr; } f[] = {
		{ 7, "RASEMU", NULL }, { 8, "STE", "MTE" }, { 9, "MTE", "STE" },
		{ 10, NULL, "RASEMU" }, { 11, NULL, "BPFRZ" },
		{ 12, "LCOFIFRZ", "LCOFIFRZ" }, { 33, "EXCINH", "EXCINH" },
		{ 34, "INTRINH", "INTRINH" }, { 35, "TRETINH", "TRETINH" },
		{ 36, "NTBREN", "NTBREN" }, { 37, "TKBRINH", "TKBRINH" },
		{ 38, NULL, "ETEN" }, { 40, "INDCALLINH", "INDCALLINH" },
		{ 41, "DIRCALLINH", "DIRCALLINH" },
		{ 42, "INDJMPINH", "INDJUMPINH" },
		{ 43, "DIRJMPINH", "DIRJUMPINH" },
		{ 44, "CORSWAPINH", "CORSWAPINH" }, { 45, "RETINH", "RETINH" },
		{ 46, "INDLJMPINH", "INDOJMPINH" },
		{ 47, "DIRLJMPINH", "DIROJMPINH" },
	};
	bool any = false;

	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		const char *name = draft ? f[i].dr : f[i].v1;

		if (!name || !((impl >> f[i].bit) & 1))
			continue;
		emit("%s%s", any ? "," : "", name);
		any = true;
	}
	if (!any)
		emit("none");
}

static void reset(struct run *r)
{
	struct harthw_config cfg;
	uint64_t impl;
	unsigned int dmin, dmax, c;

	harthw_config_default(&cfg, draft ? CTRHW_LAYOUT_DRAFT
					    : CTRHW_LAYOUT_RATIFIED);
	cfg.ctr.cce_bits = r->cce;
	/* the draft: half the episodes on a hart without H */
	h_ext = draft ? below(2) : true;
	cfg.ctr.h_ext = h_ext;
	/* Half the episodes implement a random subset of the optional
	 * fields and of the depths (tries until the core accepts it). */
	impl = naive_optional_fields(draft);
	dmin = 0;
	dmax = 4;
	for (int tries = 0; below(2) && tries < 20; tries++) {
		uint64_t try_impl = naive_optional_fields(draft) & rnd();
		unsigned int a = below(5), b = below(5);
		struct harthw_config c2 = cfg;

		c2.ctr.ctl_optional = try_impl;
		c2.ctr.depth_min = 16u << (a < b ? a : b);
		c2.ctr.depth_max = 16u << (a < b ? b : a);
		if (!harthw_config_check(&c2)) {
			cfg = c2;
			impl = try_impl;
			dmin = a < b ? a : b;
			dmax = a < b ? b : a;
			break;
		}
	}
	/* and a quarter without TYPE, without cycle counting or without
	 * Smstateen */
	/* a quarter of the harts are RV32 */
	rv32 = below(4) == 0;
	cfg.ctr.xlen = rv32 ? 32 : 64;
	cfg.ctr.type_field = below(4) != 0;
	cfg.ctr.cycle_counting = below(4) != 0;
	cfg.smstateen = below(4) != 0;
	if (harthw_config_check(&cfg))
		cfg.ctr.cycle_counting = true;	/* e.g. CCE bits without CC */
	if (harthw_init(&r->hart, &cfg))
		abort();
	naive_init(&r->nv, draft, r->cce);
	r->nv.impl = impl;
	r->nv.type_field = cfg.ctr.type_field;
	r->nv.rv32 = rv32;
	r->nv.cc = cfg.ctr.cycle_counting;
	if (!cfg.smstateen)
		naive_no_smstateen(&r->nv);
	r->nv.dmin = dmin;
	r->nv.dmax = dmax;
	/* reset depth: not in the spec; the core's, if supported */
	for (c = 0; (16u << c) < ctrhw_depth(&r->hart.ctr); c++)
		;
	if (c < dmin || c > dmax) {
		printf("Bail out! reset depth %u is not supported\n",
		       ctrhw_depth(&r->hart.ctr));
		exit(1);
	}
	r->nv.depth_code = c;
	script_len = 0;
	emit("layout %s\nimpl cce=%u%s depth=%u-%u fields=", draft ? "draft"
	     : "ratified", r->cce, h_ext ? "" : " h=off", 16u << dmin,
	     16u << dmax);
	emit_fields(impl);
	emit("%s%s%s%s\n", rv32 ? " xlen=32" : "",
	     cfg.ctr.type_field ? "" : " type=off",
	     cfg.ctr.cycle_counting ? "" : " cc=off",
	     cfg.smstateen ? "" : " smstateen=off");
}

/* Runs STEPS steps from SEED; returns the steps run (STEPS when clean). */
static unsigned long run_seed(uint64_t seed, unsigned long steps)
{
	static struct run r;

	memset(&r, 0, sizeof(r));
	r.seed = seed;
	rng_state = seed;
	unsigned long episode_end = 0;

	for (r.step = 0; r.step < steps; r.step++) {
		if (r.step == episode_end) {
			episode_end += below(4) ? 300 : EPISODE_MAX;
			r.cce = below(5);
			reset(&r);
		}
		if (!step(&r)) {
			printf("# MISMATCH seed 0x%" PRIx64 " step %lu: %s\n",
			       seed, r.step, r.why);
			printf("# replay with ctr-sim; the episode so far:\n");
			for (char *p = script, *nl; *p; p = nl + 1) {
				nl = strchr(p, '\n');
				if (!nl)
					break;
				printf("#   %.*s\n", (int)(nl - p), p);
			}
			return r.step;
		}
	}
	return steps;
}

int main(int argc, char **argv)
{
	uint64_t seeds[8] = { 1, 0x5EED, 0xC7A, 0xDEADBEEF };
	int nseeds = 4;
	unsigned long steps = argc > 1 ? strtoul(argv[1], NULL, 0) : 4000000;
	unsigned long total = 0;

	if (argc > 2) {
		nseeds = 0;
		for (int i = 2; i < argc && nseeds < 8; i++)
			seeds[nseeds++] = strtoull(argv[i], NULL, 0);
	} else {
		seeds[nseeds++] = (uint64_t)time(NULL);
	}
	for (int l = 0; l < 2; l++) {
		const char *name = l ? "draft" : "ratified";

		draft = l;
		total = 0;
		for (int i = 0; i < nseeds; i++) {
			unsigned long per = steps / (unsigned long)nseeds +
				(i == 0 ? steps % (unsigned long)nseeds : 0);
			unsigned long ran = run_seed(seeds[i], per);

			total += ran;
			tap_ok(ran == per, "%s: seed 0x%" PRIx64 ": %lu random "
			       "steps, core and naive spec agree", name,
			       seeds[i], per);
		}
		printf("# %s: %lu steps\n", name, total);
	}
	return tap_done();
}
