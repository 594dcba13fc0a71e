/* SPDX-License-Identifier: BSD-2-Clause */
/* tests/qemu/events.h - what scn2events.py's generated code stored. */
#ifndef RVPERF_TESTS_QEMU_EVENTS_H
#define RVPERF_TESTS_QEMU_EVENTS_H

#include <stddef.h>

/*
 * One per access or dump, in order: 'r' a read (status, value), 'w' a
 * write or SCTRCLR (status), 'i' a timer wait (the cycles it took), 'd' a
 * dump (256 x source, target, data).
 * status: 0, or the mcause of the trap the access took.  mask: the bits
 * of a read the model implements (mstateen0/hstateen0: see scn2events.py).
 */
struct rvp_out_name {
	char kind;
	const char *name;
	unsigned long long mask;
};

extern const struct rvp_out_name rvp_names[];
extern const int rvp_nnames;
extern unsigned long rvp_out[];

#endif
