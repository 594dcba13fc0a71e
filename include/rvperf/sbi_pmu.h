/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sbi_pmu.h - the SBI Performance Monitoring Unit extension (EID "PMU").
 *
 * Source: the SBI specification's PMU chapter (shared/specs/
 * sbi-ext-pmu-latest.adoc).  Every macro here is RVP_ followed by the
 * spec's own name where the spec names the value; tests/spec/check_spec.py
 * checks each one against the spec's tables.
 */
#ifndef RVPERF_SBI_PMU_H
#define RVPERF_SBI_PMU_H

#include "types.h"

/* Extension ID and functions (table "PMU Function List"). */
#define RVP_SBI_EXT_PMU					0x504D55
#define RVP_SBI_PMU_FID_NUM_COUNTERS			0
#define RVP_SBI_PMU_FID_COUNTER_GET_INFO		1
#define RVP_SBI_PMU_FID_COUNTER_CONFIG_MATCHING		2
#define RVP_SBI_PMU_FID_COUNTER_START			3
#define RVP_SBI_PMU_FID_COUNTER_STOP			4
#define RVP_SBI_PMU_FID_COUNTER_FW_READ			5
#define RVP_SBI_PMU_FID_COUNTER_FW_READ_HI		6
#define RVP_SBI_PMU_FID_SNAPSHOT_SET_SHMEM		7
#define RVP_SBI_PMU_FID_EVENT_GET_INFO			8

/* event_idx: type in bits 19:16, code in bits 15:0. */
#define RVP_SBI_PMU_EVENT_IDX_TYPE_SHIFT		16
#define RVP_SBI_PMU_EVENT_IDX_TYPE_MASK			0xF0000
#define RVP_SBI_PMU_EVENT_IDX_CODE_MASK			0xFFFF
#define RVP_SBI_PMU_EVENT_IDX_MASK			0xFFFFF

/* Event types (table "PMU Event Type"). */
#define RVP_SBI_PMU_EVENT_TYPE_HW			0
#define RVP_SBI_PMU_EVENT_TYPE_CACHE			1
#define RVP_SBI_PMU_EVENT_TYPE_RAW			2	/* deprecated */
#define RVP_SBI_PMU_EVENT_TYPE_RAW_V2			3
#define RVP_SBI_PMU_EVENT_TYPE_FW			15

/* Bits of mhpmeventX a raw event may set (event_data). */
#define RVP_SBI_PMU_RAW_EVENT_MASK			0xFFFFFFFFFFFFULL
#define RVP_SBI_PMU_RAW_V2_EVENT_MASK			0xFFFFFFFFFFFFFFULL

/* Hardware general events, type 0 (table "PMU Hardware Events"). */
#define RVP_SBI_PMU_HW_NO_EVENT				0
#define RVP_SBI_PMU_HW_CPU_CYCLES			1
#define RVP_SBI_PMU_HW_INSTRUCTIONS			2
#define RVP_SBI_PMU_HW_CACHE_REFERENCES			3
#define RVP_SBI_PMU_HW_CACHE_MISSES			4
#define RVP_SBI_PMU_HW_BRANCH_INSTRUCTIONS		5
#define RVP_SBI_PMU_HW_BRANCH_MISSES			6
#define RVP_SBI_PMU_HW_BUS_CYCLES			7
#define RVP_SBI_PMU_HW_STALLED_CYCLES_FRONTEND		8
#define RVP_SBI_PMU_HW_STALLED_CYCLES_BACKEND		9
#define RVP_SBI_PMU_HW_REF_CPU_CYCLES			10

/* Cache events, type 1: code[15:3] cache id, code[2:1] op, code[0] result. */
#define RVP_SBI_PMU_CACHE_ID_SHIFT			3
#define RVP_SBI_PMU_CACHE_ID_MASK			0xFFF8
#define RVP_SBI_PMU_CACHE_OP_SHIFT			1
#define RVP_SBI_PMU_CACHE_OP_MASK			0x6
#define RVP_SBI_PMU_CACHE_RESULT_SHIFT			0
#define RVP_SBI_PMU_CACHE_RESULT_MASK			0x1
#define RVP_SBI_PMU_HW_CACHE_L1D			0
#define RVP_SBI_PMU_HW_CACHE_L1I			1
#define RVP_SBI_PMU_HW_CACHE_LL				2
#define RVP_SBI_PMU_HW_CACHE_DTLB			3
#define RVP_SBI_PMU_HW_CACHE_ITLB			4
#define RVP_SBI_PMU_HW_CACHE_BPU			5
#define RVP_SBI_PMU_HW_CACHE_NODE			6
#define RVP_SBI_PMU_HW_CACHE_OP_READ			0
#define RVP_SBI_PMU_HW_CACHE_OP_WRITE			1
#define RVP_SBI_PMU_HW_CACHE_OP_PREFETCH		2
#define RVP_SBI_PMU_HW_CACHE_RESULT_ACCESS		0
#define RVP_SBI_PMU_HW_CACHE_RESULT_MISS		1

/* Firmware events, type 15 (table "PMU Firmware Events"). */
#define RVP_SBI_PMU_FW_MISALIGNED_LOAD			0
#define RVP_SBI_PMU_FW_MISALIGNED_STORE			1
#define RVP_SBI_PMU_FW_ACCESS_LOAD			2
#define RVP_SBI_PMU_FW_ACCESS_STORE			3
#define RVP_SBI_PMU_FW_ILLEGAL_INSN			4
#define RVP_SBI_PMU_FW_SET_TIMER			5
#define RVP_SBI_PMU_FW_IPI_SENT				6
#define RVP_SBI_PMU_FW_IPI_RECEIVED			7
#define RVP_SBI_PMU_FW_FENCE_I_SENT			8
#define RVP_SBI_PMU_FW_FENCE_I_RECEIVED			9
#define RVP_SBI_PMU_FW_SFENCE_VMA_SENT			10
#define RVP_SBI_PMU_FW_SFENCE_VMA_RECEIVED		11
#define RVP_SBI_PMU_FW_SFENCE_VMA_ASID_SENT		12
#define RVP_SBI_PMU_FW_SFENCE_VMA_ASID_RECEIVED		13
#define RVP_SBI_PMU_FW_HFENCE_GVMA_SENT			14
#define RVP_SBI_PMU_FW_HFENCE_GVMA_RECEIVED		15
#define RVP_SBI_PMU_FW_HFENCE_GVMA_VMID_SENT		16
#define RVP_SBI_PMU_FW_HFENCE_GVMA_VMID_RECEIVED	17
#define RVP_SBI_PMU_FW_HFENCE_VVMA_SENT			18
#define RVP_SBI_PMU_FW_HFENCE_VVMA_RECEIVED		19
#define RVP_SBI_PMU_FW_HFENCE_VVMA_ASID_SENT		20
#define RVP_SBI_PMU_FW_HFENCE_VVMA_ASID_RECEIVED	21
#define RVP_SBI_PMU_FW_IMPL_FIRST			256
#define RVP_SBI_PMU_FW_IMPL_LAST			65534
#define RVP_SBI_PMU_FW_PLATFORM				65535

/* counter_info (FID 1): csr in 11:0, width - 1 in 17:12, type in bit XLEN-1
 * (set: a firmware counter, whose csr and width mean nothing).  unsigned
 * long is XLEN wide in the SBI calling convention. */
#define RVP_SBI_PMU_COUNTER_INFO_CSR_MASK		0xFFF
#define RVP_SBI_PMU_COUNTER_INFO_WIDTH_SHIFT		12
#define RVP_SBI_PMU_COUNTER_INFO_WIDTH_MASK		0x3F000
#define RVP_SBI_PMU_COUNTER_INFO_TYPE_FW		(~0UL ^ (~0UL >> 1))

/* config_flags of FID 2 (table "PMU Counter Config Match Flags"). */
#define RVP_SBI_PMU_CFG_FLAG_SKIP_MATCH			(1UL << 0)
#define RVP_SBI_PMU_CFG_FLAG_CLEAR_VALUE		(1UL << 1)
#define RVP_SBI_PMU_CFG_FLAG_AUTO_START			(1UL << 2)
#define RVP_SBI_PMU_CFG_FLAG_SET_VUINH			(1UL << 3)
#define RVP_SBI_PMU_CFG_FLAG_SET_VSINH			(1UL << 4)
#define RVP_SBI_PMU_CFG_FLAG_SET_UINH			(1UL << 5)
#define RVP_SBI_PMU_CFG_FLAG_SET_SINH			(1UL << 6)
#define RVP_SBI_PMU_CFG_FLAG_SET_MINH			(1UL << 7)
#define RVP_SBI_PMU_CFG_FLAG_RESERVED_SHIFT		8
#define RVP_SBI_PMU_CFG_FLAG_RESERVED_MASK		(~0UL << 8)

/* start_flags of FID 3 (table "PMU Counter Start Flags"). */
#define RVP_SBI_PMU_START_SET_INIT_VALUE		(1UL << 0)
#define RVP_SBI_PMU_START_FLAG_INIT_SNAPSHOT		(1UL << 1)
#define RVP_SBI_PMU_START_FLAG_RESERVED_SHIFT		2
#define RVP_SBI_PMU_START_FLAG_RESERVED_MASK		(~0UL << 2)

/* stop_flags of FID 4 (table "PMU Counter Stop Flags"). */
#define RVP_SBI_PMU_STOP_FLAG_RESET			(1UL << 0)
#define RVP_SBI_PMU_STOP_FLAG_TAKE_SNAPSHOT		(1UL << 1)
#define RVP_SBI_PMU_STOP_FLAG_RESERVED_SHIFT		2
#define RVP_SBI_PMU_STOP_FLAG_RESERVED_MASK		(~0UL << 2)

/* Snapshot shared memory, FID 7 (table "SBI PMU Snapshot shared memory
 * layout"): one 4096-byte, 4096-aligned page. */
#define RVP_SBI_PMU_SNAPSHOT_SIZE			4096
#define RVP_SBI_PMU_SNAPSHOT_ALIGN			4096
#define RVP_SBI_PMU_SNAPSHOT_OVERFLOW_BITMAP_OFFSET	0x0
#define RVP_SBI_PMU_SNAPSHOT_COUNTER_VALUES_OFFSET	0x8
#define RVP_SBI_PMU_SNAPSHOT_NR_COUNTER_VALUES		64
#define RVP_SBI_PMU_SNAPSHOT_RESERVED_OFFSET		0x208
/* shmem_phys_lo and _hi both all-ones: stop using snapshot memory. */
#define RVP_SBI_SHMEM_DISABLE				(~0UL)

struct rvp_sbi_pmu_snapshot {
	uint64_t counter_overflow_bitmap;
	uint64_t counter_values[RVP_SBI_PMU_SNAPSHOT_NR_COUNTER_VALUES];
	uint8_t reserved[RVP_SBI_PMU_SNAPSHOT_SIZE -
			 RVP_SBI_PMU_SNAPSHOT_RESERVED_OFFSET];
};
RVP_STATIC_ASSERT(sizeof(struct rvp_sbi_pmu_snapshot) ==
		  RVP_SBI_PMU_SNAPSHOT_SIZE, "snapshot: one page");
RVP_STATIC_ASSERT(RVP_OFFSETOF(struct rvp_sbi_pmu_snapshot,
			       counter_overflow_bitmap) ==
		  RVP_SBI_PMU_SNAPSHOT_OVERFLOW_BITMAP_OFFSET,
		  "snapshot: counter_overflow_bitmap offset");
RVP_STATIC_ASSERT(RVP_OFFSETOF(struct rvp_sbi_pmu_snapshot,
			       counter_values) ==
		  RVP_SBI_PMU_SNAPSHOT_COUNTER_VALUES_OFFSET,
		  "snapshot: counter_values offset");
RVP_STATIC_ASSERT(RVP_OFFSETOF(struct rvp_sbi_pmu_snapshot, reserved) ==
		  RVP_SBI_PMU_SNAPSHOT_RESERVED_OFFSET,
		  "snapshot: reserved offset");

/* event_get_info entries, FID 8 (table "Event info entry format"):
 * 16 bytes each, the array 16-byte aligned. */
#define RVP_SBI_PMU_EVENT_INFO_ENTRY_SIZE		16
#define RVP_SBI_PMU_EVENT_INFO_ALIGN			16
#define RVP_SBI_PMU_EVENT_INFO_EVENT_IDX_OFFSET		0
#define RVP_SBI_PMU_EVENT_INFO_OUTPUT_OFFSET		4
#define RVP_SBI_PMU_EVENT_INFO_EVENT_DATA_OFFSET	8
#define RVP_SBI_PMU_EVENT_INFO_OUTPUT_SUPPORTED		(1U << 0)

struct rvp_sbi_pmu_event_info {
	uint32_t event_idx;
	uint32_t output;
	uint64_t event_data;
};
RVP_STATIC_ASSERT(sizeof(struct rvp_sbi_pmu_event_info) ==
		  RVP_SBI_PMU_EVENT_INFO_ENTRY_SIZE, "event info: entry size");
RVP_STATIC_ASSERT(RVP_OFFSETOF(struct rvp_sbi_pmu_event_info, event_idx) ==
		  RVP_SBI_PMU_EVENT_INFO_EVENT_IDX_OFFSET,
		  "event info: event_idx offset");
RVP_STATIC_ASSERT(RVP_OFFSETOF(struct rvp_sbi_pmu_event_info, output) ==
		  RVP_SBI_PMU_EVENT_INFO_OUTPUT_OFFSET,
		  "event info: output offset");
RVP_STATIC_ASSERT(RVP_OFFSETOF(struct rvp_sbi_pmu_event_info, event_data) ==
		  RVP_SBI_PMU_EVENT_INFO_EVENT_DATA_OFFSET,
		  "event info: event_data offset");
/* An array of entries keeps every entry 16-byte aligned. */
RVP_STATIC_ASSERT(RVP_SBI_PMU_EVENT_INFO_ENTRY_SIZE %
		  RVP_SBI_PMU_EVENT_INFO_ALIGN == 0,
		  "event info: entries stay aligned in an array");

/* Standard SBI return codes (sbiret.error).  Not in the PMU chapter: SBI
 * spec, binary encoding chapter, standard error codes (table "Standard SBI
 * Errors"). */
#define RVP_SBI_SUCCESS					0
#define RVP_SBI_ERR_FAILED				(-1)
#define RVP_SBI_ERR_NOT_SUPPORTED			(-2)
#define RVP_SBI_ERR_INVALID_PARAM			(-3)
#define RVP_SBI_ERR_DENIED				(-4)
#define RVP_SBI_ERR_INVALID_ADDRESS			(-5)
#define RVP_SBI_ERR_ALREADY_AVAILABLE			(-6)
#define RVP_SBI_ERR_ALREADY_STARTED			(-7)
#define RVP_SBI_ERR_ALREADY_STOPPED			(-8)
#define RVP_SBI_ERR_NO_SHMEM				(-9)
#define RVP_SBI_ERR_INVALID_STATE			(-10)
#define RVP_SBI_ERR_BAD_RANGE				(-11)
#define RVP_SBI_ERR_TIMEOUT				(-12)
#define RVP_SBI_ERR_IO					(-13)
#define RVP_SBI_ERR_DENIED_LOCKED			(-14)

#endif /* RVPERF_SBI_PMU_H */
