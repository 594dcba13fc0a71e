/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * afdo.h - an AutoFDO profile for GCC's -fauto-profile from branch stacks.
 *
 * The method is AutoFDO's (Chen et al., CGO 2016): each pair of
 * consecutive branch records of a sample bounds a stretch of code that ran
 * straight through (from the older record's target to the newer record's
 * source), so every instruction in it ran once more; the counts of the
 * instructions of a source line make that line's count (their maximum);
 * lines are keyed by their offset from the function's declaration line
 * and their discriminator, under the inline chain the debug information
 * gives; calls give the callees' entry counts and the indirect-call
 * targets.  The file is GCC's gcov-based AutoFDO format (version 2, as
 * GCC 12 reads it in auto-profile.cc), or LLVM's text sample profile (the
 * same keys: line offset from the function's declaration line, and the
 * base discriminator LLVM encodes in its DWARF).
 */
#ifndef RVPERF_AFDO_H
#define RVPERF_AFDO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct afdo_stats {
	uint64_t samples;	/* samples with a branch stack */
	uint64_t branches;	/* branch records read */
	uint64_t ranges;	/* straight-line stretches counted */
	uint64_t bad_ranges;	/* stretches dropped: reversed, too long,
				 * outside the binary */
	uint64_t unmapped;	/* instruction hits without line info */
	unsigned int functions;	/* top-level function profiles written */
	char warning[320];	/* what was dropped and why, if anything */
};

struct afdo_options {
	const char *perf_data;	/* input (when nr_inputs is 0) */
	const char *const *inputs;	/* or several, merged */
	size_t nr_inputs;
	const char *elf;	/* the profiled binary, with debug info */
	const char *output;	/* the .afdo file; NULL: no file */
	FILE *dump;		/* non-NULL: the profile as text, here */
	int force;		/* elf even when the recording's build id
				 * for it is another */
	int llvm;		/* output: LLVM's text sample profile
				 * (clang -fprofile-sample-use) */
};

/* 0 on success; -1 with a one-line reason in err.  A truncated perf.data
 * still gives a profile of its complete samples (stats->warning says so). */
int afdo_create(const struct afdo_options *opt, struct afdo_stats *stats,
		char *err, size_t errlen);

#endif /* RVPERF_AFDO_H */
