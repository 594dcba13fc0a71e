// SPDX-License-Identifier: BSD-2-Clause
/*
 * fuzz_scenario.c - libFuzzer target over the ctr-sim scenario language.
 *
 * The input is a scenario text, run by scenario_run() exactly as ctr-sim
 * runs it (the same parser, the same hart).  Built with ASan and UBSan, so
 * any out-of-bounds access, overflow or other UB aborts.  Beyond that it
 * checks what ctr-sim promises:
 *  - the exit status is 0 or 2;
 *  - a failed run printed exactly one line, "ctr-sim: line N: ...", and N
 *    is a line of the input; a successful run printed no error at all;
 *  - every output line is "NAME=0xHEX", "illegal", "virtual" or
 *    "entry I 0x.. 0x.. 0x..".
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qemu-model/sim/scenario.h"

static char outbuf[1 << 20], errbuf[4096];

static size_t count_lines(const uint8_t *data, size_t size)
{
	size_t n = 1;

	for (size_t i = 0; i < size; i++)
		if (data[i] == '\n' && i + 1 < size)
			n++;
	return n;
}

static void check_output_line(const char *line)
{
	const char *eq = strchr(line, '=');

	if (strcmp(line, "illegal") == 0 || strcmp(line, "virtual") == 0)
		return;
	if (strncmp(line, "entry ", 6) == 0)
		return;
	if (eq && eq > line && strncmp(eq, "=0x", 3) == 0)
		return;
	fprintf(stderr, "unexpected output line '%s'\n", line);
	abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *out, *err;
	int status;
	size_t errlen;
	unsigned long line = 0;

	memset(errbuf, 0, sizeof(errbuf));
	out = fmemopen(outbuf, sizeof(outbuf), "w");
	err = fmemopen(errbuf, sizeof(errbuf) - 1, "w");
	if (!out || !err)
		abort();
	status = scenario_run((const char *)data, size, out, err, 0);
	fclose(out);
	fclose(err);
	errlen = strlen(errbuf);

	if (status != 0 && status != 2) {
		fprintf(stderr, "exit status %d\n", status);
		abort();
	}
	if (status == 0 && errlen) {
		fprintf(stderr, "success with an error: %s", errbuf);
		abort();
	}
	if (status == 2) {
		if (errlen == 0 || errbuf[errlen - 1] != '\n' ||
		    memchr(errbuf, '\n', errlen - 1) ||
		    sscanf(errbuf, "ctr-sim: line %lu: ", &line) != 1 ||
		    line == 0 || line > count_lines(data, size)) {
			fprintf(stderr, "not a one-line error: '%s'\n", errbuf);
			abort();
		}
	}
	if (status == 0) {
		/* fmemopen NUL-terminates what fits. */
		outbuf[sizeof(outbuf) - 1] = '\0';
		for (char *p = outbuf, *nl; *p; p = nl + 1) {
			nl = strchr(p, '\n');
			if (!nl)
				break;	/* truncated by the buffer */
			*nl = '\0';
			check_output_line(p);
		}
	}
	return 0;
}
