// SPDX-License-Identifier: BSD-2-Clause
/*
 * gen-trace - a perf.data whose branch stacks follow the control flow of
 * userspace/sample/branchy.c at the real addresses of its functions, so
 * `rvperf report` can be checked against what is known by construction:
 * the hot loop runs 64 iterations per entry, each with an indirect call
 * to one of four operations; main calls hot_loop every round and recurse
 * (depth 8, then leaf) every 16th round.
 *
 * The loops' back-edges are the binary's own (the first backward
 * conditional branch of hot_loop and of main, decoded), so a report that
 * finds loops in the code finds these; with GEN_TRACE_LOOPS set in the
 * environment they are printed: "hot_loop+0xL hot_loop+0xH main+0xL
 * main+0xH".  The rest (call sites, return addresses) is by construction.
 *
 * Usage: gen-trace OUT BRANCHY-ELF [ROUNDS]
 * Records are cut into stacks of 16, newest first, one every 37 records
 * (a period that does not line up with the loop's).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "userspace/elf/elf_syms.h"
#include "userspace/perfdata/perf_data.h"

#define DEPTH		16
#define PERIOD		37
#define TRIPS		64
#define BR_COND		1
#define BR_UNCOND	2
#define BR_CALL		4
#define BR_IND_CALL	5
#define BR_RET		6

static struct pd_branch *trace;
static size_t nr, cap;

static void rec(uint64_t from, uint64_t to, unsigned int type)
{
	if (nr == cap) {
		cap = cap ? cap * 2 : 4096;
		trace = realloc(trace, cap * sizeof(*trace));
		if (!trace)
			exit(1);
	}
	trace[nr].from = from;
	trace[nr].to = to;
	trace[nr].flags = pd_branch_flags(0, 0, 0, type, 0, 0);
	nr++;
}

static uint64_t fn(const struct elf_syms *es, const char *name)
{
	size_t i;

	for (i = 0; i < es->nr_syms; i++)
		if (strcmp(es->syms[i].name, name) == 0)
			return es->syms[i].addr;
	fprintf(stderr, "gen-trace: no symbol %s\n", name);
	exit(1);
}

/* The first backward conditional branch of the function at start
 * (size bytes): from and to, as offsets. */
static void back_edge(const struct elf_syms *es, const char *path,
		      uint64_t start, const char *name, uint64_t *from,
		      uint64_t *to)
{
	FILE *f = fopen(path, "rb");
	uint64_t pc, size = 0x400;
	size_t i;

	for (i = 0; i < es->nr_syms; i++)
		if (es->syms[i].addr == start && es->syms[i].size)
			size = es->syms[i].size;
	for (pc = start; f && pc < start + size;) {
		unsigned char b[4] = { 0 };
		uint32_t w;
		int64_t off = 0;
		int cond = 0;

		for (i = 0; i < es->nr_segments; i++)
			if (pc >= es->segments[i].vaddr &&
			    pc + 4 <= es->segments[i].vaddr + es->segments[i].filesz)
				break;
		if (i == es->nr_segments ||
		    fseek(f, (long)(es->segments[i].offset + pc -
				    es->segments[i].vaddr), SEEK_SET) ||
		    fread(b, 1, 4, f) != 4)
			break;
		w = b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24;
		if ((w & 3) == 3 && (w & 0x7f) == 0x63) {	/* B-type */
			cond = 1;
			off = ((w >> 31) ? (int64_t)-4096 : 0) | (int64_t)(((w >> 7) & 1) << 11) |
			      ((w >> 25) & 0x3f) << 5 | ((w >> 8) & 0xf) << 1;
		} else if ((w & 3) == 1 && ((w >> 13) & 7) >= 6) {	/* c.beqz/c.bnez */
			cond = 1;
			off = ((w >> 12) & 1 ? (int64_t)-256 : 0) | (int64_t)(((w >> 5) & 3) << 6) |
			      ((w >> 2) & 1) << 5 | ((w >> 10) & 3) << 3 |
			      ((w >> 3) & 3) << 1;
		}
		if (cond && off < 0) {
			*from = pc - start;
			*to = pc + off - start;
			fclose(f);
			return;
		}
		pc += (w & 3) == 3 ? 4 : 2;
	}
	fprintf(stderr, "gen-trace: no backward branch in %s\n", name);
	exit(1);
}

int main(int argc, char **argv)
{
	struct elf_syms es;
	struct pd_writer_config cfg = {
		.type = PERF_TYPE_HARDWARE, .config = PERF_COUNT_HW_CPU_CYCLES,
		.sample_period = PERIOD,
		.branch_sample_type = PERF_SAMPLE_BRANCH_ANY |
				      PERF_SAMPLE_BRANCH_USER,
		.exclude_kernel = 1, .arch = "riscv64", .nr_cpus = 1,
	};
	struct pd_writer w;
	uint64_t main_fn, hot, leaf, recurse, ops[4];
	uint64_t hot_latch, hot_head, main_latch, main_head;
	long rounds = argc > 3 ? atol(argv[3]) : 400, r;
	size_t s;
	int i, d, err;

	if (argc < 3 || elf_syms_load(&es, argv[2])) {
		fprintf(stderr, "usage: gen-trace OUT BRANCHY-ELF [ROUNDS]%s%s\n",
			argc >= 3 ? ": " : "", argc >= 3 ? es.error : "");
		return 2;
	}
	main_fn = fn(&es, "main");
	hot = fn(&es, "hot_loop");
	leaf = fn(&es, "leaf");
	recurse = fn(&es, "recurse");
	ops[0] = fn(&es, "op_add");
	ops[1] = fn(&es, "op_xor");
	ops[2] = fn(&es, "op_mul");
	ops[3] = fn(&es, "op_rot");
	back_edge(&es, argv[2], hot, "hot_loop", &hot_latch, &hot_head);
	back_edge(&es, argv[2], main_fn, "main", &main_latch, &main_head);
	if (getenv("GEN_TRACE_LOOPS"))
		printf("hot_loop+0x%llx hot_loop+0x%llx main+0x%llx main+0x%llx\n",
		       (unsigned long long)hot_latch, (unsigned long long)hot_head,
		       (unsigned long long)main_latch, (unsigned long long)main_head);

	for (r = 0; r < rounds; r++) {
		rec(main_fn + 0x30, hot, BR_CALL);
		for (i = 0; i < TRIPS; i++) {
			int op = (int)((r * 7 + i) & 3);

			rec(hot + 0x20, ops[op], BR_IND_CALL);
			rec(ops[op] + 0x8, hot + 0x24, BR_RET);
			/* The latch: taken back to the head but on the last
			 * iteration, which falls through to the return. */
			if (i < TRIPS - 1)
				rec(hot + hot_latch, hot + hot_head, BR_COND);
		}
		rec(hot + 0x50, main_fn + 0x34, BR_RET);
		if ((r & 15) == 0) {
			rec(main_fn + 0x40, recurse, BR_CALL);
			for (d = 0; d < 8; d++)
				rec(recurse + 0x18, recurse, BR_CALL);
			rec(recurse + 0x10, leaf, BR_CALL);
			rec(leaf + 0xc, recurse + 0x14, BR_RET);
			for (d = 0; d < 8; d++)
				rec(recurse + 0x28, recurse + 0x1c, BR_RET);
			rec(recurse + 0x28, main_fn + 0x44, BR_RET);
		}
		rec(main_fn + main_latch, main_fn + main_head, BR_COND);
	}

	if (pd_writer_open(&w, argv[1], &cfg))
		return 1;
	err = pd_write_comm(&w, 7, 7, "branchy", 1);
	err |= pd_write_mmap2(&w, 7, 7, 0x10000, 0x100000, 0, argv[2],
			      es.build_id, es.build_id_size, 2);
	for (s = DEPTH; s <= nr; s += PERIOD) {
		struct pd_branch stack[DEPTH];
		struct pd_sample smp = {
			.ip = trace[s - 1].to, .pid = 7, .tid = 7,
			.time = 10 + s, .period = PERIOD,
			.nr_branches = DEPTH, .branches = stack,
		};

		for (i = 0; i < DEPTH; i++)	/* newest first */
			stack[i] = trace[s - 1 - (size_t)i];
		err |= pd_write_sample(&w, &smp);
	}
	err |= pd_writer_close(&w);
	elf_syms_free(&es);
	free(trace);
	return err ? 1 : 0;
}
