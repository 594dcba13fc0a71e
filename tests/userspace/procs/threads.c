// SPDX-License-Identifier: BSD-2-Clause
/*
 * threads.c - three threads doing known amounts of work (1, 2 and 3
 * million iterations of work()) while the main thread waits, then half a
 * million in the main thread: for tests/userspace/procs-test.sh.
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

int main(void)
{
	pthread_t th[3];
	long i;

	for (i = 0; i < 3; i++)
		pthread_create(&th[i], NULL, thread, (void *)(1000000 * (i + 1)));
	for (i = 0; i < 3; i++)
		pthread_join(th[i], NULL);
	printf("%lu\n", work(500000));
	return 0;
}
