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
 * mhpmevent3 = 1 is QEMU's cycles event (SBI hardware event 1).
 */
#include "guest.h"

#define LCOFI		(1UL << 13)
#define CY		(1UL << 0)
#define IR		(1UL << 2)
#define HPM3		(1UL << 3)

unsigned long cc_loop(unsigned long n);
unsigned long cc_hpm3_loop(unsigned long n);
unsigned long cc_lcofi(unsigned long value);
unsigned long cc_lcofi_epc;

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
	/* cc_hpm3_loop(n): the same, mhpmcounter3 */
	".globl cc_hpm3_loop\n"
	"cc_hpm3_loop:\n"
	"	csrr t0, mhpmcounter3\n"
	"1:	addi a0, a0, -1\n"
	"	bnez a0, 1b\n"
	"	csrr a0, mhpmcounter3\n"
	"	sub a0, a0, t0\n"
	"	ret\n"
	/* the LCOFI handler: records mepc, turns LCOFIE off, clears LCOFIP */
	".balign 4\n"
	"cc_lcofi_trap:\n"
	"	la t5, cc_lcofi_epc\n"
	"	csrr t6, mepc\n"
	"	sd t6, 0(t5)\n"
	"	li t6, 1 << 13\n"
	"	csrc mie, t6\n"
	"	csrc mip, t6\n"
	"	mret\n"
	/*
	 * cc_lcofi(value): mhpmcounter3 counting cycles from VALUE, in M-mode,
	 * right before a sled of 2100 nops; returns where the LCOFI was
	 * taken, as mepc minus the sled's start (0 if none was).
	 */
	".globl cc_lcofi\n"
	"cc_lcofi:\n"
	"	csrr t4, mtvec\n"
	"	la t3, cc_lcofi_trap\n"
	"	csrw mtvec, t3\n"
	"	li t3, 1 << 3\n"
	"	csrs mcountinhibit, t3\n"
	"	li t3, 1\n"
	"	csrw mhpmevent3, t3\n"
	"	csrw mhpmcounter3, a0\n"
	"	li t3, 1 << 13\n"
	"	csrs mie, t3\n"
	"	csrsi mstatus, 8\n"
	"	li t3, 1 << 3\n"
	"	csrc mcountinhibit, t3\n"	/* counts from the next one */
	"cc_sled:\n"
	"	.rept 2100\n"
	"	nop\n"
	"	.endr\n"
	"	csrci mstatus, 8\n"
	"	li t3, 1 << 3\n"
	"	csrs mcountinhibit, t3\n"
	"	csrw mtvec, t4\n"
	"	la t3, cc_lcofi_epc\n"
	"	ld a0, 0(t3)\n"
	"	beqz a0, 1f\n"
	"	la t3, cc_sled\n"
	"	sub a0, a0, t3\n"
	"1:	ret\n"
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
	put_line("hpm3_loop1000", cc_hpm3_loop(1000));
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
		cc_lcofi_epc = 0;
		v = -(k * cpi - (cpi - 1));
		put_line("lcofi_k", k);
		put_line("lcofi_at", cc_lcofi(v));
		__asm__ volatile("csrr %0, mhpmevent3" : "=r"(v));
		put_line("lcofi_of", v >> 63);
	}
	__asm__ volatile("csrw mhpmevent3, zero");
}
