/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tests/qemu/gating.c - "no cost when off" (issue 7): two copies of a small
 * loop of calls, returns and branches, work_a run with mctrctl = 0 and
 * work_b with only mctrctl.U|S (the hart is in M), then both with mctrctl.M.
 * gating.sh reads QEMU's -d op log: the TBs of each copy translated while
 * recording was off must carry no ctr_add_entry call, those translated
 * after it was enabled must.  The guest itself checks that nothing was
 * recorded while off and that the enabled run recorded exactly what it
 * should (newest entry: work_b's return, TYPE 13; 14 valid entries).
 */
#include "guest.h"

#define WORK(name) \
	".globl " #name ", " #name "_ret, " #name "_end\n" \
	#name ":\n" \
	"	mv t0, a0\n" \
	"	mv t2, ra\n" \
	"1:	jal ra, " #name "_leaf\n" \
	"	addi t0, t0, -1\n" \
	"	bnez t0, 1b\n" \
	"	mv ra, t2\n" \
	#name "_ret:\n" \
	"	ret\n" \
	#name "_leaf:\n" \
	"	addi t1, t1, 1\n" \
	"	ret\n" \
	#name "_end:\n"

__asm__(".option push\n.option norvc\n.text\n.balign 64\n"
	WORK(work_a) ".balign 64\n" WORK(work_b) ".option pop\n");

extern char work_b_ret[];

/* Both copies with mctrctl = CTL, two iterations each: per copy one call
 * in, two calls to the leaf, two leaf returns, one taken branch, one
 * return (the not-taken branch is not recorded without NTBREN). */
static void run(unsigned long ctl)
{
	__asm__ volatile("csrw 0x34e, %0\n"
			 "	li a0, 2\n"
			 "	jal ra, work_a\n"
			 "	li a0, 2\n"
			 "	jal ra, work_b\n"
			 "	csrw 0x34e, zero\n"
			 : : "r"(ctl)
			 : "ra", "a0", "t0", "t1", "t2", "memory");
}

/* Only work_a while off (work_b's TBs must first be translated in the
 * U|S-only phase). */
static void run_a(unsigned long ctl)
{
	__asm__ volatile("csrw 0x34e, %0\n"
			 "	li a0, 2\n"
			 "	jal ra, work_a\n"
			 "	csrw 0x34e, zero\n"
			 : : "r"(ctl)
			 : "ra", "a0", "t0", "t1", "t2", "memory");
}

static void run_b(unsigned long ctl)
{
	__asm__ volatile("csrw 0x34e, %0\n"
			 "	li a0, 2\n"
			 "	jal ra, work_b\n"
			 "	csrw 0x34e, zero\n"
			 : : "r"(ctl)
			 : "ra", "a0", "t0", "t1", "t2", "memory");
}

static unsigned long valid(void)
{
	unsigned long n = 0;

	for (unsigned long i = 0; i < 16; i++)
		n += ctr_entry(i, 1) & 1;
	return n;
}

static void check(const char *what, unsigned long got, unsigned long want)
{
	put_str(got == want ? "ok " : "not ok ");
	put_line(what, got);
}

void ops(void)
{
	run_a(0);		/* mctrctl = 0 */
	run_b(3);		/* mctrctl.U|S only, in M-mode */
	check("valid-after-off", valid(), 0);
	run(4);			/* mctrctl.M */
	check("valid-after-on", valid(), 14);
	check("newest.source", ctr_entry(0, 1), (unsigned long)work_b_ret | 1);
	check("newest.type", (ctr_entry(0, 3) >> 0) & 0xf, 13);
}
