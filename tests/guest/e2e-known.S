# SPDX-License-Identifier: BSD-2-Clause
# e2e-known.S - user code whose every control transfer is known, for
# tests/guest/ctr-brstack.c: each transfer instruction has a global label,
# so the test knows every (from, to) edge and the exact order of the last
# ones.  known_loop(n) runs known_run n times, each followed by a long
# straight run (the sled), where most samples land with the same history.
	.text
	.globl known_loop
known_loop:				# a0 = iterations
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	mv	s0, a0
	.globl kl_head
kl_head:
	.globl kl_call_run
kl_call_run:
	call	known_run
	.globl kl_sled
kl_sled:
	.rept	400
	nop
	.endr
	.globl kl_sled_end
kl_sled_end:
	addi	s0, s0, -1
	.globl kl_latch
kl_latch:
	bnez	s0, kl_head
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	.globl kl_ret
kl_ret:
	ret				# back to the caller, outside the known code

	.globl known_run
known_run:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	li	t0, 5			# 5 trips: the latch is taken 4 times
	.globl kr_loop_head
kr_loop_head:
	addi	t0, t0, -1
	.globl kr_loop_latch
kr_loop_latch:
	bnez	t0, kr_loop_head
	li	t1, 1
	.globl kr_nt_branch
kr_nt_branch:
	beqz	t1, kr_never		# never taken
	la	t2, known_table
	ld	t3, 8(t2)		# known_table[1] = kr_target_b
	.globl kr_ind_call
kr_ind_call:
	jalr	t3
	.globl kr_call_depth1
kr_call_depth1:
	call	kr_depth1
	.globl kr_after_d1
kr_after_d1:
	ld	ra, 8(sp)
	addi	sp, sp, 16
	.globl kr_ret
kr_ret:
	ret
kr_never:
	j	kr_never

	.globl kr_target_a
kr_target_a:
	ret
	.globl kr_target_b
kr_target_b:
	nop
	.globl kr_target_b_ret
kr_target_b_ret:
	ret

	.globl kr_depth1
kr_depth1:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	.globl kr_call_depth2
kr_call_depth2:
	call	kr_depth2
	.globl kr_after_d2
kr_after_d2:
	ld	ra, 8(sp)
	addi	sp, sp, 16
	.globl kr_depth1_ret
kr_depth1_ret:
	ret

	.globl kr_depth2
kr_depth2:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	.globl kr_call_depth3
kr_call_depth3:
	call	kr_depth3
	.globl kr_after_d3
kr_after_d3:
	ld	ra, 8(sp)
	addi	sp, sp, 16
	.globl kr_depth2_ret
kr_depth2_ret:
	ret

	.globl kr_depth3
kr_depth3:
	.globl kr_depth3_sled
kr_depth3_sled:
	.rept	200
	nop
	.endr
	.globl kr_depth3_ret
kr_depth3_ret:
	ret
	.globl known_end
known_end:

	.section .rodata
	.balign 8
known_table:
	.dword kr_target_a, kr_target_b
