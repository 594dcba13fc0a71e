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
	char *copy;		/* the data area, unwrapped */
	size_t copy_len;
};

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

/* Copies the ring's records out, in order, so samples can be walked. */
static void collect(struct recording *r)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), size = page * DATA_PAGES;
	struct perf_event_mmap_page *meta = r->ring;
	uint64_t head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = meta->data_tail, n = head - tail;
	char *data = (char *)r->ring + page;

	if (n > size)
		n = size;
	r->copy = malloc(n ? n : 1);
	for (uint64_t i = 0; i < n; i++)
		r->copy[i] = data[(tail + i) % size];
	r->copy_len = n;
}

/* Calls FN for every sample; returns how many. */
static unsigned int for_each_sample(struct recording *r,
				    void (*fn)(const struct sample *, void *),
				    void *ctx)
{
	unsigned int count = 0;
	size_t pos = 0;

	while (pos + sizeof(struct perf_event_header) <= r->copy_len) {
		struct perf_event_header *h = (void *)(r->copy + pos);

		if (h->size < sizeof(*h) || pos + h->size > r->copy_len)
			break;
		if (h->type == PERF_RECORD_SAMPLE) {
			const uint64_t *p = (const void *)(h + 1);
			struct sample s = { .ip = p[0], .nr = p[1],
					    .br = (const void *)(p + 2) };

			fn(&s, ctx);
			count++;
		}
		pos += h->size;
	}
	return count;
}

static void close_event(struct recording *r)
{
	free(r->copy);
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
		if (in_known(from) && !find_edge(from, to))
			c->foreign++;
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
	unsigned int known, wrong;
};

static void check_kind(const struct sample *s, void *p)
{
	struct kind_ctx *c = p;

	for (unsigned int i = 0; i < s->nr; i++) {
		const struct edge *e = find_edge(s->br[i].from, s->br[i].to);

		if (!e)
			continue;
		c->known++;
		if (e->kind != c->want)
			c->wrong++;
	}
}

int main(void)
{
	struct recording r = { .fd = -1 }, r2 = { .fd = -1 };
	struct any_ctx any = { 0 };
	struct cs_ctx cs = { 0 };
	struct kind_ctx calls = { .want = 'c' }, rets = { .want = 'r' };
	unsigned int samples;

	if (!perf_hart_has_ctr()) {
		printf("1..0 # SKIP the hart has no Smctr/Ssctr (device tree)\n");
		return 0;
	}
	known_edges();
	any.hist_len = sled_history(any.hist);

	if (!tap_ok(open_event(&r, PERF_SAMPLE_BRANCH_ANY, -1) == 0,
		    "open an instructions event with -j any,u")) {
		tap_diag("perf_event_open: %s", strerror(errno));
		return tap_done();
	}
	ioctl(r.fd, PERF_EVENT_IOC_ENABLE, 0);
	known_loop(20000);
	ioctl(r.fd, PERF_EVENT_IOC_DISABLE, 0);
	collect(&r);
	samples = for_each_sample(&r, check_any, &any);
	tap_diag("any: %u samples, %u entries, %u in the sled, %u exact",
		 samples, any.entries, any.sled, any.exact);
	tap_ok(samples > 0 && any.entries > 0, "-j any,u: samples carry branch stacks");
	tap_ok(any.kernel == 0, "-j any,u: no entry holds a kernel address (%u do)",
	       any.kernel);
	tap_ok(any.foreign == 0, "-j any,u: every entry from the known code is one of its edges (%u are not)",
	       any.foreign);
	tap_ok(any.sled > 0 && any.prefix_bad == 0,
	       "-j any,u: every sample in the sled starts with known_run's transfers, newest first (%u of %u do not)",
	       any.prefix_bad, any.sled);
	tap_ok(any.exact > 0, "-j any,u: samples in the sled hold all %u transfers exactly (%u do)",
	       any.hist_len, any.exact);
	close_event(&r);

	if (tap_ok(open_event(&r, PERF_SAMPLE_BRANCH_CALL_STACK, -1) == 0,
		   "open an event with -j call_stack,u")) {
		ioctl(r.fd, PERF_EVENT_IOC_ENABLE, 0);
		known_loop(20000);
		ioctl(r.fd, PERF_EVENT_IOC_DISABLE, 0);
		collect(&r);
		for_each_sample(&r, check_call_stack, &cs);
		tap_ok(cs.in_depth3 > 0 && cs.exact > 0 && cs.bad == 0,
		       "-j call_stack,u: in depth3 the stack is the four active calls, innermost first (%u of %u exact, %u wrong)",
		       cs.exact, cs.in_depth3, cs.bad);
	} else {
		tap_diag("perf_event_open: %s", strerror(errno));
	}
	close_event(&r);

	if (tap_ok(open_event(&r, PERF_SAMPLE_BRANCH_ANY_CALL, -1) == 0 &&
		   open_event_on(&r2, PERF_COUNT_HW_CPU_CYCLES,
				 PERF_SAMPLE_BRANCH_ANY_RETURN, -1) == 0,
		   "open -j any_call,u and -j any_ret,u at once")) {
		ioctl(r.fd, PERF_EVENT_IOC_ENABLE, 0);
		ioctl(r2.fd, PERF_EVENT_IOC_ENABLE, 0);
		known_loop(20000);
		ioctl(r.fd, PERF_EVENT_IOC_DISABLE, 0);
		ioctl(r2.fd, PERF_EVENT_IOC_DISABLE, 0);
		collect(&r);
		collect(&r2);
		samples = for_each_sample(&r, check_kind, &calls);
		tap_diag("any_call: %u samples, %u known entries", samples, calls.known);
		samples = for_each_sample(&r2, check_kind, &rets);
		tap_diag("any_ret: %u samples, %u known entries", samples, rets.known);
		tap_ok(calls.known > 0 && calls.wrong == 0,
		       "any_call next to any_ret: only calls (%u entries, %u not calls)",
		       calls.known, calls.wrong);
		tap_ok(rets.known > 0 && rets.wrong == 0,
		       "any_ret next to any_call: only returns (%u entries, %u not returns)",
		       rets.known, rets.wrong);
	} else {
		tap_diag("perf_event_open: %s", strerror(errno));
	}
	close_event(&r);
	close_event(&r2);
	return tap_done();
}
