// SPDX-License-Identifier: BSD-2-Clause
/*
 * diff-test - the shadow-state comparison of two traces: one changed
 * register, memory datum, pc or privilege is reported exactly once, at its
 * group, and the comparison goes on; declared non-deterministic state
 * (a timer read, mtime) causes no report; absent elements are not compared;
 * --max stops early; a shorter trace is reported.
 */
#include "tap.h"
#include "tv.h"

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
