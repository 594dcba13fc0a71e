// SPDX-License-Identifier: BSD-2-Clause
/*
 * perf-test - runs the C test suites of the guest's perf (`perf test`) whose
 * description contains the given words, and turns their results into TAP.
 *
 * Usage: perf-test WORD...   (the words, joined by blanks, are one pattern:
 *                             perf test matches it against the suites'
 *                             descriptions, ignoring case)
 *
 * perf test prints one line a test case, "N.M: description   : Ok" (or
 * "FAILED!", or "Skip (reason)"; "N: description   : ..." for a suite of
 * one case); each becomes a TAP result, a skip with its reason.  perf's -v
 * output follows as TAP comments, so a failure's diagnostics are in the
 * log.  No result line at all, or perf test failing without a failed case,
 * fails too.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef PERF
#define PERF		"/bin/perf"	/* the guest's; another for trying this out */
#endif
#define MAX_LINES	2000
#define MAX_LINE	400

static char *lines[MAX_LINES];
static size_t nlines;

/* "N: desc : RESULT" or "N.M: desc : RESULT": the description and result. */
static int result_line(char *line, char **desc, char **result)
{
	char *p = line, *sep;

	while (*p == ' ')
		p++;
	if (!isdigit((unsigned char)*p))
		return 0;
	while (isdigit((unsigned char)*p) || *p == '.')
		p++;
	if (p[0] != ':' || p[1] != ' ')
		return 0;
	p += 2;
	/* The description is padded (or cut) to a width, then ": RESULT". */
	sep = strrchr(p, ':');
	if (!sep)
		return 0;
	*result = sep + 1;
	while (**result == ' ')
		(*result)++;
	while (sep > p && sep[-1] == ' ')
		sep--;
	*sep = '\0';
	*desc = p;
	return **result != '\0' && strncmp(*result, "Running", 7) != 0;
}

int main(int argc, char **argv)
{
	char pattern[256] = "", buf[4096];
	int fds[2], status, i, results = 0, failed = 0;
	pid_t child;
	FILE *in;
	size_t n;

	if (argc < 2) {
		printf("Bail out! usage: perf-test WORD...\n");
		return 1;
	}
	for (i = 1; i < argc; i++) {
		if (i > 1)
			strncat(pattern, " ", sizeof(pattern) - strlen(pattern) - 1);
		strncat(pattern, argv[i], sizeof(pattern) - strlen(pattern) - 1);
	}
	if (pipe(fds)) {
		printf("Bail out! pipe: %s\n", strerror(errno));
		return 1;
	}
	child = fork();
	if (child == 0) {
		dup2(fds[1], STDOUT_FILENO);
		dup2(fds[1], STDERR_FILENO);
		close(fds[0]);
		close(fds[1]);
		execl(PERF, "perf", "test", "-v", pattern, (char *)NULL);
		fprintf(stderr, "cannot run %s: %s\n", PERF, strerror(errno));
		_exit(127);
	}
	if (child < 0) {
		printf("Bail out! fork: %s\n", strerror(errno));
		return 1;
	}
	close(fds[1]);
	in = fdopen(fds[0], "r");
	while (in && fgets(buf, sizeof(buf), in)) {
		buf[strcspn(buf, "\n")] = '\0';
		if (nlines < MAX_LINES)
			lines[nlines++] = strndup(buf, MAX_LINE);
	}
	while (waitpid(child, &status, 0) < 0 && errno == EINTR)
		;

	for (n = 0; n < nlines; n++) {
		char *copy = strdup(lines[n]), *desc, *result;

		if (copy && result_line(copy, &desc, &result)) {
			results++;
			if (!strncmp(result, "Ok", 2)) {
				printf("ok %d - perf test: %s\n", results, desc);
			} else if (!strncmp(result, "Skip", 4)) {
				printf("ok %d - perf test: %s # SKIP %s\n", results,
				       desc, result);
			} else {
				failed++;
				printf("not ok %d - perf test: %s (%s)\n", results,
				       desc, result);
			}
		}
		free(copy);
	}
	if (!results) {
		results++;
		failed++;
		printf("not ok %d - perf test '%s' ran a test case\n", results,
		       pattern);
	}
	results++;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		printf("ok %d - perf test exited with status 0\n", results);
	} else {
		failed++;
		printf("not ok %d - perf test exited with status 0 (got %d)\n",
		       results, WIFEXITED(status) ? WEXITSTATUS(status) :
		       128 + WTERMSIG(status));
	}
	printf("1..%d\n", results);
	printf("# perf test -v '%s' printed %zu lines:\n", pattern, nlines);
	for (n = 0; n < nlines; n++)
		printf("#   %s\n", lines[n]);
	return failed != 0;
}
