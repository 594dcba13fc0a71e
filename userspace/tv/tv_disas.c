// SPDX-License-Identifier: BSD-2-Clause
/*
 * tv_disas.c - RV32/RV64 GC disassembler for trace listings: I, M, A, F,
 * D, Zicsr, Zifencei, the privileged instructions and C, printed without
 * pseudo-instruction aliases (as objdump -M no-aliases does, which the
 * tests compare against).  qemu-model/core's classifier only tells control
 * transfers apart, so mnemonics and operands are decoded here.
 */
#include "tv_disas.h"

#include <string.h>

#include "tv_fmt.h"

static const char *const xn[32] = {
	"zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2",
	"s0", "s1", "a0", "a1", "a2", "a3", "a4", "a5",
	"a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7",
	"s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6",
};

static const char *const fn[32] = {
	"ft0", "ft1", "ft2", "ft3", "ft4", "ft5", "ft6", "ft7",
	"fs0", "fs1", "fa0", "fa1", "fa2", "fa3", "fa4", "fa5",
	"fa6", "fa7", "fs2", "fs3", "fs4", "fs5", "fs6", "fs7",
	"fs8", "fs9", "fs10", "fs11", "ft8", "ft9", "ft10", "ft11",
};

static const char *const rm_names[8] = {
	"rne", "rtz", "rdn", "rup", "rmm", "rm5", "rm6", "dyn",
};

static int64_t sx(uint64_t v, unsigned int bits)
{
	return (int64_t)(v << (64 - bits)) >> (64 - bits);
}

#define BITS(x, hi, lo) (((x) >> (lo)) & ((1u << ((hi) - (lo) + 1)) - 1))

static int out(char *buf, size_t len, const char *mn, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int out(char *buf, size_t len, const char *mn, const char *fmt, ...)
{
	va_list ap;
	int n = fmt_sn(buf, len, "%s%s", mn, fmt[0] ? " " : "");

	if (n < 0 || (size_t)n >= len)
		return 0;
	va_start(ap, fmt);
	fmt_vsn(buf + n, len - (size_t)n, fmt, ap);
	va_end(ap);
	return 1;
}

static int unknown(char *buf, size_t len, uint32_t insn, unsigned int ilen)
{
	fmt_sn(buf, len, ilen == 2 ? ".2byte 0x%04x" : ".4byte 0x%08x", insn);
	return 0;
}

static const char *csr_label(unsigned int csr, char *tmp, size_t len)
{
	return tv_reg_name((uint16_t)csr, tmp, len);
}

/* ------------------------------------------------------------ 32-bit */

static int disas32(uint32_t i, uint64_t pc, unsigned int xlen, char *b, size_t l)
{
	unsigned int op = i & 0x7f, rd = BITS(i, 11, 7), rs1 = BITS(i, 19, 15);
	unsigned int rs2 = BITS(i, 24, 20), f3 = BITS(i, 14, 12), f7 = BITS(i, 31, 25);
	int64_t imm_i = sx(i >> 20, 12);
	int64_t imm_s = sx((i >> 25) << 5 | rd, 12);
	int64_t imm_b = sx((uint64_t)(BITS(i, 31, 31) << 12 | BITS(i, 7, 7) << 11 |
				      BITS(i, 30, 25) << 5 | BITS(i, 11, 8) << 1), 13);
	int64_t imm_j = sx((uint64_t)(BITS(i, 31, 31) << 20 | BITS(i, 19, 12) << 12 |
				      BITS(i, 20, 20) << 11 | BITS(i, 30, 21) << 1), 21);
	char tmp[32];

	switch (op) {
	case 0x37:
		return out(b, l, "lui", "%s,0x%x", xn[rd], i >> 12);
	case 0x17:
		return out(b, l, "auipc", "%s,0x%x", xn[rd], i >> 12);
	case 0x6f:
		return out(b, l, "jal", "%s,0x%llx", xn[rd],
			   (unsigned long long)(pc + (uint64_t)imm_j));
	case 0x67:
		if (f3)
			break;
		return out(b, l, "jalr", "%s,%lld(%s)", xn[rd], (long long)imm_i, xn[rs1]);
	case 0x63: {
		static const char *const m[8] = { "beq", "bne", 0, 0, "blt", "bge", "bltu", "bgeu" };

		if (!m[f3])
			break;
		return out(b, l, m[f3], "%s,%s,0x%llx", xn[rs1], xn[rs2],
			   (unsigned long long)(pc + (uint64_t)imm_b));
	}
	case 0x03: {
		static const char *const m[8] = { "lb", "lh", "lw", "ld", "lbu", "lhu", "lwu", 0 };

		if (!m[f3] || (xlen == 32 && (f3 == 3 || f3 == 6)))
			break;
		return out(b, l, m[f3], "%s,%lld(%s)", xn[rd], (long long)imm_i, xn[rs1]);
	}
	case 0x23: {
		static const char *const m[8] = { "sb", "sh", "sw", "sd", 0, 0, 0, 0 };

		if (!m[f3] || (xlen == 32 && f3 == 3))
			break;
		return out(b, l, m[f3], "%s,%lld(%s)", xn[rs2], (long long)imm_s, xn[rs1]);
	}
	case 0x13: {
		static const char *const m[8] = { "addi", 0, "slti", "sltiu", "xori", 0, "ori", "andi" };
		unsigned int shmask = xlen == 64 ? 0x3f : 0x1f;
		unsigned int hi = xlen == 64 ? i >> 26 : i >> 25;

		if (f3 == 1 && hi == 0)
			return out(b, l, "slli", "%s,%s,0x%x", xn[rd], xn[rs1], (i >> 20) & shmask);
		if (f3 == 5 && (hi == 0 || hi == (xlen == 64 ? 0x10u : 0x20u)))
			return out(b, l, hi ? "srai" : "srli", "%s,%s,0x%x", xn[rd], xn[rs1],
				   (i >> 20) & shmask);
		if (!m[f3])
			break;
		return out(b, l, m[f3], "%s,%s,%lld", xn[rd], xn[rs1], (long long)imm_i);
	}
	case 0x1b:
		if (xlen != 64)
			break;
		if (f3 == 0)
			return out(b, l, "addiw", "%s,%s,%lld", xn[rd], xn[rs1], (long long)imm_i);
		if (f3 == 1 && f7 == 0)
			return out(b, l, "slliw", "%s,%s,0x%x", xn[rd], xn[rs1], rs2);
		if (f3 == 5 && (f7 == 0 || f7 == 0x20))
			return out(b, l, f7 ? "sraiw" : "srliw", "%s,%s,0x%x", xn[rd], xn[rs1], rs2);
		break;
	case 0x33:
	case 0x3b: {
		static const char *const base[8] = { "add", "sll", "slt", "sltu", "xor", "srl", "or", "and" };
		static const char *const mul[8] = { "mul", "mulh", "mulhsu", "mulhu", "div", "divu", "rem", "remu" };
		static const char *const basew[8] = { "addw", "sllw", 0, 0, 0, "srlw", 0, 0 };
		static const char *const mulw[8] = { "mulw", 0, 0, 0, "divw", "divuw", "remw", "remuw" };
		const char *m = NULL;

		if (op == 0x3b && xlen != 64)
			break;
		if (f7 == 0)
			m = op == 0x33 ? base[f3] : basew[f3];
		else if (f7 == 1)
			m = op == 0x33 ? mul[f3] : mulw[f3];
		else if (f7 == 0x20 && f3 == 0)
			m = op == 0x33 ? "sub" : "subw";
		else if (f7 == 0x20 && f3 == 5)
			m = op == 0x33 ? "sra" : "sraw";
		if (!m)
			break;
		return out(b, l, m, "%s,%s,%s", xn[rd], xn[rs1], xn[rs2]);
	}
	case 0x0f:
		if (f3 == 1)
			return out(b, l, "fence.i", "%s", "");
		if (f3 == 0) {
			static const char io[] = "iorw";
			char pred[5], succ[5];
			int np = 0, ns = 0;

			for (int k = 0; k < 4; k++) {
				if (i >> (27 - k) & 1)
					pred[np++] = io[k];
				if (i >> (23 - k) & 1)
					succ[ns++] = io[k];
			}
			pred[np] = succ[ns] = 0;
			if (BITS(i, 31, 28) == 8)
				return out(b, l, "fence.tso", "%s", "");
			return out(b, l, "fence", "%s,%s", pred, succ);
		}
		break;
	case 0x73:
		if (f3 == 0) {
			if (i == 0x00000073)
				return out(b, l, "ecall", "%s", "");
			if (i == 0x00100073)
				return out(b, l, "ebreak", "%s", "");
			if (i == 0x30200073)
				return out(b, l, "mret", "%s", "");
			if (i == 0x10200073)
				return out(b, l, "sret", "%s", "");
			if (i == 0x10500073)
				return out(b, l, "wfi", "%s", "");
			if (i == 0x7b200073)
				return out(b, l, "dret", "%s", "");
			if (f7 == 0x09 && rd == 0)
				return out(b, l, "sfence.vma", "%s,%s", xn[rs1], xn[rs2]);
			break;
		} else if (f3 != 4) {
			static const char *const m[8] = { 0, "csrrw", "csrrs", "csrrc", 0, "csrrwi", "csrrsi", "csrrci" };

			if (f3 < 4)
				return out(b, l, m[f3], "%s,%s,%s", xn[rd],
					   csr_label(i >> 20, tmp, sizeof(tmp)), xn[rs1]);
			return out(b, l, m[f3], "%s,%s,%u", xn[rd],
				   csr_label(i >> 20, tmp, sizeof(tmp)), rs1);
		}
		break;
	case 0x2f: {
		static const struct { unsigned int f5; const char *n; } amo[] = {
			{ 0x02, "lr" }, { 0x03, "sc" }, { 0x01, "amoswap" }, { 0x00, "amoadd" },
			{ 0x04, "amoxor" }, { 0x0c, "amoand" }, { 0x08, "amoor" },
			{ 0x10, "amomin" }, { 0x14, "amomax" }, { 0x18, "amominu" },
			{ 0x1c, "amomaxu" },
		};
		unsigned int f5 = i >> 27;
		char mn[24];

		if (f3 != 2 && !(f3 == 3 && xlen == 64))
			break;
		for (size_t k = 0; k < sizeof(amo) / sizeof(amo[0]); k++) {
			if (amo[k].f5 != f5)
				continue;
			fmt_sn(mn, sizeof(mn), "%s.%c%s", amo[k].n, f3 == 2 ? 'w' : 'd',
				 BITS(i, 26, 25) == 3 ? ".aqrl" : BITS(i, 26, 25) == 2 ? ".aq"
				 : BITS(i, 26, 25) == 1 ? ".rl" : "");
			if (f5 == 0x02)
				return rs2 ? 0 * unknown(b, l, i, 4)
					   : out(b, l, mn, "%s,(%s)", xn[rd], xn[rs1]);
			return out(b, l, mn, "%s,%s,(%s)", xn[rd], xn[rs2], xn[rs1]);
		}
		break;
	}
	case 0x07:
	case 0x27: {
		const char *m = NULL;

		if (f3 == 2)
			m = op == 0x07 ? "flw" : "fsw";
		else if (f3 == 3)
			m = op == 0x07 ? "fld" : "fsd";
		if (!m)
			break;
		if (op == 0x07)
			return out(b, l, m, "%s,%lld(%s)", fn[rd], (long long)imm_i, xn[rs1]);
		return out(b, l, m, "%s,%lld(%s)", fn[rs2], (long long)imm_s, xn[rs1]);
	}
	case 0x43:
	case 0x47:
	case 0x4b:
	case 0x4f: {
		static const char *const m[4] = { "fmadd", "fmsub", "fnmsub", "fnmadd" };
		unsigned int fmt = BITS(i, 26, 25);
		char mn[16];

		if (fmt > 1)
			break;
		fmt_sn(mn, sizeof(mn), "%s.%c", m[(op >> 2) & 3], fmt ? 'd' : 's');
		if (f3 == 7)
			return out(b, l, mn, "%s,%s,%s,%s", fn[rd], fn[rs1], fn[rs2], fn[i >> 27]);
		return out(b, l, mn, "%s,%s,%s,%s,%s", fn[rd], fn[rs1], fn[rs2], fn[i >> 27],
			   rm_names[f3]);
	}
	case 0x53: {
		char p = (f7 & 1) ? 'd' : 's', mn[24];
		unsigned int f5 = f7 >> 2;
		const char *rm = f3 == 7 ? "" : rm_names[f3];
		const char *comma = f3 == 7 ? "" : ",";

		if ((f7 & 2))
			break;	/* H and Q formats */
		switch (f5) {
		case 0x00: case 0x01: case 0x02: case 0x03: {
			static const char *const m[4] = { "fadd", "fsub", "fmul", "fdiv" };

			fmt_sn(mn, sizeof(mn), "%s.%c", m[f5], p);
			return out(b, l, mn, "%s,%s,%s%s%s", fn[rd], fn[rs1], fn[rs2], comma, rm);
		}
		case 0x0b:
			if (rs2)
				break;
			fmt_sn(mn, sizeof(mn), "fsqrt.%c", p);
			return out(b, l, mn, "%s,%s%s%s", fn[rd], fn[rs1], comma, rm);
		case 0x04: {
			static const char *const m[3] = { "fsgnj", "fsgnjn", "fsgnjx" };

			if (f3 > 2)
				break;
			fmt_sn(mn, sizeof(mn), "%s.%c", m[f3], p);
			return out(b, l, mn, "%s,%s,%s", fn[rd], fn[rs1], fn[rs2]);
		}
		case 0x05:
			if (f3 > 1)
				break;
			fmt_sn(mn, sizeof(mn), "%s.%c", f3 ? "fmax" : "fmin", p);
			return out(b, l, mn, "%s,%s,%s", fn[rd], fn[rs1], fn[rs2]);
		case 0x08:	/* fcvt.s.d / fcvt.d.s */
			if (rs2 != (p == 'd' ? 0u : 1u))
				break;
			fmt_sn(mn, sizeof(mn), "fcvt.%c.%c", p, p == 'd' ? 's' : 'd');
			if (p == 'd')	/* exact: objdump shows no rounding mode */
				return out(b, l, mn, "%s,%s", fn[rd], fn[rs1]);
			return out(b, l, mn, "%s,%s%s%s", fn[rd], fn[rs1], comma, rm);
		case 0x14: {
			static const char *const m[3] = { "fle", "flt", "feq" };

			if (f3 > 2)
				break;
			fmt_sn(mn, sizeof(mn), "%s.%c", m[f3], p);
			return out(b, l, mn, "%s,%s,%s", xn[rd], fn[rs1], fn[rs2]);
		}
		case 0x18: case 0x1a: {	/* fcvt.int.fp / fcvt.fp.int */
			static const char *const t[4] = { "w", "wu", "l", "lu" };
			bool to_int = f5 == 0x18;

			if (rs2 > 3 || (rs2 > 1 && xlen != 64))
				break;
			if (to_int)
				fmt_sn(mn, sizeof(mn), "fcvt.%s.%c", t[rs2], p);
			else
				fmt_sn(mn, sizeof(mn), "fcvt.%c.%s", p, t[rs2]);
			/* int -> double from 32 bits is exact: no rounding mode shown */
			if (!to_int && p == 'd' && rs2 < 2)
				return out(b, l, mn, "%s,%s", fn[rd], xn[rs1]);
			return out(b, l, mn, "%s,%s%s%s", to_int ? xn[rd] : fn[rd],
				   to_int ? fn[rs1] : xn[rs1], comma, rm);
		}
		case 0x1c:
			if (rs2)
				break;
			if (f3 == 0) {
				if (p == 'd' && xlen != 64)
					break;
				return out(b, l, p == 'd' ? "fmv.x.d" : "fmv.x.w", "%s,%s",
					   xn[rd], fn[rs1]);
			}
			if (f3 == 1) {
				fmt_sn(mn, sizeof(mn), "fclass.%c", p);
				return out(b, l, mn, "%s,%s", xn[rd], fn[rs1]);
			}
			break;
		case 0x1e:
			if (rs2 || f3 || (p == 'd' && xlen != 64))
				break;
			return out(b, l, p == 'd' ? "fmv.d.x" : "fmv.w.x", "%s,%s", fn[rd], xn[rs1]);
		}
		break;
	}
	}
	return unknown(b, l, i, 4);
}

/* ------------------------------------------------------------ 16-bit */

static int disas16(uint32_t i, uint64_t pc, unsigned int xlen, char *b, size_t l)
{
	unsigned int q = i & 3, f3 = BITS(i, 15, 13);
	unsigned int rd = BITS(i, 11, 7), rs2 = BITS(i, 6, 2);
	unsigned int rdp = 8 + BITS(i, 4, 2), rs1p = 8 + BITS(i, 9, 7);
	int64_t imm6 = sx(BITS(i, 12, 12) << 5 | BITS(i, 6, 2), 6);
	int64_t jimm = sx(BITS(i, 12, 12) << 11 | BITS(i, 8, 8) << 10 | BITS(i, 10, 9) << 8 |
			  BITS(i, 6, 6) << 7 | BITS(i, 7, 7) << 6 | BITS(i, 2, 2) << 5 |
			  BITS(i, 11, 11) << 4 | BITS(i, 5, 3) << 1, 12);
	int64_t bimm = sx(BITS(i, 12, 12) << 8 | BITS(i, 6, 5) << 6 | BITS(i, 2, 2) << 5 |
			  BITS(i, 11, 10) << 3 | BITS(i, 4, 3) << 1, 9);
	unsigned int uimm_w = BITS(i, 5, 5) << 6 | BITS(i, 12, 10) << 3 | BITS(i, 6, 6) << 2;
	unsigned int uimm_d = BITS(i, 6, 5) << 6 | BITS(i, 12, 10) << 3;

	if (i == 0)
		return unknown(b, l, i, 2);
	switch (q << 3 | f3) {
	case 000: {
		unsigned int nz = BITS(i, 10, 7) << 6 | BITS(i, 12, 11) << 4 |
				  BITS(i, 5, 5) << 3 | BITS(i, 6, 6) << 2;

		if (!nz)
			break;
		return out(b, l, "c.addi4spn", "%s,sp,%u", xn[rdp], nz);
	}
	case 001:
		return out(b, l, "c.fld", "%s,%u(%s)", fn[rdp], uimm_d, xn[rs1p]);
	case 002:
		return out(b, l, "c.lw", "%s,%u(%s)", xn[rdp], uimm_w, xn[rs1p]);
	case 003:
		if (xlen == 64)
			return out(b, l, "c.ld", "%s,%u(%s)", xn[rdp], uimm_d, xn[rs1p]);
		return out(b, l, "c.flw", "%s,%u(%s)", fn[rdp], uimm_w, xn[rs1p]);
	case 005:
		return out(b, l, "c.fsd", "%s,%u(%s)", fn[rdp], uimm_d, xn[rs1p]);
	case 006:
		return out(b, l, "c.sw", "%s,%u(%s)", xn[rdp], uimm_w, xn[rs1p]);
	case 007:
		if (xlen == 64)
			return out(b, l, "c.sd", "%s,%u(%s)", xn[rdp], uimm_d, xn[rs1p]);
		return out(b, l, "c.fsw", "%s,%u(%s)", fn[rdp], uimm_w, xn[rs1p]);
	case 010:
		return out(b, l, "c.addi", "%s,%lld", xn[rd], (long long)imm6);
	case 011:
		if (xlen == 64) {
			if (!rd)
				break;
			return out(b, l, "c.addiw", "%s,%lld", xn[rd], (long long)imm6);
		}
		return out(b, l, "c.jal", "0x%llx", (unsigned long long)(pc + (uint64_t)jimm));
	case 012:
		return out(b, l, "c.li", "%s,%lld", xn[rd], (long long)imm6);
	case 013:
		if (rd == 2) {
			int64_t nz = sx(BITS(i, 12, 12) << 9 | BITS(i, 4, 3) << 7 | BITS(i, 5, 5) << 6 |
					BITS(i, 2, 2) << 5 | BITS(i, 6, 6) << 4, 10);

			if (!nz)
				break;
			return out(b, l, "c.addi16sp", "sp,%lld", (long long)nz);
		}
		if (!imm6)
			break;
		return out(b, l, "c.lui", "%s,0x%llx", xn[rd],
			   (unsigned long long)(uint64_t)imm6 & 0xfffff);
	case 014: {
		unsigned int f2 = BITS(i, 11, 10);
		unsigned int sh = BITS(i, 12, 12) << 5 | BITS(i, 6, 2);

		if (f2 == 0)
			return out(b, l, "c.srli", "%s,0x%x", xn[rs1p], sh);
		if (f2 == 1)
			return out(b, l, "c.srai", "%s,0x%x", xn[rs1p], sh);
		if (f2 == 2)
			return out(b, l, "c.andi", "%s,%lld", xn[rs1p], (long long)imm6);
		{
			static const char *const m[8] = { "c.sub", "c.xor", "c.or", "c.and",
							  "c.subw", "c.addw", 0, 0 };
			unsigned int k = BITS(i, 12, 12) << 2 | BITS(i, 6, 5);

			if (!m[k] || (k >= 4 && xlen != 64))
				break;
			return out(b, l, m[k], "%s,%s", xn[rs1p], xn[rdp]);
		}
	}
	case 015:
		return out(b, l, "c.j", "0x%llx", (unsigned long long)(pc + (uint64_t)jimm));
	case 016:
	case 017:
		return out(b, l, f3 == 6 ? "c.beqz" : "c.bnez", "%s,0x%llx", xn[rs1p],
			   (unsigned long long)(pc + (uint64_t)bimm));
	case 020:
		return out(b, l, "c.slli", "%s,0x%x", xn[rd], BITS(i, 12, 12) << 5 | BITS(i, 6, 2));
	case 021:
		return out(b, l, "c.fldsp", "%s,%u(sp)", fn[rd],
			   BITS(i, 4, 2) << 6 | BITS(i, 12, 12) << 5 | BITS(i, 6, 5) << 3);
	case 022:
		if (!rd)
			break;
		return out(b, l, "c.lwsp", "%s,%u(sp)", xn[rd],
			   BITS(i, 3, 2) << 6 | BITS(i, 12, 12) << 5 | BITS(i, 6, 4) << 2);
	case 023:
		if (xlen == 64) {
			if (!rd)
				break;
			return out(b, l, "c.ldsp", "%s,%u(sp)", xn[rd],
				   BITS(i, 4, 2) << 6 | BITS(i, 12, 12) << 5 | BITS(i, 6, 5) << 3);
		}
		return out(b, l, "c.flwsp", "%s,%u(sp)", fn[rd],
			   BITS(i, 3, 2) << 6 | BITS(i, 12, 12) << 5 | BITS(i, 6, 4) << 2);
	case 024:
		if (!BITS(i, 12, 12)) {
			if (!rs2)
				return rd ? out(b, l, "c.jr", "%s", xn[rd]) : unknown(b, l, i, 2);
			return out(b, l, "c.mv", "%s,%s", xn[rd], xn[rs2]);
		}
		if (!rs2) {
			if (!rd)
				return out(b, l, "c.ebreak", "%s", "");
			return out(b, l, "c.jalr", "%s", xn[rd]);
		}
		return out(b, l, "c.add", "%s,%s", xn[rd], xn[rs2]);
	case 025:
		return out(b, l, "c.fsdsp", "%s,%u(sp)", fn[rs2],
			   BITS(i, 9, 7) << 6 | BITS(i, 12, 10) << 3);
	case 026:
		return out(b, l, "c.swsp", "%s,%u(sp)", xn[rs2],
			   BITS(i, 8, 7) << 6 | BITS(i, 12, 9) << 2);
	case 027:
		if (xlen == 64)
			return out(b, l, "c.sdsp", "%s,%u(sp)", xn[rs2],
				   BITS(i, 9, 7) << 6 | BITS(i, 12, 10) << 3);
		return out(b, l, "c.fswsp", "%s,%u(sp)", fn[rs2],
			   BITS(i, 8, 7) << 6 | BITS(i, 12, 9) << 2);
	}
	return unknown(b, l, i, 2);
}

int tv_disas(uint32_t insn, uint64_t pc, unsigned int xlen, char *buf, size_t len)
{
	if ((insn & 3) != 3)
		return disas16(insn & 0xffff, pc, xlen, buf, len);
	return disas32(insn, pc, xlen, buf, len);
}

bool tv_disas_pc_relative(uint32_t insn, unsigned int xlen)
{
	unsigned int f3 = BITS(insn, 15, 13);

	if ((insn & 3) == 3)	/* jal, the conditional branches */
		return (insn & 0x7f) == 0x6f || (insn & 0x7f) == 0x63;
	/* Quadrant 1: c.jal (RV32), c.j, c.beqz, c.bnez. */
	return (insn & 3) == 1 && (f3 >= 5 || (f3 == 1 && xlen != 64));
}
