// SPDX-License-Identifier: BSD-2-Clause
/*
 * ctr-brstack - real branch stacks through the kernel's perf driver on a
 * hart with CTR (Smctr/Ssctr), checked entry by entry against code whose
 * every transfer is known (e2e-known.S).  Runs in every guest tier; on a
 * hart without CTR (Debian's QEMU 7.2) it skips as a whole, and
 * perf-brstack checks the refusal instead.  make check-e2e with a
 * CTR-capable QEMU runs it for real.
 *
 *  - -j any,u: every entry inside the known code is one of its edges; a
 *    sample in the sled after known_run holds its 14 transfers, newest
 *    first, exactly; no entry of a user-only event holds a kernel address;
 *  - -j call_stack,u (RAS emulation): a sample in depth3's sled holds the
 *    four active calls, innermost first;
 *  - two events at once, -j any_call,u and -j any_ret,u: each gets only its
 *    own kind of entries (the driver's software filter over the union).
 *
 * Each runs the known code until it has the samples it needs or a time
 * limit passed (see sample_until()), so that the bounds hold with and
 * without -icount.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "perf_util.h"
#include "tap.h"

#define DATA_PAGES	64

#include "e2e-known.h"

struct sample {
	uint64_t ip, nr;
	const struct perf_branch_entry *br;
};

struct recording {
	int fd;
	void *ring;
	size_t len;
	unsigned int samples;
	void (*fn)(const struct sample *, void *);
	void *ctx;
};

/*
 * How long the known code runs with the events on: until each check has
 * what it needs, in chunks of CHUNK iterations with the ring buffers read
 * in between, or until TIME_LIMIT seconds passed.  Under -icount shift=0 the
 * first chunk is enough; without it (how kernel CI runs QEMU) the overflow
 * interrupt comes at host-time intervals and perf throttles the slow
 * handler to a few samples per tick, so the number of samples per
 * iteration is unknown in advance.
 */
#define CHUNK		2000
#define TIME_LIMIT	60.0

/*
 * An instructions (or, for a second event at once, cycles: QEMU raises the
 * overflow interrupt for one counter per event) sampling event.
 */
static int open_event_on(struct recording *r, uint64_t config,
			 uint64_t branch_type, int group)
{
	struct perf_event_attr attr;

	perf_attr_init(&attr, PERF_TYPE_HARDWARE, config);
	attr.sample_period = 2003;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_BRANCH_STACK;
	attr.branch_sample_type = branch_type | PERF_SAMPLE_BRANCH_USER |
				  PERF_SAMPLE_BRANCH_TYPE_SAVE;
	memset(r, 0, sizeof(*r));
	r->fd = perf_event_open(&attr, 0, -1, group, 0);
	if (r->fd < 0)
		return -1;
	r->len = (size_t)sysconf(_SC_PAGESIZE) * (DATA_PAGES + 1);
	r->ring = mmap(NULL, r->len, PROT_READ | PROT_WRITE, MAP_SHARED, r->fd, 0);
	return r->ring == MAP_FAILED ? -1 : 0;
}

static int open_event(struct recording *r, uint64_t branch_type, int group)
{
	return open_event_on(r, PERF_COUNT_HW_INSTRUCTIONS, branch_type, group);
}

static void on_record(const struct perf_event_header *h, void *p)
{
	struct recording *r = p;
	const uint64_t *v = (const void *)(h + 1);
	struct sample s;

	if (h->type != PERF_RECORD_SAMPLE)
		return;
	s.ip = v[0];
	s.nr = v[1];
	s.br = (const void *)(v + 2);
	r->samples++;
	r->fn(&s, r->ctx);
}

/*
 * Runs the known code with the n events of rec on, each sample handed to
 * its recording's fn, until enough(ctx) or the time limit; returns the
 * seconds it ran.
 */
static double sample_until(struct recording *rec, unsigned int n,
			   int (*enough)(void *), void *ctx)
{
	double t0 = perf_now_s(), t;
	unsigned int i;

	for (i = 0; i < n; i++)
		ioctl(rec[i].fd, PERF_EVENT_IOC_ENABLE, 0);
	do {
		known_loop(CHUNK);
		for (i = 0; i < n; i++)
			perf_ring_drain(rec[i].ring, DATA_PAGES, on_record, &rec[i]);
		t = perf_now_s() - t0;
	} while (!enough(ctx) && t < TIME_LIMIT);
	for (i = 0; i < n; i++) {
		ioctl(rec[i].fd, PERF_EVENT_IOC_DISABLE, 0);
		perf_ring_drain(rec[i].ring, DATA_PAGES, on_record, &rec[i]);
	}
	return t;
}

static void close_event(struct recording *r)
{
	if (r->ring && r->ring != MAP_FAILED)
		munmap(r->ring, r->len);
	if (r->fd >= 0)
		close(r->fd);
}

/* ---- -j any,u */

struct any_ctx {
	unsigned int kernel, foreign, sled, exact, prefix_bad, entries;
	struct edge hist[16];
	unsigned int hist_len;
};

static void check_any(const struct sample *s, void *p)
{
	struct any_ctx *c = p;
	unsigned int i, n;

	c->entries += s->nr;
	for (i = 0; i < s->nr; i++) {
		uint64_t from = s->br[i].from, to = s->br[i].to;

		if ((int64_t)from < 0 || (int64_t)to < 0)
			c->kernel++;
		if (in_known(from) && !find_edge(from, to) && !c->foreign++)
			tap_diag("first entry from the known code that is not one of its edges: %#llx -> %#llx",
				 (unsigned long long)from, (unsigned long long)to);
	}
	if (s->ip < A(kl_sled) || s->ip >= A(kl_sled_end))
		return;
	c->sled++;
	n = s->nr < c->hist_len ? s->nr : c->hist_len;
	for (i = 0; i < n; i++)
		if (s->br[i].from != c->hist[i].from || s->br[i].to != c->hist[i].to)
			break;
	if (i < n)
		c->prefix_bad++;
	else if (n == c->hist_len)
		c->exact++;
}

/* ---- -j call_stack,u */

struct cs_ctx {
	unsigned int in_depth3, exact, bad;
};

static void check_call_stack(const struct sample *s, void *p)
{
	struct cs_ctx *c = p;
	const uint64_t want[4][2] = {
		{ A(kr_call_depth3), A(kr_depth3) },
		{ A(kr_call_depth2), A(kr_depth2) },
		{ A(kr_call_depth1), A(kr_depth1) },
		{ A(kl_call_run), A(known_run) },
	};
	unsigned int i;

	if (s->ip < A(kr_depth3_sled) || s->ip >= A(kr_depth3_ret))
		return;
	c->in_depth3++;
	for (i = 0; i < 4 && i < s->nr; i++)
		if (s->br[i].from != want[i][0] || s->br[i].to != want[i][1])
			break;
	if (i == 4)
		c->exact++;
	else if (i < s->nr)
		c->bad++;
}

/* ---- two events with different filters */

struct kind_ctx {
	int want;		/* 'c' or 'r' */
	unsigned int samples, known, wrong;
};

static void check_kind(const struct sample *s, void *p)
{
	struct kind_ctx *c = p;

	c->samples++;
	for (unsigned int i = 0; i < s->nr; i++) {
		const struct edge *e = find_edge(s->br[i].from, s->br[i].to);

		if (!e)
			continue;
		c->known++;
		if (e->kind != c->want)
			c->wrong++;
	}
}

/*
 * Samples in a sled each check wants before it stops the known code, and
 * samples of each of the two events at once.
 */
#define SLED_WANT	8
#define KIND_WANT	4

static int any_enough(void *p)
{
	return ((struct any_ctx *)p)->sled >= SLED_WANT;
}

static int cs_enough(void *p)
{
	return ((struct cs_ctx *)p)->in_depth3 >= SLED_WANT;
}

static int kinds_enough(void *p)
{
	struct kind_ctx *k = p;

	/*
	 * Samples alone are not enough: without -icount a few of them may all
	 * land in the ring-buffer reads between chunks, whose calls and
	 * returns are not the known code's.
	 */
	return k[0].samples >= KIND_WANT && k[1].samples >= KIND_WANT &&
	       k[0].known > 0 && k[1].known > 0;
}

int main(void)
{
	struct recording r[2] = { { .fd = -1 }, { .fd = -1 } };
	struct any_ctx any = { 0 };
	struct cs_ctx cs = { 0 };
	struct kind_ctx kinds[2] = { { .want = 'c' }, { .want = 'r' } };
	double t;

	if (!perf_hart_has_ctr()) {
		printf("1..0 # SKIP the hart has no Smctr/Ssctr (device tree)\n");
		return 0;
	}
	known_edges();
	any.hist_len = sled_history(any.hist);

	if (!tap_ok(open_event(&r[0], PERF_SAMPLE_BRANCH_ANY, -1) == 0,
		    "open an instructions event with -j any,u")) {
		tap_diag("perf_event_open: %s", strerror(errno));
		return tap_done();
	}
	r[0].fn = check_any;
	r[0].ctx = &any;
	t = sample_until(r, 1, any_enough, &any);
	tap_diag("any: %u samples, %u entries, %u in the sled, %u exact (%.1f s)",
		 r[0].samples, any.entries, any.sled, any.exact, t);
	tap_ok(r[0].samples > 0 && any.entries > 0, "-j any,u: samples carry branch stacks");
	tap_ok(any.kernel == 0, "-j any,u: no entry holds a kernel address (%u do)",
	       any.kernel);
	tap_ok(any.foreign == 0, "-j any,u: every entry from the known code is one of its edges (%u are not)",
	       any.foreign);
	tap_ok(any.sled >= SLED_WANT && any.prefix_bad == 0,
	       "-j any,u: every sample in the sled starts with known_run's transfers, newest first (%u of %u do not; %d wanted within %.0f s)",
	       any.prefix_bad, any.sled, SLED_WANT, TIME_LIMIT);
	tap_ok(any.exact > 0, "-j any,u: samples in the sled hold all %u transfers exactly (%u do)",
	       any.hist_len, any.exact);
	close_event(&r[0]);

	if (tap_ok(open_event(&r[0], PERF_SAMPLE_BRANCH_CALL_STACK, -1) == 0,
		   "open an event with -j call_stack,u")) {
		r[0].fn = check_call_stack;
		r[0].ctx = &cs;
		t = sample_until(r, 1, cs_enough, &cs);
		tap_diag("call_stack: %u samples, %u in depth3 (%.1f s)",
			 r[0].samples, cs.in_depth3, t);
		tap_ok(cs.in_depth3 >= SLED_WANT && cs.exact > 0 && cs.bad == 0,
		       "-j call_stack,u: in depth3 the stack is the four active calls, innermost first (%u of %u exact, %u wrong; %d wanted)",
		       cs.exact, cs.in_depth3, cs.bad, SLED_WANT);
	} else {
		tap_diag("perf_event_open: %s", strerror(errno));
	}
	close_event(&r[0]);

	if (tap_ok(open_event(&r[0], PERF_SAMPLE_BRANCH_ANY_CALL, -1) == 0 &&
		   open_event_on(&r[1], PERF_COUNT_HW_CPU_CYCLES,
				 PERF_SAMPLE_BRANCH_ANY_RETURN, -1) == 0,
		   "open -j any_call,u and -j any_ret,u at once")) {
		r[0].fn = r[1].fn = check_kind;
		r[0].ctx = &kinds[0];
		r[1].ctx = &kinds[1];
		t = sample_until(r, 2, kinds_enough, kinds);
		tap_diag("any_call: %u samples, %u known entries; any_ret: %u samples, %u known entries (%.1f s)",
			 r[0].samples, kinds[0].known, r[1].samples, kinds[1].known, t);
		tap_ok(kinds[0].known > 0 && kinds[0].wrong == 0,
		       "any_call next to any_ret: only calls (%u entries, %u not calls)",
		       kinds[0].known, kinds[0].wrong);
		tap_ok(kinds[1].known > 0 && kinds[1].wrong == 0,
		       "any_ret next to any_call: only returns (%u entries, %u not returns)",
		       kinds[1].known, kinds[1].wrong);
	} else {
		tap_diag("perf_event_open: %s", strerror(errno));
	}
	close_event(&r[0]);
	close_event(&r[1]);
	return tap_done();
}
