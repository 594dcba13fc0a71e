/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tests/qemu/pmu.c - the counter model's events through mhpmevent (issue
 * 7), with CTR recording off (mctrctl = 0): mhpmevent3..7 select branches,
 * taken branches, mispredicted branches, calls and returns (the model's
 * encodings 3, 4, 5, 6, 7; hpmhw.h), and a loop of 50 iterations of a
 * call, a return and a loop branch must count 50 branches, 49 taken, 2
 * mispredicted (the bimodal counter starts weakly not-taken: the first
 * taken and the final not-taken miss), 50 calls and 50 returns.  The
 * counters are zeroed and read in the same asm block as the loop, so
 * nothing else runs in between.
 *
 * Then overflow (Sscofpmf): mhpmcounter3 counting calls starts at -10;
 * the 10th of 20 calls wraps it, which must set mhpmevent3.OF and
 * scountovf bit 3 and raise the LCOFI, taken in M-mode right after that
 * call (the handler's first read of the counter: 0), once; the counter
 * ends at 10.  And mcountinhibit bit 3 stops it.
 */
#include "guest.h"

static void check(const char *what, unsigned long got, unsigned long want);

static volatile unsigned long ovf_cause, ovf_count, ovf_taken;

__attribute__((interrupt("machine"), aligned(4))) static void ovf_trap(void)
{
	unsigned long v;

	__asm__ volatile("csrr %0, mhpmcounter3" : "=r"(v));
	ovf_count = v;
	__asm__ volatile("csrr %0, mcause" : "=r"(v));
	ovf_cause = v;
	ovf_taken++;
	/* LCOFIP is software's to clear; no more of them */
	__asm__ volatile("csrc mip, %0\n\tcsrc mie, %0" : : "r"(1UL << 13));
}

static __attribute__((noinline)) void callee(void)
{
	__asm__ volatile("" ::: "memory");
}

static void overflow(void)
{
	unsigned long v, old_tvec;

	__asm__ volatile("csrr %0, mtvec" : "=r"(old_tvec));
	__asm__ volatile("csrw mtvec, %0" : : "r"((unsigned long)ovf_trap));
	__asm__ volatile("csrw mhpmevent3, %0" : : "r"(6UL));	/* calls */
	__asm__ volatile("csrw mhpmcounter3, %0" : : "r"(-10UL));
	__asm__ volatile("csrs mie, %0" : : "r"(1UL << 13));	/* LCOFIE */
	__asm__ volatile("csrs mstatus, %0" : : "r"(1UL << 3));	/* MIE */
	for (int i = 0; i < 20; i++)
		callee();
	__asm__ volatile("csrc mstatus, %0" : : "r"(1UL << 3));
	__asm__ volatile("csrr %0, mhpmcounter3" : "=r"(v));
	check("overflow: count after 20 calls from -10", v, 10);
	check("overflow: LCOFIs taken", ovf_taken, 1);
	check("overflow: mcause", ovf_cause, (1UL << 63) | 13);
	check("overflow: counter when the LCOFI is taken", ovf_count, 0);
	__asm__ volatile("csrr %0, mhpmevent3" : "=r"(v));
	check("overflow: mhpmevent3.OF", v >> 63, 1);
	__asm__ volatile("csrr %0, 0xda0" : "=r"(v));	/* scountovf */
	check("overflow: scountovf bit 3", (v >> 3) & 1, 1);
	/* mcountinhibit.HPM3 stops it; clearing it lets it count again */
	__asm__ volatile("csrw mhpmevent3, %0" : : "r"(6UL));	/* OF off */
	__asm__ volatile("csrw mhpmcounter3, zero");
	__asm__ volatile("csrs mcountinhibit, %0" : : "r"(1UL << 3));
	for (int i = 0; i < 5; i++)
		callee();
	__asm__ volatile("csrr %0, mhpmcounter3" : "=r"(v));
	check("mcountinhibit: inhibited counter after 5 calls", v, 0);
	__asm__ volatile("csrc mcountinhibit, %0" : : "r"(1UL << 3));
	for (int i = 0; i < 5; i++)
		callee();
	__asm__ volatile("csrr %0, mhpmcounter3" : "=r"(v));
	check("mcountinhibit: cleared again, 5 calls", v, 5);
	__asm__ volatile("csrw mhpmevent3, zero");
	__asm__ volatile("csrw mtvec, %0" : : "r"(old_tvec));
}

static void check(const char *what, unsigned long got, unsigned long want)
{
	put_str(got == want ? "ok " : "not ok ");
	put_line(what, got);
}

void ops(void)
{
	unsigned long c[5];

	__asm__ volatile(".option push\n.option norvc\n"
			 "	csrw 0x34e, zero\n"
			 "	li t0, 3\n	csrw 0x323, t0\n"
			 "	li t0, 4\n	csrw 0x324, t0\n"
			 "	li t0, 5\n	csrw 0x325, t0\n"
			 "	li t0, 6\n	csrw 0x326, t0\n"
			 "	li t0, 7\n	csrw 0x327, t0\n"
			 "	csrw 0xb03, zero\n	csrw 0xb04, zero\n"
			 "	csrw 0xb05, zero\n	csrw 0xb06, zero\n"
			 "	csrw 0xb07, zero\n"
			 "	li t0, 50\n"
			 "1:	jal ra, 2f\n"
			 "	addi t0, t0, -1\n"
			 "	bnez t0, 1b\n"
			 "	csrr %0, 0xb03\n	csrr %1, 0xb04\n"
			 "	csrr %2, 0xb05\n	csrr %3, 0xb06\n"
			 "	csrr %4, 0xb07\n"
			 "	j 3f\n"
			 "2:	ret\n"
			 "3:\n"
			 ".option pop\n"
			 : "=&r"(c[0]), "=&r"(c[1]), "=&r"(c[2]), "=&r"(c[3]),
			   "=&r"(c[4])
			 : : "ra", "t0", "memory");
	check("branches", c[0], 50);
	check("taken-branches", c[1], 49);
	check("mispredicts", c[2], 2);
	check("calls", c[3], 50);
	check("returns", c[4], 50);
	overflow();
}
