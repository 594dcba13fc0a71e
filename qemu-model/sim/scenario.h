/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * scenario.h - the ctr-sim scenario language (qemu-model/README.md), as a
 * library so that ctr-sim, the tests and the fuzzer run the same code.
 */
#ifndef RVPERF_QEMU_MODEL_SCENARIO_H
#define RVPERF_QEMU_MODEL_SCENARIO_H

#include <stddef.h>
#include <stdio.h>

/* Each result line starts with the number of the line that printed it and
 * a tab (ctr-sim --lines). */
#define SCENARIO_LINE_NUMBERS 1u

/*
 * Runs the scenario TEXT (LEN bytes, need not be NUL-terminated), printing
 * results to OUT and the one-line error to ERR (either may be NULL).
 * FLAGS: SCENARIO_LINE_NUMBERS or 0.  Returns 0, or 2 after an unknown
 * command or a malformed line.
 */
int scenario_run(const char *text, size_t len, FILE *out, FILE *err,
		 unsigned int flags);

#endif /* RVPERF_QEMU_MODEL_SCENARIO_H */
