/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * user-loads.S - a user-mode RV64 program without libc (as user-bare.S)
 * whose loads read bytes with their top bits set, at every width, signed
 * and unsigned, in the 32-bit and the compressed encodings: the trace
 * plugin writes a load's destination from the value its memory callback
 * saw, extended as the load does, and plugin-verify-test checks that
 * against QEMU's own registers through its gdbstub.
 */
	.section .text
	.globl _start
_start:
	lla	a2, buf
	li	a1, 40
1:	lb	t0, 3(a2)
	lh	t1, 2(a2)
	lw	t2, 0(a2)
	ld	t3, 0(a2)
	lbu	t4, 3(a2)
	lhu	t5, 2(a2)
	lwu	t6, 4(a2)
	c.lw	a3, 0(a2)
	c.ld	a4, 8(a2)
	mv	s0, sp
	mv	sp, a2
	c.lwsp	a5, 4(sp)
	c.ldsp	a6, 0(sp)
	mv	sp, s0
	/* The next round reads other values. */
	ld	a7, 0(a2)
	addi	a7, a7, 0x123
	sd	a7, 0(a2)
	addi	a1, a1, -1
	bnez	a1, 1b
	li	a0, 0
	li	a7, 93			/* exit */
	ecall

	.section .data
	.balign 8
buf:	.dword 0xfedcba9887654321, 0x8899aabbccddeeff
