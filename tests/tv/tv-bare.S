/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tv-bare.S - a bare-metal RV64 program for the tandem tests (qemu-system
 * -M virt -bios none -kernel): M-mode sets a trap vector and drops to
 * S-mode with mret; S-mode runs a loop of adds, stores and loads, reads
 * the timer (non-deterministic between runs) and ends with an ecall; the
 * M-mode handler stores mcause and stops QEMU through the virt machine's
 * test finisher.  Privilege changes twice, memory and registers change in
 * every iteration.
 */
#ifndef LOOPS
#define LOOPS 300		/* the benchmark builds it with more */
#endif
	.section .text
	.globl _start
_start:
	li	t0, -1			/* PMP: S-mode may use all memory */
	csrw	pmpaddr0, t0
	li	t0, 0x1f		/* NAPOT, RWX */
	csrw	pmpcfg0, t0
	li	t0, 7			/* S-mode may read cycle, time, instret */
	csrw	mcounteren, t0
	lla	t0, m_trap
	csrw	mtvec, t0
	li	t0, 1 << 11		/* mstatus.MPP = S */
	csrs	mstatus, t0
	lla	t0, s_main
	csrw	mepc, t0
	mret

s_main:
	li	a0, 0
	li	a1, LOOPS
	lla	a2, buf
1:	add	a0, a0, a1
	sd	a0, 0(a2)
	ld	a3, 0(a2)
	sw	a3, 8(a2)
	xor	a4, a3, a1
	addi	a1, a1, -1
	bnez	a1, 1b
	rdtime	a5			/* differs from run to run */
	sd	a5, 16(a2)
	ecall

	.balign 4
m_trap:
	csrr	t0, mcause
	lla	t1, buf
	sd	t0, 24(t1)
	li	t0, 0x100000		/* virt test finisher: pass */
	li	t1, 0x5555
	sw	t1, 0(t0)
2:	j	2b

	.section .data
	.balign 8
buf:	.dword 0, 0, 0, 0
