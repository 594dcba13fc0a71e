/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * target/riscv/rvperf/rvperf-qemu.c - QEMU glue for the rvperf CTR model:
 * maps QEMU's privilege state, CSR accesses and CTR records onto the
 * freestanding core (ctrhw.h).
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "exec/icount.h"
#include "hw/core/cpu.h"
#include "migration/vmstate.h"
#include "system/device_tree.h"
#include "cpu.h"
#include "exec/helper-proto.h"
#include "rvperf-qemu.h"
#include "rvperf/ctr.h"
#include "qemu-model/core/ctrhw.h"
#include "qemu-model/core/predhw.h"
#include "qemu-model/core/hpmhw.h"
#include "qemu-model/core/hpmhw_map.h"
#include "rvperf/csr.h"

struct RVPerfState {
    struct ctrhw ctr;
    struct predhw pred;
    /* The counter model behind mhpmcounter3..31 / mhpmevent3..31. */
    struct hpmhw pmu;
    /* mcycle's clock at the last accounting point (rvperf_account) */
    int64_t last_tick;
    bool tick_valid;
    bool icount;            /* -icount: cycles are counted */
    /* bit mode: a counter counts transfers there (rvperf_update_rec) */
    uint8_t pmu_xfer_modes;
    bool in_stateen;        /* rvperf_stateen() is in QEMU's own access */
    CPURISCVState *env;     /* for post_load */
    /* The model's state in plain types for migration (vmstate_rvperf). */
    struct {
        uint64_t mctl, vsctl, cycle_counter;
        uint32_t depth_log, wrptr, mode;
        uint32_t layout;    /* the sender's ctr-layout (version 2) */
        bool wrap, frozen, mstateen_ctr, hstateen_ctr, ccv_valid;
        uint64_t source[CTRHW_MAX_DEPTH], target[CTRHW_MAX_DEPTH];
        uint64_t data[CTRHW_MAX_DEPTH];
        uint64_t hpm_counter[29], hpm_event[29];   /* 3..31 */
    } mig;
};

static enum hw_mode rvperf_mode(target_ulong priv, bool virt)
{
    switch (priv) {
    case PRV_M:
        return HW_MODE_M;
    case PRV_S:
        return virt ? HW_MODE_VS : HW_MODE_S;
    default:
        return virt ? HW_MODE_VU : HW_MODE_U;
    }
}

/* Bring the model's mode and state enables up to date with the hart. */
static void rvperf_sync(CPURISCVState *env, struct ctrhw *ctr,
                        target_ulong priv, bool virt)
{
    RISCVCPU *cpu = env_archcpu(env);
    enum hw_mode mode = rvperf_mode(priv, virt);
    bool m_en = true, h_en = true;
    uint64_t bit = ctrhw_stateen_bit(ctr->cfg.layout);

    if (cpu->cfg.ext_smstateen) {
        m_en = priv == PRV_M || (env->mstateen[0] & bit);
        h_en = !virt || (env->hstateen[0] & bit);
    }
    if (ctr->mstateen_ctr != m_en || ctr->hstateen_ctr != h_en) {
        ctrhw_set_stateen(ctr, m_en, h_en);
    }
    if (ctr->mode != mode) {
        ctrhw_set_mode(ctr, mode);
    }
}

/*
 * The guest's cycles under -icount: what QEMU's mcycle counts then, the
 * virtual clock in ns (instructions << shift, plus the time the hart
 * spent idle in WFI: it runs on while the hart waits, as a core clock
 * does); deterministic.  Without -icount QEMU has no guest cycle count
 * (mcycle shows host ticks, i.e. emulation time), so records say CCV=0;
 * that also spares a host clock read per record.  False when there is no
 * count here (no -icount, or icount in the middle of a TB).
 */
static bool rvperf_now(RVPerfState *s, int64_t *now)
{
    if (!s->icount) {
        return false;
    }
    if (current_cpu && current_cpu->running && !current_cpu->neg.can_do_io) {
        return false;
    }
    *now = icount_get();
    return true;
}

/*
 * Give the model the cycles since the last accounting point, in its
 * current mode and state, before anything changes either.
 */
static void rvperf_account(RVPerfState *s)
{
    int64_t now;

    if (!rvperf_now(s, &now)) {
        if (s->ctr.counting) {
            ctrhw_cycles_lost(&s->ctr);
        }
        s->tick_valid = false;
        return;
    }
    if (s->tick_valid && now > s->last_tick) {
        ctrhw_cycles(&s->ctr, now - s->last_tick);
    } else if (!s->tick_valid && s->ctr.counting) {
        ctrhw_cycles_lost(&s->ctr);
    }
    s->last_tick = now;
    s->tick_valid = true;
}

static RISCVException rvperf_excp(enum hw_access a)
{
    switch (a) {
    case HW_ACCESS_OK:
        return RISCV_EXCP_NONE;
    case HW_ACCESS_VIRTUAL:
        return RISCV_EXCP_VIRT_INSTRUCTION_FAULT;
    default:
        return RISCV_EXCP_ILLEGAL_INST;
    }
}

/*
 * A counter of the model overflowed with OF clear (Sscofpmf): QEMU owns
 * mip, so the LCOFI goes there, as for its own counters.
 */
static void rvperf_raise_lcofi(void *opaque)
{
    CPURISCVState *env = opaque;

    riscv_cpu_update_mip(env, MIP_LCOFIP, BOOL_TO_MASK(1));
}

static const struct hpmhw_ops rvperf_pmu_ops = {
    .raise_lcofi = rvperf_raise_lcofi,
};

static void rvperf_update_rec(CPURISCVState *env, RVPerfState *s);

void rvperf_cpu_realize(RISCVCPU *cpu, Error **errp)
{
    struct ctrhw_config cfg;
    enum ctrhw_layout layout;
    unsigned int hpm;
    const char *why;
    RVPerfState *s;

    if (!cpu->rvperf_layout) {
        return;
    }
    if (!strcmp(cpu->rvperf_layout, "ratified")) {
        layout = CTRHW_LAYOUT_RATIFIED;
    } else if (!strcmp(cpu->rvperf_layout, "draft")) {
        layout = CTRHW_LAYOUT_DRAFT;
    } else {
        error_setg(errp, "ctr-layout must be 'ratified' or 'draft', not '%s'",
                   cpu->rvperf_layout);
        return;
    }
    ctrhw_config_default(&cfg, layout);
    cfg.h_ext = riscv_has_ext(&cpu->env, RVH);
    cfg.sscofpmf = cpu->cfg.ext_sscofpmf;
    /* MXLEN: an rv32 CPU of qemu-system-riscv64 too */
    cfg.xlen = riscv_cpu_mxl(&cpu->env) == MXL_RV32 ? 32 : 64;
    cfg.misp = true;
    why = ctrhw_config_check(&cfg);
    if (why) {
        error_setg(errp, "ctr-layout: %s", why);
        return;
    }
    /* The counter model's hpm counters are 3, 4, ... without gaps. */
    hpm = ctpop32(cpu->cfg.pmu_mask);
    if (cpu->cfg.pmu_mask != MAKE_64BIT_MASK(3, hpm)) {
        error_setg(errp, "ctr-layout: pmu-mask must be the counters from 3 "
                   "up, without gaps (0x%" PRIx32 ")", cpu->cfg.pmu_mask);
        return;
    }
    s = g_new0(RVPerfState, 1);
    if (ctrhw_init(&s->ctr, &cfg)) {
        g_free(s);
        error_setg(errp, "ctr-layout: model rejected the configuration");
        return;
    }
    predhw_init(&s->pred);
    {
        /* the hpm counters QEMU implements (pmu-mask: 3..18 by default) */
        struct hpmhw_config pc = {
            .hpm_counters = hpm,
            .sscofpmf = cpu->cfg.ext_sscofpmf,
            .h_ext = cfg.h_ext,
            .xlen = cfg.xlen,
        };

        hpmhw_init(&s->pmu, &pc, &rvperf_pmu_ops, &cpu->env);
    }
    s->icount = icount_enabled();
    s->env = &cpu->env;
    cpu->env.rvperf = s;
    rvperf_update_rec(&cpu->env, s);
}

/*
 * Per mode, what the translated code must do about transfers
 * (env->rvperf_tb_bits, which riscv_get_tb_cpu_state() puts in cs_base):
 * nothing where the model neither records nor counts them
 * (RVPERF_TB_CTR_OFF), one helper call each where a counter counts them
 * (RVPERF_TB_CTR_DIRECT), else buffer them.  After anything that may
 * change the control registers, FROZEN or what the counters count.
 */
static void rvperf_update_rec(CPURISCVState *env, RVPerfState *s)
{
    static const enum hw_mode modes[] = {
        HW_MODE_U, HW_MODE_S, HW_MODE_M, HW_MODE_VU, HW_MODE_VS,
    };
    static const enum hpmhw_event xfer_events[] = {
        HPMHW_EVENT_BRANCHES, HPMHW_EVENT_TAKEN_BRANCHES,
        HPMHW_EVENT_MISPREDICTS, HPMHW_EVENT_CALLS,
        HPMHW_EVENT_RETURNS, HPMHW_EVENT_OTHER_JUMPS,
    };
    uint8_t rec = 0, pmu = 0;

    for (int i = 0; i < ARRAY_SIZE(modes); i++) {
        if (!s->ctr.frozen && ctrhw_mode_enabled(&s->ctr, modes[i])) {
            rec |= 1u << modes[i];
        }
        /* A counter counting transfers needs the calls too. */
        for (int e = 0; e < ARRAY_SIZE(xfer_events); e++) {
            if (s->pmu.counts[modes[i]][xfer_events[e]]) {
                pmu |= 1u << modes[i];
            }
        }
    }
    s->pmu_xfer_modes = pmu;
    for (int m = 0; m < ARRAY_SIZE(env->rvperf_tb_bits); m++) {
        env->rvperf_tb_bits[m] =
            !(((rec | pmu) >> m) & 1) ? RVPERF_TB_CTR_OFF :
            ((pmu >> m) & 1) ? RVPERF_TB_CTR_DIRECT : 0;
    }
}

static void rvperf_flush(CPURISCVState *env, RVPerfState *s);

/* Whatever the translated code has buffered goes to the model first. */
static inline void rvperf_drain(CPURISCVState *env, RVPerfState *s)
{
    if (unlikely(env->rvperf_xfer_end)) {
        rvperf_flush(env, s);
    }
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

/*
 * QEMU's own copy of mhpmevent@n, all 64 bits: on RV32 it keeps bits
 * 63:32 (mhpmeventNh) apart.
 */
static uint64_t rvperf_qemu_event(CPURISCVState *env, int n)
{
    if (riscv_cpu_mxl(env) == MXL_RV32) {
        return (uint32_t)env->mhpmevent_val[n] |
               (uint64_t)env->mhpmeventh_val[n] << 32;
    }
    return env->mhpmevent_val[n];
}

/*
 * Whether hpm counter @n counts an event QEMU counts itself (cycles,
 * instructions): QEMU then keeps the counter, with its overflow interrupt
 * (OF, LCOFI, scountovf), which the counter model does not drive.  QEMU's
 * own mhpmevent copy says, as every mhpmevent write reaches it too.
 */
static bool rvperf_hpm_is_qemu(CPURISCVState *env, int n)
{
    /* The selector is bits 55:0 (63:56 are Sscofpmf's OF and xINH). */
    uint64_t sel = rvperf_qemu_event(env, n) & MAKE_64BIT_MASK(0, 56);

    return sel == RISCV_PMU_EVENT_HW_CPU_CYCLES ||
           sel == RISCV_PMU_EVENT_HW_INSTRUCTIONS;
}

/*
 * mhpmcounter3..31, mhpmevent3..31, hpmcounter3..31 and, on RV32, their
 * upper halves (...h): the counter model, except counters counting cycles
 * or instructions, which stay QEMU's (rvperf_hpm_is_qemu).  mhpmevent
 * writes go to both.  QEMU keeps mcycle, minstret, mcountinhibit and the
 * counter enables; the model sees the enables as QEMU has them.  Upper
 * halves the model lacks (RV64; mhpmeventNh without Sscofpmf) are QEMU's.
 */
static bool rvperf_pmu_csr(CPURISCVState *env, RVPerfState *s, int csrno,
                           target_ulong *ret_value, target_ulong new_value,
                           target_ulong write_mask, RISCVException *excp)
{
    enum hw_mode mode = rvperf_mode(env->priv, env->virt_enabled);
    enum hw_access a;
    uint64_t old = 0;
    bool event = (csrno >= RVP_CSR_MHPMEVENT3 &&
                  csrno <= RVP_CSR_MHPMEVENT31) ||
                 (csrno >= RVP_CSR_MHPMEVENT3H &&
                  csrno <= RVP_CSR_MHPMEVENT31H);
    int n;

    if (csrno == RVP_CSR_MCOUNTINHIBIT) {
        /*
         * QEMU keeps (and answers) it; the model's copy stops its own
         * counters.  Only M-mode may write it.
         */
        if (write_mask && env->priv == PRV_M) {
            hpmhw_csr_write(&s->pmu, HW_MODE_M, csrno,
                            (s->pmu.mcountinhibit & ~(uint64_t)write_mask) |
                            (new_value & write_mask));
            rvperf_update_rec(env, s);
        }
        return false;
    }
    if (csrno == RVP_CSR_SCOUNTOVF) {
        if (write_mask) {
            return false;   /* read-only: QEMU's exception */
        }
        /* OF of the counters QEMU keeps, from its mhpmevent copy */
        for (n = 3; n < 32; n++) {
            if (rvperf_hpm_is_qemu(env, n)) {
                s->pmu.event[n] = (s->pmu.event[n] & ~RVP_MHPMEVENT_OF) |
                                  (rvperf_qemu_event(env, n) &
                                   RVP_MHPMEVENT_OF);
            }
        }
        s->pmu.mcounteren = env->mcounteren;
        s->pmu.hcounteren = env->hcounteren;
        a = hpmhw_csr_read(&s->pmu, mode, csrno, &old);
        if (a == HW_ACCESS_NOT_MINE) {
            return false;
        }
        if (a == HW_ACCESS_OK && ret_value) {
            *ret_value = old;
        }
        *excp = rvperf_excp(a);
        return true;
    }
    if (csrno >= RVP_CSR_MHPMCOUNTER3 && csrno <= RVP_CSR_MHPMCOUNTER31) {
        n = csrno - RVP_CSR_MHPMCOUNTER3 + 3;
    } else if (csrno >= RVP_CSR_MHPMCOUNTER3H &&
               csrno <= RVP_CSR_MHPMCOUNTER31H) {
        n = csrno - RVP_CSR_MHPMCOUNTER3H + 3;
    } else if (csrno >= RVP_CSR_HPMCOUNTER3 && csrno <= RVP_CSR_HPMCOUNTER31) {
        n = csrno - RVP_CSR_HPMCOUNTER3 + 3;
    } else if (csrno >= RVP_CSR_HPMCOUNTER3H &&
               csrno <= RVP_CSR_HPMCOUNTER31H) {
        n = csrno - RVP_CSR_HPMCOUNTER3H + 3;
    } else if (csrno >= RVP_CSR_MHPMEVENT3 && csrno <= RVP_CSR_MHPMEVENT31) {
        n = csrno - RVP_CSR_MHPMEVENT3 + 3;
    } else if (event) {
        n = csrno - RVP_CSR_MHPMEVENT3H + 3;
    } else {
        return false;
    }
    if (!event && rvperf_hpm_is_qemu(env, n)) {
        return false;
    }
    s->pmu.mcounteren = env->mcounteren;
    s->pmu.scounteren = env->scounteren;
    s->pmu.hcounteren = env->hcounteren;
    a = hpmhw_csr_read(&s->pmu, mode, csrno, &old);
    if (a == HW_ACCESS_NOT_MINE) {
        return false;
    }
    if (a == HW_ACCESS_OK && write_mask) {
        a = hpmhw_csr_write(&s->pmu, mode, csrno,
                            (old & ~(uint64_t)write_mask) |
                            (new_value & write_mask));
        rvperf_update_rec(env, s);
    }
    if (event && (write_mask || rvperf_hpm_is_qemu(env, n))) {
        return false;   /* QEMU's copy (and answer) too */
    }
    if (a == HW_ACCESS_OK && ret_value) {
        *ret_value = old;
    }
    *excp = rvperf_excp(a);
    return true;
}

/*
 * The ratified layout's CTR CSRs, which upstream QEMU implements whenever
 * smctr/ssctr are on: with ctr-layout=draft they must not answer, or
 * firmware probing for the ratified layout first would find it.
 */
static bool rvperf_is_ratified_ctr_csr(int csrno)
{
    switch (csrno) {
    case RVP_CTR_V1_CSR_MCTRCTL:
    case RVP_CTR_V1_CSR_SCTRCTL:
    case RVP_CTR_V1_CSR_VSCTRCTL:
    case RVP_CTR_V1_CSR_SCTRSTATUS:
    case RVP_CTR_V1_CSR_SCTRDEPTH:
        return true;
    default:
        return false;
    }
}

/*
 * Bits of mstateen0 (H false) or hstateen0 (H true) that QEMU's 64-bit
 * write mask has and its RV32 upper-half (...h) write mask forgets.
 */
static uint64_t rvperf_stateen0h_missing(CPURISCVState *env, bool h)
{
    const RISCVCPUConfig *cfg = riscv_cpu_cfg(env);
    bool aia = h ? cfg->ext_ssaia : cfg->ext_smaia;
    bool csrind = h ? cfg->ext_sscsrind : cfg->ext_smcsrind;

    return (aia || csrind ? SMSTATEEN0_SVSLCT : 0) |
           (aia ? SMSTATEEN0_AIA | SMSTATEEN0_IMSIC : 0);
}

/*
 * mstateen0/hstateen0 and their upper halves, where the model's Smstateen
 * differs from QEMU's own:
 *  - the ...h halves exist on RV32 only (QEMU 10.2 reads them on RV64);
 *  - on RV32 a write of the lower half leaves the upper half alone (QEMU
 *    clears the CSRIND and AIA bits there) and a write of the upper half
 *    reaches CSRIND and the AIA bits too (QEMU's upper-half write masks
 *    lack them);
 *  - a bit mstateen0 clears is read-only 0 in hstateen0 and stays 0 when
 *    mstateen0 sets it again (QEMU hides it and shows it again);
 *  - the draft layout's CTR bit (55): QEMU's write masks know only the
 *    ratified bit 54, so the draft's bit would never stick and S-mode
 *    could never reach the draft CSRs.  It is set as written; bit 54,
 *    which QEMU keeps whenever ssctr is on, means nothing on a draft hart:
 *    it reads 0 (as in ctr-sim).
 * QEMU does the access itself (privilege and Smstateen checks, its own
 * bits, the old value), then the glue adjusts: hstateen0 bits only while
 * mstateen0's are set, as QEMU does for its own.  Reads need nothing
 * more: QEMU returns hstateen0 masked with mstateen0.  True when the
 * access was handled here.
 */
static bool rvperf_stateen(CPURISCVState *env, RVPerfState *s, int csrno,
                           target_ulong *ret_value, target_ulong new_value,
                           target_ulong write_mask, RISCVException *excp)
{
    bool draft = s->ctr.cfg.layout == CTRHW_LAYOUT_DRAFT;
    bool rv32 = s->ctr.cfg.xlen == 32;
    uint64_t *reg, old, mask = 0;
    int shift = 0;
    bool h;

    if (s->in_stateen) {
        return false;
    }
    switch (csrno) {
    case CSR_MSTATEEN0H ... CSR_MSTATEEN3H:
    case CSR_HSTATEEN0H ... CSR_HSTATEEN3H:
        if (!rv32) {
            *excp = RISCV_EXCP_ILLEGAL_INST;
            return true;
        }
        break;
    }
    if (!write_mask) {
        return false;
    }
    switch (csrno) {
    case CSR_MSTATEEN0H:
        shift = 32;
        /* fall through */
    case CSR_MSTATEEN0:
        reg = &env->mstateen[0];
        h = false;
        break;
    case CSR_HSTATEEN0H:
        shift = 32;
        /* fall through */
    case CSR_HSTATEEN0:
        reg = &env->hstateen[0];
        h = true;
        break;
    default:
        return false;
    }
    old = *reg;
    /* Re-entered through riscv_csrrw(): in_stateen sends it to QEMU. */
    s->in_stateen = true;
    *excp = riscv_csrrw(env, csrno, ret_value, new_value, write_mask, 0);
    s->in_stateen = false;
    if (*excp != RISCV_EXCP_NONE) {
        return true;
    }
    if (rv32 && !shift) {
        *reg = (*reg & MAKE_64BIT_MASK(0, 32)) |
               (old & ~MAKE_64BIT_MASK(0, 32));
    }
    if (rv32 && shift) {
        mask |= rvperf_stateen0h_missing(env, h);
    }
    if (draft) {
        mask |= ctrhw_stateen_bit(CTRHW_LAYOUT_DRAFT);
    }
    mask &= (uint64_t)write_mask << shift;
    if (rv32) {
        mask &= MAKE_64BIT_MASK(shift, 32);     /* the half written */
    }
    if (h) {
        mask &= env->mstateen[0];
    }
    *reg = (*reg & ~mask) | (((uint64_t)new_value << shift) & mask);
    if (draft) {
        *reg &= ~RVP_CTR_V1_STATEEN0_CTR;
    }
    env->hstateen[0] &= env->mstateen[0];
    return true;
}

/*
 * Smcsrind: mstateen0.CSRIND (bit 60) = 0 makes sireg* and vsireg*
 * illegal below M, hstateen0.CSRIND = 0 makes VS-mode's sireg* virtual.
 * QEMU checks that in the predicates of those CSRs, which the accesses
 * the model takes never reach.  Only S and VS pass the CSRs' privilege
 * level (VS-mode vsireg* is virtual whatever the state enables say;
 * mireg* below M is illegal): the model answers those.
 */
static RISCVException rvperf_csrind_ok(CPURISCVState *env, int csrno)
{
    bool sireg = csrno >= CSR_SIREG && csrno <= CSR_SIREG6;
    bool vsireg = csrno >= CSR_VSIREG && csrno <= CSR_VSIREG6;

    if (env->priv != PRV_S || !(sireg || (vsireg && !env->virt_enabled))) {
        return RISCV_EXCP_NONE;
    }
    return smstateen_acc_ok(env, 0, SMSTATEEN0_SVSLCT);
}

bool rvperf_csrrw(CPURISCVState *env, int csrno, target_ulong *ret_value,
                  target_ulong new_value, target_ulong write_mask,
                  RISCVException *excp)
{
    RVPerfState *s = env->rvperf;
    target_ulong iselect;
    enum hw_access a;
    uint64_t old = 0;
    bool ireg;

    if (!s) {
        return false;
    }
    rvperf_drain(env, s);
    if (rvperf_pmu_csr(env, s, csrno, ret_value, new_value, write_mask,
                       excp) ||
        rvperf_stateen(env, s, csrno, ret_value, new_value, write_mask,
                       excp)) {
        return true;
    }
    rvperf_sync(env, &s->ctr, env->priv, env->virt_enabled);
    ireg = rvperf_ireg(csrno, &iselect, env);
    if (ireg) {
        a = ctrhw_ireg_read(&s->ctr, csrno, iselect, &old);
    } else {
        a = ctrhw_csr_read(&s->ctr, csrno, &old);
    }
    if (a == HW_ACCESS_NOT_MINE) {
        if (s->ctr.cfg.layout == CTRHW_LAYOUT_DRAFT &&
            rvperf_is_ratified_ctr_csr(csrno)) {
            /* A draft hart has no ratified CTR CSRs, whatever smctr says. */
            *excp = RISCV_EXCP_ILLEGAL_INST;
            return true;
        }
        return false;
    }
    if (ireg) {
        /*
         * Any mstateen0 bit that is clear makes it illegal, before any
         * hstateen0 bit makes it virtual: CSRIND's illegal wins, its
         * virtual only over a model that would allow the access.
         */
        RISCVException e = rvperf_csrind_ok(env, csrno);

        if (e == RISCV_EXCP_ILLEGAL_INST ||
            (e != RISCV_EXCP_NONE && a == HW_ACCESS_OK)) {
            *excp = e;
            return true;
        }
    }
    if (a == HW_ACCESS_OK && write_mask) {
        uint64_t val = (old & ~(uint64_t)write_mask) |
                       (new_value & write_mask);

        if (!ireg) {
            /* may change what is counted: the cycles so far first */
            rvperf_account(s);
        }
        a = ireg ? ctrhw_ireg_write(&s->ctr, csrno, iselect, val)
                 : ctrhw_csr_write(&s->ctr, csrno, val);
        rvperf_update_rec(env, s);
    }
    if (a == HW_ACCESS_OK && ret_value) {
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
    rvperf_drain(env, s);
    rvperf_sync(env, &s->ctr, env->priv, env->virt_enabled);
    rvperf_account(s);
    *excp = rvperf_excp(ctrhw_sctrclr(&s->ctr));
    return true;
}

/* The counter model's transfer events (as harthw_transfer counts them). */
static void rvperf_pmu_transfer(struct hpmhw *pmu, enum hw_mode mode,
                                int type, bool misp)
{
    switch (type) {
    case CTRDATA_TYPE_NONTAKEN_BRANCH:
    case CTRDATA_TYPE_TAKEN_BRANCH:
        hpmhw_count(pmu, mode, HPMHW_EVENT_BRANCHES, 1);
        if (type == CTRDATA_TYPE_TAKEN_BRANCH) {
            hpmhw_count(pmu, mode, HPMHW_EVENT_TAKEN_BRANCHES, 1);
        }
        if (misp) {
            hpmhw_count(pmu, mode, HPMHW_EVENT_MISPREDICTS, 1);
        }
        break;
    case CTRDATA_TYPE_INDIRECT_CALL:
    case CTRDATA_TYPE_DIRECT_CALL:
        hpmhw_count(pmu, mode, HPMHW_EVENT_CALLS, 1);
        break;
    case CTRDATA_TYPE_RETURN:
        hpmhw_count(pmu, mode, HPMHW_EVENT_RETURNS, 1);
        break;
    default:
        hpmhw_count(pmu, mode, HPMHW_EVENT_OTHER_JUMPS, 1);
        break;
    }
}

/*
 * An in-mode transfer of ctrdata TYPE by an instruction of LEN bytes (0:
 * unknown) in mode PRIV/VIRT: the predictor, the counter model's events
 * and the CTR record.  The model's mode follows every trap and xRET, so
 * only a mode QEMU changed otherwise needs a sync; the state enables do
 * not gate recording.
 */
static inline void rvperf_transfer(CPURISCVState *env, RVPerfState *s,
                                   int type, target_ulong src,
                                   target_ulong dst, target_ulong priv,
                                   bool virt, unsigned int len)
{
    enum hw_mode mode = rvperf_mode(priv, virt);
    bool misp;

    if (unlikely(s->ctr.mode != mode)) {
        rvperf_sync(env, &s->ctr, priv, virt);
    }
    if (s->icount) {
        rvperf_account(s);
    } else if (s->ctr.counting) {
        ctrhw_cycles_lost(&s->ctr);
    }
    misp = predhw_update(&s->pred, type, src, dst, len);
    rvperf_pmu_transfer(&s->pmu, mode, type, misp);
    ctrhw_transfer(&s->ctr, type, src, dst, misp);
}

/*
 * The records the translated code buffered (translate.c,
 * gen_ctr_add_entry()), oldest first: from the code when the buffer is
 * full, and before anything reads or changes the model or the mode
 * changes (rvperf_mode_change()), so all of them are in the current mode.
 * Without -icount (the only time the code buffers), giving the core the
 * whole buffer at once is the same as giving it record by record
 * (ctrhw_transfers_untimed(); qemu-model/verify/batch_ctr.c checks it),
 * and spares it the records the buffer itself overwrites.
 */
static void rvperf_flush(CPURISCVState *env, RVPerfState *s)
{
    struct hw_xfer *x = (struct hw_xfer *)env->rvperf_xfer;
    uint32_t n = MIN(env->rvperf_xfer_end / RVPERF_XFER_SIZE,
                     RVPERF_XFER_MAX);
    enum hw_mode mode = rvperf_mode(env->priv, env->virt_enabled);

    QEMU_BUILD_BUG_ON(sizeof(struct hw_xfer) != RVPERF_XFER_SIZE ||
                      offsetof(struct hw_xfer, source) != RVPERF_XFER_SOURCE ||
                      offsetof(struct hw_xfer, target) != RVPERF_XFER_TARGET ||
                      offsetof(struct hw_xfer, type) != RVPERF_XFER_TYPE ||
                      offsetof(struct hw_xfer, length) != RVPERF_XFER_LENGTH);
    env->rvperf_xfer_end = 0;
    if (unlikely(s->ctr.mode != mode)) {
        rvperf_sync(env, &s->ctr, env->priv, env->virt_enabled);
    }
    predhw_updates(&s->pred, x, n);
    if (unlikely((s->pmu_xfer_modes >> mode) & 1)) {
        for (uint32_t i = 0; i < n; i++) {
            rvperf_pmu_transfer(&s->pmu, mode, x[i].type, x[i].misp);
        }
    }
    ctrhw_transfers_untimed(&s->ctr, x, n);
}

void helper_rvperf_flush(CPURISCVState *env)
{
    rvperf_flush(env, env->rvperf);
}

/*
 * A transfer's record made at its instruction (-icount, or a mode where a
 * counter counts transfers): TYPE_LEN is the ctrdata type | the
 * instruction's length << 8, which the predictor's return-address stack
 * needs for calls.
 */
void helper_rvperf_xfer(CPURISCVState *env, target_ulong src,
                        target_ulong dst, uint32_t type_len)
{
    RVPerfState *s = env->rvperf;

    rvperf_drain(env, s);
    rvperf_transfer(env, s, type_len & 0xff, src, dst, env->priv,
                    env->virt_enabled, type_len >> 8);
}

/* riscv_cpu_set_mode(): the buffered records are the old mode's. */
void rvperf_mode_change(CPURISCVState *env)
{
    if (env->rvperf) {
        rvperf_drain(env, env->rvperf);
    }
}

/*
 * A hart reset (riscv_cpu_reset_hold()): the model back to its reset
 * state, as the CTR and counter registers are; records not taken yet are
 * dropped.
 */
void rvperf_cpu_reset(CPURISCVState *env)
{
    RVPerfState *s = env->rvperf;
    struct ctrhw_config cfg;
    struct hpmhw_config pc;

    env->rvperf_xfer_end = 0;
    if (!s) {
        return;
    }
    /* the init functions clear what they are given first */
    cfg = s->ctr.cfg;
    pc = s->pmu.cfg;
    ctrhw_init(&s->ctr, &cfg);
    predhw_init(&s->pred);
    hpmhw_init(&s->pmu, &pc, &rvperf_pmu_ops, env);
    s->tick_valid = false;
    rvperf_update_rec(env, s);
}

bool rvperf_ctr_add_entry(CPURISCVState *env, target_long src,
                          target_long dst, int type,
                          target_ulong src_priv, bool src_virt)
{
    RVPerfState *s = env->rvperf;
    enum hw_mode target = rvperf_mode(env->priv, env->virt_enabled);
    target_ulong cause;

    if (!s) {
        return false;
    }
    rvperf_drain(env, s);
    switch (type) {
    case CTRDATA_TYPE_EXCEPTION:
    case CTRDATA_TYPE_INTERRUPT:
    case CTRDATA_TYPE_EXCEP_INT_RET:
        break;
    default:
        /*
         * Upstream's helper: the translated code of a hart with the model
         * calls helper_rvperf_xfer() instead, so this is some other
         * caller's transfer, of unknown length.
         */
        rvperf_transfer(env, s, type, src, dst, src_priv, src_virt, 0);
        return true;
    }
    rvperf_sync(env, &s->ctr, src_priv, src_virt);
    rvperf_account(s);
    if (type != CTRDATA_TYPE_EXCEP_INT_RET) {
        hpmhw_count(&s->pmu, s->ctr.mode,
                    type == CTRDATA_TYPE_INTERRUPT ?
                    HPMHW_EVENT_INTERRUPTS : HPMHW_EVENT_EXCEPTIONS, 1);
    }
    switch (type) {
    case CTRDATA_TYPE_EXCEPTION:
    case CTRDATA_TYPE_INTERRUPT:
        /* riscv_cpu_do_interrupt() has written the target's xcause. */
        cause = env->priv == PRV_M ? env->mcause : env->scause;
        ctrhw_trap(&s->ctr, type == CTRDATA_TYPE_INTERRUPT,
                   cause & ~((target_ulong)1 << (TARGET_LONG_BITS - 1)),
                   target, src, dst);
        break;
    case CTRDATA_TYPE_EXCEP_INT_RET:
        ctrhw_trap_return(&s->ctr, target, src, dst);
        break;
    default:
        g_assert_not_reached();
    }
    rvperf_sync(env, &s->ctr, env->priv, env->virt_enabled);
    rvperf_update_rec(env, s);  /* a trap may have frozen CTR */
    return true;
}

/*
 * Migration: the model's registers, entries (physical order, with WRPTR)
 * and the predictor.  The cycles since the last record are not carried:
 * the first record after loading has CCV=0 when counting.
 */
static int rvperf_pre_save(void *opaque)
{
    RVPerfState *s = opaque;
    struct ctrhw *c = &s->ctr;

    rvperf_drain(s->env, s);
    s->mig.mctl = c->mctl;
    s->mig.vsctl = c->vsctl;
    s->mig.cycle_counter = c->cycle_counter;
    s->mig.depth_log = c->depth_log;
    s->mig.wrptr = c->wrptr;
    s->mig.mode = c->mode;
    s->mig.layout = c->cfg.layout;
    s->mig.wrap = c->wrap;
    s->mig.frozen = c->frozen;
    s->mig.mstateen_ctr = c->mstateen_ctr;
    s->mig.hstateen_ctr = c->hstateen_ctr;
    s->mig.ccv_valid = c->ccv_valid;
    for (int i = 0; i < CTRHW_MAX_DEPTH; i++) {
        s->mig.source[i] = c->entry[i].source;
        s->mig.target[i] = c->entry[i].target;
        s->mig.data[i] = c->entry[i].data;
    }
    for (int i = 0; i < 29; i++) {
        s->mig.hpm_counter[i] = s->mig.hpm_event[i] = 0;
        hpmhw_csr_read(&s->pmu, HW_MODE_M, RVP_CSR_MHPMCOUNTER3 + i,
                       &s->mig.hpm_counter[i]);
        hpmhw_csr_read(&s->pmu, HW_MODE_M, RVP_CSR_MHPMEVENT3 + i,
                       &s->mig.hpm_event[i]);
    }
    return 0;
}

static int rvperf_post_load(void *opaque, int version_id)
{
    RVPerfState *s = opaque;
    struct ctrhw *c = &s->ctr;

    if (s->mig.depth_log < c->depth_log_min ||
        s->mig.depth_log > c->depth_log_max ||
        s->mig.wrptr >= (16u << s->mig.depth_log) ||
        !hw_mode_valid(s->mig.mode) ||
        (version_id >= 2 && s->mig.layout != c->cfg.layout) ||
        s->pred.ras_top >= PREDHW_RAS_ENTRIES ||
        s->pred.ras_count > PREDHW_RAS_ENTRIES) {
        return -EINVAL;
    }
    c->mctl = s->mig.mctl & c->mctl_wmask;
    c->vsctl = s->mig.vsctl & c->vsctl_wmask;
    c->cycle_counter = s->mig.cycle_counter;
    c->depth_log = s->mig.depth_log;
    c->wrptr = s->mig.wrptr;
    c->wrap = s->mig.wrap;
    c->frozen = s->mig.frozen;
    c->ccv_valid = s->mig.ccv_valid;
    for (int i = 0; i < CTRHW_MAX_DEPTH; i++) {
        c->entry[i].source = s->mig.source[i];
        c->entry[i].target = s->mig.target[i];
        c->entry[i].data = s->mig.data[i];
    }
    /* Through the counter model's own CSR writes, which keep its tables. */
    for (int i = 0; i < 29; i++) {
        hpmhw_csr_write(&s->pmu, HW_MODE_M, RVP_CSR_MHPMEVENT3 + i,
                        s->mig.hpm_event[i]);
        hpmhw_csr_write(&s->pmu, HW_MODE_M, RVP_CSR_MHPMCOUNTER3 + i,
                        s->mig.hpm_counter[i]);
    }
    /* QEMU's mcountinhibit (loaded before this subsection) */
    hpmhw_csr_write(&s->pmu, HW_MODE_M, RVP_CSR_MCOUNTINHIBIT,
                    s->env->mcountinhibit);
    ctrhw_set_stateen(c, s->mig.mstateen_ctr, s->mig.hstateen_ctr);
    ctrhw_set_mode(c, (enum hw_mode)s->mig.mode);
    if (c->counting) {
        ctrhw_cycles_lost(c);
    }
    s->tick_valid = false;
    rvperf_update_rec(s->env, s);
    return 0;
}

static const VMStateDescription vmstate_rvperf_state = {
    .name = "cpu/rvperf/state",
    .version_id = 2,
    .minimum_version_id = 1,
    .pre_save = rvperf_pre_save,
    .post_load = rvperf_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT64(mig.mctl, RVPerfState),
        VMSTATE_UINT64(mig.vsctl, RVPerfState),
        VMSTATE_UINT64(mig.cycle_counter, RVPerfState),
        VMSTATE_UINT32(mig.depth_log, RVPerfState),
        VMSTATE_UINT32(mig.wrptr, RVPerfState),
        VMSTATE_UINT32(mig.mode, RVPerfState),
        VMSTATE_UINT32_V(mig.layout, RVPerfState, 2),
        VMSTATE_BOOL(mig.wrap, RVPerfState),
        VMSTATE_BOOL(mig.frozen, RVPerfState),
        VMSTATE_BOOL(mig.mstateen_ctr, RVPerfState),
        VMSTATE_BOOL(mig.hstateen_ctr, RVPerfState),
        VMSTATE_BOOL(mig.ccv_valid, RVPerfState),
        VMSTATE_UINT64_ARRAY(mig.source, RVPerfState, CTRHW_MAX_DEPTH),
        VMSTATE_UINT64_ARRAY(mig.target, RVPerfState, CTRHW_MAX_DEPTH),
        VMSTATE_UINT64_ARRAY(mig.data, RVPerfState, CTRHW_MAX_DEPTH),
        VMSTATE_UINT8_ARRAY(pred.bimodal, RVPerfState,
                            PREDHW_BIMODAL_ENTRIES),
        VMSTATE_UINT64_ARRAY(pred.btb, RVPerfState, PREDHW_BTB_ENTRIES),
        VMSTATE_UINT64_ARRAY(pred.ras, RVPerfState, PREDHW_RAS_ENTRIES),
        VMSTATE_UINT32(pred.ras_top, RVPerfState),
        VMSTATE_UINT32(pred.ras_count, RVPerfState),
        VMSTATE_UINT64_ARRAY(mig.hpm_counter, RVPerfState, 29),
        VMSTATE_UINT64_ARRAY(mig.hpm_event, RVPerfState, 29),
        VMSTATE_END_OF_LIST()
    }
};

static bool rvperf_needed(void *opaque)
{
    RISCVCPU *cpu = opaque;

    return cpu->env.rvperf != NULL;
}

const VMStateDescription vmstate_rvperf = {
    .name = "cpu/rvperf",
    .version_id = 1,
    .minimum_version_id = 1,
    .needed = rvperf_needed,
    .fields = (const VMStateField[]) {
        VMSTATE_STRUCT_POINTER(env.rvperf, RISCVCPU, vmstate_rvperf_state,
                               RVPerfState),
        VMSTATE_END_OF_LIST()
    }
};

/*
 * The virt machine's riscv,pmu node for a hart with the model: the map of
 * hpmhw_map.h (SBI general and branch-unit cache events to the model's
 * selectors, raw events below 16 on any hpm counter), its counter bitmaps
 * limited to the counters the hart has (mcycle, minstret and pmu-mask's),
 * as QEMU's own map is.  False without the model (QEMU's own map then).
 */
bool rvperf_pmu_fdt(RISCVCPU *cpu, void *fdt, const char *node)
{
    static const uint32_t ev2sel[] = HPMHW_MAP_EVENT_TO_MHPMEVENT;
    static const uint32_t ev2ctr[] = HPMHW_MAP_EVENT_TO_MHPMCOUNTERS;
    static const uint32_t raw2ctr[] = HPMHW_MAP_RAW_EVENT_TO_MHPMCOUNTERS;
    /* stride: the tuple's length; a counter bitmap ends each, if any */
    static const struct {
        const char *name;
        const uint32_t *cells;
        size_t n, stride;
    } props[] = {
        { "riscv,event-to-mhpmevent", ev2sel, ARRAY_SIZE(ev2sel), 0 },
        { "riscv,event-to-mhpmcounters", ev2ctr, ARRAY_SIZE(ev2ctr), 3 },
        { "riscv,raw-event-to-mhpmcounters", raw2ctr, ARRAY_SIZE(raw2ctr),
          5 },
    };
    uint32_t counters = cpu->cfg.pmu_mask | 0x5;     /* + mcycle, minstret */

    if (!cpu->env.rvperf) {
        return false;
    }
    for (int p = 0; p < ARRAY_SIZE(props); p++) {
        g_autofree uint32_t *be = g_new(uint32_t, props[p].n);

        for (size_t i = 0; i < props[p].n; i++) {
            uint32_t cell = props[p].cells[i];

            if (props[p].stride && i % props[p].stride ==
                props[p].stride - 1) {
                cell &= counters;
            }
            be[i] = cpu_to_be32(cell);
        }
        qemu_fdt_setprop(fdt, node, props[p].name, be,
                         props[p].n * sizeof(uint32_t));
    }
    return true;
}
