/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * csr.h - counter CSRs and the bits around them that M-mode firmware
 * programs: the Zicntr/Zihpm counters, mcountinhibit, mhpmevent with the
 * Sscofpmf OF and xINH bits, Smcntrpmf's mcyclecfg/minstretcfg, scountovf,
 * the LCOFI interrupt bit, mideleg/mip and mstateen0.
 *
 * Source: the RISC-V privileged architecture (chapters "Machine-Level
 * ISA": CSR listing, "Hardware Performance Monitor", "Machine Counter-
 * Inhibit Register"; "Sscofpmf", "Smcntrpmf", "Smstateen").  That spec is
 * not in shared/specs, so tests/spec/expected.tsv transcribes each value
 * with the section it comes from and check_spec.py checks the header
 * against it.  Only the subset opensbi-ext/ needs so far; counter N's CSR
 * is the base plus N (mhpmcounterN = mcycle + N, mhpmeventN =
 * mcountinhibit + N, hpmcounterN = cycle + N).
 */
#ifndef RVPERF_CSR_H
#define RVPERF_CSR_H

/* Unprivileged counters (read-only shadows). */
#define RVP_CSR_CYCLE			0xC00
#define RVP_CSR_CYCLEH			0xC80

/* Machine counters; RV32 high halves at +0x80. */
#define RVP_CSR_MCYCLE			0xB00
#define RVP_CSR_MINSTRET		0xB02
#define RVP_CSR_MHPMCOUNTER3		0xB03
#define RVP_CSR_MCYCLEH			0xB80
#define RVP_CSR_MHPMCOUNTER3H		0xB83

/* Counter setup. */
#define RVP_CSR_MCOUNTEREN		0x306
#define RVP_CSR_MCOUNTINHIBIT		0x320
#define RVP_CSR_MHPMEVENT3		0x323
#define RVP_CSR_MHPMEVENT3H		0x723	/* RV32, Sscofpmf */

/* Smcntrpmf: privilege-mode filtering of mcycle and minstret. */
#define RVP_CSR_MCYCLECFG		0x321
#define RVP_CSR_MINSTRETCFG		0x322
#define RVP_CSR_MCYCLECFGH		0x721
#define RVP_CSR_MINSTRETCFGH		0x722

/* Sscofpmf: overflow bits readable from S-mode. */
#define RVP_CSR_SCOUNTOVF		0xDA0

/* mhpmeventN bits of Sscofpmf; mcyclecfg/minstretcfg put the same
 * inhibit bits at the same places (Smcntrpmf). */
#define RVP_MHPMEVENT_OF		(1ULL << 63)
#define RVP_MHPMEVENT_MINH		(1ULL << 62)
#define RVP_MHPMEVENT_SINH		(1ULL << 61)
#define RVP_MHPMEVENT_UINH		(1ULL << 60)
#define RVP_MHPMEVENT_VSINH		(1ULL << 59)
#define RVP_MHPMEVENT_VUINH		(1ULL << 58)

/* Interrupts. */
#define RVP_CSR_MIE			0x304
#define RVP_CSR_MIDELEG			0x303
#define RVP_CSR_MIP			0x344
#define RVP_IRQ_LCOFI			13
#define RVP_MIP_LCOFIP			(1ULL << RVP_IRQ_LCOFI)

/* Smstateen. */
#define RVP_CSR_MSTATEEN0		0x30C

#endif /* RVPERF_CSR_H */
