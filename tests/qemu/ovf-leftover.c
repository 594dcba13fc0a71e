/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tests/qemu/ovf-leftover.c - the smallest program that shows QEMU's stale
 * overflow leftover (target/riscv/pmu.c, riscv_pmu_setup_timer(); fixed by
 * qemu-model/qemu/patches/0007, worked around in rvperf's firmware).
 *
 * QEMU raises the overflow of a counter counting instructions (or cycles)
 * from a timer.  A counter started 2^63 - 1 counts from overflowing (how
 * Linux starts a counting event) has a deadline past INT64_MAX ns; QEMU
 * keeps the rest for the timer's next expiry and never clears it.  The
 * same counter then started 1000 counts from overflowing must raise one
 * LCOFI once it wraps; with the stale rest the expiry re-arms the timer
 * instead, and the LCOFI comes only about the time since boot later.
 *
 * mhpmevent3 = 2 is QEMU's instructions event (SBI hardware event 2),
 * also on a QEMU with the rvperf model, which leaves those to QEMU.
 */
#include "guest.h"

static volatile unsigned long ovf_taken;

__attribute__((interrupt("machine"), aligned(4))) static void ovf_trap(void)
{
	ovf_taken++;
	__asm__ volatile("csrc mip, %0\n\tcsrc mie, %0" : : "r"(1UL << 13));
}

static void check(const char *what, unsigned long got, unsigned long want)
{
	put_str(got == want ? "ok " : "not ok ");
	put_line(what, got);
}

/* About 3 * n instructions. */
static void spin(unsigned long n)
{
	__asm__ volatile("1: addi %0, %0, -1\n\tbnez %0, 1b"
			 : "+r"(n) : : "memory");
}

static void run(int far_first, unsigned long *taken, unsigned long *value)
{
	unsigned long v, old_tvec;

	ovf_taken = 0;
	__asm__ volatile("csrr %0, mtvec" : "=r"(old_tvec));
	__asm__ volatile("csrw mtvec, %0" : : "r"((unsigned long)ovf_trap));
	__asm__ volatile("csrs mcountinhibit, %0" : : "r"(1UL << 3));
	__asm__ volatile("csrw mhpmevent3, %0" : : "r"(2UL));
	if (far_first) {
		/* A counting event: started far from overflowing, stopped. */
		__asm__ volatile("csrw mhpmcounter3, %0" : : "r"((1UL << 63) + 1));
		__asm__ volatile("csrc mcountinhibit, %0" : : "r"(1UL << 3));
		spin(1000);
		__asm__ volatile("csrs mcountinhibit, %0" : : "r"(1UL << 3));
	}
	/* A sampling event: 1000 instructions to go. */
	__asm__ volatile("csrw mhpmcounter3, %0" : : "r"(-1000UL));
	__asm__ volatile("csrs mie, %0" : : "r"(1UL << 13));	/* LCOFIE */
	__asm__ volatile("csrs mstatus, %0" : : "r"(1UL << 3));	/* MIE */
	__asm__ volatile("csrc mcountinhibit, %0" : : "r"(1UL << 3));
	/* Far more than 1000 instructions (the script runs it under -icount,
	 * where the overflow is due after exactly those). */
	spin(20000000);
	__asm__ volatile("csrs mcountinhibit, %0" : : "r"(1UL << 3));
	__asm__ volatile("csrc mstatus, %0" : : "r"(1UL << 3));
	__asm__ volatile("csrr %0, mhpmevent3" : "=r"(v));
	*value = v >> 63;
	*taken = ovf_taken;
	__asm__ volatile("csrc mie, %0" : : "r"(1UL << 13));
	__asm__ volatile("csrw mhpmevent3, zero");
	__asm__ volatile("csrw mtvec, %0" : : "r"(old_tvec));
}

void ops(void)
{
	unsigned long taken, of;

	run(0, &taken, &of);
	check("near start alone: LCOFIs taken", taken, 1);
	check("near start alone: mhpmevent3.OF", of, 1);
	run(1, &taken, &of);
	check("near start after a far one: LCOFIs taken", taken, 1);
	check("near start after a far one: mhpmevent3.OF", of, 1);
}
