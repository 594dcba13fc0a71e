/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rvp_itrace.h - the instruction trace the TCG plugin writes with
 * itrace=FILE (rvperf nexus record reads it): every instruction each vCPU
 * executed, at the cost of one 32-bit word per executed block.
 *
 * A block (a TCG translation block: instructions in address order, the
 * last one possibly a control transfer) is described once, when QEMU
 * translates it, with the encodings of its instructions; each execution
 * is then its id.  Host byte order, 32-bit words:
 *
 *   header  "RVPITRC1", then a word: 1 for system mode, 0 for user mode
 *   DEF     RVP_ITRACE_DEF, id, n, start (low word, high word),
 *           n encodings (a 16-bit instruction in the low half)
 *   VCPU    RVP_ITRACE_VCPU, index: the following executions are its own
 *   PRIV    RVP_ITRACE_PRIV, mode (0 U, 1 S, 3 M): from the next block on
 *   EXEC    an id below RVP_ITRACE_FIRST_TAG
 *
 * A DEF always precedes the first EXEC of its id.
 */
#ifndef RVPERF_RVP_ITRACE_H
#define RVPERF_RVP_ITRACE_H

#include <stdint.h>

#define RVP_ITRACE_MAGIC	"RVPITRC1"
#define RVP_ITRACE_FIRST_TAG	0xFFFFFF00u
#define RVP_ITRACE_DEF		0xFFFFFFF0u
#define RVP_ITRACE_VCPU		0xFFFFFFF1u
#define RVP_ITRACE_PRIV		0xFFFFFFF2u

#endif /* RVPERF_RVP_ITRACE_H */
