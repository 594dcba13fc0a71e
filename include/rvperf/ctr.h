/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ctr.h - Control Transfer Records (Smctr/Ssctr).
 *
 * This file holds the ratified v1.0 layout (RVP_CTR_V1_*, source:
 * shared/specs/ctr-smctr-ssctr-v1.0-body.adoc, "CSRs", "Entry Registers",
 * "Instructions", "State Enable Access Control") and what both layouts
 * share (ctrdata TYPE encodings, the *iselect range).  The v0.1.4 draft
 * layout (RVP_CTR_DRAFT_*) is still to be added.
 *
 * Field macros are masks in place; fields wider than one bit also have a
 * _SHIFT.  tests/spec/check_spec.py recomputes every value from the spec's
 * register diagrams and tables.
 */
#ifndef RVPERF_CTR_H
#define RVPERF_CTR_H

/* CSR numbers (table "CTR CSR List"). */
#define RVP_CTR_V1_CSR_SCTRCTL		0x14E
#define RVP_CTR_V1_CSR_SCTRSTATUS	0x14F
#define RVP_CTR_V1_CSR_SCTRDEPTH	0x15F
#define RVP_CTR_V1_CSR_VSCTRCTL		0x24E
#define RVP_CTR_V1_CSR_MCTRCTL		0x34E

/* mctrctl; sctrctl is the same register without M and MTE. */
#define RVP_CTR_V1_MCTRCTL_U		(1ULL << 0)
#define RVP_CTR_V1_MCTRCTL_S		(1ULL << 1)
#define RVP_CTR_V1_MCTRCTL_M		(1ULL << 2)
#define RVP_CTR_V1_MCTRCTL_RASEMU	(1ULL << 7)
#define RVP_CTR_V1_MCTRCTL_STE		(1ULL << 8)
#define RVP_CTR_V1_MCTRCTL_MTE		(1ULL << 9)
#define RVP_CTR_V1_MCTRCTL_BPFRZ	(1ULL << 11)
#define RVP_CTR_V1_MCTRCTL_LCOFIFRZ	(1ULL << 12)
#define RVP_CTR_V1_MCTRCTL_EXCINH	(1ULL << 33)
#define RVP_CTR_V1_MCTRCTL_INTRINH	(1ULL << 34)
#define RVP_CTR_V1_MCTRCTL_TRETINH	(1ULL << 35)
#define RVP_CTR_V1_MCTRCTL_NTBREN	(1ULL << 36)
#define RVP_CTR_V1_MCTRCTL_TKBRINH	(1ULL << 37)
#define RVP_CTR_V1_MCTRCTL_INDCALLINH	(1ULL << 40)
#define RVP_CTR_V1_MCTRCTL_DIRCALLINH	(1ULL << 41)
#define RVP_CTR_V1_MCTRCTL_INDJMPINH	(1ULL << 42)
#define RVP_CTR_V1_MCTRCTL_DIRJMPINH	(1ULL << 43)
#define RVP_CTR_V1_MCTRCTL_CORSWAPINH	(1ULL << 44)
#define RVP_CTR_V1_MCTRCTL_RETINH	(1ULL << 45)
#define RVP_CTR_V1_MCTRCTL_INDLJMPINH	(1ULL << 46)
#define RVP_CTR_V1_MCTRCTL_DIRLJMPINH	(1ULL << 47)
#define RVP_CTR_V1_MCTRCTL_CUSTOM	(0xFULL << 60)
#define RVP_CTR_V1_MCTRCTL_CUSTOM_SHIFT	60

/* vsctrctl: S, U, STE sit where sctrctl has them, for unaware guests. */
#define RVP_CTR_V1_VSCTRCTL_U		(1ULL << 0)
#define RVP_CTR_V1_VSCTRCTL_S		(1ULL << 1)
#define RVP_CTR_V1_VSCTRCTL_RASEMU	(1ULL << 7)
#define RVP_CTR_V1_VSCTRCTL_STE		(1ULL << 8)
#define RVP_CTR_V1_VSCTRCTL_BPFRZ	(1ULL << 11)
#define RVP_CTR_V1_VSCTRCTL_LCOFIFRZ	(1ULL << 12)
#define RVP_CTR_V1_VSCTRCTL_EXCINH	(1ULL << 33)
#define RVP_CTR_V1_VSCTRCTL_INTRINH	(1ULL << 34)
#define RVP_CTR_V1_VSCTRCTL_TRETINH	(1ULL << 35)
#define RVP_CTR_V1_VSCTRCTL_NTBREN	(1ULL << 36)
#define RVP_CTR_V1_VSCTRCTL_TKBRINH	(1ULL << 37)
#define RVP_CTR_V1_VSCTRCTL_INDCALLINH	(1ULL << 40)
#define RVP_CTR_V1_VSCTRCTL_DIRCALLINH	(1ULL << 41)
#define RVP_CTR_V1_VSCTRCTL_INDJMPINH	(1ULL << 42)
#define RVP_CTR_V1_VSCTRCTL_DIRJMPINH	(1ULL << 43)
#define RVP_CTR_V1_VSCTRCTL_CORSWAPINH	(1ULL << 44)
#define RVP_CTR_V1_VSCTRCTL_RETINH	(1ULL << 45)
#define RVP_CTR_V1_VSCTRCTL_INDLJMPINH	(1ULL << 46)
#define RVP_CTR_V1_VSCTRCTL_DIRLJMPINH	(1ULL << 47)
#define RVP_CTR_V1_VSCTRCTL_CUSTOM	(0xFULL << 60)
#define RVP_CTR_V1_VSCTRCTL_CUSTOM_SHIFT 60

/* sctrdepth.DEPTH and its encodings: depth = 2^(DEPTH + 4). */
#define RVP_CTR_V1_SCTRDEPTH_DEPTH	0x7ULL
#define RVP_CTR_V1_SCTRDEPTH_DEPTH_SHIFT 0
#define RVP_CTR_V1_DEPTH_ENC_16		0
#define RVP_CTR_V1_DEPTH_ENC_32		1
#define RVP_CTR_V1_DEPTH_ENC_64		2
#define RVP_CTR_V1_DEPTH_ENC_128	3
#define RVP_CTR_V1_DEPTH_ENC_256	4

/* sctrstatus. */
#define RVP_CTR_V1_SCTRSTATUS_WRPTR	0xFFULL
#define RVP_CTR_V1_SCTRSTATUS_WRPTR_SHIFT 0
#define RVP_CTR_V1_SCTRSTATUS_FROZEN	(1ULL << 31)

/* Entry registers: ctrsource.V, ctrtarget.MISP, ctrdata. */
#define RVP_CTR_V1_CTRSOURCE_V		(1ULL << 0)
#define RVP_CTR_V1_CTRTARGET_MISP	(1ULL << 0)
#define RVP_CTR_V1_CTRDATA_TYPE		0xFULL
#define RVP_CTR_V1_CTRDATA_TYPE_SHIFT	0
#define RVP_CTR_V1_CTRDATA_CCV		(1ULL << 15)
#define RVP_CTR_V1_CTRDATA_CC		(0xFFFFULL << 16)
#define RVP_CTR_V1_CTRDATA_CC_SHIFT	16

/* SCTRCLR: SYSTEM opcode, func12 0x104, rd = rs1 = funct3 = 0. */
#define RVP_CTR_V1_SCTRCLR_INSN		0x10400073

/* The CTR bit of mstateen0 and hstateen0. */
#define RVP_CTR_V1_STATEEN0_CTR		(1ULL << 54)

/* Both layouts: *iselect values that select CTR entries (logical entry
 * N at 0x200 + N), and the ctrdata TYPE encodings (E-Trace itype based,
 * table "Control Transfer Type" encodings). */
#define RVP_CTR_ISELECT_FIRST			0x200
#define RVP_CTR_ISELECT_LAST			0x2FF
#define RVP_CTRDATA_TYPE_EXCEPTION		1
#define RVP_CTRDATA_TYPE_INTERRUPT		2
#define RVP_CTRDATA_TYPE_TRAP_RETURN		3
#define RVP_CTRDATA_TYPE_NOT_TAKEN_BRANCH	4
#define RVP_CTRDATA_TYPE_TAKEN_BRANCH		5
#define RVP_CTRDATA_TYPE_INDIRECT_CALL		8
#define RVP_CTRDATA_TYPE_DIRECT_CALL		9
#define RVP_CTRDATA_TYPE_INDIRECT_JUMP		10
#define RVP_CTRDATA_TYPE_DIRECT_JUMP		11
#define RVP_CTRDATA_TYPE_COROUTINE_SWAP		12
#define RVP_CTRDATA_TYPE_FUNCTION_RETURN	13
#define RVP_CTRDATA_TYPE_OTHER_INDIRECT_JUMP	14
#define RVP_CTRDATA_TYPE_OTHER_DIRECT_JUMP	15

#endif /* RVPERF_CTR_H */
