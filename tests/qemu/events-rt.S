/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tests/qemu/events-rt.S - M-mode set-up, tear-down and trap handler for
 * the code scn2events.py generates (see there for the register use):
 *   s1 constant pool, s2 output, s3 where rvp_mtrap resumes, s4/s5 the
 *   mstatus bits it clears/sets before its mret, s6 ACLINT MSWI (hart 0
 *   MSIP), s7 LCOFIP, s8 ACLINT SSWI (hart 0 SETSSIP), s9 MPV|MPIE,
 *   s10 MPP, s11 rvp_noaccess + 1 (LR there is misaligned, a load from
 *   -1(s11) takes a load access fault below M).
 * Built for RV64 or RV32 (the replay of an "impl xlen=32" scenario); on
 * RV32 MPV is mstatush's, which the replay never enters (no VS/VU), so s9
 * is MPIE only.
 */
#if __riscv_xlen == 64
#define REG_S sd
#define REG_L ld
#define SZREG 8
#else
#define REG_S sw
#define REG_L lw
#define SZREG 4
#endif
	.option norvc
	.option norelax
	.text
	.balign 4
	.globl rvp_setup
rvp_setup:
	lla	t0, rvp_save
	REG_S	s0, 1*SZREG(t0)
	REG_S	s1, 2*SZREG(t0)
	REG_S	s2, 3*SZREG(t0)
	REG_S	s3, 4*SZREG(t0)
	REG_S	s4, 5*SZREG(t0)
	REG_S	s5, 6*SZREG(t0)
	REG_S	s6, 7*SZREG(t0)
	REG_S	s7, 8*SZREG(t0)
	REG_S	s8, 9*SZREG(t0)
	REG_S	s9, 10*SZREG(t0)
	REG_S	s10, 11*SZREG(t0)
	REG_S	s11, 12*SZREG(t0)
	REG_S	sp, 13*SZREG(t0)
	csrr	t1, mtvec
	REG_S	t1, 14*SZREG(t0)
	lla	t1, rvp_mtrap
	csrw	mtvec, t1
	/*
	 * Below M, rvp_noaccess (4 KiB) cannot be accessed (a load there
	 * takes a load access fault), all other memory can (no paging).
	 */
	lla	t1, rvp_noaccess
	srli	t1, t1, 2
	ori	t1, t1, 0x1ff
	csrw	pmpaddr0, t1
	li	t1, -1
	csrw	pmpaddr1, t1
	li	t1, 0x1f18
	csrw	pmpcfg0, t1
	/* misaligned LR (4) to VS, load access fault (5) to HS */
	li	t1, 0x30
	csrw	medeleg, t1
	li	t1, 0x10
	csrw	hedeleg, t1
	/*
	 * SSIP to HS, VSSIP to VS; MSIP, SSIP, VSSIP enabled.  LCOFIE only
	 * around the LCOFI traps scn2events.py makes: ctr-sim takes no
	 * interrupt a scenario does not say, and a counter overflow may
	 * leave LCOFIP set.
	 */
	li	t1, 0x2
	csrw	mideleg, t1
	li	t1, 0x4
	csrw	hideleg, t1
	li	t1, 0xe
	csrw	mie, t1
	csrw	hvip, zero
	li	t1, 0x2002
	csrc	mip, t1
	csrci	mstatus, 0xa
	csrci	sstatus, 0x2
	csrw	vsstatus, zero
	li	s6, 0x2000000
	li	s7, 0x2000
	li	s8, 0x2f00000
#if __riscv_xlen == 64
	li	s9, 1
	slli	s9, s9, 39
	ori	s9, s9, 0x80
#else
	li	s9, 0x80
#endif
	li	s10, 0x1800
	lla	s11, rvp_noaccess
	addi	s11, s11, 1
	li	s4, 0
	li	s5, 0
	ret

	.globl rvp_teardown
rvp_teardown:
	/* no interrupt for the C code after (an LCOFIP a scenario left) */
	csrci	mstatus, 0x8
	csrw	mie, zero
	li	t1, 0x2000
	csrc	mip, t1
	lla	t0, rvp_save
	REG_L	t1, 14*SZREG(t0)
	csrw	mtvec, t1
	REG_L	ra, 0*SZREG(t0)
	REG_L	s0, 1*SZREG(t0)
	REG_L	s1, 2*SZREG(t0)
	REG_L	s2, 3*SZREG(t0)
	REG_L	s3, 4*SZREG(t0)
	REG_L	s4, 5*SZREG(t0)
	REG_L	s5, 6*SZREG(t0)
	REG_L	s6, 7*SZREG(t0)
	REG_L	s7, 8*SZREG(t0)
	REG_L	s8, 9*SZREG(t0)
	REG_L	s9, 10*SZREG(t0)
	REG_L	s10, 11*SZREG(t0)
	REG_L	s11, 12*SZREG(t0)
	REG_L	sp, 13*SZREG(t0)
	ret

/*
 * Every trap to M: the cause is the status of the access s2 points at,
 * then mret to s3 (six instructions: scn2events.py counts them).
 */
	.balign 4
	.globl rvp_mtrap, rvp_mret
rvp_mtrap:
	csrr	t5, mcause
	REG_S	t5, 0(s2)
	csrw	mepc, s3
	csrc	mstatus, s4
	csrs	mstatus, s5
rvp_mret:
	mret

	.bss
	.balign 8
	.globl rvp_save
rvp_save:
	.space 16*SZREG
	.balign 4096
rvp_noaccess:
	.space 4096
