/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rvp_model.h - what every part of the qemu-model core shares: privilege
 * modes and the outcome of a CSR access or instruction.
 */
#ifndef RVPERF_QEMU_MODEL_RVP_MODEL_H
#define RVPERF_QEMU_MODEL_RVP_MODEL_H

#include "rvperf/types.h"
#include <stdbool.h>

/* The privilege level in bits 1:0 (as mstatus.MPP encodes it), V in bit 2. */
enum rvp_mode {
	RVP_MODE_U = 0,
	RVP_MODE_S = 1,		/* S-mode, HS-mode when H is implemented */
	RVP_MODE_M = 3,
	RVP_MODE_VU = 4,
	RVP_MODE_VS = 5,
};
#define RVP_MODE_SLOTS 6

static inline bool rvp_mode_is_virtual(enum rvp_mode mode)
{
	return (mode & 4) != 0;
}

static inline unsigned int rvp_mode_priv(enum rvp_mode mode)
{
	return mode & 3;
}

static inline bool rvp_mode_valid(unsigned int mode)
{
	return mode == RVP_MODE_U || mode == RVP_MODE_S || mode == RVP_MODE_M ||
	       mode == RVP_MODE_VU || mode == RVP_MODE_VS;
}

enum rvp_access {
	RVP_ACCESS_OK,
	RVP_ACCESS_ILLEGAL,	/* illegal-instruction exception */
	RVP_ACCESS_VIRTUAL,	/* virtual-instruction exception */
	RVP_ACCESS_NOT_MINE,	/* not a register of this part: ask another */
};

/*
 * One retired in-mode control transfer, for the batch entry points
 * (rvp_pred_updates(), rvp_ctr_transfers_untimed()) that hosts buffering
 * transfers use.
 */
struct rvp_xfer {
	uint64_t source, target;
	uint8_t type;		/* ctrdata TYPE */
	uint8_t length;		/* instruction bytes; 0: unknown */
	bool misp;		/* rvp_pred_updates() fills it in */
};

#endif /* RVPERF_QEMU_MODEL_RVP_MODEL_H */
