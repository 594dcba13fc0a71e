// SPDX-License-Identifier: BSD-2-Clause
/*
 * fuzz-decode - libFuzzer target: any bytes into the N-Trace reader and
 * decoder, under ASan and UBSan.  The first input byte picks the options
 * (mode, implicit return, sequential jumps, all jumps, TSTAMP, SRC, MSB
 * extension), the rest is the message stream; the program image is random
 * code (synth.c), so decoded paths run through every kind of transfer.
 * Invariants: no crash, every bad stretch inside the input, the decoder
 * ends in a sane state, and stops when the callback says so.
 */
#include <stdlib.h>
#include <string.h>

#include "userspace/nexus/nexus.h"
#include "fuzz-config.h"
#include "synth.h"

static struct nx_image images[2];	/* without, with sequential jumps */
static struct nx_decoder dec;

/* A trace may rightly describe a run of any length (a RepeatBranch of
 * 2^40 loop iterations): twenty thousand are enough here. */
#define MAX_INSNS 20000

static uint64_t insns;

static int count(void *ctx, const struct nx_block *b)
{
	(void)ctx;
	if (b->n_insns == 0)
		abort();
	insns += b->n_insns;
	return insns > MAX_INSNS;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int ready;
	struct nx_decoder_ops ops = { .block = count };
	struct nx_config cfg;
	struct nx_reader r;
	struct nx_msg m;

	if (!ready) {
		struct synth_opts o = { .base = 0x10000, .n_slots = FUZZ_CODE_SLOTS,
					.seed = FUZZ_CODE_SEED };
		struct synth s;
		int i;

		if (synth_build(&s, &o, 16))
			abort();
		for (i = 0; i < 2; i++) {
			fuzz_config(i ? 8 : 0, &cfg);
			nx_image_init(&images[i], &cfg);
			nx_image_add_code(&images[i], s.base, s.code, s.code_len);
		}
		synth_free(&s);
		ready = 1;
	}
	if (!size)
		return 0;
	fuzz_config(data[0], &cfg);
	data++;
	size--;
	nx_reader_init(&r, &cfg, data, size, 0);
	for (;;) {
		enum nx_read_status st = nx_read(&r, &m);

		if (st == NX_READ_END)
			break;
		if (m.offset + m.size > size || !m.size)
			abort();
	}
	insns = 0;
	nx_dec_init(&dec, &cfg, &images[cfg.seq_jump], &ops);
	if (nx_dec_run(&dec, data, size, 0) < 0 && insns <= MAX_INSNS)
		abort();	/* only the callback may stop it */
	if (dec.hist_n > 64 || (cfg.ret_mode && dec.depth > cfg.ret_depth))
		abort();
	return 0;
}
