/* SPDX-License-Identifier: BSD-2-Clause */
/* Small helpers shared by the guest test programs (static riscv64 Linux). */
#ifndef RVPERF_GUEST_PERF_UTIL_H
#define RVPERF_GUEST_PERF_UTIL_H

#include <linux/perf_event.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static inline int perf_event_open(struct perf_event_attr *attr, pid_t pid,
				  int cpu, int group_fd, unsigned long flags)
{
	return (int)syscall(__NR_perf_event_open, attr, pid, cpu, group_fd,
			    flags);
}

/* The kernel command line, or "" where it cannot be read. */
static inline const char *kernel_cmdline(void)
{
	static char cmdline[1024];
	ssize_t n;
	int fd = open("/proc/cmdline", O_RDONLY);

	if (fd < 0)
		return "";
	n = read(fd, cmdline, sizeof(cmdline) - 1);
	close(fd);
	cmdline[n > 0 ? n : 0] = '\0';
	return cmdline;
}

/* True when the kernel command line says the guest runs under -icount
 * (scripts/guest/guest.py adds rvperf.icount=1). */
static inline int booted_with_icount(void)
{
	return strstr(kernel_cmdline(), "rvperf.icount=1") != NULL;
}

/* True when minstret and the instructions event count retired instructions
 * exactly: under -icount, or on a QEMU that counts them in translated code
 * without it (ours: scripts/guest/guest.py --exact-instret adds
 * rvperf.instret=exact).  Debian's QEMU without -icount counts host time. */
static inline int booted_with_exact_instret(void)
{
	return booted_with_icount() ||
	       strstr(kernel_cmdline(), "rvperf.instret=exact") != NULL;
}

/* The QEMU the guest runs on as major * 100 + minor (guest.py adds
 * rvperf.qemu=MAJOR.MINOR), 0 where the command line does not say. */
static inline int booted_qemu_version(void)
{
	const char *p = strstr(kernel_cmdline(), "rvperf.qemu=");
	int major = 0, minor = 0;

	if (!p || sscanf(p + 12, "%d.%d", &major, &minor) != 2)
		return 0;
	return major * 100 + minor;
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

/* Seconds on the guest's monotonic clock (instructions under -icount). */
static inline double perf_now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/*
 * Hands every record the kernel wrote to a perf ring buffer (the mmap of a
 * sampling event: a metadata page, then data_pages of data) since the last
 * call to fn, each copied out whole (a record may wrap around the end of
 * the data area), then gives the space back (data_tail), so that a
 * workload can run for as long as it takes without the ring filling up.
 * Returns how many records it handed over.
 */
static inline unsigned int
perf_ring_drain(void *ring, size_t data_pages,
		void (*fn)(const struct perf_event_header *, void *), void *ctx)
{
	size_t size = (size_t)sysconf(_SC_PAGESIZE) * data_pages;
	struct perf_event_mmap_page *meta = ring;
	uint64_t head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
	uint64_t pos = meta->data_tail;
	const char *data = (const char *)ring + sysconf(_SC_PAGESIZE);
	static char *buf;
	static size_t buf_len;
	unsigned int n = 0;

	while (head - pos >= sizeof(struct perf_event_header)) {
		struct perf_event_header h;
		size_t i;

		for (i = 0; i < sizeof(h); i++)
			((char *)&h)[i] = data[(pos + i) % size];
		if (h.size < sizeof(h) || h.size > head - pos)
			break;
		if (h.size > buf_len) {
			free(buf);
			buf_len = h.size;
			buf = malloc(buf_len);
			if (!buf) {
				buf_len = 0;
				break;
			}
		}
		for (i = 0; i < h.size; i++)
			buf[i] = data[(pos + i) % size];
		fn((const struct perf_event_header *)buf, ctx);
		n++;
		pos += h.size;
	}
	__atomic_store_n(&meta->data_tail, pos, __ATOMIC_RELEASE);
	return n;
}

#define PERF_CPU_PMU_DIR "/sys/bus/event_source/devices/cpu"

/* Whether the cpu PMU is rvperf's own driver (only it has rvperf/ in
 * sysfs), not the stock riscv_pmu_sbi of the upstream-shaped series. */
static inline int perf_pmu_is_rvperf(void)
{
	return access(PERF_CPU_PMU_DIR "/rvperf", F_OK) == 0;
}

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

/* Writes @value to a (sysfs or /proc/sys) file; 0 or -1. */
static inline int perf_write_line(const char *path, const char *value)
{
	FILE *f = fopen(path, "w");
	int rc;

	if (!f)
		return -1;
	rc = fputs(value, f) < 0;
	return fclose(f) || rc ? -1 : 0;
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

/*
 * A loop of conditional branches kept in a section of its own, so that a
 * branch record can be told to be one of its transfers
 * (perf_in_spin_section()): ctr-isolation's child, ctr-migrate's phases.
 */
extern const char __start_perfspin[], __stop_perfspin[];

static __attribute__((noinline, unused, section("perfspin")))
unsigned long perf_section_spin(unsigned long n)
{
	unsigned long acc = 0;

	while (n--) {
		if (n & 1)
			acc += n;
		else
			acc ^= n;
		__asm__ volatile("" : "+r"(acc));
	}
	return acc;
}

static inline int perf_in_spin_section(uint64_t addr)
{
	return addr >= (uint64_t)(uintptr_t)__start_perfspin &&
	       addr < (uint64_t)(uintptr_t)__stop_perfspin;
}

/*
 * Runs argv (argv[0] a path) with its stdout written to the file stdout_to
 * (when not NULL) and everything else it prints captured into out (len
 * bytes, NUL-terminated, the rest read and dropped); returns the exit
 * status, or -1 when it did not exit normally.
 */
static inline int perf_run_to(char *const argv[], const char *stdout_to,
			      char *out, size_t len)
{
	char sink[4096];
	size_t used = 0;
	int pipefd[2], status;
	ssize_t n;
	pid_t pid;

	if (pipe(pipefd))
		return -1;
	pid = fork();
	if (pid == 0) {
		FILE *f = stdout_to ? fopen(stdout_to, "w") : NULL;

		if (stdout_to && !f)
			_exit(126);
		dup2(f ? fileno(f) : pipefd[1], STDOUT_FILENO);
		dup2(pipefd[1], STDERR_FILENO);
		close(pipefd[0]);
		execv(argv[0], argv);
		_exit(127);
	}
	close(pipefd[1]);
	while (used < len - 1 &&
	       (n = read(pipefd[0], out + used, len - 1 - used)) > 0)
		used += (size_t)n;
	out[used] = '\0';
	while (read(pipefd[0], sink, sizeof(sink)) > 0)
		;
	close(pipefd[0]);
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* perf_run_to() with stdout captured too. */
static inline int perf_run(char *const argv[], char *out, size_t len)
{
	return perf_run_to(argv, NULL, out, len);
}

#endif /* RVPERF_GUEST_PERF_UTIL_H */
