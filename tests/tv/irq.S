/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * irq.S - a bare-metal RV64 program that takes one machine timer
 * interrupt at a point that depends on how fast QEMU runs: mtimecmp is set
 * a few microseconds ahead, then a loop of adds and stores runs with the
 * interrupt enabled; the handler counts it, pushes mtimecmp out of reach
 * and returns; the virt test finisher ends the run.
 */
#define CLINT_MTIMECMP	0x2004000
#define CLINT_MTIME	0x200bff8
	.section .text
	.globl _start
_start:
	lla	t0, handler
	csrw	mtvec, t0
	li	t1, CLINT_MTIME
	ld	t2, 0(t1)
	addi	t2, t2, 50		/* 5 us at 10 MHz */
	li	t1, CLINT_MTIMECMP
	sd	t2, 0(t1)
	li	t0, 1 << 7		/* mie.MTIE */
	csrs	mie, t0
	csrsi	mstatus, 1 << 3		/* mstatus.MIE */
	li	a0, 0
	li	a1, 600
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
	lla	t3, buf
	ld	t4, 8(t3)
	addi	t4, t4, 1
	sd	t4, 8(t3)
	li	t3, CLINT_MTIMECMP
	li	t4, -1
	sd	t4, 0(t3)
	mret

	.section .data
	.balign 8
buf:	.dword 0, 0
