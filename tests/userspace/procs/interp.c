// SPDX-License-Identifier: BSD-2-Clause
/*
 * interp.c - a bytecode interpreter for tests/userspace/procs-test.sh: its
 * dispatch is one indirect jump (a switch through a jump table) with a
 * target per opcode, the hottest transfer of the program, and the loop
 * around it is left only by a return (HALT).  find() is a loop left by a
 * break or by running out, with its callers' counts known.  shared_tail()
 * branches and jumps backwards to a shared epilogue: not a loop.
 */
#include <stdio.h>
#include <stdlib.h>

enum { PUSH, ADD, SUB, MUL, XOR, SHL, SHR, DUP, SWAP, DROP, JNZ, DEC, HALT };

__attribute__((noinline)) long run(const unsigned char *code, long n)
{
	long stack[64], *sp = stack, acc = 0;
	int pc = 0;

	*sp++ = n;
	for (;;) {
		switch (code[pc++]) {
		case PUSH: *sp++ = code[pc++]; break;
		case ADD: sp--; sp[-1] += sp[0]; break;
		case SUB: sp--; sp[-1] -= sp[0]; break;
		case MUL: sp--; sp[-1] *= sp[0]; break;
		case XOR: sp--; sp[-1] ^= sp[0]; break;
		case SHL: sp[-1] <<= 1; break;
		case SHR: sp[-1] >>= 1; break;
		case DUP: sp[0] = sp[-1]; sp++; break;
		case SWAP: { long t = sp[-1]; sp[-1] = sp[-2]; sp[-2] = t; break; }
		case DROP: acc += *--sp; break;
		case JNZ: if (sp[-1]) pc = code[pc]; else pc++; break;
		case DEC: sp[-1]--; break;
		case HALT: return acc;
		default: abort();
		}
	}
}

/* The first element equal to key among n: a loop left by a break (found)
 * or by its condition (not found). */
__attribute__((noinline)) int find(const int *a, int n, int key)
{
	int i;

	for (i = 0; i < n; i++)
		if (a[i] == key)
			break;
	return i;
}

long shared_tail(long x);
__asm__(".globl shared_tail\n"
	".type shared_tail, @function\n"
	"shared_tail:\n"
	"	j 2f\n"
	"1:	addi a0, a0, 1\n"	/* the shared epilogue, placed first */
	"	ret\n"
	"2:	andi t0, a0, 1\n"
	"	beqz t0, 1b\n"		/* backwards, not a loop */
	"	addi a0, a0, 2\n"
	"	j 1b\n"		/* backwards, not a loop */
	".size shared_tail, .-shared_tail\n");

int main(int argc, char **argv)
{
	/* loop: DUP PUSH 3 MUL PUSH 5 XOR SHL SHR DROP DEC JNZ loop; HALT */
	static const unsigned char code[] = {
		DUP, PUSH, 3, MUL, PUSH, 5, XOR, SHL, SHR, DUP, SWAP, DROP,
		DROP, DEC, JNZ, 0, HALT,
	};
	long n = argc > 1 ? atol(argv[1]) : 200000, s = 0;
	int a[16], i;

	for (i = 0; i < 16; i++)
		a[i] = i;
	for (i = 0; i < 100; i++)
		s += run(code, n / 100);
	for (i = 0; i < 200000; i++)
		s += find(a, 16, i & 31);	/* half found (break) */
	for (i = 0; i < 100000; i++)
		s += shared_tail(i);
	printf("%ld\n", s);
	return 0;
}
