/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nexus_int.h - what the library's files share and users do not see: the
 * decoder's per-halfword instruction table and the operand decoding the
 * sequential-jump optimisation needs on both sides.
 */
#ifndef RVPERF_NEXUS_INT_H
#define RVPERF_NEXUS_INT_H

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
