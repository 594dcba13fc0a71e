/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tests/qemu/cycle-count.c - mcycle and an hpm counter counting cycles
 * over known instruction sequences, and the overflow point of the latter
 * (cycle-count.sh runs it without -icount, where our QEMU counts cycles as
 * retired instructions x CPI: qemu-model/qemu/patches/0009).
 *
 * The guest prints raw counts ("name=0x..."); cycle-count.sh compares
 * them with (instructions) x the CPI it gave QEMU, and between runs.  The
 * sequences are those of insn-count.c: no compressed instructions, no
 * linker relaxation, a CSR read counts its own instruction.
 * mhpmevent3 = 1 is QEMU's cycles event (SBI hardware event 1); the
 * loop over mhpmcounter3 and its overflow point are hpm3.c's.
 */
#include "guest.h"
#include "hpm3.h"

#define CY		(1UL << 0)
#define HPM3		(1UL << 3)

unsigned long cc_loop(unsigned long n);

__asm__(
	".option push\n"
	".option norvc\n"
	".option norelax\n"
	".text\n"
	/* cc_loop(n): mcycle over n iterations of two instructions */
	".globl cc_loop\n"
	"cc_loop:\n"
	"	csrr t0, mcycle\n"
	"1:	addi a0, a0, -1\n"
	"	bnez a0, 1b\n"
	"	csrr a0, mcycle\n"
	"	sub a0, a0, t0\n"
	"	ret\n"
	".option pop\n");

void ops(void)
{
	unsigned long cpi, k, v;
	static const unsigned long ks[] = { 1, 2, 3, 100, 513, 2000 };
	int i;

	put_line("loop1000", cc_loop(1000));
	put_line("loop100000", cc_loop(100000));
	/* mcycle alone counts: minstret and the hpm counters inhibited */
	__asm__ volatile("csrw mcountinhibit, %0" : : "r"(~CY));
	put_line("loop1000_cy_only", cc_loop(1000));
	__asm__ volatile("csrw mcountinhibit, %0" : : "r"(CY));
	put_line("loop1000_cy_inhibited", cc_loop(1000));
	__asm__ volatile("csrw mcountinhibit, zero");

	__asm__ volatile("csrs mcountinhibit, %0" : : "r"(HPM3));
	__asm__ volatile("csrw mhpmevent3, %0" : : "r"(1UL));
	__asm__ volatile("csrw mhpmcounter3, zero");
	__asm__ volatile("csrc mcountinhibit, %0" : : "r"(HPM3));
	put_line("hpm3_loop1000", hpm3_loop(1000));
	__asm__ volatile("csrs mcountinhibit, %0" : : "r"(HPM3));

	/*
	 * The overflow: started at -(k x CPI - (CPI - 1)), the counter wraps
	 * with the k-th instruction's cycles (the CPI from the loop above,
	 * which the script checks): mepc = sled + 4k.
	 */
	cpi = cc_loop(1000) / 2001;
	put_line("cpi", cpi);
	for (i = 0; i < (int)(sizeof(ks) / sizeof(ks[0])); i++) {
		k = ks[i];
		hpm3_lcofi_epc = 0;
		v = -(k * cpi - (cpi - 1));
		put_line("lcofi_k", k);
		put_line("lcofi_at", hpm3_lcofi(1, v));
		__asm__ volatile("csrr %0, mhpmevent3" : "=r"(v));
		put_line("lcofi_of", v >> 63);
	}
	__asm__ volatile("csrw mhpmevent3, zero");
}
