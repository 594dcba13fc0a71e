// SPDX-License-Identifier: BSD-2-Clause
/*
 * perf-count - counting with perf_event_open: user instructions over a loop
 * of known length.
 *
 * QEMU without -icount derives minstret from host time, so counts are only
 * monotonic, and a host that holds QEMU halfway through the short loop
 * makes it count more than the long one (seen under load): each loop is
 * then counted ROUNDS times and the least count of each compared.  Where
 * counts are exact (booted_with_exact_instret(): under -icount, where
 * scripts/guest/guest.py adds rvperf.icount=1 to the kernel command line,
 * or on our QEMU without it, rvperf.instret=exact) the loop's count must be
 * within 1 % of its known instruction count.  Under -icount QEMU's minstret
 * is its icount, one count for all harts: what another hart runs meanwhile
 * is counted too (a boot with two harts once added 3 % to the short loop),
 * so with more than one hart online the least of ROUNDS counts is taken
 * there as well; our QEMU's count without -icount is per hart.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "perf_util.h"
#include "tap.h"

#define ROUNDS	5

static int count_once(int fd, unsigned long iterations, uint64_t *count)
{
	if (ioctl(fd, PERF_EVENT_IOC_RESET, 0) ||
	    ioctl(fd, PERF_EVENT_IOC_ENABLE, 0))
		return -1;
	counted_loop(iterations);
	if (ioctl(fd, PERF_EVENT_IOC_DISABLE, 0))
		return -1;
	return read(fd, count, sizeof(*count)) == sizeof(*count) ? 0 : -1;
}

/* The least of @rounds counts of the loop. */
static int count_loop(int fd, unsigned long iterations, int rounds,
		      uint64_t *count)
{
	uint64_t c;
	int i;

	*count = UINT64_MAX;
	for (i = 0; i < rounds; i++) {
		if (count_once(fd, iterations, &c))
			return -1;
		if (c < *count)
			*count = c;
	}
	return 0;
}

int main(void)
{
	int exact = booted_with_exact_instret();
	int rounds = exact && (!booted_with_icount() ||
			       sysconf(_SC_NPROCESSORS_ONLN) == 1) ? 1 : ROUNDS;
	const unsigned long small = 1000000, large = 4000000;
	struct perf_event_attr attr;
	uint64_t c_small = 0, c_large = 0;
	int fd;

	perf_attr_init(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	fd = perf_event_open(&attr, 0, -1, -1, 0);
	if (!tap_ok(fd >= 0, "open a user-only instructions counter")) {
		tap_diag("perf_event_open: %s", strerror(errno));
		return tap_done();
	}
	tap_ok(count_loop(fd, small, rounds, &c_small) == 0,
	       "count %lu loop iterations", small);
	tap_ok(count_loop(fd, large, rounds, &c_large) == 0,
	       "count %lu loop iterations", large);
	tap_diag("instructions: %llu for %lu iterations, %llu for %lu",
		 (unsigned long long)c_small, small,
		 (unsigned long long)c_large, large);
	tap_ok(c_small > 0, "a running counter counts");
	tap_ok(c_large > c_small, "a longer loop counts more");
	if (exact) {
		/* Two instructions per iteration; the difference cancels the
		 * fixed cost of the ioctls around the loop. */
		double want = 2.0 * (double)(large - small);
		double got = (double)c_large - (double)c_small;
		double err = (got - want) / want;

		tap_ok(err > -0.01 && err < 0.01,
		       "loop count within 1%% of 2 per iteration (error %.4f%%)",
		       err * 100.0);
	} else {
		tap_skip("needs exact minstret: -icount, or our QEMU",
			 "loop count within 1%% of 2 per iteration");
	}
	close(fd);
	return tap_done();
}
