/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * filter.h - perf's branch filter words (`perf record -j any,u`) as a CTR
 * control register value for either layout.  Used by the TCG plugin; host
 * tested by tests/plugin/filter-test.c.
 */
#ifndef RVPERF_PLUGIN_FILTER_H
#define RVPERF_PLUGIN_FILTER_H

#include <stddef.h>
#include <stdint.h>

#include "qemu-model/core/ctrhw.h"

/*
 * Parses a comma-separated list of perf branch filter words into the
 * layout's mctrctl/mctrcontrol value (mode bits, RASEMU, type inhibits,
 * LCOFIFRZ; DEPTH left 0).  DEFAULT_MODES (mode bits of the layout) apply
 * when the list names no privilege.  Returns 0, or -1 with a one-line
 * reason in ERR.
 *
 * Type words, as perf defines them (perf_event.h, PERF_SAMPLE_BRANCH_*):
 *   any       every taken transfer (not-taken branches stay off, as LBR)
 *   any_call  calls and traps; any_ret: returns and trap returns
 *   call      direct calls; ind_call: indirect calls
 *   ind_jmp   indirect jumps (with or without a link register)
 *   cond      taken conditional branches
 *   call_stack  RAS emulation (calls and returns only, returns pop)
 * Privilege words: u, k (S-mode), hv (M-mode).  save_type, hw_index and
 * priv are accepted: the records always carry them.  Transactional-memory
 * words, stack and counters are refused.
 */
int rvp_branch_filter_parse(const char *spec, enum ctrhw_layout layout,
			    unsigned int default_modes, uint64_t *ctl,
			    char *err, size_t errlen);

/* The layout's mode-enable bits for U, S and M. */
uint64_t rvp_branch_filter_mode_bit(enum ctrhw_layout layout, char mode);

#endif /* RVPERF_PLUGIN_FILTER_H */
