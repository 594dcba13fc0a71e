/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tv_plugin.h - what the trace plugin's recorder (tv_plugin.c) and its
 * verifier mode (tv_verify.c) share: an instruction as translated, and
 * which registers it can write.
 */
#ifndef RVPERF_TV_PLUGIN_H
#define RVPERF_TV_PLUGIN_H

#include <stdint.h>

#include "qemu_plugin_api.h"

struct insn_desc {
	uint64_t pc;
	uint32_t word;
	uint8_t len;
	uint8_t flags;		/* INSN_* */
	uint16_t dest;		/* register address it may write, 0: none */
	uint16_t csr;		/* CSR a CSR instruction names, or 0xffff */
	/* An integer load: its destination GPR (0: not one), the bytes it
	 * reads and whether it sign-extends them.  What it writes there is
	 * the value QEMU's memory callback sees, extended (tv_load_value()):
	 * no register read is needed. */
	uint16_t load_rd;
	uint8_t load_bytes;
	bool load_signed;
};
#define INSN_ALL_GPRS	1	/* ecall: the system call may write a0.. */
#define INSN_FP		2	/* may set fflags */
#define INSN_TRANSFER	4	/* jumps, branches, returns: pc may jump */
#define INSN_TRAPS	8	/* ecall, ebreak: always a trap */

/* Descriptors the plugins keep open sit at or above this: a user-mode
 * guest's open() shares QEMU's descriptors and gets the lowest free. */
#define TV_PLUGIN_FD_MIN 512

/* Fills D's dest, csr, flags and load_* from D->word (RV32/RV64 GC). */
void tv_insn_describe(struct insn_desc *d, unsigned int xlen);

/* What D, an integer load, wrote to its destination when it read VALUE. */
static inline uint64_t tv_load_value(const struct insn_desc *d, uint64_t value, unsigned int xlen)
{
	unsigned int sh = 64 - 8 * d->load_bytes;

	if (d->load_signed && sh)
		value = (uint64_t)((int64_t)(value << sh) >> sh);
	return xlen == 32 ? value & 0xffffffffull : value;
}

/*
 * Fills HANDLE[TV_NREGS] (by trace register address) and *PRIV with the
 * calling vCPU's register handles; entries QEMU does not offer stay NULL.
 * Called from a vCPU init callback.
 */
void tv_plugin_reg_handles(struct qemu_plugin_register **handle,
			   struct qemu_plugin_register **priv);

/* The verifier mode: qemu_plugin_install's work when verify= or probe= is
 * among ARGV (userspace/tv/tv_verify_plugin.h). */
int tv_verify_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc,
		      char **argv);

#endif /* RVPERF_TV_PLUGIN_H */
