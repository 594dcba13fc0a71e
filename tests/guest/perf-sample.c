// SPDX-License-Identifier: BSD-2-Clause
/*
 * perf-sample - sampling on cycles delivers samples through the ring buffer,
 * and a user-only event's samples all lie in this program's text.
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
#include <errno.h>
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
	unsigned int samples, outside, in_vdso, other;
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

int main(void)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t len = (size_t)page * (DATA_PAGES + 1);
	struct perf_event_attr attr;
	struct result r = { 0 };
	double t0, t;
	void *ring;
	int fd;

	perf_attr_init(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
	attr.sample_period = 1000000;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	attr.wakeup_events = 1;
	fd = perf_event_open(&attr, 0, -1, -1, 0);
	if (!tap_ok(fd >= 0, "open a sampling cycles event")) {
		tap_diag("perf_event_open: %s", strerror(errno));
		return tap_done();
	}
	ring = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (!tap_ok(ring != MAP_FAILED, "map its ring buffer"))
		return tap_done();

	find_vdso(&r);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	t0 = perf_now_s();
	do {
		counted_loop(CHUNK);
		perf_ring_drain(ring, DATA_PAGES, check_record, &r);
		t = perf_now_s() - t0;
	} while (r.samples < WANT && t < TIME_LIMIT);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	perf_ring_drain(ring, DATA_PAGES, check_record, &r);

	tap_diag("%u samples in %.2f s, %u in the vDSO, %u outside the program text and the vDSO, %u other records",
		 r.samples, t, r.in_vdso, r.outside, r.other);
	tap_ok(r.samples >= WANT, "sampling on cycles delivers samples (%u; %d wanted within %.0f s)",
	       r.samples, WANT, TIME_LIMIT);
	tap_ok(r.samples > 0 && r.outside == 0,
	       "every sample of a user-only event is in the program's text or the vDSO");
	munmap(ring, len);
	close(fd);
	return tap_done();
}
