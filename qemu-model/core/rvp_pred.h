/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rvp_pred.h - the optional branch-predictor model behind ctrtarget.MISP
 * and the "mispredicted branches" counter event.  Deliberately simple and
 * fully specified (qemu-model/README.md), so tests can predict it:
 *
 *  - conditional branches: a bimodal table of 2-bit saturating counters,
 *    RVP_PRED_BIMODAL_ENTRIES of them indexed by pc[10:1], starting weakly
 *    not-taken; mispredicted when the counter's direction (>= 2: taken)
 *    differs from the outcome;
 *  - indirect jumps and calls (TYPE 8, 10, 14): a direct-mapped last-target
 *    table indexed by pc[8:1], starting at 0; mispredicted when the stored
 *    target differs;
 *  - returns and co-routine swaps (TYPE 13, 12): a circular return-address
 *    stack of RVP_PRED_RAS_ENTRIES that calls (TYPE 8, 9) and co-routine
 *    swaps push the next instruction's pc onto (pc + the call's length,
 *    4 when the host does not know it); mispredicted when it is empty or
 *    its top differs from the target;
 *  - direct jumps and calls never mispredict (the target is in the opcode).
 */
#ifndef RVPERF_QEMU_MODEL_RVP_PRED_H
#define RVPERF_QEMU_MODEL_RVP_PRED_H

#include "rvperf/types.h"
#include <stdbool.h>

#include "rvp_model.h"

#define RVP_PRED_BIMODAL_ENTRIES 1024
#define RVP_PRED_BTB_ENTRIES 256
#define RVP_PRED_RAS_ENTRIES 16

struct rvp_pred {
	uint8_t bimodal[RVP_PRED_BIMODAL_ENTRIES];
	uint64_t btb[RVP_PRED_BTB_ENTRIES];
	uint64_t ras[RVP_PRED_RAS_ENTRIES];
	unsigned int ras_top, ras_count;
};

void rvp_pred_init(struct rvp_pred *p);
/* Predicts and trains on one retired transfer of ctrdata TYPE TYPE by an
 * instruction of LENGTH bytes (0: unknown, taken as 4); returns whether it
 * was mispredicted. */
bool rvp_pred_update(struct rvp_pred *p, unsigned int type, uint64_t source,
		     uint64_t target, unsigned int length);
/* rvp_pred_update() on X[0..N-1] in order, each result in X[i].misp. */
void rvp_pred_updates(struct rvp_pred *p, struct rvp_xfer *x, unsigned int n);

#endif /* RVPERF_QEMU_MODEL_RVP_PRED_H */
