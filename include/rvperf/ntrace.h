/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ntrace.h - itype: what a retired instruction was, as a hart's trace
 * ingress port reports it (RISC-V N-Trace 1.0, Table 2 "Generating itype for
 * different instructions", Tables 3 and 4 for the handling of each value;
 * the values are E-Trace's).  3-bit ports use 0-6; 4-bit ports (Implicit
 * Return Optimization) replace 6 by 8-15.  Each macro is RVP_ITYPE_ and the
 * spec's name for the value; tests/spec/check_spec.py checks them.
 */
#ifndef RVPERF_NTRACE_H
#define RVPERF_NTRACE_H

#define RVP_ITYPE_NO_SPECIAL_TYPE			0
#define RVP_ITYPE_EXCEPTION				1
#define RVP_ITYPE_INTERRUPT				2
#define RVP_ITYPE_EXCEPTION_OR_INTERRUPT_RETURN		3
#define RVP_ITYPE_NON_TAKEN_BRANCH			4
#define RVP_ITYPE_TAKEN_BRANCH				5
#define RVP_ITYPE_UNINFERABLE_JUMP			6	/* 3-bit only */
/* 4-bit only: */
#define RVP_ITYPE_UNINFERABLE_CALL			8
#define RVP_ITYPE_INFERABLE_CALL			9
#define RVP_ITYPE_UNINFERABLE_TAIL_CALL			10	/* no hart emits it */
#define RVP_ITYPE_INFERABLE_TAIL_CALL			11	/* no hart emits it */
#define RVP_ITYPE_COROUTINE_SWAP			12
#define RVP_ITYPE_RETURN				13
#define RVP_ITYPE_OTHER_UNINFERABLE_JUMP		14
#define RVP_ITYPE_OTHER_INFERABLE_JUMP			15

#endif /* RVPERF_NTRACE_H */
