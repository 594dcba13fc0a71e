// SPDX-License-Identifier: BSD-2-Clause
/*
 * perf-tool - the real perf tool (cross-built from the kernel's tools/perf)
 * counts and records the sample workload in the guest.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "perf_util.h"
#include "tap.h"

#define PERF		"/bin/perf"
#define WORKLOAD	"/bin/branchy"
#define PERF_DATA	"/tmp/perf-tool.data"

static char output[1 << 16];

/* Runs argv with its output captured into output; see perf_run(). */
static int run(char *const argv[])
{
	return perf_run(argv, output, sizeof(output));
}

static void show_output(void)
{
	char *line, *save = NULL;

	for (line = strtok_r(output, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		tap_diag("  | %s", line);
}

int main(void)
{
	char *stat_argv[] = { PERF, "stat", "-x", ",", "-e", "instructions",
			      WORKLOAD, NULL };
	char *record_argv[] = { PERF, "record", "-e", "cycles", "-o",
				PERF_DATA, WORKLOAD, NULL };
	char *report_argv[] = { PERF, "report", "--stdio", "-i", PERF_DATA,
				NULL };
	unsigned long long count = 0;
	struct stat st;
	char *field;
	int status;

	/* perf stat -x, prints "COUNT,UNIT,EVENT,..." on stderr. */
	status = run(stat_argv);
	tap_ok(status == 0, "perf stat -e instructions runs the workload");
	field = strstr(output, ",instructions");
	if (field) {
		while (field > output && field[-1] != '\n' && field[-1] != ',')
			field--;
		while (field > output && field[-1] != '\n')
			field--;
		count = strtoull(field, NULL, 10);
	}
	if (!tap_ok(count > 1000000,
		    "perf stat counts the workload's instructions (%llu)",
		    count))
		show_output();

	status = run(record_argv);
	if (!tap_ok(status == 0, "perf record -e cycles runs the workload"))
		show_output();
	tap_ok(stat(PERF_DATA, &st) == 0 && st.st_size > 0,
	       "perf record wrote %s", PERF_DATA);

	status = run(report_argv);
	tap_ok(status == 0, "perf report --stdio reads the recording");
	tap_ok(strstr(output, "# Samples:") != NULL,
	       "the report has a sample count");
	if (!tap_ok(strstr(output, "branchy") != NULL,
		    "the report attributes samples to the workload"))
		show_output();
	unlink(PERF_DATA);
	return tap_done();
}
