/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bare32.S - the RV32 counterpart of tv-bare.S for the XLEN 32 tandem test
 * (qemu-system-riscv32 -M virt -bios none -kernel): M-mode drops to
 * S-mode with mret, S-mode loops over adds, stores and loads and ends
 * with an ecall; the M-mode handler stops QEMU through the test finisher.
 */
	.section .text
	.globl _start
_start:
	li	t0, -1
	csrw	pmpaddr0, t0
	li	t0, 0x1f
	csrw	pmpcfg0, t0
	lla	t0, m_trap
	csrw	mtvec, t0
	li	t0, 1 << 11		/* mstatus.MPP = S */
	csrs	mstatus, t0
	lla	t0, s_main
	csrw	mepc, t0
	mret

s_main:
	li	a0, 0
	li	a1, 200
	lla	a2, buf
1:	add	a0, a0, a1
	sw	a0, 0(a2)
	lw	a3, 0(a2)
	sh	a3, 4(a2)
	addi	a1, a1, -1
	bnez	a1, 1b
	ecall

	.balign 4
m_trap:
	csrr	t0, mcause
	lla	t1, buf
	sw	t0, 8(t1)
	li	t0, 0x100000		/* virt test finisher: pass */
	li	t1, 0x5555
	sw	t1, 0(t0)
2:	j	2b

	.section .data
	.balign 8
buf:	.word 0, 0, 0, 0
