/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tests/qemu/insn-count.c - retired-instruction counts and the overflow
 * point of a counter counting instructions, on known instruction
 * sequences (insn-count.sh runs it without -icount, where our QEMU counts
 * them in translated code: qemu-model/qemu/patches/0008).
 *
 * Every sequence below is assembled without compressed instructions or
 * linker relaxation, so each instruction is 4 bytes and the counts are
 * those of the source.  A counter read by a CSR instruction counts that
 * instruction (as QEMU's -icount counting does); an instruction that
 * raises an exception does not retire (the privileged spec: ECALL and
 * EBREAK included).  The trap handler of the exception checks is four
 * instructions (csrr, addi, csrw, mret).
 *
 * mhpmevent3 = 2 is QEMU's instructions event (SBI hardware event 2),
 * also with the rvperf model (ctr-layout), which leaves it to QEMU.
 */
#include "guest.h"
#include "hpm3.h"

#define LCOFI		(1UL << 13)
#define MINH		(1UL << 62)
#define UINH		(1UL << 60)
#define HPM3		(1UL << 3)

unsigned long ic_straight(void);
unsigned long ic_loop(unsigned long n);
unsigned long ic_ecall(void);
unsigned long ic_illegal(void);
unsigned long ic_fault(void);
unsigned long ic_user(void);
unsigned long ic_lcofi_user(unsigned long k);
unsigned long ic_user_minstret;

__asm__(
	".option push\n"
	".option norvc\n"
	".option norelax\n"
	".text\n"
	/* ic_straight(): minstret over 100 nops (and the second read) */
	".globl ic_straight\n"
	"ic_straight:\n"
	"	csrr t0, minstret\n"
	"	.rept 100\n"
	"	nop\n"
	"	.endr\n"
	"	csrr a0, minstret\n"
	"	sub a0, a0, t0\n"
	"	ret\n"
	/* ic_loop(n): minstret over n iterations of two instructions */
	".globl ic_loop\n"
	"ic_loop:\n"
	"	csrr t0, minstret\n"
	"1:	addi a0, a0, -1\n"
	"	bnez a0, 1b\n"
	"	csrr a0, minstret\n"
	"	sub a0, a0, t0\n"
	"	ret\n"
	/* the exception handler: four instructions, back after the insn */
	".balign 4\n"
	"ic_trap:\n"
	"	csrr t6, mepc\n"
	"	addi t6, t6, 4\n"
	"	csrw mepc, t6\n"
	"	mret\n"
	/* ic_ecall(): minstret over an ECALL (M to M) */
	".globl ic_ecall\n"
	"ic_ecall:\n"
	"	csrr t4, mtvec\n"
	"	la t3, ic_trap\n"
	"	csrw mtvec, t3\n"
	"	csrr t0, minstret\n"
	"	ecall\n"
	"	csrr a0, minstret\n"
	"	csrw mtvec, t4\n"
	"	sub a0, a0, t0\n"
	"	ret\n"
	/* ic_illegal(): over an illegal instruction (translated as such) */
	".globl ic_illegal\n"
	"ic_illegal:\n"
	"	csrr t4, mtvec\n"
	"	la t3, ic_trap\n"
	"	csrw mtvec, t3\n"
	"	csrr t0, minstret\n"
	"	.word 0xffffffff\n"
	"	csrr a0, minstret\n"
	"	csrw mtvec, t4\n"
	"	sub a0, a0, t0\n"
	"	ret\n"
	/* ic_fault(): over a load fault in the middle of a block, then two
	 * instructions that run after the handler */
	".globl ic_fault\n"
	"ic_fault:\n"
	"	csrr t4, mtvec\n"
	"	la t3, ic_trap\n"
	"	csrw mtvec, t3\n"
	"	csrr t0, minstret\n"
	"	ld t1, 0(zero)\n"
	"	nop\n"
	"	nop\n"
	"	csrr a0, minstret\n"
	"	csrw mtvec, t4\n"
	"	sub a0, a0, t0\n"
	"	ret\n"
	/*
	 * ic_user(): mhpmcounter3 over a stay in U-mode of 50 nops and an
	 * ECALL, entered by MRET; minstret's delta in ic_user_minstret
	 * (4 M-mode instructions after its first read through the MRET, 50
	 * in U, the two reads).  Needs PMP open to U.
	 */
	".globl ic_user\n"
	"ic_user:\n"
	"	csrr t4, mtvec\n"
	"	la t3, ic_user_back\n"
	"	csrw mtvec, t3\n"
	"	la t3, ic_user_code\n"
	"	csrw mepc, t3\n"
	"	csrr t0, mhpmcounter3\n"
	"	csrr t1, minstret\n"
	"	lui t3, 2\n"
	"	addi t3, t3, -2048\n"		/* MPP: 3 << 11 */
	"	csrc mstatus, t3\n"		/* MPP = U */
	"	mret\n"
	"ic_user_code:\n"
	"	.rept 50\n"
	"	nop\n"
	"	.endr\n"
	"	ecall\n"
	".balign 4\n"
	"ic_user_back:\n"
	"	csrr a0, mhpmcounter3\n"
	"	csrr a1, minstret\n"
	"	csrw mtvec, t4\n"
	"	sub a0, a0, t0\n"
	"	sub a1, a1, t1\n"
	"	la t3, ic_user_minstret\n"
	"	sd a1, 0(t3)\n"
	"	ret\n"
	/*
	 * ic_lcofi_user(k): the same counter counting U-mode only (MINH),
	 * started at -k in M-mode; U-mode runs a sled of 300 nops and an
	 * ECALL.  Returns mepc minus the U sled's start (0: no LCOFI).
	 */
	".globl ic_lcofi_user\n"
	"ic_lcofi_user:\n"
	"	csrr t4, mtvec\n"
	"	la t3, hpm3_lcofi_trap\n"
	"	csrw mtvec, t3\n"
	"	la t3, ic_lcofi_user_back\n"
	"	la t5, hpm3_lcofi_back\n"
	"	sd t3, 0(t5)\n"
	"	li t3, 1 << 3\n"
	"	csrs mcountinhibit, t3\n"
	"	li t3, 1\n"
	"	slli t3, t3, 62\n"
	"	addi t3, t3, 2\n"
	"	csrw mhpmevent3, t3\n"		/* instructions, MINH */
	"	neg t3, a0\n"
	"	csrw mhpmcounter3, t3\n"
	"	li t3, 1 << 13\n"
	"	csrs mie, t3\n"
	"	li t3, 1 << 3\n"
	"	csrc mcountinhibit, t3\n"
	"	la t3, ic_usled\n"
	"	csrw mepc, t3\n"
	"	lui t3, 2\n"
	"	addi t3, t3, -2048\n"
	"	csrc mstatus, t3\n"		/* MPP = U */
	"	mret\n"
	"ic_usled:\n"
	"	.rept 300\n"
	"	nop\n"
	"	.endr\n"
	"	ecall\n"
	"ic_lcofi_user_back:\n"
	"	li t3, 1 << 3\n"
	"	csrs mcountinhibit, t3\n"
	"	csrw mtvec, t4\n"
	"	la t3, hpm3_lcofi_epc\n"
	"	ld a0, 0(t3)\n"
	"	beqz a0, 1f\n"
	"	la t3, ic_usled\n"
	"	sub a0, a0, t3\n"
	"1:	ret\n"
	".option pop\n");

static void check(const char *what, unsigned long got, unsigned long want)
{
	put_str(got == want ? "ok " : "not ok ");
	put_str(what);
	put_line(" (want/got)", want << 32 | got);
}

static void counter3(unsigned long event, unsigned long value)
{
	__asm__ volatile("csrs mcountinhibit, %0" : : "r"(HPM3));
	__asm__ volatile("csrw mhpmevent3, %0" : : "r"(event));
	__asm__ volatile("csrw mhpmcounter3, %0" : : "r"(value));
	__asm__ volatile("csrc mcountinhibit, %0" : : "r"(HPM3));
}

static unsigned long mhpmevent3_of(void)
{
	unsigned long v;

	__asm__ volatile("csrr %0, mhpmevent3" : "=r"(v));
	return v >> 63;
}

void ops(void)
{
	unsigned long k;
	static const unsigned long ks[] = { 1, 2, 3, 100, 511, 512, 513, 1000,
					    2000 };
	static const unsigned long uks[] = { 1, 7, 250 };
	int i;

	/* PMP: all of memory to U-mode (TOR up to the top, RWX) */
	__asm__ volatile("csrw pmpaddr0, %0" : : "r"(-1UL));
	__asm__ volatile("csrw pmpcfg0, %0" : : "r"(0x0fUL));

	check("minstret over 100 nops: 101", ic_straight(), 101);
	check("minstret over 1000 loop iterations: 2001", ic_loop(1000), 2001);
	check("minstret over 100000 loop iterations: 200001",
	      ic_loop(100000), 200001);
	check("an ECALL does not retire: 4 handler + 1", ic_ecall(), 5);
	check("an illegal instruction does not retire: 4 + 1", ic_illegal(),
	      5);
	check("a faulting load does not retire, the rest of its block runs after: 4 + 2 + 1",
	      ic_fault(), 7);
	__asm__ volatile("csrs mcountinhibit, %0" : : "r"(4UL));
	check("mcountinhibit.IR stops minstret", ic_loop(1000), 0);
	__asm__ volatile("csrc mcountinhibit, %0" : : "r"(4UL));

	counter3(2, 0);
	check("mhpmcounter3 (instructions) over 1000 iterations: 2001",
	      hpm3_loop(1000), 2001);
	counter3(2 | MINH, 0);
	check("mhpmevent3.MINH: no M-mode count", hpm3_loop(1000), 0);
	__asm__ volatile("csrs mcountinhibit, %0" : : "r"(HPM3));
	__asm__ volatile("csrw mhpmevent3, %0" : : "r"(2UL));
	check("mcountinhibit stops mhpmcounter3", hpm3_loop(1000), 0);
	counter3(2 | MINH, 0);
	check("MINH: U-mode's 50 nops, not its ECALL", ic_user(), 50);
	check("minstret: 4 M + 50 U + 2 reads", ic_user_minstret, 56);
	counter3(2 | UINH, 0);
	check("UINH: the M-mode part only: 1 + 4 + 1", ic_user(), 6);
	__asm__ volatile("csrs mcountinhibit, %0" : : "r"(HPM3));

	for (i = 0; i < (int)(sizeof(ks) / sizeof(ks[0])); i++) {
		k = ks[i];
		hpm3_lcofi_epc = 0;
		put_line("# k", k);
		check("LCOFI right after the k-th instruction: mepc = sled + 4k",
		      hpm3_lcofi(2, -k), 4 * k);
		check("mhpmevent3.OF", mhpmevent3_of(), 1);
		/* handler: csrr, bgez, la (2), csrr, sd, la (2), the read */
		check("mhpmcounter3 read in the handler: 0 + 9",
		      hpm3_lcofi_count, 9);
	}
	for (i = 0; i < (int)(sizeof(uks) / sizeof(uks[0])); i++) {
		k = uks[i];
		hpm3_lcofi_epc = 0;
		put_line("# k", k);
		check("U-mode only (MINH): LCOFI after U's k-th: mepc = U sled + 4k",
		      ic_lcofi_user(k), 4 * k);
		check("mhpmevent3.OF", mhpmevent3_of(), 1);
	}
	__asm__ volatile("csrw mhpmevent3, zero");
}
