// SPDX-License-Identifier: BSD-2-Clause
/*
 * perf-sample - sampling on cycles delivers samples through the ring buffer,
 * and a user-only event's samples all lie in this program's text.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "perf_util.h"
#include "tap.h"

#define DATA_PAGES 16

extern char __executable_start[], etext[];

int main(void)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t len = (size_t)page * (DATA_PAGES + 1);
	struct perf_event_mmap_page *meta;
	struct perf_event_attr attr;
	unsigned int samples = 0, outside = 0, other = 0;
	uint64_t head, pos;
	char *data;
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
	meta = ring;
	data = (char *)ring + page;

	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	counted_loop(200000000);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);

	head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
	for (pos = meta->data_tail; pos < head;) {
		struct perf_event_header hdr;
		size_t off = pos % ((size_t)page * DATA_PAGES);

		/* Records may wrap; the header itself is 8-byte aligned and
		 * never does. */
		memcpy(&hdr, data + off, sizeof(hdr));
		if (hdr.size == 0)
			break;
		if (hdr.type == PERF_RECORD_SAMPLE) {
			uint64_t ip;

			memcpy(&ip, data + off + sizeof(hdr), sizeof(ip));
			samples++;
			if (ip < (uint64_t)(uintptr_t)__executable_start ||
			    ip >= (uint64_t)(uintptr_t)etext)
				outside++;
		} else {
			other++;
		}
		pos += hdr.size;
	}
	tap_diag("%u samples, %u outside the program text, %u other records",
		 samples, outside, other);
	tap_ok(samples > 0, "sampling on cycles delivers samples");
	tap_ok(samples > 0 && outside == 0,
	       "every sample of a user-only event is in the program's text");
	munmap(ring, len);
	close(fd);
	return tap_done();
}
