// SPDX-License-Identifier: BSD-2-Clause
/* pred.c - the branch-predictor model of rvp_pred.h. */
#include "rvp_pred.h"

#include "rvperf/ctr.h"

void rvp_pred_init(struct rvp_pred *p)
{
	for (unsigned int i = 0; i < RVP_PRED_BIMODAL_ENTRIES; i++)
		p->bimodal[i] = 1;	/* weakly not taken */
	for (unsigned int i = 0; i < RVP_PRED_BTB_ENTRIES; i++)
		p->btb[i] = 0;
	for (unsigned int i = 0; i < RVP_PRED_RAS_ENTRIES; i++)
		p->ras[i] = 0;
	p->ras_top = p->ras_count = 0;
}

static void ras_push(struct rvp_pred *p, uint64_t addr)
{
	p->ras_top = (p->ras_top + 1) % RVP_PRED_RAS_ENTRIES;
	p->ras[p->ras_top] = addr;
	if (p->ras_count < RVP_PRED_RAS_ENTRIES)
		p->ras_count++;
}

bool rvp_pred_update(struct rvp_pred *p, unsigned int type, uint64_t source,
		     uint64_t target, unsigned int length)
{
	unsigned int bi = (unsigned int)(source >> 1) &
			  (RVP_PRED_BIMODAL_ENTRIES - 1);
	unsigned int ti = (unsigned int)(source >> 1) &
			  (RVP_PRED_BTB_ENTRIES - 1);
	uint8_t *ctr = &p->bimodal[bi];
	bool taken, misp = false;

	switch (type) {
	case RVP_CTRDATA_TYPE_NOT_TAKEN_BRANCH:
	case RVP_CTRDATA_TYPE_TAKEN_BRANCH:
		taken = type == RVP_CTRDATA_TYPE_TAKEN_BRANCH;
		misp = (*ctr >= 2) != taken;
		if (taken && *ctr < 3)
			(*ctr)++;
		else if (!taken && *ctr > 0)
			(*ctr)--;
		return misp;
	case RVP_CTRDATA_TYPE_INDIRECT_CALL:
	case RVP_CTRDATA_TYPE_INDIRECT_JUMP:
	case RVP_CTRDATA_TYPE_OTHER_INDIRECT_JUMP:
		misp = p->btb[ti] != target;
		p->btb[ti] = target;
		break;
	case RVP_CTRDATA_TYPE_FUNCTION_RETURN:
	case RVP_CTRDATA_TYPE_COROUTINE_SWAP:
		if (p->ras_count) {
			misp = p->ras[p->ras_top] != target;
			p->ras_top = (p->ras_top + RVP_PRED_RAS_ENTRIES - 1) %
				     RVP_PRED_RAS_ENTRIES;
			p->ras_count--;
		} else {
			misp = true;
		}
		break;
	default:
		break;
	}
	/* A call's return address is the next instruction: pc + 2 after
	 * c.jal/c.jalr, pc + 4 otherwise. */
	if (type == RVP_CTRDATA_TYPE_INDIRECT_CALL ||
	    type == RVP_CTRDATA_TYPE_DIRECT_CALL ||
	    type == RVP_CTRDATA_TYPE_COROUTINE_SWAP)
		ras_push(p, source + (length ? length : 4));
	return misp;
}
