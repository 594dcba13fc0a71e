/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * predhw.h - the optional branch-predictor model behind ctrtarget.MISP
 * and the "mispredicted branches" counter event.  Deliberately simple and
 * fully specified (qemu-model/README.md), so tests can predict it:
 *
 *  - conditional branches: a bimodal table of 2-bit saturating counters,
 *    PREDHW_BIMODAL_ENTRIES of them indexed by pc[10:1], starting weakly
 *    not-taken; mispredicted when the counter's direction (>= 2: taken)
 *    differs from the outcome;
 *  - indirect jumps and calls (TYPE 8, 10, 14): a direct-mapped last-target
 *    table indexed by pc[8:1], starting at 0; mispredicted when the stored
 *    target differs;
 *  - returns and co-routine swaps (TYPE 13, 12): a circular return-address
 *    stack of PREDHW_RAS_ENTRIES that calls (TYPE 8, 9) and co-routine
 *    swaps push the next instruction's pc onto (pc + the call's length,
 *    4 when the host does not know it); mispredicted when it is empty or
 *    its top differs from the target;
 *  - direct jumps and calls never mispredict (the target is in the opcode).
 */
#ifndef RVPERF_QEMU_MODEL_PREDHW_H
#define RVPERF_QEMU_MODEL_PREDHW_H

#include "rvperf/types.h"
#include <stdbool.h>

#include "hwmodel.h"

#define PREDHW_BIMODAL_ENTRIES 1024
#define PREDHW_BTB_ENTRIES 256
#define PREDHW_RAS_ENTRIES 16

struct predhw {
	uint8_t bimodal[PREDHW_BIMODAL_ENTRIES];
	uint64_t btb[PREDHW_BTB_ENTRIES];
	uint64_t ras[PREDHW_RAS_ENTRIES];
	unsigned int ras_top, ras_count;
};

void predhw_init(struct predhw *p);
/* Predicts and trains on one retired transfer of ctrdata TYPE TYPE by an
 * instruction of LENGTH bytes (0: unknown, taken as 4); returns whether it
 * was mispredicted. */
bool predhw_update(struct predhw *p, unsigned int type, uint64_t source,
		   uint64_t target, unsigned int length);
/* predhw_update() on X[0..N-1] in order, each result in X[i].misp. */
void predhw_updates(struct predhw *p, struct hw_xfer *x, unsigned int n);

#endif /* RVPERF_QEMU_MODEL_PREDHW_H */
