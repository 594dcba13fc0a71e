// SPDX-License-Identifier: BSD-2-Clause
/*
 * ctr-migrate - a task's branch event follows it between harts and
 * survives a hart going offline and coming back.
 *
 * One process with a -j any,u sampling event runs a loop kept in a section
 * of its own (perf_section_spin()) in phases: on hart 0, moved to hart 1,
 * then hart 1 is taken offline (the task is pushed back to hart 0) and brought online
 * again, and the task runs on it once more.  Each phase must give samples
 * taken on its hart whose branch stacks hold the loop's transfers: the
 * hart that came back must have had its CTR depth and control register set
 * up again (the driver's hotplug callback), not left as reset made them.
 * Needs two harts (guest.py --smp 2) and CPU hotplug; skips without them,
 * and on a hart without CTR.  Throttling is off while it runs (earlier
 * tests' slow handlers lowered the allowed sample rate, and a throttled
 * event takes no sample until the next tick, longer than a phase).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "perf_util.h"
#include "tap.h"

#define DATA_PAGES	32
#define PERIOD		100000
#define ROUNDS		800000
#define MAX_CHUNKS	80	/* of ROUNDS / 8 each, at most, in a phase */
#define MAX_RATE	"/proc/sys/kernel/perf_event_max_sample_rate"
#define MAX_PERCENT	"/proc/sys/kernel/perf_cpu_time_max_percent"
#define CPU1_ONLINE	"/sys/devices/system/cpu/cpu1/online"

struct phase {
	int want_cpu;
	unsigned int samples, on_cpu, with_loop, kernel_addr, empty;
	uint64_t count;		/* what the event counted meanwhile */
};

static void on_record(const struct perf_event_header *h, void *p)
{
	struct phase *ph = p;
	const uint64_t *v = (const void *)(h + 1);
	/* ip, cpu + reserved, nr, entries */
	uint32_t cpu = (uint32_t)v[1];
	uint64_t nr = v[2], i;
	const struct perf_branch_entry *br = (const void *)(v + 3);
	int loop = 0;

	if (h->type != PERF_RECORD_SAMPLE)
		return;
	ph->samples++;
	if ((int)cpu != ph->want_cpu)
		return;
	ph->on_cpu++;
	ph->empty += !nr;
	for (i = 0; i < nr; i++) {
		if (perf_in_spin_section(br[i].from) || perf_in_spin_section(br[i].to))
			loop = 1;
		if ((int64_t)br[i].from < 0 || (int64_t)br[i].to < 0)
			ph->kernel_addr++;
	}
	ph->with_loop += loop;
}

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

static volatile unsigned long sink;

/* Runs the loop on @cpu with the event enabled; counts its samples. */
static void run_phase(int fd, void *ring, struct phase *ph, int cpu)
{
	uint64_t before = 0, after = 0;
	int i;

	memset(ph, 0, sizeof(*ph));
	ph->want_cpu = cpu;
	perf_ring_drain(ring, DATA_PAGES, on_record, &(struct phase){ .want_cpu = -1 });
	if (read(fd, &before, sizeof(before)) != sizeof(before))
		before = 0;
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	/*
	 * Without -icount QEMU raises the overflow after a stretch of
	 * virtual time, not of instructions: the eight chunks gave a fast
	 * host 3 or 4 samples, sometimes 1.  The phase goes on, up to ten
	 * times as long, until it has a few more samples than phase_ok()
	 * asks for; with -icount eight chunks give dozens.
	 */
	for (i = 0; i < 8 || (ph->on_cpu < 6 && i < MAX_CHUNKS); i++) {
		sink += perf_section_spin(ROUNDS / 8);
		perf_ring_drain(ring, DATA_PAGES, on_record, ph);
	}
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	perf_ring_drain(ring, DATA_PAGES, on_record, ph);
	if (read(fd, &after, sizeof(after)) == sizeof(after))
		ph->count = after - before;
	tap_diag("phase on hart %d: %llu instructions counted, %u samples, %u on it, %u with loop records, %u empty, %u kernel addresses",
		 cpu, (unsigned long long)ph->count, ph->samples, ph->on_cpu,
		 ph->with_loop, ph->empty, ph->kernel_addr);
}

static int phase_ok(const struct phase *ph)
{
	return ph->with_loop >= 3 && ph->with_loop * 4 >= ph->on_cpu &&
	       !ph->kernel_addr;
}

int main(void)
{
	size_t len = (size_t)sysconf(_SC_PAGESIZE) * (DATA_PAGES + 1);
	struct perf_event_attr attr;
	struct phase ph;
	char online[8], rate[32], percent[32];
	void *ring;
	int fd;

	if (!perf_hart_has_ctr()) {
		tap_skip("the hart has no Smctr/Ssctr (device tree)", "does not apply here");
		return tap_done();
	}
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		tap_skip("one hart online (guest.py --smp 2 runs it)", "does not apply here");
		return tap_done();
	}
	pin(0);
	if (perf_read_line(MAX_RATE, rate, sizeof(rate)) ||
	    perf_read_line(MAX_PERCENT, percent, sizeof(percent)))
		rate[0] = percent[0] = '\0';
	perf_write_line(MAX_PERCENT, "0");
	perf_write_line(MAX_RATE, "100000");
	perf_attr_init(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	attr.sample_period = PERIOD;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_CPU | PERF_SAMPLE_BRANCH_STACK;
	attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER;
	fd = perf_event_open(&attr, 0, -1, -1, 0);
	ring = fd < 0 ? MAP_FAILED :
	       mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (!tap_ok(ring != MAP_FAILED, "open a sampling -j any,u event and its ring (%s)",
		    fd < 0 ? strerror(errno) : "ok"))
		goto out;

	run_phase(fd, ring, &ph, 0);
	tap_ok(phase_ok(&ph), "on hart 0: samples there hold the loop's transfers, no kernel address");
	if (!tap_ok(pin(1) == 0, "the task moves to hart 1"))
		goto out;
	run_phase(fd, ring, &ph, 1);
	tap_ok(ph.count > 0, "moved to hart 1: the event counts there (%llu instructions)",
	       (unsigned long long)ph.count);
	/*
	 * An earlier test's counting event can have left hart 1's counter with
	 * QEMU's stale overflow leftover (perf-sample checks that case; the
	 * firmware's start_far keeps QEMU from making one).
	 */
	tap_ok(phase_ok(&ph),
	       "moved to hart 1: the event followed, its samples hold the loop's transfers");

	if (perf_read_line(CPU1_ONLINE, online, sizeof(online)) != 0) {
		tap_skip("no " CPU1_ONLINE " (no CPU hotplug)", "hart 1 offline and back");
		goto out;
	}
	if (perf_write_line(CPU1_ONLINE, "0")) {
		tap_ok(0, "hart 1 goes offline under the task (%s)", strerror(errno));
		goto out;
	}
	tap_ok(1, "hart 1 goes offline under the task");
	run_phase(fd, ring, &ph, 0);
	tap_ok(phase_ok(&ph), "pushed back to hart 0: samples there hold the loop's transfers");
	tap_ok(perf_write_line(CPU1_ONLINE, "1") == 0 && pin(1) == 0,
	       "hart 1 comes back and the task moves there again");
	run_phase(fd, ring, &ph, 1);
	tap_ok(phase_ok(&ph),
	       "on hart 1 after it came back: CTR records again, the loop's transfers are in the samples");
out:
	if (fd >= 0)
		close(fd);
	if (rate[0]) {
		perf_write_line(MAX_PERCENT, percent);
		perf_write_line(MAX_RATE, rate);
	}
	return tap_done();
}
