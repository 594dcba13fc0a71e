/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * user-bare.S - a user-mode RV64 program without libc for the verifier
 * plugin's tests: no stack, no auxiliary vector, no system call but exit,
 * so that its run is the same on every QEMU version (a libc program is
 * not: the stack's place and what the C library chooses at start differ
 * between QEMU 7.2 and 10).  A loop of adds, stores and loads on a
 * buffer of its own, then exit(0).
 */
	.section .text
	.globl _start
_start:
	li	a0, 0
	li	a1, 500
	lla	a2, buf
1:	add	a0, a0, a1
	sd	a0, 0(a2)
	ld	a3, 0(a2)
	sw	a3, 8(a2)
	lw	a4, 8(a2)
	xor	a5, a3, a1
	sb	a5, 12(a2)
	addi	a1, a1, -1
	bnez	a1, 1b
	li	a0, 0
	li	a7, 93			/* exit */
	ecall

	.section .data
	.balign 8
buf:	.dword 0, 0
