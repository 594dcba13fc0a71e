// SPDX-License-Identifier: BSD-2-Clause
/*
 * tv_verify.c - the trace plugin's verifier mode: tandem verification with
 * QEMU running the program at its own speed, the trace under test read as
 * a stream (userspace/tv/tv_verify_plugin.h; rvperf tv verify starts it).
 *
 *   qemu-riscv64 -plugin librvperf-tv.so,verify=FD,report=FD[,...] PROG ARGS
 *
 * At each instruction QEMU is about to run, the one before it has
 * retired: its group's effects (the shadow state, userspace/tv/tv_shadow.c)
 * are compared with QEMU's: the pc QEMU went to, the registers the group
 * names and those the instruction can write (its destination, the CSR it
 * names, fcsr), privilege where the group names it, and memory the group
 * names or QEMU stored (from the memory callbacks' values).  A difference
 * is reported and resynchronised: the trace's value goes into QEMU
 * (QEMU_PLUGIN_CB_RW_REGS, plugin API level 5), or with resync=reference
 * QEMU's into the shadow state.  Then the next group is read: groups
 * without an instruction (state initialisation) go into QEMU, the
 * instruction must be the one QEMU is at, and the declared
 * non-deterministic registers the group carries go into QEMU before it
 * runs (the specification's resync).
 *
 * What the plugin API cannot do: move QEMU's pc (a register write does
 * not leave the translated block), so a pc difference is always resolved
 * by the shadow state taking QEMU's pc, and an interrupt in the trace
 * cannot be given to QEMU (it is reported); nor reset the hart.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "qemu_plugin_api.h"
#include "tv_plugin.h"
#include "userspace/tv/tv.h"
#include "userspace/tv/tv_verify_plugin.h"

/*
 * A translated instruction as the verifier keeps it: what it may write,
 * found once when QEMU translates it, not each time it runs.
 */
struct vinsn {
	struct insn_desc d;
	uint16_t csr_rd;	/* a CSR read's destination GPR, 0: not one */
	uint16_t csr_read;	/* the CSR it reads */
	bool amo;		/* an AMO (not lr/sc) */
};

/* Memory accesses of one instruction kept for the comparison. */
#define MAX_ACCESSES 8
struct access {
	uint64_t vaddr, value;
	uint8_t size;
	bool store;
};

static struct {
	bool system;
	bool resync_reference;
	enum tv_mode mode;
	uint64_t max;
	struct tv_nondet nondet;
	int trace_fd, report_fd;
	struct tv_decoder dec;
	struct tv_group grp;
	struct tv_shadow sh;
	/* The instruction running now and its group, compared at the next. */
	const struct vinsn *cur;
	uint64_t cur_group, cur_offset;
	struct access acc[MAX_ACCESSES];
	unsigned int n_acc;
	uint64_t groups, insns, divergences;
	bool done;
	/* User mode: the kernel's and loader's inputs (user_inputs=1). */
	bool user_inputs, at_random_done, syscall_input;
	/* QEMU took an interrupt after the last instruction: the trace's
	 * next group must be one. */
	bool qemu_irq;
	/* The register the instruction wrote from an input, or NO_REG. */
	uint16_t input;
	/* Registers compared (present in the trace, not declared
	 * non-deterministic): one bit each, set up at install. */
	uint8_t reg_compared[TV_NREGS / 8];
	uint8_t reg_nondet[TV_NREGS / 8];	/* declared non-deterministic */
	bool mem_compared;	/* memory present, not declared as a whole */
	bool pc_compared, eaddr_compared;	/* the same for pc, addresses */
	bool any_reg_nondet;	/* some register declared non-deterministic */
	struct qemu_plugin_register *handle[TV_NREGS];
	uint8_t reg_size[TV_NREGS];
	struct qemu_plugin_register *priv_handle;
	struct rvp_gbytearray *buf;
	qemu_plugin_insn_data_v3_t insn_data;
	uint8_t chunk[1 << 16];
} v;

static void fail(const char *msg, const char *arg)
{
	fprintf(stderr, "rvperf tv plugin: %s%s\n", msg, arg);
}

/* ---- reports */

static void send_rec(const struct tv_vrec *r)
{
	const char *p = (const char *)r;
	size_t n = sizeof(*r);

	while (n) {
		ssize_t k = write(v.report_fd, p, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			_exit(1);	/* rvperf is gone: nobody to verify for */
		p += k;
		n -= (size_t)k;
	}
}

/* The end: the counts go to rvperf and QEMU stops here. */
static __attribute__((noreturn)) void finish_run(void)
{
	struct tv_vrec r = { .type = TV_VREC_END };

	r.group = v.groups;
	r.a = v.insns;
	r.b = v.divergences;
	send_rec(&r);
	close(v.report_fd);
	_exit(0);
}

static __attribute__((noreturn)) void stop_with_error(const char *fmt, uint64_t x,
						      const char *s)
{
	struct tv_vrec r = { .type = TV_VREC_ERROR };

	snprintf(r.msg, sizeof(r.msg), fmt, (unsigned long long)x, s);
	send_rec(&r);
	close(v.report_fd);
	_exit(1);
}

/* A divergence in the current group (v.cur_group: the shadow's last). */
static void report(const struct tv_elem_ref *e, bool sk, uint64_t sv, bool rk, uint64_t rv,
		   unsigned int what)
{
	struct tv_vrec r = { .type = TV_VREC_DIVERGENCE };

	r.group = v.cur_group;
	r.offset = v.cur_offset;
	r.pc = v.sh.pc_before;
	r.insn = v.sh.insn;
	r.has_insn = v.sh.has_insn;
	r.what = (uint8_t)what;
	if (e) {
		r.kind = e->kind;
		r.size = e->size;
		r.reg = e->reg;
		r.addr = e->addr;
	}
	r.a_known = sk;
	r.a = sv;
	r.b_known = rk;
	r.b = rv;
	send_rec(&r);
	v.divergences++;
	if (v.max && v.divergences >= v.max)
		finish_run();
}

/* ---- QEMU's state */

static bool read_reg(uint16_t addr, uint64_t *val)
{
	struct qemu_plugin_register *h = addr < TV_NREGS ? v.handle[addr] : NULL;
	int n;

	if (!h)
		return false;
	v.buf->len = 0;		/* what g_byte_array_set_size(0) does, without the call */
	n = qemu_plugin_read_register(h, v.buf);
	if (n <= 0)
		return false;
	v.reg_size[addr] = (uint8_t)(n > 8 ? 8 : n);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (n == 8) {
		memcpy(val, v.buf->data, 8);	/* QEMU's bytes are the target's: little-endian */
		return true;
	}
#endif
	*val = 0;
	for (int i = 0; i < n && i < 8; i++)
		*val |= (uint64_t)v.buf->data[i] << (8 * i);
	return true;
}

static bool write_bytes(struct qemu_plugin_register *h, unsigned int size, uint64_t val)
{
	g_byte_array_set_size(v.buf, size);
	for (unsigned int i = 0; i < size; i++)
		v.buf->data[i] = i < 8 ? (uint8_t)(val >> (8 * i)) : 0;
	return qemu_plugin_write_register(h, v.buf) > 0;
}

static bool write_reg(uint16_t addr, uint64_t val)
{
	uint64_t old;

	if (addr >= TV_NREGS || !v.handle[addr] || addr == TV_REG_GPR(0))
		return false;
	if (!v.reg_size[addr] && !read_reg(addr, &old))
		return false;
	return write_bytes(v.handle[addr], v.reg_size[addr], val);
}

static bool read_priv(uint64_t *val)
{
	int n;

	/* User mode has no privilege to change: QEMU says nothing of it. */
	if (!v.system || !v.priv_handle)
		return false;
	v.buf->len = 0;
	n = qemu_plugin_read_register(v.priv_handle, v.buf);
	if (n <= 0)
		return false;
	*val = v.buf->data[0] & 3;
	return true;
}

/* An AMO (not lr/sc): its one memory callback's value is the old one. */
static bool is_amo(uint32_t insn)
{
	unsigned int f5 = insn >> 27;

	return (insn & 0x7f) == 0x2f && f5 != 2 && f5 != 3;
}

/*
 * QEMU's memory at E after the instruction: the value of its last access
 * there (a load's or a store's), else read (an AMO's result, memory the
 * instruction did not touch).
 */
static bool read_mem(const struct tv_elem_ref *e, uint64_t *val)
{
	for (unsigned int i = v.cur->amo ? 0 : v.n_acc; i-- > 0;) {
		if (v.acc[i].vaddr == e->addr && v.acc[i].size == e->size) {
			*val = v.acc[i].value;
			return true;
		}
	}
	if (!qemu_plugin_read_memory_vaddr(e->addr, v.buf, e->size))
		return false;
	*val = 0;
	for (unsigned int i = 0; i < e->size && i < 8; i++)
		*val |= (uint64_t)v.buf->data[i] << (8 * i);
	return true;
}

static bool write_mem(const struct tv_elem_ref *e, uint64_t val)
{
	g_byte_array_set_size(v.buf, e->size);
	for (unsigned int i = 0; i < e->size; i++)
		v.buf->data[i] = (uint8_t)(val >> (8 * i));
	return qemu_plugin_write_memory_vaddr(e->addr, v.buf);
}

/* QEMU's value of E; false when QEMU cannot tell (not compared). */
static bool ref_get(const struct tv_elem_ref *e, uint64_t next_pc, uint64_t *val)
{
	switch (e->kind) {
	case TV_K_PC:
		*val = next_pc;
		return true;
	case TV_K_REG:
		return read_reg(e->reg, val);
	case TV_K_PRIV:
		return read_priv(val);
	case TV_K_MEM:
		return read_mem(e, val);
	default:
		return false;	/* addresses, store data, mtime: not QEMU state */
	}
}

static void ref_set(const struct tv_elem_ref *e, uint64_t val)
{
	switch (e->kind) {
	case TV_K_REG:
		write_reg(e->reg, val);
		break;
	case TV_K_PRIV:
		if (v.system && v.priv_handle)
			write_bytes(v.priv_handle, v.sh.cfg.xlen / 8, val);
		break;
	case TV_K_MEM:
		write_mem(e, val);
		break;
	default:
		break;	/* pc: see the head comment */
	}
}

/* ---- comparison */

static bool compared(const struct tv_elem_ref *e)
{
	return !(v.sh.cfg.absent & tv_elem_class(e)) && !tv_nondet_has(&v.nondet, e);
}

/* Compares one element with QEMU; on a difference reports, resyncs. */
static void check(const struct tv_elem_ref *e, uint64_t next_pc)
{
	uint64_t sv, rv;

	if (!compared(e) || !tv_shadow_get(&v.sh, e, &sv) || !ref_get(e, next_pc, &rv) ||
	    sv == rv)
		return;
	report(e, true, sv, true, rv, TV_VWHAT_NONE);
	if (v.resync_reference || e->kind == TV_K_PC)
		tv_shadow_set(&v.sh, e, rv);
	else
		ref_set(e, sv);
}

static bool touched_mem(uint64_t addr, unsigned int size)
{
	for (size_t i = 0; i < v.sh.n_touched; i++) {
		const struct tv_elem_ref *e = &v.sh.touched[i];

		if (e->kind == TV_K_MEM && addr < e->addr + e->size && e->addr < addr + size)
			return true;
	}
	return false;
}

/*
 * A register the instruction reads from a non-deterministic CSR or device
 * memory, or a declared system call's result, is an input: it takes the
 * trace's value.  That register of the current instruction, or NO_REG.
 */
#define NO_REG 0xffff
static uint16_t input_reg(void)
{
	unsigned int rd;

	if (v.syscall_input)
		return TV_REG_GPR(10);
	if (v.cur->csr_rd && (v.reg_nondet[v.cur->csr_read / 8] & (1u << (v.cur->csr_read % 8))))
		return v.cur->csr_rd;
	if (v.n_acc && !v.acc[0].store && v.nondet.n_mem &&
	    tv_nondet_mem(&v.nondet, v.acc[0].vaddr, v.acc[0].size) &&
	    (rd = tv_insn_load_dest(v.sh.insn, v.sh.cfg.xlen)))
		return (uint16_t)rd;
	return NO_REG;
}

/*
 * QEMU's value of REG after the instruction.  An integer load's
 * destination is what its memory callback saw, extended as the load does:
 * QEMU wrote that there, and asking QEMU for a register costs more than
 * the rest of the comparison (a lookup of the CPU's class each time).
 */
static bool ref_reg(uint16_t reg, uint64_t *val)
{
	const struct vinsn *vi = v.cur;

	if (reg == vi->d.load_rd && v.n_acc == 1 && !v.acc[0].store &&
	    v.acc[0].size == vi->d.load_bytes) {
		*val = tv_load_value(&vi->d, v.acc[0].value, v.sh.cfg.xlen);
		return true;
	}
	return read_reg(reg, val);
}

/* check() for a register, without the general calls (the common case). */
static void check_reg(uint16_t reg, uint64_t next_pc)
{
	struct tv_elem_ref e = { .kind = TV_K_REG, .reg = reg };
	uint64_t sv, rv;

	(void)next_pc;
	if (reg >= TV_NREGS || !(v.sh.reg_known[reg / 8] & (1u << (reg % 8))))
		return;		/* the trace never said */
	sv = v.sh.regs[reg];
	if (reg == v.input) {
		if (read_reg(reg, &rv) && sv != rv)
			write_reg(reg, sv);
		return;
	}
	if (!(v.reg_compared[reg / 8] & (1u << (reg % 8))) || !ref_reg(reg, &rv) || sv == rv)
		return;
	report(&e, true, sv, true, rv, TV_VWHAT_NONE);
	if (v.resync_reference)
		tv_shadow_set(&v.sh, &e, rv);
	else
		write_reg(reg, sv);
}

/* What an interrupt (a trap) writes: xstatus, xepc, xcause, xtval, mip. */
static bool trap_csr(uint16_t reg)
{
	switch (reg) {
	case 0x300: case 0x341: case 0x342: case 0x343: case 0x344:
	case 0x100: case 0x141: case 0x142: case 0x143: case 0x144:
		return true;
	default:
		return false;
	}
}

/*
 * Did QEMU take an interrupt right after the instruction, instead of
 * going to the trace's next pc?  Then it is in a handler now: privilege,
 * the cause CSR with its top bit set, and its epc the trace's next pc.
 */
static bool qemu_took_interrupt(uint64_t next_pc)
{
	struct tv_elem_ref pc = { .kind = TV_K_PC };
	uint64_t trace_pc, priv, cause, epc;

	if (!v.system || !tv_shadow_get(&v.sh, &pc, &trace_pc) || trace_pc == next_pc ||
	    !read_priv(&priv))
		return false;
	return read_reg(priv == 3 ? 0x342 : 0x142, &cause) &&
	       (cause >> (v.sh.cfg.xlen - 1) & 1) &&
	       read_reg(priv == 3 ? 0x341 : 0x141, &epc) && epc == trace_pc;
}

/* The current group's instruction retired and QEMU is at NEXT_PC. */
static void compare_retired(uint64_t next_pc)
{
	const struct insn_desc *d = &v.cur->d;
	struct tv_shadow *sh = &v.sh;
	bool pc_said = false, dest_said = !d->dest, csr_said = d->csr == 0xffff,
	     fcsr_said = !(d->flags & INSN_FP);

	/*
	 * QEMU took an interrupt after it: what the instruction did is
	 * compared without what the interrupt changed, and the trace's next
	 * group must be that interrupt (take_group()).
	 */
	v.qemu_irq = v.system && qemu_took_interrupt(next_pc);
	v.input = input_reg();
	for (size_t i = 0; i < sh->n_touched; i++) {
		const struct tv_elem_ref *e = &sh->touched[i];

		switch (e->kind) {
		case TV_K_PC:
			/* check() without the general calls. */
			pc_said = true;
			if (!v.qemu_irq && v.pc_compared && (sh->known & TV_EL_PC) &&
			    sh->pc != next_pc) {
				report(e, true, sh->pc, true, next_pc, TV_VWHAT_NONE);
				sh->pc = next_pc;	/* see the head comment */
			}
			break;
		case TV_K_REG:
			dest_said |= e->reg == d->dest;
			csr_said |= e->reg == d->csr;
			fcsr_said |= e->reg == 0x003;
			if (!v.qemu_irq || !trap_csr(e->reg))
				check_reg(e->reg, next_pc);
			break;
		case TV_K_MEM:
			if (v.mem_compared && !tv_nondet_mem(&v.nondet, e->addr, e->size)) {
				uint64_t sv, rv;

				/* check() without the general calls. */
				if (tv_shadow_get(sh, e, &sv) && read_mem(e, &rv) && sv != rv) {
					report(e, true, sv, true, rv, TV_VWHAT_NONE);
					if (v.resync_reference)
						tv_shadow_set(sh, e, rv);
					else
						write_mem(e, sv);
				}
			}
			break;
		case TV_K_PRIV:
			if (!v.qemu_irq)
				check(e, next_pc);
			break;
		case TV_K_EADDR:
			/* The address of QEMU's first access. */
			if (v.n_acc && v.eaddr_compared && sh->eaddr != v.acc[0].vaddr)
				report(e, true, sh->eaddr, true, v.acc[0].vaddr, TV_VWHAT_NONE);
			break;
		default:
			break;
		}
	}
	/*
	 * A group without its next pc (the last one of a recording that
	 * stopped at it): the trace goes on from where QEMU went.
	 */
	if (!pc_said) {
		struct tv_elem_ref pc = { .kind = TV_K_PC };

		tv_shadow_set(sh, &pc, next_pc);
	}
	/* What the instruction writes, where the group says nothing. */
	if (!dest_said)
		check_reg(d->dest, next_pc);
	if (!csr_said && !(v.qemu_irq && trap_csr(d->csr)))
		check_reg(d->csr, next_pc);
	if (!fcsr_said)
		check_reg(0x003, next_pc);
	/* A store QEMU made where the trace has none. */
	for (unsigned int i = 0; i < v.n_acc; i++) {
		const struct access *a = &v.acc[i];
		struct tv_elem_ref e = { .kind = TV_K_MEM, .addr = a->vaddr, .size = a->size };
		uint64_t sv;

		if (a->store && !v.cur->amo && !touched_mem(a->vaddr, a->size) && compared(&e) &&
		    tv_shadow_get(sh, &e, &sv) && sv != a->value) {
			report(&e, true, sv, true, a->value, TV_VWHAT_NONE);
			if (v.resync_reference)
				tv_shadow_set(sh, &e, a->value);
			else
				write_mem(&e, sv);
		}
	}
}

/* ---- the trace */

static enum tv_status next_group(void)
{
	for (;;) {
		enum tv_status st = tv_dec_next(&v.dec, &v.grp);
		ssize_t n;

		if (st != TV_MORE)
			return st;
		n = read(v.trace_fd, v.chunk, sizeof(v.chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			tv_dec_finish(&v.dec);
		else if (tv_dec_feed(&v.dec, v.chunk, (size_t)n))
			stop_with_error("out of memory reading the trace%.0llx%s", 0, "");
	}
}

/* A group QEMU does not run (state initialisation): it goes into QEMU. */
static void write_group(uint64_t pc)
{
	struct tv_shadow *sh = &v.sh;

	for (size_t i = 0; i < sh->n_touched; i++) {
		const struct tv_elem_ref *e = &sh->touched[i];
		uint64_t sv, rv;

		if (e->kind == TV_K_PC || !tv_shadow_get(sh, e, &sv))
			continue;
		if (!ref_get(e, pc, &rv) || rv != sv)
			ref_set(e, sv);
	}
	/* QEMU's pc cannot be moved: an interrupt, or a start elsewhere. */
	{
		struct tv_elem_ref e = { .kind = TV_K_PC };
		uint64_t sv;

		if (tv_shadow_get(sh, &e, &sv) && sv != pc && !(sh->cfg.absent & TV_EL_PC)) {
			report(&e, true, sv, true, pc,
			       sh->has_init ? TV_VWHAT_NONE : TV_VWHAT_NO_IRQ);
			tv_shadow_set(sh, &e, pc);
		}
	}
}

/* Memory whose loads are inputs (a declared system call's buffer). */
static void input_mem(uint64_t addr, uint64_t len)
{
	unsigned int i = v.nondet.n_mem < TV_NONDET_RANGES ? v.nondet.n_mem++
							   : TV_NONDET_RANGES - 1;

	v.nondet.mem[i].lo = addr;
	v.nondet.mem[i].hi = addr + len;
}

static bool word_at(uint64_t addr, uint64_t *val)
{
	unsigned int n = v.sh.cfg.xlen / 8;

	if (!qemu_plugin_read_memory_vaddr(addr, v.buf, n))
		return false;
	*val = 0;
	for (unsigned int i = 0; i < n; i++)
		*val |= (uint64_t)v.buf->data[i] << (8 * i);
	return true;
}

/*
 * The 16 random bytes the kernel (here QEMU) gives a program (AT_RANDOM,
 * its stack canary's seed): found through the auxiliary vector above the
 * first sp, argc, argv and envp.
 */
static void find_at_random(void)
{
	uint64_t w = v.sh.cfg.xlen / 8, p, val, type;

	v.at_random_done = true;
	if (!read_reg(TV_REG_GPR(2), &p) || !word_at(p, &val) || val > 4096)
		return;
	p += w * (val + 2);		/* envp[0] */
	for (unsigned int i = 0; i < 4096 && word_at(p, &val) && val; i++)
		p += w;
	p += w;				/* past envp's NULL: the pairs */
	for (unsigned int i = 0; i < 64 && word_at(p, &type) && type; i++, p += 2 * w) {
		if (type == 25 && word_at(p + w, &val)) {	/* AT_RANDOM */
			input_mem(val, 16);
			return;
		}
	}
}

/* Before an ecall runs: is it a system call whose result is an input? */
static void syscall_inputs(void)
{
	uint64_t nr, arg[3] = { 0 }, len;
	unsigned int buf_arg;
	int len_arg;

	if (!read_reg(TV_REG_GPR(17), &nr) || !tv_syscall_input(nr, &buf_arg, &len, &len_arg))
		return;
	v.syscall_input = true;
	for (unsigned int i = 0; i < 3; i++)
		read_reg(TV_REG_GPR(10 + i), &arg[i]);
	if (len_arg >= 0 && len_arg < 3)
		len = arg[len_arg];
	if (buf_arg < 3 && len)
		input_mem(arg[buf_arg], len);
}

/* QEMU is about to run VI: the trace's next instruction group. */
static void take_group(const struct vinsn *vi)
{
	const struct insn_desc *d = &vi->d;
	struct tv_shadow *sh = &v.sh;
	enum tv_status st;

	for (;;) {
		st = next_group();
		if (st == TV_END)
			finish_run();
		if (st == TV_ERROR)
			stop_with_error("trace byte 0x%llx: %s", v.dec.err.offset, v.dec.err.msg);
		tv_shadow_apply(sh, &v.grp);
		v.groups++;
		v.cur_group = v.grp.index;
		v.cur_offset = v.grp.offset;
		if (v.grp.has_reset && v.system)
			stop_with_error("group %llu resets the hart: the plugin cannot reset QEMU%s",
					v.grp.index, "");
		if (v.grp.has_insn && !v.grp.has_init)
			break;
		write_group(d->pc);
		v.qemu_irq = false;
	}
	if (v.qemu_irq) {
		/* QEMU is in a handler the trace does not enter here. */
		report(NULL, false, 0, false, 0, TV_VWHAT_QEMU_IRQ);
		v.qemu_irq = false;
	}
	v.insns++;
	/* The instruction at QEMU's pc must be the trace's. */
	if (!(sh->cfg.absent & TV_EL_INSN) && sh->insn != d->word) {
		struct tv_elem_ref e = { .kind = TV_K_INSN };

		report(&e, true, sh->insn, true, d->word, TV_VWHAT_NONE);
	}
	/* Non-deterministic state the trace knows goes into QEMU first. */
	for (size_t i = 0; v.any_reg_nondet && i < sh->n_touched; i++) {
		const struct tv_elem_ref *e = &sh->touched[i];
		uint64_t sv;

		if (e->kind == TV_K_REG && e->reg < TV_NREGS &&
		    (v.reg_nondet[e->reg / 8] & (1u << (e->reg % 8))) && tv_shadow_get(sh, e, &sv))
			write_reg(e->reg, sv);
	}
	v.cur = vi;
	v.n_acc = 0;
	v.syscall_input = false;
	if (v.user_inputs && !v.system) {
		if (!v.at_random_done)
			find_at_random();
		if (d->word == 0x00000073)
			syscall_inputs();
	}
}

/* ---- callbacks */

static void insn_exec(unsigned int vcpu_index, void *udata)
{
	const struct vinsn *vi = udata;

	if (vcpu_index != 0 || v.done)
		return;
	if (v.cur)
		compare_retired(vi->d.pc);
	take_group(vi);
}

static void mem_access(unsigned int vcpu_index, qemu_plugin_meminfo_t info, uint64_t vaddr,
		       void *udata)
{
	struct access *a;
	unsigned int shift;
	qemu_plugin_mem_value mv;

	(void)udata;
	if (vcpu_index != 0 || !v.cur || v.n_acc == MAX_ACCESSES)
		return;
	shift = qemu_plugin_mem_size_shift(info);
	if (shift > 3)
		return;
	a = &v.acc[v.n_acc++];
	a->vaddr = v.sh.cfg.xlen == 32 ? vaddr & 0xffffffffull : vaddr;
	a->size = (uint8_t)(1u << shift);
	a->store = qemu_plugin_mem_is_store(info);
	mv = qemu_plugin_mem_get_value(info);
	a->value = shift == 0 ? mv.data.u8 : shift == 1 ? mv.data.u16
		 : shift == 2 ? mv.data.u32 : mv.data.u64;
}

/* What the verifier needs of an instruction beyond tv_insn_describe(). */
static void describe_more(struct vinsn *vi)
{
	uint32_t i = vi->d.word;
	unsigned int rd, csr;

	if (tv_insn_reads_csr(i, &rd, &csr) && csr < TV_NREGS) {
		vi->csr_rd = TV_REG_GPR(rd);
		vi->csr_read = (uint16_t)csr;
	}
	vi->amo = is_amo(i);
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);

	(void)id;
	for (size_t k = 0; k < n; k++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, k);
		/* Kept for the life of the run: QEMU may run the block again. */
		struct vinsn *vi = calloc(1, sizeof(*vi));
		struct insn_desc *d = vi ? &vi->d : NULL;
		uint8_t b[4] = { 0 };

		if (!vi)
			return;
		d->pc = qemu_plugin_insn_vaddr(insn);
		d->len = (uint8_t)qemu_plugin_insn_size(insn);
		v.insn_data(insn, b, d->len < 4 ? d->len : 4);
		d->word = b[0] | b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
		if (d->len == 2)
			d->word &= 0xffff;
		tv_insn_describe(d, v.sh.cfg.xlen);
		describe_more(vi);
		qemu_plugin_register_vcpu_insn_exec_cb(insn, insn_exec, QEMU_PLUGIN_CB_RW_REGS, vi);
		qemu_plugin_register_vcpu_mem_cb(insn, mem_access, QEMU_PLUGIN_CB_NO_REGS,
						 QEMU_PLUGIN_MEM_RW, NULL);
	}
}

static void vcpu_init(qemu_plugin_id_t id, unsigned int vcpu_index)
{
	(void)id;
	if (vcpu_index != 0)
		return;
	tv_plugin_reg_handles(v.handle, &v.priv_handle);
}

/* QEMU's program ended (user mode's exit, system mode's finisher). */
static void at_exit(qemu_plugin_id_t id, void *udata)
{
	(void)id;
	(void)udata;
	if (v.done)
		return;
	v.done = true;
	/* Fine when the trace ends with it too (the exit system call). */
	if (v.cur && next_group() == TV_GROUP)
		report(NULL, false, 0, false, 0, TV_VWHAT_EXITED);
	finish_run();
}

/* ---- set-up */

static bool write_api(const qemu_info_t *info)
{
	return info->version.cur >= 5 && qemu_plugin_write_register &&
	       qemu_plugin_write_memory_vaddr && qemu_plugin_read_memory_vaddr &&
	       qemu_plugin_read_register && qemu_plugin_get_registers &&
	       qemu_plugin_mem_get_value && g_byte_array_new && g_byte_array_set_size;
}

static bool parse_uint(const char *s, unsigned long long *x)
{
	char *end;

	*x = strtoull(s, &end, 0);
	return end != s && !*end;
}

int tv_verify_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv)
{
	struct tv_config cfg;
	unsigned long long x;
	char err[120];

	tv_config_default(&cfg);
	if (!strcmp(info->target_name, "riscv32"))
		cfg.xlen = cfg.mlen = 32;
	v.trace_fd = v.report_fd = -1;
	v.mode = TV_STRICT;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (!strncmp(a, "probe=", 6)) {
			/* Say whether this QEMU can, and stop it right here. */
			if (write_api(info) && parse_uint(a + 6, &x)) {
				ssize_t k = write((int)x, TV_VERIFY_PROBE_YES,
						  sizeof(TV_VERIFY_PROBE_YES) - 1);
				(void)k;
			}
			_exit(0);
		}
	}
	if (!write_api(info)) {
		fail("this QEMU cannot write registers and memory (plugin API 5): ",
		     "verify through its gdbstub");
		return -1;
	}
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		char *eq = strchr(a, '=');
		const char *val = eq ? eq + 1 : "";
		bool num = parse_uint(val, &x);

		if (!strncmp(a, "verify=", 7) && num) {
			v.trace_fd = (int)x;
		} else if (!strncmp(a, "report=", 7) && num) {
			v.report_fd = (int)x;
		} else if (!strncmp(a, "xlen=", 5) && num) {
			cfg.xlen = (unsigned int)x;
		} else if (!strncmp(a, "flen=", 5) && num) {
			cfg.flen = (unsigned int)x;
		} else if (!strncmp(a, "mlen=", 5) && num) {
			cfg.mlen = (unsigned int)x;
		} else if (!strncmp(a, "absent=", 7) && num) {
			cfg.absent = (unsigned int)x;
		} else if (!strncmp(a, "max=", 4) && num) {
			v.max = x;
		} else if (!strcmp(a, "resync=reference")) {
			v.resync_reference = true;
		} else if (!strcmp(a, "resync=trace")) {
			v.resync_reference = false;
		} else if (!strcmp(a, "inputs=user")) {
			v.user_inputs = true;
		} else if (!strcmp(a, "mode=lenient")) {
			v.mode = TV_LENIENT;
		} else if (!strcmp(a, "mode=strict")) {
			v.mode = TV_STRICT;
		} else if (!strncmp(a, "nondet=", 7)) {
			/* Names separated by ';' (QEMU splits the arguments at ','). */
			char *list = strdup(val), *save = NULL;

			for (char *t = list ? strtok_r(list, ";", &save) : NULL; t;
			     t = strtok_r(NULL, ";", &save)) {
				if (tv_nondet_add(&v.nondet, t)) {
					fail("unknown non-deterministic element ", t);
					free(list);
					return -1;
				}
			}
			free(list);
		} else {
			fail("unknown argument ", a);
			return -1;
		}
	}
	if (v.trace_fd < 0 || v.report_fd < 0) {
		fail("verify=FD and report=FD are both needed", "");
		return -1;
	}
	if (tv_config_check(&cfg, err, sizeof(err))) {
		fail("", err);
		return -1;
	}
	v.system = info->system_emulation;
	v.insn_data = (qemu_plugin_insn_data_v3_t)(void *)qemu_plugin_insn_data;
	v.buf = g_byte_array_new();
	if (tv_shadow_init(&v.sh, &cfg)) {
		fail("out of memory", "");
		return -1;
	}
	tv_dec_init(&v.dec, &cfg, v.mode);
	for (unsigned int r = 0; r < TV_NREGS; r++) {
		struct tv_elem_ref e = { .kind = TV_K_REG, .reg = (uint16_t)r };

		if (!(cfg.absent & tv_elem_class(&e)) && !tv_nondet_has(&v.nondet, &e))
			v.reg_compared[r / 8] |= (uint8_t)(1u << (r % 8));
		if (tv_nondet_has(&v.nondet, &e))
			v.reg_nondet[r / 8] |= (uint8_t)(1u << (r % 8));
	}
	v.mem_compared = !(cfg.absent & TV_EL_MEM) && !(v.nondet.classes & TV_EL_MEM);
	{
		struct tv_elem_ref pc = { .kind = TV_K_PC }, ea = { .kind = TV_K_EADDR };

		v.pc_compared = !(cfg.absent & TV_EL_PC) && !tv_nondet_has(&v.nondet, &pc);
		v.eaddr_compared = !(cfg.absent & TV_EL_EADDR) && !tv_nondet_has(&v.nondet, &ea);
	}
	for (unsigned int r = 0; r < TV_NREGS / 8; r++)
		v.any_reg_nondet |= v.reg_nondet[r] != 0;
	qemu_plugin_register_vcpu_init_cb(id, vcpu_init);
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
