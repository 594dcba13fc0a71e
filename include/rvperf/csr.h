/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * csr.h - the non-CTR CSRs and CSR fields rvperf uses: the counters, their
 * event selectors and Sscofpmf fields, counter enables, Smcntrpmf,
 * Smstateen, Smcsrind/Sscsrind, the interrupt registers and the local
 * counter-overflow interrupt (LCOFI), and the privilege-mode encodings.
 *
 * Source: the RISC-V Instruction Set Manual, Volume II (Privileged
 * Architecture), as published by RISC-V International.  Each group names its
 * table or chapter there.  The shared CTR and trace specs confirm some of them
 * (Smstateen bit 60, the privilege-mode encoding of M-mode); the rest are
 * checked by tests/spec/check_spec.py against its own transcription of the
 * privileged spec's tables and against tests/spec/expected.tsv.
 *
 * Naming: RVP_CSR_<name> is a CSR number, spelt as the privileged spec spells
 * the register (RV32 upper halves end in H).  RVP_<REG>_<FIELD> is a field
 * mask in place; fields wider than one bit also have a _SHIFT.
 */
#ifndef RVPERF_CSR_H
#define RVPERF_CSR_H

/*
 * Privilege-mode encodings (privileged spec, "RISC-V privilege levels"
 * table; 2 is reserved).  M = 3 is also how the tandem trace protocol
 * reports M-mode (000_* Table C.7: additional state "privilege mode").
 */
#define RVP_PRV_U			0
#define RVP_PRV_S			1
#define RVP_PRV_M			3

/*
 * Unprivileged counters (privileged spec, table "Currently allocated RISC-V
 * unprivileged CSR addresses"): read-only shadows of the machine counters,
 * numbered so that hpmcounterN = cycle + N.  SBI PMU counter_get_info
 * reports these numbers in counter_info.csr.
 */
#define RVP_CSR_CYCLE			0xC00
#define RVP_CSR_TIME			0xC01
#define RVP_CSR_INSTRET			0xC02
#define RVP_CSR_HPMCOUNTER3		0xC03
#define RVP_CSR_HPMCOUNTER4		0xC04
#define RVP_CSR_HPMCOUNTER5		0xC05
#define RVP_CSR_HPMCOUNTER6		0xC06
#define RVP_CSR_HPMCOUNTER7		0xC07
#define RVP_CSR_HPMCOUNTER8		0xC08
#define RVP_CSR_HPMCOUNTER9		0xC09
#define RVP_CSR_HPMCOUNTER10		0xC0A
#define RVP_CSR_HPMCOUNTER11		0xC0B
#define RVP_CSR_HPMCOUNTER12		0xC0C
#define RVP_CSR_HPMCOUNTER13		0xC0D
#define RVP_CSR_HPMCOUNTER14		0xC0E
#define RVP_CSR_HPMCOUNTER15		0xC0F
#define RVP_CSR_HPMCOUNTER16		0xC10
#define RVP_CSR_HPMCOUNTER17		0xC11
#define RVP_CSR_HPMCOUNTER18		0xC12
#define RVP_CSR_HPMCOUNTER19		0xC13
#define RVP_CSR_HPMCOUNTER20		0xC14
#define RVP_CSR_HPMCOUNTER21		0xC15
#define RVP_CSR_HPMCOUNTER22		0xC16
#define RVP_CSR_HPMCOUNTER23		0xC17
#define RVP_CSR_HPMCOUNTER24		0xC18
#define RVP_CSR_HPMCOUNTER25		0xC19
#define RVP_CSR_HPMCOUNTER26		0xC1A
#define RVP_CSR_HPMCOUNTER27		0xC1B
#define RVP_CSR_HPMCOUNTER28		0xC1C
#define RVP_CSR_HPMCOUNTER29		0xC1D
#define RVP_CSR_HPMCOUNTER30		0xC1E
#define RVP_CSR_HPMCOUNTER31		0xC1F
#define RVP_CSR_CYCLEH			0xC80
#define RVP_CSR_TIMEH			0xC81
#define RVP_CSR_INSTRETH		0xC82
#define RVP_CSR_HPMCOUNTER3H		0xC83
#define RVP_CSR_HPMCOUNTER4H		0xC84
#define RVP_CSR_HPMCOUNTER5H		0xC85
#define RVP_CSR_HPMCOUNTER6H		0xC86
#define RVP_CSR_HPMCOUNTER7H		0xC87
#define RVP_CSR_HPMCOUNTER8H		0xC88
#define RVP_CSR_HPMCOUNTER9H		0xC89
#define RVP_CSR_HPMCOUNTER10H		0xC8A
#define RVP_CSR_HPMCOUNTER11H		0xC8B
#define RVP_CSR_HPMCOUNTER12H		0xC8C
#define RVP_CSR_HPMCOUNTER13H		0xC8D
#define RVP_CSR_HPMCOUNTER14H		0xC8E
#define RVP_CSR_HPMCOUNTER15H		0xC8F
#define RVP_CSR_HPMCOUNTER16H		0xC90
#define RVP_CSR_HPMCOUNTER17H		0xC91
#define RVP_CSR_HPMCOUNTER18H		0xC92
#define RVP_CSR_HPMCOUNTER19H		0xC93
#define RVP_CSR_HPMCOUNTER20H		0xC94
#define RVP_CSR_HPMCOUNTER21H		0xC95
#define RVP_CSR_HPMCOUNTER22H		0xC96
#define RVP_CSR_HPMCOUNTER23H		0xC97
#define RVP_CSR_HPMCOUNTER24H		0xC98
#define RVP_CSR_HPMCOUNTER25H		0xC99
#define RVP_CSR_HPMCOUNTER26H		0xC9A
#define RVP_CSR_HPMCOUNTER27H		0xC9B
#define RVP_CSR_HPMCOUNTER28H		0xC9C
#define RVP_CSR_HPMCOUNTER29H		0xC9D
#define RVP_CSR_HPMCOUNTER30H		0xC9E
#define RVP_CSR_HPMCOUNTER31H		0xC9F

/*
 * Machine counters (privileged spec, table "Currently allocated RISC-V
 * machine-level CSR addresses", Machine Counter/Timers): mhpmcounterN =
 * mcycle + N; 0xB01 is not allocated (time has no machine counterpart).
 * The ...H CSRs hold bits 63:32 on RV32.
 */
#define RVP_CSR_MCYCLE			0xB00
#define RVP_CSR_MINSTRET		0xB02
#define RVP_CSR_MHPMCOUNTER3		0xB03
#define RVP_CSR_MHPMCOUNTER4		0xB04
#define RVP_CSR_MHPMCOUNTER5		0xB05
#define RVP_CSR_MHPMCOUNTER6		0xB06
#define RVP_CSR_MHPMCOUNTER7		0xB07
#define RVP_CSR_MHPMCOUNTER8		0xB08
#define RVP_CSR_MHPMCOUNTER9		0xB09
#define RVP_CSR_MHPMCOUNTER10		0xB0A
#define RVP_CSR_MHPMCOUNTER11		0xB0B
#define RVP_CSR_MHPMCOUNTER12		0xB0C
#define RVP_CSR_MHPMCOUNTER13		0xB0D
#define RVP_CSR_MHPMCOUNTER14		0xB0E
#define RVP_CSR_MHPMCOUNTER15		0xB0F
#define RVP_CSR_MHPMCOUNTER16		0xB10
#define RVP_CSR_MHPMCOUNTER17		0xB11
#define RVP_CSR_MHPMCOUNTER18		0xB12
#define RVP_CSR_MHPMCOUNTER19		0xB13
#define RVP_CSR_MHPMCOUNTER20		0xB14
#define RVP_CSR_MHPMCOUNTER21		0xB15
#define RVP_CSR_MHPMCOUNTER22		0xB16
#define RVP_CSR_MHPMCOUNTER23		0xB17
#define RVP_CSR_MHPMCOUNTER24		0xB18
#define RVP_CSR_MHPMCOUNTER25		0xB19
#define RVP_CSR_MHPMCOUNTER26		0xB1A
#define RVP_CSR_MHPMCOUNTER27		0xB1B
#define RVP_CSR_MHPMCOUNTER28		0xB1C
#define RVP_CSR_MHPMCOUNTER29		0xB1D
#define RVP_CSR_MHPMCOUNTER30		0xB1E
#define RVP_CSR_MHPMCOUNTER31		0xB1F
#define RVP_CSR_MCYCLEH			0xB80
#define RVP_CSR_MINSTRETH		0xB82
#define RVP_CSR_MHPMCOUNTER3H		0xB83
#define RVP_CSR_MHPMCOUNTER4H		0xB84
#define RVP_CSR_MHPMCOUNTER5H		0xB85
#define RVP_CSR_MHPMCOUNTER6H		0xB86
#define RVP_CSR_MHPMCOUNTER7H		0xB87
#define RVP_CSR_MHPMCOUNTER8H		0xB88
#define RVP_CSR_MHPMCOUNTER9H		0xB89
#define RVP_CSR_MHPMCOUNTER10H		0xB8A
#define RVP_CSR_MHPMCOUNTER11H		0xB8B
#define RVP_CSR_MHPMCOUNTER12H		0xB8C
#define RVP_CSR_MHPMCOUNTER13H		0xB8D
#define RVP_CSR_MHPMCOUNTER14H		0xB8E
#define RVP_CSR_MHPMCOUNTER15H		0xB8F
#define RVP_CSR_MHPMCOUNTER16H		0xB90
#define RVP_CSR_MHPMCOUNTER17H		0xB91
#define RVP_CSR_MHPMCOUNTER18H		0xB92
#define RVP_CSR_MHPMCOUNTER19H		0xB93
#define RVP_CSR_MHPMCOUNTER20H		0xB94
#define RVP_CSR_MHPMCOUNTER21H		0xB95
#define RVP_CSR_MHPMCOUNTER22H		0xB96
#define RVP_CSR_MHPMCOUNTER23H		0xB97
#define RVP_CSR_MHPMCOUNTER24H		0xB98
#define RVP_CSR_MHPMCOUNTER25H		0xB99
#define RVP_CSR_MHPMCOUNTER26H		0xB9A
#define RVP_CSR_MHPMCOUNTER27H		0xB9B
#define RVP_CSR_MHPMCOUNTER28H		0xB9C
#define RVP_CSR_MHPMCOUNTER29H		0xB9D
#define RVP_CSR_MHPMCOUNTER30H		0xB9E
#define RVP_CSR_MHPMCOUNTER31H		0xB9F

/*
 * Counter setup (same table, Machine Counter Setup): mcountinhibit, the
 * Smcntrpmf configuration CSRs of mcycle and minstret, and the event
 * selectors, mhpmeventN = mcountinhibit + N.  mhpmeventNh (RV32 upper
 * halves) are added by Sscofpmf.
 */
#define RVP_CSR_MCOUNTINHIBIT		0x320
#define RVP_CSR_MCYCLECFG		0x321
#define RVP_CSR_MINSTRETCFG		0x322
#define RVP_CSR_MCYCLECFGH		0x721
#define RVP_CSR_MINSTRETCFGH		0x722
#define RVP_CSR_MHPMEVENT3		0x323
#define RVP_CSR_MHPMEVENT4		0x324
#define RVP_CSR_MHPMEVENT5		0x325
#define RVP_CSR_MHPMEVENT6		0x326
#define RVP_CSR_MHPMEVENT7		0x327
#define RVP_CSR_MHPMEVENT8		0x328
#define RVP_CSR_MHPMEVENT9		0x329
#define RVP_CSR_MHPMEVENT10		0x32A
#define RVP_CSR_MHPMEVENT11		0x32B
#define RVP_CSR_MHPMEVENT12		0x32C
#define RVP_CSR_MHPMEVENT13		0x32D
#define RVP_CSR_MHPMEVENT14		0x32E
#define RVP_CSR_MHPMEVENT15		0x32F
#define RVP_CSR_MHPMEVENT16		0x330
#define RVP_CSR_MHPMEVENT17		0x331
#define RVP_CSR_MHPMEVENT18		0x332
#define RVP_CSR_MHPMEVENT19		0x333
#define RVP_CSR_MHPMEVENT20		0x334
#define RVP_CSR_MHPMEVENT21		0x335
#define RVP_CSR_MHPMEVENT22		0x336
#define RVP_CSR_MHPMEVENT23		0x337
#define RVP_CSR_MHPMEVENT24		0x338
#define RVP_CSR_MHPMEVENT25		0x339
#define RVP_CSR_MHPMEVENT26		0x33A
#define RVP_CSR_MHPMEVENT27		0x33B
#define RVP_CSR_MHPMEVENT28		0x33C
#define RVP_CSR_MHPMEVENT29		0x33D
#define RVP_CSR_MHPMEVENT30		0x33E
#define RVP_CSR_MHPMEVENT31		0x33F
#define RVP_CSR_MHPMEVENT3H		0x723
#define RVP_CSR_MHPMEVENT4H		0x724
#define RVP_CSR_MHPMEVENT5H		0x725
#define RVP_CSR_MHPMEVENT6H		0x726
#define RVP_CSR_MHPMEVENT7H		0x727
#define RVP_CSR_MHPMEVENT8H		0x728
#define RVP_CSR_MHPMEVENT9H		0x729
#define RVP_CSR_MHPMEVENT10H		0x72A
#define RVP_CSR_MHPMEVENT11H		0x72B
#define RVP_CSR_MHPMEVENT12H		0x72C
#define RVP_CSR_MHPMEVENT13H		0x72D
#define RVP_CSR_MHPMEVENT14H		0x72E
#define RVP_CSR_MHPMEVENT15H		0x72F
#define RVP_CSR_MHPMEVENT16H		0x730
#define RVP_CSR_MHPMEVENT17H		0x731
#define RVP_CSR_MHPMEVENT18H		0x732
#define RVP_CSR_MHPMEVENT19H		0x733
#define RVP_CSR_MHPMEVENT20H		0x734
#define RVP_CSR_MHPMEVENT21H		0x735
#define RVP_CSR_MHPMEVENT22H		0x736
#define RVP_CSR_MHPMEVENT23H		0x737
#define RVP_CSR_MHPMEVENT24H		0x738
#define RVP_CSR_MHPMEVENT25H		0x739
#define RVP_CSR_MHPMEVENT26H		0x73A
#define RVP_CSR_MHPMEVENT27H		0x73B
#define RVP_CSR_MHPMEVENT28H		0x73C
#define RVP_CSR_MHPMEVENT29H		0x73D
#define RVP_CSR_MHPMEVENT30H		0x73E
#define RVP_CSR_MHPMEVENT31H		0x73F

/* Counter enables (machine-, supervisor-level, hypervisor CSR tables). */
#define RVP_CSR_MCOUNTEREN		0x306
#define RVP_CSR_SCOUNTEREN		0x106
#define RVP_CSR_HCOUNTEREN		0x606

/*
 * Sscofpmf (privileged spec, chapter "Sscofpmf", "Count Overflow Control"):
 * mhpmeventN[63:56] = OF, MINH, SINH, UINH, VSINH, VUINH, two WPRI bits; the
 * implementation's event selector is what is left, bits 55:0 (the SBI PMU
 * chapter's "raw events v2" width).  On RV32 the same six bits are
 * mhpmeventNh[31:26].  scountovf bit N is a read-only copy of mhpmeventN.OF.
 */
#define RVP_MHPMEVENT_OF		(1ULL << 63)
#define RVP_MHPMEVENT_MINH		(1ULL << 62)
#define RVP_MHPMEVENT_SINH		(1ULL << 61)
#define RVP_MHPMEVENT_UINH		(1ULL << 60)
#define RVP_MHPMEVENT_VSINH		(1ULL << 59)
#define RVP_MHPMEVENT_VUINH		(1ULL << 58)
#define RVP_MHPMEVENT_EVENT		0x00FFFFFFFFFFFFFFULL
#define RVP_MHPMEVENTH_OF		(1U << 31)
#define RVP_MHPMEVENTH_MINH		(1U << 30)
#define RVP_MHPMEVENTH_SINH		(1U << 29)
#define RVP_MHPMEVENTH_UINH		(1U << 28)
#define RVP_MHPMEVENTH_VSINH		(1U << 27)
#define RVP_MHPMEVENTH_VUINH		(1U << 26)
#define RVP_CSR_SCOUNTOVF		0xDA0

/*
 * Interrupts (machine- and supervisor-level CSR tables; Sscofpmf assigns
 * the local counter-overflow interrupt to bit 13 of mip/mie/sip/sie, and
 * interrupt cause 13).
 */
#define RVP_CSR_MIDELEG			0x303
#define RVP_CSR_MIE			0x304
#define RVP_CSR_MIP			0x344
#define RVP_CSR_SIE			0x104
#define RVP_CSR_SIP			0x144
#define RVP_IRQ_LCOFI			13
#define RVP_MIP_LCOFIP			(1ULL << 13)
#define RVP_MIE_LCOFIE			(1ULL << 13)

/* Exception code of a breakpoint (table "Machine cause register (mcause)
 * values after trap"); CTR's BPFRZ freezes on it. */
#define RVP_EXC_BREAKPOINT		3
/* Environment calls from U-mode and from S-mode (same table); the TCG
 * plugin models a user-mode syscall as the former. */
#define RVP_EXC_ECALL_U			8
#define RVP_EXC_ECALL_S			9

/*
 * Smstateen (privileged spec, chapter "Smstateen/Ssstateen"; CSR tables).
 * The CTR bit of mstateen0/hstateen0 differs between the CTR layouts and is
 * in ctr.h (RVP_CTR_V1_STATEEN0_CTR, RVP_CTR_DRAFT_STATEEN0_CTR).  CSRIND,
 * bit 60 of mstateen0 and hstateen0, gates siselect/sireg* (and the vs*
 * versions) below M-mode; both CTR specs rely on it ("State Enable Access
 * Control").  SE0, bit 63, gates hstateen0/sstateen0 themselves (in
 * hstateen0: sstateen0 for VS-mode).
 */
#define RVP_CSR_MSTATEEN0		0x30C
#define RVP_CSR_MSTATEEN0H		0x31C
#define RVP_CSR_HSTATEEN0		0x60C
#define RVP_CSR_HSTATEEN0H		0x61C
#define RVP_CSR_SSTATEEN0		0x10C
#define RVP_STATEEN0_CSRIND		(1ULL << 60)
#define RVP_STATEEN0_SE0		(1ULL << 63)

/*
 * Ssqosid (privileged spec, chapter "Ssqosid"): srmcfg, whose number the
 * v0.1.4 CTR draft gave its sctrcontrol (RVP_CTR_DRAFT_CSR_SCTRCONTROL),
 * with the WARL resource and monitoring IDs; mstateen0 bit 55 (the draft's
 * CTR bit) gates S-mode's access to it.
 */
#define RVP_CSR_SRMCFG			0x181
#define RVP_SRMCFG_RCID			0x00000FFFULL	/* bits 11:0 */
#define RVP_SRMCFG_MCID			0x0FFF0000ULL	/* bits 27:16 */
#define RVP_STATEEN0_SRMCFG		(1ULL << 55)

/*
 * Smcsrind/Sscsrind indirect CSR access (privileged spec, chapter
 * "Smcsrind/Sscsrind"; CSR tables).  The *ireg4 numbers skip one (0x354 is
 * miph, 0x154 siph).  CTR entries are *iselect 0x200-0x2FF: see ctr.h.
 */
#define RVP_CSR_MISELECT		0x350
#define RVP_CSR_MIREG			0x351
#define RVP_CSR_MIREG2			0x352
#define RVP_CSR_MIREG3			0x353
#define RVP_CSR_MIREG4			0x355
#define RVP_CSR_MIREG5			0x356
#define RVP_CSR_MIREG6			0x357
#define RVP_CSR_SISELECT		0x150
#define RVP_CSR_SIREG			0x151
#define RVP_CSR_SIREG2			0x152
#define RVP_CSR_SIREG3			0x153
#define RVP_CSR_SIREG4			0x155
#define RVP_CSR_SIREG5			0x156
#define RVP_CSR_SIREG6			0x157
#define RVP_CSR_VSISELECT		0x250
#define RVP_CSR_VSIREG			0x251
#define RVP_CSR_VSIREG2			0x252
#define RVP_CSR_VSIREG3			0x253
#define RVP_CSR_VSIREG4			0x255
#define RVP_CSR_VSIREG5			0x256
#define RVP_CSR_VSIREG6			0x257

#endif /* RVPERF_CSR_H */
