/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rvp_trace.h - the file the TCG plugin writes and `rvperf record` turns
 * into perf.data: the CTR records of each sample exactly as the hardware
 * registers hold them (ctrsource, ctrtarget, ctrdata), so the mapping to
 * perf's branch entries lives in one place (userspace/rvperf/record.c) and
 * is tested there.
 *
 * Host byte order, no padding surprises: every field is 64 bits.
 *
 *   header   struct rvp_trace_header
 *   records  struct rvp_trace_record, then for a sample nr entries of
 *            struct rvp_trace_entry (newest first, logical entry 0 first)
 *   end      one record of kind RVP_TRACE_END, then struct rvp_trace_totals
 */
#ifndef RVPERF_RVP_TRACE_H
#define RVPERF_RVP_TRACE_H

#include <stdint.h>

#define RVP_TRACE_MAGIC		0x3130435254505652ULL	/* "RVPTRC01" */

struct rvp_trace_header {
	uint64_t magic;
	uint64_t layout;		/* 0 ratified v1.0, 1 draft v0.1.4 */
	uint64_t ctl;			/* mctrctl/mctrcontrol as programmed */
	uint64_t depth;			/* CTR entries */
	uint64_t event;			/* RVP_PMU_EVENT_* sampled (0: none) */
	uint64_t period;
	uint64_t pid;			/* the QEMU process: the guest's pid */
	uint64_t system;		/* 1: qemu-system (modes inferred) */
	uint64_t entry_code;		/* user mode: where the program entered */
	uint64_t start_code, end_code;
	uint64_t misp;			/* 1: ctrtarget.MISP is the predictor's */
};

enum rvp_trace_kind {
	RVP_TRACE_SAMPLE = 1,
	RVP_TRACE_END = 2,
};

struct rvp_trace_record {
	uint64_t kind;
	uint64_t tid;
	uint64_t ip;		/* where the sample's interrupt would be taken */
	uint64_t period;
	uint64_t time;		/* instructions this vCPU retired so far */
	uint64_t mode;		/* enum rvp_mode at ip */
	uint64_t nr;		/* entries following (0 for RVP_TRACE_END) */
};

struct rvp_trace_entry {
	uint64_t source, target, data;
};

/* Follows the RVP_TRACE_END record: what the plugin saw, for the user. */
struct rvp_trace_totals {
	uint64_t transfers;	/* control transfers given to the model */
	uint64_t dropped;	/* transfers whose outcome could not be told */
	uint64_t samples;	/* samples written */
	uint64_t instructions;	/* instructions retired, all vCPUs */
};

#endif /* RVPERF_RVP_TRACE_H */
