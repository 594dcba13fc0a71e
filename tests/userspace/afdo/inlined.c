// SPDX-License-Identifier: BSD-2-Clause
/*
 * inlined - a riscv64 test program whose debug information has what a
 * DWARF reader gets wrong: functions inlined into several callers (so
 * inlined subroutines with range lists), inlining two levels deep, loops
 * whose lines carry discriminators, a switch, and out-of-line copies.
 * tests/userspace/dwarf-test.sh compares rvperf's reader with addr2line
 * at every instruction; the AutoFDO test profiles it.
 */
#include <stdio.h>
#include <stdlib.h>

static inline unsigned int mix(unsigned int x)
{
	x ^= x >> 7;
	x *= 0x9e3779b1u;
	return x ^ (x >> 13);
}

static inline unsigned int step(unsigned int acc, unsigned int i)
{
	if (i & 1)
		return mix(acc + i);
	return acc * 3 + mix(i);
}

__attribute__((noinline)) static unsigned int classify(unsigned int v)
{
	switch (v & 7) {
	case 0: return step(v, 1);
	case 1: return v + 17;
	case 2: return mix(v) - 1;
	case 5: return v << 3;
	default: return v;
	}
}

__attribute__((noinline)) unsigned int work(unsigned int n)
{
	unsigned int acc = 1, i;

	for (i = 0; i < n; i++) acc = step(acc, i); for (i = 0; i < n / 2; i++) acc += classify(acc);
	return acc;
}

int main(int argc, char **argv)
{
	unsigned int n = argc > 1 ? (unsigned int)atoi(argv[1]) : 100000;
	unsigned int r = 0, k;

	for (k = 0; k < 20; k++)
		r ^= work(n + k);
	printf("%u\n", r);
	return 0;
}
