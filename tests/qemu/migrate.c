/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tests/qemu/migrate.c - the model's state across a migration (issue 7):
 * records calls, returns and loop branches with sctrdepth = 64 (32
 * records, so the buffer is not full and WRPTR matters), then leaves
 * mctrctl = U|S|NTBREN|LCOFIFRZ (no recording in M), prints the control
 * registers, mhpmcounter3 (the calls it counted, then stopped) and
 * mhpmevent4 (exceptions, none happen) of the counter model, and every
 * entry ("state" lines), prints WAIT and polls the
 * UART for a byte.  migrate.sh migrates the waiting guest to a file,
 * restores it in a second QEMU and sends the byte: the guest prints the
 * same lines again, which must be equal (and non-empty).
 */
#include "guest.h"

#define UART_RBR ((volatile unsigned char *)0x10000000UL)
#define UART_LSR ((volatile unsigned char *)0x10000005UL)

__asm__(".option push\n.option norvc\n.text\n"
	".globl mig_work\n"
	"mig_work:\n"
	"	mv t2, ra\n"
	"	li t0, 8\n"
	"1:	jal ra, mig_leaf\n"
	"	addi t0, t0, -1\n"
	"	bnez t0, 1b\n"
	"	mv ra, t2\n"
	"	ret\n"
	"mig_leaf:\n"
	"	ret\n"
	".option pop\n");

static void state(void)
{
	unsigned long v;

	__asm__ volatile("csrr %0, 0x34e" : "=r"(v));
	put_line("state mctrctl", v);
	__asm__ volatile("csrr %0, 0x15f" : "=r"(v));
	put_line("state sctrdepth", v);
	__asm__ volatile("csrr %0, 0x14f" : "=r"(v));
	put_line("state sctrstatus", v);
	__asm__ volatile("csrr %0, 0xb03" : "=r"(v));
	put_line("state mhpmcounter3", v);
	__asm__ volatile("csrr %0, 0x324" : "=r"(v));
	put_line("state mhpmevent4", v);
	for (unsigned long i = 0; i < 64; i++) {
		if (!(ctr_entry(i, 1) & 1))
			continue;
		put_line("state source", ctr_entry(i, 1));
		put_line("state target", ctr_entry(i, 2));
		put_line("state data", ctr_entry(i, 3));
	}
}

void mig_work(void);

void ops(void)
{
	__asm__ volatile("csrw 0x15f, %0" : : "r"(2UL));	/* 64 entries */
	__asm__ volatile("csrw 0x323, %0" : : "r"(6UL));	/* calls */
	__asm__ volatile("csrw 0x324, %0" : : "r"(9UL));	/* exceptions */
	__asm__ volatile("csrw 0x34e, %0" : : "r"(0x1000000004UL));
	__asm__ volatile("call mig_work" : : : "ra", "t0", "t2", "memory");
	__asm__ volatile("csrw 0x34e, %0" : : "r"(0x1000001003UL));
	__asm__ volatile("csrw 0x323, zero");	/* mhpmcounter3 stays */
	state();
	put_str("WAIT\n");
	while (!(*UART_LSR & 1))
		;
	(void)*UART_RBR;
	put_str("RESUMED\n");
	state();
}
