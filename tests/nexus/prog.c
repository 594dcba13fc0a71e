// SPDX-License-Identifier: BSD-2-Clause
/*
 * prog.c - a riscv64 program for the N-Trace round trips on real code:
 * libc's qsort calling back, recursion, a switch compiled to a jump
 * table, calls through pointers, longjmp (a return that goes elsewhere),
 * a signal handler (entered and left around a system call), and a fork
 * (the trace follows the parent; the child's run is not in it).
 */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static jmp_buf env;
static volatile int signals;

static int cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

static __attribute__((noinline)) long fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

static __attribute__((noinline)) int op(int k, int v)
{
	switch (k & 7) {
	case 0: return v + 1;
	case 1: return v * 3;
	case 2: return v ^ 0x55;
	case 3: return v - 7;
	case 4: return v << 1;
	case 5: return v >> 1;
	case 6: return ~v;
	default: return v;
	}
}

static __attribute__((noinline)) void deep(int n)
{
	if (n == 0)
		longjmp(env, 1);
	deep(n - 1);
}

static void on_signal(int sig)
{
	(void)sig;
	signals++;
}

static int twice(int v) { return 2 * v; }
static int plus9(int v) { return v + 9; }

int main(int argc, char **argv)
{
	int (*fns[2])(int) = { twice, plus9 };
	int rounds = argc > 1 ? atoi(argv[1]) : 20, r, i, a[200];
	long acc = 0;

	signal(SIGUSR1, on_signal);
	for (r = 0; r < rounds; r++) {
		for (i = 0; i < 200; i++)
			a[i] = (i * 7919 + r * 31) % 1000;
		qsort(a, 200, sizeof(a[0]), cmp);
		acc += a[r % 200] + fib(12 + r % 4);
		for (i = 0; i < 100; i++)
			acc = op(i + r, (int)acc) + fns[i & 1](i);
		if (!setjmp(env))
			deep(5 + r % 5);
		raise(SIGUSR1);
	}
	fflush(stdout);
	if (fork() == 0) {
		/* Long enough to fill the plugin's buffers in the child. */
		acc = fib(24);
		_exit(acc == 46368 ? 0 : 1);
	}
	wait(&r);
	printf("prog: %d rounds, %d signals, %ld, child %d\n", rounds, signals,
	       acc, WEXITSTATUS(r));
	return 0;
}
