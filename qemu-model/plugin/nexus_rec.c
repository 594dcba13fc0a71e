// SPDX-License-Identifier: BSD-2-Clause
/*
 * nexus_rec.c - N-Trace recorded inside the plugin (nexus=FILE), the way
 * rvperf nexus record runs by default.
 *
 * Encoding the plugin's instruction trace (itrace=FILE) afterwards costs
 * a word per executed block written, read back and expanded, several
 * times what QEMU itself spends.  Here each executed block goes straight
 * to the same per-block way into the encoder that the itrace reader uses
 * (nx_ingress_block() of userspace/nexus: a block is classified once, and
 * an execution whose instructions before the last are linear costs a few
 * compares and adds), so the bytes are the ones `rvperf nexus encode
 * --itrace` writes from the same run: the same blocks in the same order,
 * the same instruction count as timestamp, the same closing message.
 * In user mode without timestamps the callback is the encoder's way
 * itself (nx_ingress_block_u(), or _pdep() on a CPU with a fast PDEP,
 * chosen when the trace opens), at fixed addresses: a static encoder and
 * ingress, each block's description on a cache line.
 *
 * One encoder stands for one hart: the first vCPU that runs a block is
 * followed, the others' blocks are ignored (and noted at the end).  A
 * forked child (user mode) must not write its parent's file: it stops.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include "userspace/nexus/nexus.h"
#include "nexus_rec.h"

/* What every block reads first (the vCPU, the encoder, the count, then
 * the ingress's own first fields), so that it starts on a cache line. */
static struct {
	/* The followed vCPU: -1 none yet, -2 none ever (a forked child). */
	int vcpu;
	bool other_vcpus;
	struct nx_encoder *e;
	uint64_t n;			/* instructions so far: the timestamps */
	struct nx_ingress g;
	const char *path;
	struct nx_config cfg;
	int fd;
} rec __attribute__((aligned(64))) = { .fd = -1, .vcpu = -1 };
/* The encoder (rec.e once open), static: at a fixed address, which the
 * per-block way then needs no register for; on a cache line, its
 * per-block fields first. */
static struct nx_encoder enc __attribute__((aligned(64)));

int rvp_nexus_arg(const char *key, const char *val)
{
	if (!strcmp(key, "nexus")) {
		if (!rec.path)
			nx_config_default(&rec.cfg);
		rec.path = val;
		return 0;
	}
	if (strncmp(key, "nx-", 3))
		return 1;
	if (!rec.path)
		nx_config_default(&rec.cfg);
	if (nx_config_set(&rec.cfg, key + 3, val)) {
		fprintf(stderr, "rvperf plugin: bad N-Trace option '%s=%s'\n",
			key, val);
		return -1;
	}
	return 0;
}

bool rvp_nexus_wanted(void)
{
	return rec.path;
}

static int fd_sink(void *ctx, const uint8_t *data, size_t len)
{
	(void)ctx;
	while (len && rec.fd >= 0) {
		ssize_t w = write(rec.fd, data, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		data += w;
		len -= (size_t)w;
	}
	return 0;
}

/* In a forked child: the parent writes the file, the child nothing. */
static void child_stops(void)
{
	if (rec.fd >= 0)
		close(rec.fd);
	rec.fd = -1;
	rec.vcpu = -2;
}

int rvp_nexus_open(void)
{
	char hdr[1024], err[128];
	size_t hl;

	if (!rec.path)
		return 0;
	if (nx_config_check(&rec.cfg, err, sizeof(err))) {
		fprintf(stderr, "rvperf plugin: N-Trace options: %s\n", err);
		return -1;
	}
	rec.e = &enc;
	rec.fd = open(rec.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (rec.fd < 0) {
		fprintf(stderr, "rvperf plugin: cannot create '%s'\n", rec.path);
		return -1;
	}
	hl = nx_header_format(&rec.cfg, hdr, sizeof(hdr));
	if (fd_sink(NULL, (const uint8_t *)hdr, hl)) {
		fprintf(stderr, "rvperf plugin: cannot write '%s'\n", rec.path);
		return -1;
	}
	nx_enc_init(rec.e, &rec.cfg, fd_sink, NULL);
	nx_ingress_init(&rec.g, &rec.cfg);
	pthread_atfork(NULL, NULL, child_stops);
	return 0;
}

void *rvp_nexus_block(uint64_t start, uint32_t n, const uint32_t *words)
{
	/* Never freed: QEMU 7.2 says nothing when a block goes.  On a cache
	 * line of its own: what an execution reads is in its first 64
	 * bytes. */
	size_t size = (sizeof(struct nx_itrace_block) + n * sizeof(*words) + 63) & ~(size_t)63;
	struct nx_itrace_block *b = aligned_alloc(64, size);
	uint32_t *w;

	if (!b)
		return NULL;
	memset(b, 0, size);
	w = (uint32_t *)(b + 1);
	memcpy(w, words, n * sizeof(*words));
	b->start = start;
	b->n = n;
	b->words = w;
	b->simple = -1;		/* nx_ingress_block() looks at it once */
	b->lin_units = UINT32_MAX;
	return b;
}

uint64_t rvp_nexus_block_start(const void *udata)
{
	return ((const struct nx_itrace_block *)udata)->start;
}

/* Another vCPU than the followed one (or the first of all). */
static __attribute__((noinline)) bool follow(unsigned int vcpu_index)
{
	int none = -1;

	if (__atomic_compare_exchange_n(&rec.vcpu, &none, (int)vcpu_index, false,
					__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		return true;
	if (none >= 0)
		rec.other_vcpus = true;
	return false;
}

void rvp_nexus_exec(unsigned int vcpu_index, void *udata, unsigned int priv)
{
	struct nx_itrace_block *b = udata;
	uint64_t n;

	if (__builtin_expect((int)vcpu_index != rec.vcpu, 0) && !follow(vcpu_index))
		return;
	/* Counted first, so that the call is the last thing done (a jump). */
	n = rec.n;
	rec.n = n + b->n;
	nx_ingress_block(&rec.g, &enc, b, priv, n);
}

static void exec_user(unsigned int vcpu_index, void *udata)
{
	rvp_nexus_exec(vcpu_index, udata, 0);
}

/* Another vCPU than the followed one (or the first of all): the rest of
 * the execution callbacks below, on their own so that those keep no stack
 * frame. */
static void exec_user_untimed(unsigned int vcpu_index, void *udata);
static void exec_user_untimed_pdep(unsigned int vcpu_index, void *udata);

static __attribute__((noinline)) void
untimed_other(unsigned int vcpu_index, void *udata)
{
	/* Through a pointer: each way into the encoder has one direct
	 * caller, its callback, into which it is then inlined. */
	static void (*volatile const again[2])(unsigned int, void *) = {
		exec_user_untimed, exec_user_untimed_pdep,
	};

	if (follow(vcpu_index))
		again[enc.pdep](vcpu_index, udata);
}

/* Without timestamps nothing reads the instruction count; whether the
 * encoder uses PDEP is known at the start, so each has its callback. */
static void exec_user_untimed(unsigned int vcpu_index, void *udata)
{
	if (__builtin_expect((int)vcpu_index != rec.vcpu, 0)) {
		untimed_other(vcpu_index, udata);
		return;
	}
	nx_ingress_block_u(&rec.g, &enc, udata);
}

/* A CPU with PDEP has the rest of BMI2 (shifts by a register without CL):
 * this callback and the encoder's way inlined into it use them. */
#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("bmi2")))
#endif
static void exec_user_untimed_pdep(unsigned int vcpu_index, void *udata)
{
	if (__builtin_expect((int)vcpu_index != rec.vcpu, 0)) {
		untimed_other(vcpu_index, udata);
		return;
	}
	nx_ingress_block_u_pdep(&rec.g, &enc, udata);
}

rvp_nexus_exec_fn rvp_nexus_exec_user(void)
{
	return rec.cfg.tstamp ? exec_user :
	       enc.pdep ? exec_user_untimed_pdep : exec_user_untimed;
}

void rvp_nexus_close(void)
{
	struct nx_insn in;
	struct nx_encoder *e = rec.e;

	if (!e || rec.fd < 0)
		return;
	if (nx_ingress_flush(&rec.g, &in))
		nx_enc_insn(e, &in);
	/* The traced run stops, as a hart entering debug mode (what
	 * rvperf nexus encode and NexRv write too). */
	if (nx_enc_finish(e, NX_EVCODE_DEBUG) || close(rec.fd))
		fprintf(stderr, "rvperf plugin: cannot write '%s'\n", rec.path);
	rec.fd = -1;
	if (rec.other_vcpus)
		fprintf(stderr, "rvperf plugin: note: only the first vCPU (thread) "
			"is in the N-Trace\n");
	fprintf(stderr, "[ rvperf plugin: N-Trace of %" PRIu64 " instructions, %"
		PRIu64 " messages, %" PRIu64 " bytes, %.4f bits per instruction, "
		"written to %s ]\n", e->n_insns, e->n_msgs, e->n_bytes,
		e->n_insns ? 8.0 * (double)e->n_bytes / (double)e->n_insns : 0.0,
		rec.path);
	rec.e = NULL;
}
