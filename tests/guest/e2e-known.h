/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The transfers of e2e-known.S, for the guest tests that check branch
 * stacks entry by entry (ctr-brstack through perf_event_open,
 * ctr-perf-tool through the real perf tool).
 */
#ifndef RVPERF_GUEST_E2E_KNOWN_H
#define RVPERF_GUEST_E2E_KNOWN_H

#include <stdint.h>

#define MAX_EDGES	32

extern char kl_head[], kl_call_run[], kl_sled[], kl_sled_end[],
	kl_latch[], kl_ret[], known_run[], kr_loop_head[], kr_loop_latch[],
	kr_nt_branch[], kr_ind_call[], kr_call_depth1[], kr_after_d1[], kr_ret[],
	kr_target_b[], kr_target_b_ret[], kr_depth1[], kr_call_depth2[],
	kr_after_d2[], kr_depth1_ret[], kr_depth2[], kr_call_depth3[],
	kr_after_d3[], kr_depth2_ret[], kr_depth3[], kr_depth3_sled[],
	kr_depth3_ret[], known_end[];
void known_loop(unsigned long iterations);

#define A(sym) ((uint64_t)(uintptr_t)(sym))

struct edge {
	uint64_t from, to;
	int kind;		/* 'c' call, 'r' return, 'b' branch */
};

static struct edge edges[MAX_EDGES];
static unsigned int nr_edges;

static inline void add_edge(char *from, char *to, int kind)
{
	edges[nr_edges++] = (struct edge){ A(from), A(to), kind };
}

/* Every transfer the known code makes, as (from, to). */
static inline void known_edges(void)
{
	add_edge(kl_call_run, known_run, 'c');
	add_edge(kl_latch, kl_head, 'b');
	add_edge(kr_loop_latch, kr_loop_head, 'b');
	add_edge(kr_ind_call, kr_target_b, 'c');
	add_edge(kr_target_b_ret, kr_call_depth1, 'r');
	add_edge(kr_call_depth1, kr_depth1, 'c');
	add_edge(kr_call_depth2, kr_depth2, 'c');
	add_edge(kr_call_depth3, kr_depth3, 'c');
	add_edge(kr_depth3_ret, kr_after_d3, 'r');
	add_edge(kr_depth2_ret, kr_after_d2, 'r');
	add_edge(kr_depth1_ret, kr_after_d1, 'r');
	add_edge(kr_ret, kl_sled, 'r');
}

static inline int in_known(uint64_t a)
{
	return a >= A((char *)known_loop) && a < A(known_end);
}

/*
 * The edge (from, to) of the known code, or NULL.  known_loop's return
 * goes back to whoever called it, outside the known code (a test that runs
 * it in chunks sees it once per chunk).
 */
static inline const struct edge *find_edge(uint64_t from, uint64_t to)
{
	static struct edge exit_edge = { .kind = 'r' };

	for (unsigned int i = 0; i < nr_edges; i++)
		if (edges[i].from == from && edges[i].to == to)
			return &edges[i];
	if (from == A(kl_ret) && to && !in_known(to)) {
		exit_edge.from = from;
		exit_edge.to = to;
		return &exit_edge;
	}
	return NULL;
}

/* The last 14 transfers before the sled, newest first. */
static inline unsigned int sled_history(struct edge *h)
{
	unsigned int n = 0;

	h[n++] = (struct edge){ A(kr_ret), A(kl_sled), 'r' };
	h[n++] = (struct edge){ A(kr_depth1_ret), A(kr_after_d1), 'r' };
	h[n++] = (struct edge){ A(kr_depth2_ret), A(kr_after_d2), 'r' };
	h[n++] = (struct edge){ A(kr_depth3_ret), A(kr_after_d3), 'r' };
	h[n++] = (struct edge){ A(kr_call_depth3), A(kr_depth3), 'c' };
	h[n++] = (struct edge){ A(kr_call_depth2), A(kr_depth2), 'c' };
	h[n++] = (struct edge){ A(kr_call_depth1), A(kr_depth1), 'c' };
	h[n++] = (struct edge){ A(kr_target_b_ret), A(kr_call_depth1), 'r' };
	h[n++] = (struct edge){ A(kr_ind_call), A(kr_target_b), 'c' };
	for (int i = 0; i < 4; i++)
		h[n++] = (struct edge){ A(kr_loop_latch), A(kr_loop_head), 'b' };
	h[n++] = (struct edge){ A(kl_call_run), A(known_run), 'c' };
	return n;
}

#endif /* RVPERF_GUEST_E2E_KNOWN_H */
