/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * lean_stub.h - the per-block callback of the lean path, made at load time
 * for each step a block can subtract (lean_stub.c).
 */
#ifndef RVPERF_PLUGIN_LEAN_STUB_H
#define RVPERF_PLUGIN_LEAN_STUB_H

#include <stdint.h>

typedef void (*lean_stub_cb)(unsigned int vcpu_index, void *udata);

/* The thread-local variables the callbacks use, of this library's static
 * TLS (the same offset from the thread pointer in every thread). */
struct lean_stub_vars {
	uint64_t *fast;		/* the count of an unseen stretch; 0 else */
	uint64_t *rem;		/* the count of seen blocks; 0 unseen */
	void *qpos;		/* a (void *) *: where the next seen block goes */
};

/*
 * Makes the callbacks: each subtracts its step from *fast and returns, or,
 * if that borrowed, subtracts it from *rem and, if that did not borrow,
 * stores QEMU's udata at *qpos, advances *qpos and sets *fast back to 0;
 * if both borrowed, it tail-calls SLOW with QEMU's arguments unchanged.
 * Steps are (n << shift) | t for n in 1..max_insns, t in 0..1.  0 when
 * made; -1 if this host cannot (not x86-64, no executable memory, a
 * variable too far from the thread pointer): lean_stub() then has none.
 */
int lean_stubs_make(const struct lean_stub_vars *vars, lean_stub_cb slow,
		    unsigned int max_insns, unsigned int shift);

/* The callback for STEP, or NULL (none made, or not a step made). */
lean_stub_cb lean_stub(uint64_t step);

/* Its part for a block seen (after fast borrowed): the gate's conditional
 * callback (plugin API level 3+), which runs only for blocks seen and
 * leaves fast 0.  NULL as lean_stub(). */
lean_stub_cb lean_stub_seen(uint64_t step);

#endif
