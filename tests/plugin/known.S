# SPDX-License-Identifier: BSD-2-Clause
# known.S - a riscv64 Linux program whose every control transfer is known,
# for tests/plugin/record-test.sh.  No libc: _start calls run_test, then
# probe, then exits.  Each transfer instruction carries a global label, so
# the test reads the exact addresses from the symbol table; the assembler
# may pick compressed forms (rv64gc), which the test covers too.
	.text
	.globl _start
_start:
	.option push
	.option norelax
	la	gp, __global_pointer$
	.option pop
	.globl start_call_run
start_call_run:
	call	run_test
	.globl start_call_probe
start_call_probe:
	call	probe
	li	a0, 0
	li	a7, 93			# exit
	ecall

	.globl run_test
run_test:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	li	t0, 5			# 5 trips: the latch is taken 4 times
	.globl loop_head
loop_head:
	addi	t0, t0, -1
	.globl loop_latch
loop_latch:
	bnez	t0, loop_head
	li	t1, 1
	.globl nt_branch
nt_branch:
	beqz	t1, never		# never taken
	li	a7, 172			# getpid: an ecall, a trap to S-mode
	.globl syscall_insn
syscall_insn:
	ecall
	la	t2, table
	ld	t3, 8(t2)		# table[1] = target_b
	.globl ind_call
ind_call:
	jalr	t3
	.globl call_depth1
call_depth1:
	call	depth1
	ld	ra, 8(sp)
	addi	sp, sp, 16
	.globl run_test_ret
run_test_ret:
	ret
never:
	j	never

	.globl target_a
target_a:
	ret
	.globl target_b
target_b:
	nop
	.globl target_b_ret
target_b_ret:
	ret

	.globl depth1
depth1:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	.globl call_depth2
call_depth2:
	call	depth2
	ld	ra, 8(sp)
	addi	sp, sp, 16
	.globl depth1_ret
depth1_ret:
	ret

	.globl depth2
depth2:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	.globl call_depth3
call_depth3:
	call	depth3
	ld	ra, 8(sp)
	addi	sp, sp, 16
	.globl depth2_ret
depth2_ret:
	ret

	.globl depth3
depth3:
	nop
	.globl depth3_ret
depth3_ret:
	ret

	.globl probe
probe:
	nop
	ret

	.section .rodata
	.balign 8
table:
	.dword target_a, target_b
