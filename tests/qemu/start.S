/* SPDX-License-Identifier: BSD-2-Clause */
	.section .text.start
	.globl _start
_start:
	la sp, stack_top
	call main
1:	j 1b
	.bss
	.balign 16
	.space 8192
stack_top:
