/* SPDX-License-Identifier: BSD-2-Clause */
/* script.h - `rvperf script`, called by main.c. */
#ifndef RVPERF_SCRIPT_H
#define RVPERF_SCRIPT_H

int rvperf_script(int argc, char **argv);

#endif /* RVPERF_SCRIPT_H */
