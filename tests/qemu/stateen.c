/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tests/qemu/stateen.c - Smstateen's CTR bit on a QEMU patched with
 * qemu-model/qemu (issue 7).  Built twice by stateen.sh: with -DDRAFT for
 * ctr-layout=draft, whose CTR bit is mstateen0/hstateen0 bit 55 (v0.1.4
 * draft, "State Enable Access Control"), and without for
 * ctr-layout=ratified, bit 54 (Smctr/Ssctr v1.0).  Checks that the
 * layout's bit sticks as written in mstateen0, that it gates S-mode access
 * to the layout's sctr control register, that hstateen0's bit is writable
 * only while mstateen0's is set, that the other layout's bit is not the
 * CTR bit (and reads 0), that mstateen0.CSRIND (Smcsrind) gates S-mode's
 * sireg on the entries too, and that S-mode still cannot write mstateen0.
 */
#include "guest.h"
#include <rvperf/csr.h>
#include <rvperf/ctr.h>

#ifdef DRAFT
#define CTR_BIT		RVP_CTR_DRAFT_STATEEN0_CTR
#define SCTRCTL		"0x181"		/* sctrcontrol */
#else
#define CTR_BIT		RVP_CTR_V1_STATEEN0_CTR
#define SCTRCTL		"0x14e"		/* sctrctl */
#endif

/*
 * s_run(op): runs one access in S-mode (op 3: VS-mode) and comes back to
 * M-mode through ecall; returns the access's exception cause, 0 if none
 * (2 illegal, 22 virtual instruction).  op 0 reads the layout's sctr
 * control register, op 1 writes 0 to mstateen0, op 2 and 3 read sireg
 * (siselect, vsiselect for VS, are M-mode's to set).  M-mode's mtvec is swapped for
 * s_trap meanwhile (kept in mscratch); the S-mode code touches no memory
 * and only a1/a2 (t0/t1 in the handler).
 */
__asm__(".option push\n.option norvc\n.text\n.balign 4\n"
	".globl s_run\n"
	"s_run:\n"
	"	csrr t0, mtvec\n"
	"	csrw mscratch, t0\n"
	"	la t0, s_trap\n"
	"	csrw mtvec, t0\n"
	"	li t0, 0x1800\n"
	"	csrc mstatus, t0\n"
	"	li t0, 0x800\n"
	"	csrs mstatus, t0\n"
	"	li t0, 1\n"
	"	slli t0, t0, 39\n"	/* MPV */
	"	csrc mstatus, t0\n"
	"	li t1, 3\n"
	"	bne a0, t1, 1f\n"
	"	csrs mstatus, t0\n"
	"1:	la t0, s_read\n"
	"	beqz a0, 1f\n"
	"	la t0, s_write\n"
	"	li t1, 1\n"
	"	beq a0, t1, 1f\n"
	"	la t0, s_sireg\n"
	"1:	csrw mepc, t0\n"
	"	li a2, 0\n"
	"	mret\n"
	"s_read:\n"
	"	csrr a1, " SCTRCTL "\n"
	"	ecall\n"
	"s_write:\n"
	"	csrw 0x30c, zero\n"
	"	ecall\n"
	"s_sireg:\n"
	"	csrr a1, 0x151\n"
	"	ecall\n"
	".balign 4\n"
	"s_trap:\n"
	"	csrr t0, mcause\n"
	"	li t1, 9\n"		/* ecall from S or VS: done */
	"	beq t0, t1, 2f\n"
	"	li t1, 10\n"
	"	beq t0, t1, 2f\n"
	"	mv a2, t0\n"		/* anything else: note the cause, */
	"	csrr t0, mepc\n"	/* skip the instruction */
	"	addi t0, t0, 4\n"
	"	csrw mepc, t0\n"
	"	mret\n"
	"2:	li t0, 1\n"
	"	slli t0, t0, 39\n"
	"	csrc mstatus, t0\n"
	"	li t0, 0x1800\n"
	"	csrs mstatus, t0\n"
	"	la t0, s_back\n"
	"	csrw mepc, t0\n"
	"	mret\n"
	"s_back:\n"
	"	csrr t0, mscratch\n"
	"	csrw mtvec, t0\n"
	"	mv a0, a2\n"
	"	ret\n"
	".option pop\n");

int s_run(int op);

static unsigned long mstateen0(void)
{
	unsigned long v;

	__asm__ volatile("csrr %0, 0x30c" : "=r"(v));
	return v;
}

static void set_mstateen0(unsigned long v)
{
	__asm__ volatile("csrw 0x30c, %0" : : "r"(v) : "memory");
}

static unsigned long hstateen0(void)
{
	unsigned long v;

	__asm__ volatile("csrr %0, 0x60c" : "=r"(v));
	return v;
}

static void set_hstateen0(unsigned long v)
{
	__asm__ volatile("csrw 0x60c, %0" : : "r"(v) : "memory");
}

static void check(unsigned long ok, const char *what)
{
	put_str(ok ? "ok " : "not ok ");
	put_str(what);
	put_str("\n");
}

void ops(void)
{
	unsigned long misa, v;

	/* S-mode needs a PMP entry: all of memory, RWX (NAPOT). */
	__asm__ volatile("csrw pmpaddr0, %0\n"
			 "	csrw pmpcfg0, %1\n"
			 : : "r"(-1UL >> 10), "r"(0x1fUL) : "memory");
	__asm__ volatile("csrr %0, misa" : "=r"(misa));

	set_mstateen0(RVP_STATEEN0_SE0 | CTR_BIT);
	v = mstateen0();
	put_line("mstateen0", v);
	check(v & CTR_BIT, "the layout's CTR bit sticks in mstateen0");
	check(v & RVP_STATEEN0_SE0, "SE0 sticks in mstateen0 (QEMU's own bit)");
	check(!s_run(0), "S-mode reads sctr control with mstateen0.CTR = 1");

	set_mstateen0(RVP_STATEEN0_SE0);
	v = mstateen0();
	check(!(v & CTR_BIT) && (v & RVP_STATEEN0_SE0),
	      "the CTR bit clears, SE0 stays");
	check(s_run(0), "S-mode sctr control access raises with mstateen0.CTR = 0");

	set_mstateen0(RVP_STATEEN0_SE0 | RVP_CTR_V1_STATEEN0_CTR |
		      RVP_CTR_DRAFT_STATEEN0_CTR);
	v = mstateen0();
	put_line("mstateen0 both bits", v);
#ifdef DRAFT
	/* Bit 54 is the ratified CTR bit; the draft gives it no meaning. */
	check(!(v & RVP_CTR_V1_STATEEN0_CTR) && (v & CTR_BIT),
	      "bit 55 sticks, bit 54 reads 0");
	set_mstateen0(RVP_STATEEN0_SE0 | RVP_CTR_V1_STATEEN0_CTR);
	check(s_run(0), "bit 54 alone does not open sctrcontrol");
#else
	/* Ratified Smstateen: bit 55 is SRMCFG, which QEMU 10.2 lacks. */
	check(!(v & RVP_CTR_DRAFT_STATEEN0_CTR) && (v & CTR_BIT),
	      "bit 54 sticks, bit 55 reads 0");
	set_mstateen0(RVP_STATEEN0_SE0 | RVP_CTR_DRAFT_STATEEN0_CTR);
	check(s_run(0), "bit 55 alone does not open sctrctl");
#endif

	if (misa & (1UL << ('H' - 'A'))) {
		set_mstateen0(RVP_STATEEN0_SE0);
		set_hstateen0(CTR_BIT);
		check(!(hstateen0() & CTR_BIT),
		      "hstateen0.CTR reads 0 while mstateen0.CTR = 0");
		set_mstateen0(RVP_STATEEN0_SE0 | CTR_BIT);
		set_hstateen0(CTR_BIT);
		check(hstateen0() & CTR_BIT,
		      "hstateen0.CTR sticks while mstateen0.CTR = 1");
		set_hstateen0(0);
		check(!(hstateen0() & CTR_BIT), "hstateen0.CTR clears");
	} else {
		put_str("ok # SKIP no H extension\n");
		put_str("ok # SKIP no H extension\n");
		put_str("ok # SKIP no H extension\n");
	}

	/* Smcsrind: mstateen0.CSRIND gates sireg* below M, entries too. */
	__asm__ volatile("csrw 0x150, %0" : : "r"(0x200UL) : "memory");
	set_mstateen0(RVP_STATEEN0_SE0 | CTR_BIT);
	check(s_run(2), "S-mode sireg (entry 0) raises with mstateen0.CSRIND = 0");
	set_mstateen0(RVP_STATEEN0_SE0 | RVP_STATEEN0_CSRIND | CTR_BIT);
	check(!s_run(2), "S-mode sireg (entry 0) reads with mstateen0.CSRIND = 1");

	if (misa & (1UL << ('H' - 'A'))) {
		/* VS-mode's sireg is vsireg; every mstateen0 bit before any
		 * hstateen0 bit: illegal wins over virtual. */
		__asm__ volatile("csrw 0x250, %0" : : "r"(0x200UL) : "memory");
		set_mstateen0(RVP_STATEEN0_SE0 | RVP_STATEEN0_CSRIND);
		set_hstateen0(0);
		check(s_run(3) == 2,
		      "VS-mode sireg: mstateen0.CTR = 0 is illegal, not hstateen0's virtual");
		set_mstateen0(RVP_STATEEN0_SE0 | RVP_STATEEN0_CSRIND | CTR_BIT);
		set_hstateen0(CTR_BIT);
		check(s_run(3) == 22, "VS-mode sireg: hstateen0.CSRIND = 0 is virtual");
		set_hstateen0(RVP_STATEEN0_CSRIND | CTR_BIT);
		check(s_run(3) == 0, "VS-mode sireg reads with both enables");
	} else {
		put_str("ok # SKIP no H extension\n");
		put_str("ok # SKIP no H extension\n");
		put_str("ok # SKIP no H extension\n");
	}

	set_mstateen0(RVP_STATEEN0_SE0 | CTR_BIT);
	check(s_run(1), "S-mode write to mstateen0 raises");
	check(mstateen0() & CTR_BIT, "and leaves mstateen0 as it was");
}
