// SPDX-License-Identifier: BSD-2-Clause
/*
 * rvperf as an OpenSBI external platform (make PLATFORM_DIR=...): a
 * generic-like FDT platform (QEMU virt and boards described the same way)
 * whose SBI PMU extension is the rvperf core (core/rvp_pmu.c) and which
 * manages CTR (core/rvp_ctr.c) per hart.
 *
 * Everything OpenSBI-specific is here; the cores only see struct
 * rvp_pmu_ops.  OpenSBI's own PMU ecall (CONFIG_SBI_ECALL_PMU) must be off.
 */

#include <libfdt.h>
#include <sbi/riscv_asm.h>
#include <sbi/riscv_encoding.h>
#include <sbi/sbi_console.h>
#include <sbi/sbi_csr_detect.h>
#include <sbi/sbi_domain.h>
#include <sbi/sbi_ecall.h>
#include <sbi/sbi_ecall_interface.h>
#include <sbi/sbi_error.h>
#include <sbi/sbi_hart.h>
#include <sbi/sbi_hart_protection.h>
#include <sbi/sbi_hartmask.h>
#include <sbi/sbi_heap.h>
#include <sbi/sbi_hsm.h>
#include <sbi/sbi_platform.h>
#include <sbi/sbi_pmu.h>
#include <sbi/sbi_scratch.h>
#include <sbi/sbi_string.h>
#include <sbi/sbi_tlb.h>
#include <sbi/sbi_trap.h>
#include <sbi_utils/fdt/fdt_domain.h>
#include <sbi_utils/fdt/fdt_driver.h>
#include <sbi_utils/fdt/fdt_fixup.h>
#include <sbi_utils/fdt/fdt_helper.h>
#include <sbi_utils/irqchip/fdt_irqchip.h>
#include <sbi_utils/irqchip/imsic.h>
#include <sbi_utils/serial/fdt_serial.h>
#include <sbi_utils/timer/fdt_timer.h>

#include "core/rvp_pmu.h"
#include "core/rvp_pmu_dt.h"
#include "core/rvp_ctr.h"
#include <rvperf/csr.h>
#include <rvperf/ctr.h>

#if CONFIG_SBI_ECALL_PMU
#error "rvperf answers the PMU extension: set CONFIG_SBI_ECALL_PMU=n"
#endif

/* Kconfig booleans as 0/1 (OpenSBI has no IS_ENABLED()). */
#ifdef CONFIG_RVPERF_SBI_PMU
#define RVPERF_SBI_PMU_ON	1
#else
#define RVPERF_SBI_PMU_ON	0
#endif
#ifdef CONFIG_RVPERF_PMU_FORCE_MINH
#define RVPERF_PMU_FORCE_MINH_ON	1
#else
#define RVPERF_PMU_FORCE_MINH_ON	0
#endif
#ifdef CONFIG_RVPERF_PMU_SNAPSHOT
#define RVPERF_PMU_SNAPSHOT_ON	1
#else
#define RVPERF_PMU_SNAPSHOT_ON	0
#endif
#ifdef CONFIG_RVPERF_PMU_EVENT_INFO
#define RVPERF_PMU_EVENT_INFO_ON	1
#else
#define RVPERF_PMU_EVENT_INFO_ON	0
#endif
#ifdef CONFIG_RVPERF_CTR
#define RVPERF_CTR_ON	1
#else
#define RVPERF_CTR_ON	0
#endif
#ifdef CONFIG_RVPERF_CTR_RECORD_M
#define RVPERF_CTR_RECORD_M_ON	1
#else
#define RVPERF_CTR_RECORD_M_ON	0
#endif
#ifdef CONFIG_RVPERF_CTR_MTE
#define RVPERF_CTR_MTE_ON	1
#else
#define RVPERF_CTR_MTE_ON	0
#endif
#ifdef CONFIG_RVPERF_CTR_LCOFIFRZ
#define RVPERF_CTR_LCOFIFRZ_ON	1
#else
#define RVPERF_CTR_LCOFIFRZ_ON	0
#endif

#ifndef CONFIG_RVPERF_PMU_FW_COUNTERS
#define CONFIG_RVPERF_PMU_FW_COUNTERS 0
#endif
#ifndef CONFIG_RVPERF_CTR_DEPTH
#define CONFIG_RVPERF_CTR_DEPTH 0
#endif

/*
 * Firmware events: OpenSBI counts them inside lib/sbi (sbi_trap.c,
 * sbi_illegal_insn.c, sbi_ipi.c, sbi_tlb.c, sbi_timer.c) through
 * sbi_pmu_ctr_incr_fw(), with no platform hook.  Its PMU bookkeeping runs
 * even with the PMU ecall compiled out, so for every standard firmware
 * event (0..21) that one of the rvperf firmware counters is mapped to,
 * the hart arms one of OpenSBI's own firmware counters (a "shadow"; it has
 * SBI_PMU_FW_CTR_MAX = 16) and hands its increase to the rvperf core
 * before every PMU ecall.  S-mode only observes firmware counts through
 * such an ecall, so the rvperf counters are exact whenever they are read.
 */
#define RVPERF_SHADOWS		SBI_PMU_FW_CTR_MAX
#define RVPERF_STD_FW_EVENTS	(RVP_SBI_PMU_FW_HFENCE_VVMA_ASID_RECEIVED + 1)

struct rvperf_shadow {
	int code;		/* firmware event, or -1: slot free */
	int cidx;		/* OpenSBI's counter index */
	u64 seen;		/* its value already handed over */
};

struct rvperf_hart {
	struct rvp_pmu_hart pmu;
	struct rvp_ctr_hart ctr;
	struct rvperf_shadow shadow[RVPERF_SHADOWS];
	bool pmu_ready;
	bool ctr_ready;
};

extern struct sbi_platform platform;
static u32 rvperf_hart_index2id[SBI_HARTMASK_MAX_BITS];
static bool rvperf_mlevel_imsic;

static struct rvp_pmu_platform rvperf_pmu_plat;
static struct rvp_pmu_maps rvperf_pmu_maps;
static struct rvperf_hart *rvperf_harts;

static const struct rvp_ctr_policy rvperf_ctr_policy = {
	.record_m = RVPERF_CTR_RECORD_M_ON,
	.mte = RVPERF_CTR_MTE_ON,
	.lcofifrz = RVPERF_CTR_LCOFIFRZ_ON,
	.depth = CONFIG_RVPERF_CTR_DEPTH,
};

static struct rvperf_hart *rvperf_this_hart(void)
{
	if (!rvperf_harts)
		return NULL;
	return &rvperf_harts[current_hartindex()];
}

/* ---------------------------------------------------------- core ops */

/*
 * Whether a counter or event CSR of mhpmcounter3..31 exists on this hart.
 * The privileged spec makes unimplemented ones read-only zero, which the
 * cores' discovery relies on; QEMU (7.2 at least) traps on them instead,
 * so accesses to the counters OpenSBI's own probing did not find
 * (sbi_hart_mhpm_mask()) read as zero and ignore writes.
 */
static bool rvperf_hpm_csr_missing(unsigned int csr)
{
	unsigned int n;

	if (csr >= CSR_MHPMCOUNTER3 && csr <= CSR_MHPMCOUNTER31)
		n = csr - CSR_MCYCLE;
	else if (csr >= CSR_MHPMEVENT3 && csr <= CSR_MHPMEVENT31)
		n = csr - CSR_MHPMEVENT3 + 3;
#if __riscv_xlen == 32
	else if (csr >= CSR_MHPMCOUNTER3H && csr <= CSR_MHPMCOUNTER31H)
		n = csr - CSR_MCYCLEH;
	else if (csr >= CSR_MHPMEVENT3H && csr <= CSR_MHPMEVENT31H)
		n = csr - CSR_MHPMEVENT3H + 3;
#endif
	else
		return false;
	return !(sbi_hart_mhpm_mask(sbi_scratch_thishart_ptr()) & BIT(n));
}

/*
 * csr_read_num()/csr_write_num() know the counter, event and counter
 * configuration CSRs; the others the cores use need an immediate CSR
 * number, hence the switches.
 */
static uint64_t rvperf_csr_read(void *ctx, unsigned int csr)
{
	switch (csr) {
	case RVP_CSR_MIDELEG:
		return csr_read(CSR_MIDELEG);
	case RVP_CSR_MSTATEEN0:
		return csr_read(RVP_CSR_MSTATEEN0);
	case RVP_CSR_SCOUNTOVF:
		return csr_read(RVP_CSR_SCOUNTOVF);
	case RVP_CTR_V1_CSR_MCTRCTL:
		return csr_read(RVP_CTR_V1_CSR_MCTRCTL);
	case RVP_CTR_V1_CSR_SCTRCTL:
		return csr_read(RVP_CTR_V1_CSR_SCTRCTL);
	case RVP_CTR_V1_CSR_SCTRSTATUS:
		return csr_read(RVP_CTR_V1_CSR_SCTRSTATUS);
	case RVP_CTR_V1_CSR_SCTRDEPTH:
		return csr_read(RVP_CTR_V1_CSR_SCTRDEPTH);
	case RVP_CTR_DRAFT_CSR_MCTRCONTROL:
		return csr_read(RVP_CTR_DRAFT_CSR_MCTRCONTROL);
	case RVP_CTR_DRAFT_CSR_SCTRCONTROL:
		return csr_read(RVP_CTR_DRAFT_CSR_SCTRCONTROL);
	case RVP_CTR_DRAFT_CSR_SCTRSTATUS:
		return csr_read(RVP_CTR_DRAFT_CSR_SCTRSTATUS);
	default:
		if (rvperf_hpm_csr_missing(csr))
			return 0;
		return csr_read_num(csr);
	}
}

static void rvperf_csr_write(void *ctx, unsigned int csr, uint64_t val)
{
	unsigned long v = (unsigned long)val;

	switch (csr) {
	case RVP_CSR_MIDELEG:
		csr_write(CSR_MIDELEG, v);
		break;
	case RVP_CSR_MSTATEEN0:
		csr_write(RVP_CSR_MSTATEEN0, v);
		break;
	case RVP_CTR_V1_CSR_MCTRCTL:
		csr_write(RVP_CTR_V1_CSR_MCTRCTL, v);
		break;
	case RVP_CTR_V1_CSR_SCTRCTL:
		csr_write(RVP_CTR_V1_CSR_SCTRCTL, v);
		break;
	case RVP_CTR_V1_CSR_SCTRSTATUS:
		csr_write(RVP_CTR_V1_CSR_SCTRSTATUS, v);
		break;
	case RVP_CTR_V1_CSR_SCTRDEPTH:
		csr_write(RVP_CTR_V1_CSR_SCTRDEPTH, v);
		break;
	case RVP_CTR_DRAFT_CSR_MCTRCONTROL:
		csr_write(RVP_CTR_DRAFT_CSR_MCTRCONTROL, v);
		break;
	case RVP_CTR_DRAFT_CSR_SCTRCONTROL:
		csr_write(RVP_CTR_DRAFT_CSR_SCTRCONTROL, v);
		break;
	case RVP_CTR_DRAFT_CSR_SCTRSTATUS:
		csr_write(RVP_CTR_DRAFT_CSR_SCTRSTATUS, v);
		break;
	default:
		if (!rvperf_hpm_csr_missing(csr))
			csr_write_num(csr, v);
		break;
	}
}

/* Reads the CSR with the trap vector redirected: 0 when it exists. */
#define RVPERF_PROBE(__csr)						\
	case __csr:							\
		v = csr_read_allowed(__csr, &trap);			\
		break

static int rvperf_csr_probe(void *ctx, unsigned int csr, uint64_t *val)
{
	struct sbi_trap_info trap = { 0 };
	unsigned long v;

	switch (csr) {
	RVPERF_PROBE(RVP_CSR_MSTATEEN0);
	RVPERF_PROBE(RVP_CSR_SCOUNTOVF);
	RVPERF_PROBE(RVP_CSR_MCYCLECFG);
	RVPERF_PROBE(RVP_CTR_V1_CSR_MCTRCTL);
	RVPERF_PROBE(RVP_CTR_V1_CSR_SCTRCTL);
	/* The v0.1.4 draft's control registers (rvp_ctr_probe() tries them
	 * when the ratified ones do not answer). */
	RVPERF_PROBE(RVP_CTR_DRAFT_CSR_MCTRCONTROL);
	RVPERF_PROBE(RVP_CTR_DRAFT_CSR_SCTRCONTROL);
	default:
		/* Not a CSR the cores probe: report it absent. */
		return SBI_ENOTSUPP;
	}
	if (trap.cause)
		return SBI_ENOTSUPP;
	*val = v;
	return 0;
}

/*
 * The RAM the devicetree's memory nodes describe.  The root domain lets
 * S-mode reach the whole address space (MMIO and holes included), so the
 * domain check alone would let a snapshot area sit past the end of RAM or
 * on a device, and M-mode's copy would fault there.
 */
#define RVPERF_MAX_RAM	8
static struct {
	uint64_t base, size;
} rvperf_ram[RVPERF_MAX_RAM];
static unsigned int rvperf_nr_ram;

static void rvperf_ram_parse(const void *fdt)
{
	int node = -1;

	while (rvperf_nr_ram < RVPERF_MAX_RAM) {
		uint64_t base, size;
		int i;

		node = fdt_node_offset_by_prop_value(fdt, node, "device_type",
						     "memory", 7);
		if (node < 0)
			break;
		for (i = 0; rvperf_nr_ram < RVPERF_MAX_RAM; i++) {
			if (fdt_get_node_addr_size(fdt, node, i, &base, &size))
				break;
			if (!size)
				continue;
			rvperf_ram[rvperf_nr_ram].base = base;
			rvperf_ram[rvperf_nr_ram].size = size;
			rvperf_nr_ram++;
		}
	}
}

static bool rvperf_in_ram(uint64_t addr, uint64_t size)
{
	unsigned int i;

	/* The core has rejected empty and wrapping ranges already. */
	for (i = 0; i < rvperf_nr_ram; i++)
		if (addr >= rvperf_ram[i].base &&
		    addr - rvperf_ram[i].base < rvperf_ram[i].size &&
		    size <= rvperf_ram[i].size - (addr - rvperf_ram[i].base))
			return true;
	return false;
}

static int rvperf_smode_range_ok(void *ctx, uint64_t addr, uint64_t size,
				 int write)
{
	if (addr != (unsigned long)addr || size != (unsigned long)size)
		return 0;
	if (!rvperf_in_ram(addr, size))
		return 0;
	return sbi_domain_check_addr_range(sbi_domain_thishart_ptr(),
					   (unsigned long)addr,
					   (unsigned long)size, PRV_S,
					   write ? SBI_DOMAIN_WRITE :
						   SBI_DOMAIN_READ);
}

static int rvperf_smode_copy(uint64_t addr, void *dst, const void *src,
			     uint64_t len)
{
	int rc;

	rc = sbi_hart_protection_map_range((unsigned long)addr,
					   (unsigned long)len);
	if (rc)
		return rc;
	sbi_memcpy(dst, src, (size_t)len);
	sbi_hart_protection_unmap_range((unsigned long)addr,
					(unsigned long)len);
	return 0;
}

static int rvperf_smode_read(void *ctx, uint64_t addr, void *dst,
			     uint64_t len)
{
	return rvperf_smode_copy(addr, dst, (const void *)(unsigned long)addr,
				 len);
}

static int rvperf_smode_write(void *ctx, uint64_t addr, const void *src,
			      uint64_t len)
{
	return rvperf_smode_copy(addr, (void *)(unsigned long)addr, src, len);
}

static void rvperf_ctr_clear(void *ctx)
{
	/* SCTRCLR; older assemblers do not know the mnemonic. */
	__asm__ __volatile__(".4byte %0" : : "i"(RVP_CTR_V1_SCTRCLR_INSN)
			     : "memory");
}

static const struct rvp_pmu_ops rvperf_ops = {
	.csr_read	= rvperf_csr_read,
	.csr_write	= rvperf_csr_write,
	.csr_probe	= rvperf_csr_probe,
	.smode_range_ok	= rvperf_smode_range_ok,
	.smode_read	= rvperf_smode_read,
	.smode_write	= rvperf_smode_write,
	.ctr_clear	= rvperf_ctr_clear,
};

/* ------------------------------------------------- firmware events */

static void rvperf_shadow_reset(struct rvperf_hart *hs)
{
	int i;

	/* sbi_pmu_init() has just reset OpenSBI's counters of this hart. */
	for (i = 0; i < RVPERF_SHADOWS; i++)
		hs->shadow[i].code = -1;
}

/* Hands what OpenSBI counted since the last call to the rvperf core. */
static void rvperf_shadow_sync(struct rvperf_hart *hs)
{
	struct rvperf_shadow *sh;
	uint64_t now;
	int i;

	for (i = 0; i < RVPERF_SHADOWS; i++) {
		sh = &hs->shadow[i];
		if (sh->code < 0 || sbi_pmu_ctr_fw_read(sh->cidx, &now))
			continue;
		if (now != sh->seen) {
			rvp_pmu_fw_event(&hs->pmu, sh->code, 0, now - sh->seen);
			sh->seen = now;
		}
	}
}

/* The standard firmware events the rvperf firmware counters are mapped to. */
static u32 rvperf_fw_events_wanted(const struct rvp_pmu_hart *h)
{
	unsigned int i, code;
	u32 want = 0;

	for (i = h->num_hw; i < h->num_ctrs; i++) {
		if (!(h->configured & (1ULL << i)) ||
		    (h->event_idx[i] >> 16) != RVP_SBI_PMU_EVENT_TYPE_FW)
			continue;
		code = h->event_idx[i] & 0xFFFF;
		if (code < RVPERF_STD_FW_EVENTS)
			want |= 1U << code;
	}
	return want;
}

/*
 * After an ecall changed the mappings: release the shadows nobody needs,
 * arm one for each newly mapped event (as many as OpenSBI has counters).
 */
static void rvperf_shadow_update(struct rvperf_hart *hs)
{
	unsigned long fw_base = sbi_pmu_num_ctr() - SBI_PMU_FW_CTR_MAX;
	u32 want = rvperf_fw_events_wanted(&hs->pmu);
	struct rvperf_shadow *sh;
	unsigned long evt;
	int i, code, rc;

	for (i = 0; i < RVPERF_SHADOWS; i++) {
		sh = &hs->shadow[i];
		if (sh->code < 0)
			continue;
		if (want & (1U << sh->code)) {
			want &= ~(1U << sh->code);
			continue;
		}
		sbi_pmu_ctr_stop(sh->cidx, 1, SBI_PMU_STOP_FLAG_RESET);
		sh->code = -1;
	}
	for (i = 0; i < RVPERF_SHADOWS && want; i++) {
		sh = &hs->shadow[i];
		if (sh->code >= 0)
			continue;
		code = sbi_ffs(want);
		want &= ~(1U << code);
		evt = ((unsigned long)SBI_PMU_EVENT_TYPE_FW <<
		       SBI_PMU_EVENT_IDX_TYPE_OFFSET) | code;
		rc = sbi_pmu_ctr_cfg_match(fw_base,
					   (1UL << SBI_PMU_FW_CTR_MAX) - 1,
					   SBI_PMU_CFG_FLAG_CLEAR_VALUE |
					   SBI_PMU_CFG_FLAG_AUTO_START, evt, 0);
		if (rc < 0)
			continue;
		sh->code = code;
		sh->cidx = rc;
		sh->seen = 0;
	}
}

/* --------------------------------------------------- PMU extension */

static int rvperf_pmu_handle(unsigned long extid, unsigned long funcid,
			     struct sbi_trap_regs *regs,
			     struct sbi_ecall_return *out)
{
	struct rvperf_hart *hs = rvperf_this_hart();
	struct rvp_sbiret ret;
	uint64_t args[6];

	if (!hs || !hs->pmu_ready)
		return SBI_ENOTSUPP;

	args[0] = regs->a0;
	args[1] = regs->a1;
	args[2] = regs->a2;
	args[3] = regs->a3;
	args[4] = regs->a4;
	args[5] = regs->a5;

	rvperf_shadow_sync(hs);
	ret = rvp_pmu_ecall(&hs->pmu, funcid, args);
	rvperf_shadow_update(hs);
	out->value = (unsigned long)ret.value;
	return (int)ret.error;
}

static struct sbi_ecall_extension rvperf_pmu_ext = {
	.name		= "pmu",
	.extid_start	= SBI_EXT_PMU,
	.extid_end	= SBI_EXT_PMU,
	.handle		= rvperf_pmu_handle,
};

/*
 * QEMU (7.2 at least) pads riscv,event-to-mhpmcounters with zero cells:
 * a whole all-zero tuple and then a partial one.  Neither is an entry
 * (event 0 does not exist), so the length handed to the core stops at
 * the last tuple that is not all zero; a malformed non-zero tail is still
 * the core's to reject.
 */
static int rvperf_dt_trim(const fdt32_t *cells, int len, int tuple)
{
	int n = len / 4, t, i;

	while (n > 0) {
		t = n % tuple ? n % tuple : tuple;
		for (i = n - t; i < n; i++)
			if (cells[i])
				return n * 4;
		n -= t;
	}
	return 0;
}

static void rvperf_pmu_dt_parse(const void *fdt)
{
	static const char *const props[] = {
		"riscv,event-to-mhpmevent",
		"riscv,event-to-mhpmcounters",
		"riscv,raw-event-to-mhpmcounters",
	};
	static const int tuple[] = { 3, 3, 5 };
	const void *val;
	int node, len, rc;
	unsigned int i;

	node = fdt_node_offset_by_compatible(fdt, -1, "riscv,pmu");
	if (node < 0)
		return;
	for (i = 0; i < array_size(props); i++) {
		val = fdt_getprop(fdt, node, props[i], &len);
		if (!val || len <= 0)
			continue;
		len = rvperf_dt_trim(val, len, tuple[i]);
		if (!len)
			continue;
		rc = rvp_pmu_dt_prop(&rvperf_pmu_maps, props[i], val, len);
		if (rc)
			sbi_printf("rvperf: %s ignored (error %d)\n",
				   props[i], rc);
	}
	rvperf_pmu_plat.maps = &rvperf_pmu_maps;
}

static int rvperf_pmu_cold_init(const void *fdt)
{
	unsigned int n, hw = 0;
	int rc;

	rvp_pmu_discover(&rvperf_ops, NULL, __riscv_xlen, &rvperf_pmu_plat.hw);
	rvperf_pmu_dt_parse(fdt);
	rvperf_ram_parse(fdt);
	rvperf_pmu_plat.num_fw_ctrs = CONFIG_RVPERF_PMU_FW_COUNTERS;
	rvperf_pmu_plat.fw_impl_first = 1;	/* none */
	rvperf_pmu_plat.fw_impl_last = 0;
	rvperf_pmu_plat.no_snapshot = !RVPERF_PMU_SNAPSHOT_ON;
	rvperf_pmu_plat.no_event_info =
		!RVPERF_PMU_EVENT_INFO_ON;
	rvperf_pmu_plat.force_minh = RVPERF_PMU_FORCE_MINH_ON;

	rc = sbi_ecall_register_extension(&rvperf_pmu_ext);
	if (rc)
		return rc;
	for (n = 0; n < 32; n++)
		hw += !!(rvperf_pmu_plat.hw.ctr_mask & BIT(n));
	sbi_printf("rvperf: SBI PMU extension: %u hardware counters "
		   "(mask 0x%x), %u firmware counters, riscv,pmu maps %s\n",
		   hw, rvperf_pmu_plat.hw.ctr_mask, rvperf_pmu_plat.num_fw_ctrs,
		   rvperf_pmu_plat.maps ? "used" : "absent");
	return 0;
}

/* ------------------------------------------------------ hart hooks */

static struct sbi_hsm_device rvperf_hsm;
static const struct sbi_hsm_device *rvperf_hsm_next;

static void rvperf_hart_resume(void)
{
	struct rvperf_hart *hs = rvperf_this_hart();

	if (rvperf_hsm_next && rvperf_hsm_next->hart_resume)
		rvperf_hsm_next->hart_resume();
	if (hs && hs->ctr_ready)
		rvp_ctr_hart_resume(&rvperf_ops, hs, &hs->ctr);
}

/*
 * Non-retentive suspend comes back through the HSM device's hart_resume:
 * keep whatever device the FDT drivers installed and add the CTR resume.
 */
static void rvperf_hsm_hook(void)
{
	rvperf_hsm_next = sbi_hsm_get_device();
	if (rvperf_hsm_next)
		rvperf_hsm = *rvperf_hsm_next;
	else
		sbi_strncpy(rvperf_hsm.name, "rvperf", sizeof(rvperf_hsm.name));
	rvperf_hsm.hart_resume = rvperf_hart_resume;
	sbi_hsm_set_device(&rvperf_hsm);
}

/* Every boot of a hart (cold, and warm after each HSM start). */
static int rvperf_hart_init(bool cold_boot)
{
	struct rvperf_hart *hs = rvperf_this_hart();
	int rc;

	if (!hs)
		return SBI_ENOMEM;

	if (RVPERF_CTR_ON) {
		/* Probes, programs and clears: a (re)started hart never
		 * sees records from before. */
		rc = rvp_ctr_hart_init(&rvperf_ops, hs, &hs->ctr,
				       &rvperf_ctr_policy);
		hs->ctr_ready = !rc;
		if (cold_boot && hs->ctr_ready)
			sbi_printf("rvperf: CTR: depth %u of %u, mctrctl 0x%lx\n",
				   hs->ctr.depth, hs->ctr.max_depth,
				   (unsigned long)hs->ctr.ctl);
		else if (cold_boot)
			sbi_printf("rvperf: CTR: not present\n");
	}

	if (RVPERF_SBI_PMU_ON) {
		rvperf_shadow_reset(hs);
		rc = rvp_pmu_hart_init(&hs->pmu, &rvperf_pmu_plat,
				       &rvperf_ops, hs);
		if (rc) {
			sbi_printf("rvperf: PMU init failed on hart %u (%d)\n",
				   current_hartid(), rc);
			return rc;
		}
		hs->pmu_ready = true;
	}
	return 0;
}

/* ----------------------------------------------- platform operations */

static int rvperf_nascent_init(void)
{
	if (rvperf_mlevel_imsic)
		imsic_local_irqchip_init();
	return 0;
}

static int rvperf_early_init(bool cold_boot)
{
	const void *fdt = fdt_get_address();
	int rc;

	if (!cold_boot)
		return 0;

	rc = fdt_serial_init(fdt);
	if (rc)
		return rc;
	/* IPI (ACLINT MSWI, PLIC SW), reset and poweroff, HSM drivers. */
	fdt_driver_init_all(fdt, fdt_early_drivers);
	return 0;
}

static int rvperf_final_init(bool cold_boot)
{
	void *fdt = fdt_get_address_rw();
	int rc;

	if (cold_boot) {
		rvperf_harts = sbi_calloc(sbi_hart_count(),
					  sizeof(*rvperf_harts));
		if (!rvperf_harts)
			return SBI_ENOMEM;
		if (RVPERF_SBI_PMU_ON) {
			/* Before fdt_fixups(): the riscv,pmu node is read
			 * as the board describes it. */
			rc = rvperf_pmu_cold_init(fdt);
			if (rc)
				return rc;
		}
		if (RVPERF_CTR_ON)
			rvperf_hsm_hook();
	}

	rc = rvperf_hart_init(cold_boot);
	if (rc || !cold_boot)
		return rc;

	fdt_cpu_fixup(fdt);
	fdt_fixups(fdt);
	fdt_domain_fixup(fdt);
	fdt_pack(fdt);
	fdt_open_into(fdt, fdt, fdt_totalsize(fdt) +
		      CONFIG_PLATFORM_RVPERF_FDT_EMPTY_SPACE * 1024);
	return 0;
}

static int rvperf_extensions_init(struct sbi_hart_features *hfeatures)
{
	return fdt_parse_isa_extensions(fdt_get_address(), current_hartid(),
					hfeatures->extensions);
}

static int rvperf_domains_init(void)
{
	return fdt_domains_populate(fdt_get_address());
}

static u64 rvperf_tlbr_flush_limit(void)
{
	return SBI_PLATFORM_TLB_RANGE_FLUSH_LIMIT_DEFAULT;
}

static u32 rvperf_tlb_num_entries(void)
{
	return sbi_hart_count();
}

static const struct sbi_platform_operations rvperf_platform_ops = {
	.nascent_init		= rvperf_nascent_init,
	.early_init		= rvperf_early_init,
	.final_init		= rvperf_final_init,
	.extensions_init	= rvperf_extensions_init,
	.domains_init		= rvperf_domains_init,
	.irqchip_init		= fdt_irqchip_init,
	.timer_init		= fdt_timer_init,
	.get_tlbr_flush_limit	= rvperf_tlbr_flush_limit,
	.get_tlb_num_entries	= rvperf_tlb_num_entries,
};

/*
 * Called by OpenSBI's reference firmwares on the boot hart before anything
 * else: the harts and the heap size come from the FDT passed in a1.
 */
unsigned long fw_platform_init(unsigned long arg0, unsigned long arg1,
			       unsigned long arg2, unsigned long arg3,
			       unsigned long arg4)
{
	const void *fdt = (const void *)arg1;
	int cpus, cpu, len;
	const char *model;
	u32 hartid, count = 0;
	unsigned long heap;

	model = fdt_getprop(fdt, fdt_path_offset(fdt, "/"), "model", &len);
	if (model)
		sbi_strncpy(platform.name, model, sizeof(platform.name) - 1);

	cpus = fdt_path_offset(fdt, "/cpus");
	if (cpus < 0)
		goto fail;
	fdt_for_each_subnode(cpu, fdt, cpus) {
		if (count >= SBI_HARTMASK_MAX_BITS)
			break;
		if (fdt_parse_hart_id(fdt, cpu, &hartid) ||
		    !fdt_node_is_enabled(fdt, cpu))
			continue;
		rvperf_hart_index2id[count++] = hartid;
	}
	if (!count)
		goto fail;

	/* OpenSBI's default, its TLB request queues, our per-hart state. */
	heap = SBI_PLATFORM_DEFAULT_HEAP_SIZE(count) +
	       SBI_TLB_INFO_SIZE * count * count +
	       sizeof(struct rvperf_hart) * count;
	platform.hart_count = count;
	platform.heap_size = BIT_ALIGN(heap, HEAP_BASE_ALIGN);
	rvperf_mlevel_imsic = fdt_check_imsic_mlevel(fdt);
	return arg1;

fail:
	while (1)
		wfi();
}

struct sbi_platform platform = {
	.opensbi_version	= OPENSBI_VERSION,
	.platform_version	= SBI_PLATFORM_VERSION(0, 1),
	.name			= "rvperf",
	.features		= SBI_PLATFORM_DEFAULT_FEATURES,
	.hart_count		= SBI_HARTMASK_MAX_BITS,
	.hart_index2id		= rvperf_hart_index2id,
	.hart_stack_size	= SBI_PLATFORM_DEFAULT_HART_STACK_SIZE,
	.heap_size		= SBI_PLATFORM_DEFAULT_HEAP_SIZE(0),
	.platform_ops_addr	= (unsigned long)&rvperf_platform_ops,
};
