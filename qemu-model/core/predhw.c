// SPDX-License-Identifier: BSD-2-Clause
/* predhw.c - the branch-predictor model of predhw.h. */
#include "predhw.h"

#include "rvperf/ctr.h"

void predhw_init(struct predhw *p)
{
	for (unsigned int i = 0; i < PREDHW_BIMODAL_ENTRIES; i++)
		p->bimodal[i] = 1;	/* weakly not taken */
	for (unsigned int i = 0; i < PREDHW_BTB_ENTRIES; i++)
		p->btb[i] = 0;
	for (unsigned int i = 0; i < PREDHW_RAS_ENTRIES; i++)
		p->ras[i] = 0;
	p->ras_top = p->ras_count = 0;
}

static void ras_push(struct predhw *p, uint64_t addr)
{
	p->ras_top = (p->ras_top + 1) % PREDHW_RAS_ENTRIES;
	p->ras[p->ras_top] = addr;
	if (p->ras_count < PREDHW_RAS_ENTRIES)
		p->ras_count++;
}

static inline bool update(struct predhw *p, unsigned int type,
			  uint64_t source, uint64_t target,
			  unsigned int length)
{
	unsigned int bi = (unsigned int)(source >> 1) &
			  (PREDHW_BIMODAL_ENTRIES - 1);
	unsigned int ti = (unsigned int)(source >> 1) &
			  (PREDHW_BTB_ENTRIES - 1);
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
			p->ras_top = (p->ras_top + PREDHW_RAS_ENTRIES - 1) %
				     PREDHW_RAS_ENTRIES;
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

bool predhw_update(struct predhw *p, unsigned int type, uint64_t source,
		   uint64_t target, unsigned int length)
{
	return update(p, type, source, target, length);
}

/* What each ctrdata TYPE does to the predictor (predhw.h). */
#define PRED_BIMODAL	1u	/* conditional branch: bimodal counter */
#define PRED_BTB	2u	/* indirect: last-target table */
#define PRED_POP	4u	/* return, swap: return-address stack pop */
#define PRED_PUSH	8u	/* call, swap: push the next pc */
static const uint8_t pred_class[256] = {	/* by uint8_t TYPE */
	[RVP_CTRDATA_TYPE_NOT_TAKEN_BRANCH] = PRED_BIMODAL,
	[RVP_CTRDATA_TYPE_TAKEN_BRANCH] = PRED_BIMODAL,
	[RVP_CTRDATA_TYPE_INDIRECT_CALL] = PRED_BTB | PRED_PUSH,
	[RVP_CTRDATA_TYPE_DIRECT_CALL] = PRED_PUSH,
	[RVP_CTRDATA_TYPE_INDIRECT_JUMP] = PRED_BTB,
	[RVP_CTRDATA_TYPE_COROUTINE_SWAP] = PRED_POP | PRED_PUSH,
	[RVP_CTRDATA_TYPE_FUNCTION_RETURN] = PRED_POP,
	[RVP_CTRDATA_TYPE_OTHER_INDIRECT_JUMP] = PRED_BTB,
};

/* predhw_update()'s rules, table-driven and with the stack pointers in
 * locals (the misp stores into X could alias the tables and would make
 * the compiler reload them every time). */
void predhw_updates(struct predhw *p, struct hw_xfer *x, unsigned int n)
{
	unsigned int top = p->ras_top, count = p->ras_count;

	for (struct hw_xfer *e = x; e < x + n; e++) {
		unsigned int f = pred_class[e->type];
		bool misp = false;

		if (f & PRED_BIMODAL) {
			uint8_t *c = &p->bimodal[(e->source >> 1) &
						 (PREDHW_BIMODAL_ENTRIES - 1)];
			unsigned int v = *c;
			bool taken = e->type == RVP_CTRDATA_TYPE_TAKEN_BRANCH;

			misp = (v >= 2) != taken;
			*c = (uint8_t)(taken ? v + (v < 3) : v - (v > 0));
		}
		if (f & PRED_BTB) {
			uint64_t *t = &p->btb[(e->source >> 1) &
					      (PREDHW_BTB_ENTRIES - 1)];

			misp = *t != e->target;
			*t = e->target;
		}
		if (f & PRED_POP) {
			misp = !count || p->ras[top] != e->target;
			top = (top + PREDHW_RAS_ENTRIES - (count != 0)) %
			      PREDHW_RAS_ENTRIES;
			count -= count != 0;
		}
		if (f & PRED_PUSH) {
			top = (top + 1) % PREDHW_RAS_ENTRIES;
			p->ras[top] = e->source + (e->length ? e->length : 4);
			count += count < PREDHW_RAS_ENTRIES;
		}
		e->misp = misp;
	}
	p->ras_top = top;
	p->ras_count = count;
}
