// SPDX-License-Identifier: BSD-2-Clause
/*
 * report_model.c - the analysis behind `rvperf report` (report_model.h):
 *
 *   hottest branch edges   every (from, to) pair in every stack, counted
 *   hot loops              backward branches inside one function, with the
 *                          number of iterations per entry into the loop
 *   call edges             caller -> callee for call records
 *   samples per function   from each sample's IP
 *
 * Trip counts: a branch stack is newest first, and between two consecutive
 * records the program ran straight from the older record's target to the
 * newer record's source.  Each such pair meets the loop's latch (the
 * backward branch's source) at most once: either the newer record is the
 * back-edge (an iteration) or the straight run passes the latch without
 * taking it (an exit).  Iterations per entry = (taken + exits) / exits,
 * both counted over the same pairs, so what a stack's ends cut off costs
 * both alike.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elf_syms.h"
#include "report_model.h"

#define PERF_BR_COND		1
#define PERF_BR_CALL		4
#define PERF_BR_IND_CALL	5

struct mapping {
	uint64_t start, len, pgoff;
	char *file;		/* symbols from here; NULL: none */
	struct elf_syms *elf;	/* NULL until looked up; see elf_failed */
	int elf_failed;
};

struct report_model_input {
	struct mapping *maps;
	size_t nr_maps;
	struct pd_branch *branches;	/* every stack, concatenated */
	size_t nr_branches, cap_branches;
	size_t *stack_start;		/* index of each stack's first record */
	size_t nr_stacks, cap_stacks;
	uint64_t *ips;			/* each sample's IP */
	size_t cap_ips;
	uint64_t samples;
};

static void *grow(void *p, size_t *cap, size_t need, size_t elem)
{
	size_t n = *cap ? *cap : 64;

	/* A NULL result always means failure: allocate even for need 0. */
	if (p && need <= *cap)
		return p;
	while (n < need)
		n *= 2;
	p = realloc(p, n * elem);
	if (p)
		*cap = n;
	return p;
}

/* ---- addresses to names */

static struct elf_syms *elf_for(struct mapping *m)
{
	if (m->elf || m->elf_failed || !m->file)
		return m->elf;
	m->elf = calloc(1, sizeof(*m->elf));
	if (!m->elf || elf_syms_load(m->elf, m->file)) {
		free(m->elf);
		m->elf = NULL;
		m->elf_failed = 1;
	}
	return m->elf;
}

static struct mapping *mapping_of(struct report_model_input *rp,
				  uint64_t addr)
{
	size_t i = rp->nr_maps;

	while (i--)	/* the latest mapping wins */
		if (addr >= rp->maps[i].start &&
		    addr - rp->maps[i].start < rp->maps[i].len)
			return &rp->maps[i];
	return NULL;
}

/* The function holding a runtime address, and the link-time address. */
static const struct elf_sym *symbol_of(struct report_model_input *rp,
				       uint64_t addr, uint64_t *link_addr)
{
	struct mapping *m = mapping_of(rp, addr);
	struct elf_syms *es = m ? elf_for(m) : NULL;
	uint64_t vaddr;

	if (!es)
		return NULL;
	if (!elf_offset_to_vaddr(es, addr - m->start + m->pgoff, &vaddr))
		return NULL;
	if (link_addr)
		*link_addr = vaddr;
	return elf_syms_find(es, vaddr);
}

void report_model_name_addr(const struct report_model *m, uint64_t addr,
			    char *buf, size_t size)
{
	uint64_t vaddr = 0;
	const struct elf_sym *s = symbol_of(m->in, addr, &vaddr);

	if (s)
		snprintf(buf, size, "%s+0x%" PRIx64, s->name, vaddr - s->addr);
	else
		snprintf(buf, size, "0x%" PRIx64, addr);
}

static const char *function_of(struct report_model_input *rp,
			       uint64_t addr)
{
	const struct elf_sym *s = symbol_of(rp, addr, NULL);

	return s ? s->name : NULL;
}

/* ---- what producers feed */

int report_model_add_sample(struct report_model *model, uint64_t ip,
			    const struct pd_branch *branches, size_t nr)
{
	struct report_model_input *rp = model->in;

	rp->ips = grow(rp->ips, &rp->cap_ips, rp->samples + 1,
		       sizeof(*rp->ips));
	if (!rp->ips)
		return -1;
	rp->ips[rp->samples++] = ip;
	rp->branches = grow(rp->branches, &rp->cap_branches,
			    rp->nr_branches + nr, sizeof(*rp->branches));
	rp->stack_start = grow(rp->stack_start, &rp->cap_stacks,
			       rp->nr_stacks + 2, sizeof(*rp->stack_start));
	if (!rp->branches || !rp->stack_start)
		return -1;
	memcpy(rp->branches + rp->nr_branches, branches,
	       nr * sizeof(*branches));
	rp->stack_start[rp->nr_stacks++] = rp->nr_branches;
	rp->nr_branches += nr;
	rp->stack_start[rp->nr_stacks] = rp->nr_branches;
	return 0;
}

int report_model_add_mapping(struct report_model *model, uint64_t start,
			     uint64_t len, uint64_t pgoff,
			     const char *symbol_file)
{
	struct report_model_input *rp = model->in;
	struct mapping *m;
	size_t cap = rp->nr_maps;

	m = realloc(rp->maps, (cap + 1) * sizeof(*m));
	if (!m)
		return -1;
	rp->maps = m;
	m += rp->nr_maps++;
	memset(m, 0, sizeof(*m));
	m->start = start;
	m->len = len;
	m->pgoff = pgoff;
	if (!symbol_file)
		return 0;
	m->file = strdup(symbol_file);
	return m->file ? 0 : -1;
}

/* ---- the three tables */

static int cmp_edge_addr(const void *a, const void *b)
{
	const struct edge *x = a, *y = b;

	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	if (x->to != y->to)
		return x->to < y->to ? -1 : 1;
	if (x->type != y->type)
		return (int)x->type - (int)y->type;
	return (int)x->new_type - (int)y->new_type;
}

static int cmp_edge_count(const void *a, const void *b)
{
	const struct edge *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return cmp_edge_addr(a, b);
}

/* Distinct (from, to, type) with counts, most frequent first. */
static struct edge *count_edges(struct report_model_input *rp, size_t *nr)
{
	struct edge *e = calloc(rp->nr_branches + 1, sizeof(*e));
	size_t i, n = 0;

	if (!e)
		return NULL;
	for (i = 0; i < rp->nr_branches; i++) {
		e[i].from = rp->branches[i].from;
		e[i].to = rp->branches[i].to;
		e[i].type = PD_BR_TYPE(rp->branches[i].flags);
		e[i].new_type = PD_BR_NEW_TYPE(rp->branches[i].flags);
		e[i].count = 1;
	}
	qsort(e, rp->nr_branches, sizeof(*e), cmp_edge_addr);
	for (i = 0; i < rp->nr_branches; i++) {
		if (n && cmp_edge_addr(&e[n - 1], &e[i]) == 0)
			e[n - 1].count++;
		else
			e[n++] = e[i];
	}
	qsort(e, n, sizeof(*e), cmp_edge_count);
	*nr = n;
	return e;
}

const char *edge_type_name(const struct edge *e)
{
	const char *name = pd_branch_type_name(e->type, e->new_type);

	return *name ? name : "-";
}

/* A loop: a backward conditional branch or direct jump (or one of unknown
 * type) that stays inside one function. */
static int is_back_edge(struct report_model_input *rp, const struct edge *e)
{
	const char *f, *t;

	if (e->to > e->from ||
	    (e->type != PERF_BR_COND && e->type != 0 && e->type != 2))
		return 0;
	f = function_of(rp, e->from);
	t = function_of(rp, e->to);
	return f && t && strcmp(f, t) == 0;
}

static void measure_loop(struct report_model_input *rp, struct loop *l)
{
	size_t s, k;

	for (s = 0; s < rp->nr_stacks; s++) {
		size_t last = rp->stack_start[s + 1];

		for (k = rp->stack_start[s]; k + 1 < last; k++) {
			const struct pd_branch *newer = &rp->branches[k];
			uint64_t start = rp->branches[k + 1].to;

			if (newer->from == l->latch && newer->to == l->head)
				l->taken++;
			else if (start <= l->latch && l->latch < newer->from)
				l->exits++;
		}
	}
}

static int cmp_call(const void *a, const void *b)
{
	const struct call_edge *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	if (strcmp(x->caller, y->caller))
		return strcmp(x->caller, y->caller);
	return strcmp(x->callee, y->callee);
}

static int cmp_func(const void *a, const void *b)
{
	const struct func_samples *x = a, *y = b;

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Adds count to the named entry of a small table (linear: tables hold
 * one row per distinct function or function pair). */
static int add_call(struct report_model *an, const char *caller,
		    const char *callee, uint64_t count)
{
	size_t j;

	for (j = 0; j < an->nr_calls; j++)
		if (!strcmp(an->calls[j].caller, caller) &&
		    !strcmp(an->calls[j].callee, callee))
			break;
	if (j == an->nr_calls) {
		an->calls[j].caller = caller;
		an->calls[j].callee = callee;
		an->nr_calls++;
	}
	an->calls[j].count += count;
	an->call_records += count;
	return 0;
}

int report_model_analyse(struct report_model *an, size_t max_loops)
{
	struct report_model_input *rp = an->in;
	size_t i, j;

	an->samples = rp->samples;
	an->records = rp->nr_branches;
	an->edges = count_edges(rp, &an->nr_edges);
	an->loops = calloc(max_loops + 1, sizeof(*an->loops));
	an->calls = calloc(an->nr_edges + 1, sizeof(*an->calls));
	an->funcs = calloc(rp->samples + 1, sizeof(*an->funcs));
	if (!an->edges || !an->loops || !an->calls || !an->funcs)
		return -1;
	for (i = 0; i < an->nr_edges && an->nr_loops < max_loops; i++) {
		struct loop *l = &an->loops[an->nr_loops];

		if (!is_back_edge(rp, &an->edges[i]))
			continue;
		l->latch = an->edges[i].from;
		l->head = an->edges[i].to;
		l->count = an->edges[i].count;
		measure_loop(rp, l);
		an->nr_loops++;
	}
	for (i = 0; i < an->nr_edges; i++) {
		const struct edge *e = &an->edges[i];
		const char *caller, *callee;

		if (e->type != PERF_BR_CALL && e->type != PERF_BR_IND_CALL)
			continue;
		caller = function_of(rp, e->from);
		callee = function_of(rp, e->to);
		add_call(an, caller ? caller : "?", callee ? callee : "?",
			 e->count);
	}
	qsort(an->calls, an->nr_calls, sizeof(*an->calls), cmp_call);
	for (i = 0; i < rp->samples; i++) {
		const char *f = function_of(rp, rp->ips[i]);

		f = f ? f : "?";
		for (j = 0; j < an->nr_funcs; j++)
			if (!strcmp(an->funcs[j].name, f))
				break;
		if (j == an->nr_funcs)
			an->funcs[an->nr_funcs++].name = f;
		an->funcs[j].samples++;
	}
	qsort(an->funcs, an->nr_funcs, sizeof(*an->funcs), cmp_func);
	return 0;
}

int report_model_init(struct report_model *m, const char *input)
{
	memset(m, 0, sizeof(*m));
	m->input = input;
	m->in = calloc(1, sizeof(*m->in));
	return m->in ? 0 : -1;
}

void report_model_free(struct report_model *m)
{
	struct report_model_input *rp = m->in;
	size_t i;

	free(m->edges);
	free(m->loops);
	free(m->calls);
	free(m->funcs);
	if (rp) {
		for (i = 0; i < rp->nr_maps; i++) {
			if (rp->maps[i].elf)
				elf_syms_free(rp->maps[i].elf);
			free(rp->maps[i].elf);
			free(rp->maps[i].file);
		}
		free(rp->maps);
		free(rp->branches);
		free(rp->stack_start);
		free(rp->ips);
		free(rp);
	}
	memset(m, 0, sizeof(*m));
}
