/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rvp_trace.h - the trace the TCG plugin writes (out=): per sample the CTR
 * records exactly as the hardware registers hold them (ctrsource,
 * ctrtarget, ctrdata), and what it saw of the process.  As `rvperf record`
 * runs it (perf=), the samples, mappings and forks go to the perf.data
 * file instead, as perf records (userspace/perfdata/ctr_branch.h maps CTR
 * records to perf's branch entries), and this trace holds the rest: the
 * header, the mappings (with where their MMAP2 records lie), forks, exec
 * and totals, from which rvperf record finishes the perf.data file.
 *
 * Host byte order, no padding surprises: every field is 64 bits.
 *
 *   header   struct rvp_trace_header
 *   records  struct rvp_trace_record, then for a sample nr entries of
 *            struct rvp_trace_entry (newest first, logical entry 0 first)
 *            or, for the other kinds but RVP_TRACE_END, nr 64-bit words:
 *            the kind's struct, then its string (NUL-padded to 8 bytes)
 *   end      one record of kind RVP_TRACE_END, then struct rvp_trace_totals
 *
 * User mode follows the guest's processes: a forked child (a new QEMU
 * process) writes its own trace, at the parent's path with ".PID"
 * appended, and the parent notes it with an RVP_TRACE_FORK record.  Each
 * file is in time order per thread; time is instructions retired by the
 * thread, a forked child's continuing from its parent's at the fork.
 */
#ifndef RVPERF_RVP_TRACE_H
#define RVPERF_RVP_TRACE_H

#include <stdint.h>

#define RVP_TRACE_MAGIC		0x3230435254505652ULL	/* "RVPTRC02" */

struct rvp_trace_header {
	uint64_t magic;
	uint64_t layout;		/* 0 ratified v1.0, 1 draft v0.1.4 */
	uint64_t ctl;			/* mctrctl/mctrcontrol as programmed */
	uint64_t depth;			/* CTR entries */
	uint64_t event;			/* HPMHW_EVENT_* sampled (0: none) */
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
	RVP_TRACE_MMAP = 3,	/* struct rvp_trace_mmap, then the path */
	RVP_TRACE_FORK = 4,	/* struct rvp_trace_fork */
	RVP_TRACE_EXEC = 5,	/* struct rvp_trace_totals: the trace ends
				 * here if the exec succeeded (not followed) */
};

struct rvp_trace_record {
	uint64_t kind;
	uint64_t tid;
	uint64_t ip;		/* where the sample's interrupt would be taken */
	uint64_t period;
	uint64_t time;		/* instructions this vCPU retired so far */
	uint64_t mode;		/* enum hw_mode at ip */
	uint64_t nr;		/* entries following (0 for RVP_TRACE_END) */
};

struct rvp_trace_entry {
	uint64_t source, target, data;
};

/* An executable file mapping the guest made (mmap with PROT_EXEC and an
 * fd): where, and the host's absolute path of the fd's file. */
struct rvp_trace_mmap {
	uint64_t start, len, pgoff;	/* pgoff in bytes, as mmap's offset */
	uint64_t prot, flags;
	uint64_t dev, ino;		/* st_dev, st_ino of the file */
	uint64_t perf_off;		/* perf=: its MMAP2 record's offset in
					 * the process's perf file (else ~0) */
	uint64_t path_len;		/* bytes of path, without its NUL */
};

/* A clone that returned in the parent: a thread (pid == ppid) or a process
 * (whose trace is the parent's path with ".PID"). */
struct rvp_trace_fork {
	uint64_t pid, ppid, tid, ptid;
};

/* Follows the RVP_TRACE_END record: what the plugin saw, for the user. */
struct rvp_trace_totals {
	uint64_t transfers;	/* control transfers given to the model */
	uint64_t dropped;	/* transfers whose outcome could not be told */
	uint64_t samples;	/* samples written */
	uint64_t instructions;	/* instructions retired, all vCPUs */
};

#endif /* RVPERF_RVP_TRACE_H */
