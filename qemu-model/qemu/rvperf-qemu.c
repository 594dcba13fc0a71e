/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * target/riscv/rvperf/rvperf-qemu.c - QEMU glue for the rvperf CTR model:
 * maps QEMU's privilege state, CSR accesses and CTR records onto the
 * freestanding core (rvp_ctr.h).
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qemu/timer.h"
#include "exec/icount.h"
#include "hw/core/cpu.h"
#include "accel/tcg/cpu-ldst.h"
#include "cpu.h"
#include "rvperf-qemu.h"
#include "rvp_ctr.h"
#include "rvp_pred.h"

struct RVPerfState {
    struct rvp_ctr ctr;
    struct rvp_pred pred;
    /* mcycle's clock at the last accounting point (rvperf_account) */
    int64_t last_tick;
    bool tick_valid;
};

static enum rvp_mode rvperf_mode(target_ulong priv, bool virt)
{
    switch (priv) {
    case PRV_M:
        return RVP_MODE_M;
    case PRV_S:
        return virt ? RVP_MODE_VS : RVP_MODE_S;
    default:
        return virt ? RVP_MODE_VU : RVP_MODE_U;
    }
}

/* Bring the model's mode and state enables up to date with the hart. */
static void rvperf_sync(CPURISCVState *env, struct rvp_ctr *ctr,
                        target_ulong priv, bool virt)
{
    RISCVCPU *cpu = env_archcpu(env);
    enum rvp_mode mode = rvperf_mode(priv, virt);
    bool m_en = true, h_en = true;
    uint64_t bit = rvp_ctr_stateen_bit(ctr->cfg.layout);

    if (cpu->cfg.ext_smstateen) {
        m_en = priv == PRV_M || (env->mstateen[0] & bit);
        h_en = !virt || (env->hstateen[0] & bit);
    }
    if (ctr->mstateen_ctr != m_en || ctr->hstateen_ctr != h_en) {
        rvp_ctr_set_stateen(ctr, m_en, h_en);
    }
    if (ctr->mode != mode) {
        rvp_ctr_set_mode(ctr, mode);
    }
}

/*
 * The clock mcycle counts: instructions under -icount (deterministic),
 * host ticks otherwise.  False when it cannot be read here (icount in the
 * middle of a TB).
 */
static bool rvperf_now(int64_t *now)
{
    if (!icount_enabled()) {
        *now = cpu_get_host_ticks();
        return true;
    }
    if (current_cpu && current_cpu->running && !current_cpu->neg.can_do_io) {
        return false;
    }
    *now = icount_get_raw();
    return true;
}

/*
 * Give the model the cycles since the last accounting point, in its
 * current mode and state, before anything changes either.
 */
static void rvperf_account(RVPerfState *s)
{
    int64_t now;

    if (!rvperf_now(&now)) {
        if (s->ctr.counting) {
            rvp_ctr_cycles_lost(&s->ctr);
        }
        s->tick_valid = false;
        return;
    }
    if (s->tick_valid && now > s->last_tick) {
        rvp_ctr_cycles(&s->ctr, now - s->last_tick);
    } else if (!s->tick_valid && s->ctr.counting) {
        rvp_ctr_cycles_lost(&s->ctr);
    }
    s->last_tick = now;
    s->tick_valid = true;
}

static RISCVException rvperf_excp(enum rvp_access a)
{
    switch (a) {
    case RVP_ACCESS_OK:
        return RISCV_EXCP_NONE;
    case RVP_ACCESS_VIRTUAL:
        return RISCV_EXCP_VIRT_INSTRUCTION_FAULT;
    default:
        return RISCV_EXCP_ILLEGAL_INST;
    }
}

void rvperf_cpu_realize(RISCVCPU *cpu, Error **errp)
{
    struct rvp_ctr_config cfg;
    enum rvp_ctr_layout layout;
    const char *why;
    RVPerfState *s;

    if (!cpu->rvperf_layout) {
        return;
    }
    if (!strcmp(cpu->rvperf_layout, "ratified")) {
        layout = RVP_CTR_LAYOUT_RATIFIED;
    } else if (!strcmp(cpu->rvperf_layout, "draft")) {
        layout = RVP_CTR_LAYOUT_DRAFT;
    } else {
        error_setg(errp, "ctr-layout must be 'ratified' or 'draft', not '%s'",
                   cpu->rvperf_layout);
        return;
    }
    rvp_ctr_config_default(&cfg, layout);
    cfg.h_ext = riscv_has_ext(&cpu->env, RVH);
    cfg.sscofpmf = cpu->cfg.ext_sscofpmf;
    cfg.xlen = 64;
    cfg.misp = true;
    why = rvp_ctr_config_check(&cfg);
    if (why) {
        error_setg(errp, "ctr-layout: %s", why);
        return;
    }
    s = g_new0(RVPerfState, 1);
    if (rvp_ctr_init(&s->ctr, &cfg)) {
        g_free(s);
        error_setg(errp, "ctr-layout: model rejected the configuration");
        return;
    }
    rvp_pred_init(&s->pred);
    cpu->env.rvperf = s;
}

uint64_t rvperf_tb_cs_base(CPURISCVState *env)
{
    RVPerfState *s = env->rvperf;
    enum rvp_mode mode = rvperf_mode(env->priv, env->virt_enabled);

    if (!s->ctr.frozen && rvp_ctr_mode_enabled(&s->ctr, mode)) {
        return 0;
    }
    return RVPERF_TB_CTR_OFF;
}

static bool rvperf_ireg(int csrno, target_ulong *iselect,
                        CPURISCVState *env)
{
    switch (csrno) {
    case CSR_MIREG:
    case CSR_MIREG2:
    case CSR_MIREG3:
    case CSR_MIREG4:
    case CSR_MIREG5:
    case CSR_MIREG6:
        *iselect = env->miselect;
        return true;
    case CSR_SIREG:
    case CSR_SIREG2:
    case CSR_SIREG3:
    case CSR_SIREG4:
    case CSR_SIREG5:
    case CSR_SIREG6:
        *iselect = env->virt_enabled ? env->vsiselect : env->siselect;
        return true;
    case CSR_VSIREG:
    case CSR_VSIREG2:
    case CSR_VSIREG3:
    case CSR_VSIREG4:
    case CSR_VSIREG5:
    case CSR_VSIREG6:
        *iselect = env->vsiselect;
        return true;
    default:
        return false;
    }
}

bool rvperf_csrrw(CPURISCVState *env, int csrno, target_ulong *ret_value,
                  target_ulong new_value, target_ulong write_mask,
                  RISCVException *excp)
{
    RVPerfState *s = env->rvperf;
    target_ulong iselect;
    enum rvp_access a;
    uint64_t old = 0;
    bool ireg;

    if (!s) {
        return false;
    }
    rvperf_sync(env, &s->ctr, env->priv, env->virt_enabled);
    ireg = rvperf_ireg(csrno, &iselect, env);
    if (ireg) {
        a = rvp_ctr_ireg_read(&s->ctr, csrno, iselect, &old);
    } else {
        a = rvp_ctr_csr_read(&s->ctr, csrno, &old);
    }
    if (a == RVP_ACCESS_NOT_MINE) {
        return false;
    }
    if (a == RVP_ACCESS_OK && write_mask) {
        uint64_t val = (old & ~(uint64_t)write_mask) |
                       (new_value & write_mask);

        if (!ireg) {
            /* may change what is counted: the cycles so far first */
            rvperf_account(s);
        }
        a = ireg ? rvp_ctr_ireg_write(&s->ctr, csrno, iselect, val)
                 : rvp_ctr_csr_write(&s->ctr, csrno, val);
    }
    if (a == RVP_ACCESS_OK && ret_value) {
        *ret_value = old;
    }
    *excp = rvperf_excp(a);
    return true;
}

bool rvperf_sctrclr(CPURISCVState *env, RISCVException *excp)
{
    RVPerfState *s = env->rvperf;

    if (!s) {
        return false;
    }
    rvperf_sync(env, &s->ctr, env->priv, env->virt_enabled);
    rvperf_account(s);
    *excp = rvperf_excp(rvp_ctr_sctrclr(&s->ctr));
    return true;
}

/*
 * The length of the transfer instruction at SRC, which the predictor's
 * return-address stack needs for calls and co-routine swaps (0: unknown).
 */
static unsigned int rvperf_insn_len(CPURISCVState *env, int type,
                                    target_ulong src)
{
    switch (type) {
    case CTRDATA_TYPE_DIRECT_CALL:
    case CTRDATA_TYPE_INDIRECT_CALL:
    case CTRDATA_TYPE_CO_ROUTINE_SWAP:
        return (cpu_lduw_code(env, src) & 3) == 3 ? 4 : 2;
    default:
        return 0;
    }
}

bool rvperf_ctr_add_entry(CPURISCVState *env, target_long src,
                          target_long dst, int type,
                          target_ulong src_priv, bool src_virt)
{
    RVPerfState *s = env->rvperf;
    enum rvp_mode target = rvperf_mode(env->priv, env->virt_enabled);
    target_ulong cause;

    if (!s) {
        return false;
    }
    rvperf_sync(env, &s->ctr, src_priv, src_virt);
    rvperf_account(s);
    switch (type) {
    case CTRDATA_TYPE_EXCEPTION:
    case CTRDATA_TYPE_INTERRUPT:
        /* riscv_cpu_do_interrupt() has written the target's xcause. */
        cause = env->priv == PRV_M ? env->mcause : env->scause;
        rvp_ctr_trap(&s->ctr, type == CTRDATA_TYPE_INTERRUPT,
                     cause & ~((target_ulong)1 << (TARGET_LONG_BITS - 1)),
                     target, src, dst);
        break;
    case CTRDATA_TYPE_EXCEP_INT_RET:
        rvp_ctr_trap_return(&s->ctr, target, src, dst);
        break;
    default:
        rvp_ctr_transfer(&s->ctr, type, src, dst,
                         rvp_pred_update(&s->pred, type, src, dst,
                                         rvperf_insn_len(env, type, src)));
        break;
    }
    rvperf_sync(env, &s->ctr, env->priv, env->virt_enabled);
    return true;
}
