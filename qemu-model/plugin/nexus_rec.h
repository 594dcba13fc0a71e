/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nexus_rec.h - N-Trace recorded inside the plugin (nexus=FILE): each
 * executed block goes straight into the encoder of userspace/nexus, and
 * the trace (with its configuration header) is written while QEMU runs.
 */
#ifndef RVPERF_PLUGIN_NEXUS_REC_H
#define RVPERF_PLUGIN_NEXUS_REC_H

#include <stdbool.h>
#include <stdint.h>

/* A plugin argument KEY=VAL: 1 when it is not one of ours (nexus=FILE, or
 * nx-OPTION=VALUE with the trace header's option names), 0 when taken,
 * -1 (reported) when bad. */
int rvp_nexus_arg(const char *key, const char *val);
/* Whether nexus=FILE was given. */
bool rvp_nexus_wanted(void);
/* Creates the trace and writes its header: 0, or -1 (reported). */
int rvp_nexus_open(void);
/* Describes a translated block (N instructions from START): the udata of
 * its execution callback, or NULL when out of memory. */
void *rvp_nexus_block(uint64_t start, uint32_t n, const uint32_t *words);
/* The block's start (what system mode asks the privilege mode of). */
uint64_t rvp_nexus_block_start(const void *udata);
/* One execution on VCPU_INDEX in privilege mode PRIV (0 U, 1 S, 3 M). */
void rvp_nexus_exec(unsigned int vcpu_index, void *udata, unsigned int priv);
/* The execution callback for user mode (always U-mode), after
 * rvp_nexus_open(). */
typedef void (*rvp_nexus_exec_fn)(unsigned int vcpu_index, void *udata);
rvp_nexus_exec_fn rvp_nexus_exec_user(void);
/* The last instruction, the closing message, the bytes flushed; prints
 * what was written. */
void rvp_nexus_close(void);

#endif /* RVPERF_PLUGIN_NEXUS_REC_H */
