/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tests/qemu/insn-gate.c - the same loop translated three times: while
 * minstret counts (ig_count), while nothing counts instructions
 * (mcountinhibit all set: ig_off) and while mhpmcounter3 can overflow on
 * them (ig_deadline).  insn-count.sh reads QEMU's -d in_asm,op log: only
 * the first and the third may add to the instruction count, only the
 * third may check the overflow point (qemu-model/qemu patch 0008).
 */
#include "guest.h"

void ig_count(unsigned long n);
void ig_off(unsigned long n);
void ig_deadline(unsigned long n);

/* Each loop: two instructions, a block of its own (the branch ends it). */
__asm__(
	".text\n"
	".balign 64\n"
	".globl ig_count\n"
	"ig_count:\n"
	"1:	addi a0, a0, -1\n"
	"	bnez a0, 1b\n"
	"	ret\n"
	".balign 64\n"
	".globl ig_off\n"
	"ig_off:\n"
	"1:	addi a0, a0, -1\n"
	"	bnez a0, 1b\n"
	"	ret\n"
	".balign 64\n"
	".globl ig_deadline\n"
	"ig_deadline:\n"
	"1:	addi a0, a0, -1\n"
	"	bnez a0, 1b\n"
	"	ret\n");

void ops(void)
{
	put_line("ig_count", (unsigned long)ig_count);
	put_line("ig_off", (unsigned long)ig_off);
	put_line("ig_deadline", (unsigned long)ig_deadline);
	ig_count(1000);
	__asm__ volatile("csrw mcountinhibit, %0" : : "r"(~0UL));
	ig_off(1000);
	/* mhpmcounter3 on instructions, far from overflowing, OF clear */
	__asm__ volatile("csrw mhpmevent3, %0" : : "r"(2UL));
	__asm__ volatile("csrw mhpmcounter3, %0" : : "r"(-1000000UL));
	__asm__ volatile("csrc mcountinhibit, %0" : : "r"(1UL << 3));
	ig_deadline(1000);
	__asm__ volatile("csrw mcountinhibit, %0" : : "r"(~0UL));
	__asm__ volatile("csrw mhpmevent3, zero");
}
