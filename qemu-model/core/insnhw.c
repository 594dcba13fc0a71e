// SPDX-License-Identifier: BSD-2-Clause
/*
 * insnhw.c - insnhw_classify().  The opcode fields are those of the
 * unprivileged ISA ("RV32I Base Integer Instruction Set", "C" standard
 * extension, Zcmp and Zcmt); the link registers are x1 and x5 (its
 * "Unconditional Jumps" return-address stack hints).
 */
#include "insnhw.h"

#include "rvperf/ctr.h"
#include "rvperf/ntrace.h"

/* Major opcodes and function codes of the unprivileged ISA. */
#define OP_BRANCH 0x63
#define OP_JALR 0x67
#define OP_JAL 0x6F
#define OP_SYSTEM 0x73
#define INSN_ECALL 0x00000073u
#define INSN_EBREAK 0x00100073u
#define INSN_SRET 0x10200073u
#define INSN_MRET 0x30200073u

static bool is_link(unsigned int reg)
{
	return reg == 1 || reg == 5;
}

static int64_t sext(uint64_t v, unsigned int bits)
{
	uint64_t m = 1ull << (bits - 1);

	return (int64_t)((v ^ m) - m);
}

static uint32_t bit(uint32_t insn, unsigned int pos)
{
	return (insn >> pos) & 1;
}

static int64_t b_imm(uint32_t i)
{
	return sext((bit(i, 31) << 12) | (bit(i, 7) << 11) |
		    (((i >> 25) & 0x3F) << 5) | (((i >> 8) & 0xF) << 1), 13);
}

static int64_t j_imm(uint32_t i)
{
	return sext((bit(i, 31) << 20) | (((i >> 12) & 0xFF) << 12) |
		    (bit(i, 20) << 11) | (((i >> 21) & 0x3FF) << 1), 21);
}

static int64_t cj_imm(uint32_t i)
{
	return sext((bit(i, 12) << 11) | (bit(i, 11) << 4) |
		    (((i >> 9) & 3) << 8) | (bit(i, 8) << 10) |
		    (bit(i, 7) << 6) | (bit(i, 6) << 7) |
		    (((i >> 3) & 7) << 1) | (bit(i, 2) << 5), 12);
}

static int64_t cb_imm(uint32_t i)
{
	return sext((bit(i, 12) << 8) | (((i >> 10) & 3) << 3) |
		    (((i >> 5) & 3) << 6) | (((i >> 3) & 3) << 1) |
		    (bit(i, 2) << 5), 9);
}

static void set(struct insnhw_class *c, unsigned int type,
		unsigned int itype, unsigned int itype3)
{
	c->type = type;
	c->itype = itype;
	c->itype3 = itype3;
}

static void branch(struct insnhw_class *c, bool taken, int64_t offset)
{
	unsigned int t = taken ? RVP_CTRDATA_TYPE_TAKEN_BRANCH
			       : RVP_CTRDATA_TYPE_NOT_TAKEN_BRANCH;

	set(c, t, taken ? RVP_ITYPE_TAKEN_BRANCH : RVP_ITYPE_NON_TAKEN_BRANCH,
	    taken ? RVP_ITYPE_TAKEN_BRANCH : RVP_ITYPE_NON_TAKEN_BRANCH);
	c->conditional = true;
	c->direct = true;
	c->offset = offset;
}

/* jal rd: CTR direct call (rd link), direct jump (x0), other direct jump;
 * N-Trace inferable call or other inferable jump, 3-bit "no special". */
static void jal(struct insnhw_class *c, unsigned int rd, int64_t offset)
{
	if (is_link(rd))
		set(c, RVP_CTRDATA_TYPE_DIRECT_CALL, RVP_ITYPE_INFERABLE_CALL,
		    RVP_ITYPE_NO_SPECIAL_TYPE);
	else
		set(c, rd == 0 ? RVP_CTRDATA_TYPE_DIRECT_JUMP
			       : RVP_CTRDATA_TYPE_OTHER_DIRECT_JUMP,
		    RVP_ITYPE_OTHER_INFERABLE_JUMP, RVP_ITYPE_NO_SPECIAL_TYPE);
	c->direct = true;
	c->offset = offset;
}

/* jalr rd, rs1 (and c.jr/c.jalr as jalr x0/x1, rs1). */
static void jalr(struct insnhw_class *c, unsigned int rd, unsigned int rs1)
{
	unsigned int type, itype;

	if (is_link(rd) && is_link(rs1) && rd != rs1) {
		type = RVP_CTRDATA_TYPE_COROUTINE_SWAP;
		itype = RVP_ITYPE_COROUTINE_SWAP;
	} else if (is_link(rd)) {
		type = RVP_CTRDATA_TYPE_INDIRECT_CALL;
		itype = RVP_ITYPE_UNINFERABLE_CALL;
	} else if (is_link(rs1)) {
		type = RVP_CTRDATA_TYPE_FUNCTION_RETURN;
		itype = RVP_ITYPE_RETURN;
	} else {
		type = rd == 0 ? RVP_CTRDATA_TYPE_INDIRECT_JUMP
			       : RVP_CTRDATA_TYPE_OTHER_INDIRECT_JUMP;
		itype = RVP_ITYPE_OTHER_UNINFERABLE_JUMP;
	}
	set(c, type, itype, RVP_ITYPE_UNINFERABLE_JUMP);
}

static void classify32(uint32_t i, bool taken, struct insnhw_class *c)
{
	unsigned int rd = (i >> 7) & 0x1F, rs1 = (i >> 15) & 0x1F;
	unsigned int funct3 = (i >> 12) & 7;

	switch (i & 0x7F) {
	case OP_BRANCH:
		/* funct3 2 and 3 are reserved. */
		if (funct3 != 2 && funct3 != 3)
			branch(c, taken, b_imm(i));
		break;
	case OP_JAL:
		jal(c, rd, j_imm(i));
		break;
	case OP_JALR:
		if (funct3 == 0)
			jalr(c, rd, rs1);
		break;
	case OP_SYSTEM:
		if (i == INSN_ECALL || i == INSN_EBREAK)
			set(c, RVP_CTRDATA_TYPE_EXCEPTION, RVP_ITYPE_EXCEPTION,
			    RVP_ITYPE_EXCEPTION);
		else if (i == INSN_MRET || i == INSN_SRET)
			set(c, RVP_CTRDATA_TYPE_TRAP_RETURN,
			    RVP_ITYPE_EXCEPTION_OR_INTERRUPT_RETURN,
			    RVP_ITYPE_EXCEPTION_OR_INTERRUPT_RETURN);
		break;
	}
}

static void classify16(uint32_t i, unsigned int xlen, unsigned int exts,
		       bool taken, struct insnhw_class *c)
{
	unsigned int quadrant = i & 3, funct3 = (i >> 13) & 7;
	unsigned int rs1 = (i >> 7) & 0x1F, rs2 = (i >> 2) & 0x1F;

	if (quadrant == 1) {
		if (funct3 == 5)		/* c.j */
			jal(c, 0, cj_imm(i));
		else if (funct3 == 1 && xlen == 32)	/* c.jal (RV32) */
			jal(c, 1, cj_imm(i));
		else if (funct3 == 6 || funct3 == 7)	/* c.beqz, c.bnez */
			branch(c, taken, cb_imm(i));
		return;
	}
	if (quadrant != 2)
		return;
	if (funct3 == 4 && rs2 == 0) {
		if (!bit(i, 12)) {
			if (rs1 != 0)			/* c.jr */
				jalr(c, 0, rs1);
		} else if (rs1 == 0) {			/* c.ebreak */
			set(c, RVP_CTRDATA_TYPE_EXCEPTION, RVP_ITYPE_EXCEPTION,
			    RVP_ITYPE_EXCEPTION);
		} else {				/* c.jalr */
			jalr(c, 1, rs1);
		}
		return;
	}
	if (funct3 != 5)
		return;
	/* Zcmt: cm.jt (index < 32), cm.jalt: 101 000 index[7:0] 10. */
	if ((exts & INSNHW_ZCMT) && ((i >> 10) & 7) == 0) {
		unsigned int index = (i >> 2) & 0xFF;

		if (index < 32)
			set(c, RVP_CTRDATA_TYPE_DIRECT_JUMP,
			    RVP_ITYPE_NO_SPECIAL_TYPE,
			    RVP_ITYPE_NO_SPECIAL_TYPE);
		else
			set(c, RVP_CTRDATA_TYPE_DIRECT_CALL,
			    RVP_ITYPE_INFERABLE_CALL,
			    RVP_ITYPE_NO_SPECIAL_TYPE);
		c->table_jump = true;
		return;
	}
	/* Zcmp: cm.popret (15:8 = 10111110) and cm.popretz (10111100),
	 * rlist (7:4) >= 4. */
	if ((exts & INSNHW_ZCMP) && ((i >> 4) & 0xF) >= 4 &&
	    (((i >> 8) & 0xFF) == 0xBE || ((i >> 8) & 0xFF) == 0xBC))
		set(c, RVP_CTRDATA_TYPE_FUNCTION_RETURN, RVP_ITYPE_RETURN,
		    RVP_ITYPE_UNINFERABLE_JUMP);
}

void insnhw_classify(uint32_t insn, unsigned int xlen, unsigned int exts,
		     bool taken, struct insnhw_class *out)
{
	out->type = RVP_CTRDATA_TYPE_NONE;
	out->itype = out->itype3 = RVP_ITYPE_NO_SPECIAL_TYPE;
	out->direct = out->table_jump = out->conditional = false;
	out->offset = 0;
	if ((insn & 3) == 3) {
		out->length = 4;
		classify32(insn, taken, out);
	} else {
		out->length = 2;
		classify16(insn & 0xFFFF, xlen, exts, taken, out);
	}
}
