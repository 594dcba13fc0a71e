// SPDX-License-Identifier: BSD-2-Clause
/*
 * ctr-irq-cost - what an overflow interrupt costs with a branch stack of
 * 16, 64 and 256 entries, against the same interrupt without one, in guest
 * instructions: under -icount shift=0 (check-e2e's) the guest's clock
 * advances one nanosecond per instruction executed in any mode, so the
 * clock measures a user loop alone, then with a sampling event on it; the
 * time the sampler added divided by the samples taken is the cost of one
 * interrupt (handler, SBI calls, sample output).  A counting event would
 * not do: the driver stops every counter while its handler runs.  Each is
 * measured until WANT and until 2 * WANT samples came, and the cost taken
 * from the difference, so what an event costs once (open, enable, the first
 * sample) drops out.  The depth is set through the driver's ctr_depth
 * parameter, which a cpu takes when it next has no branch events.  Skips
 * without CTR (a benchmark of the e2e target: it prints the ratios, and
 * checks only that they are sane).
 *
 * Without -icount (how kernel CI runs QEMU) the overflow interrupt comes at
 * host-time intervals and the clock is the host's: the samples must still
 * come at every depth, and the depth must stick, but the costs are host
 * time, printed and not compared.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "perf_util.h"
#include "tap.h"

#define DEPTH_PARAM	"/sys/module/rvperf_pmu/parameters/ctr_depth"
#define ALONE_ITERATIONS 2000000UL	/* 4M user instructions */
#define CHUNK		50000UL		/* iterations between ring reads */
#define WANT		100		/* samples, then twice that */
#define TIME_LIMIT	30.0		/* seconds per measurement */
#define PERIOD		20011
#define SYSCTL		"/proc/sys/kernel/"
#define DATA_PAGES	64
#define REPEAT		3

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

static void count_sample(const struct perf_event_header *h, void *p)
{
	if (h->type == PERF_RECORD_SAMPLE)
		++*(unsigned int *)p;
}

/* Seconds per loop iteration alone: the least of REPEAT runs. */
static double loop_alone(void)
{
	double best = 0, t0, t;
	unsigned int i;

	for (i = 0; i < REPEAT; i++) {
		t0 = perf_now_s();
		counted_loop(ALONE_ITERATIONS);
		t = (perf_now_s() - t0) / ALONE_ITERATIONS;
		if (!best || t < best)
			best = t;
	}
	return best;
}

struct run {
	unsigned int samples;
	double overhead;	/* seconds beyond what the loop alone takes */
};

/*
 * The loop with a sampler at @depth, in chunks, until @want samples came
 * (or the time limit); what the sampler added to the loop's time.
 */
static int measure_once(int depth, unsigned int want, double per_iteration,
			struct run *r)
{
	unsigned long iterations = 0;
	void *ring = NULL;
	size_t len = 0;
	double t0, t;
	int s;

	r->samples = 0;
	s = open_sampler(depth, &ring, &len);
	if (s < 0)
		return -1;
	ioctl(s, PERF_EVENT_IOC_ENABLE, 0);
	t0 = perf_now_s();
	do {
		counted_loop(CHUNK);
		iterations += CHUNK;
		perf_ring_drain(ring, DATA_PAGES, count_sample, &r->samples);
		t = perf_now_s() - t0;
	} while (r->samples < want && t < TIME_LIMIT);
	ioctl(s, PERF_EVENT_IOC_DISABLE, 0);
	r->overhead = t - (double)iterations * per_iteration;
	munmap(ring, len);
	close(s);
	return 0;
}

/*
 * The least overhead per sample of REPEAT runs: what else the guest (or,
 * without -icount, the host) does now and then only ever adds.
 */
static int measure(int depth, unsigned int want, double per_iteration,
		   struct run *best)
{
	struct run r;
	unsigned int i;

	best->samples = 0;
	for (i = 0; i < REPEAT; i++) {
		if (measure_once(depth, want, per_iteration, &r))
			return -1;
		if (r.samples < want) {	/* the time limit: no use repeating */
			*best = r;
			break;
		}
		if (!best->samples ||
		    r.overhead / r.samples < best->overhead / best->samples)
			*best = r;
	}
	return 0;
}

static int write_int(const char *path, int value)
{
	char line[16];

	snprintf(line, sizeof(line), "%d\n", value);
	return perf_write_line(path, line);
}

static int set_depth(int depth)
{
	return write_int(DEPTH_PARAM, depth);
}

int main(void)
{
	static const int depths[] = { 0, 16, 64, 256 };
	double cost[4] = { 0 }, per_iteration;
	const char *unit;
	unsigned int i;
	int icount = booted_with_icount();

	if (!perf_hart_has_ctr()) {
		printf("1..0 # SKIP the hart has no Smctr/Ssctr (device tree)\n");
		return 0;
	}
	/*
	 * Earlier tests' slow handlers made perf lower the sample rate; put
	 * the defaults back and stop the adjusting, so that the rate does not
	 * change under the measurement.
	 */
	tap_ok(write_int(SYSCTL "perf_event_max_sample_rate", 100000) == 0 &&
	       write_int(SYSCTL "perf_cpu_time_max_percent", 0) == 0,
	       "perf's default sample rate, not adjusted (the rate first: with the adjusting off perf refuses it)");
	per_iteration = loop_alone();
	tap_ok(per_iteration > 0, "the loop alone: %.2f ns per iteration",
	       per_iteration * 1e9);
	/* Under -icount shift=0 a guest nanosecond is one instruction. */
	unit = icount ? "guest instructions" : "ns (host time: no -icount)";
	for (i = 0; i < 4; i++) {
		struct run r1, r2;
		char buf[32] = "";

		if (depths[i] && set_depth(depths[i])) {
			tap_ok(0, "set ctr_depth=%d (%s)", depths[i], strerror(errno));
			continue;
		}
		if (measure(depths[i], WANT, per_iteration, &r1) ||
		    measure(depths[i], 2 * WANT, per_iteration, &r2)) {
			tap_ok(0, "depth %d: open a sampling event (%s)", depths[i],
			       strerror(errno));
			continue;
		}
		if (depths[i])
			perf_read_line(PERF_CPU_PMU_DIR "/rvperf/ctr_depth", buf,
				       sizeof(buf));
		if (!tap_ok(r1.samples >= WANT && r2.samples >= 2 * WANT,
			    "depth %d: %u and %u samples (%u and %u wanted within %.0f s)",
			    depths[i], r1.samples, r2.samples, WANT, 2 * WANT,
			    TIME_LIMIT))
			continue;
		/* The difference drops what an event costs once. */
		cost[i] = (r2.overhead - r1.overhead) * 1e9 /
			  (r2.samples - r1.samples);
		if (depths[i])
			tap_ok(atoi(buf) == depths[i], "the hart keeps %d entries (%s)",
			       depths[i], buf);
		tap_diag("overflow interrupt, branch stack depth %d: %.0f %s (%.2fx the interrupt without one)",
			 depths[i], cost[i], unit,
			 cost[0] > 0 ? cost[i] / cost[0] : 0.0);
	}
	set_depth(0);
	write_int(SYSCTL "perf_cpu_time_max_percent", 25);
	if (icount)
		tap_ok(cost[0] > 0 && cost[1] > cost[0] && cost[2] > cost[1] &&
		       cost[3] > cost[2],
		       "each deeper stack costs more: %.0f < %.0f < %.0f < %.0f",
		       cost[0], cost[1], cost[2], cost[3]);
	else
		tap_skip("needs -icount: without it the clock is the host's, and what else the host runs swamps the differences",
			 "each deeper stack costs more: %.0f < %.0f < %.0f < %.0f",
			 cost[0], cost[1], cost[2], cost[3]);
	return tap_done();
}
