/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Entry of the S-mode smoke payload: every hart (the boot hart, and hart 1
 * each time HSM starts it) gets its own 4 KiB stack and runs smoke_main(a0
 * = hartid).  smoke_trap is the S-mode trap vector: it skips the trapping
 * (4-byte) instruction and sets smoke_trapped, so a CSR access can be tried.
 */
	.section .text.start, "ax"
	.globl _start
_start:
	la	t0, smoke_trap
	csrw	stvec, t0
	la	sp, smoke_stacks
	addi	t0, a0, 1
	slli	t0, t0, 12
	add	sp, sp, t0
	call	smoke_main
1:	wfi
	j	1b

	.balign 4
	.globl smoke_trap
smoke_trap:
	addi	sp, sp, -16
	sd	t0, 0(sp)
	sd	t1, 8(sp)
	csrr	t0, sepc
	addi	t0, t0, 4
	csrw	sepc, t0
	la	t1, smoke_trapped
	li	t0, 1
	sw	t0, 0(t1)
	ld	t0, 0(sp)
	ld	t1, 8(sp)
	addi	sp, sp, 16
	sret

	.bss
	.globl smoke_trapped
	.balign 4
smoke_trapped:
	.space	4
	.balign 4096
	.globl smoke_stacks
smoke_stacks:
	.space	4096 * 4
