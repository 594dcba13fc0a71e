// SPDX-License-Identifier: BSD-2-Clause
/*
 * ctr-isolation - no task sees another task's branch records.
 *
 * Two processes take turns on one hart.  The child records its own
 * transfers with a branch event of its own (-j any,u) while it runs a
 * loop kept in a section of its own (perf_section_spin()), then blocks.  The
 * parent has an event that has run before and is disabled; once the
 * child blocked it re-enables it mid-timeslice (ioctl(ENABLE), what perf
 * record --control does): the first sample's branch stack must hold
 * nothing of the child's loop.  Skips on a hart without CTR.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "perf_util.h"
#include "tap.h"

#define DATA_PAGES	16
#define TIME_LIMIT	20.0

static int open_branch_event(uint64_t period)
{
	struct perf_event_attr attr;

	perf_attr_init(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	attr.sample_period = period;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_BRANCH_STACK;
	attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER;
	return perf_event_open(&attr, 0, -1, -1, 0);
}

static void pin_cpu0(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/* Records until the pipe says stop; tells the parent when it is done. */
static void child(int done_fd, int stop_fd)
{
	int fd = open_branch_event(10000000);
	char c = 1;

	if (fd < 0)
		_exit(2);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	perf_section_spin(200000);
	/* the event stays enabled: it is switched out, not removed */
	if (write(done_fd, &c, 1) != 1)
		_exit(3);
	if (read(stop_fd, &c, 1) < 0)
		_exit(4);
	_exit(0);
}

struct first {
	int have;
	uint64_t nr, foreign;
};

static void on_record(const struct perf_event_header *h, void *p)
{
	struct first *f = p;
	const uint64_t *v = (const void *)(h + 1);
	const struct perf_branch_entry *br = (const void *)(v + 2);
	uint64_t i;

	if (h->type != PERF_RECORD_SAMPLE || f->have)
		return;
	f->have = 1;
	f->nr = v[1];
	for (i = 0; i < f->nr; i++)
		if (perf_in_spin_section(br[i].from) || perf_in_spin_section(br[i].to))
			f->foreign++;
}

static void discard(const struct perf_event_header *h, void *p)
{
	(void)h;
	(void)p;
}

int main(void)
{
	size_t len = (size_t)sysconf(_SC_PAGESIZE) * (DATA_PAGES + 1);
	int done[2], stop[2], fd, status;
	struct first f = { 0 };
	volatile unsigned long sink = 0;
	double t0;
	void *ring;
	pid_t pid;
	char c;

	if (!perf_hart_has_ctr()) {
		tap_skip("the hart has no Smctr/Ssctr (device tree)",
			 "does not apply here");
		return tap_done();
	}
	pin_cpu0();
	fd = open_branch_event(1);
	ring = fd < 0 ? MAP_FAILED :
	       mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (!tap_ok(ring != MAP_FAILED && !pipe(done) && !pipe(stop),
		    "open a sampling -j any,u event and its ring")) {
		tap_skip("no event", "ioctl(ENABLE) mid-timeslice");
		return tap_done();
	}
	/* It has run before: not the first add of a new event. */
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	sink += perf_section_spin(0);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	perf_ring_drain(ring, DATA_PAGES, discard, NULL);

	pid = fork();
	if (pid == 0)
		child(done[1], stop[0]);
	if (read(done[0], &c, 1) != 1)
		tap_diag("the child did not report back");
	/* The child blocked: this timeslice is ours.  Enable mid-slice. */
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	t0 = perf_now_s();
	while (!f.have && perf_now_s() - t0 < TIME_LIMIT) {
		counted_loop(50);
		perf_ring_drain(ring, DATA_PAGES, on_record, &f);
	}
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (write(stop[1], &c, 1) != 1)
		tap_diag("could not release the child");
	waitpid(pid, &status, 0);
	tap_diag("first sample after the enable: %llu entries, %llu from the child's loop; child exit %d",
		 (unsigned long long)f.nr, (unsigned long long)f.foreign,
		 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	tap_ok(f.have && !f.foreign,
	       "ioctl(ENABLE) mid-timeslice: the first sample holds none of the other task's records");
	return tap_done();
}
