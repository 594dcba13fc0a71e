// SPDX-License-Identifier: BSD-2-Clause
/*
 * spie.c - a static PIE without libc (Debian's riscv64 glibc has no
 * rcrt1.o for -static-pie): qemu-user loads it at a base of its choosing
 * with no dynamic loader, so its load bias comes from the program alone.
 */
__attribute__((noinline)) unsigned long mix(unsigned long n)
{
	unsigned long h = 1, i;

	for (i = 0; i < n; i++)
		h = h * 31 + (i ^ (h >> 7));
	return h;
}

void _start(void)
{
	register long a0 asm("a0") = (long)(mix(1000000) & 1);
	register long a7 asm("a7") = 94;	/* exit_group */

	asm volatile("ecall" : : "r"(a0), "r"(a7));
	for (;;)
		;
}
