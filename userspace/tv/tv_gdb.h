/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tv_gdb.h - a tandem verifier with QEMU as the reference model.  The
 * interface the specification asks of a tandem verifier (read state, write
 * state, execute one instruction, reset) is what QEMU's gdbstub offers:
 * registers and memory ('g', 'p', 'P', 'm', 'M'), single step ('s') and
 * reset (the monitor's system_reset through qRcmd).
 */
#ifndef RVPERF_TV_GDB_H
#define RVPERF_TV_GDB_H

#include "tv.h"

/*
 * User mode: the guest address space QEMU reserves (-R) when recording and
 * verifying, so that the stack and mmap addresses are the same with and
 * without the gdbstub (which moves them otherwise).
 */
#define TV_USER_RESERVE "0x100000000"
/*
 * User mode: where Debian's riscv64 libraries are (libc6-riscv64-cross);
 * when it exists, record and verify both run QEMU with -L there, so that a
 * dynamically linked program finds its loader and libraries, the same ones
 * in both runs.
 */
#define TV_USER_LD_PREFIX "/usr/riscv64-linux-gnu"
/* How long verify waits for QEMU's gdbstub to listen (while QEMU runs). */
#define TV_GDB_START_SECONDS 120

struct tv_verify_opts {
	struct tv_config cfg;
	enum tv_mode mode;
	const char *qemu;	/* qemu-system-riscv64, or qemu-riscv64 (user) */
	const char *elf;	/* the program the trace ran */
	const char *machine;	/* system mode: -M (default virt) */
	bool user;		/* user mode: qemu-riscv64 -g */
	char *const *args;	/* user mode: the program's arguments */
	int n_args;
	const struct tv_nondet *nondet;
	const char *nondet_names;	/* the same as a list, for the plugin */
	uint64_t max;		/* stop after this many divergences; 0: all */
	/* After a divergence: false copies the trace's shadow state into
	 * QEMU (the specification's way); true takes QEMU's value into the
	 * shadow state (a trace with an isolated corruption). */
	bool resync_from_reference;
	tv_report_fn report;
	void *ctx;
};

struct tv_verify_result {
	uint64_t groups, steps, divergences;
	uint64_t empty_steps;	/* steps QEMU said it took, running nothing:
				 * taken again (not in steps) */
	char error[200];
};

/*
 * QEMU's command line for verify, as rvperf tv record runs it (user mode:
 * -R, -L; system mode: the machine without firmware, display, monitor or
 * serial), with HOW (how verify talks to it: a gdbstub's, a plugin's
 * options) before the program in user mode, at the end in system mode.
 * Fills ARGS (NULL-terminated); -1 when MAX entries are too few.
 */
int tv_qemu_args(const struct tv_verify_opts *o, char *const *how, int n_how, char **args,
		 int max);
/*
 * In a child: runs QEMU with ARGS (user mode: the empty environment
 * rvperf tv record gives, on the guest's stack), its standard output to
 * /dev/null when QUIET (the program's output would mix with the report).
 * Exits 127 when QEMU cannot run.
 */
__attribute__((noreturn)) void tv_qemu_exec(const struct tv_verify_opts *o, char **args,
					    bool quiet);

/* 0: no divergence, 1: divergences, -1: could not run (res->error). */
int tv_verify(const uint8_t *trace, size_t len, const struct tv_verify_opts *o,
	      struct tv_verify_result *res);

#endif /* RVPERF_TV_GDB_H */
