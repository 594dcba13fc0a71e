/* SPDX-License-Identifier: BSD-2-Clause */
/* forms32.S - RV32-only compressed jumps (c.jal), for classify.sh. */
	.text
	.globl	rvp_forms32
rvp_forms32:
	.option	rvc
1:	c.jal	1b
	c.j	1b
	c.jalr	t0
	c.jr	ra
	c.beqz	a0, 1b
	.option	norvc
	jal	ra, 1b
	jalr	zero, 0(t0)
