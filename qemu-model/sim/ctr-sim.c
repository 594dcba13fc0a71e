// SPDX-License-Identifier: BSD-2-Clause
/*
 * ctr-sim - runs a CTR scenario (qemu-model/README.md) from a file or
 * standard input over the qemu-model core.
 *
 *	ctr-sim [--lines] [SCENARIO]
 *
 * --lines: each result line starts with the number of the scenario line
 * that printed it and a tab (tools that map results back to lines).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario.h"

int main(int argc, char **argv)
{
	FILE *in = stdin;
	char *text = NULL;
	size_t len = 0, cap = 0, n;
	unsigned int flags = 0;
	int status;

	if (argc > 1 && strcmp(argv[1], "--lines") == 0) {
		flags |= SCENARIO_LINE_NUMBERS;
		argc--;
		argv++;
	}
	if (argc > 2 || (argc == 2 && strcmp(argv[1], "--help") == 0)) {
		fprintf(argc > 2 ? stderr : stdout,
			"usage: ctr-sim [--lines] [SCENARIO]\n");
		return argc > 2 ? 2 : 0;
	}
	if (argc == 2 && strcmp(argv[1], "-") != 0) {
		in = fopen(argv[1], "r");
		if (!in) {
			fprintf(stderr, "ctr-sim: cannot open %s\n", argv[1]);
			return 2;
		}
	}
	for (;;) {
		if (cap - len < 4096) {
			char *grown = realloc(text, cap = cap * 2 + 4096);

			if (!grown) {
				fprintf(stderr, "ctr-sim: out of memory\n");
				free(text);
				return 2;
			}
			text = grown;
		}
		n = fread(text + len, 1, cap - len, in);
		if (n == 0)
			break;
		len += n;
	}
	if (in != stdin)
		fclose(in);
	status = scenario_run(text, len, stdout, stderr, flags);
	free(text);
	return status;
}
