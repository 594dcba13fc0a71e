/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tv_verify_plugin.h - tandem verification inside QEMU: the trace plugin's
 * verifier mode (qemu-model/plugin/tv_verify.c) runs the program, keeps
 * the trace's shadow state and compares QEMU's state with it at each
 * retired instruction; rvperf tv verify (tv_verify_plugin.c) starts QEMU
 * with it and reads its reports.  Needs QEMU's plugin API level 5 (writing
 * registers and memory); tv_gdb.c's gdbstub path serves the others.
 *
 * Between the two: fixed-size records on a pipe, one per divergence and
 * one at the end (the counts, or why the verifier stopped).
 */
#ifndef RVPERF_TV_VERIFY_PLUGIN_H
#define RVPERF_TV_VERIFY_PLUGIN_H

#include "userspace/tv/tv_gdb.h"

enum tv_vrec_type {
	TV_VREC_DIVERGENCE = 1,
	TV_VREC_END = 2,	/* group: groups; a: instructions; b: divergences */
	TV_VREC_ERROR = 3,	/* msg: why verification could not go on */
};

/* struct tv_divergence's what, by number. */
enum tv_vrec_what {
	TV_VWHAT_NONE,
	TV_VWHAT_EXITED,	/* QEMU's program ended before the trace */
	TV_VWHAT_NO_IRQ,	/* an interrupt the plugin cannot give QEMU */
	TV_VWHAT_QEMU_IRQ,	/* QEMU took an interrupt the trace has not */
};
const char *tv_vrec_what_text(unsigned int what);

#define TV_VREC_MSG 112
struct tv_vrec {
	uint8_t type;		/* enum tv_vrec_type */
	uint8_t kind;		/* the element: enum tv_kind */
	uint8_t size;		/* TV_K_MEM: bytes */
	uint8_t what;		/* enum tv_vrec_what */
	uint8_t has_insn, a_known, b_known, pad;
	uint16_t reg;
	uint16_t pad2;
	uint32_t insn;
	uint64_t group, offset, pc, addr, a, b;
	char msg[TV_VREC_MSG];	/* TV_VREC_ERROR */
};

/*
 * The plugin's arguments (QEMU splits them at commas): verify=TRACE_FD,
 * report=FD (file descriptors the plugin inherits, at numbers no guest
 * open() gets), xlen=, flen=, mlen=, absent=MASK, nondet=A;B;..., max=N,
 * resync=trace|reference, mode=strict|lenient.  probe=FD: the plugin writes
 * TV_VERIFY_PROBE_YES there when this QEMU can run the verifier, and QEMU
 * exits at once.
 */
#define TV_VERIFY_PROBE_YES "verify\n"

/* Does QEMU (with the options verify gives it) run the verifier plugin? */
bool tv_verify_plugin_probe(const char *plugin, const struct tv_verify_opts *o);
/*
 * Verification on the plugin path: TRACE_FD is read as a stream (a file
 * or a pipe from a recorder).  Returns as tv_verify() does.
 */
int tv_verify_plugin(int trace_fd, const char *plugin, const struct tv_verify_opts *o,
		     struct tv_verify_result *res);

#endif /* RVPERF_TV_VERIFY_PLUGIN_H */
