/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * synth.h - random RISC-V code and a run through it, for the N-Trace
 * round trips and benchmark: every control transfer the encoder treats
 * differently (branches biased into loops, jal/c.j calls and jumps,
 * jalr calls, returns, coroutine swaps, lui/auipc + jalr pairs, ecall,
 * mret, interrupts) in 16- and 32-bit forms.
 */
#ifndef RVPERF_TESTS_NEXUS_SYNTH_H
#define RVPERF_TESTS_NEXUS_SYNTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct synth_opts {
	uint64_t base;		/* where the code lives */
	unsigned int n_slots;	/* instructions in the image */
	uint64_t seed;
	bool wild_returns;	/* returns sometimes go elsewhere */
	bool interrupts;	/* random traps between instructions */
	unsigned int max_depth;	/* calls nest at most this deep (0: 64) */
};

struct synth {
	uint8_t *code;
	size_t code_len;
	uint64_t base;
	/* The run: address and encoding of each executed instruction. */
	uint64_t *pc;
	uint32_t *word;
	size_t n;
};

int synth_build(struct synth *s, const struct synth_opts *o, size_t n_insns);
void synth_free(struct synth *s);

#endif
