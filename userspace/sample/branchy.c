// SPDX-License-Identifier: BSD-2-Clause
/*
 * branchy - the sample workload rvperf profiles in 'make run' and in tests.
 *
 * Its control flow is known by construction, so profiles of it can be
 * checked: a hot inner loop of 64 iterations (a backward taken branch),
 * calls to a leaf, an indirect call through a table of four operations, a
 * recursion of known depth, and a branch that is almost never taken.
 *
 * Usage: branchy [ROUNDS]   (default 20000 rounds)
 */
#include <stdio.h>
#include <stdlib.h>

#define INNER_TRIPS	64
#define RECURSION_DEPTH	8

typedef unsigned long (*op_fn)(unsigned long, unsigned long);

/* noinline keeps every call a real call and every function a symbol. */
__attribute__((noinline)) static unsigned long op_add(unsigned long a,
						      unsigned long b)
{
	return a + b;
}

__attribute__((noinline)) static unsigned long op_xor(unsigned long a,
						      unsigned long b)
{
	return a ^ (b << 1);
}

__attribute__((noinline)) static unsigned long op_mul(unsigned long a,
						      unsigned long b)
{
	return a * (b | 1);
}

__attribute__((noinline)) static unsigned long op_rot(unsigned long a,
						      unsigned long b)
{
	return (a << (b & 15)) | (a >> (64 - (b & 15) - 1));
}

static op_fn const ops[4] = { op_add, op_xor, op_mul, op_rot };

__attribute__((noinline)) static unsigned long leaf(unsigned long x)
{
	return x * 2654435761UL + 1;
}

__attribute__((noinline)) static unsigned long recurse(unsigned long x,
						       int depth)
{
	if (depth == 0)
		return leaf(x);
	return recurse(x + (unsigned long)depth, depth - 1) ^ x;
}

/* The hot loop: INNER_TRIPS iterations, an indirect call in each. */
__attribute__((noinline)) static unsigned long hot_loop(unsigned long seed)
{
	unsigned long acc = seed;
	int i;

	for (i = 0; i < INNER_TRIPS; i++) {
		/* Round-robin from a data-dependent start: each op is
		 * called INNER_TRIPS / 4 times per call of hot_loop. */
		acc = ops[(i + (acc >> 7)) & 3](acc, (unsigned long)i);
		/* Taken only when the low 12 bits are all ones. */
		if ((acc & 0xfff) == 0xfff)
			acc = leaf(acc);
	}
	return acc;
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? strtol(argv[1], NULL, 0) : 20000;
	unsigned long acc = 1;
	long r;

	if (rounds <= 0) {
		fprintf(stderr, "branchy: ROUNDS must be a positive number\n");
		return 2;
	}
	for (r = 0; r < rounds; r++) {
		acc = hot_loop(acc);
		if ((r & 15) == 0)
			acc ^= recurse(acc, RECURSION_DEPTH);
	}
	printf("branchy: %ld rounds, checksum %016lx\n", rounds, acc);
	return 0;
}
