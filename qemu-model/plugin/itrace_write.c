// SPDX-License-Identifier: BSD-2-Clause
/*
 * itrace_write.c - the plugin's instruction trace (rvp_itrace.h), for N-Trace
 * recording: the ground truth a trace encoder is fed with.  plugin.c
 * describes each translated block here and calls rvp_itrace_exec() at
 * each execution; executions are buffered per vCPU and written in chunks
 * under a lock, each chunk after the VCPU record that names its owner.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>

#include "itrace_write.h"
#include "rvp_itrace.h"

#define MAX_VCPUS	1024
#define CHUNK		16384

struct itrace_vcpu {
	uint32_t n;
	uint32_t priv;
	uint32_t buf[CHUNK + 4];
};

static struct {
	FILE *out;
	pthread_mutex_t lock;
	uint32_t next_id;
	bool named_first;	/* the first vCPU to run a block is named */
	struct itrace_vcpu *vcpus[MAX_VCPUS];
} it = { .lock = PTHREAD_MUTEX_INITIALIZER };

/*
 * A forked child (user mode: the guest forked) must not write the parent's
 * file: its copy of the buffers holds the parent's records, and the block
 * ids would clash.  It drops them and traces nothing; the parent's trace
 * goes on whole.
 */
static void child_stops(void)
{
	unsigned int i;

	if (!it.out)
		return;
	__fpurge(it.out);
	fclose(it.out);
	it.out = NULL;
	for (i = 0; i < MAX_VCPUS; i++)
		if (it.vcpus[i])
			it.vcpus[i]->n = 0;
}

int rvp_itrace_open(const char *path, bool system)
{
	uint32_t mode = system;

	it.out = fopen(path, "wb");
	if (!it.out)
		return -1;
	pthread_atfork(NULL, NULL, child_stops);
	setvbuf(it.out, NULL, _IOFBF, 1 << 20);
	fwrite(RVP_ITRACE_MAGIC, 8, 1, it.out);
	fwrite(&mode, 4, 1, it.out);
	return 0;
}

uint32_t rvp_itrace_block(uint64_t start, uint32_t n, const uint32_t *words)
{
	uint32_t head[5] = { RVP_ITRACE_DEF, 0, n, (uint32_t)start,
			     (uint32_t)(start >> 32) };

	pthread_mutex_lock(&it.lock);
	head[1] = it.next_id++;
	if (it.out) {
		fwrite(head, 4, 5, it.out);
		fwrite(words, 4, n, it.out);
	}
	pthread_mutex_unlock(&it.lock);
	return head[1];
}

static void flush_vcpu(unsigned int index, struct itrace_vcpu *v)
{
	uint32_t head[2] = { RVP_ITRACE_VCPU, index };

	pthread_mutex_lock(&it.lock);
	if (it.out) {
		fwrite(head, 4, 2, it.out);
		fwrite(v->buf, 4, v->n, it.out);
	}
	pthread_mutex_unlock(&it.lock);
	v->n = 0;
}

/* Readers follow the first vCPU the file names (one encoder, one hart):
 * that is the first to run a block, as nexus=FILE follows it
 * (nexus_rec.c), not the first whose buffer fills. */
static __attribute__((noinline)) void name_first(unsigned int vcpu_index)
{
	uint32_t head[2] = { RVP_ITRACE_VCPU, vcpu_index };

	pthread_mutex_lock(&it.lock);
	if (!it.named_first && it.out)
		fwrite(head, 4, 2, it.out);
	it.named_first = true;
	pthread_mutex_unlock(&it.lock);
}

void rvp_itrace_exec(unsigned int vcpu_index, uint32_t id, uint32_t priv)
{
	struct itrace_vcpu *v;

	if (vcpu_index >= MAX_VCPUS || !it.out)
		return;
	if (__builtin_expect(!it.named_first, 0))
		name_first(vcpu_index);
	v = it.vcpus[vcpu_index];
	if (__builtin_expect(!v, 0)) {
		v = calloc(1, sizeof(*v));
		if (!v)
			return;
		v->priv = UINT32_MAX;
		it.vcpus[vcpu_index] = v;
	}
	if (priv != v->priv) {
		v->buf[v->n++] = RVP_ITRACE_PRIV;
		v->buf[v->n++] = priv;
		v->priv = priv;
	}
	v->buf[v->n++] = id;
	if (__builtin_expect(v->n >= CHUNK, 0))
		flush_vcpu(vcpu_index, v);
}

void rvp_itrace_close(void)
{
	unsigned int i;

	if (!it.out)
		return;
	for (i = 0; i < MAX_VCPUS; i++)
		if (it.vcpus[i] && it.vcpus[i]->n)
			flush_vcpu(i, it.vcpus[i]);
	fclose(it.out);
	it.out = NULL;
}
