/* SPDX-License-Identifier: BSD-2-Clause */
/* tests/qemu/hpm3.h - mhpmcounter3 over known code (hpm3.c) */
#ifndef RVPERF_TESTS_QEMU_HPM3_H
#define RVPERF_TESTS_QEMU_HPM3_H

/* mhpmcounter3's delta over N iterations of two instructions and its
 * second read (the first read counts itself) */
unsigned long hpm3_loop(unsigned long n);
/* mhpmcounter3 on EVENT from START before a 2100-nop M-mode sled: the
 * LCOFI's mepc minus the sled's start, 0 if it was not taken */
unsigned long hpm3_lcofi(unsigned long event, unsigned long start);
/* the LCOFI's mepc (0: none yet), mhpmcounter3 read by the handler 9
 * instructions into it, and where the handler sends an exception back to
 * (set by code that runs a sled elsewhere with hpm3_lcofi_trap as mtvec) */
extern unsigned long hpm3_lcofi_epc, hpm3_lcofi_count, hpm3_lcofi_back;
void hpm3_lcofi_trap(void);

#endif
