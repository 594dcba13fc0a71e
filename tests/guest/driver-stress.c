// SPDX-License-Identifier: BSD-2-Clause
/*
 * driver-stress - thousands of random perf_event_attr through rvperf's
 * driver: each open either fails cleanly or gives an event that enables,
 * counts, reads and closes.  The guest tier fails on any kernel WARN, oops
 * or BUG, which is the real check here.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>

#include "perf_util.h"
#include "tap.h"

#define ROUNDS	3000

static uint64_t state = 0x9e3779b97f4a7c15ULL;

static uint64_t rnd(void)
{
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return state;
}

static uint64_t random_config(uint32_t type)
{
	switch (type) {
	case PERF_TYPE_HARDWARE:
		return rnd() % 12;
	case PERF_TYPE_HW_CACHE:
		return (rnd() % 8) | (rnd() % 4) << 8 | (rnd() % 3) << 16;
	default:
		switch (rnd() % 4) {
		case 0:
			return rnd() & 0xffff;
		case 1:
			return (2ULL << 62) | (rnd() % 24);
		case 2:
			return (3ULL << 62) | (rnd() & 0xffff);
		default:
			return rnd();
		}
	}
}

int main(void)
{
	static const uint32_t types[] = { PERF_TYPE_HARDWARE,
		PERF_TYPE_HW_CACHE, PERF_TYPE_RAW };
	unsigned int opened = 0, refused = 0, bad_errno = 0, brstack = 0;
	struct perf_event_attr attr;
	int i;

	for (i = 0; i < ROUNDS; i++) {
		uint64_t r = rnd(), v;
		int fd, sib = -1;

		perf_attr_init(&attr, types[r % 3], 0);
		attr.config = random_config(attr.type);
		attr.exclude_user = (r >> 8) & 1;
		attr.exclude_kernel = (r >> 9) & 1;
		attr.exclude_hv = (r >> 10) & 1;
		attr.exclude_idle = (r >> 11) & 1;
		attr.exclude_host = (r >> 12) & 1;
		attr.exclude_guest = (r >> 13) & 1;
		attr.pinned = (r >> 14) & 1;
		attr.inherit = (r >> 15) & 1;
		if ((r >> 16) & 1)
			attr.sample_period = 1000 + rnd() % 100000;
		if (((r >> 17) & 7) == 0) {
			attr.sample_type = PERF_SAMPLE_BRANCH_STACK;
			attr.branch_sample_type = rnd() & 0x3ffff;
		}
		fd = perf_event_open(&attr, 0, -1, -1, 0);
		if (fd < 0) {
			refused++;
			if (errno != EINVAL && errno != ENOENT &&
			    errno != EOPNOTSUPP && errno != EACCES &&
			    errno != EPERM && errno != E2BIG) {
				if (bad_errno++ < 5)
					tap_diag("config %#llx type %u: %s",
						 (unsigned long long)attr.config,
						 attr.type, strerror(errno));
			}
			if (attr.branch_sample_type && errno == EOPNOTSUPP)
				brstack++;
			continue;
		}
		opened++;
		if ((r >> 20) & 1) {
			/* A sibling in the same group. */
			attr.config = random_config(attr.type);
			attr.sample_period = 0;
			attr.sample_type = 0;
			attr.branch_sample_type = 0;
			attr.pinned = 0;
			sib = perf_event_open(&attr, 0, -1, fd, 0);
		}
		ioctl(fd, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
		counted_loop(1000 + rnd() % 20000);
		if (read(fd, &v, sizeof(v)) < 0)
			v = 0;
		ioctl(fd, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
		if (sib >= 0)
			close(sib);
		close(fd);
	}
	tap_diag("%d rounds: %u opened, %u refused (%u branch stacks)",
		 ROUNDS, opened, refused, brstack);
	tap_ok(opened > ROUNDS / 10, "many random events open (%u)", opened);
	tap_ok(bad_errno == 0,
	       "refusals use the usual error numbers (%u others)", bad_errno);
	return tap_done();
}
