/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tests/bench/bench-qemu-work.c - the bare-metal workload of
 * bench-qemu.sh: M-mode writes BENCH_CTL to mctrctl (0: CTR disabled;
 * mctrctl.M: recording every transfer type in M) and runs BENCH_ITERS
 * iterations of a call, a return and a loop branch around a few ALU
 * instructions (9 instructions, 3 transfers each), then powers off.
 * Built with tests/qemu/start.S and guest.c.
 */
#include "tests/qemu/guest.h"

__asm__(".text\n.globl bench_loop\n"
	"bench_loop:\n"
	"	mv t2, ra\n"
	"1:	jal ra, bench_leaf\n"
	"	addi a0, a0, -1\n"
	"	bnez a0, 1b\n"
	"	mv ra, t2\n"
	"	ret\n"
	"bench_leaf:\n"
	"	add t3, t3, a0\n"
	"	xor t4, t4, t3\n"
	"	slli t5, t4, 1\n"
	"	add t6, t6, t5\n"
	"	ret\n");

void ops(void)
{
	__asm__ volatile("csrw 0x34e, %0\n"
			 "	mv a0, %1\n"
			 "	call bench_loop\n"
			 "	csrw 0x34e, zero\n"
			 : : "r"((unsigned long)BENCH_CTL),
			   "r"((unsigned long)BENCH_ITERS)
			 : "ra", "a0", "t2", "t3", "t4", "t5", "t6", "memory");
}
