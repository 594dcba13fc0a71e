// SPDX-License-Identifier: BSD-2-Clause
/*
 * procs.c - a program whose hot code is known, in itself and in libc, for
 * tests/userspace/procs-test.sh: qsort() calls cmp() through a pointer
 * from libc's merge sort (and memcpy), mix() is a loop of the program's
 * own.  "fork": a child runs child_work() while the parent waits; "exec":
 * after the work, the program replaces itself with ARG; "dlopen": after
 * the work, libm is loaded and its cos() called in a loop.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

__attribute__((noinline)) unsigned long mix(unsigned long n)
{
	unsigned long h = 1, i;

	for (i = 0; i < n; i++)
		h = h * 31 + (i ^ (h >> 7));
	return h;
}

__attribute__((noinline)) unsigned long child_work(unsigned long n)
{
	unsigned long h = 7, i;

	for (i = 0; i < n; i++)
		h ^= h << 3 ^ i;
	return h;
}

int main(int argc, char **argv)
{
	int n = 20000, r, i, *a = malloc(n * sizeof(*a));
	unsigned long s = 0;

	for (r = 0; r < 10; r++) {
		for (i = 0; i < n; i++)
			a[i] = (i * 7919 + r) % n;
		qsort(a, n, sizeof(*a), cmp);
		s += a[n / 2];
	}
	s += mix(2000000);
	if (argc > 1 && !strcmp(argv[1], "fork")) {
		pid_t p = fork();

		if (p == 0) {
			printf("child %lu\n", child_work(3000000));
			return 0;
		}
		waitpid(p, NULL, 0);
	}
	if (argc > 1 && !strcmp(argv[1], "dlopen")) {
		void *m = dlopen("libm.so.6", RTLD_NOW);
		double (*cosine)(double) = m ? (double (*)(double))dlsym(m, "cos") : NULL;
		double x = 0;

		for (i = 0; cosine && i < 300000; i++)
			x += cosine(i * 0.001);
		s += (unsigned long)x;
	}
	if (argc > 2 && !strcmp(argv[1], "exec")) {
		execl(argv[2], argv[2], (char *)NULL);
		perror("exec");
	}
	printf("%lu\n", s);
	free(a);
	return 0;
}
