// SPDX-License-Identifier: BSD-2-Clause
/*
 * tv_plugin.c - a QEMU TCG plugin that writes the tandem-verification
 * trace (userspace/tv/) of one hart: a group per retired instruction.
 *
 *   qemu-riscv64 -plugin librvperf-tv.so,out=FILE[,xlen=64][,block=off] PROG ARGS
 *   qemu-system-riscv64 ... -plugin librvperf-tv.so,out=FILE
 *
 * What each QEMU can give.  Every plugin API level: the instruction, its
 * pc (so the next pc: increment-pc or a pc item) and the virtual address
 * of every memory access (an effective-address item).  Level 2+ (QEMU
 * 9.0): registers, read through the register API where an instruction can
 * have written them (its destination, fcsr for floating point, the CSR a
 * CSR instruction names, all of them after an ecall, the trap CSRs and
 * priv where the pc jumps without a transfer instruction).  Level 4+
 * (QEMU 9.2): memory values, so accesses become memory requests with
 * their data (and responses for loads).  FILE.cfg, written at exit, names
 * what this run could not give (absent=...), which is what the trace's
 * readers go by.
 *
 * One group is closed when the next instruction starts (then its next pc
 * is known), so an instruction's items are: begin, instruction, its memory
 * accesses (while it runs), then registers and pc at the next one.  Only
 * vCPU 0 is traced (the protocol is one hart's).
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "qemu_plugin_api.h"
#include "tv_plugin.h"
#include "userspace/tv/tv.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = 1;

/* QEMU 9.0+ refuses level 1; a level-2-only symbol says which we run on. */
__attribute__((constructor)) static void choose_api_level(void)
{
	if (qemu_plugin_register_vcpu_tb_exec_inline_per_vcpu)
		qemu_plugin_version = 2;
}

/*
 * Block mode (user mode on API level 1): a callback per translation block
 * instead of per instruction, and an inline counter add (no call) at the
 * instructions that can stop a block early (never_stops()).  When the next
 * block starts, the counter says how many of the last block's
 * instructions began; each went on to the one after it,
 * and the last one to the new block's pc, unless that pc is its own and
 * it is no transfer: then it did not retire and runs again (QEMU leaves a
 * block before an atomic it must run alone).  Each block's groups are
 * encoded once, when it is translated; memory accesses are queued while
 * it runs and merged in when it is written out.
 */
struct tb_desc {
	uint64_t started;	/* instructions begun, by the inline adds */
	uint64_t *pcs;		/* each instruction's pc */
	uint8_t *transfer;	/* each: a control transfer */
	uint64_t pc_first;
	uint64_t pc_last;	/* the last instruction's pc and length */
	unsigned int len_last;
	unsigned int n;
	bool last_transfer;
	size_t bytes;		/* the groups, the last one left open */
	uint16_t *ends;		/* ends[k]: offset after instruction k's item */
	uint8_t blob[];
};

struct mem_event {
	/* The access's instruction: its index in the block, and in the high
	 * half where its item ends in the blob (ends[]), for
	 * write_whole_block() to read without a look at ends[]. */
	uint32_t at;
	uint64_t vaddr;
};
#define MEM_INSN(e) ((e)->at & 0xffff)
#define MEM_END(e) ((e)->at >> 16)

static struct {
	int api_level;
	bool system;
	bool regs;		/* register API usable */
	bool mem_values;	/* qemu_plugin_mem_get_value usable */
	struct tv_config cfg;
	FILE *out;
	char *cfg_path;
	struct tv_buf buf;
	const struct insn_desc *cur;	/* its group is open */
	bool started;
	bool block_mode;
	const struct tb_desc *cur_tb;	/* block mode: the block running */
	struct mem_event *mem;		/* its accesses so far */
	size_t n_mem, mem_cap;
	/* Register API: handle per trace address, last value written. */
	struct qemu_plugin_register *handle[TV_NREGS];
	struct qemu_plugin_register *priv_handle;
	uint64_t last[TV_NREGS];
	bool have_last[TV_NREGS];
	uint64_t last_priv;
	/* The open group's loads (mem_access()): how many, the last value. */
	unsigned int loads, load_bytes;
	uint64_t load_data;
	struct rvp_gbytearray *rbuf;
	qemu_plugin_insn_data_v1_t insn_data_v1;
	qemu_plugin_insn_data_v3_t insn_data_v3;
} tv;

static void fail(const char *msg, const char *arg)
{
	fprintf(stderr, "rvperf tv plugin: %s%s\n", msg, arg);
}

/* ---- registers */

static bool read_reg(struct qemu_plugin_register *h, uint64_t *v)
{
	int n;

	if (!h || !tv.rbuf)
		return false;
	tv.rbuf->len = 0;	/* what g_byte_array_set_size(0) does, without the call */
	n = qemu_plugin_read_register(h, tv.rbuf);
	if (n <= 0)
		return false;
	*v = 0;
	for (int i = 0; i < n && i < 8; i++)
		*v |= (uint64_t)tv.rbuf->data[i] << (8 * i);
	return true;
}

/*
 * N bytes at the end of the output, or NULL when it has no room for them
 * (then the tv_enc_* calls grow it).  The items of every instruction are
 * written through here without a call each.
 */
static inline uint8_t *room(size_t n)
{
	uint8_t *p;

	if (tv.buf.len + n > tv.buf.cap)
		return NULL;
	p = tv.buf.data + tv.buf.len;
	tv.buf.len += n;
	return p;
}

/* A full-register item when ADDR, now V, changed since it was last written. */
static void note_value(uint16_t addr, uint64_t v)
{
	uint8_t *p;

	if (tv.have_last[addr] && tv.last[addr] == v)
		return;
	tv.last[addr] = v;
	tv.have_last[addr] = true;
	if (TV_REG_IS_GPR(addr) && tv.cfg.xlen == 64 && (p = room(11))) {
		uint16_t a = htole16(addr);
		uint64_t le = htole64(v);

		p[0] = TV_OP_FULL_REG;
		memcpy(p + 1, &a, 2);
		memcpy(p + 3, &le, 8);
		return;
	}
	tv_enc_full_reg(&tv.buf, &tv.cfg, addr, v);
}

static void note_reg(uint16_t addr)
{
	uint64_t v;

	if (addr < TV_NREGS && read_reg(tv.handle[addr], &v))
		note_value(addr, v);
}

/* Returns whether the privilege mode changed. */
static bool note_priv(void)
{
	uint64_t v;

	if (!read_reg(tv.priv_handle, &v) || v == tv.last_priv)
		return false;
	tv.last_priv = v;
	tv_enc_addl(&tv.buf, &tv.cfg, TV_AS_PRIV, v);
	return true;
}

static const uint16_t trap_csrs[] = {
	0x300, 0x341, 0x342, 0x343, 0x100, 0x141, 0x142, 0x143,
};

void tv_plugin_reg_handles(struct qemu_plugin_register **handle,
			   struct qemu_plugin_register **priv)
{
	struct rvp_garray *regs = qemu_plugin_get_registers();

	if (!regs)
		return;
	for (unsigned int i = 0; i < regs->len; i++) {
		qemu_plugin_reg_descriptor *r = &((qemu_plugin_reg_descriptor *)regs->data)[i];
		int addr;

		if (!r->name)
			continue;
		if (!strcmp(r->name, "priv")) {
			*priv = r->handle;
			continue;
		}
		addr = tv_reg_by_name(r->name);
		if (addr >= 0 && addr < TV_NREGS && !handle[addr])
			handle[addr] = r->handle;
	}
	g_array_free(regs, 1);
}

static void vcpu_init(qemu_plugin_id_t id, unsigned int vcpu_index)
{
	(void)id;
	if (vcpu_index != 0 || !tv.regs)
		return;
	tv_plugin_reg_handles(tv.handle, &tv.priv_handle);
	tv.rbuf = g_byte_array_new();
}

/* ---- output */

static __attribute__((noinline)) void flush(void)
{
	if (tv.buf.len && tv.out)
		fwrite(tv.buf.data, 1, tv.buf.len, tv.out);
	tv.buf.len = 0;
}

static bool is_trap_csr(uint16_t addr)
{
	for (size_t i = 0; i < sizeof(trap_csrs) / sizeof(trap_csrs[0]); i++)
		if (trap_csrs[i] == addr)
			return true;
	return false;
}

static void note_trap_csrs(void)
{
	for (size_t i = 0; i < sizeof(trap_csrs) / sizeof(trap_csrs[0]); i++)
		note_reg(trap_csrs[i]);
}

static bool changed(uint16_t addr)
{
	uint64_t v;

	return read_reg(tv.handle[addr], &v) && (!tv.have_last[addr] || tv.last[addr] != v);
}

/*
 * How D ended, going to NEXT_PC: a trap (pc elsewhere without a transfer
 * instruction; ecall, ebreak; a new privilege mode; a transfer whose
 * target became an xepc), and then whether it was an interrupt, taken
 * after D (QEMU takes them only between blocks, so D, which began,
 * retired); *EPC is then where D went.
 */
static void classify_exit(const struct insn_desc *d, uint64_t next_pc, bool *trap,
			  bool *interrupt, uint64_t *epc)
{
	bool jumped = next_pc != d->pc + d->len;
	uint64_t priv = 0, cause;
	uint16_t cause_csr, epc_csr;

	*trap = *interrupt = false;
	/*
	 * Without a jump only ecall/ebreak trap (a handler placed right
	 * after a faulting instruction would go unseen): then neither priv
	 * nor the trap CSRs are read, the common case.
	 */
	if (!jumped && !(d->flags & INSN_TRAPS))
		return;
	if (tv.system && read_reg(tv.priv_handle, &priv) && priv != tv.last_priv)
		*trap = true;
	if ((d->flags & INSN_TRAPS) || (jumped && !(d->flags & INSN_TRANSFER)))
		*trap = true;
	if (!tv.system)
		return;
	cause_csr = priv == 3 ? 0x342 : 0x142;
	epc_csr = priv == 3 ? 0x341 : 0x141;
	if (!*trap && jumped && (changed(cause_csr) || changed(epc_csr)))
		*trap = true;
	/* An interrupt wrote its cause and epc just now (an xret did not). */
	if (*trap && read_reg(tv.handle[cause_csr], &cause) &&
	    (cause >> (tv.cfg.xlen - 1) & 1) && !(d->flags & INSN_TRAPS) &&
	    (changed(cause_csr) || changed(epc_csr)))
		*interrupt = read_reg(tv.handle[epc_csr], epc);
}

/* Closes the open group now that the next pc is known. */
static void close_group(uint64_t next_pc)
{
	const struct insn_desc *d = tv.cur;
	bool jumped = next_pc != d->pc + d->len;
	uint64_t epc = 0;
	bool interrupt = false, trap = false;

	if (tv.regs) {
		classify_exit(d, next_pc, &trap, &interrupt, &epc);
		if (d->flags & INSN_ALL_GPRS) {
			for (int r = 1; r < 32; r++)
				note_reg(TV_REG_GPR(r));
		} else if (d->dest && d->dest == d->load_rd && tv.loads == 1 &&
			   tv.load_bytes == d->load_bytes) {
			/* Not asked of QEMU: its memory callback saw the value. */
			note_value(d->dest, tv_load_value(d, tv.load_data, tv.cfg.xlen));
		} else if (d->dest) {
			note_reg(d->dest);
		}
		if (d->flags & INSN_FP)
			note_reg(0x003);	/* fcsr */
		/*
		 * A CSR the instruction wrote; but when an interrupt came right
		 * after it, a trap CSR already holds the trap's value: the
		 * interrupt's group carries it.
		 */
		if (d->csr != 0xffff && !(interrupt && is_trap_csr(d->csr)))
			note_reg(d->csr);
		/*
		 * A trap: pc went elsewhere without a transfer instruction, an
		 * ecall or ebreak (whose handler may follow it in memory), or
		 * the privilege mode changed.  Then what a trap writes.  An
		 * interrupt gets a group of its own (no instruction), after
		 * the instruction's.
		 */
		if (trap && !interrupt) {
			note_priv();
			note_trap_csrs();
		}
	}
	if (interrupt) {
		if (epc == d->pc + d->len)
			tv_enc_op(&tv.buf, TV_OP_INCR_PC);
		else
			tv_enc_addl(&tv.buf, &tv.cfg, TV_AS_PC, epc);
		tv_enc_op(&tv.buf, TV_OP_END_GROUP);
		tv_enc_op(&tv.buf, TV_OP_BEGIN_GROUP);
		tv_enc_addl(&tv.buf, &tv.cfg, TV_AS_PC, next_pc);
		note_priv();
		/* All of them, changed or not: the interrupt's whole effect. */
		for (size_t i = 0; i < sizeof(trap_csrs) / sizeof(trap_csrs[0]); i++)
			tv.have_last[trap_csrs[i]] = false;
		note_trap_csrs();
		note_reg(0x344);	/* mip, which the interrupt came from */
	} else if (jumped) {
		tv_enc_addl(&tv.buf, &tv.cfg, TV_AS_PC, next_pc);
	} else {
		uint8_t *p = room(2);

		if (p) {
			p[0] = TV_OP_INCR_PC;
			p[1] = TV_OP_END_GROUP;
			goto ended;
		}
		tv_enc_op(&tv.buf, TV_OP_INCR_PC);
	}
	tv_enc_op(&tv.buf, TV_OP_END_GROUP);
ended:
	tv.cur = NULL;
	if (tv.buf.len > (1u << 20))
		flush();
}

/* The state a program starts with: a state-initialisation group. */
static void start(uint64_t pc)
{
	tv_enc_op(&tv.buf, TV_OP_BEGIN_GROUP);
	tv_enc_op(&tv.buf, TV_OP_STATE_INIT);
	tv_enc_addl(&tv.buf, &tv.cfg, TV_AS_PC, pc);
	if (!tv.system) {
		tv_enc_addl(&tv.buf, &tv.cfg, TV_AS_PRIV, 0);	/* user mode */
	} else if (tv.regs) {
		tv.last_priv = ~0ull;
		note_priv();
	}
	if (tv.regs) {
		for (int r = 1; r < 32; r++)
			note_reg(TV_REG_GPR(r));
		for (int r = 0; r < 32; r++)
			note_reg(TV_REG_FPR(r));
		note_reg(0x003);
		for (size_t i = 0; i < sizeof(trap_csrs) / sizeof(trap_csrs[0]); i++)
			note_reg(trap_csrs[i]);
	}
	tv_enc_op(&tv.buf, TV_OP_END_GROUP);
	tv.started = true;
}

static void insn_exec(unsigned int vcpu_index, void *udata)
{
	const struct insn_desc *d = udata;
	uint8_t *p;

	if (vcpu_index != 0)
		return;
	if (tv.cur)
		close_group(d->pc);
	else if (!tv.started)
		start(d->pc);
	p = room(6);
	if (p) {
		uint32_t le = htole32(d->word);

		/* begin-group, then the instruction item (the 16-bit one is
		 * two bytes shorter: the room taken back). */
		p[0] = TV_OP_BEGIN_GROUP;
		p[1] = (d->word & 3) != 3 ? TV_OP_INSN16 : TV_OP_INSN32;
		memcpy(p + 2, &le, 4);
		if ((d->word & 3) != 3)
			tv.buf.len -= 2;
	} else {
		tv_enc_op(&tv.buf, TV_OP_BEGIN_GROUP);
		tv_enc_insn(&tv.buf, d->word);
	}
	tv.cur = d;
	tv.loads = 0;
}

/* NBYTES (4 or 8) little-endian bytes of V at P, in one store (a pc item
 * after every taken branch: a byte at a time, it was a third of a
 * register loop's recording). */
static inline uint8_t *put_le(uint8_t *p, uint64_t v, unsigned int nbytes)
{
	if (nbytes == 8) {
		uint64_t le = htole64(v);

		memcpy(p, &le, 8);
	} else {
		uint32_t le = htole32((uint32_t)v);

		memcpy(p, &le, 4);
	}
	return p + nbytes;
}

/* N bytes from S to D, in 16-byte moves: both have 15 bytes to spare
 * (tb_trans() allocates the blob so, write_whole_block() checks room). */
static inline uint8_t *copy_short(uint8_t *d, const uint8_t *s, size_t n)
{
	memcpy(d, s, 16);	/* most runs between accesses are shorter */
	for (size_t i = 16; __builtin_expect(i < n, 0); i += 16)
		memcpy(d + i, s + i, 16);
	return d + n;
}

static __attribute__((noinline)) bool grow_mem(void)
{
	size_t cap = tv.mem_cap ? 2 * tv.mem_cap : 1024;
	struct mem_event *p = realloc(tv.mem, cap * sizeof(*p));

	if (!p)
		return false;
	tv.mem = p;
	tv.mem_cap = cap;
	return true;
}

/* Block mode: the access is queued for write_block(); udata: its
 * instruction (struct mem_event's at). */
static void mem_access_block(unsigned int vcpu_index, qemu_plugin_meminfo_t info,
			     uint64_t vaddr, void *udata)
{
	(void)info;
	if (vcpu_index != 0)
		return;
	if (__builtin_expect(tv.n_mem == tv.mem_cap, 0) && !grow_mem())
		return;
	tv.mem[tv.n_mem].at = (uint32_t)(uintptr_t)udata;
	tv.mem[tv.n_mem++].vaddr = vaddr;
}

static void mem_access(unsigned int vcpu_index, qemu_plugin_meminfo_t info,
		       uint64_t vaddr, void *udata)
{
	unsigned int shift;
	bool store;

	(void)udata;
	if (vcpu_index != 0)
		return;
	shift = qemu_plugin_mem_size_shift(info);
	store = qemu_plugin_mem_is_store(info);
	if (!tv.cur)
		return;
	if (!tv.mem_values || shift > 3) {
		tv_enc_addl(&tv.buf, &tv.cfg, TV_AS_EADDR, vaddr);
		return;
	}
	{
		qemu_plugin_mem_value v = qemu_plugin_mem_get_value(info);
		uint64_t data = shift == 0 ? v.data.u8 : shift == 1 ? v.data.u16
			      : shift == 2 ? v.data.u32 : v.data.u64;

		if (store) {
			tv_enc_mem_req(&tv.buf, &tv.cfg, vaddr, TV_MEM_STORE, shift, data);
		} else {
			tv_enc_mem_req(&tv.buf, &tv.cfg, vaddr, TV_MEM_LOAD, shift, 0);
			tv_enc_mem_rsp(&tv.buf, shift, 0, true, data);
			tv.loads++;
			tv.load_data = data;
			tv.load_bytes = 1u << shift;
		}
	}
}

/* ---- translation */

static uint32_t insn_word(const struct qemu_plugin_insn *insn)
{
	uint8_t b[4] = { 0 };
	size_t n = qemu_plugin_insn_size(insn);

	if (n > 4)
		n = 4;
	if (tv.insn_data_v3) {
		tv.insn_data_v3(insn, b, n);
	} else {
		const uint8_t *p = tv.insn_data_v1(insn);

		memcpy(b, p, n);
	}
	return b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24;
}

/* D's load_* fields. */
static void describe_load(struct insn_desc *d, unsigned int xlen)
{
	uint32_t i = d->word;
	uint16_t dest = tv_insn_load_dest(i, xlen);

	if (!TV_REG_IS_GPR(dest))
		return;
	if ((i & 3) == 3) {
		unsigned int f3 = i >> 12 & 7;	/* lb lh lw ld lbu lhu lwu */

		if (f3 == 7 || (f3 == 3 && xlen == 32) || (f3 == 6 && xlen == 32))
			return;		/* no such load */
		d->load_bytes = (uint8_t)(1u << (f3 & 3));
		d->load_signed = f3 < 4;
	} else {
		/* c.lw, c.lwsp; c.ld, c.ldsp (RV64) */
		d->load_bytes = (i >> 13 & 7) == 2 ? 4 : 8;
		d->load_signed = true;
	}
	d->load_rd = dest;
}

/* Which registers an instruction can write (RV64GC). */
void tv_insn_describe(struct insn_desc *d, unsigned int xlen)
{
	uint32_t i = d->word;
	unsigned int rd = i >> 7 & 31;

	d->csr = 0xffff;
	if ((i & 3) != 3) {
		unsigned int q = i & 3, f3 = i >> 13 & 7;

		if (q == 0 && (f3 == 1 || (f3 == 3 && xlen == 32)))
			d->dest = TV_REG_FPR(8 + (i >> 2 & 7));		/* c.fld/c.flw */
		else if (q == 0 && f3 <= 3)
			d->dest = TV_REG_GPR(8 + (i >> 2 & 7));
		else if (q == 1 && f3 == 4)
			d->dest = TV_REG_GPR(8 + (i >> 7 & 7));
		else if (q == 1 && (f3 == 0 || f3 == 2 || f3 == 3 || (f3 == 1 && xlen == 64)))
			d->dest = TV_REG_GPR(rd);
		else if (q == 1 && f3 == 1)
			d->dest = TV_REG_GPR(1), d->flags |= INSN_TRANSFER;	/* c.jal */
		else if (q == 1)
			d->flags |= INSN_TRANSFER;			/* c.j, c.beqz/bnez */
		else if (q == 2 && (f3 == 1 || (f3 == 3 && xlen == 32)))
			d->dest = TV_REG_FPR(rd);
		else if (q == 2 && f3 <= 3)
			d->dest = TV_REG_GPR(rd);
		else if (q == 2 && f3 == 4) {
			unsigned int rs2 = i >> 2 & 31;

			if (rs2)
				d->dest = TV_REG_GPR(rd);		/* c.mv, c.add */
			else if ((i >> 12 & 1) && rd)
				d->dest = TV_REG_GPR(1),
				d->flags |= INSN_TRANSFER;		/* c.jalr */
			else if (i >> 12 & 1)
				d->flags |= INSN_TRAPS;			/* c.ebreak */
			else
				d->flags |= INSN_TRANSFER;		/* c.jr */
		}
		if (d->dest == TV_REG_GPR(0))
			d->dest = 0;
		return;
	}
	switch (i & 0x7f) {
	case 0x37: case 0x17: case 0x03: case 0x13: case 0x1b: case 0x33: case 0x3b:
	case 0x2f:
		d->dest = TV_REG_GPR(rd);
		break;
	case 0x6f: case 0x67:
		d->dest = TV_REG_GPR(rd);
		d->flags |= INSN_TRANSFER;
		break;
	case 0x63:
		d->flags |= INSN_TRANSFER;
		break;
	case 0x07:
		d->dest = TV_REG_FPR(rd);
		break;
	case 0x43: case 0x47: case 0x4b: case 0x4f:
		d->dest = TV_REG_FPR(rd);
		d->flags |= INSN_FP;
		break;
	case 0x53: {
		unsigned int f5 = i >> 27;

		/* compares, fclass, fmv.x, fcvt to integer write a GPR */
		d->dest = (f5 == 0x14 || f5 == 0x18 || f5 == 0x1c) ? TV_REG_GPR(rd) : TV_REG_FPR(rd);
		d->flags |= INSN_FP;
		break;
	}
	case 0x73:
		if ((i >> 12 & 7) != 0) {
			unsigned int f3 = i >> 12 & 7, src = i >> 15 & 31;

			d->dest = TV_REG_GPR(rd);
			/* csrrw* always write the CSR, the others unless x0/0 */
			if (f3 == 1 || f3 == 5 || src)
				d->csr = (uint16_t)(i >> 20);
			if ((i >> 20) <= 3)
				d->flags |= INSN_FP;	/* fflags/frm/fcsr */
		} else if (i == 0x00000073) {
			d->flags |= INSN_ALL_GPRS | INSN_TRAPS;	/* ecall */
		} else if (i == 0x00100073) {
			d->flags |= INSN_TRAPS;		/* ebreak */
		} else if (i == 0x30200073 || i == 0x10200073) {
			d->flags |= INSN_TRANSFER;	/* mret, sret */
			d->csr = i == 0x30200073 ? 0x300 : 0x100;
		}
		break;
	}
	if (d->dest == TV_REG_GPR(0))
		d->dest = 0;
	describe_load(d, xlen);
}

/* Writes the running block's groups; ENDED: the run ended in it. */
static __attribute__((noinline)) void write_block(uint64_t next_pc, bool ended)
{
	const struct tb_desc *t = tv.cur_tb;
	unsigned int n = t->started < t->n ? (unsigned int)t->started : t->n;
	size_t from = 0, to;
	uint64_t last_pc;

	if (n == 0)
		return;
	/* The last one began but comes again: it did not retire. */
	if (!ended && next_pc == t->pcs[n - 1] && !t->transfer[n - 1]) {
		if (--n == 0)
			return;
	}
	last_pc = t->pcs[n - 1];
	to = t->ends[n - 1];
	for (size_t i = 0; i < tv.n_mem; i++) {
		/* The groups up to the access's instruction item, then it. */
		size_t upto;

		if (MEM_INSN(&tv.mem[i]) >= n)
			break;	/* the instruction that did not retire */
		upto = MEM_END(&tv.mem[i]);
		if (upto > from) {
			tv_enc_raw(&tv.buf, t->blob + from, upto - from);
			from = upto;
		}
		tv_enc_addl(&tv.buf, &tv.cfg, TV_AS_EADDR, tv.mem[i].vaddr);
	}
	tv_enc_raw(&tv.buf, t->blob + from, to - from);
	tv.n_mem = 0;
	if (!ended) {
		unsigned int len = n == t->n ? t->len_last
				 : (unsigned int)(t->pcs[n] - last_pc);

		if (next_pc == last_pc + len)
			tv_enc_op(&tv.buf, TV_OP_INCR_PC);
		else
			tv_enc_addl(&tv.buf, &tv.cfg, TV_AS_PC, next_pc);
	}
	tv_enc_op(&tv.buf, TV_OP_END_GROUP);
	if (tv.buf.len > (1u << 20))
		flush();
}

/*
 * The common case of write_block(): the whole block ran (its last
 * instruction began and the next block is not that instruction again) and
 * the buffer has room: its groups as translated, each memory access's
 * effective address after its instruction's item, then the last one's pc
 * item and end.  Nothing is kept unless all of it is written.
 */
static inline bool write_whole_block(const struct tb_desc *t, uint64_t next_pc)
{
	size_t n_mem = tv.n_mem, from = 0;
	unsigned int addr_bytes = tv_mlen_bytes(&tv.cfg);
	uint8_t *p;

	if (t->started != t->n ||
	    tv.buf.len + t->bytes + n_mem * 10 + 32 > tv.buf.cap ||
	    (next_pc == t->pc_last && !t->last_transfer))
		return false;
	p = tv.buf.data + tv.buf.len;
	for (size_t i = 0; i < n_mem; i++) {
		size_t upto = MEM_END(&tv.mem[i]);

		if (upto < from)
			return false;
		p = copy_short(p, t->blob + from, upto - from);
		from = upto;
		/* The effective-address item, as tv_enc_addl writes it;
		 * 8 bytes stored, addr_bytes kept. */
		*p++ = TV_OP_ADDL_STATE;
		*p++ = TV_AS_EADDR;
		put_le(p, tv.mem[i].vaddr, 8);
		p += addr_bytes;
	}
	p = copy_short(p, t->blob + from, t->bytes - from);
	if (next_pc == t->pc_last + t->len_last) {
		*p++ = TV_OP_INCR_PC;
	} else {
		/* The pc item, as tv_enc_addl writes it. */
		*p++ = TV_OP_ADDL_STATE;
		*p++ = TV_AS_PC;
		p = put_le(p, next_pc, tv.cfg.xlen / 8);
	}
	*p++ = TV_OP_END_GROUP;
	tv.buf.len = (size_t)(p - tv.buf.data);
	tv.n_mem = 0;
	if (tv.buf.len > (1u << 20))
		flush();
	return true;
}

static void tb_exec(unsigned int vcpu_index, void *udata)
{
	struct tb_desc *t = udata;
	const struct tb_desc *c = tv.cur_tb;

	if (vcpu_index != 0)
		return;
	if (__builtin_expect(c != NULL, 1)) {
		if (!write_whole_block(c, t->pc_first))
			write_block(t->pc_first, false);
	} else if (!tv.started) {
		start(t->pc_first);
	}
	tv.cur_tb = t;
	t->started = 0;
}

/*
 * Block mode counts only at the instructions that can leave a block
 * early, and at its last one, adding at each how many instructions began
 * since the one counted before: started ends the same as with an add at
 * every instruction.  An instruction that never stops its block has no
 * runtime trap: the integer ALU (RV64I, M, and what else QEMU decodes in
 * OP, OP-IMM, OP-32, OP-IMM-32), LUI, AUIPC, jumps and branches (with C,
 * no target is misaligned), and their compressed forms.  An encoding QEMU
 * cannot decode ends the block (QEMU raises the exception there), so it
 * is a block's last instruction, counted anyway.  Loads, stores, atomics,
 * floating point (a dynamic rounding mode can be illegal), CSRs and
 * system instructions are counted.
 */
static bool never_stops(uint32_t word, unsigned int len)
{
	if (len == 2) {
		unsigned int f3 = (word >> 13) & 7;

		switch (word & 3) {
		case 0:		/* c.addi4spn; the rest load or store */
			return f3 == 0 && (word & 0xffff) != 0;
		case 1:		/* c.addi ... c.bnez */
			return true;
		default:	/* c.slli; c.jr, c.mv, c.jalr, c.add, not c.ebreak */
			return f3 == 0 || (f3 == 4 && (word & 0xffff) != 0x9002);
		}
	}
	switch (word & 0x7f) {
	case 0x13: case 0x1b: case 0x33: case 0x3b:	/* OP-IMM(-32), OP(-32) */
	case 0x37: case 0x17:				/* LUI, AUIPC */
	case 0x63: case 0x6f: case 0x67:		/* BRANCH, JAL, JALR */
		return true;
	default:
		return false;
	}
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);
	enum qemu_plugin_cb_flags flags = tv.regs ? QEMU_PLUGIN_CB_R_REGS : QEMU_PLUGIN_CB_NO_REGS;

	(void)id;
	if (tv.block_mode) {
		/* begin, instruction, increment pc, end: 9 bytes at most */
		struct tb_desc *t = malloc(sizeof(*t) + 9 * n + 16);
		size_t at = 0, counted = (size_t)-1;

		if (!t || !(t->ends = malloc(n * sizeof(*t->ends))) ||
		    !(t->pcs = malloc(n * sizeof(*t->pcs))) || !(t->transfer = malloc(n))) {
			free(t);
			return;
		}
		t->n = (unsigned int)n;
		for (size_t k = 0; k < n; k++) {
			struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, k);
			unsigned int len = (unsigned int)qemu_plugin_insn_size(insn);
			uint32_t word = insn_word(insn);

			struct insn_desc kind = { .word = word };

			tv_insn_describe(&kind, tv.cfg.xlen);
			t->pcs[k] = qemu_plugin_insn_vaddr(insn);
			t->transfer[k] = (kind.flags & (INSN_TRANSFER | INSN_TRAPS)) != 0;
			if (k == 0)
				t->pc_first = qemu_plugin_insn_vaddr(insn);
			if (k + 1 == n) {
				t->pc_last = qemu_plugin_insn_vaddr(insn);
				t->len_last = len;
				t->last_transfer = t->transfer[k];
			}
			t->blob[at++] = TV_OP_BEGIN_GROUP;
			t->blob[at++] = len == 2 ? TV_OP_INSN16 : TV_OP_INSN32;
			for (unsigned int b = 0; b < (len == 2 ? 2u : 4u); b++)
				t->blob[at++] = (uint8_t)(word >> (8 * b));
			t->ends[k] = (uint16_t)at;
			if (k + 1 < n) {
				t->blob[at++] = TV_OP_INCR_PC;
				t->blob[at++] = TV_OP_END_GROUP;
			}
			if (k + 1 == n || !never_stops(word, len)) {
				qemu_plugin_register_vcpu_insn_exec_inline(insn,
					QEMU_PLUGIN_INLINE_ADD_U64, &t->started,
					k - counted);
				counted = k;
			}
			qemu_plugin_register_vcpu_mem_cb(insn, mem_access_block,
							 QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW,
							 (void *)(uintptr_t)(k | (size_t)t->ends[k] << 16));
		}
		t->bytes = at;
		qemu_plugin_register_vcpu_tb_exec_cb(tb, tb_exec, QEMU_PLUGIN_CB_NO_REGS, t);
		return;
	}
	for (size_t k = 0; k < n; k++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, k);
		struct insn_desc *d = calloc(1, sizeof(*d));

		/* Kept for the life of the run: QEMU may run the block again. */
		if (!d)
			return;
		d->pc = qemu_plugin_insn_vaddr(insn);
		d->len = (uint8_t)qemu_plugin_insn_size(insn);
		d->word = insn_word(insn);
		if (d->len == 2)
			d->word &= 0xffff;
		tv_insn_describe(d, tv.cfg.xlen);
		qemu_plugin_register_vcpu_insn_exec_cb(insn, insn_exec, flags, d);
		qemu_plugin_register_vcpu_mem_cb(insn, mem_access, flags, QEMU_PLUGIN_MEM_RW, NULL);
	}
}

static void at_exit(qemu_plugin_id_t id, void *udata)
{
	char line[200];
	FILE *f;

	(void)id;
	(void)udata;
	if (tv.cur_tb) {
		write_block(0, true);	/* the exit system call's block */
		tv.cur_tb = NULL;
	}
	if (tv.cur) {
		/* The last instruction (exit's ecall): no next pc. */
		tv_enc_op(&tv.buf, TV_OP_END_GROUP);
		tv.cur = NULL;
	}
	flush();
	if (tv.out)
		fclose(tv.out);
	tv.out = NULL;
	f = tv.cfg_path ? fopen(tv.cfg_path, "w") : NULL;
	if (f) {
		tv_config_format(&tv.cfg, line, sizeof(line));
		fprintf(f, "%s\n", line);
		fclose(f);
	}
	tv_buf_free(&tv.buf);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					   int argc, char **argv)
{
	const char *out = NULL;
	bool blocks = true;

	if (strcmp(info->target_name, "riscv64") && strcmp(info->target_name, "riscv32")) {
		fail("target is not RISC-V: ", info->target_name);
		return -1;
	}
	for (int i = 0; i < argc; i++)
		if (!strncmp(argv[i], "verify=", 7) || !strncmp(argv[i], "probe=", 6))
			return tv_verify_install(id, info, argc, argv);
	tv.api_level = info->version.cur;
	tv.system = info->system_emulation;
	tv_config_default(&tv.cfg);
	if (!strcmp(info->target_name, "riscv32"))
		tv.cfg.xlen = tv.cfg.mlen = 32;
	for (int i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4)) {
			out = argv[i] + 4;
		} else if (!strncmp(argv[i], "xlen=", 5)) {
			tv.cfg.xlen = (unsigned int)atoi(argv[i] + 5);
			if (tv.cfg.xlen != 32 && tv.cfg.xlen != 64) {
				fail("xlen is 32 or 64, not ", argv[i] + 5);
				return -1;
			}
			tv.cfg.mlen = tv.cfg.xlen;
		} else if (!strcmp(argv[i], "block=off")) {
			blocks = false;		/* a callback per instruction */
		} else {
			fail("unknown argument ", argv[i]);
			return -1;
		}
	}
	if (!out) {
		fail("no out=FILE given", "");
		return -1;
	}
	if (tv.api_level >= 3)
		tv.insn_data_v3 = (qemu_plugin_insn_data_v3_t)(void *)qemu_plugin_insn_data;
	else
		tv.insn_data_v1 = (qemu_plugin_insn_data_v1_t)(void *)qemu_plugin_insn_data;
	tv.regs = tv.api_level >= 2 && qemu_plugin_get_registers && qemu_plugin_read_register &&
		  g_byte_array_new && g_byte_array_set_size;
	tv.mem_values = tv.api_level >= 4 && qemu_plugin_mem_get_value;
	tv.block_mode = blocks && !tv.system && !tv.regs && !tv.mem_values &&
			qemu_plugin_register_vcpu_insn_exec_inline;
	/* What this QEMU cannot give. */
	tv.cfg.absent = TV_EL_PADDR | TV_EL_STDATA | TV_EL_MTIME | TV_EL_PC_PADDR;
	if (!tv.regs)
		tv.cfg.absent |= TV_EL_GPR | TV_EL_FPR | TV_EL_CSR | (tv.system ? TV_EL_PRIV : 0);
	if (tv.mem_values)
		tv.cfg.absent |= TV_EL_EADDR;
	else
		tv.cfg.absent |= TV_EL_MEM;
	if (!strncmp(out, "fd:", 3)) {
		/* A pipe rvperf tv record -o - hands over; no FILE.cfg. */
		tv.out = fdopen(atoi(out + 3), "wb");
	} else {
		tv.out = fopen(out, "wb");
		tv.cfg_path = malloc(strlen(out) + 5);
		if (tv.cfg_path)
			sprintf(tv.cfg_path, "%s.cfg", out);
	}
	if (!tv.out || (strncmp(out, "fd:", 3) && !tv.cfg_path)) {
		fail("cannot write ", out);
		return -1;
	}
	/*
	 * In user mode the guest's open() shares QEMU's descriptors: the
	 * trace's goes above the ones a program gets, so that its open()s
	 * return what they return without the plugin (verify's plugin takes
	 * none either).
	 */
	{
		int high = fcntl(fileno(tv.out), F_DUPFD_CLOEXEC, TV_PLUGIN_FD_MIN);

		if (high >= 0) {
			FILE *f = fdopen(high, "wb");

			if (f) {
				fclose(tv.out);
				tv.out = f;
			} else {
				close(high);
			}
		}
	}
	if (tv.regs)
		qemu_plugin_register_vcpu_init_cb(id, vcpu_init);
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
