// SPDX-License-Identifier: BSD-2-Clause
/*
 * ctr-irq-cost - what an overflow interrupt costs with a branch stack of
 * 16, 64 and 256 entries, against the same interrupt without one, in guest
 * instructions: under -icount shift=0 (check-e2e's) the guest's clock
 * advances one nanosecond per instruction executed in any mode, so the
 * clock measures a user loop alone, then with a sampling event on it; the
 * difference divided by the samples taken is the cost of one interrupt
 * (handler, SBI calls, sample output).  A counting event would not do: the
 * driver stops every counter while its handler runs.  Each is measured over
 * N and 2N iterations and the cost taken from the difference, so what an
 * event costs once (open, enable, the first sample) drops out.  The depth is
 * set through the driver's ctr_depth parameter, which a cpu takes when it
 * next has no branch events.  Skips without CTR (a benchmark of the e2e
 * target: it prints the ratios, and checks only that they are sane).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>

#include "perf_util.h"
#include "tap.h"

#define DEPTH_PARAM	"/sys/module/rvperf_pmu/parameters/ctr_depth"
#define ITERATIONS	1000000UL	/* 2M user instructions, then twice that */
#define PERIOD		20011		/* ~100 samples, 200 per 4M: no throttling */
#define SYSCTL		"/proc/sys/kernel/"
#define DATA_PAGES	512
#define REPEAT		3

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static int open_sampler(int depth, void **ring, size_t *len)
{
	struct perf_event_attr attr;
	int fd;

	perf_attr_init(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	attr.sample_period = PERIOD;
	attr.sample_type = PERF_SAMPLE_IP;
	if (depth) {
		attr.sample_type |= PERF_SAMPLE_BRANCH_STACK;
		attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY |
					  PERF_SAMPLE_BRANCH_USER;
	}
	fd = perf_event_open(&attr, 0, -1, -1, 0);
	if (fd < 0)
		return -1;
	*len = (size_t)sysconf(_SC_PAGESIZE) * (DATA_PAGES + 1);
	*ring = mmap(NULL, *len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (*ring == MAP_FAILED) {
		close(fd);
		return -1;
	}
	return fd;
}

static unsigned int count_samples(void *ring)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), size = page * DATA_PAGES;
	struct perf_event_mmap_page *meta = ring;
	uint64_t head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
	uint64_t pos = meta->data_tail;
	char *data = (char *)ring + page;
	unsigned int n = 0;

	while (pos + sizeof(struct perf_event_header) <= head) {
		struct perf_event_header h;

		memcpy(&h, data + pos % size, sizeof(h));	/* headers do not wrap */
		if (h.size < sizeof(h))
			break;
		if (h.type == PERF_RECORD_SAMPLE)
			n++;
		pos += h.size;
	}
	return n;
}

/* Guest nanoseconds (instructions) of the loop alone (depth < 0) or with
 * a sampler. */
static uint64_t measure_once(int depth, unsigned long iterations,
			     unsigned int *samples)
{
	void *ring = NULL;
	size_t len = 0;
	uint64_t t0, t1;
	int s = -1;

	if (depth >= 0) {
		s = open_sampler(depth, &ring, &len);
		if (s < 0)
			return 0;
		ioctl(s, PERF_EVENT_IOC_ENABLE, 0);
	}
	t0 = now_ns();
	counted_loop(iterations);
	t1 = now_ns();
	if (s >= 0) {
		ioctl(s, PERF_EVENT_IOC_DISABLE, 0);
		*samples = count_samples(ring);
		munmap(ring, len);
		close(s);
	}
	return t1 - t0;
}

/*
 * The least of REPEAT runs: what else the guest does now and then (timer
 * ticks, daemons) only ever adds.
 */
static uint64_t measure(int depth, unsigned long iterations,
			unsigned int *samples)
{
	uint64_t best = 0, t;
	unsigned int i, n = 0;

	for (i = 0; i < REPEAT; i++) {
		t = measure_once(depth, iterations, &n);
		if (t && (!best || t < best)) {
			best = t;
			if (samples)
				*samples = n;
		}
	}
	return best;
}

static int write_int(const char *path, int value)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fprintf(f, "%d\n", value);
	return fclose(f);
}

static int set_depth(int depth)
{
	return write_int(DEPTH_PARAM, depth);
}

int main(void)
{
	static const int depths[] = { 0, 16, 64, 256 };
	double cost[4] = { 0 };
	uint64_t alone1, alone2;
	unsigned int i;

	if (!perf_hart_has_ctr()) {
		printf("1..0 # SKIP the hart has no Smctr/Ssctr (device tree)\n");
		return 0;
	}
	/*
	 * Earlier tests' slow handlers made perf lower the sample rate; put
	 * the defaults back and stop the adjusting, so no sample is throttled
	 * (the interrupt cost is what is measured, not perf's limit on it).
	 */
	tap_ok(write_int(SYSCTL "perf_event_max_sample_rate", 100000) == 0 &&
	       write_int(SYSCTL "perf_cpu_time_max_percent", 0) == 0,
	       "perf's default sample rate, not adjusted (the rate first: with the adjusting off perf refuses it)");
	alone1 = measure(-1, ITERATIONS, NULL);
	alone2 = measure(-1, 2 * ITERATIONS, NULL);
	tap_ok(alone2 > alone1 && alone1 > 0,
	       "the loop alone: %llu and %llu ns",
	       (unsigned long long)alone1, (unsigned long long)alone2);
	for (i = 0; i < 4; i++) {
		unsigned int s1 = 0, s2 = 0;
		uint64_t with1, with2;
		char buf[32] = "";

		if (depths[i] && set_depth(depths[i])) {
			tap_ok(0, "set ctr_depth=%d (%s)", depths[i], strerror(errno));
			continue;
		}
		with1 = measure(depths[i], ITERATIONS, &s1);
		with2 = measure(depths[i], 2 * ITERATIONS, &s2);
		if (depths[i])
			perf_read_line(PERF_CPU_PMU_DIR "/rvperf/ctr_depth", buf,
				       sizeof(buf));
		if (!tap_ok(with1 > alone1 && with2 > alone2 && s2 >= s1 + 10,
			    "depth %d: %u and %u samples", depths[i], s1, s2))
			continue;
		cost[i] = ((double)(with2 - alone2) - (double)(with1 - alone1)) /
			  (s2 - s1);
		if (depths[i])
			tap_ok(atoi(buf) == depths[i], "the hart keeps %d entries (%s)",
			       depths[i], buf);
		tap_diag("overflow interrupt, branch stack depth %d: %.0f guest instructions (%.2fx the interrupt without one)",
			 depths[i], cost[i], cost[0] > 0 ? cost[i] / cost[0] : 0.0);
	}
	set_depth(0);
	write_int(SYSCTL "perf_cpu_time_max_percent", 25);
	tap_ok(cost[0] > 0 && cost[1] > cost[0] && cost[2] > cost[1] &&
	       cost[3] > cost[2],
	       "each deeper stack costs more: %.0f < %.0f < %.0f < %.0f",
	       cost[0], cost[1], cost[2], cost[3]);
	return tap_done();
}
