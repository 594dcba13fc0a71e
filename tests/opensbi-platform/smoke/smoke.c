// SPDX-License-Identifier: BSD-2-Clause
/*
 * smoke.c - S-mode payload for rvperf in OpenSBI (the external platform
 * or generic with rvperf) on QEMU virt with 2 harts: the rvperf PMU
 * extension answers, firmware events OpenSBI raises reach the rvperf
 * counters exactly (SET_TIMER, IPI_SENT, IPI_RECEIVED), and a hart
 * stopped and started again through HSM comes back with fresh PMU state.
 * On a hart with CTR (Smctr/Ssctr), also that M-mode let S-mode reach the
 * CTR CSRs (mstateen0), programmed the maximum depth, and cleared the
 * records when the hart started again.
 * Prints TAP on the SBI debug console, then shuts the machine down.
 * The full conformance suite is tests/conformance/; this only covers what
 * is specific to the platform glue.
 */
#include <rvperf/ctr.h>
#include <rvperf/sbi_pmu.h>

#include "../../payload/sbi_payload.h"

#define SIP_SSIP	2UL
#define ERR_INVALID_PARAM	(-3)
#define ERR_ALREADY_STOPPED	(-8)
#define FW_EVENT(code)	(((ulong)RVP_SBI_PMU_EVENT_TYPE_FW << 16) | (code))
#define CFG_CLEAR_AUTOSTART \
	(RVP_SBI_PMU_CFG_FLAG_CLEAR_VALUE | RVP_SBI_PMU_CFG_FLAG_AUTO_START)



static int tap_n, tap_failed;

static void ok(int cond, const char *what, long got)
{
	tap_n++;
	tap_failed += !cond;
	put_str(cond ? "ok " : "not ok ");
	put_num(tap_n);
	put_str(" - ");
	put_str(what);
	put_str(" (");
	put_num(got);
	put_str(")\n");
}

static ulong all_ctrs;		/* counter_idx_mask for 0..num_counters-1 */

static struct sbiret pmu_match_fw(ulong code)
{
	return sbi(RVP_SBI_EXT_PMU, RVP_SBI_PMU_FID_COUNTER_CONFIG_MATCHING, 0,
		   all_ctrs, CFG_CLEAR_AUTOSTART, FW_EVENT(code), 0, 0);
}

static long pmu_fw_read(ulong idx)
{
	struct sbiret r = sbi(RVP_SBI_EXT_PMU, RVP_SBI_PMU_FID_COUNTER_FW_READ,
			      idx, 0, 0, 0, 0, 0);

	return r.error ? r.error : (long)r.value;
}

static void set_timer_far(void)
{
	sbi(EXT_TIME, 0, ~0UL, 0, 0, 0, 0, 0);
}

#define STR_(x) #x
#define STR(x) STR_(x)

extern volatile int smoke_trapped;

/* CTR CSRs from S-mode: -1 when the access traps (no CTR, or not enabled
 * for S-mode by M-mode). */
static long sctrdepth_read(void)
{
	ulong v;

	smoke_trapped = 0;
	asm volatile(".option push\n.option norvc\n"
		     "csrr %0, " STR(RVP_CTR_V1_CSR_SCTRDEPTH) "\n"
		     ".option pop" : "=r"(v) : : "memory");
	return smoke_trapped ? -1 : (long)v;
}

static long sctrstatus_read(void)
{
	ulong v;

	smoke_trapped = 0;
	asm volatile(".option push\n.option norvc\n"
		     "csrr %0, " STR(RVP_CTR_V1_CSR_SCTRSTATUS) "\n"
		     ".option pop" : "=r"(v) : : "memory");
	return smoke_trapped ? -1 : (long)v;
}

static void sctrctl_write(ulong v)
{
	asm volatile(".option push\n.option norvc\n"
		     "csrw " STR(RVP_CTR_V1_CSR_SCTRCTL) ", %0\n"
		     ".option pop" : : "r"(v) : "memory");
}

/* Some taken branches for CTR to record. */
static void branches(void)
{
	volatile int i;

	for (i = 0; i < 20; i++)
		;
}

/* Hart 1's side; it stops itself at the end of each run. */
static volatile int h1_runs, h1_ready, h1_got;
static volatile long h1_ctr, h1_timer, h1_old, h1_ipi, h1_wrptr[2];
static int have_ctr;

static void hart1(void)
{
	struct sbiret r;
	ulong sip;

	if (h1_runs == 0) {
		r = pmu_match_fw(RVP_SBI_PMU_FW_SET_TIMER);
		h1_ctr = r.error ? -1 : (long)r.value;
		set_timer_far();
		set_timer_far();
		h1_timer = pmu_fw_read(h1_ctr);
		if (have_ctr) {
			/* Record S-mode transfers, then stop with them. */
			sctrctl_write(RVP_CTR_V1_MCTRCTL_S);
			branches();
			sctrctl_write(0);
			h1_wrptr[0] = sctrstatus_read() &
				      RVP_CTR_V1_SCTRSTATUS_WRPTR;
		}
	} else {
		if (have_ctr)
			h1_wrptr[1] = sctrstatus_read() &
				      RVP_CTR_V1_SCTRSTATUS_WRPTR;
		/* The counter mapped in the first run must be gone. */
		h1_old = pmu_fw_read(h1_ctr);
		r = pmu_match_fw(RVP_SBI_PMU_FW_IPI_RECEIVED);
		h1_ctr = r.error ? -1 : (long)r.value;
		h1_ready = 1;
		while (h1_got < 3) {
			asm volatile("csrr %0, sip" : "=r"(sip));
			if (sip & SIP_SSIP) {
				asm volatile("csrc sip, %0" : : "r"(SIP_SSIP));
				h1_got++;
			}
		}
		h1_ipi = pmu_fw_read(h1_ctr);
	}
	h1_runs++;
	sbi(EXT_HSM, 1, 0, 0, 0, 0, 0, 0);		/* hart_stop */
}

/*
 * OpenSBI's cold-boot lottery may pick either hart: the one that enters
 * first runs the checks, the other ("hart 1" in the messages) is the one
 * started and stopped through HSM.
 */
static volatile ulong main_hart = ~0UL, other_hart;

static void wait_hart1_stopped(void)
{
	while (sbi(EXT_HSM, 2, other_hart, 0, 0, 0, 0, 0).value != 1)
		;
}

extern char _start[];

void smoke_main(ulong hartid);
void smoke_main(ulong hartid)
{
	struct sbiret r;
	ulong n, c;
	long d;
	int i;

	sbi_console_dbcn = 1;	/* the platform is SBI v3.0 */
	if (main_hart == ~0UL) {
		main_hart = hartid;
		other_hart = hartid ^ 1;
	}
	if (hartid != main_hart) {
		hart1();
		return;
	}
	r = sbi(EXT_BASE, 3, RVP_SBI_EXT_PMU, 0, 0, 0, 0, 0);
	ok(!r.error && r.value == 1, "the PMU extension is there", r.value);
	r = sbi(RVP_SBI_EXT_PMU, RVP_SBI_PMU_FID_NUM_COUNTERS, 0, 0, 0, 0, 0, 0);
	n = r.value;
	ok(!r.error && n > 16 && n < 64,
	   "num_counters: hardware and 16 firmware counters", n);
	all_ctrs = (1UL << n) - 1;

	r = pmu_match_fw(RVP_SBI_PMU_FW_SET_TIMER);
	c = r.value;
	ok(!r.error, "SET_TIMER goes on a firmware counter",
	   r.error ? r.error : (long)c);
	for (i = 0; i < 10; i++)
		set_timer_far();
	ok(pmu_fw_read(c) == 10, "SET_TIMER counts 10 sbi_set_timer calls",
	   pmu_fw_read(c));
	r = sbi(RVP_SBI_EXT_PMU, RVP_SBI_PMU_FID_COUNTER_STOP, c, 1, 0, 0, 0, 0);
	for (i = 0; i < 5; i++)
		set_timer_far();
	ok(!r.error && pmu_fw_read(c) == 10, "stopped, it counts no more",
	   pmu_fw_read(c));
	r = sbi(RVP_SBI_EXT_PMU, RVP_SBI_PMU_FID_COUNTER_STOP, c, 1,
		RVP_SBI_PMU_STOP_FLAG_RESET, 0, 0, 0);
	ok(r.error == ERR_ALREADY_STOPPED && pmu_fw_read(c) == ERR_INVALID_PARAM,
	   "stop(RESET) of the stopped counter: ALREADY_STOPPED, and released: fw_read is INVALID_PARAM",
	   pmu_fw_read(c));

	d = sctrdepth_read();
	have_ctr = d >= 0;
	if (have_ctr)
		ok((d & RVP_CTR_V1_SCTRDEPTH_DEPTH) == RVP_CTR_V1_DEPTH_ENC_256,
		   "CTR: S-mode reaches sctrdepth, depth is the maximum (256)",
		   d);
	else
		put_str("# no CTR (sctrdepth traps): CTR checks skipped\n");

	r = sbi(EXT_HSM, 0, other_hart, (ulong)_start, 0, 0, 0, 0);
	ok(!r.error, "HSM starts hart 1", r.error);
	wait_hart1_stopped();
	ok(h1_timer == 2, "hart 1 counts its own 2 SET_TIMERs, not hart 0's",
	   h1_timer);

	r = sbi(EXT_HSM, 0, other_hart, (ulong)_start, 0, 0, 0, 0);
	ok(!r.error, "HSM starts hart 1 again", r.error);
	while (!h1_ready)
		;
	r = pmu_match_fw(RVP_SBI_PMU_FW_IPI_SENT);
	c = r.value;
	for (i = 0; i < 3; i++) {
		sbi(EXT_IPI, 0, 1UL << other_hart, 0, 0, 0, 0, 0);
		while (h1_got < i + 1)
			;
	}
	ok(!r.error && pmu_fw_read(c) == 3, "IPI_SENT counts 3 IPIs to hart 1",
	   r.error ? r.error : pmu_fw_read(c));
	wait_hart1_stopped();
	ok(h1_old == ERR_INVALID_PARAM,
	   "restarted hart 1 has fresh PMU state (old counter unmapped)",
	   h1_old);
	ok(h1_ipi == 3, "hart 1's IPI_RECEIVED counts the 3 IPIs", h1_ipi);
	if (have_ctr) {
		ok(h1_wrptr[0] != 0, "CTR: hart 1 recorded S-mode branches",
		   h1_wrptr[0]);
		ok(h1_wrptr[1] == 0,
		   "CTR: restarted hart 1 finds the records cleared", h1_wrptr[1]);
	}

	put_str("1..");
	put_num(tap_n);
	put_char('\n');
	sbi(EXT_SRST, 0, 0, 0, 0, 0, 0, 0);		/* shutdown */
}
