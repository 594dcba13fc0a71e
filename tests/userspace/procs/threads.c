// SPDX-License-Identifier: BSD-2-Clause
/*
 * threads.c - three threads doing known amounts of work (1, 2 and 3
 * million iterations of work()) while the main thread waits, then half a
 * million in the main thread: for tests/userspace/procs-test.sh.  With an
 * argument (seq) each thread is joined before the next starts, so that
 * qemu-user gives every one the vCPU index the one before left.
 */
#include <pthread.h>
#include <stdio.h>

__attribute__((noinline)) unsigned long work(unsigned long n)
{
	unsigned long h = 1, i;

	for (i = 0; i < n; i++)
		h = h * 33 + i;
	return h;
}

static void *thread(void *arg)
{
	return (void *)work((unsigned long)arg);
}

int main(int argc, char **argv)
{
	pthread_t th[3];
	long i;

	(void)argv;
	for (i = 0; i < 3; i++) {
		pthread_create(&th[i], NULL, thread, (void *)(1000000 * (i + 1)));
		if (argc > 1)
			pthread_join(th[i], NULL);
	}
	for (i = 0; i < 3 && argc == 1; i++)
		pthread_join(th[i], NULL);
	printf("%lu\n", work(500000));
	return 0;
}
