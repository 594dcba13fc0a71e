/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fuzz-config.h - what the first byte of a decoder fuzzer input selects
 * (fuzz-decode.c reads it, gen-seeds.c writes seeds with it).
 */
#ifndef RVPERF_TESTS_NEXUS_FUZZ_CONFIG_H
#define RVPERF_TESTS_NEXUS_FUZZ_CONFIG_H

#include "userspace/nexus/nexus.h"

/* The random code both use (synth.c). */
#define FUZZ_CODE_SEED	4242
#define FUZZ_CODE_SLOTS	2000

static inline void fuzz_config(uint8_t sel, struct nx_config *cfg)
{
	nx_config_default(cfg);
	cfg->mode = sel & 1 ? NX_MODE_HTM : NX_MODE_BTM;
	cfg->ret_mode = (sel >> 1) & 3;
	cfg->ret_depth = 4;
	cfg->seq_jump = (sel >> 3) & 1;
	cfg->all_jumps = (sel >> 4) & 1;
	cfg->tstamp = (sel >> 5) & 1;
	cfg->src_bits = (sel >> 6) & 1 ? 3 : 0;
	cfg->ext_addr_msb = (sel >> 7) & 1;
}

#endif
