// SPDX-License-Identifier: BSD-2-Clause
/*
 * driver-stress - thousands of random perf_event_attr through rvperf's
 * driver: each open either fails cleanly or gives an event that enables,
 * counts, reads and closes.  The guest tier fails on any kernel WARN, oops
 * or BUG, which is the real check here.  Branch-stack events get mostly
 * valid filters (on a hart with CTR they open, several stay open at once
 * with different filters, some with a ring buffer, so the driver's union,
 * multiplexing and interrupt paths all run); the rest are random bits.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "perf_util.h"
#include "tap.h"

#define ROUNDS	3000
#define KEEP	3	/* branch events left open across rounds */

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

/* A branch_sample_type: usually a filter CTR can honour, else noise. */
static uint64_t random_branch_type(void)
{
	static const uint64_t privs[] = {
		PERF_SAMPLE_BRANCH_USER, PERF_SAMPLE_BRANCH_KERNEL,
		PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_KERNEL,
		PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_KERNEL |
			PERF_SAMPLE_BRANCH_HV,
	};
	static const uint64_t kinds[] = {
		PERF_SAMPLE_BRANCH_ANY, PERF_SAMPLE_BRANCH_ANY_CALL,
		PERF_SAMPLE_BRANCH_ANY_RETURN, PERF_SAMPLE_BRANCH_IND_CALL,
		PERF_SAMPLE_BRANCH_COND, PERF_SAMPLE_BRANCH_IND_JUMP,
		PERF_SAMPLE_BRANCH_CALL,
	};
	static const uint64_t infos[] = {
		PERF_SAMPLE_BRANCH_NO_FLAGS, PERF_SAMPLE_BRANCH_NO_CYCLES,
		PERF_SAMPLE_BRANCH_TYPE_SAVE, PERF_SAMPLE_BRANCH_HW_INDEX,
		PERF_SAMPLE_BRANCH_PRIV_SAVE,
	};
	uint64_t r = rnd(), bst;
	unsigned int i;

	if (r % 4 == 0)
		return rnd() & 0x3ffff;
	bst = privs[(r >> 2) % 4];
	if ((r >> 4) % 5 == 0) {
		bst |= PERF_SAMPLE_BRANCH_CALL_STACK;
	} else {
		bst |= kinds[(r >> 8) % 7];
		for (i = 0; i < 7; i++)
			if ((r >> (12 + i)) % 4 == 0)
				bst |= kinds[i];
	}
	for (i = 0; i < 5; i++)
		if ((r >> (20 + i)) & 1)
			bst |= infos[i];
	return bst;
}

int main(void)
{
	static const uint32_t types[] = { PERF_TYPE_HARDWARE,
		PERF_TYPE_HW_CACHE, PERF_TYPE_RAW };
	unsigned int opened = 0, refused = 0, bad_errno = 0, brstack = 0;
	unsigned int br_opened = 0;
	size_t ring_len = (size_t)sysconf(_SC_PAGESIZE) * 3;
	struct { int fd; void *ring; } kept[KEEP];
	struct perf_event_attr attr;
	int i, k;

	for (k = 0; k < KEEP; k++)
		kept[k].fd = -1;

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
			attr.sample_type = PERF_SAMPLE_IP |
					   PERF_SAMPLE_BRANCH_STACK;
			attr.branch_sample_type = random_branch_type();
			/* mostly on events that can sample, so they open */
			if ((r >> 26) % 4) {
				attr.type = PERF_TYPE_HARDWARE;
				attr.config = (r >> 30) & 1;
			}
			if (!attr.sample_period && (r >> 24) % 4)
				attr.sample_period = 500 + rnd() % 20000;
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
		if (attr.branch_sample_type) {
			/* Keep it running next to the following rounds'. */
			br_opened++;
			k = (int)(br_opened % KEEP);
			if (kept[k].fd >= 0) {
				if (kept[k].ring != MAP_FAILED)
					munmap(kept[k].ring, ring_len);
				close(kept[k].fd);
			}
			kept[k].fd = fd;
			kept[k].ring = MAP_FAILED;
			if ((r >> 28) & 1)
				kept[k].ring = mmap(NULL, ring_len,
						    PROT_READ | PROT_WRITE,
						    MAP_SHARED, fd, 0);
			ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
			counted_loop(1000 + rnd() % 20000);
			continue;
		}
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
	for (k = 0; k < KEEP; k++) {
		if (kept[k].fd < 0)
			continue;
		if (kept[k].ring != MAP_FAILED)
			munmap(kept[k].ring, ring_len);
		close(kept[k].fd);
	}
	tap_diag("%d rounds: %u opened (%u with branch stacks), %u refused (%u branch stacks)",
		 ROUNDS, opened, br_opened, refused, brstack);
	if (perf_hart_has_ctr())
		tap_ok(br_opened > ROUNDS / 40,
		       "the hart has CTR: many random branch-stack events open (%u)",
		       br_opened);
	else
		tap_ok(br_opened == 0,
		       "no CTR: every branch-stack event is refused (%u opened)",
		       br_opened);
	tap_ok(opened > ROUNDS / 10, "many random events open (%u)", opened);
	tap_ok(bad_errno == 0,
	       "refusals use the usual error numbers (%u others)", bad_errno);
	return tap_done();
}
