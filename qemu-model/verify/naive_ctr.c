// SPDX-License-Identifier: BSD-2-Clause
/*
 * naive_ctr.c - the CTR spec (Smctr/Ssctr v1.0, and the v0.1.4 draft where
 * its layout differs) written down as plainly as
 * possible: plain arrays, one if per sentence, no precomputed masks or
 * fast paths.  Section names in comments are the spec's.  Where the spec
 * leaves a choice to the implementation (WARL results, the RASEMU cycle
 * count note) the comment says which choice is made; the differential test
 * then finds whether the core made the same legal choice.
 */
#include "naive_ctr.h"

#include <string.h>

/* mctrctl bit numbers, from the "mctrctl" register figure; the draft's
 * mctrcontrol moves the first ones (2.1 figure). */
#define B_U		(n->draft ? 2 : 0)
#define B_S		1
#define B_M		(n->draft ? 0 : 2)
#define B_RASEMU	(n->draft ? 10 : 7)
#define B_STE		(n->draft ? 9 : 8)
#define B_MTE		(n->draft ? 8 : 9)
#define B_BPFRZ		11
#define B_LCOFIFRZ	12
#define B_ETEN		38	/* draft only */
#define B_CLR		7	/* draft only */
/* mstateen0/hstateen0.CTR: bit 54 (v1.0), bit 55 (draft 4) */
#define B_STATEEN_CTR	(n->draft ? 55 : 54)
#define B_EXCINH	33
#define B_INTRINH	34
#define B_TRETINH	35
#define B_NTBREN	36
#define B_TKBRINH	37
#define B_INDCALLINH	40
#define B_DIRCALLINH	41
#define B_INDJMPINH	42
#define B_DIRJMPINH	43
#define B_CORSWAPINH	44
#define B_RETINH	45
#define B_INDLJMPINH	46
#define B_DIRLJMPINH	47

static bool bit(uint64_t v, int b)
{
	return (v >> b) & 1;
}

void naive_init(struct naive_ctr *n, bool draft, unsigned int cce_bits)
{
	memset(n, 0, sizeof(*n));
	n->draft = draft;
	n->impl = naive_optional_fields(draft);
	n->dmin = 0;
	n->dmax = 4;
	n->type_field = true;
	n->cc = true;
	n->smstateen = true;
	n->mode = NV_M;
	n->cce_bits = cce_bits;
	/* Smstateen: writable mstateen bits reset to zero */
}

void naive_no_smstateen(struct naive_ctr *n)
{
	n->smstateen = false;
	n->mstateen_ctr = n->mstateen_csrind = n->mstateen_se0 = true;
	n->hstateen_ctr = n->hstateen_csrind = n->hstateen_se0 = true;
}

unsigned int naive_depth(const struct naive_ctr *n)
{
	/* depth = 2^(DEPTH+4) */
	return 1u << (n->depth_code + 4);
}

static bool is_virtual(int mode)
{
	return mode == NV_VS || mode == NV_VU;
}

/* --------------------------------------------------------- enables */

/* "Privilege Mode Transitions" / "Virtualization Mode Transitions":
 * mctrctl.M, sctrctl.S (= mctrctl.S), mctrctl.U, vsctrctl.S, vsctrctl.U. */
static bool mode_enabled(struct naive_ctr *n, int mode)
{
	if (mode == NV_M)
		return bit(n->mctrctl, B_M);
	if (mode == NV_S)
		return bit(n->mctrctl, B_S);
	if (mode == NV_U)
		return bit(n->mctrctl, B_U);
	if (mode == NV_VS)
		return bit(n->vsctrctl, B_S);
	if (mode == NV_VU)
		return bit(n->vsctrctl, B_U);
	return false;
}

/* "CTR is active when the current privilege mode is enabled for recording
 * and CTR is not frozen." */
static bool active(struct naive_ctr *n)
{
	return mode_enabled(n, n->mode) && !n->frozen;
}

/* --------------------------------------------------------- records */

static uint64_t max_count(struct naive_ctr *n)
{
	/* "Cycle Counter Size Options" table */
	if (n->cce_bits == 0)
		return 4095;
	if (n->cce_bits == 1)
		return 8191;
	if (n->cce_bits == 2)
		return 32764;
	if (n->cce_bits == 3)
		return 524224;
	return 134201344;
}

static uint64_t encode_cc(struct naive_ctr *n)
{
	uint64_t c = n->counter;
	uint64_t cce, ccm;
	int msb;

	if (c > max_count(n))
		c = max_count(n);
	if (c < 4096)
		return c;
	msb = 63;
	while (!((c >> msb) & 1))
		msb--;
	cce = (uint64_t)msb - 11;
	/* CCM holds CtrCycleCounter bits CCE+10:CCE-1 */
	ccm = (c >> (cce - 1)) & 0xFFF;
	return (cce << 12) | ccm;
}

static uint64_t record_data(struct naive_ctr *n, unsigned int type)
{
	uint64_t d = 0;

	/* "Implementations that do not support this field will report 0" */
	if (n->type_field)
		d |= type;
	if (n->cc && n->counter_valid)
		d |= 1ull << 15;	/* CCV */
	if (n->cc)
		d |= encode_cc(n) << 16;
	/* The CC field counts since the prior record. */
	n->counter = 0;
	n->counter_valid = true;
	return d;
}

/* "Behavior": a qualified transfer updates logical entry 0, older ones
 * move down; physical entry WRPTR is written, then WRPTR increments. */
static void push(struct naive_ctr *n, unsigned int type, uint64_t src,
		 uint64_t dst)
{
	uint64_t w = n->wrptr;

	if (n->rv32) {		/* 32-bit PCs, zero-extended */
		src &= 0xFFFFFFFFull;
		dst &= 0xFFFFFFFFull;
	}
	n->src[w] = src | 1;		/* V */
	n->dst[w] = dst & ~1ull;	/* MISP not implemented */
	n->data[w] = record_data(n, type);
	if (w == naive_depth(n) - 1) {
		n->wrptr = 0;
		n->wrap = true;		/* draft 2.4: sticky */
	} else {
		n->wrptr = w + 1;
	}
}

/* Which transfer types the filter bits of CTL let through ("Transfer Type
 * Filtering"). */
static bool type_allowed(uint64_t ctl, unsigned int type)
{
	if (type == 1)
		return !bit(ctl, B_EXCINH);
	if (type == 2)
		return !bit(ctl, B_INTRINH);
	if (type == 3)
		return !bit(ctl, B_TRETINH);
	if (type == 4)
		return bit(ctl, B_NTBREN);
	if (type == 5)
		return !bit(ctl, B_TKBRINH);
	if (type == 8)
		return !bit(ctl, B_INDCALLINH);
	if (type == 9)
		return !bit(ctl, B_DIRCALLINH);
	if (type == 10)
		return !bit(ctl, B_INDJMPINH);
	if (type == 11)
		return !bit(ctl, B_DIRJMPINH);
	if (type == 12)
		return !bit(ctl, B_CORSWAPINH);
	if (type == 13)
		return !bit(ctl, B_RETINH);
	if (type == 14)
		return !bit(ctl, B_INDLJMPINH);
	if (type == 15)
		return !bit(ctl, B_DIRLJMPINH);
	return false;
}

/* Records one qualified-by-mode transfer under the fields of CTL: RAS
 * emulation or filtering.  EXTERNAL: an external trap (filters and RASEMU
 * do not apply as for normal transfers). */
static void record(struct naive_ctr *n, uint64_t ctl, unsigned int type,
		   uint64_t src, uint64_t dst, bool external)
{
	if (n->frozen)
		return;
	if (bit(ctl, B_RASEMU)) {
		/* "RAS (Return Address Stack) Emulation Mode" */
		if (type == 8 || type == 9) {
			push(n, type, src, dst);
		} else if (type == 13) {
			/* decrement WRPTR, then invalidate that entry */
			if (n->wrptr == 0) {
				n->wrptr = naive_depth(n) - 1;
				n->wrap = false;	/* draft 2.4 */
			} else {
				n->wrptr--;
			}
			n->src[n->wrptr] &= ~1ull;
			/* The RASEMU note allows CCV=0 for calls whose
			 * parent was popped: this model's choice. */
			n->counter_valid = false;
		} else if (type == 12) {
			/* logical entry 0 overwritten, WRPTR unchanged */
			uint64_t w = n->wrptr == 0 ? naive_depth(n) - 1
						   : n->wrptr - 1;

			n->src[w] = src | 1;
			n->dst[w] = dst & ~1ull;
			n->data[w] = record_data(n, type);
		}
		/* other types, external traps included, are inhibited */
		return;
	}
	if (!external && !type_allowed(ctl, type))
		return;
	push(n, type, src, dst);
}

/* The control register whose non-enable fields apply: vsctrctl when V=1
 * ("For all other xctrctl fields, the value in vsctrctl is used" on
 * virtualization mode transitions). */
static uint64_t ctl_for(struct naive_ctr *n, int from, int to)
{
	if (is_virtual(from) || is_virtual(to))
		return n->vsctrctl;
	return n->mctrctl;
}

void naive_transfer(struct naive_ctr *n, unsigned int type, uint64_t src,
		    uint64_t dst)
{
	if (!mode_enabled(n, n->mode))
		return;
	record(n, ctl_for(n, n->mode, n->mode), type, src, dst, false);
}

void naive_cycles(struct naive_ctr *n, uint64_t cycles)
{
	/* "Only cycles while CTR is active are counted" */
	if (!active(n))
		return;
	n->counter += cycles;
	if (n->counter > (1ull << 40))
		n->counter = 1ull << 40;	/* far past every saturation */
}

static uint64_t ctl_for(struct naive_ctr *n, int from, int to);

/* "External Trap Enable Requirements" table. */
static bool external_enabled(struct naive_ctr *n, int from, int to)
{
	bool mte = bit(n->mctrctl, B_MTE);
	bool ste = bit(n->mctrctl, B_STE);
	bool vste = bit(n->vsctrctl, B_STE);

	if (n->draft) {
		/* 5.2.1: ETEN=1 and xTE=1 for the target mode x only.  Whose
		 * ETEN when V changes is not said; the core pins the one of
		 * the register whose filters apply (vsctrcontrol when either
		 * side has V=1), following the 5.2.1 note */
		if (!bit(ctl_for(n, from, to), B_ETEN))
			return false;
		if (to == NV_M)
			return mte;
		if (to == NV_S)
			return ste;
		if (to == NV_VS)
			return vste;	/* VSTE, same bit as STE */
		return false;
	}

	if (from == NV_U && to == NV_S)
		return ste;
	if (from == NV_U && to == NV_M)
		return mte && ste;
	if (from == NV_S && to == NV_M)
		return mte;
	if (from == NV_VU && to == NV_VS)
		return vste;
	if (from == NV_VU && to == NV_S)
		return ste && vste;
	if (from == NV_VU && to == NV_M)
		return mte && ste && vste;
	if (from == NV_VS && to == NV_S)
		return ste;
	if (from == NV_VS && to == NV_M)
		return mte && ste;
	return false;
}

void naive_trap(struct naive_ctr *n, bool interrupt, uint64_t cause, int to,
		uint64_t epc, uint64_t vector)
{
	int from = n->mode;
	bool src_on = mode_enabled(n, from);
	bool dst_on = mode_enabled(n, to);
	uint64_t ctl = ctl_for(n, from, to);
	unsigned int type = interrupt ? 2 : 1;

	n->mode = to;
	/* "Freeze": LCOFI (interrupt 13) or breakpoint (exception 3) that
	 * traps to M or S uses sctrctl's bit, to VS vsctrctl's (draft 5.5:
	 * ctrcontrol's, the same register without H). */
	if ((interrupt && cause == 13) || (!interrupt && cause == 3)) {
		int b = interrupt ? B_LCOFIFRZ : B_BPFRZ;
		uint64_t fctl = to == NV_VS ? n->vsctrctl : n->mctrctl;

		if (bit(fctl, b)) {
			n->frozen = true;
			return;	/* the trap itself is not recorded */
		}
	}
	/* "Trap and Trap Return Recording" table */
	if (src_on && dst_on)
		record(n, ctl, type, epc, vector, false);
	else if (!src_on && dst_on)
		record(n, ctl, type, 0, vector, false);
	else if (src_on && !dst_on && external_enabled(n, from, to))
		record(n, ctl, type, epc, 0, true);
}

void naive_xret(struct naive_ctr *n, int to, uint64_t src, uint64_t dst)
{
	int from = n->mode;
	bool src_on = mode_enabled(n, from);
	bool dst_on = mode_enabled(n, to);
	uint64_t ctl = ctl_for(n, from, to);

	n->mode = to;
	if (src_on && dst_on)
		record(n, ctl, 3, src, dst, false);
	else if (src_on && !dst_on)
		record(n, ctl, 3, src, 0, false);
}

/* --------------------------------------------------------- CSRs */

#define CSR_SCTRCTL	0x14E
#define CSR_SCTRSTATUS	0x14F
#define CSR_SCTRDEPTH	0x15F
#define CSR_VSCTRCTL	0x24E
#define CSR_MCTRCTL	0x34E
#define CSR_MISELECT	0x350
#define CSR_MIREG	0x351	/* mireg2 0x352, mireg3 0x353 */
#define CSR_MIREG4	0x355	/* mireg4..6 0x355..0x357 */
#define CSR_SISELECT	0x150
#define CSR_SIREG	0x151
#define CSR_SIREG4	0x155
#define CSR_VSISELECT	0x250
#define CSR_VSIREG	0x251
#define CSR_VSIREG4	0x255
#define CSR_MSTATEEN0	0x30C
#define CSR_HSTATEEN0	0x60C

/* v1.0: "All fields are optional except for M, S, U, and BPFRZ"; draft
 * 2.1: "M, CLR, and DEPTH are required", S and U with their modes. */
uint64_t naive_optional_fields(bool draft)
{
	uint64_t m = 0;
	int b;

	if (draft)
		m |= 1ull << 38 | 1ull << 8 | 1ull << 9 | 1ull << 10 |
		     1ull << 11;	/* ETEN MTE STE RASEMU BPFRZ */
	else
		m |= 1ull << 7 | 1ull << 8 | 1ull << 9;	/* RASEMU STE MTE */
	m |= 1ull << 12;	/* LCOFIFRZ */
	for (b = 33; b <= 37; b++)
		m |= 1ull << b;
	for (b = 40; b <= 47; b++)
		m |= 1ull << b;
	return m;
}

/* "All unimplemented fields are read-only 0, while all implemented fields
 * are writable." */
static uint64_t mctrctl_writable(struct naive_ctr *n)
{
	uint64_t m = 0;

	m |= 1ull << B_U | 1ull << B_S | 1ull << B_M;
	if (!n->draft)
		m |= 1ull << B_BPFRZ;
	/* (draft DEPTH and CLR are handled apart) */
	return m | (naive_optional_fields(n->draft) & n->impl);
}

static uint64_t sctrctl_writable(struct naive_ctr *n)
{
	/* bits 2 and 9 are read-only 0 in sctrctl (draft: bits 0 and 8) */
	return mctrctl_writable(n) & ~(1ull << B_M) & ~(1ull << B_MTE);
}

static uint64_t vsctrctl_writable(struct naive_ctr *n)
{
	/* the vsctrctl figure: no M, no MTE */
	return sctrctl_writable(n);
}

/* A write to any xctrctl resets CtrCycleCounter; the next record has
 * CCV=0 ("Cycle Counting"). */
static void ctl_written(struct naive_ctr *n)
{
	n->counter = 0;
	n->counter_valid = false;
}

/* Generic CSR privilege (priv spec, H extension): bits 9:8 of the number. */
static int csr_privilege(struct naive_ctr *n, unsigned int csr)
{
	unsigned int need = (csr >> 8) & 3;
	int mode = n->mode;

	if (mode == NV_M)
		return NV_OK;
	if (need == 3)
		return NV_ILLEGAL;
	if (mode == NV_S)
		return NV_OK;	/* HS reaches S and H CSRs */
	if (mode == NV_U)
		return need == 0 ? NV_OK : NV_ILLEGAL;
	if (mode == NV_VS)
		return need == 2 ? NV_VIRTUAL : NV_OK;
	/* VU */
	return need == 0 ? NV_OK : NV_VIRTUAL;
}

/* "State Enable Access Control" for supervisor CTR state; DEPTH_REG: the
 * access is to sctrdepth. */
static int ctr_state_access(struct naive_ctr *n, unsigned int csr,
			    bool depth_reg)
{
	int r;

	if (n->mode == NV_M)
		return NV_OK;
	if (!n->mstateen_ctr)
		return NV_ILLEGAL;
	r = csr_privilege(n, csr);
	if (r != NV_OK)
		return r;
	/* sctrdepth from VS or VU: virtual-instruction */
	if (depth_reg && is_virtual(n->mode))
		return NV_VIRTUAL;
	if (is_virtual(n->mode) && !n->hstateen_ctr)
		return NV_VIRTUAL;
	return NV_OK;
}

/* Smstateen CSRIND (bit 60) for siselect/sireg* and vsiselect/vsireg*
 * below M: mstateen0 illegal, hstateen0 (V=1) virtual. */
static int csrind_access(struct naive_ctr *n, unsigned int csr)
{
	int r;

	if (n->mode == NV_M)
		return NV_OK;
	if (((csr >> 8) & 3) == 3)
		return NV_ILLEGAL;
	/* mstateen0 bits raise illegal-instruction before anything V=1
	 * would make virtual: the access is not valid in HS either */
	if (!n->mstateen_csrind)
		return NV_ILLEGAL;
	r = csr_privilege(n, csr);
	if (r != NV_OK)
		return r;
	if (is_virtual(n->mode) && !n->hstateen_csrind)
		return NV_VIRTUAL;
	return NV_OK;
}

/* Physical index of logical entry X, or -1 when X >= depth. */
static int physical(struct naive_ctr *n, uint64_t x)
{
	uint64_t depth = naive_depth(n);

	if (x >= depth)
		return -1;
	return (int)((n->wrptr + depth * 2 - x - 1) % depth);
}

/* sireg (1), sireg2 (2), sireg3 (3), sireg4..6 (4..6) at iselect SEL. */
static void entry_read(struct naive_ctr *n, unsigned int which, uint64_t sel,
		       uint64_t *val)
{
	int p = physical(n, sel - 0x200);

	*val = 0;
	if (p < 0 || which > 3)
		return;
	if (which == 1)
		*val = n->src[p];
	else if (which == 2)
		*val = n->dst[p];
	else
		*val = n->data[p];
}

static void entry_write(struct naive_ctr *n, unsigned int which, uint64_t sel,
			uint64_t val)
{
	int p = physical(n, sel - 0x200);
	uint64_t cce_mask = ((1ull << n->cce_bits) - 1) << 28;

	if (p < 0 || which > 3)
		return;
	/* MXLEN-bit registers: 32 bits on RV32 */
	if (n->rv32)
		val &= 0xFFFFFFFFull;
	if (which == 1)
		n->src[p] = val;
	else if (which == 2)
		n->dst[p] = val & ~1ull;	/* MISP read-only 0 */
	else	/* TYPE, CCV, CCM, implemented CCE bits; unimplemented
		 * fields are read-only 0 */
		n->data[p] = val & ((n->type_field ? 0xFull : 0) |
				    (n->cc ? 1ull << 15 | 0xFFFull << 16 |
					     cce_mask : 0));
}

/* An *ireg access: FILE is 'm', 's' or 'v' (vsireg), WHICH 1..6. */
static int ireg_access(struct naive_ctr *n, unsigned int csr, char file,
		       unsigned int which, bool write, uint64_t *val)
{
	uint64_t sel;
	int r = csrind_access(n, csr);

	if (r != NV_OK) {
		/* mstateen0.CTR=0 (illegal) comes before what V=1 alone
		 * forbids; it needs the select value of the CTR range */
		if (r == NV_VIRTUAL && !n->mstateen_ctr &&
		    (file == 's' || file == 'v') &&
		    n->vsiselect >= 0x200 && n->vsiselect <= 0x2FF)
			return NV_ILLEGAL;
		return r;
	}
	if (file == 'm' && !n->draft)
		return NV_ILLEGAL;	/* no miselect range for CTR in v1.0 */
	/* sireg* at V=1 is really vsireg* (the privilege check above
	 * stays that of the number the instruction names) */
	if (file == 's' && is_virtual(n->mode))
		file = 'v';
	sel = file == 'v' ? n->vsiselect : file == 'm' ? n->miselect
						       : n->siselect;
	if (sel < 0x200 || sel > 0x2FF)
		return -1;	/* not CTR: the test does not go there */
	if (file != 'm') {
		r = ctr_state_access(n, csr, false);
		if (r != NV_OK)
			return r;
	}
	if (write)
		entry_write(n, which, sel, *val);
	else
		entry_read(n, which, sel, val);
	return NV_OK;
}


#define CSR_MCTRCONTROL	0x381
#define CSR_VSCTRCONTROL 0x281
#define CSR_SCTRCONTROL	0x181
#define CSR_MCTRSTATUS	0x383
#define CSR_DSCTRSTATUS	0x183

/* Draft 2.1 DEPTH encodings, 16 << index. */
static const uint64_t draft_depth_enc[5] = { 0x0, 0x1, 0x3, 0x7, 0xF };

/* Draft 2.1: CLR written to 1 zeroes the entries and mctrstatus. */
static void draft_clear(struct naive_ctr *n)
{
	memset(n->src, 0, sizeof(n->src));
	memset(n->dst, 0, sizeof(n->dst));
	memset(n->data, 0, sizeof(n->data));
	n->wrptr = 0;
	n->wrap = false;
	n->frozen = false;
}

static void draft_ctl_write(struct naive_ctr *n, uint64_t val, uint64_t wmask)
{
	uint64_t code = (val >> 16) & 0xF;

	n->mctrctl = (n->mctrctl & ~wmask) | (val & wmask);
	/* DEPTH: WARL; other codes are the core's choice (diff_ctr.c) */
	for (uint64_t i = 0; i < 5; i++) {
		if (draft_depth_enc[i] == code && i != n->depth_code &&
		    i >= n->dmin && i <= n->dmax) {
			n->depth_code = i;
			n->wrptr &= naive_depth(n) - 1;
		}
	}
	if (bit(val, B_CLR))
		draft_clear(n);
	/* 5.3: CCV is cleared for the next record upon a write */
	ctl_written(n);
}

static int draft_csr_access(struct naive_ctr *n, unsigned int csr, bool write,
			    uint64_t *val)
{
	int r;

	if (csr == CSR_VSCTRCONTROL ||
	    (csr == CSR_SCTRCONTROL && is_virtual(n->mode))) {
		/* 2.3: VS-mode sctrcontrol is vsctrcontrol; DEPTH is a
		 * read-only copy of mctrcontrol's; CLR clears only when
		 * written while V=1 */
		r = ctr_state_access(n, csr, false);
		if (r != NV_OK)
			return r;
		if (write) {
			n->vsctrctl = *val & vsctrctl_writable(n);
			if (bit(*val, B_CLR) && is_virtual(n->mode))
				draft_clear(n);
			ctl_written(n);
		} else {
			*val = n->vsctrctl |
			       draft_depth_enc[n->depth_code] << 16;
		}
		return NV_OK;
	}
	if (csr == CSR_MCTRCONTROL || csr == CSR_SCTRCONTROL) {
		uint64_t wmask = csr == CSR_MCTRCONTROL ? mctrctl_writable(n)
							: sctrctl_writable(n);

		if (csr == CSR_MCTRCONTROL)
			r = csr_privilege(n, csr);
		else
			r = ctr_state_access(n, csr, false);
		if (r != NV_OK)
			return r;
		if (write)
			draft_ctl_write(n, *val, wmask);
		else	/* CLR reads 0 (an action bit; the model's choice) */
			*val = (n->mctrctl & wmask) |
			       draft_depth_enc[n->depth_code] << 16;
		return NV_OK;
	}
	if (csr == CSR_MCTRSTATUS || csr == CSR_DSCTRSTATUS) {
		if (csr == CSR_MCTRSTATUS)
			r = csr_privilege(n, csr);
		else
			r = ctr_state_access(n, csr, false);
		if (r != NV_OK)
			return r;
		if (write) {
			n->wrptr = *val & 0xFF & (naive_depth(n) - 1);
			n->wrap = bit(*val, 14);
			n->frozen = bit(*val, 15);
		} else {
			*val = n->wrptr | (uint64_t)n->wrap << 14 |
			       (uint64_t)n->frozen << 15;
		}
		return NV_OK;
	}
	return -2;	/* shared with v1.0 */
}

static int csr_access(struct naive_ctr *n, unsigned int csr, bool write,
		      uint64_t *val)
{
	int r;

	if (n->draft) {
		r = draft_csr_access(n, csr, write, val);
		if (r != -2)
			return r;
		if (csr == CSR_MCTRCTL || csr == CSR_SCTRCTL ||
		    csr == CSR_VSCTRCTL || csr == CSR_SCTRDEPTH ||
		    csr == CSR_SCTRSTATUS)
			return -1;	/* not the draft's */
	}
	if (csr == CSR_MCTRCTL) {
		r = csr_privilege(n, csr);
		if (r != NV_OK)
			return r;
		if (write) {
			n->mctrctl = *val & mctrctl_writable(n);
			ctl_written(n);
		} else {
			*val = n->mctrctl;
		}
		return NV_OK;
	}
	if (csr == CSR_SCTRCTL || csr == CSR_VSCTRCTL) {
		bool vs = csr == CSR_VSCTRCTL || is_virtual(n->mode);

		r = ctr_state_access(n, csr, false);
		if (r != NV_OK)
			return r;
		if (vs) {
			if (write) {
				n->vsctrctl = *val & vsctrctl_writable(n);
				ctl_written(n);
			} else {
				*val = n->vsctrctl;
			}
		} else {
			if (write) {
				n->mctrctl = (n->mctrctl & ~sctrctl_writable(n)) |
					     (*val & sctrctl_writable(n));
				ctl_written(n);
			} else {
				*val = n->mctrctl & sctrctl_writable(n);
			}
		}
		return NV_OK;
	}
	if (csr == CSR_SCTRDEPTH) {
		r = ctr_state_access(n, csr, true);
		if (r != NV_OK)
			return r;
		if (!write) {
			*val = n->depth_code;
			return NV_OK;
		}
		/* WARL: 11x reserved and unsupported depths are the core's
		 * choice among the supported ones (diff_ctr.c checks) */
		if ((*val & 7) >= n->dmin && (*val & 7) <= n->dmax &&
		    (*val & 7) != n->depth_code) {
			n->depth_code = *val & 7;
			/* WRPTR "unspecified but legal": the test adopts
			 * the core's choice (diff_ctr.c) */
			n->wrptr &= naive_depth(n) - 1;
		}
		return NV_OK;
	}
	if (csr == CSR_SCTRSTATUS) {
		r = ctr_state_access(n, csr, false);
		if (r != NV_OK)
			return r;
		if (write) {
			n->wrptr = *val & 0xFF & (naive_depth(n) - 1);
			n->frozen = bit(*val, 31);
		} else {
			*val = n->wrptr | (uint64_t)n->frozen << 31;
		}
		return NV_OK;
	}
	if (csr == CSR_MISELECT || csr == CSR_SISELECT ||
	    csr == CSR_VSISELECT) {
		uint64_t *reg;

		r = csrind_access(n, csr);
		if (r != NV_OK)
			return r;
		if (csr == CSR_MISELECT)
			reg = &n->miselect;
		else if (csr == CSR_VSISELECT || is_virtual(n->mode))
			reg = &n->vsiselect;
		else
			reg = &n->siselect;
		/* WARL (Smcsrind): must hold 0..0xFFF; this model keeps
		 * just those bits */
		if (write)
			*reg = *val & 0xFFF;
		else
			*val = *reg;
		return NV_OK;
	}
	if (csr >= CSR_MIREG && csr <= CSR_MIREG + 6 && csr != CSR_MIREG + 3)
		return ireg_access(n, csr, 'm', csr < CSR_MIREG4 ?
				   csr - CSR_MISELECT : csr - CSR_MISELECT - 1,
				   write, val);
	if (csr >= CSR_SIREG && csr <= CSR_SIREG + 6 && csr != CSR_SIREG + 3)
		return ireg_access(n, csr, 's', csr < CSR_SIREG4 ?
				   csr - CSR_SISELECT : csr - CSR_SISELECT - 1,
				   write, val);
	if (csr >= CSR_VSIREG && csr <= CSR_VSIREG + 6 &&
	    csr != CSR_VSIREG + 3)
		return ireg_access(n, csr, 'v', csr < CSR_VSIREG4 ?
				   csr - CSR_VSISELECT :
				   csr - CSR_VSISELECT - 1, write, val);
	if ((csr == CSR_MSTATEEN0 || csr == CSR_HSTATEEN0) && !n->smstateen)
		return NV_ILLEGAL;
	if (csr == CSR_MSTATEEN0) {
		r = csr_privilege(n, csr);
		if (r != NV_OK)
			return r;
		if (write) {
			n->mstateen_ctr = bit(*val, B_STATEEN_CTR);
			n->mstateen_csrind = bit(*val, 60);
			n->mstateen_se0 = bit(*val, 63);
			/* While read-only 0 an hstateen0 bit holds no value;
			 * when it becomes writable again it starts from 0 (the
			 * spec leaves this open; the core's choice). */
			n->hstateen_ctr = n->hstateen_ctr && n->mstateen_ctr;
			n->hstateen_csrind = n->hstateen_csrind &&
					     n->mstateen_csrind;
			n->hstateen_se0 = n->hstateen_se0 && n->mstateen_se0;
		} else {
			*val = (uint64_t)n->mstateen_ctr << B_STATEEN_CTR |
			       (uint64_t)n->mstateen_csrind << 60 |
			       (uint64_t)n->mstateen_se0 << 63;
		}
		return NV_OK;
	}
	if (csr == CSR_HSTATEEN0) {
		/* Smstateen: mstateen0.SE0=0 closes hstateen0 below M */
		if (n->mode != NV_M && !n->mstateen_se0)
			return NV_ILLEGAL;
		r = csr_privilege(n, csr);
		if (r != NV_OK)
			return r;
		/* a bit that is 0 in mstateen0 is read-only 0 here */
		if (write) {
			n->hstateen_ctr = bit(*val, B_STATEEN_CTR) && n->mstateen_ctr;
			n->hstateen_csrind = bit(*val, 60) &&
					     n->mstateen_csrind;
			n->hstateen_se0 = bit(*val, 63) && n->mstateen_se0;
		} else {
			*val = (uint64_t)(n->hstateen_ctr &&
					  n->mstateen_ctr) << B_STATEEN_CTR |
			       (uint64_t)(n->hstateen_csrind &&
					  n->mstateen_csrind) << 60 |
			       (uint64_t)(n->hstateen_se0 &&
					  n->mstateen_se0) << 63;
		}
		return NV_OK;
	}
	return -1;
}

#define CSR_MSTATEEN0H	0x31C
#define CSR_HSTATEEN0H	0x61C

/* The modelled state-enable bits as a register value (all above bit 31). */
static uint64_t stateen_now(struct naive_ctr *n, bool h)
{
	if (h)
		return (uint64_t)(n->hstateen_ctr && n->mstateen_ctr)
			       << B_STATEEN_CTR |
		       (uint64_t)(n->hstateen_csrind && n->mstateen_csrind)
			       << 60 |
		       (uint64_t)(n->hstateen_se0 && n->mstateen_se0) << 63;
	return (uint64_t)n->mstateen_ctr << B_STATEEN_CTR |
	       (uint64_t)n->mstateen_csrind << 60 |
	       (uint64_t)n->mstateen_se0 << 63;
}

/* RV32 (ratified): a CSR access sees bits 31:0; mctrctl bits 63:32 are
 * out of reach ("CSR Listing" note), mstateen0h/hstateen0h are the high
 * halves of the state-enable registers. */
static int rv32_access(struct naive_ctr *n, unsigned int csr, bool write,
		       uint64_t *val)
{
	uint64_t full;
	unsigned int base = csr;
	bool high = false;
	int r;

	if (csr == CSR_MSTATEEN0H || csr == CSR_HSTATEEN0H) {
		base = csr == CSR_MSTATEEN0H ? CSR_MSTATEEN0 : CSR_HSTATEEN0;
		high = true;
	}
	/* draft 2.1-2.3: *ctrcontrolh are bits 63:32 of *ctrcontrol */
	if (n->draft && (csr == 0x382 || csr == 0x182 || csr == 0x282)) {
		base = csr - 1;
		high = true;
	}
	if (!write) {
		r = csr_access(n, base, false, &full);
		*val = (high ? full >> 32 : full) & 0xFFFFFFFFull;
		return r;
	}
	*val &= 0xFFFFFFFFull;
	if (base == CSR_MSTATEEN0 || base == CSR_HSTATEEN0) {
		uint64_t cur = stateen_now(n, base == CSR_HSTATEEN0);

		full = high ? *val << 32 | (cur & 0xFFFFFFFFull)
			    : (cur & ~0xFFFFFFFFull) | *val;
	} else if (n->draft && (base == CSR_MCTRCONTROL ||
				base == CSR_SCTRCONTROL ||
				base == CSR_VSCTRCONTROL)) {
		uint64_t cur;

		/* the other half as a read sees it (CLR reads 0) */
		r = csr_access(n, base, false, &cur);
		if (r != NV_OK)
			return r;
		full = high ? *val << 32 | (cur & 0xFFFFFFFFull)
			    : (cur & ~0xFFFFFFFFull) | *val;
	} else if (csr == CSR_MCTRCTL) {
		full = (n->mctrctl & ~0xFFFFFFFFull) | *val;
	} else if (csr == CSR_VSCTRCTL ||
		   (csr == CSR_SCTRCTL && is_virtual(n->mode))) {
		full = (n->vsctrctl & ~0xFFFFFFFFull) | *val;
	} else if (csr == CSR_SCTRCTL) {
		full = (n->mctrctl & ~0xFFFFFFFFull) | *val;
	} else {
		full = *val;
	}
	return csr_access(n, base, true, &full);
}

int naive_csr_read(struct naive_ctr *n, unsigned int csr, uint64_t *val)
{
	*val = 0;
	if (n->rv32)
		return rv32_access(n, csr, false, val);
	return csr_access(n, csr, false, val);
}

int naive_csr_write(struct naive_ctr *n, unsigned int csr, uint64_t val)
{
	if (n->rv32)
		return rv32_access(n, csr, true, &val);
	return csr_access(n, csr, true, &val);
}

/* "Supervisor CTR Clear Instruction" and "State Enable Access Control". */
int naive_sctrclr(struct naive_ctr *n)
{
	if (n->draft)
		return NV_ILLEGAL;	/* no SCTRCLR in the draft */
	if (n->mode != NV_M && !n->mstateen_ctr)
		return NV_ILLEGAL;
	if (n->mode == NV_U)
		return NV_ILLEGAL;
	if (n->mode == NV_VU)
		return NV_VIRTUAL;
	if (n->mode == NV_VS && !n->hstateen_ctr)
		return NV_VIRTUAL;
	memset(n->src, 0, sizeof(n->src));
	memset(n->dst, 0, sizeof(n->dst));
	memset(n->data, 0, sizeof(n->data));
	n->counter = 0;
	n->counter_valid = false;
	return NV_OK;
}
