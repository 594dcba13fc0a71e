// SPDX-License-Identifier: BSD-2-Clause
/*
 * init - PID 1 of the rvperf guest initramfs.
 *
 * Mounts the pseudo file systems, runs every command of /etc/rvperf/plan in
 * order, then prints the kernel log and powers the machine off.  Output goes
 * to the virtio serial port named "rvperf.out" when QEMU provides one, so the
 * kernel's own console messages can never split a result line; otherwise it
 * goes to /dev/console.
 *
 * Around each command it prints marker lines the host reads
 * (scripts/guest/guest_tap.py):
 *	# rvperf-guest: begin COMMAND LINE
 *	...whatever the command prints (TAP for test programs)...
 *	# rvperf-guest: end status=N
 * A command killed by a signal ends with status=signal-N.  A plan line is
 * "[timeout=SECONDS] PROGRAM [ARG...]", words separated by blanks.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define PLAN_PATH	"/etc/rvperf/plan"
#define PORT_NAME	"rvperf.out"
#define MARKER		"# rvperf-guest:"
#define DEFAULT_TIMEOUT	300
#define MAX_ARGS	64

static FILE *out;

static void mount_or_warn(const char *src, const char *dst, const char *type)
{
	mkdir(dst, 0755);
	if (mount(src, dst, type, 0, NULL) && errno != EBUSY)
		fprintf(out, "%s warning: mounting %s on %s: %s\n", MARKER,
			type, dst, strerror(errno));
}

/* Finds the /dev node of the virtio port QEMU named PORT_NAME. */
static int open_port(void)
{
	char path[300], name[64];
	struct dirent *d;
	DIR *dir = opendir("/sys/class/virtio-ports");
	int fd = -1;

	if (!dir)
		return -1;
	while (fd < 0 && (d = readdir(dir))) {
		FILE *f;

		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/class/virtio-ports/%s/name",
			 d->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(name, sizeof(name), f) &&
		    strncmp(name, PORT_NAME, strlen(PORT_NAME)) == 0) {
			snprintf(path, sizeof(path), "/dev/%s", d->d_name);
			fd = open(path, O_WRONLY | O_CLOEXEC);
		}
		fclose(f);
	}
	closedir(dir);
	return fd;
}

static void run_command(char *line, int out_fd)
{
	char *argv[MAX_ARGS + 1];
	unsigned int timeout = DEFAULT_TIMEOUT;
	int argc = 0, status, i;
	char *word, *save = NULL;
	pid_t pid;

	for (word = strtok_r(line, " \t", &save); word && argc < MAX_ARGS;
	     word = strtok_r(NULL, " \t", &save)) {
		if (argc == 0 && strncmp(word, "timeout=", 8) == 0)
			timeout = (unsigned int)strtoul(word + 8, NULL, 10);
		else
			argv[argc++] = word;
	}
	if (argc == 0)
		return;
	argv[argc] = NULL;

	fprintf(out, "%s begin", MARKER);
	for (i = 0; i < argc; i++)
		fprintf(out, " %s", argv[i]);
	fputc('\n', out);
	fflush(out);
	pid = fork();
	if (pid == 0) {
		dup2(out_fd, STDOUT_FILENO);
		dup2(out_fd, STDERR_FILENO);
		/* SIGALRM's default action ends a command that hangs; the
		 * timer survives exec. */
		alarm(timeout);
		execv(argv[0], argv);
		fprintf(stderr, "init: cannot run %s: %s\n", argv[0],
			strerror(errno));
		_exit(127);
	}
	if (pid < 0) {
		fprintf(out, "%s end status=fork-failed\n", MARKER);
		return;
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFSIGNALED(status))
		fprintf(out, "%s end status=signal-%d\n", MARKER,
			WTERMSIG(status));
	else
		fprintf(out, "%s end status=%d\n", MARKER,
			WEXITSTATUS(status));
	fflush(out);
}

/* The whole kernel log, so the host can look for warnings and KUnit KTAP. */
static void dump_kernel_log(void)
{
	int size = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	char *buf;
	int n;

	if (size <= 0)
		size = 1 << 20;
	buf = malloc((size_t)size);
	if (!buf)
		return;
	n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, size);
	fprintf(out, "%s dmesg begin\n", MARKER);
	if (n > 0) {
		fwrite(buf, 1, (size_t)n, out);
		if (buf[n - 1] != '\n')
			fputc('\n', out);
	}
	fprintf(out, "%s dmesg end\n", MARKER);
	fflush(out);
	free(buf);
}

int main(void)
{
	char line[1024];
	FILE *plan;
	int out_fd;

	out = stdout;
	mount_or_warn("proc", "/proc", "proc");
	mount_or_warn("sysfs", "/sys", "sysfs");
	mount_or_warn("devtmpfs", "/dev", "devtmpfs");
	mount_or_warn("debugfs", "/sys/kernel/debug", "debugfs");
	mount_or_warn("tmpfs", "/tmp", "tmpfs");

	out_fd = open_port();
	if (out_fd < 0)
		out_fd = open("/dev/console", O_WRONLY | O_CLOEXEC);
	if (out_fd >= 0)
		out = fdopen(dup(out_fd), "w");
	if (!out)
		out = stdout;

	setenv("PATH", "/bin", 1);
	setenv("HOME", "/tmp", 1);
	setenv("PAGER", "cat", 1);
	chdir("/tmp");

	fprintf(out, "%s init started\n", MARKER);
	plan = fopen(PLAN_PATH, "r");
	if (!plan) {
		fprintf(out, "%s error: cannot open %s: %s\n", MARKER,
			PLAN_PATH, strerror(errno));
	} else {
		while (fgets(line, sizeof(line), plan)) {
			line[strcspn(line, "\r\n")] = '\0';
			if (line[0] == '#' || line[0] == '\0')
				continue;
			run_command(line, out_fd);
		}
		fclose(plan);
	}
	dump_kernel_log();
	fprintf(out, "%s done\n", MARKER);
	fflush(out);
	fsync(out_fd);
	sync();
	reboot(RB_POWER_OFF);
	/* Only reached if power-off failed; the host's timeout reports it. */
	for (;;)
		pause();
}
