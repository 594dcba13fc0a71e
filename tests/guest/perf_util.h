/* SPDX-License-Identifier: BSD-2-Clause */
/* Small helpers shared by the guest test programs (static riscv64 Linux). */
#ifndef RVPERF_GUEST_PERF_UTIL_H
#define RVPERF_GUEST_PERF_UTIL_H

#include <linux/perf_event.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static inline int perf_event_open(struct perf_event_attr *attr, pid_t pid,
				  int cpu, int group_fd, unsigned long flags)
{
	return (int)syscall(__NR_perf_event_open, attr, pid, cpu, group_fd,
			    flags);
}

static inline void perf_attr_init(struct perf_event_attr *attr, uint32_t type,
				  uint64_t config)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = type;
	attr->config = config;
	attr->disabled = 1;
	attr->exclude_kernel = 1;
	attr->exclude_hv = 1;
}

/*
 * Exactly two user instructions per iteration (addi, bnez), so an
 * instruction count over it is known up to the few instructions around it.
 */
static inline void counted_loop(unsigned long iterations)
{
	if (!iterations)
		return;
	__asm__ volatile("1:	addi %0, %0, -1\n"
			 "	bnez %0, 1b\n"
			 : "+r"(iterations) : : "memory");
}

#endif /* RVPERF_GUEST_PERF_UTIL_H */
