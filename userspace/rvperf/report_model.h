/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * report_model.h - what `rvperf report` found in a recording, shared by the
 * text output (report.c) and the HTML page (html.c).
 */
#ifndef RVPERF_REPORT_MODEL_H
#define RVPERF_REPORT_MODEL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct edge {
	uint64_t from, to;
	unsigned int type;	/* PERF_BR_* */
	unsigned int new_type;	/* PERF_BR_NEW_*, for PERF_BR_EXTEND_ABI */
	uint64_t count;
};

struct loop {
	uint64_t latch, head;	/* the back-edge: from, to */
	uint64_t count;		/* the back-edge's records */
	uint64_t taken, exits;	/* over consecutive record pairs */
};

struct call_edge {
	const char *caller, *callee;
	uint64_t count;
};

struct func_samples {
	const char *name;
	uint64_t samples;	/* samples whose IP is in the function */
};

struct analysis {
	const char *input;
	uint64_t samples, records;
	struct edge *edges;	/* most frequent first */
	size_t nr_edges;
	struct loop *loops;	/* most frequent first */
	size_t nr_loops;
	struct call_edge *calls;/* most frequent first */
	size_t nr_calls;
	uint64_t call_records;
	struct func_samples *funcs;	/* most samples first */
	size_t nr_funcs;
	/* Names an address "function+0xoffset" (or "0xaddress"). */
	void (*format_addr)(void *ctx, uint64_t addr, char *buf, size_t size);
	void *ctx;
};

/* Iterations per entry, or a negative number when no exit was seen. */
static inline double loop_trips(const struct loop *l)
{
	return l->exits ? (double)(l->taken + l->exits) / (double)l->exits
			: -1.0;
}

const char *edge_type_name(const struct edge *e);
int report_write_html(const struct analysis *an, FILE *f, size_t top);

#endif /* RVPERF_REPORT_MODEL_H */
