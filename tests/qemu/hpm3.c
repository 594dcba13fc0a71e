/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tests/qemu/hpm3.c - mhpmcounter3 over known code, for the guests that
 * check what a counter counts (insn-count.c: instructions, cycle-count.c:
 * cycles): over a loop, and where its overflow interrupt (LCOFI) is
 * taken: M-mode code starts the counter right before a nop sled and the
 * handler records mepc and the counter as it reads it.
 *
 * Assembled without compressed instructions or relaxation, so the sled
 * offsets and the handler's own instruction count (9 up to its read of
 * mhpmcounter3) are those of the source.
 */
#include "hpm3.h"

/* the LCOFI's mepc (0: none yet) and mhpmcounter3 read in the handler */
unsigned long hpm3_lcofi_epc, hpm3_lcofi_count;
/* where an exception (an ECALL from a U-mode sled) goes back to, in M-mode */
unsigned long hpm3_lcofi_back;

__asm__(
	".option push\n"
	".option norvc\n"
	".option norelax\n"
	".text\n"
	/* hpm3_loop(n): mhpmcounter3 over n iterations of two instructions */
	".globl hpm3_loop\n"
	"hpm3_loop:\n"
	"	csrr t0, mhpmcounter3\n"
	"1:	addi a0, a0, -1\n"
	"	bnez a0, 1b\n"
	"	csrr a0, mhpmcounter3\n"
	"	sub a0, a0, t0\n"
	"	ret\n"
	/*
	 * The handler: on the LCOFI records mepc and mhpmcounter3 (nine
	 * instructions up to that read: csrr, bgez, la (2), csrr, sd, la
	 * (2), the read), turns LCOFIE off and clears LCOFIP; an exception
	 * goes to hpm3_lcofi_back.
	 */
	".balign 4\n"
	".globl hpm3_lcofi_trap\n"
	"hpm3_lcofi_trap:\n"
	"	csrr t6, mcause\n"
	"	bgez t6, 1f\n"
	"	la t5, hpm3_lcofi_epc\n"
	"	csrr t6, mepc\n"
	"	sd t6, 0(t5)\n"
	"	la t5, hpm3_lcofi_count\n"
	"	csrr t6, mhpmcounter3\n"
	"	sd t6, 0(t5)\n"
	"	li t6, 1 << 13\n"
	"	csrc mie, t6\n"
	"	csrc mip, t6\n"
	"	mret\n"
	"1:	la t5, hpm3_lcofi_back\n"
	"	ld t5, 0(t5)\n"
	"	jr t5\n"
	/*
	 * hpm3_lcofi(event, start): mhpmcounter3 counting EVENT from START
	 * in M-mode right before a sled of 2100 nops; returns where the
	 * LCOFI was taken, as mepc minus the sled's start (0 if none was).
	 */
	".globl hpm3_lcofi\n"
	"hpm3_lcofi:\n"
	"	csrr t4, mtvec\n"
	"	la t3, hpm3_lcofi_trap\n"
	"	csrw mtvec, t3\n"
	"	li t3, 1 << 3\n"
	"	csrs mcountinhibit, t3\n"
	"	csrw mhpmevent3, a0\n"
	"	csrw mhpmcounter3, a1\n"
	"	li t3, 1 << 13\n"
	"	csrs mie, t3\n"
	"	csrsi mstatus, 8\n"
	"	li t3, 1 << 3\n"
	"	csrc mcountinhibit, t3\n"	/* counts from the next one */
	"hpm3_sled:\n"
	"	.rept 2100\n"
	"	nop\n"
	"	.endr\n"
	"	csrci mstatus, 8\n"
	"	li t3, 1 << 3\n"
	"	csrs mcountinhibit, t3\n"
	"	csrw mtvec, t4\n"
	"	la t3, hpm3_lcofi_epc\n"
	"	ld a0, 0(t3)\n"
	"	beqz a0, 1f\n"
	"	la t3, hpm3_sled\n"
	"	sub a0, a0, t3\n"
	"1:	ret\n"
	".option pop\n");
