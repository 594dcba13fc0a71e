/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tests/qemu/guest.c - M-mode runtime for the scenario replay on QEMU's
 * virt machine: UART output, an illegal-instruction handler that skips the
 * access and notes it, power-off through the sifive_test device.
 */
#include "guest.h"

#define UART0 ((volatile unsigned char *)0x10000000UL)
#define TEST_DEV ((volatile unsigned int *)0x100000UL)

volatile int trapped;

void put_str(const char *s)
{
	while (*s)
		*UART0 = (unsigned char)*s++;
}

void put_line(const char *name, unsigned long long v)
{
	char buf[20];
	int i = 0;

	put_str(name);
	put_str("=0x");
	do {
		buf[i++] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	while (i)
		*UART0 = (unsigned char)buf[--i];
	put_str("\n");
}

unsigned long ctr_entry(unsigned long i, int reg)
{
	unsigned long v = 0;

	__asm__ volatile("csrw 0x150, %0" : : "r"(0x200 + i));	/* siselect */
	if (reg == 1)
		__asm__ volatile("csrr %0, 0x151" : "=r"(v));	/* sireg */
	else if (reg == 2)
		__asm__ volatile("csrr %0, 0x152" : "=r"(v));	/* sireg2 */
	else
		__asm__ volatile("csrr %0, 0x153" : "=r"(v));	/* sireg3 */
	return v;
}

__attribute__((interrupt("machine"), aligned(4))) static void trap(void)
{
	unsigned long epc;

	__asm__ volatile("csrr %0, mepc" : "=r"(epc));
	__asm__ volatile("csrw mepc, %0" : : "r"(epc + 4));
	trapped = 1;
}

int main(void);
int main(void)
{
	__asm__ volatile("csrw mtvec, %0" : : "r"((unsigned long)trap));
	put_str("BEGIN\n");
	ops();
	put_str("END\n");
	*TEST_DEV = 0x5555;	/* sifive_test: pass, power off */
	/* Until QEMU acts on it: wait, not spin (a spin loop is a transfer
	 * per iteration, which CTR emulations may pay for). */
	for (;;)
		__asm__ volatile("wfi");
}
