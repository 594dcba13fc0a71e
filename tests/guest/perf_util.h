/* SPDX-License-Identifier: BSD-2-Clause */
/* Small helpers shared by the guest test programs (static riscv64 Linux). */
#ifndef RVPERF_GUEST_PERF_UTIL_H
#define RVPERF_GUEST_PERF_UTIL_H

#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
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

#define PERF_CPU_PMU_DIR "/sys/bus/event_source/devices/cpu"

/* The first line of a (sysfs) file, without its newline; 0 or -1. */
static inline int perf_read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	char *nl;

	if (!f)
		return -1;
	if (!fgets(buf, (int)len, f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	nl = strchr(buf, '\n');
	if (nl)
		*nl = '\0';
	return 0;
}

/*
 * Whether hart 0 has CTR (Smctr or Ssctr), as the device tree says: Linux
 * 6.12 has no extension id for them, so /proc/cpuinfo would not.
 */
static inline int perf_hart_has_ctr(void)
{
	static const char *const files[] = {
		"/proc/device-tree/cpus/cpu@0/riscv,isa-extensions",
		"/proc/device-tree/cpus/cpu@0/riscv,isa",
	};
	char buf[4096];
	unsigned int i;

	for (i = 0; i < 2; i++) {
		FILE *f = fopen(files[i], "r");
		size_t n, j;

		if (!f)
			continue;
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
		for (j = 0; j < n; j++)	/* NUL-separated strings */
			if (buf[j] == '\0')
				buf[j] = ' ';
		buf[n] = '\0';
		if (strstr(buf, "smctr") || strstr(buf, "ssctr"))
			return 1;
	}
	return 0;
}

#endif /* RVPERF_GUEST_PERF_UTIL_H */
