/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Entry of the S-mode smoke payload: every hart (the boot hart, and hart 1
 * each time HSM starts it) gets its own 4 KiB stack and runs smoke_main(a0
 * = hartid).
 */
	.section .text.start, "ax"
	.globl _start
_start:
	la	sp, smoke_stacks
	addi	t0, a0, 1
	slli	t0, t0, 12
	add	sp, sp, t0
	call	smoke_main
1:	wfi
	j	1b

	.bss
	.balign 4096
	.globl smoke_stacks
smoke_stacks:
	.space	4096 * 4
