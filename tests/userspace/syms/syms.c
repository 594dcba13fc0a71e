// SPDX-License-Identifier: BSD-2-Clause
/*
 * syms.c - a dynamically linked program for tests/userspace/syms-test.sh:
 * its hot code calls libc through .plt stubs (memcmp, strlen), and one
 * source line (match_len's loop) is inlined into two functions that run it
 * unequally often (find_long three times as often as find_short), so a
 * report must tell the two inlined copies apart and name match_len.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char buf[4096];

static inline __attribute__((always_inline)) unsigned int
match_len(const unsigned char *a, const unsigned char *b, unsigned int limit)
{
	unsigned int n = 0;

	while (n < limit && a[n] == b[n])
		n++;
	return n;
}

__attribute__((noinline)) unsigned int find_long(unsigned int at)
{
	return match_len(buf + at, buf + at + 64, 192);
}

__attribute__((noinline)) unsigned int find_short(unsigned int at)
{
	return match_len(buf + at, buf + at + 32, 64);
}

__attribute__((noinline)) int compare(unsigned int at)
{
	return memcmp(buf + at, buf + at + 16, 48) +
	       (int)strlen((const char *)buf + at);
}

int main(int argc, char **argv)
{
	unsigned long sum = 0;
	unsigned int i, rounds = argc > 1 ? (unsigned int)atoi(argv[1]) : 20000;

	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (unsigned char)(i % 32 == 31 ? 0 : 'a');
	for (i = 0; i < rounds; i++) {
		unsigned int at = (i * 7) % 1024;

		sum += find_long(at);
		sum += find_short(at);
		sum += (unsigned long)compare(at);
	}
	printf("%lu\n", sum);
	return 0;
}
