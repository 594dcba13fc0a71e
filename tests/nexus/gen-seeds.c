// SPDX-License-Identifier: BSD-2-Clause
/*
 * gen-seeds - writes the decoder fuzzer's seed inputs into DIR: the option
 * byte, then a trace of the fuzzer's own random code (synth.c, the same
 * seed) encoded with those options, for a spread of option bytes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "userspace/nexus/nexus.h"
#include "fuzz-config.h"
#include "synth.h"

static int sink(void *ctx, const uint8_t *data, size_t len)
{
	return fwrite(data, 1, len, ctx) == len ? 0 : -1;
}

int main(int argc, char **argv)
{
	static const uint8_t sels[] = { 0, 1, 3, 7, 9, 15, 17, 33, 65, 129, 255, 6 };
	static struct nx_encoder e;
	unsigned int k;

	if (argc != 2) {
		fprintf(stderr, "usage: gen-seeds DIR\n");
		return 2;
	}
	for (k = 0; k < sizeof(sels); k++) {
		struct synth_opts o = { .base = 0x10000, .n_slots = FUZZ_CODE_SLOTS,
					.seed = FUZZ_CODE_SEED, .interrupts = true,
					.wild_returns = true };
		struct nx_config cfg;
		struct nx_ingress g;
		struct nx_insn in;
		struct synth s;
		char path[4096];
		size_t i;
		FILE *f;

		fuzz_config(sels[k], &cfg);
		if (cfg.ret_mode == NX_RETURN_COUNTER)
			cfg.ret_mode = NX_RETURN_STACK;
		if (synth_build(&s, &o, 300 + 100 * k))
			return 1;
		snprintf(path, sizeof(path), "%s/seed-%02x", argv[1], sels[k]);
		f = fopen(path, "wb");
		if (!f)
			return 1;
		fputc(sels[k], f);
		nx_enc_init(&e, &cfg, sink, f);
		nx_ingress_init(&g, &cfg);
		for (i = 0; i < s.n; i++)
			if (nx_ingress_step(&g, s.pc[i], s.word[i], 0, i, &in))
				nx_enc_insn(&e, &in);
		if (nx_ingress_flush(&g, &in))
			nx_enc_insn(&e, &in);
		if (nx_enc_finish(&e, NX_EVCODE_TRACE_DISABLED) || fclose(f))
			return 1;
		synth_free(&s);
	}
	return 0;
}
