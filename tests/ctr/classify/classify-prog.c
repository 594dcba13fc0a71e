// SPDX-License-Identifier: BSD-2-Clause
/*
 * classify-prog.c - the C half of the classifier test program: calls,
 * returns, a tail call and an indirect call as the compiler emits them.
 */
void rvp_forms(void);

static int (*volatile indirect)(int);

__attribute__((noinline)) static int leaf(int x)
{
	return x * 3 + 1;
}

__attribute__((noinline)) int tail_caller(int x)
{
	return leaf(x + 1);	/* a tail call at -O2 */
}

int main(int argc, char **argv)
{
	int s = 0;

	(void)argv;
	indirect = leaf;
	for (int i = 0; i < argc; i++)
		s += tail_caller(i) + indirect(i);
	if (argc > 100)
		rvp_forms();
	return s & 1;
}
