// SPDX-License-Identifier: BSD-2-Clause
/*
 * rvperf_sbi.c - what rvperf's OpenSBI platform adds to OpenSBI's own PMU
 * and CTR handling, for the external platform (platform.c) and for the
 * QEMU virt override of OpenSBI's generic platform (generic_override.c).
 *
 * The SBI PMU extension is OpenSBI's own (lib/sbi/sbi_pmu.c, with rvperf's
 * series in opensbi-ext/patches/ for what the spec asks and OpenSBI lacks:
 * snapshot shared memory, event_get_info fixes, every firmware event
 * counted, ratified CTR set up in sbi_hart_reinit()).  This file reaches
 * OpenSBI only through what it gives platforms: it is called from platform
 * operations (extensions_init, pmu_init, final_init), installs an
 * sbi_pmu_device with sbi_pmu_set_device(), and reads the devicetree.
 * Two things only, both for rvperf's and QEMU's simulated harts:
 *
 *   the v0.1.4 draft CTR layout (RVPERF_CTR_DRAFT, default off) on harts
 *   declaring "xrvperfctrdraft": mstateen0 bit 55, mctrcontrol with the
 *   largest DEPTH and nothing recorded, records cleared;
 *
 *   QEMU's stale overflow deadline (RVPERF_QEMU_QUIRKS, default on; used
 *   on QEMU's virt board only): a counter started far from overflowing is
 *   let go with mhpmevent.OF set, so QEMU arms no deadline for it.
 */

#include <libfdt.h>
#include <sbi/riscv_asm.h>
#include <sbi/riscv_encoding.h>
#include <sbi/sbi_bitops.h>
#include <sbi/sbi_console.h>
#include <sbi/sbi_csr_detect.h>
#include <sbi/sbi_ecall_interface.h>
#include <sbi/sbi_hart.h>
#include <sbi/sbi_pmu.h>
#include <sbi/sbi_scratch.h>
#include <sbi/sbi_string.h>
#include <sbi/sbi_trap.h>
#include <sbi_utils/fdt/fdt_helper.h>

#include "rvperf_compat.h"
#include "rvperf_sbi.h"
#include <rvperf/ctr.h>

/* ----------------------------------------------- the draft CTR layout */

/* The name a hart's ISA string gives the v0.1.4 draft (no specification
 * names it, hence a vendor-style one). */
#define RVPERF_CTR_DRAFT_ISA_NAME	"xrvperfctrdraft"

/* Whether the cpu node of hart hartid lists the draft: as an entry of
 * riscv,isa-extensions, else as "_xrvperfctrdraft" in riscv,isa. */
static bool rvperf_hart_declares_draft(u32 hartid)
{
	const void *fdt = fdt_get_address();
	const char *isa, *p;
	int cpus, cpu, len, n;
	u32 id;

	cpus = fdt ? fdt_path_offset(fdt, "/cpus") : -1;
	if (cpus < 0)
		return false;
	fdt_for_each_subnode(cpu, fdt, cpus) {
		if (fdt_parse_hart_id(fdt, cpu, &id) || id != hartid)
			continue;
		if (fdt_getprop(fdt, cpu, "riscv,isa-extensions", NULL))
			return fdt_stringlist_search(fdt, cpu,
						     "riscv,isa-extensions",
						     RVPERF_CTR_DRAFT_ISA_NAME)
			       >= 0;
		isa = fdt_getprop(fdt, cpu, "riscv,isa", &len);
		n = sizeof(RVPERF_CTR_DRAFT_ISA_NAME) - 1;
		/* len counts the NUL: p[n + 1] is inside the property */
		for (p = isa; p && p + n + 1 < isa + len && *p; p++)
			if (*p == '_' &&
			    !sbi_strncmp(p + 1, RVPERF_CTR_DRAFT_ISA_NAME, n) &&
			    (p[n + 1] == '_' || p[n + 1] == '\0'))
				return true;
		return false;
	}
	return false;
}

void rvperf_hart_extensions(struct sbi_hart_features *hfeatures, u32 hartid)
{
	/*
	 * Such a hart (rvperf's QEMU model, ctr-layout=draft) has the draft's
	 * CSRs under the ratified names: OpenSBI would program mctrctl and
	 * sctrdepth, which it lacks, and trap.  Whatever the build, OpenSBI
	 * must not see ratified CTR there.
	 */
	if (rvperf_hart_declares_draft(hartid)) {
		__clear_bit(SBI_HART_EXT_SMCTR, hfeatures->extensions);
		__clear_bit(SBI_HART_EXT_SSCTR, hfeatures->extensions);
	}
}

#ifdef CONFIG_RVPERF_CTR_DRAFT
/* DEPTH is a thermometer code in the control register: 16 << n entries is
 * n ones.  WARL: the largest code that reads back as written is the
 * hart's maximum. */
static unsigned long rvperf_draft_depth(void)
{
	unsigned long code;
	int n;

	for (n = 4; n > 0; n--) {
		code = ((1UL << n) - 1) << RVP_CTR_DRAFT_MCTRCONTROL_DEPTH_SHIFT;
		csr_write(RVP_CTR_DRAFT_CSR_MCTRCONTROL, code);
		if ((csr_read(RVP_CTR_DRAFT_CSR_MCTRCONTROL) &
		     RVP_CTR_DRAFT_MCTRCONTROL_DEPTH) == code)
			return code;
	}
	return 0;
}

static void rvperf_ctr_draft_init(bool cold_boot)
{
	struct sbi_trap_info trap = { 0 };
	unsigned long ctl;

	if (!rvperf_hart_declares_draft(current_hartid()))
		return;
	/* An ISA string can claim more than the hart has. */
	csr_read_allowed(RVP_CTR_DRAFT_CSR_MCTRCONTROL, &trap);
	if (trap.cause) {
		if (cold_boot)
			sbi_printf("rvperf: " RVPERF_CTR_DRAFT_ISA_NAME
				   " declared, but no mctrcontrol\n");
		return;
	}
	/* With Smstateen, S-mode reaches sctrcontrol and the records only
	 * with the draft's state-enable bit (55; Ssqosid's on any other
	 * hart). */
	if (sbi_hart_has_extension(sbi_scratch_thishart_ptr(),
				   SBI_HART_EXT_SMSTATEEN))
#if __riscv_xlen == 32
		csr_set(CSR_MSTATEEN0H, RVP_CTR_DRAFT_STATEEN0_CTR >> 32);
#else
		csr_set(CSR_MSTATEEN0, RVP_CTR_DRAFT_STATEEN0_CTR);
#endif
	/*
	 * The largest depth and nothing recorded until S-mode asks: never
	 * M-mode, nor traps into it.  Then CLR zeroes every record and the
	 * status, so a (re)started hart shows nothing of before.
	 */
	ctl = rvperf_draft_depth();
	csr_write(RVP_CTR_DRAFT_CSR_MCTRCONTROL, ctl);
	csr_write(RVP_CTR_DRAFT_CSR_MCTRCONTROL,
		  ctl | RVP_CTR_DRAFT_MCTRCONTROL_CLR);
	csr_write(RVP_CTR_DRAFT_CSR_SCTRSTATUS, 0);
	if (cold_boot)
		sbi_printf("rvperf: CTR (v0.1.4 draft): depth %lu\n",
			   16UL << sbi_popcount((ctl &
				RVP_CTR_DRAFT_MCTRCONTROL_DEPTH) >>
				RVP_CTR_DRAFT_MCTRCONTROL_DEPTH_SHIFT));
}
#endif

void rvperf_hart_final_init(bool cold_boot)
{
#ifdef CONFIG_RVPERF_CTR_DRAFT
	rvperf_ctr_draft_init(cold_boot);
#endif
}

/* ------------------------------------ QEMU's stale overflow deadline */

#ifdef CONFIG_RVPERF_QEMU_QUIRKS
/*
 * QEMU (up to 10.2 at least, target/riscv/pmu.c) arms a host timer for the
 * overflow of a cycles or instructions counter when the counter starts with
 * OF clear, and keeps the part of the deadline past INT64_MAX ns for the
 * timer's next expiry; nothing clears it when the counter is started again
 * nearer its overflow.  Linux starts counting events at 2^63 + 1: a
 * sampling event started after one on the same counter then gets no
 * overflow for about the virtual time since boot.  (rvperf's QEMU fixes
 * the cause: ../qemu-model/qemu/patches/0007.)
 *
 * OpenSBI's counter start writes the value with the counter inhibited, then
 * calls this, then clears the counter's mcountinhibit bit.  QEMU arms
 * deadlines only for hpm counters counting its cycles or instructions
 * events (mhpmevent below the Sscofpmf bits = 1 or 2: QEMU's event
 * index, its riscv,pmu map's selectors).  Such a counter this far from
 * overflowing (2^53 counts: 28 years at 10 GHz) is let go here with OF
 * set, then OF goes back as OpenSBI left it: with OF set QEMU arms
 * nothing, and the mcountinhibit write that follows finds the counter
 * running already.  A real counter overflows as before once OF is clear.
 */
#define RVPERF_QEMU_FAR		(1ULL << 53)
#if __riscv_xlen == 32
#define RVPERF_QEMU_EVENT_IDX	(~0UL)
#else
#define RVPERF_QEMU_EVENT_IDX	((1UL << 56) - 1)
#endif
#define RVPERF_QEMU_CYCLES	1
#define RVPERF_QEMU_INSTRUCTIONS	2

static void rvperf_qemu_counter_start(uint32_t cidx)
{
	unsigned long evt_csr, evt, of;
	uint64_t val;

	if (cidx < 3 || cidx > 31)
		return;
	evt = csr_read_num(CSR_MHPMEVENT3 + cidx - 3);
	if ((evt & RVPERF_QEMU_EVENT_IDX) != RVPERF_QEMU_CYCLES &&
	    (evt & RVPERF_QEMU_EVENT_IDX) != RVPERF_QEMU_INSTRUCTIONS)
		return;
#if __riscv_xlen == 32
	val = ((uint64_t)csr_read_num(CSR_MCYCLEH + cidx) << 32) |
	      csr_read_num(CSR_MCYCLE + cidx);
	evt_csr = CSR_MHPMEVENT3H + cidx - 3;
	evt = csr_read_num(evt_csr);
	of = MHPMEVENTH_OF;
#else
	val = csr_read_num(CSR_MCYCLE + cidx);
	evt_csr = CSR_MHPMEVENT3 + cidx - 3;
	of = MHPMEVENT_OF;
#endif
	if (val >= -RVPERF_QEMU_FAR || (evt & of))
		return;
	csr_write_num(evt_csr, evt | of);
	csr_clear(CSR_MCOUNTINHIBIT, 1UL << cidx);
	csr_write_num(evt_csr, evt);
}

static const struct sbi_pmu_device rvperf_qemu_pmu = {
	.name			= "rvperf-qemu-virt",
	.hw_counter_enable_irq	= rvperf_qemu_counter_start,
};
#endif

void rvperf_pmu_device_init(void)
{
#ifdef CONFIG_RVPERF_QEMU_QUIRKS
	const void *fdt = fdt_get_address();

	/* QEMU's virt board says so in its root compatible. */
	if (fdt && !fdt_node_check_compatible(fdt, 0, "riscv-virtio") &&
	    !sbi_pmu_get_device())
		sbi_pmu_set_device(&rvperf_qemu_pmu);
#endif
}
