// SPDX-License-Identifier: BSD-2-Clause
/*
 * perf-sample - sampling on cycles delivers samples through the ring buffer,
 * and a user-only event's samples all lie in this program's text; sampling
 * on instructions right after counting them on the same hart does too.
 *
 * The loop runs in chunks, the ring read in between, until WANT samples
 * came or TIME_LIMIT seconds passed: under -icount shift=0 cycles are
 * instructions and the first chunks are enough; without it (how kernel CI
 * runs QEMU) QEMU's cycle counter follows host time, and how many samples a
 * chunk gives depends on the host.
 *
 * User-mode code outside the program's text is the vDSO, where the clock
 * reads between chunks run: a sample there is a user address all the same
 * (seen without -icount, when the host held QEMU during such a read).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "perf_util.h"
#include "tap.h"

#define DATA_PAGES	16
#define CHUNK		10000000UL	/* 20M user instructions */
#define WANT		20
#define TIME_LIMIT	30.0

extern char __executable_start[], etext[];

struct result {
	unsigned int samples, outside, in_vdso, other, chunks;
	uint64_t vdso_start, vdso_end;
};

/* The [vdso] mapping's range, from /proc/self/maps (0, 0 without one). */
static void find_vdso(struct result *r)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[256];
	unsigned long long start, end;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "[vdso]") &&
		    sscanf(line, "%llx-%llx", &start, &end) == 2) {
			r->vdso_start = start;
			r->vdso_end = end;
		}
	fclose(f);
}

static void check_record(const struct perf_event_header *h, void *p)
{
	struct result *r = p;
	uint64_t ip;

	if (h->type != PERF_RECORD_SAMPLE) {
		r->other++;
		return;
	}
	memcpy(&ip, h + 1, sizeof(ip));
	r->samples++;
	if (ip >= r->vdso_start && ip < r->vdso_end)
		r->in_vdso++;
	else if (ip < (uint64_t)(uintptr_t)__executable_start ||
		 ip >= (uint64_t)(uintptr_t)etext)
		r->outside++;
}

/*
 * Samples config (PERF_TYPE_HARDWARE) in chunks of the loop until WANT
 * samples came or TIME_LIMIT passed; 0, or -1 if the event did not open.
 */
static int sample_run(uint64_t config, struct result *r)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t len = (size_t)page * (DATA_PAGES + 1);
	struct perf_event_attr attr;
	double t0, t;
	void *ring;
	int fd;

	perf_attr_init(&attr, PERF_TYPE_HARDWARE, config);
	attr.sample_period = 1000000;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	attr.wakeup_events = 1;
	fd = perf_event_open(&attr, 0, -1, -1, 0);
	if (fd < 0) {
		tap_diag("perf_event_open: %s", strerror(errno));
		return -1;
	}
	ring = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (ring == MAP_FAILED) {
		tap_diag("mmap: %s", strerror(errno));
		close(fd);
		return -1;
	}
	find_vdso(r);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	t0 = perf_now_s();
	do {
		counted_loop(CHUNK);
		r->chunks++;
		perf_ring_drain(ring, DATA_PAGES, check_record, r);
		t = perf_now_s() - t0;
	} while (r->samples < WANT && t < TIME_LIMIT);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	perf_ring_drain(ring, DATA_PAGES, check_record, r);
	munmap(ring, len);
	close(fd);
	tap_diag("%u samples in %.2f s (%u chunks), %u in the vDSO, %u outside the program text and the vDSO, %u other records",
		 r->samples, t, r->chunks, r->in_vdso, r->outside, r->other);
	return 0;
}

int main(void)
{
	struct perf_event_attr attr;
	struct result r = { 0 };
	unsigned int ins_chunks;
	uint64_t count = 0;
	cpu_set_t one;
	int fd;

	/* One hart for all of it: the counting event and the sampling one
	 * after it must meet the same counter. */
	CPU_ZERO(&one);
	CPU_SET(sched_getcpu() > 0 ? sched_getcpu() : 0, &one);
	sched_setaffinity(0, sizeof(one), &one);

	/*
	 * Linux starts a counting event at 2^63 + 1.  QEMU (up to 10.2 at
	 * least) kept the part of that overflow deadline past INT64_MAX ns
	 * and spent it on the next expiry of the hart's PMU timer, so the
	 * first sampling event after it on that counter never overflowed;
	 * rvperf's firmware starts such far counters so that QEMU arms nothing
	 * (opensbi-ext/core/rvp_sbi_pmu.c, start_far), and rvperf's QEMU fixes
	 * it (qemu-model/qemu/patches/0007).  The leftover is about the
	 * virtual time since boot, after which the overflow does come: so the
	 * samples must come as soon as cycles' do (both count one per
	 * instruction under -icount, host time without it).  First in the
	 * program: a sampling event stopped before its overflow leaves the
	 * timer armed near, and its expiry would spend the leftover.
	 */
	perf_attr_init(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	fd = perf_event_open(&attr, 0, -1, -1, 0);
	if (fd >= 0) {
		ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
		counted_loop(CHUNK / 10);
		ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
		if (read(fd, &count, sizeof(count)) != sizeof(count))
			count = 0;
		close(fd);
	}
	tap_ok(count > 0, "count instructions first (%llu)",
	       (unsigned long long)count);
	memset(&r, 0, sizeof(r));
	if (sample_run(PERF_COUNT_HW_INSTRUCTIONS, &r) < 0)
		r.samples = 0;
	tap_ok(r.samples >= WANT,
	       "then sampling on instructions on the same hart delivers samples (%u; %d wanted within %.0f s)",
	       r.samples, WANT, TIME_LIMIT);
	ins_chunks = r.chunks;

	memset(&r, 0, sizeof(r));
	if (!tap_ok(sample_run(PERF_COUNT_HW_CPU_CYCLES, &r) == 0,
		    "open and map a sampling cycles event"))
		return tap_done();
	tap_ok(r.samples >= WANT, "sampling on cycles delivers samples (%u; %d wanted within %.0f s)",
	       r.samples, WANT, TIME_LIMIT);
	tap_ok(r.samples > 0 && r.outside == 0,
	       "every sample of a user-only event is in the program's text or the vDSO");
	tap_ok(ins_chunks <= 2 * r.chunks + 1,
	       "instructions after counting them sample from the start: %u chunks for %d samples, cycles %u",
	       ins_chunks, WANT, r.chunks);

	return tap_done();
}
