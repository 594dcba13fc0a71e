// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suites for rvperf's hardware-free CTR logic (rvperf_ctr_logic.c):
 * filter mapping, type mapping, cycle decoding, depth and the privilege
 * sanitiser, for each CSR layout the driver is built for; and, on a
 * hart with CTR, what the driver does to the CSRs around CPU PM, and how the
 * PMU driver copes with a hart that loses its snapshot shared memory.
 */

#include <kunit/test.h>
#include <linux/bits.h>
#include <linux/cpu.h>
#include <linux/cpu_pm.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/perf_event.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <asm/csr.h>
#include <asm/sbi.h>

#include "rvperf_ctr.h"
#include "rvperf_ctr_logic.h"
#include "rvperf_ctr_regs.h"

#ifdef CONFIG_RVPERF_CTR_LAYOUT_DRAFT
/* The draft keeps the depth in the control register. */
#define RVCTR_TEST_CSR_CTL	RVP_CTR_DRAFT_CSR_SCTRCONTROL
#else
#define RVCTR_TEST_CSR_CTL	CSR_SCTRCTL
#define RVCTR_TEST_CSR_DEPTH	CSR_SCTRDEPTH
#endif

#define KSTART		0xffffffc000000000UL
#define UADDR		0x10000UL
#define KADDR		0xffffffff80001000UL

static void rvctr_test_filter_refused(struct kunit *test)
{
	static const u64 refused[] = {
		PERF_SAMPLE_BRANCH_ABORT_TX, PERF_SAMPLE_BRANCH_IN_TX,
		PERF_SAMPLE_BRANCH_NO_TX, PERF_SAMPLE_BRANCH_COUNTERS,
		BIT_ULL(PERF_SAMPLE_BRANCH_MAX_SHIFT),
	};
	struct rvctr_filter f;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(refused); i++)
		KUNIT_EXPECT_EQ(test, rvctr_filter_init(&f, PERF_SAMPLE_BRANCH_ANY |
				PERF_SAMPLE_BRANCH_USER | refused[i], KSTART),
				-EOPNOTSUPP);
	/* No type, no privilege, call stack with a type: refused. */
	KUNIT_EXPECT_EQ(test, rvctr_filter_init(&f, PERF_SAMPLE_BRANCH_USER, KSTART),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, rvctr_filter_init(&f, PERF_SAMPLE_BRANCH_ANY, KSTART),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, rvctr_filter_init(&f, PERF_SAMPLE_BRANCH_USER |
			PERF_SAMPLE_BRANCH_CALL_STACK | PERF_SAMPLE_BRANCH_COND, KSTART),
			-EOPNOTSUPP);
}

static void rvctr_test_filter_types(struct kunit *test)
{
	struct rvctr_filter f;
	const u64 u = PERF_SAMPLE_BRANCH_USER;

	KUNIT_ASSERT_EQ(test, rvctr_filter_init(&f, u | PERF_SAMPLE_BRANCH_ANY, KSTART), 0);
	KUNIT_EXPECT_EQ(test, f.types, 0xff2eU);	/* all but 0, 4, 6, 7 */
	KUNIT_EXPECT_EQ(test, f.priv, (u32)RVCTR_PRIV_USER);
	KUNIT_ASSERT_EQ(test, rvctr_filter_init(&f, u | PERF_SAMPLE_BRANCH_COND, KSTART), 0);
	KUNIT_EXPECT_EQ(test, f.types, (u32)BIT(RVP_CTRDATA_TYPE_TAKEN_BRANCH));
	KUNIT_ASSERT_EQ(test, rvctr_filter_init(&f, u | PERF_SAMPLE_BRANCH_ANY_CALL, KSTART), 0);
	KUNIT_EXPECT_EQ(test, f.types, (u32)(BIT(8) | BIT(9) | BIT(1) | BIT(2)));
	KUNIT_ASSERT_EQ(test, rvctr_filter_init(&f, u | PERF_SAMPLE_BRANCH_ANY_RETURN, KSTART), 0);
	KUNIT_EXPECT_EQ(test, f.types, (u32)(BIT(13) | BIT(3)));
	KUNIT_ASSERT_EQ(test, rvctr_filter_init(&f, u | PERF_SAMPLE_BRANCH_IND_JUMP, KSTART), 0);
	KUNIT_EXPECT_EQ(test, f.types, (u32)(BIT(10) | BIT(14)));
	KUNIT_ASSERT_EQ(test, rvctr_filter_init(&f, u | PERF_SAMPLE_BRANCH_CALL |
				PERF_SAMPLE_BRANCH_IND_CALL, KSTART), 0);
	KUNIT_EXPECT_EQ(test, f.types, (u32)(BIT(8) | BIT(9)));
	KUNIT_ASSERT_EQ(test, rvctr_filter_init(&f, PERF_SAMPLE_BRANCH_KERNEL |
				PERF_SAMPLE_BRANCH_HV | PERF_SAMPLE_BRANCH_CALL_STACK, KSTART), 0);
	/* calls, returns and co-routine swaps (pop + push) */
	KUNIT_EXPECT_EQ(test, f.types, (u32)(BIT(8) | BIT(9) | BIT(12) | BIT(13)));
	KUNIT_EXPECT_EQ(test, f.priv, (u32)RVCTR_PRIV_KERNEL);
}

/* A layout's control bits, as its specification numbers them. */
struct rvctr_test_ctl_bits {
	u64 u, s, ras, frz, ntbren;
};

static void rvctr_test_ctl(struct kunit *test, enum rvctr_layout l,
			   const struct rvctr_test_ctl_bits *b)
{
	u64 u = b->u, s = b->s, ras = b->ras, frz = b->frz;
	u64 ctl;

	/* Taken branches only, user: every other type inhibited, NTBREN off. */
	ctl = rvctr_ctl_bits(l, BIT(RVP_CTRDATA_TYPE_TAKEN_BRANCH), RVCTR_PRIV_USER, false,
			     ~0ULL);
	KUNIT_EXPECT_EQ(test, ctl, u | frz | 0xff0eULL << 32);
	/* Everything, both privileges, call stack: no inhibit bit at all. */
	ctl = rvctr_ctl_bits(l, 0xff2e, RVCTR_PRIV_USER | RVCTR_PRIV_KERNEL, true,
			     ~0ULL);
	KUNIT_EXPECT_EQ(test, ctl, u | s | ras | frz);
	/* Not-taken branches wanted: NTBREN, which opts in. */
	ctl = rvctr_ctl_bits(l, 0xff3e, RVCTR_PRIV_KERNEL, false, ~0ULL);
	KUNIT_EXPECT_EQ(test, ctl, s | frz | b->ntbren);
}

static void rvctr_test_ctl_v1(struct kunit *test)
{
	static const struct rvctr_test_ctl_bits v1 = {
		.u = RVP_CTR_V1_MCTRCTL_U,
		.s = RVP_CTR_V1_MCTRCTL_S,
		.ras = RVP_CTR_V1_MCTRCTL_RASEMU,
		.frz = RVP_CTR_V1_MCTRCTL_LCOFIFRZ,
		.ntbren = RVP_CTR_V1_MCTRCTL_NTBREN,
	};

	rvctr_test_ctl(test, RVCTR_LAYOUT_V1, &v1);
}

#ifdef CONFIG_RVPERF_CTR_LAYOUT_DRAFT
static void rvctr_test_ctl_draft(struct kunit *test)
{
	static const struct rvctr_test_ctl_bits draft = {
		.u = RVP_CTR_DRAFT_MCTRCONTROL_U,
		.s = RVP_CTR_DRAFT_MCTRCONTROL_S,
		.ras = RVP_CTR_DRAFT_MCTRCONTROL_RASEMU,
		.frz = RVP_CTR_DRAFT_MCTRCONTROL_LCOFIFRZ,
		.ntbren = RVP_CTR_DRAFT_MCTRCONTROL_NTBREN,
	};

	rvctr_test_ctl(test, RVCTR_LAYOUT_DRAFT, &draft);
}
#endif

static void rvctr_test_depth(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, rvctr_depth_decode(RVCTR_LAYOUT_V1, 0), 16U);
	KUNIT_EXPECT_EQ(test, rvctr_depth_decode(RVCTR_LAYOUT_V1, 4), 256U);
	KUNIT_EXPECT_EQ(test, rvctr_depth_decode(RVCTR_LAYOUT_V1, 5), 0U);
#ifdef CONFIG_RVPERF_CTR_LAYOUT_DRAFT
	KUNIT_EXPECT_EQ(test, rvctr_depth_decode(RVCTR_LAYOUT_DRAFT, 0), 16U);
	KUNIT_EXPECT_EQ(test, rvctr_depth_decode(RVCTR_LAYOUT_DRAFT, 0x3ULL << 16), 64U);
	KUNIT_EXPECT_EQ(test, rvctr_depth_decode(RVCTR_LAYOUT_DRAFT, 0xfULL << 16), 256U);
	KUNIT_EXPECT_EQ(test, rvctr_depth_decode(RVCTR_LAYOUT_DRAFT, 0x2ULL << 16), 0U);
#endif
#ifdef RVPERF_CTR_DEPTH_KNOBS
	KUNIT_EXPECT_EQ(test, rvctr_depth_report(256, true), 127U);
	KUNIT_EXPECT_EQ(test, rvctr_depth_report(64, true), 64U);
	KUNIT_EXPECT_EQ(test, rvctr_depth_report(256, false), 256U);
#endif
}

static void rvctr_test_types(struct kunit *test)
{
	static const u8 want[16][2] = {
		[0] = { PERF_BR_UNKNOWN, 0 },
		[1] = { PERF_BR_EXTEND_ABI, PERF_BR_RISCV_EXCEPTION },
		[2] = { PERF_BR_IRQ, 0 },
		[3] = { PERF_BR_ERET, 0 },
		[4] = { PERF_BR_EXTEND_ABI, PERF_BR_RISCV_NOT_TAKEN },
		[5] = { PERF_BR_COND, 0 },
		[6] = { PERF_BR_UNKNOWN, 0 },
		[7] = { PERF_BR_UNKNOWN, 0 },
		[8] = { PERF_BR_IND_CALL, 0 },
		[9] = { PERF_BR_CALL, 0 },
		[10] = { PERF_BR_IND, 0 },
		[11] = { PERF_BR_UNCOND, 0 },
		[12] = { PERF_BR_EXTEND_ABI, PERF_BR_RISCV_COROUTINE_SWAP },
		[13] = { PERF_BR_RET, 0 },
		[14] = { PERF_BR_IND, 0 },
		[15] = { PERF_BR_UNCOND, 0 },
	};
	unsigned int t;
	u8 type, new_type;

	for (t = 0; t < 16; t++) {
		rvctr_type_to_perf(t, false, &type, &new_type);
		KUNIT_EXPECT_EQ_MSG(test, type, want[t][0], "TYPE %u", t);
		KUNIT_EXPECT_EQ_MSG(test, new_type, want[t][1], "TYPE %u", t);
	}
	/*
	 * An exception raised by ecall is a syscall; the flag means nothing
	 * for any other TYPE.
	 */
	rvctr_type_to_perf(RVP_CTRDATA_TYPE_EXCEPTION, true, &type, &new_type);
	KUNIT_EXPECT_EQ(test, type, (u8)PERF_BR_SYSCALL);
	KUNIT_EXPECT_EQ(test, new_type, 0);
	rvctr_type_to_perf(RVP_CTRDATA_TYPE_DIRECT_CALL, true, &type, &new_type);
	KUNIT_EXPECT_EQ(test, type, (u8)PERF_BR_CALL);
}

static u64 cc(unsigned int cce, unsigned int ccm)
{
	return RVP_CTRDATA_CCV | (u64)cce << RVP_CTRDATA_CCE_SHIFT |
	       (u64)ccm << RVP_CTRDATA_CCM_SHIFT;
}

static void rvctr_test_cycles(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, rvctr_decode_cycles(cc(0, 5) & ~RVP_CTRDATA_CCV), 0);
	KUNIT_EXPECT_EQ(test, rvctr_decode_cycles(cc(0, 0)), 0);
	KUNIT_EXPECT_EQ(test, rvctr_decode_cycles(cc(0, 4095)), 4095);
	KUNIT_EXPECT_EQ(test, rvctr_decode_cycles(cc(1, 0)), 4096);
	KUNIT_EXPECT_EQ(test, rvctr_decode_cycles(cc(1, 7)), 4103);
	KUNIT_EXPECT_EQ(test, rvctr_decode_cycles(cc(3, 1)), (4096 + 1) << 2);
	KUNIT_EXPECT_EQ(test, rvctr_decode_cycles(cc(4, 4095)), 0xfff8);
	KUNIT_EXPECT_EQ(test, rvctr_decode_cycles(cc(5, 0)), 0xffff);
	KUNIT_EXPECT_EQ(test, rvctr_decode_cycles(cc(15, 4095)), 0xffff);
}

static struct rvctr_record rec(u64 from, u64 to, unsigned int type, bool misp)
{
	struct rvctr_record r = {
		.source = from | RVP_CTRSOURCE_V,
		.target = to | (misp ? RVP_CTRTARGET_MISP : 0),
		.data = type | cc(0, 42),
	};
	return r;
}

static void rvctr_test_sanitise(struct kunit *test)
{
	const u64 info = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_TYPE_SAVE |
			 PERF_SAMPLE_BRANCH_PRIV_SAVE;
	struct rvctr_filter fu, fk, fb;
	struct perf_branch_entry e;
	struct rvctr_record r;

	KUNIT_ASSERT_EQ(test, rvctr_filter_init(&fu, info | PERF_SAMPLE_BRANCH_USER, KSTART), 0);
	KUNIT_ASSERT_EQ(test, rvctr_filter_init(&fk, info | PERF_SAMPLE_BRANCH_KERNEL, KSTART), 0);
	KUNIT_ASSERT_EQ(test, rvctr_filter_init(&fb, info | PERF_SAMPLE_BRANCH_USER |
				PERF_SAMPLE_BRANCH_KERNEL, KSTART), 0);

	/* User to user: user events see it all, kernel-only ones nothing. */
	r = rec(UADDR, UADDR + 0x40, RVP_CTRDATA_TYPE_DIRECT_CALL, true);
	KUNIT_ASSERT_TRUE(test, rvctr_record_to_entry(&fu, &r, &e));
	KUNIT_EXPECT_EQ(test, e.from, (u64)UADDR);
	KUNIT_EXPECT_EQ(test, e.to, (u64)UADDR + 0x40);
	KUNIT_EXPECT_EQ(test, (u32)e.mispred, 1);
	KUNIT_EXPECT_EQ(test, (u32)e.predicted, 0);
	KUNIT_EXPECT_EQ(test, (u32)e.cycles, 42);
	KUNIT_EXPECT_EQ(test, (u32)e.type, PERF_BR_CALL);
	KUNIT_EXPECT_EQ(test, (u32)e.priv, PERF_BR_PRIV_USER);
	KUNIT_EXPECT_FALSE(test, rvctr_record_to_entry(&fk, &r, &e));

	/* A trap into the kernel: a user-only event never sees the target. */
	r = rec(UADDR, KADDR, RVP_CTRDATA_TYPE_EXCEPTION, false);
	KUNIT_ASSERT_TRUE(test, rvctr_record_to_entry(&fu, &r, &e));
	KUNIT_EXPECT_EQ(test, e.from, (u64)UADDR);
	KUNIT_EXPECT_EQ(test, e.to, 0ULL);
	KUNIT_EXPECT_EQ(test, (u32)e.type, PERF_BR_EXTEND_ABI);
	KUNIT_EXPECT_EQ(test, (u32)e.new_type, PERF_BR_RISCV_EXCEPTION);
	KUNIT_ASSERT_TRUE(test, rvctr_record_to_entry(&fk, &r, &e));
	KUNIT_EXPECT_EQ(test, e.from, 0ULL);
	KUNIT_EXPECT_EQ(test, e.to, (u64)KADDR);
	KUNIT_EXPECT_EQ(test, (u32)e.priv, PERF_BR_PRIV_UNKNOWN);
	KUNIT_ASSERT_TRUE(test, rvctr_record_to_entry(&fb, &r, &e));
	KUNIT_EXPECT_EQ(test, e.from, (u64)UADDR);
	KUNIT_EXPECT_EQ(test, e.to, (u64)KADDR);

	/* Return to user: the kernel source is hidden from user events. */
	r = rec(KADDR, UADDR, RVP_CTRDATA_TYPE_TRAP_RETURN, false);
	KUNIT_ASSERT_TRUE(test, rvctr_record_to_entry(&fu, &r, &e));
	KUNIT_EXPECT_EQ(test, e.from, 0ULL);
	KUNIT_EXPECT_EQ(test, e.to, (u64)UADDR);
	KUNIT_EXPECT_EQ(test, (u32)e.type, PERF_BR_ERET);

	/* Kernel to kernel: dropped for user events. */
	r = rec(KADDR, KADDR + 8, RVP_CTRDATA_TYPE_TAKEN_BRANCH, false);
	KUNIT_EXPECT_FALSE(test, rvctr_record_to_entry(&fu, &r, &e));
	KUNIT_ASSERT_TRUE(test, rvctr_record_to_entry(&fk, &r, &e));
	KUNIT_EXPECT_EQ(test, (u32)e.priv, PERF_BR_PRIV_KERNEL);

	/* An invalid record is never reported. */
	r.source &= ~RVP_CTRSOURCE_V;
	KUNIT_EXPECT_FALSE(test, rvctr_record_to_entry(&fb, &r, &e));
}

static void rvctr_test_per_event_types(struct kunit *test)
{
	struct rvctr_filter fcall, fret, fany;
	struct perf_branch_entry e;
	struct rvctr_record call = rec(UADDR, UADDR + 0x100, RVP_CTRDATA_TYPE_DIRECT_CALL, false);
	struct rvctr_record ret = rec(UADDR + 0x104, UADDR + 4,
				      RVP_CTRDATA_TYPE_FUNCTION_RETURN, false);
	struct rvctr_record none = rec(UADDR, UADDR + 8, RVP_CTRDATA_TYPE_NONE, false);
	struct rvctr_record ntb = rec(UADDR, UADDR + 4, RVP_CTRDATA_TYPE_NOT_TAKEN_BRANCH, false);

	KUNIT_ASSERT_EQ(test, rvctr_filter_init(&fcall, PERF_SAMPLE_BRANCH_USER |
				PERF_SAMPLE_BRANCH_CALL | PERF_SAMPLE_BRANCH_NO_FLAGS |
				PERF_SAMPLE_BRANCH_NO_CYCLES, KSTART), 0);
	KUNIT_ASSERT_EQ(test, rvctr_filter_init(&fret, PERF_SAMPLE_BRANCH_USER |
				PERF_SAMPLE_BRANCH_ANY_RETURN, KSTART), 0);
	KUNIT_ASSERT_TRUE(test, rvctr_record_to_entry(&fcall, &call, &e));
	/* NO_FLAGS, NO_CYCLES and no TYPE_SAVE: those fields stay 0. */
	KUNIT_EXPECT_EQ(test, (u32)e.predicted, 0);
	KUNIT_EXPECT_EQ(test, (u32)e.cycles, 0);
	KUNIT_EXPECT_EQ(test, (u32)e.type, PERF_BR_UNKNOWN);
	KUNIT_EXPECT_FALSE(test, rvctr_record_to_entry(&fcall, &ret, &e));
	KUNIT_EXPECT_FALSE(test, rvctr_record_to_entry(&fret, &call, &e));
	KUNIT_ASSERT_TRUE(test, rvctr_record_to_entry(&fret, &ret, &e));
	KUNIT_EXPECT_EQ(test, (u32)e.predicted, 1);
	KUNIT_EXPECT_EQ(test, (u32)e.cycles, 42);
	/* TYPE 0 (no TYPE support) only reaches ANY events. */
	KUNIT_EXPECT_FALSE(test, rvctr_record_to_entry(&fcall, &none, &e));
	KUNIT_ASSERT_EQ(test, rvctr_filter_init(&fany, PERF_SAMPLE_BRANCH_USER |
				PERF_SAMPLE_BRANCH_ANY, KSTART), 0);
	KUNIT_ASSERT_TRUE(test, rvctr_record_to_entry(&fany, &none, &e));
	KUNIT_EXPECT_EQ(test, e.from, (u64)UADDR);
	/* Not-taken branches have no perf filter: ANY does not take them. */
	KUNIT_EXPECT_FALSE(test, rvctr_record_to_entry(&fany, &ntb, &e));
}

/* ecall is a call for ANY_CALL events; faults reach ANY events only. */
static void rvctr_test_syscall(struct kunit *test)
{
	const u64 save = PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_KERNEL |
			 PERF_SAMPLE_BRANCH_TYPE_SAVE;
	struct rvctr_filter fcall, fany, fret;
	struct perf_branch_entry e;
	struct rvctr_record ecall, fault;

	fault = rec(UADDR, KADDR, RVP_CTRDATA_TYPE_EXCEPTION, false);
	ecall = fault;
	ecall.syscall = true;
	KUNIT_ASSERT_EQ(test, rvctr_filter_init(&fcall, save | PERF_SAMPLE_BRANCH_ANY_CALL,
						KSTART), 0);
	KUNIT_ASSERT_EQ(test, rvctr_filter_init(&fany, save | PERF_SAMPLE_BRANCH_ANY, KSTART), 0);
	KUNIT_ASSERT_EQ(test, rvctr_filter_init(&fret, save | PERF_SAMPLE_BRANCH_ANY_RETURN,
						KSTART), 0);

	KUNIT_ASSERT_TRUE(test, rvctr_record_to_entry(&fcall, &ecall, &e));
	KUNIT_EXPECT_EQ(test, (u32)e.type, PERF_BR_SYSCALL);
	KUNIT_EXPECT_EQ(test, e.to, (u64)KADDR);
	KUNIT_EXPECT_FALSE(test, rvctr_record_to_entry(&fcall, &fault, &e));
	KUNIT_ASSERT_TRUE(test, rvctr_record_to_entry(&fany, &fault, &e));
	KUNIT_EXPECT_EQ(test, (u32)e.type, PERF_BR_EXTEND_ABI);
	KUNIT_EXPECT_EQ(test, (u32)e.new_type, PERF_BR_RISCV_EXCEPTION);
	KUNIT_ASSERT_TRUE(test, rvctr_record_to_entry(&fany, &ecall, &e));
	KUNIT_EXPECT_EQ(test, (u32)e.type, PERF_BR_SYSCALL);
	KUNIT_EXPECT_FALSE(test, rvctr_record_to_entry(&fret, &ecall, &e));
	KUNIT_EXPECT_FALSE(test, rvctr_record_to_entry(&fret, &fault, &e));
}

/* A hart whose control register keeps only the bits in @mask. */
struct rvctr_fake_ctl {
	u64 mask;
	u64 reg;
};

static u64 rvctr_fake_write_read(void *arg, u64 val)
{
	struct rvctr_fake_ctl *h = arg;

	h->reg = val & h->mask;
	return h->reg;
}

/*
 * Only S, U (and BPFRZ, bit 11) are mandatory in Ssctr 1.0: on a hart
 * without RASEMU, LCOFIFRZ, NTBREN, MISP or any type inhibit, nothing
 * optional is written and call stacks are refused.
 */
static void rvctr_test_optional(struct kunit *test)
{
	const u64 min_v1 = RVP_CTR_V1_MCTRCTL_U | RVP_CTR_V1_MCTRCTL_S | BIT_ULL(11);
	const u64 cs = PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_CALL_STACK;
	struct rvctr_fake_ctl h = { .mask = min_v1, .reg = 0 };
	struct rvctr_filter f;
	struct perf_branch_entry e;
	struct rvctr_record r = rec(UADDR, UADDR + 0x40, RVP_CTRDATA_TYPE_TAKEN_BRANCH, false);
	u64 impl, ctl;

	impl = rvctr_probe_ctl(RVCTR_LAYOUT_V1, rvctr_fake_write_read, &h);
	KUNIT_EXPECT_EQ(test, impl, min_v1);
	KUNIT_EXPECT_EQ(test, h.reg, 0ULL);	/* left off */
	ctl = rvctr_ctl_bits(RVCTR_LAYOUT_V1, BIT(RVP_CTRDATA_TYPE_TAKEN_BRANCH),
			     RVCTR_PRIV_USER, false, impl);
	KUNIT_EXPECT_EQ(test, ctl, (u64)RVP_CTR_V1_MCTRCTL_U);
	ctl = rvctr_ctl_bits(RVCTR_LAYOUT_V1, 0xff2e, RVCTR_PRIV_USER, true, impl);
	KUNIT_EXPECT_EQ(test, ctl & RVP_CTR_V1_MCTRCTL_RASEMU, 0ULL);
	KUNIT_EXPECT_FALSE(test, rvctr_impl_allows(RVCTR_LAYOUT_V1, impl, cs));
	KUNIT_EXPECT_TRUE(test, rvctr_impl_allows(RVCTR_LAYOUT_V1, impl,
						  PERF_SAMPLE_BRANCH_USER |
						  PERF_SAMPLE_BRANCH_ANY));
	/* Some inhibits implemented: only those are written. */
	h.mask = min_v1 | RVP_CTR_V1_MCTRCTL_RASEMU | BIT_ULL(32 + 9);
	impl = rvctr_probe_ctl(RVCTR_LAYOUT_V1, rvctr_fake_write_read, &h);
	ctl = rvctr_ctl_bits(RVCTR_LAYOUT_V1, BIT(RVP_CTRDATA_TYPE_TAKEN_BRANCH),
			     RVCTR_PRIV_USER, false, impl);
	KUNIT_EXPECT_EQ(test, ctl, RVP_CTR_V1_MCTRCTL_U | BIT_ULL(32 + 9));
	KUNIT_EXPECT_TRUE(test, rvctr_impl_allows(RVCTR_LAYOUT_V1, impl, cs));
	/* Without the mandatory bits it is no CTR. */
	h.mask = RVP_CTR_V1_MCTRCTL_U;
	KUNIT_EXPECT_EQ(test, rvctr_probe_ctl(RVCTR_LAYOUT_V1, rvctr_fake_write_read, &h),
			0ULL);
#ifdef CONFIG_RVPERF_CTR_LAYOUT_DRAFT
	/* The draft's DEPTH and CLR are not control options. */
	h.mask = RVP_CTR_DRAFT_MCTRCONTROL_U | RVP_CTR_DRAFT_MCTRCONTROL_S |
		 RVP_CTR_DRAFT_MCTRCONTROL_DEPTH | RVP_CTR_DRAFT_MCTRCONTROL_CLR;
	KUNIT_EXPECT_EQ(test, rvctr_probe_ctl(RVCTR_LAYOUT_DRAFT, rvctr_fake_write_read, &h),
			RVP_CTR_DRAFT_MCTRCONTROL_U | RVP_CTR_DRAFT_MCTRCONTROL_S);
#endif
	/* No ctrtarget.MISP: neither predicted nor mispredicted. */
	KUNIT_ASSERT_EQ(test, rvctr_filter_init(&f, PERF_SAMPLE_BRANCH_USER |
				PERF_SAMPLE_BRANCH_ANY, KSTART), 0);
	f.misp = false;
	KUNIT_ASSERT_TRUE(test, rvctr_record_to_entry(&f, &r, &e));
	KUNIT_EXPECT_EQ(test, (u32)e.predicted, 0);
	KUNIT_EXPECT_EQ(test, (u32)e.mispred, 0);
}

/* A buffer of 256 entries counting its accesses. */
struct rvctr_fake_buf {
	struct rvctr_record e[RVCTR_MAX_DEPTH];
	unsigned int reads, writes, clears;
};

static void rvctr_fake_read(void *arg, unsigned int i, struct rvctr_record *r)
{
	struct rvctr_fake_buf *b = arg;

	b->reads++;
	*r = b->e[i];
}

static void rvctr_fake_write(void *arg, unsigned int i, const struct rvctr_record *r)
{
	struct rvctr_fake_buf *b = arg;

	b->writes++;
	b->e[i] = *r;
}

static void rvctr_fake_clear(void *arg)
{
	struct rvctr_fake_buf *b = arg;

	b->clears++;
	memset(b->e, 0, sizeof(b->e));
}

static const struct rvctr_stack_ops rvctr_fake_ops = {
	.read = rvctr_fake_read,
	.write = rvctr_fake_write,
	.clear = rvctr_fake_clear,
};

/*
 * Save/restore of a call stack: up to the first invalid entry, a save
 * area used once, nothing written back to a buffer nobody touched.
 */
static void rvctr_test_stack_save(struct kunit *test)
{
	struct rvctr_fake_buf *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	struct rvctr_task_ctx *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, b);
	KUNIT_ASSERT_NOT_NULL(test, t);
	for (i = 0; i < 5; i++)
		b->e[i] = rec(UADDR + 16 * i, UADDR + 0x100, RVP_CTRDATA_TYPE_DIRECT_CALL,
			      false);

	rvctr_stack_save(t, 256, &rvctr_fake_ops, b);
	KUNIT_EXPECT_EQ(test, b->reads, 6U);	/* 5 valid, 1 invalid */
	KUNIT_EXPECT_EQ(test, t->nr, 5U);
	KUNIT_EXPECT_TRUE(test, t->valid);

	/* Another task used the buffer: cleared, 5 entries written back. */
	memset(b->e, 0xa5, sizeof(b->e));
	rvctr_stack_restore(t, 256, false, &rvctr_fake_ops, b);
	KUNIT_EXPECT_EQ(test, b->clears, 1U);
	KUNIT_EXPECT_EQ(test, b->writes, 5U);
	KUNIT_EXPECT_EQ(test, b->e[4].source, (u64)(UADDR + 64) | RVP_CTRSOURCE_V);
	KUNIT_EXPECT_EQ(test, b->e[5].source, 0ULL);
	KUNIT_EXPECT_FALSE(test, t->valid);

	/* Back without a save in between: starts empty, not stale. */
	rvctr_stack_restore(t, 256, false, &rvctr_fake_ops, b);
	KUNIT_EXPECT_EQ(test, b->clears, 2U);
	KUNIT_EXPECT_EQ(test, b->writes, 5U);

	/* Saved, and the buffer untouched since: nothing to do. */
	for (i = 0; i < 5; i++)
		b->e[i] = rec(UADDR + 16 * i, UADDR + 0x100, RVP_CTRDATA_TYPE_DIRECT_CALL,
			      false);
	rvctr_stack_save(t, 256, &rvctr_fake_ops, b);
	rvctr_stack_restore(t, 256, true, &rvctr_fake_ops, b);
	KUNIT_EXPECT_EQ(test, b->clears, 2U);
	KUNIT_EXPECT_EQ(test, b->writes, 5U);
	KUNIT_EXPECT_FALSE(test, t->valid);

	/* A different depth since the save: cleared. */
	rvctr_stack_save(t, 256, &rvctr_fake_ops, b);
	rvctr_stack_restore(t, 64, false, &rvctr_fake_ops, b);
	KUNIT_EXPECT_EQ(test, b->clears, 3U);
	KUNIT_EXPECT_EQ(test, b->writes, 5U);
}

/* hw_idx only for a stack the software filter left as the hardware had it. */
static void rvctr_test_hw_idx(struct kunit *test)
{
	struct perf_branch_entry *e = kunit_kcalloc(test, 4, sizeof(*e), GFP_KERNEL);
	struct rvctr_record raw[3] = {
		rec(UADDR, UADDR + 0x100, RVP_CTRDATA_TYPE_DIRECT_CALL, false),
		rec(UADDR + 0x104, UADDR + 4, RVP_CTRDATA_TYPE_FUNCTION_RETURN, false),
		rec(UADDR + 8, UADDR + 0x200, RVP_CTRDATA_TYPE_DIRECT_CALL, false),
	};
	struct rvctr_filter fcall, fany;
	u64 idx;

	KUNIT_ASSERT_NOT_NULL(test, e);
	KUNIT_ASSERT_EQ(test, rvctr_filter_init(&fcall, PERF_SAMPLE_BRANCH_USER |
				PERF_SAMPLE_BRANCH_CALL, KSTART), 0);
	KUNIT_ASSERT_EQ(test, rvctr_filter_init(&fany, PERF_SAMPLE_BRANCH_USER |
				PERF_SAMPLE_BRANCH_ANY, KSTART), 0);
	KUNIT_EXPECT_EQ(test, rvctr_build_stack(&fany, raw, 3, 4, 7, e, &idx), 3U);
	KUNIT_EXPECT_EQ(test, idx, 7ULL);
	/* Cut at the report limit: still the hardware's newest entries. */
	KUNIT_EXPECT_EQ(test, rvctr_build_stack(&fany, raw, 3, 2, 7, e, &idx), 2U);
	KUNIT_EXPECT_EQ(test, idx, 7ULL);
	/* The return dropped: entry 1 is hardware entry 5, not 6. */
	KUNIT_EXPECT_EQ(test, rvctr_build_stack(&fcall, raw, 3, 4, 7, e, &idx), 2U);
	KUNIT_EXPECT_EQ(test, e[1].from, (u64)(UADDR + 8));
	KUNIT_EXPECT_EQ(test, idx, -1ULL);
}

/* RAS emulation: co-routine swaps pop and push, so they are not inhibited. */
static void rvctr_test_coroutine(struct kunit *test)
{
	struct rvctr_record swap = rec(UADDR, UADDR + 0x80, RVP_CTRDATA_TYPE_COROUTINE_SWAP,
				       false);
	struct perf_branch_entry e;
	struct rvctr_filter f;
	u64 ctl;

	KUNIT_ASSERT_EQ(test, rvctr_filter_init(&f, PERF_SAMPLE_BRANCH_USER |
				PERF_SAMPLE_BRANCH_CALL_STACK |
				PERF_SAMPLE_BRANCH_TYPE_SAVE, KSTART), 0);
	ctl = rvctr_ctl_bits(RVCTR_LAYOUT_V1, f.types, f.priv, true, ~0ULL);
	KUNIT_EXPECT_EQ(test, ctl & BIT_ULL(32 + RVP_CTRDATA_TYPE_COROUTINE_SWAP), 0ULL);
	KUNIT_EXPECT_NE(test, ctl & BIT_ULL(32 + RVP_CTRDATA_TYPE_TAKEN_BRANCH), 0ULL);
#ifdef CONFIG_RVPERF_CTR_LAYOUT_DRAFT
	ctl = rvctr_ctl_bits(RVCTR_LAYOUT_DRAFT, f.types, f.priv, true, ~0ULL);
	KUNIT_EXPECT_EQ(test, ctl & BIT_ULL(32 + RVP_CTRDATA_TYPE_COROUTINE_SWAP), 0ULL);
#endif
	KUNIT_ASSERT_TRUE(test, rvctr_record_to_entry(&f, &swap, &e));
	KUNIT_EXPECT_EQ(test, (u32)e.new_type, PERF_BR_RISCV_COROUTINE_SWAP);
}

static struct kunit_case rvctr_logic_cases[] = {
	KUNIT_CASE(rvctr_test_filter_refused),
	KUNIT_CASE(rvctr_test_filter_types),
	KUNIT_CASE(rvctr_test_ctl_v1),
#ifdef CONFIG_RVPERF_CTR_LAYOUT_DRAFT
	KUNIT_CASE(rvctr_test_ctl_draft),
#endif
	KUNIT_CASE(rvctr_test_depth),
	KUNIT_CASE(rvctr_test_types),
	KUNIT_CASE(rvctr_test_cycles),
	KUNIT_CASE(rvctr_test_sanitise),
	KUNIT_CASE(rvctr_test_per_event_types),
	KUNIT_CASE(rvctr_test_syscall),
	KUNIT_CASE(rvctr_test_optional),
	KUNIT_CASE(rvctr_test_stack_save),
	KUNIT_CASE(rvctr_test_hw_idx),
	KUNIT_CASE(rvctr_test_coroutine),
	{}
};

static struct kunit_suite rvctr_logic_suite = {
	.name = "rvperf_ctr_logic",
	.test_cases = rvctr_logic_cases,
};

#if IS_ENABLED(CONFIG_RVPERF_CTR_HW_KUNIT_TEST)
/*
 * What the driver does on live hardware: it hotplugs a cpu and takes a
 * hart's snapshot page away, so it is built only when asked for.
 */
struct rvctr_pm_state {
	unsigned long ctl, depth;		/* before the state was lost */
	unsigned long ctl_after, depth_after;	/* after the CPU PM exit */
	int enter;				/* cpu_pm_enter()'s result */
};

/*
 * Runs on the event's cpu with interrupts off, as an idle driver would:
 * takes the CSRs away as a state that loses the hart's context may, then
 * goes through the CPU PM notifiers that must put them back.
 */
static void rvctr_pm_lose_and_exit(void *arg)
{
	struct rvctr_pm_state *s = arg;

	s->ctl = csr_read(RVCTR_TEST_CSR_CTL);
	csr_write(RVCTR_TEST_CSR_CTL, 0);
#ifdef RVCTR_TEST_CSR_DEPTH
	s->depth = csr_read(RVCTR_TEST_CSR_DEPTH);
	/* Any other encoding the hart takes (WARL). */
	csr_write(RVCTR_TEST_CSR_DEPTH, s->depth ? 0 : 4);
#endif
	s->enter = cpu_pm_enter();
	if (!s->enter)
		cpu_pm_exit();
	s->ctl_after = csr_read(RVCTR_TEST_CSR_CTL);
#ifdef RVCTR_TEST_CSR_DEPTH
	s->depth_after = csr_read(RVCTR_TEST_CSR_DEPTH);
#endif
}

/* A branch event active across a CPU PM exit that lost CTR's CSRs. */
static void rvctr_test_pm_restore(struct kunit *test)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_HARDWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_HW_CPU_CYCLES,
		/* A sampling event that does not overflow during the test. */
		.sample_period = 1ULL << 40,
		.sample_type = PERF_SAMPLE_BRANCH_STACK,
		.branch_sample_type = PERF_SAMPLE_BRANCH_ANY |
				      PERF_SAMPLE_BRANCH_USER,
		.exclude_kernel = 1,
		.pinned = 1,
	};
	struct rvctr_pm_state s = { };
	struct perf_event *event;
	int cpu;

	if (!IS_ENABLED(CONFIG_CPU_PM))
		kunit_skip(test, "no CONFIG_CPU_PM");
	if (!rvctr_depth())
		kunit_skip(test, "no CTR on this hart");
	cpu = cpumask_first(cpu_online_mask);
	event = perf_event_create_kernel_counter(&attr, cpu, NULL, NULL, NULL);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(event), "branch event: %ld",
			       PTR_ERR(event));
	smp_call_function_single(cpu, rvctr_pm_lose_and_exit, &s, 1);
	perf_event_release_kernel(event);

	KUNIT_ASSERT_NE_MSG(test, s.ctl, 0UL, "the event programmed no CTR");
	KUNIT_ASSERT_EQ(test, s.enter, 0);
	KUNIT_EXPECT_EQ(test, s.ctl_after, s.ctl);
	KUNIT_EXPECT_EQ(test, s.depth_after, s.depth);
}

#define RVCTR_SNAP_LOOPS	200000

struct rvctr_snap_state {
	long err;			/* of taking the page away */
};

/*
 * Runs on the event's cpu: the SBI implementation forgets the hart's
 * snapshot page behind the driver's back (as it may, e.g. after a firmware
 * reset of the hart's PMU state), then the counted work.
 */
static void rvctr_snap_take_away(void *arg)
{
	struct rvctr_snap_state *s = arg;
	struct sbiret ret;
	unsigned int i;

	ret = sbi_ecall(SBI_EXT_PMU, SBI_EXT_PMU_SNAPSHOT_SET_SHMEM,
			SBI_SHMEM_DISABLE, SBI_SHMEM_DISABLE, 0, 0, 0, 0);
	s->err = ret.error;
	for (i = 0; i < RVCTR_SNAP_LOOPS; i++)
		barrier();
}

/*
 * add_cpu() right after remove_cpu(): the hotplug core reports a cpu dead
 * before its hart has stopped in the firmware (arch_cpu_idle_dead() calls
 * cpu_stop() after cpuhp_ap_report_dead()), and starting a hart that is
 * still STOP_PENDING fails (seen without -icount: "HART1 isn't stopped;
 * status 3", then -EINVAL).  Tried again for up to a second.
 */
static int rvctr_add_cpu(unsigned int cpu)
{
	int ret, tries;

	for (tries = 0; (ret = add_cpu(cpu)) && tries < 50; tries++)
		msleep(20);
	return ret;
}

/*
 * A counting event on a hart whose snapshot page is gone: its stop with
 * SBI_PMU_STOP_FLAG_TAKE_SNAPSHOT fails (SBI_ERR_NO_SHMEM), and the count
 * must still be the work's, not a stale value from the page.  The hart
 * goes offline and back afterwards, which gives it its page again.
 */
static void rvctr_test_snapshot_lost(struct kunit *test)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_HARDWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_HW_INSTRUCTIONS,
		.exclude_user = 1,
		.exclude_hv = 1,
		.pinned = 1,
	};
	struct rvctr_snap_state s = { };
	struct perf_event *event;
	u64 count, enabled, running;
	int cpu;

	if (sbi_spec_version < sbi_mk_version(2, 0))
		kunit_skip(test, "SBI before v2.0: no snapshot");
	cpu = cpumask_last(cpu_online_mask);
	if (!cpu)
		kunit_skip(test, "one hart: none to take offline afterwards");
	event = perf_event_create_kernel_counter(&attr, cpu, NULL, NULL, NULL);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(event), "instructions: %ld",
			       PTR_ERR(event));
	smp_call_function_single(cpu, rvctr_snap_take_away, &s, 1);
	perf_event_disable(event);
	count = perf_event_read_value(event, &enabled, &running);
	perf_event_release_kernel(event);
	if (!s.err) {
		KUNIT_EXPECT_EQ(test, remove_cpu(cpu), 0);
		KUNIT_EXPECT_EQ(test, rvctr_add_cpu(cpu), 0);
	}

	if (s.err == SBI_ERR_NOT_SUPPORTED)
		kunit_skip(test, "the SBI implementation has no snapshot");
	KUNIT_ASSERT_EQ(test, s.err, 0L);
	/*
	 * At least the loop; the hart's other kernel work (boot-time
	 * probes) adds millions.  A value from a stale page is 0 or the
	 * difference to the start value, wrapped: far above 2^32.
	 */
	KUNIT_EXPECT_GE(test, count, (u64)RVCTR_SNAP_LOOPS);
	KUNIT_EXPECT_LT(test, count, 1ULL << 32);
}

static struct kunit_case rvctr_hw_cases[] = {
	KUNIT_CASE(rvctr_test_pm_restore),
	KUNIT_CASE(rvctr_test_snapshot_lost),
	{}
};

static struct kunit_suite rvctr_hw_suite = {
	.name = "rvperf_ctr_hw",
	.test_cases = rvctr_hw_cases,
};

kunit_test_suites(&rvctr_logic_suite, &rvctr_hw_suite);
#else
kunit_test_suites(&rvctr_logic_suite);
#endif

MODULE_DESCRIPTION("KUnit tests for rvperf's CTR branch-stack logic");
MODULE_LICENSE("GPL");
#ifdef RVPERF_MODULE_NS_IDENT
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
#else
MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING");
#endif
