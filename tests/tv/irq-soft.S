/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * irq-soft.S - a bare-metal RV64 program that takes one machine software
 * interrupt at a point that does not depend on time: it raises its own
 * (the virt machine's ACLINT msip) while interrupts are disabled, then
 * enables them, so every run takes it right after that csrsi.  The
 * handler clears msip, counts the interrupt and returns; a loop of adds
 * and stores follows; the virt test finisher ends the run.  (irq.S's
 * timer interrupt comes where QEMU's speed puts it.)
 */
#define CLINT_MSIP	0x2000000
	.section .text
	.globl _start
_start:
	lla	t0, handler
	csrw	mtvec, t0
	li	t0, 1 << 3		/* mie.MSIE */
	csrs	mie, t0
	li	t1, CLINT_MSIP
	li	t2, 1
	sw	t2, 0(t1)		/* pending, not yet taken */
	li	a0, 0
	csrsi	mstatus, 1 << 3		/* mstatus.MIE: taken here */
	li	a1, 300
	lla	a2, buf
1:	add	a0, a0, a1
	sd	a0, 0(a2)
	addi	a1, a1, -1
	bnez	a1, 1b
	csrci	mstatus, 1 << 3
	li	t0, 0x100000		/* virt test finisher: pass */
	li	t1, 0x5555
	sw	t1, 0(t0)
2:	j	2b

	.balign 4
handler:
	li	t3, CLINT_MSIP
	sw	zero, 0(t3)
	lla	t3, buf
	ld	t4, 8(t3)
	addi	t4, t4, 1
	sd	t4, 8(t3)
	mret

	.section .data
	.balign 8
buf:	.dword 0, 0
