/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * insnhw.h - what a retired RISC-V instruction is as a control
 * transfer: its CTR transfer type (ctrdata TYPE, "Transfer Type Filtering"
 * table of opcodes) and its N-Trace itype (N-Trace 1.0 Table 2, 4-bit and
 * 3-bit ingress ports).  Shared by the CTR model's hosts and the N-Trace
 * encoder.  The two tables disagree on purpose in places (jal x0 is a CTR
 * direct jump but N-Trace "other inferable jump"; cm.jt is a CTR direct
 * jump but N-Trace "no special type"), so both are reported.
 */
#ifndef RVPERF_QEMU_MODEL_INSNHW_H
#define RVPERF_QEMU_MODEL_INSNHW_H

#include "rvperf/types.h"
#include <stdbool.h>

/* Extensions whose encodings reuse others' (Zcmp/Zcmt take c.fsdsp's). */
#define INSNHW_ZCMP (1u << 0)
#define INSNHW_ZCMT (1u << 1)

struct insnhw_class {
	unsigned int length;	/* 2 or 4 bytes */
	unsigned int type;	/* ctrdata TYPE; RVP_CTRDATA_TYPE_NONE: no
				 * control transfer CTR records */
	unsigned int itype;	/* N-Trace 4-bit itype */
	unsigned int itype3;	/* N-Trace 3-bit itype */
	bool direct;		/* target = pc + offset */
	int64_t offset;
	bool table_jump;	/* cm.jt/cm.jalt: target from the jump table */
	bool conditional;	/* a conditional branch */
};

/*
 * Classifies the instruction INSN (low 16 bits only when compressed) for a
 * hart with XLEN 32 or 64 and the INSNHW_* extensions in EXTS; TAKEN
 * is the outcome of a conditional branch.  Exceptions the instruction
 * raises are the host's business: ecall/ebreak report TYPE exception only
 * because N-Trace Table 2 lists them.
 */
void insnhw_classify(uint32_t insn, unsigned int xlen, unsigned int exts,
		     bool taken, struct insnhw_class *out);

#endif /* RVPERF_QEMU_MODEL_INSNHW_H */
