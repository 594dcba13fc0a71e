// SPDX-License-Identifier: BSD-2-Clause
/*
 * bench-nexus ITRACE ELF - N-Trace encode and decode speed on a recorded
 * workload (the plugin's instruction trace of ELF), as ratios to a
 * baseline measured in the same run: reading the in-memory instruction
 * stream the encoder is fed from (16 bytes an instruction), i.e. what
 * memory bandwidth alone allows.  Encode: instructions/s from that stream
 * into a memory buffer; decode: instructions/s from the trace into a
 * counting callback (per block).  Bits per instruction for each mode.
 * Best of ROUNDS (env, default 3) for each, in CPU time of this
 * single-threaded process.  Exit status 1 when a decode
 * does not give back every instruction.
 *
 * bench-nexus ITRACE ELF MODE [LIMIT]: only mode MODE (an index into
 * modes[]) and the first LIMIT instructions, for profilers: under
 * callgrind, --toggle-collect=bench_encode or =bench_decode counts the
 * machine instructions of encoding or decoding alone (bench-nexus.sh
 * divides them by the traced instructions: a figure no load disturbs).
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "userspace/nexus/nexus.h"

struct insn {			/* the in-memory stream: 16 bytes */
	uint64_t addr;
	uint8_t len, itype, seq;
	uint8_t pad[5];
};

struct buf {
	uint8_t *p;
	size_t n, cap;
};

static double now(void)
{
	struct timespec ts;

	/* CPU time: neighbours on a shared machine do not count. */
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int buf_sink(void *ctx, const uint8_t *data, size_t len)
{
	struct buf *b = ctx;

	if (b->n + len > b->cap)
		return -1;
	memcpy(b->p + b->n, data, len);
	b->n += len;
	return 0;
}

static int count_block(void *ctx, const struct nx_block *blk)
{
	*(uint64_t *)ctx += blk->n_insns;
	return 0;
}

static const struct {
	const char *name;
	const char *opts[4][2];
} modes[] = {
	{ "BTM", { { "mode", "btm" } } },
	{ "HTM", { { "mode", "htm" } } },
	{ "BTM callstack 8, repeat", { { "mode", "btm" }, { "callstack", "8" },
				       { "repeat", "2" } } },
	{ "HTM callstack 8, repeat", { { "mode", "htm" }, { "callstack", "8" },
				       { "repeat", "2" } } },
};
#define NMODES (sizeof(modes) / sizeof(modes[0]))

/* The measured work, not inlined: callgrind's --toggle-collect names them. */
static __attribute__((noinline)) int
bench_encode(struct nx_encoder *enc, const struct nx_config *cfg,
	     const struct insn *stream, size_t n, struct buf *out)
{
	struct nx_insn in = { 0 };
	size_t i;

	out->n = 0;
	nx_enc_init(enc, cfg, buf_sink, out);
	for (i = 0; i < n; i++) {
		in.addr = stream[i].addr;
		in.len = stream[i].len;
		in.itype = stream[i].itype;
		in.seq_inferable = stream[i].seq;
		nx_enc_insn(enc, &in);
	}
	return nx_enc_finish(enc, NX_EVCODE_TRACE_DISABLED);
}

static __attribute__((noinline)) uint64_t
bench_decode(struct nx_decoder *dec, const struct nx_config *cfg,
	     struct nx_image *img, const struct buf *out)
{
	uint64_t decoded = 0;
	struct nx_decoder_ops ops = { .block = count_block, .ctx = &decoded };

	nx_dec_init(dec, cfg, img, &ops);
	nx_dec_run(dec, out->p, out->n, 0);
	return decoded;
}

int main(int argc, char **argv)
{
	static struct nx_encoder enc;
	static struct nx_decoder dec;
	int rounds = getenv("ROUNDS") ? atoi(getenv("ROUNDS")) : 3;
	struct nx_config cfg;
	struct nx_itrace it;
	struct nx_ingress g;
	struct nx_insn in;
	struct insn *stream;
	struct buf outs[NMODES] = { { 0 } };
	struct nx_config cfgs[NMODES];
	double enc_best[NMODES], dec_best[NMODES];
	uint64_t decoded[NMODES] = { 0 };
	struct stat st;
	size_t n = 0, cap, i;
	double base_best = 1e9, t;
	uint64_t pc, sum = 0;
	uint32_t word;
	unsigned int priv, m;
	uint8_t *data;
	char err[200];
	int fd, r, status = 0, only = -1;
	size_t limit = SIZE_MAX;

	for (m = 0; m < NMODES; m++)
		enc_best[m] = dec_best[m] = 1e9;
	if (argc < 3 || argc > 5) {
		fprintf(stderr, "usage: bench-nexus ITRACE ELF [MODE [LIMIT]]\n");
		return 2;
	}
	if (argc > 3) {
		only = atoi(argv[3]);
		if (only < 0 || only >= (int)NMODES)
			return 2;
	}
	if (argc > 4)
		limit = strtoull(argv[4], NULL, 0);
	fd = open(argv[1], O_RDONLY);
	if (fd < 0 || fstat(fd, &st))
		return 2;
	data = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (data == MAP_FAILED || nx_itrace_open(&it, data, (size_t)st.st_size)) {
		fprintf(stderr, "bench-nexus: %s is not an instruction trace\n", argv[1]);
		return 2;
	}
	/* The stream, classified once (the ingress port's work is the
	 * hart's, not the encoder's). */
	nx_config_default(&cfg);
	cap = 1 << 20;
	stream = malloc(cap * sizeof(*stream));
	nx_ingress_init(&g, &cfg);
	while ((r = nx_itrace_next(&it, &pc, &word, &priv)) > 0 || !r) {
		int have = r > 0 ? nx_ingress_step(&g, pc, word, priv, 0, &in)
				 : nx_ingress_flush(&g, &in);

		if (have) {
			if (n == cap) {
				cap *= 2;
				stream = realloc(stream, cap * sizeof(*stream));
				if (!stream)
					return 2;
			}
			stream[n].addr = in.addr;
			stream[n].len = (uint8_t)in.len;
			stream[n].itype = (uint8_t)in.itype;
			stream[n].seq = in.seq_inferable;
			n++;
		}
		if (!r || n == limit)
			break;
	}
	nx_itrace_free(&it);
	if (r < 0 || !n) {
		fprintf(stderr, "bench-nexus: damaged instruction trace\n");
		return 2;
	}
	/* Every mode's output kept, so that the rounds can go round the
	 * modes: on a shared virtual machine the speed moves over seconds,
	 * and a mode timed only in one stretch of them would take that
	 * stretch's speed for its own. */
	for (m = 0; m < NMODES; m++) {
		outs[m].cap = n + (1 << 20);	/* 8 bits an instruction is plenty */
		outs[m].p = malloc(outs[m].cap);
		if (!outs[m].p)
			return 2;
	}
	printf("N-Trace on %zu recorded instructions (%s), best of %d, the modes in turn\n",
	       n, argv[2], rounds);
	for (r = 0; r < rounds; r++) {
		const uint64_t *w = (const uint64_t *)stream;

		/* Baseline: read the stream. */
		t = now();
		for (i = 0; i < 2 * n; i += 4)
			sum += w[i] ^ w[i + 1] ^ w[i + 2] ^ w[i + 3];
		t = now() - t;
		if (t < base_best)
			base_best = t;
		for (m = 0; m < NMODES; m++) {
			struct nx_image img;
			unsigned int k;

			if (only >= 0 && m != (unsigned int)only)
				continue;
			nx_config_default(&cfgs[m]);
			for (k = 0; k < 4 && modes[m].opts[k][0]; k++)
				nx_config_set(&cfgs[m], modes[m].opts[k][0], modes[m].opts[k][1]);
			t = now();
			if (bench_encode(&enc, &cfgs[m], stream, n, &outs[m])) {
				fprintf(stderr, "bench-nexus: output buffer too small\n");
				return 2;
			}
			t = now() - t;
			if (t < enc_best[m])
				enc_best[m] = t;
			nx_image_init(&img, &cfgs[m]);
			if (nx_image_add_elf(&img, argv[2], NX_ELF_NATIVE_BASE, err, sizeof(err))) {
				fprintf(stderr, "bench-nexus: %s\n", err);
				return 2;
			}
			t = now();
			decoded[m] = bench_decode(&dec, &cfgs[m], &img, &outs[m]);
			t = now() - t;
			if (t < dec_best[m])
				dec_best[m] = t;
			nx_image_free(&img);
		}
	}
	printf("  baseline  read the stream:  %8.1f M instr/s  (%.1f GB/s)%s\n",
	       (double)n / base_best / 1e6, 16.0 * (double)n / base_best / 1e9,
	       sum == 42 ? " " : "");
	for (m = 0; m < NMODES; m++) {
		if (only >= 0 && m != (unsigned int)only)
			continue;
		if (decoded[m] != n)
			status = 1;
		/* The goals: a miss fails the bench (make bench). */
		if ((double)n / enc_best[m] < 100e6 || (double)n / dec_best[m] < 200e6)
			status = 1;
		printf("  %-26s %6.3f bits/instr, %zu bytes\n", modes[m].name,
		       8.0 * (double)outs[m].n / (double)n, outs[m].n);
		printf("    encode  %8.1f M instr/s  ratio to baseline %.3f  (goal >= 100 M/s%s)\n",
		       (double)n / enc_best[m] / 1e6, base_best / enc_best[m],
		       (double)n / enc_best[m] < 100e6 ? ": NOT met" : "");
		printf("    decode  %8.1f M instr/s  ratio to baseline %.3f  (goal >= 200 M/s%s)%s\n",
		       (double)n / dec_best[m] / 1e6, base_best / dec_best[m],
		       (double)n / dec_best[m] < 200e6 ? ": NOT met" : "",
		       decoded[m] == n ? "" : "  WRONG COUNT");
	}
	for (m = 0; m < NMODES; m++)
		free(outs[m].p);
	free(stream);
	return status;
}
