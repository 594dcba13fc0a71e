/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nexus-bare.S - a bare-metal riscv64 program for rvperf nexus record --system
 * (qemu-system-riscv64 -M virt -bios none -kernel): calls, returns,
 * branches and loops in M-mode, an ecall trapping to M-mode and its mret,
 * a drop to S-mode by mret, ecalls from S-mode, then the virt machine's
 * test device powers it off.
 */
	.option norvc
	.text
	.globl _start
_start:
	la	t0, trap
	csrw	mtvec, t0
	la	sp, stack_top
	li	s0, 40
1:	call	work
	addi	s0, s0, -1
	bnez	s0, 1b
	ecall				/* M-mode ecall: trap, mret back */
	/* To S-mode: MPP = 01, mepc = s_mode. */
	li	t0, 3 << 11
	csrc	mstatus, t0
	li	t0, 1 << 11
	csrs	mstatus, t0
	la	t0, s_mode
	csrw	mepc, t0
	mret

s_mode:
	li	s0, 30
2:	call	work
	ecall				/* S-mode ecall: to M-mode */
	addi	s0, s0, -1
	bnez	s0, 2b
	li	a0, 1			/* ask the trap handler to power off */
	ecall

	.balign 4
trap:
	csrr	t0, mcause
	li	t1, 9			/* ecall from S-mode */
	bne	t0, t1, 3f
	bnez	a0, off
3:	csrr	t0, mepc
	addi	t0, t0, 4
	csrw	mepc, t0
	mret
off:
	li	t0, 0x100000		/* sifive,test0: FINISHER_PASS */
	li	t1, 0x5555
	sw	t1, 0(t0)
4:	j	4b

/* A little of everything: a loop with a data-dependent branch and a
 * call through a register. */
work:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	li	t2, 7
5:	andi	t3, t2, 1
	beqz	t3, 6f
	la	t4, leaf
	jalr	t4
6:	addi	t2, t2, -1
	bnez	t2, 5b
	ld	ra, 8(sp)
	addi	sp, sp, 16
	ret

leaf:
	addi	a1, a1, 1
	ret

	.bss
	.balign 16
	.space	4096
stack_top:
