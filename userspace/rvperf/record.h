/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * record.h - `rvperf record`: run a riscv64 program under qemu-riscv64
 * with the CTR plugin and write perf.data; and the mapping of one CTR
 * record (ctrsource, ctrtarget, ctrdata) to a perf branch entry, which
 * the tests check on its own.
 */
#ifndef RVPERF_RECORD_H
#define RVPERF_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "userspace/perfdata/perf_data.h"

/*
 * The cycles a ctrdata.CC field stands for ("Cycle Counting"): CCM when
 * CCE is 0, else (2^12 + CCM) << (CCE - 1); 0 when CCV is clear.  Clamped
 * to perf's 16-bit cycles field.
 */
unsigned int ctr_cycles(uint64_t ctrdata);

/*
 * One CTR record as a perf branch entry: from/to without the V and MISP
 * bits, TYPE to PERF_BR_* (PERF_BR_EXTEND_ABI with new_type ARCH_1 for
 * exceptions, ARCH_2 for not-taken branches, ARCH_3 for co-routine swaps,
 * as the driver does), MISP to mispred/predicted when the implementation reports
 * it (has_misp), cycles, and PRIV (PERF_BR_PRIV_*).
 */
void ctr_to_branch(uint64_t source, uint64_t target, uint64_t data,
		   int has_misp, unsigned int priv, struct pd_branch *out);

int rvperf_record(int argc, char **argv);

/*
 * A QEMU plugin of ours: $ENV_VAR when set, else NAME next to this
 * executable's build (BUILD/userspace/rvperf -> BUILD/qemu-model/NAME), in
 * buf; NULL when neither can be told.
 */
const char *rvperf_plugin_path(const char *env_var, const char *name,
			       char *buf, size_t size);

/*
 * The template of a temporary file NAME-XXXXXX for mkstemp(), in $TMPDIR
 * when set, else /tmp.  A directory with a comma is not taken: the path
 * goes into a QEMU plugin argument, which QEMU splits at commas.
 */
void rvperf_temp_template(char *buf, size_t size, const char *name);

#endif /* RVPERF_RECORD_H */
