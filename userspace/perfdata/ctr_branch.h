/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ctr_branch.h - one CTR record (ctrsource, ctrtarget, ctrdata) as a perf
 * branch entry: from/to without the V and MISP bits, TYPE to PERF_BR_*,
 * MISP to mispred/predicted when the implementation reports it, the cycle
 * count, and the privilege the enabled modes imply.  The CTR plugin writes
 * perf.data's samples with it (qemu-model/plugin) and rvperf record states
 * it as ctr_to_branch() for its tests; header only, as both run it on
 * millions of records.
 */
#ifndef RVPERF_CTR_BRANCH_H
#define RVPERF_CTR_BRANCH_H

#include <stdint.h>

#include "perf_data.h"
#include "rvperf/ctr.h"

/*
 * The cycles a ctrdata.CC field stands for ("Cycle Counting"): CCM when
 * CCE is 0, else (2^12 + CCM) << (CCE - 1); 0 when CCV is clear.  Clamped
 * to perf's 16-bit cycles field.
 */
static inline unsigned int ctr_branch_cycles(uint64_t data)
{
	uint64_t cce, ccm, cycles;

	if (!(data & RVP_CTRDATA_CCV))
		return 0;
	cce = (data & RVP_CTRDATA_CCE) >> RVP_CTRDATA_CCE_SHIFT;
	ccm = (data & RVP_CTRDATA_CCM) >> RVP_CTRDATA_CCM_SHIFT;
	cycles = cce ? (4096 + ccm) << (cce - 1) : ccm;
	return cycles > 0xffff ? 0xffff : (unsigned int)cycles;
}

/* perf's type, and new_type for PERF_BR_EXTEND_ABI, of each ctrdata TYPE.
 * Where perf has no generic name, the same architecture-specific new_type
 * the driver reports (linux-driver/rvperf_ctr_logic.c), so a recording
 * reads the same from QEMU as from hardware. */
static const struct {
	unsigned char type, new_type;
} ctr_branch_types[16] = {
	[RVP_CTRDATA_TYPE_EXCEPTION] = { PERF_BR_EXTEND_ABI, PERF_BR_NEW_ARCH_1 },
	[RVP_CTRDATA_TYPE_INTERRUPT] = { PERF_BR_IRQ, 0 },
	[RVP_CTRDATA_TYPE_TRAP_RETURN] = { PERF_BR_ERET, 0 },
	/* Not COND: tools would read it as taken. */
	[RVP_CTRDATA_TYPE_NOT_TAKEN_BRANCH] = { PERF_BR_EXTEND_ABI, PERF_BR_NEW_ARCH_2 },
	[RVP_CTRDATA_TYPE_TAKEN_BRANCH] = { PERF_BR_COND, 0 },
	[RVP_CTRDATA_TYPE_INDIRECT_CALL] = { PERF_BR_IND_CALL, 0 },
	[RVP_CTRDATA_TYPE_DIRECT_CALL] = { PERF_BR_CALL, 0 },
	[RVP_CTRDATA_TYPE_INDIRECT_JUMP] = { PERF_BR_IND, 0 },
	[RVP_CTRDATA_TYPE_OTHER_INDIRECT_JUMP] = { PERF_BR_IND, 0 },
	[RVP_CTRDATA_TYPE_DIRECT_JUMP] = { PERF_BR_UNCOND, 0 },
	[RVP_CTRDATA_TYPE_OTHER_DIRECT_JUMP] = { PERF_BR_UNCOND, 0 },
	[RVP_CTRDATA_TYPE_FUNCTION_RETURN] = { PERF_BR_RET, 0 },
	[RVP_CTRDATA_TYPE_COROUTINE_SWAP] = { PERF_BR_EXTEND_ABI, PERF_BR_NEW_ARCH_3 },
};

/* The flag word of a record of TYPE, its cycles aside. */
static inline uint64_t ctr_branch_flags(unsigned int type, int has_misp,
					int misp, unsigned int priv)
{
	return pd_branch_flags(has_misp && misp, has_misp && !misp, 0,
			       ctr_branch_types[type & 15].type,
			       ctr_branch_types[type & 15].new_type, priv);
}

/* PERF_BR_PRIV_* of every record: a record says nothing of its mode; one
 * enabled mode (ctl in the layout's bits: 0 ratified, 1 draft) does. */
static inline unsigned int ctr_branch_priv(uint64_t ctl, uint64_t layout)
{
	uint64_t u = layout ? RVP_CTR_DRAFT_MCTRCONTROL_U : RVP_CTR_V1_MCTRCTL_U;
	uint64_t s = layout ? RVP_CTR_DRAFT_MCTRCONTROL_S : RVP_CTR_V1_MCTRCTL_S;
	uint64_t m = layout ? RVP_CTR_DRAFT_MCTRCONTROL_M : RVP_CTR_V1_MCTRCTL_M;
	uint64_t modes = ctl & (u | s | m);

	if (modes == u)
		return PERF_BR_PRIV_USER;
	if (modes == s)
		return PERF_BR_PRIV_KERNEL;
	if (modes == m)
		return PERF_BR_PRIV_HV;
	return PERF_BR_PRIV_UNKNOWN;
}

/* Flag words by [MISP][TYPE] for a recording's MISP reporting and
 * privilege: a sample's entries then take one lookup each. */
static inline void ctr_branch_flag_table(uint64_t table[2][16], int has_misp,
					 unsigned int priv)
{
	for (unsigned int t = 0; t < 16; t++) {
		table[0][t] = ctr_branch_flags(t, has_misp, 0, priv);
		table[1][t] = ctr_branch_flags(t, has_misp, 1, priv);
	}
}

/* One record as a perf branch entry, with a table of the recording's. */
static inline void ctr_branch_entry(const uint64_t table[2][16],
				    uint64_t source, uint64_t target,
				    uint64_t data, struct pd_branch *out)
{
	out->from = source & ~RVP_CTRSOURCE_V;
	out->to = target & ~RVP_CTRTARGET_MISP;
	out->flags = table[!!(target & RVP_CTRTARGET_MISP)]
			  [(data & RVP_CTRDATA_TYPE) >> RVP_CTRDATA_TYPE_SHIFT] |
		     (uint64_t)ctr_branch_cycles(data) << 4;
}

#endif /* RVPERF_CTR_BRANCH_H */
