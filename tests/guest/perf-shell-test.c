// SPDX-License-Identifier: BSD-2-Clause
/*
 * perf-shell-test - runs one of Linux's own perf shell tests
 * (tools/perf/tests/shell/NAME.sh) with bash and turns its result into TAP.
 *
 * Usage: perf-shell-test SCRIPT
 *
 * perf's test harness reads a script's exit status: 0 passed, 2 skipped
 * (the script prints why), anything else failed.  This prints one result
 * accordingly ("# SKIP" with the script's last line as the reason), then
 * the script's output as TAP comments (long output is cut in the middle).
 * The script runs in a process group of its own; if the timer init set for
 * this command is about to fire, the group is killed and the test fails.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_SHOWN_HEAD	300
#define MAX_SHOWN_TAIL	100
#define MAX_LINE	400

static volatile sig_atomic_t timed_out;
static pid_t child;

static void on_alarm(int sig)
{
	(void)sig;
	timed_out = 1;
	if (child > 0)
		kill(-child, SIGKILL);
}

struct lines {
	char **v;
	size_t n, cap;
};

static void add_line(struct lines *l, const char *s)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 256;
		l->v = realloc(l->v, l->cap * sizeof(*l->v));
		if (!l->v) {
			printf("Bail out! out of memory\n");
			exit(1);
		}
	}
	l->v[l->n++] = strndup(s, MAX_LINE);
}

/* The last non-blank line: the reason a skipping script printed. */
static const char *last_line(const struct lines *l)
{
	size_t i = l->n;

	while (i-- > 0)
		if (strspn(l->v[i], " \t") != strlen(l->v[i]))
			return l->v[i];
	return "no reason given";
}

int main(int argc, char **argv)
{
	struct lines out = { 0 };
	const char *script, *name;
	char buf[4096];
	unsigned int left;
	int fds[2], status;
	FILE *in;
	size_t i;

	if (argc != 2) {
		printf("Bail out! usage: perf-shell-test SCRIPT\n");
		return 1;
	}
	script = argv[1];
	name = strrchr(script, '/') ? strrchr(script, '/') + 1 : script;
	printf("1..1\n");
	fflush(stdout);
	if (access(script, R_OK)) {
		printf("not ok 1 - %s: cannot read it: %s\n", name,
		       strerror(errno));
		return 1;
	}

	/* init's timer (inherited across exec) would kill only us: stop the
	 * script a little before it fires. */
	left = alarm(0);
	signal(SIGALRM, on_alarm);
	if (left)
		alarm(left > 20 ? left - 10 : left);

	if (pipe(fds)) {
		printf("Bail out! pipe: %s\n", strerror(errno));
		return 1;
	}
	child = fork();
	if (child == 0) {
		setpgid(0, 0);
		dup2(fds[1], STDOUT_FILENO);
		dup2(fds[1], STDERR_FILENO);
		close(fds[0]);
		close(fds[1]);
		execl("/bin/bash", "bash", script, (char *)NULL);
		fprintf(stderr, "cannot run /bin/bash: %s\n", strerror(errno));
		_exit(127);
	}
	if (child < 0) {
		printf("Bail out! fork: %s\n", strerror(errno));
		return 1;
	}
	setpgid(child, child);
	close(fds[1]);
	in = fdopen(fds[0], "r");
	while (in && fgets(buf, sizeof(buf), in)) {
		buf[strcspn(buf, "\n")] = '\0';
		add_line(&out, buf);
	}
	while (waitpid(child, &status, 0) < 0 && errno == EINTR)
		;
	alarm(0);

	if (timed_out)
		printf("not ok 1 - %s (timed out, killed)\n", name);
	else if (WIFSIGNALED(status))
		printf("not ok 1 - %s (killed by signal %d)\n", name,
		       WTERMSIG(status));
	else if (WEXITSTATUS(status) == 0)
		printf("ok 1 - %s\n", name);
	else if (WEXITSTATUS(status) == 2)
		printf("ok 1 - %s # SKIP %s\n", name, last_line(&out));
	else
		printf("not ok 1 - %s (exit status %d)\n", name,
		       WEXITSTATUS(status));

	printf("# %s printed %zu lines:\n", name, out.n);
	for (i = 0; i < out.n; i++) {
		if (out.n > MAX_SHOWN_HEAD + MAX_SHOWN_TAIL &&
		    i == MAX_SHOWN_HEAD) {
			printf("# [... %zu lines left out ...]\n",
			       out.n - MAX_SHOWN_HEAD - MAX_SHOWN_TAIL);
			i = out.n - MAX_SHOWN_TAIL;
		}
		printf("#   %s\n", out.v[i]);
	}
	return timed_out || WIFSIGNALED(status) ||
	       (WEXITSTATUS(status) != 0 && WEXITSTATUS(status) != 2);
}
