/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * forms64.S - every RV64 control-transfer form N-Trace Table 2 and the CTR
 * "Control Transfer Type Definitions" table tell apart, for classify.sh:
 * conditional branches, jal/jalr with every rd/rs1 link combination, the
 * compressed jumps, ret, a tail call, traps and trap returns.  Never run:
 * only assembled, linked and disassembled.
 */
	.text
	.globl	rvp_forms
	.type	rvp_forms, @function
rvp_forms:
	.option	push
	.option	norvc
1:	beq	a0, a1, 1b
	bne	a0, a1, 1b
	blt	a0, a1, 1b
	bge	a0, a1, 1b
	bltu	a0, a1, 1b
	bgeu	a0, a1, 1b
	jal	ra, 1b
	jal	t0, 1b
	jal	zero, 1b
	jal	a0, 1b
	.irp	rd, zero, ra, t0, a0
	.irp	rs, ra, t0, a1
	jalr	\rd, 0(\rs)
	.endr
	.endr
	jalr	ra, 8(ra)
	jalr	t0, -4(t0)
	ret
	tail	rvp_forms
	call	rvp_forms
	ecall
	ebreak
	mret
	sret
	addi	a0, a0, 1
	lui	a1, 0x12345
	auipc	a2, 0
	.option	pop
	.option	push
	.option	rvc
2:	c.beqz	a0, 2b
	c.bnez	s1, 2b
	c.j	2b
	c.jr	ra
	c.jr	t0
	c.jr	a0
	c.jalr	ra
	c.jalr	t0
	c.jalr	a0
	c.ebreak
	c.addi	a0, 1
	c.nop
	.option	pop
	.size	rvp_forms, . - rvp_forms
