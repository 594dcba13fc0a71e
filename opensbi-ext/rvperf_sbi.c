// SPDX-License-Identifier: BSD-2-Clause
/*
 * rvperf_sbi.c - rvperf's SBI PMU extension and CTR management inside
 * OpenSBI, for any platform: the external platform (platform.c) and
 * OpenSBI's own generic platform with its board overrides (generic.mk)
 * build this same file.
 *
 * It needs no platform operation.  The link (--wrap, rvperf.mk) hands
 * OpenSBI's calls into its own PMU library (lib/sbi/sbi_pmu.c) to the
 * functions below.  Only its init and exit still run (for the platform's
 * and boards' pmu_init hooks); nothing reads the state they keep:
 *
 *   sbi_pmu_init         every boot of a hart (cold, and warm after each
 *                        HSM start): OpenSBI's own init first (the
 *                        platform's pmu_init hook: vendor CSRs, a board's
 *                        sbi_pmu_device), then the rvperf core probes and
 *                        resets the hart's counters, CTR is programmed
 *                        and cleared; on the cold boot, before all that,
 *                        the riscv,pmu maps, the PMU extension and the SSE
 *                        event (OpenSBI's own attempt to add one then
 *                        fails, harmlessly)
 *   sbi_pmu_exit         hart stop: hpm counters inhibited
 *   sbi_pmu_ctr_incr_fw  each firmware event site of lib/sbi (traps,
 *                        illegal instructions, timer, IPI, remote fences):
 *                        straight to the core's firmware counters
 *   sbi_pmu_ovf_irq      a counter overflow interrupt taken in M-mode
 *                        (S-mode registered SSE LOCAL_PMU_OVERFLOW): the
 *                        SSE event, from the core's overflow state
 *   sbi_ecall_handler    every ecall: the implementation-specific and
 *                        platform firmware events rvperf defines
 *   sbi_ecall_register_extension
 *                        OpenSBI's own PMU extension, if it is built in,
 *                        is left out: EID 0x504D55 is rvperf's
 *   sbi_hsm_hart_resume_finish
 *                        back from non-retentive suspend: CTR restored
 *
 * Firmware events rvperf adds (README "Firmware events"):
 *   256 (implementation-specific)  SBI ecalls this hart handled
 *   65535 (SBI_PMU_FW_PLATFORM)    ecalls of the extension whose EID is
 *                                  event_data (a registered one)
 */

#include <libfdt.h>
#include <sbi/riscv_asm.h>
#include <sbi/riscv_atomic.h>
#include <sbi/riscv_encoding.h>
#include <sbi/sbi_console.h>
#include <sbi/sbi_csr_detect.h>
#include <sbi/sbi_domain.h>
#include <sbi/sbi_ecall.h>
#include <sbi/sbi_ecall_interface.h>
#include <sbi/sbi_error.h>
#include <sbi/sbi_hart.h>
#include <sbi/sbi_hart_protection.h>
#include <sbi/sbi_heap.h>
#include <sbi/sbi_hsm.h>
#include <sbi/sbi_platform.h>
#include <sbi/sbi_pmu.h>
#include <sbi/sbi_scratch.h>
#include <sbi/sbi_sse.h>
#include <sbi/sbi_string.h>
#include <sbi/sbi_trap.h>
#include <sbi_utils/fdt/fdt_helper.h>

#include "opensbi-ext/core/rvp_sbi_pmu.h"
#include "opensbi-ext/core/rvp_sbi_pmu_dt.h"
#include "opensbi-ext/core/rvp_sbi_ctr.h"
#include "rvperf_compat.h"
#include "rvperf_sbi.h"
#include <rvperf/csr.h>
#include <rvperf/ctr.h>

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
/* The v0.1.4 draft CTR layout, on harts that declare it (Kconfig
 * RVPERF_CTR_DRAFT, default off): without it no draft CSR is in the
 * firmware at all. */
#ifdef CONFIG_RVPERF_CTR_DRAFT
#define RVPERF_CTR_DRAFT_ON	1
#else
#define RVPERF_CTR_DRAFT_ON	0
#endif
/* The QEMU workarounds (Kconfig RVPERF_QEMU_QUIRKS; generic.mk's make
 * switch RVPERF_QEMU_QUIRKS=0 leaves them out). */
#ifdef CONFIG_RVPERF_QEMU_QUIRKS
#define RVPERF_QEMU_QUIRKS_ON	1
#else
#define RVPERF_QEMU_QUIRKS_ON	0
#endif

#ifndef CONFIG_RVPERF_PMU_FW_COUNTERS
#define CONFIG_RVPERF_PMU_FW_COUNTERS 0
#endif
#ifndef CONFIG_RVPERF_CTR_DEPTH
#define CONFIG_RVPERF_CTR_DEPTH 0
#endif

struct rvperf_hart {
	struct rvp_sbi_pmu_hart pmu;
	struct rvp_sbi_ctr_hart ctr;
	bool pmu_ready;
	bool ctr_ready;
	/* Inside rvp_sbi_pmu_hart_init(): counter CSRs may be missing. */
	bool probing;
	/* S-mode registered SSE LOCAL_PMU_OVERFLOW: LCOFI comes to M-mode. */
	bool sse_registered;
	/* Counted in rvperf_fw_counting_harts. */
	bool fw_counting;
};

static struct rvp_sbi_pmu_platform rvperf_pmu_plat;
static struct rvp_sbi_pmu_maps rvperf_pmu_maps;
static struct rvperf_hart *rvperf_harts;

static const struct rvp_sbi_ctr_policy rvperf_ctr_policy = {
	.record_m = RVPERF_CTR_RECORD_M_ON,
	.mte = RVPERF_CTR_MTE_ON,
	.lcofifrz = RVPERF_CTR_LCOFIFRZ_ON,
	.depth = CONFIG_RVPERF_CTR_DEPTH,
	.draft = RVPERF_CTR_DRAFT_ON,
};

static inline struct rvperf_hart *rvperf_this_hart(void)
{
	if (unlikely(!rvperf_harts))
		return NULL;
	return &rvperf_harts[current_hartindex()];
}

/* ---------------------------------------------------------- core ops */

/*
 * Whether a counter or event CSR of mhpmcounter3..31 exists on this hart.
 * The privileged spec makes unimplemented ones read-only zero, which the
 * core's discovery relies on; QEMU (7.2 at least) traps on them instead,
 * so while the core probes, the counters OpenSBI's own probing did not
 * find (sbi_hart_mhpm_mask()) read as zero and ignore writes.  Once
 * probed, the core touches only the counters it found.
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

/* The counter, event and filter CSRs: csr_read_num()/csr_write_num(). */
static inline bool rvperf_csr_is_counter(unsigned int csr)
{
	return (csr >= CSR_MCYCLE && csr <= CSR_MHPMCOUNTER31) ||
	       (csr >= CSR_MCOUNTINHIBIT && csr <= CSR_MHPMEVENT31);
}

/*
 * The other CSRs the cores use need an immediate CSR number, hence the
 * switches; the counter CSRs of every start and stop are tested first.
 */
static uint64_t rvperf_csr_read(void *ctx, unsigned int csr)
{
	struct rvperf_hart *hs = ctx;

	if (likely(rvperf_csr_is_counter(csr))) {
		if (unlikely(hs->probing) && rvperf_hpm_csr_missing(csr))
			return 0;
		return csr_read_num(csr);
	}
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
#ifdef CONFIG_RVPERF_CTR_DRAFT
	case RVP_CTR_DRAFT_CSR_MCTRCONTROL:
		return csr_read(RVP_CTR_DRAFT_CSR_MCTRCONTROL);
	case RVP_CTR_DRAFT_CSR_SCTRCONTROL:
		return csr_read(RVP_CTR_DRAFT_CSR_SCTRCONTROL);
	case RVP_CTR_DRAFT_CSR_SCTRSTATUS:
		return csr_read(RVP_CTR_DRAFT_CSR_SCTRSTATUS);
#endif
	default:
		if (unlikely(hs->probing) && rvperf_hpm_csr_missing(csr))
			return 0;
		return csr_read_num(csr);
	}
}

static void rvperf_csr_write(void *ctx, unsigned int csr, uint64_t val)
{
	struct rvperf_hart *hs = ctx;
	unsigned long v = (unsigned long)val;

	if (likely(rvperf_csr_is_counter(csr))) {
		if (unlikely(hs->probing) && rvperf_hpm_csr_missing(csr))
			return;
		csr_write_num(csr, v);
		return;
	}
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
#ifdef CONFIG_RVPERF_CTR_DRAFT
	case RVP_CTR_DRAFT_CSR_MCTRCONTROL:
		csr_write(RVP_CTR_DRAFT_CSR_MCTRCONTROL, v);
		break;
	case RVP_CTR_DRAFT_CSR_SCTRCONTROL:
		csr_write(RVP_CTR_DRAFT_CSR_SCTRCONTROL, v);
		break;
	case RVP_CTR_DRAFT_CSR_SCTRSTATUS:
		csr_write(RVP_CTR_DRAFT_CSR_SCTRSTATUS, v);
		break;
#endif
	default:
		if (!(unlikely(hs->probing) && rvperf_hpm_csr_missing(csr)))
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
#ifdef CONFIG_RVPERF_CTR_DRAFT
	/* The v0.1.4 draft's control registers: rvp_sbi_ctr_probe() tries
	 * them only on a hart that declares the draft (0x181 is Ssqosid's
	 * srmcfg elsewhere). */
	RVPERF_PROBE(RVP_CTR_DRAFT_CSR_MCTRCONTROL);
	RVPERF_PROBE(RVP_CTR_DRAFT_CSR_SCTRCONTROL);
#endif
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
 * on a device, and M-mode's access would fault there.
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

/* M-mode's view of S-mode memory is identity-mapped; on Smepmp hardware
 * the map opens a PMP window, hence one map per call. */
static void *rvperf_smode_map(void *ctx, uint64_t addr, uint64_t len,
			      int write)
{
	if (sbi_hart_protection_map_range((unsigned long)addr,
					  (unsigned long)len))
		return NULL;
	return (void *)(unsigned long)addr;
}

static void rvperf_smode_unmap(void *ctx, uint64_t addr, uint64_t len)
{
	sbi_hart_protection_unmap_range((unsigned long)addr,
					(unsigned long)len);
}

/* event_data of SBI_PMU_FW_PLATFORM: the EID of a registered extension. */
static int rvperf_fw_platform_event_ok(void *ctx, uint64_t event_data)
{
	if (event_data != (u32)event_data)
		return 0;
	return sbi_ecall_find_extension((unsigned long)event_data) != NULL;
}

static void rvperf_ctr_clear(void *ctx)
{
	/* SCTRCLR; older assemblers do not know the mnemonic. */
	__asm__ __volatile__(".4byte %0" : : "i"(RVP_CTR_V1_SCTRCLR_INSN)
			     : "memory");
}

static const struct rvp_sbi_pmu_ops rvperf_ops = {
	.csr_read		= rvperf_csr_read,
	.csr_write		= rvperf_csr_write,
	.csr_probe		= rvperf_csr_probe,
	.smode_range_ok		= rvperf_smode_range_ok,
	.smode_map		= rvperf_smode_map,
	.smode_unmap		= rvperf_smode_unmap,
	.fw_platform_event_ok	= rvperf_fw_platform_event_ok,
	.ctr_clear		= rvperf_ctr_clear,
};

/* ------------------------------------------------- firmware events */

/*
 * Whether any firmware counter of the hart is started: the event sites
 * run on hot paths (every IPI, every emulated access), so the common
 * case of nothing counting costs a load and a branch.
 */
static inline bool rvperf_fw_counting(const struct rvperf_hart *hs)
{
	return hs->pmu.started >> hs->pmu.num_hw;
}

/*
 * Harts with a firmware counter started: every ecall asks, and on a
 * machine where none counts (the usual case) that is one load and a
 * branch before OpenSBI's own ecall handling.
 */
static atomic_t rvperf_fw_counting_harts __attribute__((used)) =
	ATOMIC_INITIALIZER(0);

static void rvperf_fw_counting_update(struct rvperf_hart *hs, bool now)
{
	if (hs->fw_counting == now)
		return;
	hs->fw_counting = now;
	atomic_add_return(&rvperf_fw_counting_harts, now ? 1 : -1);
}

void rvperf_fw_event(u32 code, u64 event_data, u64 count)
{
	struct rvperf_hart *hs = rvperf_this_hart();

	if (hs && rvperf_fw_counting(hs))
		rvp_sbi_pmu_fw_event(&hs->pmu, code, event_data, count);
}

/* Every standard firmware event lib/sbi counts arrives here. */
int __real_sbi_pmu_ctr_incr_fw(enum sbi_pmu_fw_event_code_id fw_id);
int __wrap_sbi_pmu_ctr_incr_fw(enum sbi_pmu_fw_event_code_id fw_id)
{
	rvperf_fw_event(fw_id, 0, 1);
	return 0;
}

/* Out of line: the wrapper's common path stays a load and a branch. */
static void __attribute__((noinline))
rvperf_ecall_events(const struct sbi_trap_context *tcntx)
{
	struct rvperf_hart *hs = rvperf_this_hart();

	if (hs && rvperf_fw_counting(hs)) {
		rvp_sbi_pmu_fw_event(&hs->pmu, RVPERF_FW_EVENT_ECALLS, 0, 1);
		rvp_sbi_pmu_fw_event(&hs->pmu, RVP_SBI_PMU_FW_PLATFORM,
				     tcntx->regs.a7, 1);
	}
}

int __real_sbi_ecall_handler(struct sbi_trap_context *tcntx);
int rvperf_ecall_counted(struct sbi_trap_context *tcntx);
int rvperf_ecall_counted(struct sbi_trap_context *tcntx)
{
	rvperf_ecall_events(tcntx);
	return __real_sbi_ecall_handler(tcntx);
}

/*
 * int __wrap_sbi_ecall_handler(struct sbi_trap_context *tcntx): every ecall
 * of every extension passes here, so it is a tail call with no frame of its
 * own (OpenSBI builds C with frame pointers and without sibling calls,
 * which would cost a dozen instructions on each): while no hart has a
 * firmware counter started, a load and a branch.
 */
__asm__(
"	.section .text.__wrap_sbi_ecall_handler, \"ax\", %progbits\n"
"	.globl	__wrap_sbi_ecall_handler\n"
"	.type	__wrap_sbi_ecall_handler, %function\n"
"	.balign	4\n"
"__wrap_sbi_ecall_handler:\n"
"1:	auipc	t0, %pcrel_hi(rvperf_fw_counting_harts)\n"
"	" REG_L "	t0, %pcrel_lo(1b)(t0)\n"
"	bnez	t0, 2f\n"
"	tail	__real_sbi_ecall_handler\n"
"2:	tail	rvperf_ecall_counted\n"
"	.size	__wrap_sbi_ecall_handler, . - __wrap_sbi_ecall_handler\n"
"	.text\n");

/* --------------------------------------------------- PMU extension */

/* a0..a5 of struct sbi_trap_regs are the core's args[6] on RV64. */
_Static_assert(__riscv_xlen != 64 ||
	       (offsetof(struct sbi_trap_regs, a5) -
		offsetof(struct sbi_trap_regs, a0) == 5 * sizeof(uint64_t)),
	       "a0..a5 are consecutive in struct sbi_trap_regs");

static int rvperf_pmu_handle(unsigned long extid, unsigned long funcid,
			     struct sbi_trap_regs *regs,
			     struct sbi_ecall_return *out)
{
	struct rvperf_hart *hs = rvperf_this_hart();
	struct rvp_sbiret ret;
#if __riscv_xlen == 64
	const uint64_t *args = (const uint64_t *)&regs->a0;
#else
	uint64_t args[6] = { regs->a0, regs->a1, regs->a2,
			     regs->a3, regs->a4, regs->a5 };
#endif

	if (unlikely(!hs || !hs->pmu_ready))
		return SBI_ENOTSUPP;
	ret = rvp_sbi_pmu_ecall(&hs->pmu, funcid, args);
	if (unlikely(rvperf_fw_counting(hs) != hs->fw_counting))
		rvperf_fw_counting_update(hs, !hs->fw_counting);
	/* A stop may leave LCOFI pending for the overflow S-mode handles in
	 * its SSE handler right now: drop it, or it comes back at once. */
	if (unlikely(hs->sse_registered) &&
	    funcid == RVP_SBI_PMU_FID_COUNTER_STOP)
		csr_clear(CSR_MIP, sbi_pmu_irq_mask());
	out->value = (unsigned long)ret.value;
	return (int)ret.error;
}

static struct sbi_ecall_extension rvperf_pmu_ext = {
	.name		= "pmu",
	.extid_start	= SBI_EXT_PMU,
	.extid_end	= SBI_EXT_PMU,
	.handle		= rvperf_pmu_handle,
};

/* OpenSBI's own PMU extension (CONFIG_SBI_ECALL_PMU) stays out. */
int __real_sbi_ecall_register_extension(struct sbi_ecall_extension *ext);
int __wrap_sbi_ecall_register_extension(struct sbi_ecall_extension *ext)
{
	if (RVPERF_SBI_PMU_ON && ext != &rvperf_pmu_ext &&
	    ext->extid_start <= SBI_EXT_PMU && SBI_EXT_PMU <= ext->extid_end)
		return 0;
	return __real_sbi_ecall_register_extension(ext);
}

/* ------------------------------------------- SSE LOCAL_PMU_OVERFLOW */

/*
 * With the event registered, LCOFI is no longer delegated: M-mode takes
 * it, masks it and injects the event; S-mode's handler stops (and
 * restarts) counters through the PMU extension and completes the event,
 * which unmasks it again.
 */
static void rvperf_sse_register(uint32_t event_id)
{
	struct rvperf_hart *hs = rvperf_this_hart();

	hs->sse_registered = true;
	csr_clear(CSR_MIDELEG, sbi_pmu_irq_mask());
}

static void rvperf_sse_unregister(uint32_t event_id)
{
	struct rvperf_hart *hs = rvperf_this_hart();

	hs->sse_registered = false;
	csr_set(CSR_MIDELEG, sbi_pmu_irq_mask());
}

static void rvperf_sse_enable(uint32_t event_id)
{
	csr_set(CSR_MIE, sbi_pmu_irq_mask());
}

static void rvperf_sse_disable(uint32_t event_id)
{
	csr_clear(CSR_MIE, sbi_pmu_irq_mask());
	csr_clear(CSR_MIP, sbi_pmu_irq_mask());
}

static void rvperf_sse_complete(uint32_t event_id)
{
	csr_set(CSR_MIE, sbi_pmu_irq_mask());
}

static const struct sbi_sse_cb_ops rvperf_sse_ops = {
	.register_cb	= rvperf_sse_register,
	.unregister_cb	= rvperf_sse_unregister,
	.enable_cb	= rvperf_sse_enable,
	.disable_cb	= rvperf_sse_disable,
	.complete_cb	= rvperf_sse_complete,
};

void __real_sbi_pmu_ovf_irq(void);
void __wrap_sbi_pmu_ovf_irq(void)
{
	struct rvperf_hart *hs = rvperf_this_hart();
	unsigned long irq = sbi_pmu_irq_mask();

	/* Masked until S-mode completes the event; with no overflown
	 * counter in the core's state it was spurious: drop it. */
	csr_clear(CSR_MIE, irq);
	if (hs && hs->pmu_ready && rvp_sbi_pmu_overflowed(&hs->pmu)) {
		sbi_sse_inject_event(SBI_SSE_EVENT_LOCAL_PMU_OVERFLOW);
		return;
	}
	csr_clear(CSR_MIP, irq);
	csr_set(CSR_MIE, irq);
}

/* ----------------------------------------------------- cold boot */

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
		rc = rvp_sbi_pmu_dt_prop(&rvperf_pmu_maps, props[i], val, len);
		if (rc)
			sbi_printf("rvperf: %s ignored (error %d)\n",
				   props[i], rc);
	}
	rvperf_pmu_plat.maps = &rvperf_pmu_maps;
}

static int rvperf_pmu_cold_init(void)
{
	const void *fdt = fdt_get_address();
	int rc;

	rvperf_pmu_plat.xlen = __riscv_xlen;
	if (fdt) {
		/* The riscv,pmu node as the board describes it (cold boot
		 * runs before the platform's FDT fixups). */
		rvperf_pmu_dt_parse(fdt);
		rvperf_ram_parse(fdt);
	}
	rvperf_pmu_plat.num_fw_ctrs = CONFIG_RVPERF_PMU_FW_COUNTERS;
	rvperf_pmu_plat.fw_impl_first = RVPERF_FW_EVENT_ECALLS;
	rvperf_pmu_plat.fw_impl_last = RVPERF_FW_EVENT_ECALLS;
	rvperf_pmu_plat.no_snapshot = !RVPERF_PMU_SNAPSHOT_ON;
	rvperf_pmu_plat.no_event_info = !RVPERF_PMU_EVENT_INFO_ON;
	rvperf_pmu_plat.force_minh = RVPERF_PMU_FORCE_MINH_ON;
	/* QEMU's virt board says so in its root compatible; only its harts
	 * get the workaround for QEMU's stale overflow deadline. */
	rvperf_pmu_plat.qemu_quirks = RVPERF_QEMU_QUIRKS_ON && fdt &&
		!fdt_node_check_compatible(fdt, 0, "riscv-virtio");

	rc = sbi_ecall_register_extension(&rvperf_pmu_ext);
	if (rc)
		return rc;
	/*
	 * Before OpenSBI's own PMU init, which would add the event with
	 * callbacks into its own state.  Whether the harts have an overflow
	 * interrupt may only be known after it (a board's sbi_pmu_device), so
	 * the event is added anyway: without one the callbacks' mask is 0
	 * and the event never fires.
	 */
	rc = sbi_sse_add_event(SBI_SSE_EVENT_LOCAL_PMU_OVERFLOW,
			       &rvperf_sse_ops);
	if (rc)
		sbi_printf("rvperf: no SSE PMU overflow event (%d)\n", rc);
	return 0;
}

unsigned long rvperf_heap_size(u32 harts)
{
	return sizeof(struct rvperf_hart) * harts;
}

/* ------------------------------------------------------ hart hooks */

/*
 * What the calling hart declares of CTR (rvp_sbi_ctr_probe() looks nowhere
 * else): smctr and ssctr as OpenSBI parsed them from the ISA string; the
 * draft layout's own name (RVP_SBI_CTR_ISA_DRAFT_NAME) from the hart's
 * cpu node, which OpenSBI does not know.
 */
static unsigned int rvperf_ctr_isa(struct sbi_scratch *scratch)
{
	unsigned int isa = 0;
#if RVPERF_CTR_DRAFT_ON
	const void *fdt = fdt_get_address();
	const char *prop;
	int cpus, cpu, len;
	u32 hartid;

	cpus = fdt ? fdt_path_offset(fdt, "/cpus") : -1;
	if (cpus >= 0) {
		fdt_for_each_subnode(cpu, fdt, cpus) {
			if (fdt_parse_hart_id(fdt, cpu, &hartid) ||
			    hartid != current_hartid())
				continue;
			prop = fdt_getprop(fdt, cpu, "riscv,isa-extensions",
					   &len);
			if (prop && len > 0) {
				isa = rvp_sbi_ctr_isa_parse(prop, len, 1);
			} else {
				prop = fdt_getprop(fdt, cpu, "riscv,isa", &len);
				if (prop && len > 0)
					isa = rvp_sbi_ctr_isa_parse(prop, len,
								    0);
			}
			break;
		}
	}
	isa &= RVP_SBI_CTR_ISA_DRAFT;
#endif
	if (sbi_hart_has_extension(scratch, SBI_HART_EXT_SMCTR))
		isa |= RVP_SBI_CTR_ISA_SMCTR;
	if (sbi_hart_has_extension(scratch, SBI_HART_EXT_SSCTR))
		isa |= RVP_SBI_CTR_ISA_SSCTR;
	return isa;
}

/*
 * Non-retentive suspend: the hart comes back through init_warm_resume(),
 * whose sbi_hart_reinit() has just rewritten mstateen0; CTR's state is
 * restored before the hart returns to S-mode.  (An HSM device's
 * hart_resume cannot be used: OpenSBI keeps the first device set.)
 */
void __noreturn __real_sbi_hsm_hart_resume_finish(struct sbi_scratch *scratch,
						  u32 hartid);
void __noreturn __wrap_sbi_hsm_hart_resume_finish(struct sbi_scratch *scratch,
						  u32 hartid)
{
	struct rvperf_hart *hs = rvperf_this_hart();

	if (hs && hs->ctr_ready)
		rvp_sbi_ctr_hart_resume(&rvperf_ops, hs, &hs->ctr);
	__real_sbi_hsm_hart_resume_finish(scratch, hartid);
}

/*
 * Every boot of a hart, in place of OpenSBI's PMU init (after
 * sbi_hart_init(): the hart's extensions and counters are known).
 */
int __real_sbi_pmu_init(struct sbi_scratch *scratch, bool cold_boot);
int __wrap_sbi_pmu_init(struct sbi_scratch *scratch, bool cold_boot)
{
	struct rvperf_hart *hs;
	int rc;

	if (cold_boot) {
		rvperf_harts = sbi_calloc(sbi_hart_count(),
					  sizeof(*rvperf_harts));
		if (!rvperf_harts)
			return SBI_ENOMEM;
		if (RVPERF_SBI_PMU_ON) {
			rc = rvperf_pmu_cold_init();
			if (rc)
				return rc;
		}
	}
	rc = __real_sbi_pmu_init(scratch, cold_boot);
	if (rc)
		return rc;
	hs = rvperf_this_hart();

	if (RVPERF_CTR_ON) {
		unsigned int isa = rvperf_ctr_isa(scratch);

		/* Finds what the hart declares, programs and clears: a
		 * (re)started hart never sees records from before. */
		rc = rvp_sbi_ctr_hart_init(&rvperf_ops, hs, &hs->ctr,
					   &rvperf_ctr_policy, isa);
		hs->ctr_ready = !rc;
		if (cold_boot && hs->ctr_ready)
			sbi_printf("rvperf: CTR%s: depth %u of %u, mctrctl 0x%lx\n",
				   hs->ctr.layout == RVP_SBI_CTR_LAYOUT_DRAFT ?
				   " (v0.1.4 draft)" : "",
				   hs->ctr.depth, hs->ctr.max_depth,
				   (unsigned long)hs->ctr.ctl);
		else if (cold_boot)
			sbi_printf("rvperf: CTR: none (declared:%s%s%s%s)\n",
				   isa & RVP_SBI_CTR_ISA_SMCTR ? " smctr" : "",
				   isa & RVP_SBI_CTR_ISA_SSCTR ? " ssctr" : "",
				   isa & RVP_SBI_CTR_ISA_DRAFT ?
				   " " RVP_SBI_CTR_ISA_DRAFT_NAME : "",
				   isa ? "" : " nothing");
	}

	if (RVPERF_SBI_PMU_ON) {
		rvperf_fw_counting_update(hs, false);
		hs->pmu_ready = false;
		hs->sse_registered = false;
		hs->probing = true;
		rc = rvp_sbi_pmu_hart_init(&hs->pmu, &rvperf_pmu_plat,
					   &rvperf_ops, hs);
		hs->probing = false;
		if (rc) {
			sbi_printf("rvperf: PMU init failed on hart %u (%d)\n",
				   current_hartid(), rc);
			return rc;
		}
		hs->pmu_ready = true;
		if (cold_boot)
			sbi_printf("rvperf: SBI PMU extension: %u hardware "
				   "counters (mask 0x%x), %u firmware counters, "
				   "riscv,pmu maps %s, MINH %s%s\n",
				   hs->pmu.num_hw, hs->pmu.hw.ctr_mask,
				   rvperf_pmu_plat.num_fw_ctrs,
				   rvperf_pmu_plat.maps ? "used" : "absent",
				   RVPERF_PMU_FORCE_MINH_ON ? "forced" :
							      "as asked",
				   rvperf_pmu_plat.qemu_quirks ?
				   ", QEMU quirks" : "");
	}
	return 0;
}

/* Hart stop: nothing keeps counting while the hart is away. */
void __real_sbi_pmu_exit(struct sbi_scratch *scratch);
void __wrap_sbi_pmu_exit(struct sbi_scratch *scratch)
{
	struct rvperf_hart *hs = rvperf_this_hart();

	if (hs && hs->pmu_ready) {
		rvperf_fw_counting_update(hs, false);
		hs->pmu_ready = false;
		if (sbi_hart_priv_version(scratch) >= SBI_HART_PRIV_VER_1_11)
			csr_write(CSR_MCOUNTINHIBIT, hs->pmu.hw.ctr_mask &
						     ~(unsigned long)7);
	}
	__real_sbi_pmu_exit(scratch);
}
