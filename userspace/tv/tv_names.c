// SPDX-License-Identifier: BSD-2-Clause
/*
 * tv_names.c - names of register addresses (the Debug spec's 16-bit space:
 * CSRs at their own number, GPRs at 0x1000, FPRs at 0x1020), opcodes,
 * additional-state identifiers and memory operations.
 */
#include "tv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tv_fmt.h"

static const char *const gpr_abi[32] = {
	"zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2",
	"s0", "s1", "a0", "a1", "a2", "a3", "a4", "a5",
	"a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7",
	"s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6",
};

static const char *const fpr_abi[32] = {
	"ft0", "ft1", "ft2", "ft3", "ft4", "ft5", "ft6", "ft7",
	"fs0", "fs1", "fa0", "fa1", "fa2", "fa3", "fa4", "fa5",
	"fa6", "fa7", "fs2", "fs3", "fs4", "fs5", "fs6", "fs7",
	"fs8", "fs9", "fs10", "fs11", "ft8", "ft9", "ft10", "ft11",
};

/*
 * The CSRs of the privileged spec a trace is likely to carry, as one list
 * for the name of an address (a switch: the listing names a register on
 * every line) and the address of a name.
 */
#define CSR_NAMES \
	X(0x001, "fflags") X(0x002, "frm") X(0x003, "fcsr") \
	X(0x015, "seed") X(0xc00, "cycle") X(0xc01, "time") \
	X(0xc02, "instret") X(0xc80, "cycleh") X(0xc81, "timeh") \
	X(0xc82, "instreth") X(0x100, "sstatus") X(0x104, "sie") \
	X(0x105, "stvec") X(0x106, "scounteren") X(0x10a, "senvcfg") \
	X(0x140, "sscratch") X(0x141, "sepc") X(0x142, "scause") \
	X(0x143, "stval") X(0x144, "sip") X(0x14d, "stimecmp") \
	X(0x180, "satp") X(0x300, "mstatus") X(0x301, "misa") \
	X(0x302, "medeleg") X(0x303, "mideleg") X(0x304, "mie") \
	X(0x305, "mtvec") X(0x306, "mcounteren") X(0x30a, "menvcfg") \
	X(0x310, "mstatush") X(0x320, "mcountinhibit") X(0x340, "mscratch") \
	X(0x341, "mepc") X(0x342, "mcause") X(0x343, "mtval") \
	X(0x344, "mip") X(0x34a, "mtinst") X(0x34b, "mtval2") \
	X(0x3a0, "pmpcfg0") X(0x3a2, "pmpcfg2") X(0x3b0, "pmpaddr0") \
	X(0x7a0, "tselect") X(0x7a1, "tdata1") X(0x7a2, "tdata2") \
	X(0x7b0, "dcsr") X(0x7b1, "dpc") X(0x7b2, "dscratch0") \
	X(0xb00, "mcycle") X(0xb02, "minstret") X(0xb80, "mcycleh") \
	X(0xb82, "minstreth") X(0xf11, "mvendorid") X(0xf12, "marchid") \
	X(0xf13, "mimpid") X(0xf14, "mhartid") X(0xf15, "mconfigptr")

static const char *csr_name(uint16_t addr)
{
	switch (addr) {
#define X(a, n) case a: return n;
	CSR_NAMES
#undef X
	}
	return NULL;
}

static const struct {
	uint16_t addr;
	const char *name;
} csr_names[] = {
#define X(a, n) { a, n },
	CSR_NAMES
#undef X
};

const char *tv_reg_name(uint16_t addr, char *buf, size_t len)
{
	char tmp[24], *p = tmp;
	const char *name;
	size_t n;

	if (TV_REG_IS_GPR(addr)) {
		*p++ = 'x';
		p = fmt_udec(p, addr - 0x1000u);
		*p++ = '/';
		p = fmt_str(p, gpr_abi[addr - 0x1000]);
	} else if (TV_REG_IS_FPR(addr)) {
		*p++ = 'f';
		p = fmt_udec(p, addr - 0x1020u);
		*p++ = '/';
		p = fmt_str(p, fpr_abi[addr - 0x1020]);
	} else if (addr < 0x1000 && (name = csr_name(addr))) {
		p = fmt_str(p, name);
	} else {
		p = fmt_str(p, addr < 0x1000 ? "csr0x" : "reg0x");
		p = fmt_hex(p, addr, addr < 0x1000 ? 3 : 4);
	}
	/* As snprintf would: what fits, and a NUL. */
	if (len) {
		n = (size_t)(p - tmp) < len ? (size_t)(p - tmp) : len - 1;
		memcpy(buf, tmp, n);
		buf[n] = 0;
	}
	return buf;
}

int tv_reg_by_name(const char *name)
{
	char *end;
	unsigned long n;

	for (int i = 0; i < 32; i++) {
		if (strcmp(name, gpr_abi[i]) == 0)
			return TV_REG_GPR(i);
		if (strcmp(name, fpr_abi[i]) == 0)
			return TV_REG_FPR(i);
	}
	if (strcmp(name, "fp") == 0)
		return TV_REG_GPR(8);
	if ((name[0] == 'x' || name[0] == 'f') && name[1] >= '0' && name[1] <= '9') {
		n = strtoul(name + 1, &end, 10);
		if (!*end && n < 32)
			return name[0] == 'x' ? TV_REG_GPR(n) : TV_REG_FPR(n);
	}
	for (size_t i = 0; i < sizeof(csr_names) / sizeof(csr_names[0]); i++)
		if (strcmp(name, csr_names[i].name) == 0)
			return csr_names[i].addr;
	if (strncmp(name, "csr", 3) == 0) {
		n = strtoul(name + 3, &end, 0);
		if (name[3] && !*end && n < 0x1000)
			return (int)n;
	}
	return -1;
}

const char *tv_op_name(unsigned int op)
{
	switch (op) {
	case TV_OP_BEGIN_GROUP: return "begin group";
	case TV_OP_END_GROUP: return "end group";
	case TV_OP_INCR_PC: return "increment pc";
	case TV_OP_FULL_REG: return "full register";
	case TV_OP_INCR_REG_ADD: return "incremental register (add)";
	case TV_OP_INCR_REG_OR: return "incremental register (or)";
	case TV_OP_ADDL_STATE: return "additional state";
	case TV_OP_MEM_REQ: return "memory request";
	case TV_OP_MEM_RSP: return "memory response";
	case TV_OP_HART_RESET: return "hart reset";
	case TV_OP_STATE_INIT: return "state initialization";
	case TV_OP_INSN16: return "16-bit instruction";
	case TV_OP_INSN32: return "32-bit instruction";
	default: return "unknown";
	}
}

const char *tv_addl_name(unsigned int id)
{
	switch (id) {
	case TV_AS_PRIV: return "priv";
	case TV_AS_PADDR: return "paddr";
	case TV_AS_EADDR: return "eaddr";
	case TV_AS_STORE8: return "stdata8";
	case TV_AS_STORE16: return "stdata16";
	case TV_AS_STORE32: return "stdata32";
	case TV_AS_STORE64: return "stdata64";
	case TV_AS_MTIME: return "mtime";
	case TV_AS_PC_PADDR: return "pc-paddr";
	case TV_AS_PC: return "pc";
	default: return "unknown";
	}
}

const char *tv_mem_op_name(unsigned int op)
{
	static const char *const names[] = {
		"load", "store", "lr", "sc", "amoswap", "amoadd", "amoxor",
		"amoand", "amoor", "amomin", "amomax", "amominu", "amomaxu",
		"fetch",
	};

	return op < sizeof(names) / sizeof(names[0]) ? names[op] : "unknown";
}
