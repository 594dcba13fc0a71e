/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tests/qemu/cycles.c - ctrdata CC/CCV/TYPE and ctrtarget.MISP (issue 7):
 * a fixed sequence of a direct call, a return, a loop branch taken twice
 * then not taken, an indirect call and a return, recorded in M-mode with
 * mctrctl.M|NTBREN, non-compressed.  The guest prints every valid entry as
 * ctr-sim's "dump" does; cycles.sh runs the same sequence through ctr-sim
 * (addresses from the ELF, "cycles N" lines = the instructions retired
 * between records, which is QEMU's cycle count under -icount shift=0) and
 * compares.
 */
#include "guest.h"

__asm__(".option push\n.option norvc\n.text\n.balign 64\n"
	".globl seq, s_call, s_f, s_fret, s_back, s_loop, s_br, s_icall\n"
	".globl s_g, s_gret, s_after\n"
	"seq:	mv t2, ra\n"
	"	csrw 0x34e, a0\n"	/* enable: ends the TB */
	"s_call:	jal ra, s_f\n"		/* 1 insn */
	"s_back:	li t0, 3\n"
	"s_loop:	addi t0, t0, -1\n"
	"s_br:	bnez t0, s_loop\n"	/* 3, 2, 2 insns */
	"	lla t1, s_g\n"
	"s_icall:	jalr ra, 0(t1)\n"	/* 3 insns (auipc, addi) */
	"s_after:	nop\n"
	"	csrw 0x34e, zero\n"
	"	mv ra, t2\n"
	"	ret\n"
	"s_f:	nop\n nop\n nop\n"
	"s_fret:	ret\n"			/* 4 insns */
	"s_g:	nop\n"
	"s_gret:	ret\n"			/* 2 insns */
	".option pop\n");

void seq(unsigned long ctl);

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

void ops(void)
{
	seq(0x1000000004UL);	/* mctrctl.M | NTBREN */
	for (unsigned long i = 0; i < 16; i++) {
		unsigned long src = ctr_entry(i, 1);
		char n[3] = { (char)('0' + i / 10), (char)('0' + i % 10), 0 };

		if (!(src & 1))
			continue;
		put_str("entry ");
		put_str(i < 10 ? n + 1 : n);
		put_str(" ");
		put_hex(src);
		put_str(" ");
		put_hex(ctr_entry(i, 2));
		put_str(" ");
		put_hex(ctr_entry(i, 3));
		put_str("\n");
	}
}
