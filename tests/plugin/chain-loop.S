# SPDX-License-Identifier: BSD-2-Clause
# chain-loop.S - a riscv64 Linux program whose time is one loop of a known
# number of instructions, for tests/plugin/exact-ip-test.sh.  No libc.
# The loop body is two blocks of straight-line code, 16 instructions in
# all: block A (loop_a .. jump_ab, ended by a jump over a word that never
# runs) and block B (loop_b .. latch, ended by the loop's branch back).
# Counted in instructions every one of them costs the same, the divide at
# the end of a dependent chain (add, mul, div) included, so samples taken
# every PERIOD instructions, PERIOD coprime to 16, fall on each of the 16
# alike.  Compressed and full-size instructions alternate: a sample's
# address is found from the block's real instruction addresses.  ITERS
# (the trips) is set when assembling.
	.text
	.globl _start
_start:
	li	s0, ITERS
	li	s1, 5
	li	s2, 3
	.globl loop_a
loop_a:
	addi	t0, s1, 1		# the chain: t0 -> t1 -> t2
	mul	t1, t0, s2
	div	t2, t1, s2
	c.mv	t3, t2
	c.add	t3, t0
	xor	t4, t3, s1
	c.addi	t4, 1
	.globl jump_ab
jump_ab:
	j	loop_b			# ends block A
	.word	0			# never runs
	.globl loop_b
loop_b:
	c.mv	a4, t4
	andi	a5, a4, 7
	c.add	a5, t1
	srli	a6, a5, 1
	or	a7, a6, t2
	c.addi	a7, -1
	addi	s0, s0, -1
	.globl latch
latch:
	bnez	s0, loop_a		# ends block B
	li	a0, 0
	li	a7, 93			# exit
	ecall
