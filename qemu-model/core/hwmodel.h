/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * hwmodel.h - what every part of the qemu-model core shares: privilege
 * modes and the outcome of a CSR access or instruction.
 */
#ifndef RVPERF_QEMU_MODEL_HWMODEL_H
#define RVPERF_QEMU_MODEL_HWMODEL_H

#include "rvperf/types.h"
#include <stdbool.h>

/* The privilege level in bits 1:0 (as mstatus.MPP encodes it), V in bit 2. */
enum hw_mode {
	HW_MODE_U = 0,
	HW_MODE_S = 1,		/* S-mode, HS-mode when H is implemented */
	HW_MODE_M = 3,
	HW_MODE_VU = 4,
	HW_MODE_VS = 5,
};
#define HW_MODE_SLOTS 6

static inline bool hw_mode_is_virtual(enum hw_mode mode)
{
	return (mode & 4) != 0;
}

static inline unsigned int hw_mode_priv(enum hw_mode mode)
{
	return mode & 3;
}

static inline bool hw_mode_valid(unsigned int mode)
{
	return mode == HW_MODE_U || mode == HW_MODE_S || mode == HW_MODE_M ||
	       mode == HW_MODE_VU || mode == HW_MODE_VS;
}

enum hw_access {
	HW_ACCESS_OK,
	HW_ACCESS_ILLEGAL,	/* illegal-instruction exception */
	HW_ACCESS_VIRTUAL,	/* virtual-instruction exception */
	HW_ACCESS_NOT_MINE,	/* not a register of this part: ask another */
};

/*
 * One retired in-mode control transfer, for the batch entry points
 * (predhw_updates(), ctrhw_transfers_untimed()) that hosts buffering
 * transfers use.
 */
struct hw_xfer {
	uint64_t source, target;
	uint8_t type;		/* ctrdata TYPE */
	uint8_t length;		/* instruction bytes; 0: unknown */
	bool misp;		/* predhw_updates() fills it in */
};

/*
 * One retired in-mode control transfer and when it retired, for
 * ctrhw_transfers_timed(): STAMP counts cycles from any fixed point.
 */
struct hw_xfer_timed {
	uint64_t source, target, stamp;
	uint64_t type;		/* ctrdata TYPE */
};

#endif /* RVPERF_QEMU_MODEL_HWMODEL_H */
