// SPDX-License-Identifier: BSD-2-Clause
/*
 * perf-brstack - what the kernel's PMU driver says to a branch-stack event.
 *
 * Baseline for the stock SBI PMU driver: it has no branch-stack support and
 * must refuse with EOPNOTSUPP (not crash, not silently sample without
 * stacks).  linux-driver/ changes this expectation when it replaces the
 * stock driver.
 */
#include <errno.h>
#include <string.h>

#include "perf_util.h"
#include "tap.h"

int main(void)
{
	struct perf_event_attr attr;
	int fd, err;

	perf_attr_init(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
	attr.sample_period = 100000;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_BRANCH_STACK;
	attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY |
				  PERF_SAMPLE_BRANCH_USER;
	fd = perf_event_open(&attr, 0, -1, -1, 0);
	err = errno;
	tap_ok(fd < 0, "a branch-stack event is refused by the stock driver");
	tap_ok(fd < 0 && err == EOPNOTSUPP,
	       "the refusal is EOPNOTSUPP (got %s)",
	       fd < 0 ? strerror(err) : "success");
	if (fd >= 0)
		close(fd);

	/* The same event without a branch stack opens: the refusal is about
	 * the stack, not the event. */
	attr.sample_type = PERF_SAMPLE_IP;
	attr.branch_sample_type = 0;
	fd = perf_event_open(&attr, 0, -1, -1, 0);
	tap_ok(fd >= 0, "the same event without a branch stack opens");
	if (fd >= 0)
		close(fd);
	return tap_done();
}
