/* SPDX-License-Identifier: BSD-2-Clause */
/* report.h - `rvperf report`, called by main.c. */
#ifndef RVPERF_REPORT_H
#define RVPERF_REPORT_H

#include <stddef.h>

#define REPORT_BAD_DATA 1
#define REPORT_USAGE	2

struct report_options {
	const char *const *inputs;	/* perf.data paths, one report of all */
	size_t nr_inputs;
	const char *elf;	/* use this ELF for symbols ... */
	const char *elf_match;	/* ... for mappings of this basename (NULL: all) */
	const char *symfs;	/* directory the mapped paths are under */
	int force;		/* use --elf even when its build id differs */
	size_t top;		/* rows per table */
	const char *html;	/* write this HTML page instead of text */
	const char *sort;	/* --sort KEYS: perf report's table instead */
	int show_samples;	/* -n: its Samples column */
	int call_graph;		/* -g: each row's call chains */
	int no_branch_stack;	/* --no-branch-stack: rows of samples, not
				 * of branch records */
};

int report_run(const struct report_options *opt);

#endif /* RVPERF_REPORT_H */
