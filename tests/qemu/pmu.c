/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tests/qemu/pmu.c - the counter model's events through mhpmevent (issue
 * 7), with CTR recording off (mctrctl = 0): mhpmevent3..7 select branches,
 * taken branches, mispredicted branches, calls and returns (the model's
 * encodings 3, 4, 5, 6, 7; rvp_pmu.h), and a loop of 50 iterations of a
 * call, a return and a loop branch must count 50 branches, 49 taken, 2
 * mispredicted (the bimodal counter starts weakly not-taken: the first
 * taken and the final not-taken miss), 50 calls and 50 returns.  The
 * counters are zeroed and read in the same asm block as the loop, so
 * nothing else runs in between.
 */
#include "guest.h"

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
}
