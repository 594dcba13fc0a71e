/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tests/bench/bench-qemu-insn-work.c - the bare-metal workload of
 * bench-qemu-insn.sh: a table-driven CRC-32 over a 4 KiB buffer, BENCH_ITERS
 * times (a function call per pass, about ten instructions per byte: loads,
 * ALU, a loop branch), in M-mode with BENCH_MODE saying what counts
 * retired instructions meanwhile:
 *   0  nothing: mcountinhibit inhibits every counter, minstret too;
 *   1  minstret (QEMU's reset state: mcountinhibit = 0), no interrupt;
 *   2  mhpmcounter3 on the instructions event, sampling: it starts at
 *      -BENCH_PERIOD and its LCOFI handler re-arms it (clears OF, writes
 *      -BENCH_PERIOD again), as perf record -c BENCH_PERIOD does.
 * Prints the CRC and the number of overflow interrupts taken, then powers
 * off.  Built with tests/qemu/start.S and guest.c.
 */
#include "tests/qemu/guest.h"

#ifndef BENCH_PERIOD
#define BENCH_PERIOD 4999
#endif

static unsigned int table[256];
static unsigned char buf[4096];
volatile unsigned long bench_lcofis;

__attribute__((interrupt("machine"), aligned(4))) static void lcofi(void)
{
	bench_lcofis++;
	__asm__ volatile("csrw mhpmevent3, %0" : : "r"(2UL));	/* OF = 0 */
	__asm__ volatile("csrw mhpmcounter3, %0" : : "r"(-(unsigned long)BENCH_PERIOD));
	__asm__ volatile("csrc mip, %0" : : "r"(1UL << 13));
}

__attribute__((noinline)) static unsigned int crc_pass(unsigned int crc)
{
	for (unsigned int i = 0; i < sizeof(buf); i++)
		crc = table[(crc ^ buf[i]) & 0xff] ^ (crc >> 8);
	return crc;
}

void ops(void)
{
	unsigned int crc = 0xffffffff;
	unsigned long i;

	for (i = 0; i < 256; i++) {
		unsigned int c = i;

		for (int k = 0; k < 8; k++)
			c = c & 1 ? 0xedb88320 ^ (c >> 1) : c >> 1;
		table[i] = c;
	}
	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (unsigned char)(i * 7 + 3);
	if (BENCH_MODE == 0) {
		__asm__ volatile("csrw mcountinhibit, %0" : : "r"(~0UL));
	} else if (BENCH_MODE == 2) {
		__asm__ volatile("csrw mtvec, %0" : : "r"((unsigned long)lcofi));
		__asm__ volatile("csrs mcountinhibit, %0" : : "r"(1UL << 3));
		__asm__ volatile("csrw mhpmevent3, %0" : : "r"(2UL));
		__asm__ volatile("csrw mhpmcounter3, %0" : : "r"(-(unsigned long)BENCH_PERIOD));
		__asm__ volatile("csrs mie, %0" : : "r"(1UL << 13));
		__asm__ volatile("csrs mstatus, %0" : : "r"(1UL << 3));
		__asm__ volatile("csrc mcountinhibit, %0" : : "r"(1UL << 3));
	}
	for (i = 0; i < BENCH_ITERS; i++)
		crc = crc_pass(crc);
	__asm__ volatile("csrc mstatus, %0" : : "r"(1UL << 3));
	__asm__ volatile("csrw mcountinhibit, %0" : : "r"(~0UL));
	put_line("crc", crc);
	put_line("lcofis", bench_lcofis);
}
