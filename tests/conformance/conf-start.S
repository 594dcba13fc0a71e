/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Entry of the S-mode conformance payload (one hart): a stack, the trap
 * vector, conf_main(a0 = hartid, a1 = FDT).  conf_trap skips the trapping
 * 4-byte instruction and counts the trap in conf_traps, so the payload can
 * cause illegal-instruction traps on purpose (the firmware sees them first).
 */
	.section .text.start, "ax"
	.globl _start
_start:
	la	t0, conf_trap
	csrw	stvec, t0
	la	sp, conf_stack_top
	call	conf_main
1:	wfi
	j	1b

/* A non-retentive suspend resumes here (a0 = hartid, a1 = opaque) with the
 * S-mode state lost: the same set-up, then the CTR checks go on. */
	.globl ctr_resume_entry
ctr_resume_entry:
	la	t0, conf_trap
	csrw	stvec, t0
	la	sp, conf_stack_top
	call	conf_ctr_resumed
1:	wfi
	j	1b

/* Hart 1, started through HSM by the CTR checks (a1 = the phase). */
	.globl ctr_hart_entry
ctr_hart_entry:
	la	t0, conf_trap
	csrw	stvec, t0
	la	sp, conf_stack1_top
	mv	a0, a1
	call	conf_ctr_hart1
1:	wfi
	j	1b

	.balign 4
conf_trap:
	addi	sp, sp, -16
	sd	t0, 0(sp)
	sd	t1, 8(sp)
	csrr	t0, sepc
	addi	t0, t0, 4
	csrw	sepc, t0
	la	t1, conf_traps
	lw	t0, 0(t1)
	addi	t0, t0, 1
	sw	t0, 0(t1)
	ld	t0, 0(sp)
	ld	t1, 8(sp)
	addi	sp, sp, 16
	sret

	.bss
	.globl conf_traps
	.balign 4
conf_traps:
	.space	4
	.balign 16
	.space	16384
conf_stack_top:
	.balign 16
	.space	4096
conf_stack1_top:
