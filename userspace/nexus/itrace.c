// SPDX-License-Identifier: BSD-2-Clause
/*
 * itrace.c - reads the TCG plugin's instruction trace (rvp_itrace.h): the
 * blocks it describes are kept by id, each execution expands to the
 * block's instructions.  Only the first vCPU's executions are given: one
 * encoder stands for one hart.
 */
#include <stdlib.h>
#include <string.h>

#include "nexus.h"
#include "qemu-model/plugin/rvp_itrace.h"

int nx_itrace_open(struct nx_itrace *it, const uint8_t *data, size_t len)
{
	uint32_t mode;

	memset(it, 0, sizeof(*it));
	if (len < 12 || memcmp(data, RVP_ITRACE_MAGIC, 8) || ((uintptr_t)data & 3))
		return -1;
	memcpy(&mode, data + 8, 4);
	it->system = mode;
	it->w = (const uint32_t *)(data + 12);
	it->nw = (len - 12) / 4;
	it->vcpu = -1;
	it->want_vcpu = -1;
	return 0;
}

void nx_itrace_free(struct nx_itrace *it)
{
	size_t i;

	for (i = 0; i < it->n_blocks; i++)
		free(it->blocks[i]);
	free(it->blocks);
	it->blocks = NULL;
}

static int define(struct nx_itrace *it)
{
	const uint32_t *w = it->w;
	uint32_t id, n;

	if (it->pos + 4 > it->nw)
		return -1;
	id = w[it->pos];
	n = w[it->pos + 1];
	if (!n || n > it->nw - it->pos - 4 || id > (1u << 28))
		return -1;
	if (id >= it->n_blocks) {
		size_t nn = (size_t)id * 2 + 1024;
		struct nx_itrace_block **b = realloc(it->blocks, nn * sizeof(*b));

		if (!b)
			return -1;
		memset(b + it->n_blocks, 0, (nn - it->n_blocks) * sizeof(*b));
		it->blocks = b;
		it->n_blocks = nn;
	}
	/* Each block where it stays: the encoder's ingress holds on to the
	 * last one it was given (nx_ingress.qb). */
	if (!it->blocks[id] && !(it->blocks[id] = calloc(1, sizeof(**it->blocks))))
		return -1;
	it->blocks[id]->start = w[it->pos + 2] | (uint64_t)w[it->pos + 3] << 32;
	it->blocks[id]->n = n;
	it->blocks[id]->words = w + it->pos + 4;
	it->blocks[id]->simple = -1;
	it->blocks[id]->lin_units = UINT32_MAX;	/* not noted yet */
	it->pos += 4 + n;
	return 0;
}

/* Reads records up to the next execution of the wanted vCPU: 1 and
 * it->cur, 0 at the end, -1 on damage. */
static int next_exec(struct nx_itrace *it)
{
	for (;;) {
		uint32_t v;

		it->cur = NULL;
		if (it->pos >= it->nw)
			return 0;
		v = it->w[it->pos++];
		if (v < RVP_ITRACE_FIRST_TAG) {
			if (v >= it->n_blocks || !it->blocks[v])
				return -1;
			if (it->vcpu != it->want_vcpu)
				continue;
			it->cur = it->blocks[v];
			it->cur_i = 0;
			it->cur_pc = it->cur->start;
			return 1;
		} else if (v == RVP_ITRACE_DEF) {
			if (define(it))
				return -1;
		} else if (v == RVP_ITRACE_VCPU || v == RVP_ITRACE_PRIV) {
			if (it->pos >= it->nw)
				return -1;
			if (v == RVP_ITRACE_PRIV) {
				if (it->vcpu == it->want_vcpu)
					it->priv = it->w[it->pos];
			} else {
				it->vcpu = (int)it->w[it->pos];
				if (it->want_vcpu < 0)
					it->want_vcpu = it->vcpu;
				else if (it->vcpu != it->want_vcpu)
					it->other_vcpus = true;
			}
			it->pos++;
		} else {
			return -1;
		}
	}
}

int nx_itrace_next(struct nx_itrace *it, uint64_t *pc, uint32_t *word,
		   unsigned int *priv)
{
	if (!it->cur || it->cur_i == it->cur->n) {
		int r = next_exec(it);

		if (r <= 0)
			return r;
	}
	*word = it->cur->words[it->cur_i++];
	*pc = it->cur_pc;
	*priv = it->priv;
	it->cur_pc += (*word & 3) == 3 ? 4 : 2;
	return 1;
}

struct nx_itrace_block *nx_itrace_next_block(struct nx_itrace *it,
					     unsigned int *priv, bool *bad)
{
	int r;

	/* The common record: an execution of a known block, on the vCPU
	 * followed. */
	if (it->pos < it->nw && it->vcpu == it->want_vcpu) {
		uint32_t v = it->w[it->pos];

		if (v < it->n_blocks && it->blocks[v]) {
			struct nx_itrace_block *b = it->blocks[v];

			it->pos++;
			it->cur = b;
			it->cur_i = b->n;
			it->cur_pc = b->start;
			*bad = false;
			*priv = it->priv;
			return b;
		}
	}
	r = next_exec(it);

	*bad = r < 0;
	if (r <= 0)
		return NULL;
	it->cur_i = it->cur->n;
	*priv = it->priv;
	return it->cur;
}
