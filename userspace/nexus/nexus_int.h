/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nexus_int.h - what the library's files share and users do not see: the
 * decoder's per-halfword instruction table and the operand decoding the
 * sequential-jump optimisation needs on both sides.
 */
#ifndef RVPERF_NEXUS_INT_H
#define RVPERF_NEXUS_INT_H

#include <string.h>

#include "nexus.h"

/* What the decoder does at an instruction. */
enum nx_kind {
	K_LINEAR,	/* next instruction (also ecall/ebreak, cm.* without
			 * their extension) */
	K_BRANCH,	/* conditional: HIST bit, or BTM's taken-at-end */
	K_JUMP,		/* direct unconditional jump */
	K_CALL,		/* direct call: jump, push the return address */
	K_IJUMP,	/* indirect jump, no stack effect */
	K_ICALL,	/* indirect call: push */
	K_RET,		/* return: pop */
	K_SWAP,		/* coroutine swap: pop, push */
	K_XRET,		/* trap return: never inferable */
	K_LOADC,	/* lui/auipc/c.lui right before a jalr of its rd */
	K_INVALID,	/* runs past the end of the image */
};

/* Eight bytes, so the table of a large program stays in cache. */
struct nx_entry {
	uint8_t kind;
	uint8_t units;		/* 1 or 2 (16-bit units) */
	uint8_t run_units;	/* linear units from here (0: not linear) */
	uint8_t run_insns;	/* and instructions */
	/* Branch/jump offset.  Indirect jumps: imm << 8 | rs1 (rs1 0: no
	 * sequential inference).  K_LOADC: the value (its low 12 bits are
	 * zero) | rd | ENTRY_PCREL for auipc. */
	int32_t off;
};

#define ENTRY_PCREL	0x20
#define ENTRY_REG(e)	((unsigned int)(e)->off & 0x1F)
#define ENTRY_IMM(e)	((int64_t)((e)->off >> 8))
#define ENTRY_VALUE(e)	((int64_t)((e)->off & ~0xFFF))

struct nx_image_seg {
	uint64_t start, end;
	struct nx_entry *tab;	/* one per halfword */
	uint8_t *code;
};

/* Operands for sequential jumps (trTeInstEnSequentialJump). */
int nx_const_load(uint32_t word, unsigned int *rd, int64_t *value,
		  bool *pc_relative);
int nx_jalr_operands(uint32_t word, unsigned int *rs1, int64_t *imm);

/* DirectBranch, IndirectBranch or IndirectBranchHist (ADDR: the U-ADDR
 * field's address) of at most eight bytes, for a configuration without
 * SRC, TSTAMP or the MSB extension: its length, 0 when it is longer (then
 * nx_msg_encode() writes it).  OUT needs room for eight bytes. */
size_t nx_branch_bytes(const struct nx_config *cfg, unsigned int tcode,
		       unsigned int btype, uint64_t icnt, uint64_t addr,
		       uint64_t hist, uint8_t *out);

/* The MDOs that carry a variable field of V starting with ROOM bits left
 * in the open MDO (put_var()'s count): 1 + ceil((need - room) / 6) when
 * V needs more bits than ROOM, else 1 (V 0 and 1 alike, so without a
 * branch), by V's highest set bit TOP: (TOP + 1 + 11 - ROOM) / 6.  A
 * table for the two rooms the branch messages have, 6 at TOP and 4 at
 * TOP + 2: a load where the division takes a multiply and shifts, one
 * register for both. */
#define NX_MDOS_1(i)	(((i) + 6) / 6)
#define NX_MDOS_4(i)	NX_MDOS_1(i), NX_MDOS_1(i + 1), NX_MDOS_1(i + 2), NX_MDOS_1(i + 3)
#define NX_MDOS_16(i)	NX_MDOS_4(i), NX_MDOS_4(i + 4), NX_MDOS_4(i + 8), NX_MDOS_4(i + 12)
static const uint8_t nx_mdos[66] = {
	NX_MDOS_16(0), NX_MDOS_16(16), NX_MDOS_16(32), NX_MDOS_16(48),
	NX_MDOS_1(64), NX_MDOS_1(65)
};

static inline unsigned int nx_var_chunks(uint64_t v, unsigned int room)
{
	unsigned int top = 63 ^ (unsigned int)__builtin_clzll(v | 1);	/* BSR */

	if (room == 4 || room == 6)
		return nx_mdos[top + 6 - room];
	return (top + 12 - room) / 6;
}

/*
 * 48 bits of MDO, 6 to a byte, each above its byte's 2 MSEO bits: one
 * instruction on x86-64 with BMI2 (PDEP, asm: no compiler flag; the
 * caller knows the CPU has a fast one, nx_encoder.pdep), else three
 * rounds of masks.
 */
static inline __attribute__((always_inline)) uint64_t
nx_spread_mdo(uint64_t w, bool pdep)
{
	uint64_t x;

#if defined(__x86_64__) && defined(__GNUC__)
	if (pdep) {
		__asm__("pdepq %2, %1, %0" : "=r"(x) : "r"(w),
			"r"(0xFCFCFCFCFCFCFCFCull));
		return x;
	}
#endif
	(void)pdep;
	x = (w & 0xFFFFFFull) | (w & 0xFFFFFF000000ull) << 8;
	x = (x & 0x00000FFF00000FFFull) | (x & 0x00FFF00000FFF000ull) << 4;
	x = (x & 0x003F003F003F003Full) | (x & 0x0FC00FC00FC00FC0ull) << 2;
	return x << 2;
}

/*
 * DirectBranch, IndirectBranch and IndirectBranchHist without SRC, TSTAMP
 * or the MSB extension (most of a trace) in at most eight bytes, built as
 * one 48-bit MDO string and spread into bytes in a few steps; the same
 * bytes as nx_msg_encode().  0 when the message is longer.  OUT needs
 * room for eight bytes, which are written either way.  Inline for the
 * encoder's per-block way (encoder.c), nx_branch_bytes() elsewhere.
 */
static inline __attribute__((always_inline)) size_t
nx_branch_bytes_inline(unsigned int xlen, unsigned int tcode, unsigned int btype,
		       uint64_t icnt, uint64_t addr, uint64_t hist, uint8_t *out,
		       bool pdep)
{
	/* The three kinds with masks, not branches (which one a message
	 * is, the host predicts badly): DirectBranch has I-CNT alone, from
	 * the MDO after TCODE (room 6); the others B-TYPE there first
	 * (room 4 for I-CNT), then the address, IndirectBranchHist HIST. */
	uint64_t indirect = -(uint64_t)(tcode != NX_TCODE_DIRECT_BRANCH);
	uint64_t has_hist = -(uint64_t)(tcode == NX_TCODE_INDIRECT_BRANCH_HIST);
	unsigned int c1, c2, c3, n, width = xlen - 1, at = 6 + (2 & (unsigned int)indirect);
	uint64_t f = (addr >> 1) & indirect, w, x;

	/* RV64: ADDR >> 1 has its 63 bits already. */
	if (width < 63)
		f &= (1ull << width) - 1;
	hist &= has_hist;
	c1 = nx_mdos[(63 ^ (unsigned int)__builtin_clzll(icnt | 1)) + at - 6];
	c2 = nx_var_chunks(f, 6) & (unsigned int)indirect;
	c3 = nx_var_chunks(hist, 6) & (unsigned int)has_hist;
	n = 1 + c1 + c2 + c3;
	/* Shift counts kept below 64 for the messages too long for this
	 * way (0 returned, the bytes written meaningless). */
	w = tcode | ((uint64_t)(btype & 3) << 6 & indirect) | icnt << at |
	    f << ((6 * (1 + c1)) & 63) | hist << ((6 * (1 + c1 + c2)) & 63);
	/* No mask to 6 * N bits: each field's MDOs were counted from its
	 * highest bit, so W has none above them. */
	x = nx_spread_mdo(w, pdep);
	/* MSEO: end of field after I-CNT and after the address (without
	 * the address or HIST, that is the last byte, which ends the
	 * message anyway). */
	x |= 1ull << ((8 * c1) & 63) | 1ull << ((8 * (c1 + c2)) & 63);
	x |= 3ull << ((8 * (n - 1)) & 63);
	x = __builtin_bswap64(__builtin_bswap64(x));
	memcpy(out, &x, 8);
	return n & -(unsigned int)(n <= 8);	/* without a branch */
}

/* The table entry at PC, or NULL outside every segment. */
static inline const struct nx_entry *nx_image_entry(struct nx_image *img,
						    uint64_t pc)
{
	struct nx_image_seg *s = img->last;
	unsigned int i;

	if (s && pc - s->start < s->end - s->start)
		return &s->tab[(pc - s->start) >> 1];
	for (i = 0; i < img->n_segs; i++) {
		s = &img->segs[i];
		if (pc - s->start < s->end - s->start) {
			img->last = s;
			return &s->tab[(pc - s->start) >> 1];
		}
	}
	return NULL;
}

#endif /* RVPERF_NEXUS_INT_H */
