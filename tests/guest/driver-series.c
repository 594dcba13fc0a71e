// SPDX-License-Identifier: BSD-2-Clause
/*
 * driver-series - the "cpu" PMU of a kernel built with the upstream-shaped
 * series (linux-driver/patches/): the stock riscv_pmu_sbi driver, with CTR
 * branch stacks as its helper.  Run instead of driver-pmu and driver-sbi,
 * which check rvperf's own driver.  What the series keeps from the stock
 * driver is checked as a user sees it: the perf_user_access sysctl decides
 * whether user space may read the cycle counter directly, and an event's
 * mmap page offers the counter to user space (cap_user_rdpmc, index).
 * What it adds: caps/branches, and branch-stack events on a CTR hart.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "perf_util.h"
#include "tap.h"

#define USER_ACCESS "/proc/sys/kernel/perf_user_access"

/* Whether reading the cycle CSR in a child process traps (SIGILL). */
static int rdcycle_traps(void)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		unsigned long v;

		__asm__ volatile("csrr %0, cycle" : "=r"(v));
		_exit(v ? 0 : 1);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFSIGNALED(status) && WTERMSIG(status) == SIGILL;
}

int main(void)
{
	struct perf_event_attr attr;
	struct perf_event_mmap_page *pc;
	char buf[128], old[16];
	struct stat st;
	int fd, depth;

	tap_ok(perf_read_line(PERF_CPU_PMU_DIR "/type", buf, sizeof(buf)) == 0 &&
	       atoi(buf) == 4,
	       "the cpu PMU takes PERF_TYPE_RAW (type %s)", buf);
	tap_ok(stat(PERF_CPU_PMU_DIR "/rvperf", &st) != 0,
	       "the cpu PMU is the stock riscv_pmu_sbi driver (no rvperf/)");
	tap_ok(perf_read_line(PERF_CPU_PMU_DIR "/format/event", buf, sizeof(buf)) == 0 &&
	       (!strcmp(buf, "config:0-47") || !strcmp(buf, "config:0-55")),
	       "raw events are config:0-47 or, with SBI v3.0, config:0-55 (%s)", buf);
	tap_ok(perf_read_line(PERF_CPU_PMU_DIR "/format/firmware", buf, sizeof(buf)) == 0 &&
	       !strcmp(buf, "config:62-63"),
	       "firmware events are selected by config:62-63 (%s)", buf);

	/* The stock driver's user-space access control, which rvperf's own
	 * driver lacked (it left cycle and instret open to every process). */
	if (tap_ok(perf_read_line(USER_ACCESS, old, sizeof(old)) == 0,
		   "the perf_user_access sysctl exists (%s)", old)) {
		tap_ok(perf_write_line(USER_ACCESS, "1") == 0 && rdcycle_traps() == 1,
		       "perf_user_access=1: rdcycle without an event traps (SIGILL)");
		tap_ok(perf_write_line(USER_ACCESS, "2") == 0 && rdcycle_traps() == 0,
		       "perf_user_access=2 (legacy): rdcycle is allowed");
		perf_write_line(USER_ACCESS, "1");
		perf_attr_init(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
		attr.exclude_kernel = 1;
		attr.exclude_hv = 1;
		fd = perf_event_open(&attr, 0, -1, -1, 0);
		pc = fd < 0 ? MAP_FAILED :
			mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_READ,
			     MAP_SHARED, fd, 0);
		/* The index is published while the event is on a counter. */
		if (fd >= 0)
			ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
		tap_ok(pc != MAP_FAILED && pc->cap_user_rdpmc && pc->index > 0,
		       "an mmapped cycles event offers its counter to user space "
		       "(cap_user_rdpmc %d, index %u)",
		       pc != MAP_FAILED ? (int)pc->cap_user_rdpmc : -1,
		       pc != MAP_FAILED ? pc->index : 0);
		if (pc != MAP_FAILED)
			munmap(pc, (size_t)sysconf(_SC_PAGESIZE));
		if (fd >= 0)
			close(fd);
		perf_write_line(USER_ACCESS, old);
	}

	/* What the series adds: caps/branches and branch stacks. */
	depth = perf_read_line(PERF_CPU_PMU_DIR "/caps/branches", buf,
			       sizeof(buf)) == 0 ? atoi(buf) : -1;
	perf_attr_init(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
	attr.exclude_kernel = 1;
	attr.sample_period = 100000;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_BRANCH_STACK;
	attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER;
	fd = perf_event_open(&attr, 0, -1, -1, 0);
	if (perf_hart_has_ctr()) {
		tap_ok(depth >= 16 && depth <= 256 && !(depth & (depth - 1)),
		       "caps/branches is the CTR depth, a power of two 16-256 (%d)",
		       depth);
		tap_ok(fd >= 0, "a user branch-stack event opens (%s)",
		       fd < 0 ? strerror(errno) : "ok");
	} else {
		tap_ok(depth < 0, "no caps/branches without CTR (%d)", depth);
		tap_ok(fd < 0 && errno == EOPNOTSUPP,
		       "a branch-stack event is refused without CTR (%s)",
		       fd < 0 ? strerror(errno) : "opened");
	}
	if (fd >= 0)
		close(fd);
	return tap_done();
}
