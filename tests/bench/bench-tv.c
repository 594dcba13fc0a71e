// SPDX-License-Identifier: BSD-2-Clause
/*
 * bench-tv - how fast the trace protocol decoder, the trace listing and
 * the shadow-state diff run, against the memory bandwidth of this machine
 * measured in the same run (reading the same trace bytes with a sum, one
 * pass per round).
 *
 * The trace mixes the instruction categories of the specification's
 * Appendix D: integer ops with a register, loads with an address, stores
 * with a memory request, branches with a pc item, CSR writes, floating
 * point with fcsr, an occasional trap: about 20 bytes a group, like the
 * complete traces rvperf tv record writes.  A second trace has the shape
 * of a partial one (QEMU 7.2: pc, instruction, an effective address in
 * every third group, some 12 bytes a group), its kinds of group in random
 * order: the costs per group and per branch mispredicted count most there
 * (a recorded program repeats itself more; QEMU 7.2's trace of a sort
 * decodes some 30% faster).  Goals (issues 21 and 39), one core: decode
 * of the complete trace >= 500 MB/s, dump >= 100 MB/s of trace, both
 * traces (the listing formatted into memory, as rvperf tv dump does
 * before its writes), diff >= 20 M groups/s.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "userspace/tv/tv.h"
#include "userspace/tv/tv_dump.h"

/* Defaults; "bench-tv GROUPS ROUNDS" (a small run under callgrind). */
static uint32_t GROUPS = 4u << 20;
static int ROUNDS = 5;

/*
 * CPU time of this thread: the machine is shared, and the goals are for
 * one core; wall time (printed too) also counts the time others ran.
 */
static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* EVERY: change one register value in every EVERY-th group (0: none). */
static void make_trace(struct tv_buf *b, const struct tv_config *cfg, uint32_t every)
{
	uint64_t pc = 0x80000000, x = 1;

	for (uint32_t i = 0; i < GROUPS; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		tv_enc_op(b, TV_OP_BEGIN_GROUP);
		switch (i % 10) {
		case 0: case 1: case 2: case 3:	/* integer */
			tv_enc_op(b, TV_OP_INCR_PC);
			tv_enc_insn(b, 0x00b50533);
			tv_enc_full_reg(b, cfg, TV_REG_GPR(10 + i % 4),
					every && i % every == 0 ? x ^ 1 : x);
			pc += 4;
			break;
		case 4:				/* load */
			tv_enc_op(b, TV_OP_INCR_PC);
			tv_enc_insn(b, 0x6214);
			tv_enc_full_reg(b, cfg, TV_REG_GPR(13), x);
			tv_enc_addl(b, cfg, TV_AS_EADDR, 0x80001000 + (x & 0xff8));
			pc += 2;
			break;
		case 5:				/* store */
			tv_enc_op(b, TV_OP_INCR_PC);
			tv_enc_insn(b, 0xe208);
			tv_enc_mem_req(b, cfg, 0x80001000 + (x & 0xff8), TV_MEM_STORE, 3, x);
			pc += 2;
			break;
		case 6:				/* branch */
			tv_enc_insn(b, 0xf9ed);
			pc -= 14;
			tv_enc_addl(b, cfg, TV_AS_PC, pc);
			break;
		case 7:				/* csr write */
			tv_enc_op(b, TV_OP_INCR_PC);
			tv_enc_insn(b, 0x34029073);
			tv_enc_full_reg(b, cfg, 0x340, x);
			pc += 4;
			break;
		case 8:				/* floating point */
			tv_enc_op(b, TV_OP_INCR_PC);
			tv_enc_insn(b, 0x0116f3d3);
			tv_enc_full_reg(b, cfg, TV_REG_FPR(7), x);
			tv_enc_incr_reg_or(b, 0x003, 1);
			pc += 4;
			break;
		case 9:				/* nop, and now and then a trap */
			if (i % 1000 == 9) {
				tv_enc_addl(b, cfg, TV_AS_PC, 0x80000100);
				tv_enc_insn(b, 0x00000073);
				tv_enc_full_reg(b, cfg, 0x341, pc);
				tv_enc_full_reg(b, cfg, 0x342, 8);
				tv_enc_addl(b, cfg, TV_AS_PRIV, 3);
				pc = 0x80000100;
			} else {
				tv_enc_op(b, TV_OP_INCR_PC);
				tv_enc_insn(b, 0x0001);
				pc += 2;
			}
			break;
		}
		tv_enc_op(b, TV_OP_END_GROUP);
	}
}

/* Pc, instruction and now and then an address: QEMU 7.2's partial trace. */
static void make_partial_trace(struct tv_buf *b, const struct tv_config *cfg)
{
	static const uint32_t insns[8] = {
		0x00b50533, 0x6214, 0x0505, 0xe208, 0x00c5f593, 0x4501, 0x00a12023, 0xfe0718e3,
	};
	uint64_t x = 1;

	for (uint32_t i = 0; i < GROUPS; i++) {
		/* In no order a branch predictor could learn, as in a program. */
		unsigned int k;

		x = x * 6364136223846793005ull + 1442695040888963407ull;
		k = (unsigned int)(x >> 61);
		tv_enc_op(b, TV_OP_BEGIN_GROUP);
		if (k == 7) {	/* a taken branch */
			tv_enc_insn(b, insns[k]);
			tv_enc_addl(b, cfg, TV_AS_PC, 0x10000 + (x & 0xfffe));
		} else {
			tv_enc_op(b, TV_OP_INCR_PC);
			tv_enc_insn(b, insns[k]);
			if (k == 1 || k == 3 || k == 6)
				tv_enc_addl(b, cfg, TV_AS_EADDR, 0x7fff0000 + (x & 0xfff8));
		}
		tv_enc_op(b, TV_OP_END_GROUP);
	}
}

/* The first field of /proc/loadavg: how busy the machine was. */
static const char *loadavg(void)
{
	static char buf[32] = "?";
	FILE *f = fopen("/proc/loadavg", "r");

	if (f) {
		if (fscanf(f, "%31s", buf) != 1)
			strcpy(buf, "?");
		fclose(f);
	}
	return buf;
}

/*
 * The measured phases, each a function of its own: "bench-tv GROUPS 1
 * PHASE" runs one, which is how tests/bench/bench-tv.sh counts its
 * instructions under callgrind (--toggle-collect=bench_PHASE).
 */
static uint64_t dec_groups, dec_items, dump_bytes;

__attribute__((noinline)) static int bench_decode(const struct tv_buf *b,
						  const struct tv_config *cfg)
{
	struct tv_decoder d;
	struct tv_group g;

	dec_groups = dec_items = 0;
	tv_dec_init(&d, cfg, TV_STRICT);
	tv_dec_set_buffer(&d, b->data, b->len);
	while (tv_dec_next(&d, &g) == TV_GROUP) {
		dec_groups++;
		dec_items += g.n_items;
	}
	tv_dec_free(&d);
	return dec_groups != GROUPS;
}

__attribute__((noinline)) static int bench_decode_partial(const struct tv_buf *b,
							  const struct tv_config *cfg)
{
	return bench_decode(b, cfg);
}

/* Decode and listing, the text formatted and dropped (no write). */
__attribute__((noinline)) static int bench_dump(const struct tv_buf *b,
						const struct tv_config *cfg)
{
	struct tv_decoder d;
	struct tv_dump dp;
	struct tv_group g;
	uint64_t n = 0;

	if (tv_dump_init(&dp, cfg, NULL))
		return 1;
	tv_dec_init(&d, cfg, TV_STRICT);
	tv_dec_set_buffer(&d, b->data, b->len);
	while (tv_dec_next(&d, &g) == TV_GROUP) {
		tv_dump_group(&dp, &g);
		n++;
	}
	tv_dump_flush(&dp);
	dump_bytes = dp.written;
	tv_dump_free(&dp);
	tv_dec_free(&d);
	return n != GROUPS;
}

__attribute__((noinline)) static int bench_dump_partial(const struct tv_buf *b,
							const struct tv_config *cfg)
{
	return bench_dump(b, cfg);
}

__attribute__((noinline)) static int bench_diff(const struct tv_buf *a,
						const struct tv_buf *b,
						const struct tv_config *cfg, int want,
						uint64_t *divergences)
{
	struct tv_diff_opts o = { .cfg_a = *cfg, .cfg_b = *cfg, .mode = TV_STRICT };
	struct tv_diff_result res;
	int rc = tv_diff(a->data, a->len, b->data, b->len, &o, &res);

	*divergences = res.divergences;
	return rc != want || res.groups != GROUPS;
}

/* Equal traces; a divergence every 1000 groups (shadow states kept up). */
__attribute__((noinline)) static int bench_diff_equal(const struct tv_buf *b,
						      const struct tv_config *cfg)
{
	uint64_t n;

	return bench_diff(b, b, cfg, 0, &n);
}

__attribute__((noinline)) static int bench_diff_div(const struct tv_buf *b,
						    const struct tv_buf *m,
						    const struct tv_config *cfg,
						    uint64_t *n)
{
	return bench_diff(b, m, cfg, 1, n);
}

int main(int argc, char **argv)
{
	struct tv_config cfg;
	struct tv_buf b = { 0 }, m = { 0 }, pt = { 0 };
	double base_best = 1e9, dec_best = 1e9, diff_best = 1e9, mdiff_best = 1e9, t, tw;
	double pdec_best = 1e9, dump_best = 1e9, pdump_best = 1e9, dec_wall = 1e9, diff_wall = 1e9;
	double dec_mbs, pdec_mbs, dump_mbs, pdump_mbs, diff_mgs;
	uint64_t pdec_groups = 0, full_groups = 0, full_items = 0, full_text = 0;
	uint64_t mdiv = 0, sum = 0;
	const char *phase = argc > 3 ? argv[3] : NULL;
	int rc = 0;

	if (argc > 1)
		GROUPS = (uint32_t)strtoul(argv[1], NULL, 0);
	if (argc > 2)
		ROUNDS = atoi(argv[2]);
	if (!GROUPS || ROUNDS < 1)
		return 2;
	tv_config_default(&cfg);
	make_trace(&b, &cfg, 0);
	make_trace(&m, &cfg, 1000);
	make_partial_trace(&pt, &cfg);
	if (b.oom || m.oom || pt.oom)
		return 1;
	if (phase) {
		/* One phase, once: for callgrind. */
		if (strcmp(phase, "decode") == 0)
			rc = bench_decode(&b, &cfg);
		else if (strcmp(phase, "decode_partial") == 0)
			rc = bench_decode_partial(&pt, &cfg);
		else if (strcmp(phase, "dump") == 0)
			rc = bench_dump(&b, &cfg);
		else if (strcmp(phase, "dump_partial") == 0)
			rc = bench_dump_partial(&pt, &cfg);
		else if (strcmp(phase, "diff_equal") == 0)
			rc = bench_diff_equal(&b, &cfg);
		else if (strcmp(phase, "diff_div") == 0)
			rc = bench_diff_div(&b, &m, &cfg, &mdiv);
		else
			rc = 2;
		printf("%s: %u groups, %zu bytes, rc %d\n", phase, GROUPS,
		       strstr(phase, "partial") ? pt.len : b.len, rc);
		tv_buf_free(&b);
		tv_buf_free(&m);
		tv_buf_free(&pt);
		return rc;
	}
	for (int round = 0; round < ROUNDS; round++) {
		const uint64_t *w = (const uint64_t *)b.data;

		/* Baseline: every byte of the trace through the CPU once. */
		t = now();
		for (size_t i = 0; i < b.len / 8; i++)
			sum += w[i];
		t = now() - t;
		base_best = t < base_best ? t : base_best;

		tw = wall();
		t = now();
		rc |= bench_decode(&b, &cfg);
		t = now() - t;
		tw = wall() - tw;
		dec_best = t < dec_best ? t : dec_best;
		dec_wall = tw < dec_wall ? tw : dec_wall;
		full_groups = dec_groups;
		full_items = dec_items;

		t = now();
		rc |= bench_decode_partial(&pt, &cfg);
		t = now() - t;
		pdec_best = t < pdec_best ? t : pdec_best;
		pdec_groups = dec_groups;

		t = now();
		rc |= bench_dump(&b, &cfg);
		t = now() - t;
		dump_best = t < dump_best ? t : dump_best;
		full_text = dump_bytes;

		t = now();
		rc |= bench_dump_partial(&pt, &cfg);
		t = now() - t;
		pdump_best = t < pdump_best ? t : pdump_best;

		tw = wall();
		t = now();
		rc |= bench_diff_equal(&b, &cfg);
		t = now() - t;
		tw = wall() - tw;
		diff_best = t < diff_best ? t : diff_best;
		diff_wall = tw < diff_wall ? tw : diff_wall;

		t = now();
		rc |= bench_diff_div(&b, &m, &cfg, &mdiv);
		t = now() - t;
		mdiff_best = t < mdiff_best ? t : mdiff_best;
	}
	dec_mbs = (double)b.len / 1e6 / dec_best;
	pdec_mbs = (double)pt.len / 1e6 / pdec_best;
	dump_mbs = (double)b.len / 1e6 / dump_best;
	pdump_mbs = (double)pt.len / 1e6 / pdump_best;
	diff_mgs = (double)GROUPS / 1e6 / diff_best;
	printf("tandem-verification trace: %u groups, %.1f MB (%.1f bytes a group), best of %d,\n"
	       "CPU time of this thread (one core)\n",
	       GROUPS, (double)b.len / 1e6, (double)b.len / GROUPS, ROUNDS);
	printf("  baseline  memory read:   %8.1f MB/s   (checksum %llx)\n",
	       (double)b.len / 1e6 / base_best, (unsigned long long)(sum & 0xfff));
	printf("  decode    tv_dec_next:   %8.1f MB/s, %.1f M groups/s, %.1f M items/s\n",
	       dec_mbs, (double)full_groups / 1e6 / dec_best,
	       (double)full_items / 1e6 / dec_best);
	printf("  decode    partial trace: %8.1f MB/s, %.1f M groups/s (%.1f bytes a group)\n",
	       pdec_mbs, (double)pdec_groups / 1e6 / pdec_best, (double)pt.len / GROUPS);
	printf("  dump      tv_dump_group: %8.1f MB/s of trace, %.1f M groups/s, %.0f MB/s of text\n",
	       dump_mbs, (double)GROUPS / 1e6 / dump_best,
	       (double)full_text / 1e6 / dump_best);
	printf("  dump      partial trace: %8.1f MB/s of trace, %.1f M groups/s, %.0f MB/s of text\n",
	       pdump_mbs, (double)GROUPS / 1e6 / pdump_best,
	       (double)dump_bytes / 1e6 / pdump_best);
	printf("  diff      tv_diff:       %8.1f M groups/s (equal traces)\n", diff_mgs);
	printf("  diff      tv_diff:       %8.1f M groups/s (%llu divergences, one every 1000 groups)\n",
	       (double)GROUPS / 1e6 / mdiff_best, (unsigned long long)mdiv);
	printf("  ratio     decode / memory read: %.3f, dump / memory read: %.4f\n",
	       base_best / dec_best, base_best / dump_best);
	printf("  wall      decode %.1f MB/s, diff %.1f M groups/s (equal traces; load average %s)\n",
	       (double)b.len / 1e6 / dec_wall, (double)GROUPS / 1e6 / diff_wall, loadavg());
	printf("  goals     decode >= 500 MB/s: %s; dump >= 100 MB/s: %s (partial trace: %s);\n"
	       "            diff >= 20 M groups/s: %s\n",
	       dec_mbs >= 500 ? "met" : "NOT met", dump_mbs >= 100 ? "met" : "NOT met",
	       pdump_mbs >= 100 ? "met" : "NOT met", diff_mgs >= 20 ? "met" : "NOT met");
	tv_buf_free(&b);
	tv_buf_free(&m);
	tv_buf_free(&pt);
	return rc;
}
