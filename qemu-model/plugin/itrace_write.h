/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * itrace_write.h - the plugin's instruction-trace output (itrace=FILE); the
 * file format is rvp_itrace.h.
 */
#ifndef RVPERF_PLUGIN_ITRACE_WRITE_H
#define RVPERF_PLUGIN_ITRACE_WRITE_H

#include <stdbool.h>
#include <stdint.h>

int rvp_itrace_open(const char *path, bool system);
/* Describes a translated block; returns its id. */
uint32_t rvp_itrace_block(uint64_t start, uint32_t n, const uint32_t *words);
/* One execution of block ID on a vCPU in privilege mode PRIV. */
void rvp_itrace_exec(unsigned int vcpu_index, uint32_t id, uint32_t priv);
/* Writes what is buffered and closes the file. */
void rvp_itrace_close(void);

#endif /* RVPERF_PLUGIN_ITRACE_WRITE_H */
