/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * target/riscv/rvperf/rvperf-qemu.h - QEMU glue for the rvperf CTR model.
 *
 * The hook call sites apply.sh patches into target/riscv call these; all
 * logic lives in rvperf-qemu.c and the freestanding core next to it.
 */
#ifndef RISCV_RVPERF_QEMU_H
#define RISCV_RVPERF_QEMU_H

typedef struct RVPerfState RVPerfState;

/* cpu->rvperf_layout ("ratified", "draft" or unset) -> env->rvperf. */
void rvperf_cpu_realize(RISCVCPU *cpu, Error **errp);

/*
 * A CSR access by the guest; true when the model handled it (then *excp
 * holds the outcome), false to let QEMU's own CSR code run.
 */
bool rvperf_csrrw(CPURISCVState *env, int csrno, target_ulong *ret_value,
                  target_ulong new_value, target_ulong write_mask,
                  RISCVException *excp);

/*
 * Upstream's riscv_ctr_add_entry(): true when the model took the record
 * (transfer, trap or trap return).
 */
bool rvperf_ctr_add_entry(CPURISCVState *env, target_long src,
                          target_long dst, int type,
                          target_ulong src_priv, bool src_virt);

/* Migration subsection of vmstate_riscv_cpu (machine.c). */
extern const VMStateDescription vmstate_rvperf;

/* The riscv,pmu properties for the counter model; false without it. */
bool rvperf_pmu_fdt(RISCVCPU *cpu, void *fdt, const char *node);

/* riscv_cpu_set_mode(), before the change. */
void rvperf_mode_change(CPURISCVState *env);

/* riscv_cpu_reset_hold(): the model to its reset state. */
void rvperf_cpu_reset(CPURISCVState *env);

/* SCTRCLR: true when the model handled it, *excp as above. */
bool rvperf_sctrclr(CPURISCVState *env, RISCVException *excp);

#endif
