// SPDX-License-Identifier: BSD-2-Clause
/*
 * perf-brstack - what the kernel's PMU driver says to a branch-stack event.
 *
 * On a hart without CTR (Debian's QEMU 7.2) the driver has no branch
 * stacks to give and must refuse with EOPNOTSUPP (not crash, not silently
 * sample without stacks).  On a hart with CTR (the device tree names Smctr
 * or Ssctr: check-e2e with a CTR-capable QEMU) the event must open;
 * ctr-brstack checks what it records.
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
	if (perf_hart_has_ctr()) {
		tap_ok(fd >= 0, "the hart has CTR: a branch-stack event opens (%s)",
		       fd < 0 ? strerror(err) : "success");
		tap_skip("CTR present", "no refusal to check on a hart with CTR");
	} else {
		tap_ok(fd < 0, "no CTR: a branch-stack event is refused");
		tap_ok(fd < 0 && err == EOPNOTSUPP,
		       "the refusal is EOPNOTSUPP (got %s)",
		       fd < 0 ? strerror(err) : "success");
	}
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
