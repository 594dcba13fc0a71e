/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tests/qemu/xfer.c - a recorded call and return in M-mode (ratified
 * layout): the two newest CTR entries, read through siselect/sireg*, must
 * name the call and the return at their real addresses.
 */
#include "guest.h"

extern char call_site[], f_entry[];
__asm__(".option push\n.option norvc\n.text\n.globl f_entry\n"
	"f_entry: jalr x0, 0(ra)\n.option pop\n");

static void check(const char *what, unsigned long got, unsigned long want)
{
	put_str(got == want ? "ok " : "not ok ");
	put_line(what, got);
}

void ops(void)
{
	unsigned long cs = (unsigned long)call_site;
	unsigned long fe = (unsigned long)f_entry;

	__asm__ volatile("csrw 0x34e, %0" : : "r"(4UL));	/* mctrctl.M */
	__asm__ volatile(".option push\n.option norvc\n.globl call_site\n"
			 "call_site: jal ra, f_entry\n.option pop\n"
			 : : : "ra", "memory");
	__asm__ volatile("csrw 0x34e, zero");
	check("ret.source", ctr_entry(0, 1), fe | 1);	/* bit 0: V */
	check("ret.target", ctr_entry(0, 2), cs + 4);
	check("call.source", ctr_entry(1, 1), cs | 1);
	check("call.target", ctr_entry(1, 2), fe);
}
