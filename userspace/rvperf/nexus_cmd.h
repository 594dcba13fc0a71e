/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nexus_cmd.h - `rvperf nexus` (nexus_cmd.c): N-Trace record, encode,
 * decode, dump, stat and inject.
 */
#ifndef RVPERF_NEXUS_CMD_H
#define RVPERF_NEXUS_CMD_H

int rvperf_nexus(int argc, char **argv);

#endif /* RVPERF_NEXUS_CMD_H */
