/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Control Transfer Records (Smctr/Ssctr) register constants the driver
 * needs, for the ratified v1.0 layout (RVP_CTR_V1_*).  The kernel has no
 * header for them, so they are kept here under the names of the project's
 * include/rvperf/ctr.h; linux-driver/tests/ctr-regs-sync.sh checks every
 * value against it.
 */
#ifndef RVPERF_CTR_REGS_H
#define RVPERF_CTR_REGS_H

#include <linux/bits.h>

#ifndef RVPERF_CSR_H_HAS_CTR
/*
 * The CSR numbers, as <asm/csr.h> names them once the upstream series is
 * applied; kernels without them get them here.
 */
#include <asm/csr.h>

#ifndef CSR_SIREG2
#define CSR_SIREG2				0x152
#define CSR_SIREG3				0x153
#endif
#ifndef CSR_SCTRCTL
#define CSR_SCTRCTL				RVP_CTR_V1_CSR_SCTRCTL
#define CSR_SCTRSTATUS				RVP_CTR_V1_CSR_SCTRSTATUS
#define CSR_SCTRDEPTH				RVP_CTR_V1_CSR_SCTRDEPTH
#endif
#endif

/* Entries through siselect 0x200 + N and sireg/2/3. */
#define RVP_CTR_ISELECT_FIRST			0x200
#define RVP_CTRSOURCE_V				BIT_ULL(0)
#define RVP_CTRTARGET_MISP			BIT_ULL(0)
#define RVP_CTRDATA_TYPE			GENMASK_ULL(3, 0)
#define RVP_CTRDATA_TYPE_SHIFT			0
#define RVP_CTRDATA_CCV				BIT_ULL(15)
#define RVP_CTRDATA_CCM				GENMASK_ULL(27, 16)
#define RVP_CTRDATA_CCM_SHIFT			16
#define RVP_CTRDATA_CCE				GENMASK_ULL(31, 28)
#define RVP_CTRDATA_CCE_SHIFT			28

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

/* Transfer type filter: bit 32 + TYPE (NTBREN opts in, others opt out). */
#define RVP_CTR_FILTER				GENMASK_ULL(47, 32)
#define RVP_CTR_FILTER_SHIFT			32

/* Ratified v1.0. */
#ifndef RVPERF_CSR_H_HAS_CTR
#define RVP_CTR_V1_CSR_SCTRCTL			0x14E
#define RVP_CTR_V1_CSR_SCTRSTATUS		0x14F
#define RVP_CTR_V1_CSR_SCTRDEPTH		0x15F
#endif
#define RVP_CTR_V1_MCTRCTL_U			BIT_ULL(0)
#define RVP_CTR_V1_MCTRCTL_S			BIT_ULL(1)
#define RVP_CTR_V1_MCTRCTL_RASEMU		BIT_ULL(7)
#define RVP_CTR_V1_MCTRCTL_LCOFIFRZ		BIT_ULL(12)
#define RVP_CTR_V1_MCTRCTL_NTBREN		BIT_ULL(36)
#define RVP_CTR_V1_SCTRDEPTH_DEPTH		GENMASK_ULL(2, 0)
#define RVP_CTR_V1_SCTRSTATUS_FROZEN		BIT_ULL(31)
#define RVP_CTR_V1_SCTRCLR_INSN			0x10400073

#ifdef CONFIG_RVPERF_CTR_LAYOUT_DRAFT
/* The v0.1.4 draft (RVP_CTR_DRAFT_*). */
#define RVP_CTR_DRAFT_CSR_SCTRCONTROL		0x181
#define RVP_CTR_DRAFT_CSR_SCTRSTATUS		0x183
#define RVP_CTR_DRAFT_MCTRCONTROL_S		BIT_ULL(1)
#define RVP_CTR_DRAFT_MCTRCONTROL_U		BIT_ULL(2)
#define RVP_CTR_DRAFT_MCTRCONTROL_CLR		BIT_ULL(7)
#define RVP_CTR_DRAFT_MCTRCONTROL_RASEMU	BIT_ULL(10)
#define RVP_CTR_DRAFT_MCTRCONTROL_LCOFIFRZ	BIT_ULL(12)
#define RVP_CTR_DRAFT_MCTRCONTROL_DEPTH		GENMASK_ULL(19, 16)
#define RVP_CTR_DRAFT_MCTRCONTROL_DEPTH_SHIFT	16
#define RVP_CTR_DRAFT_MCTRCONTROL_NTBREN	BIT_ULL(36)
#define RVP_CTR_DRAFT_MCTRSTATUS_FROZEN		BIT_ULL(15)
#endif

#endif /* RVPERF_CTR_REGS_H */
