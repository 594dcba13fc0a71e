// SPDX-License-Identifier: BSD-2-Clause
/*
 * diff-test - the shadow-state comparison of two traces: one changed
 * register, memory datum, pc or privilege is reported exactly once, at its
 * group, and the comparison goes on; declared non-deterministic state
 * (a timer read, mtime) causes no report; absent elements are not compared;
 * --max stops early; a shorter trace is reported; a user-mode run's inputs
 * (a gettid result, the AT_RANDOM bytes, what is computed from them) are
 * not reported by default, so the first report is the first real
 * difference, and all are with user_inputs off (tv diff --strict).
 */
#include "tap.h"
#include "userspace/tv/tv.h"

#include <stdlib.h>

#define NGROUPS 2000

enum change { NONE, REG, MEM, PC, PRIV, TIME_READ, MTIME, CSR_REG };

/*
 * A program-like trace: a loop of add, store, a timer read, a branch,
 * with a privilege item now and then.  CHANGE alters group AT only.
 */
static void make_trace(struct tv_buf *b, const struct tv_config *cfg,
		       enum change change, int at)
{
	uint64_t pc = 0x10000, a0 = 0;

	tv_enc_op(b, TV_OP_BEGIN_GROUP);
	tv_enc_op(b, TV_OP_STATE_INIT);
	tv_enc_addl(b, cfg, TV_AS_PC, pc);
	tv_enc_op(b, TV_OP_END_GROUP);
	for (int i = 0; i < NGROUPS; i++) {
		bool here = i == at;

		tv_enc_op(b, TV_OP_BEGIN_GROUP);
		switch (i % 5) {
		case 0:	/* add a0, a0, a1 */
			a0 += 3;
			tv_enc_op(b, TV_OP_INCR_PC);
			tv_enc_insn(b, 0x00b50533);
			tv_enc_full_reg(b, cfg, TV_REG_GPR(10),
					here && change == REG ? a0 ^ 0x100 : a0);
			pc += 4;
			break;
		case 1:	/* sd a0, 0(sp) */
			tv_enc_op(b, TV_OP_INCR_PC);
			tv_enc_insn(b, 0x00a13023);
			tv_enc_mem_req(b, cfg, 0x7000 + (uint64_t)(i % 64) * 8, TV_MEM_STORE, 3,
				       here && change == MEM ? a0 + 1 : a0);
			tv_enc_mem_rsp(b, 3, 0, false, 0);
			pc += 4;
			break;
		case 2:	/* rdtime a2 (csrrs a2, time, x0) */
			tv_enc_op(b, TV_OP_INCR_PC);
			tv_enc_insn(b, 0xc0102673);
			tv_enc_full_reg(b, cfg, TV_REG_GPR(12),
					(uint64_t)i * 10 + (change == TIME_READ ? 7 : 0));
			if (i % 50 == 2)
				tv_enc_addl(b, cfg, TV_AS_MTIME,
					    (uint64_t)i + (change == MTIME ? 1000 : 0));
			pc += 4;
			break;
		case 3:	/* csrw mscratch, a0 */
			tv_enc_op(b, TV_OP_INCR_PC);
			tv_enc_insn(b, 0x34051073);
			tv_enc_full_reg(b, cfg, 0x340, here && change == CSR_REG ? 1 : a0);
			pc += 4;
			break;
		case 4:	/* j back, or an ecall that changes privilege */
			tv_enc_insn(b, 0xff1ff06f);
			pc -= 16;
			tv_enc_addl(b, cfg, TV_AS_PC, here && change == PC ? pc + 0x40 : pc);
			if (i % 20 == 4)
				tv_enc_addl(b, cfg, TV_AS_PRIV, here && change == PRIV ? 1 : 3);
			break;
		}
		tv_enc_op(b, TV_OP_END_GROUP);
	}
}

struct seen {
	int n;
	struct tv_divergence first;
};

static int collect(void *ctx, const struct tv_divergence *d)
{
	struct seen *s = ctx;

	if (!s->n++)
		s->first = *d;
	return 0;
}

static struct seen run(enum change change, int at, const char *nondet,
		       unsigned int absent, uint64_t max, int *rc,
		       uint64_t *groups)
{
	struct tv_config cfg;
	struct tv_buf a = { 0 }, b = { 0 };
	struct tv_nondet nd = { 0 };
	struct tv_diff_opts o = { 0 };
	struct tv_diff_result res;
	struct seen s = { 0 };

	tv_config_default(&cfg);
	make_trace(&a, &cfg, NONE, -1);
	make_trace(&b, &cfg, change, at);
	if (nondet) {
		char buf[64], *save = NULL;

		snprintf(buf, sizeof(buf), "%s", nondet);
		for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save))
			if (tv_nondet_add(&nd, t))
				tap_diag("unknown nondet %s", t);
	}
	o.cfg_a = o.cfg_b = cfg;
	o.cfg_b.absent = absent;
	o.mode = TV_STRICT;
	o.nondet = nondet ? &nd : NULL;
	o.max = max;
	o.report = collect;
	o.ctx = &s;
	*rc = tv_diff(a.data, a.len, b.data, b.len, &o, &res);
	if (groups)
		*groups = res.groups;
	tv_buf_free(&a);
	tv_buf_free(&b);
	return s;
}

static void one_change(enum change change, int at, const char *elem)
{
	struct seen s;
	char name[40];
	int rc;
	uint64_t groups;

	s = run(change, at, NULL, 0, 0, &rc, &groups);
	tv_elem_ref_name(&s.first.elem, name, sizeof(name));
	tap_ok(rc == 1 && s.n == 1 && s.first.group == (uint64_t)at + 1 &&
	       strcmp(name, elem) == 0 && groups == NGROUPS + 1,
	       "one changed %s: reported once, at group %d, then the diff goes on to the end (%d reports, first %s at group %llu)",
	       elem, at + 1, s.n, name, (unsigned long long)s.first.group);
}

/* Loads from a device register (0x200bff8): a value differing per run. */
static int dev_reads(const char *nondet)
{
	struct tv_config cfg;
	struct tv_buf a = { 0 }, b = { 0 };
	struct tv_nondet nd = { 0 };
	struct tv_diff_opts o = { 0 };
	struct tv_diff_result res;
	struct seen sn = { 0 };

	tv_config_default(&cfg);
	for (int t = 0; t < 2; t++) {
		struct tv_buf *x = t ? &b : &a;

		for (int i = 0; i < 100; i++) {
			tv_enc_op(x, TV_OP_BEGIN_GROUP);
			tv_enc_op(x, TV_OP_INCR_PC);
			tv_enc_insn(x, 0x0003b383);	/* ld t2,0(t2) */
			tv_enc_mem_req(x, &cfg, 0x200bff8, TV_MEM_LOAD, 3, 0);
			tv_enc_mem_rsp(x, 3, 0, true, (uint64_t)(i * 100 + t * 7));
			tv_enc_full_reg(x, &cfg, TV_REG_GPR(7), (uint64_t)(i * 100 + t * 7));
			tv_enc_op(x, TV_OP_END_GROUP);
		}
	}
	if (nondet)
		tv_nondet_add(&nd, nondet);
	o.cfg_a = o.cfg_b = cfg;
	o.nondet = nondet ? &nd : NULL;
	o.report = collect;
	o.ctx = &sn;
	tv_diff(a.data, a.len, b.data, b.len, &o, &res);
	tv_buf_free(&a);
	tv_buf_free(&b);
	return sn.n;
}

/*
 * A straight run of adds with one timer interrupt after add number AT:
 * the handler stores a counter and returns with mret.
 */
static void irq_trace(struct tv_buf *b, const struct tv_config *cfg, int at)
{
	uint64_t pc = 0x80000000, a0 = 0;

	tv_enc_op(b, TV_OP_BEGIN_GROUP);
	tv_enc_op(b, TV_OP_STATE_INIT);
	tv_enc_addl(b, cfg, TV_AS_PC, pc);
	tv_enc_op(b, TV_OP_END_GROUP);
	for (int i = 0; i < 300; i++) {
		tv_enc_op(b, TV_OP_BEGIN_GROUP);
		tv_enc_op(b, TV_OP_INCR_PC);
		tv_enc_insn(b, 0x00b50533);
		tv_enc_full_reg(b, cfg, TV_REG_GPR(10), a0 += 5);
		tv_enc_op(b, TV_OP_END_GROUP);
		pc += 4;
		if (i != at)
			continue;
		tv_enc_op(b, TV_OP_BEGIN_GROUP);	/* the interrupt */
		tv_enc_addl(b, cfg, TV_AS_PC, 0x80001000);
		tv_enc_full_reg(b, cfg, 0x341, pc);
		tv_enc_full_reg(b, cfg, 0x342, 0x8000000000000007ull);
		tv_enc_full_reg(b, cfg, 0x300, 0x1880);
		tv_enc_op(b, TV_OP_END_GROUP);
		tv_enc_op(b, TV_OP_BEGIN_GROUP);	/* li t3, 1 */
		tv_enc_op(b, TV_OP_INCR_PC);
		tv_enc_insn(b, 0x00100e13);
		tv_enc_full_reg(b, cfg, TV_REG_GPR(28), 1);
		tv_enc_op(b, TV_OP_END_GROUP);
		tv_enc_op(b, TV_OP_BEGIN_GROUP);	/* sd t3, 0(gp) */
		tv_enc_op(b, TV_OP_INCR_PC);
		tv_enc_insn(b, 0x01c1b023);
		tv_enc_mem_req(b, cfg, 0x9000, TV_MEM_STORE, 3, 1);
		tv_enc_op(b, TV_OP_END_GROUP);
		tv_enc_op(b, TV_OP_BEGIN_GROUP);	/* mret */
		tv_enc_insn(b, 0x30200073);
		tv_enc_addl(b, cfg, TV_AS_PC, pc);
		tv_enc_full_reg(b, cfg, 0x300, 0x1888);
		tv_enc_op(b, TV_OP_END_GROUP);
	}
}

static int irq_at_different_points(const char *nondet, uint64_t *skipped)
{
	struct tv_config cfg;
	struct tv_buf a = { 0 }, b = { 0 };
	struct tv_nondet nd = { 0 };
	struct tv_diff_opts o = { 0 };
	struct tv_diff_result res;
	struct seen sn = { 0 };

	tv_config_default(&cfg);
	irq_trace(&a, &cfg, 100);
	irq_trace(&b, &cfg, 150);
	if (nondet)
		tv_nondet_add(&nd, nondet);
	o.cfg_a = o.cfg_b = cfg;
	o.nondet = &nd;
	o.report = collect;
	o.ctx = &sn;
	tv_diff(a.data, a.len, b.data, b.len, &o, &res);
	*skipped = res.skipped;
	if (sn.n) {
		char name[40];

		tap_diag("first report: group %llu, %s%s", (unsigned long long)sn.first.group,
			 sn.first.what ? sn.first.what : "",
			 sn.first.what ? "" : tv_elem_ref_name(&sn.first.elem, name, sizeof(name)));
	}
	tv_buf_free(&a);
	tv_buf_free(&b);
	return sn.n;
}

/*
 * A user-mode start as glibc makes it: the initial stack read (argc, the
 * empty environment, the auxiliary vector with AT_RANDOM), gettid, the tid
 * stored into the TCB, the canary made from the AT_RANDOM bytes and stored
 * into a frame; then a register that held the canary overwritten alike in
 * both runs, and the real differences: an instruction reading it that
 * gives B another value, and a load of the argument string.  T: 0 for A,
 * 1 for B (whose tid, random bytes and argument differ).
 */
#define U_SP	0x7fff0000ull
#define U_RND	0x7fff0100ull
#define U_ARG	0x7fff0200ull
enum { U_ECALL = 7, U_ADDI = 13, U_ARGLOAD = 14 };	/* their groups */

static void user_group(struct tv_buf *b, uint32_t insn)
{
	tv_enc_op(b, TV_OP_BEGIN_GROUP);
	tv_enc_op(b, TV_OP_INCR_PC);
	tv_enc_insn(b, insn);
}

static void user_load(struct tv_buf *b, const struct tv_config *cfg,
		      uint32_t insn, unsigned int rd, uint64_t addr, uint64_t v)
{
	user_group(b, insn);
	tv_enc_mem_req(b, cfg, addr, TV_MEM_LOAD, 3, 0);
	tv_enc_mem_rsp(b, 3, 0, true, v);
	tv_enc_full_reg(b, cfg, TV_REG_GPR(rd), v);
	tv_enc_op(b, TV_OP_END_GROUP);
}

static void user_trace(struct tv_buf *b, const struct tv_config *cfg, int t)
{
	uint64_t tid = t ? 4242 : 4141, rnd = t ? 0x8877665544332211ull : 0x1122334455667788ull;

	tv_enc_op(b, TV_OP_BEGIN_GROUP);			/* group 0 */
	tv_enc_op(b, TV_OP_STATE_INIT);
	tv_enc_addl(b, cfg, TV_AS_PC, 0x10000);
	tv_enc_addl(b, cfg, TV_AS_PRIV, 0);			/* U-mode */
	tv_enc_full_reg(b, cfg, TV_REG_GPR(2), U_SP);
	tv_enc_full_reg(b, cfg, TV_REG_GPR(4), 0x20000);	/* tp */
	tv_enc_full_reg(b, cfg, TV_REG_GPR(14), U_RND);	/* a4 */
	tv_enc_full_reg(b, cfg, TV_REG_GPR(12), U_ARG);	/* a2 */
	tv_enc_full_reg(b, cfg, TV_REG_GPR(17), 178);		/* a7: gettid */
	tv_enc_op(b, TV_OP_END_GROUP);
	user_load(b, cfg, 0x00013283, 5, U_SP, 1);		/* 1 ld t0,0(sp): argc */
	user_load(b, cfg, 0x01813283, 5, U_SP + 24, 0);		/* 2 ld t0,24(sp): envp */
	user_load(b, cfg, 0x02013283, 5, U_SP + 32, 25);	/* 3 AT_RANDOM */
	user_load(b, cfg, 0x02813283, 5, U_SP + 40, U_RND);	/* 4 its value */
	user_load(b, cfg, 0x03013283, 5, U_SP + 48, 0);		/* 5 AT_NULL */
	user_load(b, cfg, 0x03813283, 5, U_SP + 56, 0);		/* 6 */
	user_group(b, 0x00000073);				/* 7 ecall */
	tv_enc_full_reg(b, cfg, TV_REG_GPR(10), tid);
	tv_enc_op(b, TV_OP_END_GROUP);
	user_group(b, 0x00a22023);				/* 8 sw a0,0(tp) */
	tv_enc_mem_req(b, cfg, 0x20000, TV_MEM_STORE, 2, tid);
	tv_enc_op(b, TV_OP_END_GROUP);
	user_load(b, cfg, 0x00073783, 15, U_RND, rnd);		/* 9 ld a5,0(a4) */
	user_group(b, 0xf007f793);				/* 10 andi a5,a5,-256 */
	tv_enc_full_reg(b, cfg, TV_REG_GPR(15), rnd & ~0xffull);
	tv_enc_op(b, TV_OP_END_GROUP);
	user_group(b, 0x00f13423);				/* 11 sd a5,8(sp) */
	tv_enc_mem_req(b, cfg, U_SP - 64, TV_MEM_STORE, 3, rnd & ~0xffull);
	tv_enc_op(b, TV_OP_END_GROUP);
	user_group(b, 0x00700793);				/* 12 li a5,7 */
	tv_enc_full_reg(b, cfg, TV_REG_GPR(15), 7);
	tv_enc_op(b, TV_OP_END_GROUP);
	user_group(b, 0x00178813);				/* 13 addi a6,a5,1 */
	tv_enc_full_reg(b, cfg, TV_REG_GPR(16), t ? 9 : 8);
	tv_enc_op(b, TV_OP_END_GROUP);
	user_load(b, cfg, 0x00063583, 11, U_ARG, t ? 0x33 : 0x32);	/* 14 ld a1,0(a2) */
}

static struct seen user_diff(bool user_inputs, int *rc)
{
	struct tv_config cfg;
	struct tv_buf a = { 0 }, b = { 0 };
	struct tv_diff_opts o = { 0 };
	struct tv_diff_result res;
	struct seen sn = { 0 };

	tv_config_default(&cfg);
	user_trace(&a, &cfg, 0);
	user_trace(&b, &cfg, 1);
	o.cfg_a = o.cfg_b = cfg;
	o.user_inputs = user_inputs;
	o.report = collect;
	o.ctx = &sn;
	*rc = tv_diff(a.data, a.len, b.data, b.len, &o, &res);
	tv_buf_free(&a);
	tv_buf_free(&b);
	return sn;
}

int main(void)
{
	struct seen s;
	int rc;

	s = run(NONE, -1, NULL, 0, 0, &rc, NULL);
	tap_ok(rc == 0 && s.n == 0, "a trace against itself: no divergence");
	one_change(REG, 1000, "x10/a0");
	one_change(MEM, 1001, "mem[0x7148/8]");	/* 0x7000 + 1001 % 64 * 8 */
	one_change(PC, 1004, "pc");
	one_change(PRIV, 1004, "priv");
	one_change(CSR_REG, 1003, "mscratch");

	s = run(REG, 1000, NULL, 0, 0, &rc, NULL);
	tap_ok(s.first.pc == 0x10000, "a report carries the pc where the instruction ran (0x%llx)",
	       (unsigned long long)s.first.pc);
	tap_ok(s.first.has_insn && s.first.insn == 0x00b50533 && s.first.a_known &&
	       s.first.b_known && (s.first.a ^ s.first.b) == 0x100,
	       "a report carries both values (A 0x%llx, B 0x%llx)",
	       (unsigned long long)s.first.a, (unsigned long long)s.first.b);

	/* Timer reads differ in every fifth group. */
	s = run(TIME_READ, -1, NULL, 0, 0, &rc, NULL);
	tap_ok(rc == 1 && s.n == NGROUPS / 5,
	       "undeclared: every timer read differs (%d reports)", s.n);
	s = run(TIME_READ, -1, "time", 0, 0, &rc, NULL);
	tap_ok(rc == 0 && s.n == 0,
	       "time declared non-deterministic: a register read from it is not a divergence");
	s = run(MTIME, -1, NULL, 0, 0, &rc, NULL);
	tap_ok(rc == 1 && s.n == NGROUPS / 50, "undeclared: mtime differs (%d reports)", s.n);
	s = run(MTIME, -1, "mtime", 0, 0, &rc, NULL);
	tap_ok(rc == 0 && s.n == 0, "mtime declared non-deterministic: no report");

	/* Absent elements are not compared. */
	s = run(REG, 1000, NULL, TV_EL_GPR, 0, &rc, NULL);
	tap_ok(s.n == 0, "GPRs absent from trace B: a changed register is not compared");
	s = run(MEM, 1001, NULL, TV_EL_MEM, 0, &rc, NULL);
	tap_ok(s.n == 0, "memory absent: a changed store is not compared");

	s = run(TIME_READ, -1, NULL, 0, 5, &rc, NULL);
	tap_ok(s.n == 5, "--max 5 stops after 5 reports");

	{
		uint64_t skipped;

		rc = irq_at_different_points("mip", &skipped);
		tap_ok(rc == 0 && skipped == 6,
		       "an interrupt at different points, mip declared: no report, each handler run alone (%d reports, %llu groups)",
		       rc, (unsigned long long)skipped);
		rc = irq_at_different_points(NULL, &skipped);
		tap_ok(rc > 0 && skipped == 0,
		       "the same undeclared: reported where the traces part (%d reports)", rc);
	}

	rc = dev_reads(NULL);
	tap_ok(rc == 200, "undeclared device register: each load's memory and register differ (%d reports)", rc);
	rc = dev_reads("mem:0x200bff8+8");
	tap_ok(rc == 0, "declared non-deterministic memory: a load from it is an input, no report");
	rc = dev_reads("mtime");
	tap_ok(rc == 0, "mtime includes the virt machine's ACLINT mtime register");

	/* A user-mode run's inputs. */
	s = user_diff(true, &rc);
	tap_ok(rc == 1 && s.n == 3 && s.first.group == U_ADDI && s.first.insn == 0x00178813,
	       "user-mode inputs declared: the tid, the AT_RANDOM bytes, the canary made "
	       "and stored are not reported; the first report is the first real one "
	       "(group %llu of %d, %d reports: that addi, the argument's load and its register)",
	       (unsigned long long)s.first.group, U_ADDI, s.n);
	s = user_diff(false, &rc);
	tap_ok(rc == 1 && s.first.group == U_ECALL && s.n == 3 + 6,
	       "not declared (--strict): the gettid result first (group %llu), every "
	       "difference told (%d reports)", (unsigned long long)s.first.group, s.n);

	/* A trace cut short is a divergence of its own. */
	{
		struct tv_config cfg;
		struct tv_buf a = { 0 }, b = { 0 };
		struct tv_diff_opts o = { 0 };
		struct tv_diff_result res;
		struct seen sn = { 0 };

		tv_config_default(&cfg);
		make_trace(&a, &cfg, NONE, -1);
		make_trace(&b, &cfg, NONE, -1);
		b.len -= 100;
		while (b.data[b.len - 1] != TV_OP_END_GROUP)
			b.len--;
		o.cfg_a = o.cfg_b = cfg;
		o.report = collect;
		o.ctx = &sn;
		rc = tv_diff(a.data, a.len, b.data, b.len, &o, &res);
		tap_ok(rc == 1 && sn.n == 1 && sn.first.what &&
		       strcmp(sn.first.what, "trace B ends here") == 0,
		       "a shorter trace B is reported where it ends");
		tv_buf_free(&a);
		tv_buf_free(&b);
	}
	return tap_done();
}
