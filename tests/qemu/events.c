/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tests/qemu/events.c - runs the ops() scn2events.py generated from a
 * ctr-sim scenario (real transfers, CSR accesses, dumps, all in M-mode)
 * and prints what it read as ctr-sim prints it: "name=0x..." per read,
 * "entry N SOURCE TARGET DATA" per valid entry of each dump.
 */
#include <stddef.h>
#include "guest.h"

extern unsigned long rvp_out[];
extern const char *const rvp_names[];
extern const int rvp_nnames;

static void put_hex(unsigned long v)
{
	char buf[20];
	int i = 0;

	put_str("0x");
	do {
		buf[i++] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	while (i) {
		char c[2] = { buf[--i], 0 };

		put_str(c);
	}
}

static void put_dec(unsigned long v)
{
	char buf[20];
	int i = 0;

	do {
		buf[i++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (i) {
		char c[2] = { buf[--i], 0 };

		put_str(c);
	}
}

void ops(void)
{
	unsigned long *o = rvp_out;

	/* The generated code uses ra, t0-t3, s1-s5. */
	__asm__ volatile("call rvp_ops"
			 : : : "ra", "t0", "t1", "t2", "t3", "s1", "s2", "s3",
			   "s4", "s5", "a0", "a1", "a2", "a3", "a4", "a5",
			   "a6", "a7", "memory");
	for (int n = 0; n < rvp_nnames; n++) {
		if (rvp_names[n]) {
			put_line(rvp_names[n], *o++);
			continue;
		}
		for (unsigned long i = 0; i < 256; i++, o += 3) {
			if (!(o[0] & 1))
				continue;
			put_str("entry ");
			put_dec(i);
			put_str(" ");
			put_hex(o[0]);
			put_str(" ");
			put_hex(o[1]);
			put_str(" ");
			put_hex(o[2]);
			put_str("\n");
		}
	}
}
