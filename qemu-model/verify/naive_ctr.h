/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * naive_ctr.h - a deliberately naive transcription of the CTR spec
 * (Smctr/Ssctr v1.0, ratified layout, and the v0.1.4 draft layout),
 * written from the spec text and not from qemu-model/core/ctrhw.c, for the
 * differential test diff_ctr.c.  It models one hart: mode,
 * mstateen0/hstateen0 (SE0, CSRIND, CTR), the *iselect registers, the CTR
 * CSRs and entries, nothing else.
 */
#ifndef RVPERF_QEMU_MODEL_NAIVE_CTR_H
#define RVPERF_QEMU_MODEL_NAIVE_CTR_H

#include <stdbool.h>
#include <stdint.h>

/* Outcomes, as in hwmodel.h's enum hw_access (compared by value). */
#define NV_OK		0
#define NV_ILLEGAL	1
#define NV_VIRTUAL	2

/* Modes as mstatus.MPP (+4 for V=1): U=0 S=1 M=3 VU=4 VS=5. */
#define NV_U	0
#define NV_S	1
#define NV_M	3
#define NV_VU	4
#define NV_VS	5

struct naive_ctr {
	bool draft;			/* v0.1.4 layout */
	int mode;
	bool wrap;			/* draft mctrstatus.WRAP */
	unsigned int cce_bits;		/* implemented CCE bits */
	uint64_t impl;			/* implemented optional ctl fields */
	uint64_t dmin, dmax;		/* supported depth codes (0..4) */
	bool type_field, cc, smstateen;	/* ctrdata.TYPE, CCV/CC, Smstateen */
	bool rv32;			/* MXLEN = XLEN = 32 */
	uint64_t mctrctl, vsctrctl;
	uint64_t depth_code;		/* sctrdepth.DEPTH (draft: 0..4 for
					 * DEPTH 0000, 0001, 0011, 0111, 1111) */
	uint64_t wrptr;
	bool frozen;
	bool mstateen_ctr, hstateen_ctr;	/* bit 54 of the registers */
	bool mstateen_se0, mstateen_csrind, hstateen_se0, hstateen_csrind;
	uint64_t miselect, siselect, vsiselect;
	uint64_t counter;		/* CtrCycleCounter */
	bool counter_valid;		/* next record may set CCV */
	uint64_t src[256], dst[256], data[256];	/* physical entries */
};

void naive_init(struct naive_ctr *n, bool draft, unsigned int cce_bits);
/* Without Smstateen: the state-enable registers do not exist and every
 * access they would gate is open. */
void naive_no_smstateen(struct naive_ctr *n);
/* The optional control fields of the layout, from the spec's field list. */
uint64_t naive_optional_fields(bool draft);
int naive_csr_read(struct naive_ctr *n, unsigned int csr, uint64_t *val);
int naive_csr_write(struct naive_ctr *n, unsigned int csr, uint64_t val);
int naive_sctrclr(struct naive_ctr *n);
void naive_transfer(struct naive_ctr *n, unsigned int type, uint64_t src,
		    uint64_t dst);
void naive_cycles(struct naive_ctr *n, uint64_t cycles);
void naive_trap(struct naive_ctr *n, bool interrupt, uint64_t cause, int to,
		uint64_t epc, uint64_t vector);
void naive_xret(struct naive_ctr *n, int to, uint64_t src, uint64_t dst);
unsigned int naive_depth(const struct naive_ctr *n);

#endif
