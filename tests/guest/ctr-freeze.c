// SPDX-License-Identifier: BSD-2-Clause
/*
 * ctr-freeze - the overflow handler does not record itself.
 *
 * CTR freezes when the overflow interrupt is raised (LCOFIFRZ); the
 * driver's handler reads the records, restarts the counters and only then
 * lifts the freeze.  A -j any,k,u event with a short period gives samples
 * whose stacks reach back to the previous interrupt: no entry may be a
 * taken conditional branch inside the handler itself (rvperf's driver's
 * rvpmu_overflow_irq, or the stock riscv_pmu_sbi's pmu_sbi_ovf_handler with
 * the series, from /proc/kallsyms), which only a freeze lifted before the handler's
 * loops (the counters' restart) records.  The jumps to its epilogue after
 * the unfreeze are unavoidable and allowed.  Skips on a hart without CTR.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "perf_util.h"
#include "tap.h"

#define DATA_PAGES	64
#define TIME_LIMIT	30.0
#define WANT		50

struct range {
	uint64_t lo, hi;
};

struct seen {
	struct range h;
	unsigned int samples;
	uint64_t entries, inside;
};

/* [start, next symbol) of @name in /proc/kallsyms; 0 when not found. */
static int kallsyms_range(const char *name, struct range *r)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[512], sym[256], type;
	unsigned long long addr;
	int found = 0;

	if (!f)
		return 0;
	r->lo = r->hi = 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &addr, &type, sym) != 3)
			continue;
		if (found && addr > r->lo) {
			r->hi = addr;
			break;
		}
		if (!found && !strcmp(sym, name)) {
			r->lo = addr;
			found = 1;
		}
	}
	fclose(f);
	return found && r->hi > r->lo && r->lo;
}

static void on_record(const struct perf_event_header *h, void *p)
{
	struct seen *s = p;
	const uint64_t *v = (const void *)(h + 1);
	const struct perf_branch_entry *br = (const void *)(v + 2);
	uint64_t i;

	if (h->type != PERF_RECORD_SAMPLE)
		return;
	s->samples++;
	for (i = 0; i < v[1]; i++) {
		s->entries++;
		if (br[i].from >= s->h.lo && br[i].from < s->h.hi &&
		    br[i].to >= s->h.lo && br[i].to < s->h.hi &&
		    br[i].type == PERF_BR_COND) {
			if (s->inside++ < 8)
				tap_diag("  inside: +%#llx -> +%#llx (entry %llu of %llu)",
					 (unsigned long long)(br[i].from - s->h.lo),
					 (unsigned long long)(br[i].to - s->h.lo),
					 (unsigned long long)i, (unsigned long long)v[1]);
		}
	}
}

int main(void)
{
	struct perf_event_attr attr;
	struct seen s = { 0 };
	size_t len;
	double t0;
	void *ring;
	const char *handler;
	int fd;

	if (!perf_hart_has_ctr()) {
		tap_skip("the hart has no Smctr/Ssctr (device tree)", "does not apply here");
		return tap_done();
	}
	handler = "rvpmu_overflow_irq";
	if (!kallsyms_range(handler, &s.h)) {
		handler = "pmu_sbi_ovf_handler";
		if (!kallsyms_range(handler, &s.h)) {
			tap_skip("no overflow handler in /proc/kallsyms", "handler not recorded");
			return tap_done();
		}
	}
	perf_attr_init(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	attr.exclude_kernel = 0;
	attr.sample_period = 400;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_BRANCH_STACK;
	attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER |
				  PERF_SAMPLE_BRANCH_KERNEL | PERF_SAMPLE_BRANCH_TYPE_SAVE;
	fd = perf_event_open(&attr, 0, -1, -1, 0);
	len = (size_t)sysconf(_SC_PAGESIZE) * (DATA_PAGES + 1);
	ring = fd < 0 ? MAP_FAILED :
	       mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (!tap_ok(ring != MAP_FAILED, "open a -j any,k,u event (period 400) and its ring")) {
		tap_skip("no event", "handler not recorded");
		return tap_done();
	}
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	t0 = perf_now_s();
	while (s.samples < WANT && perf_now_s() - t0 < TIME_LIMIT) {
		counted_loop(100);
		perf_ring_drain(ring, DATA_PAGES, on_record, &s);
	}
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	perf_ring_drain(ring, DATA_PAGES, on_record, &s);
	tap_diag("%u samples, %llu entries, %llu conditional branches inside %s [%llx, %llx)",
		 s.samples, (unsigned long long)s.entries, (unsigned long long)s.inside, handler,
		 (unsigned long long)s.h.lo, (unsigned long long)s.h.hi);
	tap_ok(s.samples > 0 && !s.inside,
	       "no branch stack holds a conditional branch inside the overflow handler");
	return tap_done();
}
