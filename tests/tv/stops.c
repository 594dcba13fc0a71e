// SPDX-License-Identifier: BSD-2-Clause
/* Blocks that stop early: a load that faults into a handler, floating
 * point, a CSR read and an atomic between ALU instructions. */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>

static sigjmp_buf back;
static long shared;

static void on_segv(int sig)
{
	(void)sig;
	siglongjmp(back, 1);
}

int main(int argc, char **argv)
{
	volatile long s = argc;
	long *volatile bad = (long *)(long)(argc * 8);
	unsigned long flags;
	double d = 0.5;

	(void)argv;
	signal(SIGSEGV, on_segv);
	for (int i = 0; i < 300; i++) {
		s += i * 3;
		s ^= s >> 2;
		if (i % 7 == 0 && sigsetjmp(back, 1) == 0)
			s += *bad;	/* faults: the handler jumps back */
		d = d * 1.25 + (double)(s & 15);
		s += (long)d & 7;
		__asm__ volatile("frflags %0" : "=r"(flags));
		s += (long)flags;
		__atomic_fetch_add(&shared, s & 3, __ATOMIC_SEQ_CST);
		s -= i;
	}
	printf("%ld %ld\n", (long)s, shared);
	return 0;
}
