/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tv_disas.h - the RV32/RV64 GC disassembler of trace listings.
 */
#ifndef RVPERF_TV_DISAS_H
#define RVPERF_TV_DISAS_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "tv.h"

/*
 * Writes "mnemonic operands" of INSN (low 16 bits when compressed) at PC
 * into BUF, objdump's no-aliases spelling with ABI register names and
 * absolute branch targets.  Returns 1, or 0 for an encoding it does not
 * know (then BUF holds ".4byte 0x..." / ".2byte 0x...").
 */
int tv_disas(uint32_t insn, uint64_t pc, unsigned int xlen, char *buf,
	     size_t len);
/*
 * Does INSN's text depend on its pc (a branch or jump target)?  If not,
 * one disassembly serves every pc (the dump keeps them by instruction).
 */
bool tv_disas_pc_relative(uint32_t insn, unsigned int xlen);

#endif /* RVPERF_TV_DISAS_H */
