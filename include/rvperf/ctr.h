/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ctr.h - Control Transfer Records (Smctr/Ssctr), both CSR layouts.
 *
 * RVP_CTR_V1_*     the ratified v1.0 layout (ctr-smctr-ssctr-v1.0-*.adoc):
 *                  mctrctl/sctrctl/vsctrctl, sctrstatus, sctrdepth, SCTRCLR,
 *                  mstateen0.CTR = bit 54.  The project's default.
 * RVP_CTR_DRAFT_*  the v0.1.4 draft (2023-09-15, 002_*.txt): mctrcontrol/
 *                  sctrcontrol/vsctrcontrol with DEPTH and CLR in them,
 *                  mctrstatus with WRAP, mstateen0.CTR = bit 55.
 * RVP_CTR_*, RVP_CTRSOURCE_*, RVP_CTRTARGET_*, RVP_CTRDATA_*
 *                  what both layouts share: the *iselect range and *ireg
 *                  mapping, the entry registers and the TYPE encodings.
 *
 * Field macros are masks in place; fields wider than one bit also have a
 * _SHIFT.  Field names are the spec's own, so the two layouts spell some
 * filter bits differently (v1.0 INDJMPINH/INDLJMPINH, draft INDJUMPINH/
 * INDOJMPINH) although they sit at the same positions.
 *
 * tests/spec/check_spec.py recomputes every value from the register
 * diagrams, tables and text of both specs.
 */
#ifndef RVPERF_CTR_H
#define RVPERF_CTR_H

#include "csr.h"

/* ------------------------------------------------------------ both layouts */

/*
 * Entry registers (v1.0 and draft, "Entry Registers"): *iselect values
 * 0x200 + N select logical entry N (0 = youngest), N = 0..255; *ireg,
 * *ireg2 and *ireg3 then hold ctrsource, ctrtarget and ctrdata, *ireg4..6
 * read 0.  vsireg* reach the same entries as sireg*.  The draft also lets
 * M-mode use miselect/mireg* (RVP_CTR_DRAFT_MIREG_*); v1.0 does not.
 */
#define RVP_CTR_ISELECT_FIRST		0x200
#define RVP_CTR_ISELECT_LAST		0x2FF
#define RVP_CTR_SIREG_CTRSOURCE		RVP_CSR_SIREG
#define RVP_CTR_SIREG_CTRTARGET		RVP_CSR_SIREG2
#define RVP_CTR_SIREG_CTRDATA		RVP_CSR_SIREG3
#define RVP_CTR_VSIREG_CTRSOURCE	RVP_CSR_VSIREG
#define RVP_CTR_VSIREG_CTRTARGET	RVP_CSR_VSIREG2
#define RVP_CTR_VSIREG_CTRDATA		RVP_CSR_VSIREG3

/*
 * ctrsource, ctrtarget, ctrdata (v1.0 "Control Transfer Record Source/
 * Target/Metadata Register"; draft 3.1-3.3; same bits in both).  The PC
 * fields are the rest of ctrsource/ctrtarget above bit 0.  CC is a 16-bit
 * float: CCE (exponent) in CC[15:12], CCM (mantissa) in CC[11:0] (v1.0
 * "Cycle Counting", draft 5.3).
 */
#define RVP_CTRSOURCE_V			(1ULL << 0)
#define RVP_CTRTARGET_MISP		(1ULL << 0)
#define RVP_CTRDATA_TYPE		0xFULL
#define RVP_CTRDATA_TYPE_SHIFT		0
#define RVP_CTRDATA_CCV			(1ULL << 15)
#define RVP_CTRDATA_CC			(0xFFFFULL << 16)
#define RVP_CTRDATA_CC_SHIFT		16
#define RVP_CTRDATA_CCM			(0xFFFULL << 16)
#define RVP_CTRDATA_CCM_SHIFT		16
#define RVP_CTRDATA_CCE			(0xFULL << 28)
#define RVP_CTRDATA_CCE_SHIFT		28

/*
 * ctrdata.TYPE (v1.0 table "Control Transfer Type Definitions", draft 3.3;
 * the E-Trace itype values, see ntrace.h).  0 is what an implementation
 * without TYPE reports; 6 and 7 are reserved.  Names follow the v1.0 table.
 */
#define RVP_CTRDATA_TYPE_NONE			0
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

/*
 * Transfer type filtering (v1.0 "Transfer Type Filtering": x ctrctl[47:32];
 * draft 5.2: ctrcontrol bits 47:32): in both layouts the filter bit of
 * TYPE t is bit 32 + t (NTBREN opts in, the others opt out).
 */
#define RVP_CTR_FILTER			(0xFFFFULL << 32)
#define RVP_CTR_FILTER_SHIFT		32

/* -------------------------------------------------------- ratified v1.0 */

/* CSR numbers (v1.0 table "CTR CSR List"). */
#define RVP_CTR_V1_CSR_SCTRCTL		0x14E
#define RVP_CTR_V1_CSR_SCTRSTATUS	0x14F
#define RVP_CTR_V1_CSR_SCTRDEPTH	0x15F
#define RVP_CTR_V1_CSR_VSCTRCTL		0x24E
#define RVP_CTR_V1_CSR_MCTRCTL		0x34E

/*
 * mctrctl (v1.0 "Machine Control Transfer Records Control Register
 * Format"); sctrctl is the same register with M (bit 2) and MTE (bit 9)
 * read-only 0 ("Supervisor Control Transfer Records Control Register").
 */
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

/*
 * vsctrctl (v1.0 "Virtual Supervisor Control Transfer Records Control
 * Register Format"): S, U and STE sit where sctrctl has them, so a guest
 * that does not know it is one sees the usual layout.
 */
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

/*
 * sctrdepth.DEPTH (v1.0 "Supervisor Control Transfer Records Depth
 * Register"): a binary encoding, depth = 2^(DEPTH + 4); 5-7 are reserved.
 */
#define RVP_CTR_V1_SCTRDEPTH_DEPTH	0x7ULL
#define RVP_CTR_V1_SCTRDEPTH_DEPTH_SHIFT 0
#define RVP_CTR_V1_DEPTH_ENC_16		0
#define RVP_CTR_V1_DEPTH_ENC_32		1
#define RVP_CTR_V1_DEPTH_ENC_64		2
#define RVP_CTR_V1_DEPTH_ENC_128	3
#define RVP_CTR_V1_DEPTH_ENC_256	4

/* sctrstatus (v1.0 "Supervisor Control Transfer Records Status Register"). */
#define RVP_CTR_V1_SCTRSTATUS_WRPTR	0xFFULL
#define RVP_CTR_V1_SCTRSTATUS_WRPTR_SHIFT 0
#define RVP_CTR_V1_SCTRSTATUS_FROZEN	(1ULL << 31)

/*
 * SCTRCLR (v1.0 "Supervisor CTR Clear Instruction"): SYSTEM opcode (0x73),
 * rd = funct3 = rs1 = 0, func12 = 0x104.  The draft has no instruction; it
 * clears through ctrcontrol.CLR.
 */
#define RVP_CTR_V1_SCTRCLR_INSN		0x10400073

/* The CTR bit of mstateen0 and hstateen0 (v1.0 "State Enable Access
 * Control"). */
#define RVP_CTR_V1_STATEEN0_CTR		(1ULL << 54)

/* ------------------------------------------------------- v0.1.4 draft */

/*
 * CSR numbers (draft 2.6 "CSR Listing"; the ...H CSRs hold bits 63:32 on
 * RV32).  sctrstatus is an alias of mctrstatus (draft 2.5).
 */
#define RVP_CTR_DRAFT_CSR_SCTRCONTROL	0x181
#define RVP_CTR_DRAFT_CSR_SCTRCONTROLH	0x182
#define RVP_CTR_DRAFT_CSR_SCTRSTATUS	0x183
#define RVP_CTR_DRAFT_CSR_VSCTRCONTROL	0x281
#define RVP_CTR_DRAFT_CSR_VSCTRCONTROLH	0x282
#define RVP_CTR_DRAFT_CSR_MCTRCONTROL	0x381
#define RVP_CTR_DRAFT_CSR_MCTRCONTROLH	0x382
#define RVP_CTR_DRAFT_CSR_MCTRSTATUS	0x383

/*
 * mctrcontrol (draft 2.1); sctrcontrol is the same register with M (bit 0)
 * and MTE (bit 8) read-only 0 (draft 2.2).  Writing CLR = 1 zeroes the
 * entries and mctrstatus.  Bits 63:60 are for custom extensions.
 */
#define RVP_CTR_DRAFT_MCTRCONTROL_M		(1ULL << 0)
#define RVP_CTR_DRAFT_MCTRCONTROL_S		(1ULL << 1)
#define RVP_CTR_DRAFT_MCTRCONTROL_U		(1ULL << 2)
#define RVP_CTR_DRAFT_MCTRCONTROL_CLR		(1ULL << 7)
#define RVP_CTR_DRAFT_MCTRCONTROL_MTE		(1ULL << 8)
#define RVP_CTR_DRAFT_MCTRCONTROL_STE		(1ULL << 9)
#define RVP_CTR_DRAFT_MCTRCONTROL_RASEMU	(1ULL << 10)
#define RVP_CTR_DRAFT_MCTRCONTROL_BPFRZ		(1ULL << 11)
#define RVP_CTR_DRAFT_MCTRCONTROL_LCOFIFRZ	(1ULL << 12)
#define RVP_CTR_DRAFT_MCTRCONTROL_DEPTH		(0xFULL << 16)
#define RVP_CTR_DRAFT_MCTRCONTROL_DEPTH_SHIFT	16
#define RVP_CTR_DRAFT_MCTRCONTROL_EXCINH	(1ULL << 33)
#define RVP_CTR_DRAFT_MCTRCONTROL_INTRINH	(1ULL << 34)
#define RVP_CTR_DRAFT_MCTRCONTROL_TRETINH	(1ULL << 35)
#define RVP_CTR_DRAFT_MCTRCONTROL_NTBREN	(1ULL << 36)
#define RVP_CTR_DRAFT_MCTRCONTROL_TKBRINH	(1ULL << 37)
#define RVP_CTR_DRAFT_MCTRCONTROL_ETEN		(1ULL << 38)
#define RVP_CTR_DRAFT_MCTRCONTROL_INDCALLINH	(1ULL << 40)
#define RVP_CTR_DRAFT_MCTRCONTROL_DIRCALLINH	(1ULL << 41)
#define RVP_CTR_DRAFT_MCTRCONTROL_INDJUMPINH	(1ULL << 42)
#define RVP_CTR_DRAFT_MCTRCONTROL_DIRJUMPINH	(1ULL << 43)
#define RVP_CTR_DRAFT_MCTRCONTROL_CORSWAPINH	(1ULL << 44)
#define RVP_CTR_DRAFT_MCTRCONTROL_RETINH	(1ULL << 45)
#define RVP_CTR_DRAFT_MCTRCONTROL_INDOJMPINH	(1ULL << 46)
#define RVP_CTR_DRAFT_MCTRCONTROL_DIROJMPINH	(1ULL << 47)
#define RVP_CTR_DRAFT_MCTRCONTROL_CUSTOM	(0xFULL << 60)
#define RVP_CTR_DRAFT_MCTRCONTROL_CUSTOM_SHIFT	60

/*
 * vsctrcontrol (draft 2.3): VS, VU and VSTE sit where S, U and STE do in
 * sctrcontrol; DEPTH is a read-only copy of mctrcontrol.DEPTH.
 */
#define RVP_CTR_DRAFT_VSCTRCONTROL_VS		(1ULL << 1)
#define RVP_CTR_DRAFT_VSCTRCONTROL_VU		(1ULL << 2)
#define RVP_CTR_DRAFT_VSCTRCONTROL_CLR		(1ULL << 7)
#define RVP_CTR_DRAFT_VSCTRCONTROL_VSTE		(1ULL << 9)
#define RVP_CTR_DRAFT_VSCTRCONTROL_RASEMU	(1ULL << 10)
#define RVP_CTR_DRAFT_VSCTRCONTROL_BPFRZ	(1ULL << 11)
#define RVP_CTR_DRAFT_VSCTRCONTROL_LCOFIFRZ	(1ULL << 12)
#define RVP_CTR_DRAFT_VSCTRCONTROL_DEPTH	(0xFULL << 16)
#define RVP_CTR_DRAFT_VSCTRCONTROL_DEPTH_SHIFT	16
#define RVP_CTR_DRAFT_VSCTRCONTROL_EXCINH	(1ULL << 33)
#define RVP_CTR_DRAFT_VSCTRCONTROL_INTRINH	(1ULL << 34)
#define RVP_CTR_DRAFT_VSCTRCONTROL_TRETINH	(1ULL << 35)
#define RVP_CTR_DRAFT_VSCTRCONTROL_NTBREN	(1ULL << 36)
#define RVP_CTR_DRAFT_VSCTRCONTROL_TKBRINH	(1ULL << 37)
#define RVP_CTR_DRAFT_VSCTRCONTROL_ETEN		(1ULL << 38)
#define RVP_CTR_DRAFT_VSCTRCONTROL_INDCALLINH	(1ULL << 40)
#define RVP_CTR_DRAFT_VSCTRCONTROL_DIRCALLINH	(1ULL << 41)
#define RVP_CTR_DRAFT_VSCTRCONTROL_INDJUMPINH	(1ULL << 42)
#define RVP_CTR_DRAFT_VSCTRCONTROL_DIRJUMPINH	(1ULL << 43)
#define RVP_CTR_DRAFT_VSCTRCONTROL_CORSWAPINH	(1ULL << 44)
#define RVP_CTR_DRAFT_VSCTRCONTROL_RETINH	(1ULL << 45)
#define RVP_CTR_DRAFT_VSCTRCONTROL_INDOJMPINH	(1ULL << 46)
#define RVP_CTR_DRAFT_VSCTRCONTROL_DIROJMPINH	(1ULL << 47)

/*
 * ctrcontrol.DEPTH encodings (draft 2.1): a thermometer code, depth =
 * 16 << popcount(DEPTH).  Supported values are consecutive; writing 0b0000
 * and 0b1111 and reading back gives the minimum and maximum (draft 6).
 */
#define RVP_CTR_DRAFT_DEPTH_ENC_16	0x0
#define RVP_CTR_DRAFT_DEPTH_ENC_32	0x1
#define RVP_CTR_DRAFT_DEPTH_ENC_64	0x3
#define RVP_CTR_DRAFT_DEPTH_ENC_128	0x7
#define RVP_CTR_DRAFT_DEPTH_ENC_256	0xF

/*
 * mctrstatus (draft 2.4), 32 bits: WRAP is sticky, set when WRPTR wraps;
 * bits 31:28 are for custom extensions.
 */
#define RVP_CTR_DRAFT_MCTRSTATUS_WRPTR		0xFFULL
#define RVP_CTR_DRAFT_MCTRSTATUS_WRPTR_SHIFT	0
#define RVP_CTR_DRAFT_MCTRSTATUS_WRAP		(1ULL << 14)
#define RVP_CTR_DRAFT_MCTRSTATUS_FROZEN		(1ULL << 15)
#define RVP_CTR_DRAFT_MCTRSTATUS_CUSTOM		(0xFULL << 28)
#define RVP_CTR_DRAFT_MCTRSTATUS_CUSTOM_SHIFT	28

/* ctrdata bits 14:12 are for custom extensions in the draft only (3.3). */
#define RVP_CTR_DRAFT_CTRDATA_CUSTOM		(0x7ULL << 12)
#define RVP_CTR_DRAFT_CTRDATA_CUSTOM_SHIFT	12

/* The draft also reaches the entries from M-mode through mireg* (draft 3). */
#define RVP_CTR_DRAFT_MIREG_CTRSOURCE		RVP_CSR_MIREG
#define RVP_CTR_DRAFT_MIREG_CTRTARGET		RVP_CSR_MIREG2
#define RVP_CTR_DRAFT_MIREG_CTRDATA		RVP_CSR_MIREG3

/*
 * The CTR bit of mstateen0 and hstateen0 in the draft (draft 4).  The
 * ratified Smstateen gives bit 55 to SRMCFG, so only set it on a hart
 * known to have the draft layout.
 */
#define RVP_CTR_DRAFT_STATEEN0_CTR		(1ULL << 55)

#endif /* RVPERF_CTR_H */
