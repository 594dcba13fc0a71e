// SPDX-License-Identifier: BSD-2-Clause
/*
 * kvm-pmu - KVM's guest PMU on a kernel built with the upstream-shaped series
 * (linux-driver/patches/).  KVM offers its guests the SBI PMU extension (with
 * the snapshot page and, on a host with Sscofpmf and Ssaia, overflow
 * interrupts) on top of the host's riscv_pmu_sbi, so this shows that the
 * series keeps that working: the series kernel is the KVM host, and a guest
 * booted from the same Image, or from rvperf's own driver's kernel, counts
 * and samples with the real perf.
 *
 * The program is its own minimal VMM and its own guest's init, so the check
 * needs nothing beyond the initramfs it already runs from:
 *   kvm-pmu [IMAGE [SECONDS]]   (in the outer guest; /boot/Image, 300 s)
 *	creates a VM with one vCPU, 128 MiB of RAM, the kernel, a device tree
 *	it writes itself (the ISA extensions KVM enables for the vCPU, no
 *	devices: the console is SBI DBCN, served here) and an initramfs it
 *	writes itself (this program as /init, /bin/perf), runs it to its
 *	power-off and checks what its init printed;
 *   as PID 1 (in the nested guest)
 *	runs perf stat -e instructions and perf record -e instructions -c N on
 *	a loop of known length, and prints what it saw: the counts, the
 *	samples, the PMU interrupts, whether the driver took the snapshot path.
 * Output of the nested guest is passed on as TAP comments ("# | ...").
 *
 * The nested guest's driver takes counter values and the overflow bitmap
 * from the snapshot page when KVM offers it (SBI v2.0 and later, as the
 * kernels here do; its log says "SBI PMU snapshot detected", rvperf's own
 * driver's "..., snapshot"), and a VS-mode scountovf reads 0, so samples
 * in the nested guest are overflow interrupts whose counters it found in
 * the snapshot's overflow bitmap and restarted from it.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/kvm.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/klog.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "perf_util.h"
#include "tap.h"

/* Register ids newer than the cross toolchain's uapi headers (Linux 6.1). */
#define REG_U64			(KVM_REG_RISCV | KVM_REG_SIZE_U64)
#define REG_CORE(i)		(REG_U64 | (0x02ULL << 24) | (i))
#define REG_TIMER_FREQ		(REG_U64 | (0x04ULL << 24) | 0)
#define REG_ISA_EXT(i)		(REG_U64 | (0x07ULL << 24) | (i))
#define REG_SBI_EXT(i)		(REG_U64 | (0x08ULL << 24) | (i))
#define SBI_EXT_ID_DBCN		9	/* enum KVM_RISCV_SBI_EXT_ID */
#define CORE_PC			0	/* struct kvm_riscv_core, in longs */
#define CORE_A0			10
#define CORE_A1			11

#define SBI_EXT_DBCN		0x4442434eUL
#define SBI_ERR_NOT_SUPPORTED	(-2L)

#define RAM_BASE	0x80000000UL
#define RAM_SIZE	(128UL << 20)
#define KERNEL_OFF	(2UL << 20)	/* 2 MiB aligned, as RV64 needs */
#define INITRD_OFF	(64UL << 20)
#define FDT_OFF		(RAM_SIZE - (64UL << 10))
/* Seconds of the outer guest's clock, unless given; the tier bounds real time. */
#define NESTED_TIMEOUT	300

/* The loop the nested guest counts: 2 instructions per iteration. */
#define SPIN_ITERATIONS	10000000UL
#define SAMPLE_PERIOD	100000UL

/*
 * Names of enum KVM_RISCV_ISA_EXT_ID (Linux 6.12's uapi; later ids are not
 * offered to the nested guest, which only needs these).  NULL: not put in
 * the device tree (H cannot be nested; Zicbom/Zicboz would need block
 * sizes).
 */
static const char *const isa_ext_names[] = {
	"a", "c", "d", "f", NULL, "i", "m", "svpbmt", "sstc", "svinval",
	"zihintpause", NULL, NULL, "zbb", "ssaia", NULL, "svnapot", "zba",
	"zbs", "zicntr", "zicsr", "zifencei", "zihpm", "smstateen", "zicond",
	"zbc", "zbkb", "zbkc", "zbkx", "zknd", "zkne", "zknh", "zkr", "zksed",
	"zksh", "zkt", NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
	NULL, "zfh", "zfhmin", "zihintntl", NULL, NULL, "zfa", "ztso", "zacas",
	"sscofpmf",
};

/* ---- the nested guest: PID 1 --------------------------------------- */

static void result(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	printf("kvm-pmu-result: ");
	vprintf(fmt, ap);
	putchar('\n');
	va_end(ap);
	fflush(stdout);
}

/* Runs argv with stdout and stderr into the file out; its exit status. */
static int run(char *const argv[], const char *out)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execv(argv[0], argv);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

static char *slurp(const char *path)
{
	static char buf[65536];
	ssize_t n;
	int fd = open(path, O_RDONLY);

	buf[0] = '\0';
	if (fd < 0)
		return buf;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

/* The count of the PMU's overflow interrupt in /proc/interrupts. */
static unsigned long pmu_irqs(void)
{
	char *line = slurp("/proc/interrupts");

	while (line && *line) {
		char *end = strchr(line, '\n');

		if (end)
			*end = '\0';
		/* riscv_pmu_sbi's name, or rvperf's own driver's. */
		if (strstr(line, "riscv-pmu") || strstr(line, "rvperf-pmu")) {
			char *colon = strchr(line, ':');

			return colon ? strtoul(colon + 1, NULL, 10) : 0;
		}
		line = end ? end + 1 : NULL;
	}
	return 0;
}

static void print_file(const char *path)
{
	char *text = slurp(path), *line = text;

	while (line && *line) {
		char *end = strchr(line, '\n');

		if (end)
			*end = '\0';
		printf("  %s\n", line);
		line = end ? end + 1 : NULL;
	}
}

/*
 * The number in text just before the first "key", after the last "after"
 * before it on the same line (the line's start when after is ""); 0 if none.
 */
static unsigned long line_value(char *text, const char *key, const char *after)
{
	char *p = strstr(text, key);

	if (!p)
		return 0;
	while (p > text && p[-1] != '\n' && (!*after || p[-1] != *after))
		p--;
	return strtoul(p, NULL, 10);
}

static int nested_init(void)
{
	static char log[1 << 16];
	char spin[32], period[32], *own;
	unsigned long irqs;
	int n;

	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	mount("tmpfs", "/tmp", "tmpfs", 0, NULL);

	n = klogctl(3, log, sizeof(log) - 1);	/* SYSLOG_ACTION_READ_ALL */
	log[n > 0 ? n : 0] = '\0';
	own = strstr(log, "rvperf-pmu: SBI v");
	if (own) {
		/* rvperf's own driver says what it uses in one line. */
		char *eol = strchr(own, '\n');

		if (eol)
			*eol = '\0';
		result("snapshot=%d", strstr(own, ", snapshot") != NULL);
		result("sampling=%d", strstr(own, ", sampling") != NULL);
	} else {
		result("snapshot=%d", strstr(log, "SBI PMU snapshot detected") != NULL);
		result("sampling=%d", strstr(log, "Perf sampling/filtering is not supported") == NULL);
	}

	snprintf(spin, sizeof(spin), "%lu", SPIN_ITERATIONS);
	snprintf(period, sizeof(period), "%lu", SAMPLE_PERIOD);
	{
		char *argv[] = { "/bin/perf", "stat", "-x,", "-e", "instructions",
				 "/init", "spin", spin, NULL };

		result("stat_status=%d", run(argv, "/tmp/stat.out"));
		print_file("/tmp/stat.out");
		result("count=%lu", line_value(slurp("/tmp/stat.out"),
					       ",instructions", ""));
	}
	irqs = pmu_irqs();
	{
		char *argv[] = { "/bin/perf", "record", "-e", "instructions", "-c",
				 period, "-o", "/tmp/perf.data", "/init", "spin",
				 spin, NULL };

		result("record_status=%d", run(argv, "/tmp/record.out"));
		print_file("/tmp/record.out");
		result("samples=%lu", line_value(slurp("/tmp/record.out"),
						 " samples)", "("));
	}
	result("pmu_irqs=%lu", pmu_irqs() - irqs);
	result("done");
	reboot(RB_POWER_OFF);
	return 0;
}

/* ---- the outer guest: the VMM --------------------------------------- */

/* A flattened device tree, written front to back (version 17). */
struct fdt {
	uint8_t st[8192];
	char strs[1024];
	size_t st_len, strs_len;
};

static void be32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static void fdt_u32(struct fdt *f, uint32_t v)
{
	be32(f->st + f->st_len, v);
	f->st_len += 4;
}

static void fdt_bytes(struct fdt *f, const void *data, size_t len)
{
	memcpy(f->st + f->st_len, data, len);
	f->st_len += len;
	while (f->st_len % 4)
		f->st[f->st_len++] = 0;
}

static void fdt_begin(struct fdt *f, const char *name)
{
	fdt_u32(f, 1);
	fdt_bytes(f, name, strlen(name) + 1);
}

static void fdt_end(struct fdt *f)
{
	fdt_u32(f, 2);
}

static void fdt_prop(struct fdt *f, const char *name, const void *v, size_t len)
{
	size_t off = f->strs_len;

	memcpy(f->strs + off, name, strlen(name) + 1);
	f->strs_len += strlen(name) + 1;
	fdt_u32(f, 3);
	fdt_u32(f, len);
	fdt_u32(f, off);
	fdt_bytes(f, v, len);
}

static void fdt_str(struct fdt *f, const char *name, const char *s)
{
	fdt_prop(f, name, s, strlen(s) + 1);
}

static void fdt_cells(struct fdt *f, const char *name, int n, ...)
{
	uint8_t v[32];
	va_list ap;
	int i;

	va_start(ap, n);
	for (i = 0; i < n; i++)
		be32(v + 4 * i, va_arg(ap, uint32_t));
	va_end(ap);
	fdt_prop(f, name, v, 4 * n);
}

/* Writes the blob to dst; its size. */
static size_t fdt_finish(struct fdt *f, uint8_t *dst)
{
	size_t st_off = 40 + 16, strs_off;

	fdt_u32(f, 9);
	strs_off = st_off + f->st_len;
	memset(dst, 0, st_off);
	be32(dst, 0xd00dfeed);
	be32(dst + 4, strs_off + f->strs_len);
	be32(dst + 8, st_off);
	be32(dst + 12, strs_off);
	be32(dst + 16, 40);
	be32(dst + 20, 17);
	be32(dst + 24, 16);
	be32(dst + 32, f->strs_len);
	be32(dst + 36, f->st_len);
	memcpy(dst + st_off, f->st, f->st_len);
	memcpy(dst + strs_off, f->strs, f->strs_len);
	return strs_off + f->strs_len;
}

/* A newc cpio archive, written at p; each call returns the new end. */
static uint8_t *cpio_entry(uint8_t *p, const char *name, unsigned int mode,
			   unsigned int rdev_major, unsigned int rdev_minor,
			   const void *data, size_t size)
{
	static unsigned int ino = 1;
	uint8_t *start = p;

	p += sprintf((char *)p, "070701%08X%08X%08X%08X%08X%08X%08zX%08X%08X"
		     "%08X%08X%08zX%08X", ino++, mode, 0, 0, 1, 0, size, 0, 0,
		     rdev_major, rdev_minor, strlen(name) + 1, 0);
	memcpy(p, name, strlen(name) + 1);
	p += strlen(name) + 1;
	while ((p - start) % 4)
		*p++ = 0;
	if (size)
		memcpy(p, data, size);
	p += size;
	while ((p - start) % 4)
		*p++ = 0;
	return p;
}

/* Reads a whole file into a fresh buffer; NULL when it cannot. */
static void *read_all(const char *path, size_t *size)
{
	struct stat st;
	void *buf;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || fstat(fd, &st)) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	buf = malloc(st.st_size ? st.st_size : 1);
	if (buf && read(fd, buf, st.st_size) != st.st_size) {
		free(buf);
		buf = NULL;
	}
	close(fd);
	*size = st.st_size;
	return buf;
}

static int one_reg(int vcpu, unsigned long req, uint64_t id, uint64_t *v)
{
	struct kvm_one_reg reg = { .id = id, .addr = (uintptr_t)v };

	return ioctl(vcpu, req, &reg);
}

/* What the nested guest printed, one line at a time. */
static char console[1 << 20];
static size_t console_len, console_line;

static void console_put(char c)
{
	if (console_len < sizeof(console) - 1)
		console[console_len++] = c;
	if (c == '\n') {
		printf("# | %.*s", (int)(console_len - console_line),
		       console + console_line);
		console_line = console_len;
	}
}

static unsigned long nested_value(const char *key)
{
	char pat[64];
	const char *p;

	console[console_len] = '\0';
	snprintf(pat, sizeof(pat), "kvm-pmu-result: %s=", key);
	p = strstr(console, pat);
	return p ? strtoul(p + strlen(pat), NULL, 10) : (unsigned long)-1;
}

static void on_alarm(int sig)
{
	(void)sig;
}

static int vmm(const char *image, unsigned int timeout)
{
	static const char bootargs[] =
		"console=hvc0 earlycon=sbi panic=-1 quiet rdinit=/init";
	struct kvm_userspace_memory_region region;
	uint8_t *ram, *end, *fdtblob;
	struct kvm_run *runp;
	size_t ksize, psize, isize;
	void *kernel, *perf, *self;
	uint64_t v, freq = 0;
	char isa[1024];
	size_t isa_len = 0, i;
	struct fdt *f;
	int kvm, vm, vcpu, mmap_size, done = 0, sscofpmf = 0;
	unsigned long count, samples, expect, exits = 0, host_irqs;

	kvm = open("/dev/kvm", O_RDWR);
	if (!tap_ok(kvm >= 0, "/dev/kvm opens (the series kernel is a KVM host): %s",
		    kvm >= 0 ? "yes" : strerror(errno)))
		return tap_done();
	kernel = read_all(image, &ksize);
	perf = read_all("/bin/perf", &psize);
	self = read_all("/proc/self/exe", &isize);
	if (!tap_ok(kernel && perf && self, "%s, /bin/perf and this program read",
		    image))
		return tap_done();

	vm = ioctl(kvm, KVM_CREATE_VM, 0);
	ram = mmap(NULL, RAM_SIZE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	region = (struct kvm_userspace_memory_region){
		.slot = 0, .guest_phys_addr = RAM_BASE,
		.memory_size = RAM_SIZE, .userspace_addr = (uintptr_t)ram,
	};
	vcpu = vm >= 0 ? ioctl(vm, KVM_CREATE_VCPU, 0) : -1;
	mmap_size = ioctl(kvm, KVM_GET_VCPU_MMAP_SIZE, 0);
	runp = vcpu >= 0 && mmap_size > 0 ?
		mmap(NULL, mmap_size, PROT_READ | PROT_WRITE, MAP_SHARED, vcpu, 0) :
		MAP_FAILED;
	if (!tap_ok(ram != MAP_FAILED && runp != MAP_FAILED &&
		    !ioctl(vm, KVM_SET_USER_MEMORY_REGION, &region),
		    "a VM with one vCPU and %lu MiB of RAM", RAM_SIZE >> 20))
		return tap_done();

	/* The console is SBI DBCN, which KVM hands to user space once on. */
	v = 1;
	tap_ok(!one_reg(vcpu, KVM_SET_ONE_REG, REG_SBI_EXT(SBI_EXT_ID_DBCN), &v),
	       "the SBI debug console is forwarded to the VMM");
	/* The guest's ISA: what KVM enables for the vCPU. */
	for (i = 0; i < sizeof(isa_ext_names) / sizeof(isa_ext_names[0]); i++) {
		v = 0;
		if (!isa_ext_names[i] ||
		    one_reg(vcpu, KVM_GET_ONE_REG, REG_ISA_EXT(i), &v) || !v)
			continue;
		memcpy(isa + isa_len, isa_ext_names[i], strlen(isa_ext_names[i]) + 1);
		isa_len += strlen(isa_ext_names[i]) + 1;
		sscofpmf |= !strcmp(isa_ext_names[i], "sscofpmf");
	}
	tap_ok(sscofpmf, "KVM offers Sscofpmf to its guest (needs Sscofpmf and Ssaia on the host)");
	one_reg(vcpu, KVM_GET_ONE_REG, REG_TIMER_FREQ, &freq);

	/* The nested guest's memory map: kernel, initramfs, device tree. */
	if (!tap_ok(ksize <= INITRD_OFF - KERNEL_OFF &&
		    isize + psize + 4096 <= FDT_OFF - INITRD_OFF,
		    "the kernel (%zu bytes) and the initramfs (%zu) fit the nested guest's RAM",
		    ksize, isize + psize))
		return tap_done();
	memcpy(ram + KERNEL_OFF, kernel, ksize);
	end = ram + INITRD_OFF;
	end = cpio_entry(end, "dev", 040755, 0, 0, NULL, 0);
	end = cpio_entry(end, "dev/console", 020600, 5, 1, NULL, 0);
	end = cpio_entry(end, "bin", 040755, 0, 0, NULL, 0);
	end = cpio_entry(end, "proc", 040755, 0, 0, NULL, 0);
	end = cpio_entry(end, "sys", 040755, 0, 0, NULL, 0);
	end = cpio_entry(end, "tmp", 040755, 0, 0, NULL, 0);
	end = cpio_entry(end, "init", 0100755, 0, 0, self, isize);
	end = cpio_entry(end, "bin/perf", 0100755, 0, 0, perf, psize);
	end = cpio_entry(end, "TRAILER!!!", 0, 0, 0, NULL, 0);

	f = calloc(1, sizeof(*f));
	fdt_begin(f, "");
	fdt_cells(f, "#address-cells", 1, 2);
	fdt_cells(f, "#size-cells", 1, 2);
	fdt_str(f, "compatible", "linux,dummy-virt");
	fdt_begin(f, "chosen");
	fdt_str(f, "bootargs", bootargs);
	fdt_cells(f, "linux,initrd-start", 2, 0,
		  (uint32_t)(RAM_BASE + INITRD_OFF));
	fdt_cells(f, "linux,initrd-end", 2, 0,
		  (uint32_t)(RAM_BASE + (end - ram)));
	fdt_end(f);
	fdt_begin(f, "cpus");
	fdt_cells(f, "#address-cells", 1, 1);
	fdt_cells(f, "#size-cells", 1, 0);
	fdt_cells(f, "timebase-frequency", 1, (uint32_t)freq);
	fdt_begin(f, "cpu@0");
	fdt_str(f, "device_type", "cpu");
	fdt_cells(f, "reg", 1, 0);
	fdt_str(f, "compatible", "riscv");
	fdt_str(f, "status", "okay");
	fdt_str(f, "mmu-type", "riscv,sv39");
	fdt_str(f, "riscv,isa-base", "rv64i");
	fdt_prop(f, "riscv,isa-extensions", isa, isa_len);
	fdt_begin(f, "interrupt-controller");
	fdt_cells(f, "#interrupt-cells", 1, 1);
	fdt_prop(f, "interrupt-controller", NULL, 0);
	fdt_str(f, "compatible", "riscv,cpu-intc");
	fdt_end(f);
	fdt_end(f);
	fdt_end(f);
	fdt_begin(f, "memory@80000000");
	fdt_str(f, "device_type", "memory");
	fdt_cells(f, "reg", 4, 0, (uint32_t)RAM_BASE, 0, (uint32_t)RAM_SIZE);
	fdt_end(f);
	fdt_end(f);
	fdtblob = ram + FDT_OFF;
	fdt_finish(f, fdtblob);

	v = RAM_BASE + KERNEL_OFF;
	one_reg(vcpu, KVM_SET_ONE_REG, REG_CORE(CORE_PC), &v);
	v = 0;
	one_reg(vcpu, KVM_SET_ONE_REG, REG_CORE(CORE_A0), &v);
	v = RAM_BASE + FDT_OFF;
	one_reg(vcpu, KVM_SET_ONE_REG, REG_CORE(CORE_A1), &v);

	/* SIGALRM ends a guest that hangs: KVM_RUN returns EINTR. */
	sigaction(SIGALRM, &(struct sigaction){ .sa_handler = on_alarm }, NULL);
	alarm(timeout);
	host_irqs = pmu_irqs();
	while (!done) {
		if (ioctl(vcpu, KVM_RUN, 0)) {
			v = 0;
			one_reg(vcpu, KVM_GET_ONE_REG, REG_CORE(CORE_PC), &v);
			printf("# KVM_RUN: %s, the nested guest at pc 0x%llx after %lu exits to the VMM\n",
			       strerror(errno), (unsigned long long)v, exits);
			break;
		}
		exits++;
		switch (runp->exit_reason) {
		case KVM_EXIT_RISCV_SBI: {
			unsigned long *a = runp->riscv_sbi.args;

			runp->riscv_sbi.ret[0] = SBI_ERR_NOT_SUPPORTED;
			runp->riscv_sbi.ret[1] = 0;
			if (runp->riscv_sbi.extension_id != SBI_EXT_DBCN)
				break;
			runp->riscv_sbi.ret[0] = 0;
			if (runp->riscv_sbi.function_id == 0) {	/* write */
				uint64_t gpa = a[1], n = a[0];

				if (gpa < RAM_BASE || gpa + n > RAM_BASE + RAM_SIZE)
					n = 0;
				for (i = 0; i < n; i++)
					console_put(ram[gpa - RAM_BASE + i]);
				runp->riscv_sbi.ret[1] = n;
			} else if (runp->riscv_sbi.function_id == 2) {	/* byte */
				console_put((char)a[0]);
			}
			break;
		}
		case KVM_EXIT_SYSTEM_EVENT:
			done = 1;
			break;
		case KVM_EXIT_MMIO:
			if (!runp->mmio.is_write)
				memset(runp->mmio.data, 0, sizeof(runp->mmio.data));
			break;
		default:
			printf("# unexpected KVM exit %u\n", runp->exit_reason);
			done = -1;
			break;
		}
	}
	alarm(0);
	host_irqs = pmu_irqs() - host_irqs;
	if (console_len > console_line)
		console_put('\n');

	console[console_len] = '\0';
	tap_ok(done == 1 && strstr(console, "kvm-pmu-result: done"),
	       "the nested guest ran its checks and powered off");
	tap_ok(nested_value("snapshot") == 1,
	       "the nested guest's driver uses the SBI PMU snapshot page");
	tap_ok(nested_value("sampling") == 1,
	       "the nested guest's driver has overflow interrupts (Sscofpmf)");
	count = nested_value("count");
	samples = nested_value("samples");
	expect = 2 * SPIN_ITERATIONS;
	if (booted_with_icount()) {
		/*
		 * Under -icount the counter counts instructions: the loop's
		 * 2 an iteration, and a little more (perf stat counts the child
		 * from its exec on), one sample each SAMPLE_PERIOD of them.
		 */
		tap_ok(nested_value("stat_status") == 0 &&
		       count >= expect && count < expect + expect / 2,
		       "perf stat -e instructions in the nested guest: %lu for a loop of %lu",
		       count, expect);
		expect /= SAMPLE_PERIOD;
		tap_ok(nested_value("record_status") == 0 &&
		       samples >= expect / 2 && samples <= 2 * expect,
		       "perf record -e instructions -c %lu in the nested guest: %lu samples, about %lu expected",
		       SAMPLE_PERIOD, samples, expect);
	} else {
		/* Without it QEMU's instret follows the host's clock. */
		tap_ok(nested_value("stat_status") == 0 && count > 0 &&
		       count != (unsigned long)-1,
		       "perf stat -e instructions in the nested guest: %lu", count);
		tap_ok(nested_value("record_status") == 0 && samples > 0 &&
		       samples != (unsigned long)-1,
		       "perf record -e instructions -c %lu in the nested guest: %lu samples",
		       SAMPLE_PERIOD, samples);
	}
	/*
	 * A sample is an overflow interrupt KVM injected into the nested
	 * guest, after one of the host's own.
	 */
	tap_ok(nested_value("pmu_irqs") >= samples && host_irqs >= samples,
	       "each sample was an overflow interrupt of the nested guest (%lu) and of the host (%lu)",
	       nested_value("pmu_irqs"), host_irqs);
	return tap_done();
}

int main(int argc, char **argv)
{
	if (getpid() == 1)
		return nested_init();
	if (argc == 3 && !strcmp(argv[1], "spin")) {
		counted_loop(strtoul(argv[2], NULL, 10));
		return 0;
	}
	return vmm(argc > 1 ? argv[1] : "/boot/Image",
		   argc > 2 ? strtoul(argv[2], NULL, 10) : NESTED_TIMEOUT);
}
