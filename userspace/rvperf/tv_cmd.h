/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tv_cmd.h - `rvperf tv`: the tandem-verification trace tools.
 */
#ifndef RVPERF_TV_CMD_H
#define RVPERF_TV_CMD_H

int rvperf_tv(int argc, char **argv);

#endif /* RVPERF_TV_CMD_H */
