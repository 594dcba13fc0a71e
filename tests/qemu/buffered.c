/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tests/qemu/buffered.c - a branchy M-mode workload for buffered.sh: for
 * several depths and run lengths (shorter and longer than the glue's
 * buffer of records), with and without not-taken branches and RAS
 * emulation, run calls, indirect calls, returns, branches of
 * pseudo-random direction and an ecall (a trap and an mret) under
 * mctrctl.M, then print sctrstatus, every entry of the depth (ctrdata's
 * TYPE only: cycle counts differ with -icount) and the counter model's
 * branches, mispredicted and calls counts.  buffered.sh runs it with
 * -icount (a helper call per record) and without (records buffered in
 * translated code): both must print the same.  Each configuration runs
 * twice: with the counters counting those events and with them off.  While
 * a counter counts transfers in the mode the glue takes every record
 * through a helper call even without -icount (RVPERF_TB_CTR_DIRECT), so
 * only the runs with counters off exercise the buffer.
 */
#include "guest.h"

#define CSR_MCTRCTL 0x34e
#define CTL_M (1UL << 2)
#define CTL_RASEMU (1UL << 7)
#define CTL_NTBREN (1UL << 33)

static unsigned long lcg = 12345;
static volatile unsigned long sink;

static __attribute__((noinline)) void leaf_a(unsigned long v)
{
	sink += v;
}

static __attribute__((noinline)) void leaf_b(unsigned long v)
{
	sink ^= v;
}

static void (*const table[2])(unsigned long) = { leaf_a, leaf_b };

static __attribute__((noinline)) void work(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++) {
		lcg = lcg * 6364136223846793005UL + 1442695040888963407UL;
		if ((lcg >> 33) & 1)		/* a branch either way */
			leaf_a(i);
		table[(lcg >> 40) & 1](i);	/* an indirect call */
		if (i == n / 2)
			__asm__ volatile("ecall");	/* trap + mret */
	}
}

static void run(unsigned long depth_code, unsigned long n, unsigned long ctl,
		unsigned long counters)
{
	unsigned long depth = 16UL << depth_code, v, br, misp, calls;

	put_line("config.depth", depth);
	put_line("config.n", n);
	put_line("config.ctl", ctl);
	put_line("config.counters", counters);
	__asm__ volatile("csrw 0x15f, %0" : : "r"(depth_code)); /* sctrdepth */
	if (counters)
		__asm__ volatile("csrw mhpmevent3, %0\n"	/* branches */
				 "csrw mhpmevent4, %1\n"	/* mispred. */
				 "csrw mhpmevent5, %2"		/* calls */
				 : : "r"(3UL), "r"(5UL), "r"(6UL));
	__asm__ volatile("csrw mhpmcounter3, zero\n"
			 "csrw mhpmcounter4, zero\n"
			 "csrw mhpmcounter5, zero");
	__asm__ volatile("csrw 0x34e, %0" : : "r"(ctl));
	work(n);
	__asm__ volatile("csrw 0x34e, zero");
	__asm__ volatile("csrr %0, mhpmcounter3" : "=r"(br));
	__asm__ volatile("csrr %0, mhpmcounter4" : "=r"(misp));
	__asm__ volatile("csrr %0, mhpmcounter5" : "=r"(calls));
	__asm__ volatile("csrr %0, 0x14f" : "=r"(v));	/* sctrstatus */
	put_line("sctrstatus", v);
	for (unsigned long i = 0; i < depth; i++) {
		put_line("source", ctr_entry(i, 1));
		put_line("target", ctr_entry(i, 2));
		put_line("type", ctr_entry(i, 3) & 0xf);
	}
	put_line("branches", br);
	put_line("mispredicted", misp);
	put_line("calls", calls);
	__asm__ volatile("csrw 0x34f, zero");	/* sctrstatus: WRPTR 0 */
	__asm__ volatile("csrw mhpmevent3, zero\n"
			 "csrw mhpmevent4, zero\n"
			 "csrw mhpmevent5, zero");
}

void ops(void)
{
	static const unsigned long lengths[] = { 3, 70, 300, 1000 };
	static const unsigned long ctls[] = {
		CTL_M, CTL_M | CTL_NTBREN, CTL_M | CTL_RASEMU,
	};

	for (unsigned long k = 0; k < 2; k++)
		for (unsigned long d = 0; d <= 4; d += 2)
			for (unsigned int c = 0; c < 3; c++)
				for (unsigned int l = 0; l < 4; l++)
					run(d, lengths[l], ctls[c], 1 - k);
}
