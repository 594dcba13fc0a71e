/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * hpmhw_map.h - the devicetree riscv,pmu map for the counter model
 * (hpmhw.h): which SBI general events (SBI PMU chapter, "Event: Hardware
 * general events" and "Hardware cache events") count on which counters
 * with which mhpmevent selector.  The three properties are those of
 * OpenSBI's PMU bindings; the cells are as a .dts writes them (host order
 * here: a devicetree stores them big-endian).  qemu-model/README.md shows
 * the node; tests/ctr/pmu-map checks it through the SBI PMU core on top of
 * this model.
 *
 * Counter bitmap bits: 0 mcycle, 2 minstret, 3..31 mhpmcounter3..31.
 */
#ifndef RVPERF_QEMU_MODEL_HPMHW_MAP_H
#define RVPERF_QEMU_MODEL_HPMHW_MAP_H

#include "hpmhw.h"
#include "rvperf/sbi_pmu.h"

#define HPMHW_MAP_HPM		0xFFFFFFF8u	/* mhpmcounter3..31 */
#define HPMHW_MAP_BPU(result)						\
	((1u << RVP_SBI_PMU_EVENT_IDX_TYPE_SHIFT) |			\
	 (RVP_SBI_PMU_HW_CACHE_BPU << RVP_SBI_PMU_CACHE_ID_SHIFT) |	\
	 (RVP_SBI_PMU_HW_CACHE_OP_READ << RVP_SBI_PMU_CACHE_OP_SHIFT) |	\
	 (result))

/* riscv,event-to-mhpmevent: <event_idx selector_hi selector_lo> */
#define HPMHW_MAP_EVENT_TO_MHPMEVENT {				\
	RVP_SBI_PMU_HW_CPU_CYCLES, 0, HPMHW_EVENT_CYCLES,		\
	RVP_SBI_PMU_HW_INSTRUCTIONS, 0, HPMHW_EVENT_INSTRUCTIONS,	\
	RVP_SBI_PMU_HW_BRANCH_INSTRUCTIONS, 0, HPMHW_EVENT_BRANCHES,	\
	RVP_SBI_PMU_HW_BRANCH_MISSES, 0, HPMHW_EVENT_MISPREDICTS,	\
	RVP_SBI_PMU_HW_REF_CPU_CYCLES, 0, HPMHW_EVENT_CYCLES,		\
	HPMHW_MAP_BPU(RVP_SBI_PMU_HW_CACHE_RESULT_ACCESS), 0,		\
		HPMHW_EVENT_BRANCHES,					\
	HPMHW_MAP_BPU(RVP_SBI_PMU_HW_CACHE_RESULT_MISS), 0,		\
		HPMHW_EVENT_MISPREDICTS,				\
}

/* riscv,event-to-mhpmcounters: <first_event_idx last_event_idx bitmap> */
#define HPMHW_MAP_EVENT_TO_MHPMCOUNTERS {				\
	RVP_SBI_PMU_HW_CPU_CYCLES, RVP_SBI_PMU_HW_CPU_CYCLES,		\
		0x1u | HPMHW_MAP_HPM,					\
	RVP_SBI_PMU_HW_INSTRUCTIONS, RVP_SBI_PMU_HW_INSTRUCTIONS,	\
		0x4u | HPMHW_MAP_HPM,					\
	RVP_SBI_PMU_HW_BRANCH_INSTRUCTIONS, RVP_SBI_PMU_HW_BRANCH_MISSES, \
		HPMHW_MAP_HPM,					\
	RVP_SBI_PMU_HW_REF_CPU_CYCLES, RVP_SBI_PMU_HW_REF_CPU_CYCLES,	\
		HPMHW_MAP_HPM,					\
	HPMHW_MAP_BPU(RVP_SBI_PMU_HW_CACHE_RESULT_ACCESS),		\
		HPMHW_MAP_BPU(RVP_SBI_PMU_HW_CACHE_RESULT_MISS),	\
		HPMHW_MAP_HPM,					\
}

/*
 * riscv,raw-event-to-mhpmcounters: <select_hi select_lo mask_hi mask_lo
 * bitmap>: every raw event whose selector is below 16 (the model's
 * encodings, usable as raw events v1 and v2) on any hpm counter.
 */
#define HPMHW_MAP_RAW_EVENT_TO_MHPMCOUNTERS {				\
	0, 0, 0xFFFFFFFFu, 0xFFFFFFF0u, HPMHW_MAP_HPM,		\
}

#endif /* RVPERF_QEMU_MODEL_HPMHW_MAP_H */
