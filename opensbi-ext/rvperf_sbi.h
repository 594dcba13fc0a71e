/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rvperf_sbi.h - what OpenSBI platform or board code may call of rvperf's
 * PMU glue (rvperf_sbi.c).
 */
#ifndef RVPERF_OPENSBI_SBI_H
#define RVPERF_OPENSBI_SBI_H

#include <sbi/sbi_types.h>

/*
 * The implementation-specific firmware event rvperf itself raises: one
 * per SBI ecall the hart handles (any extension).  SBI_PMU_FW_PLATFORM
 * (65535) with event_data = an extension's EID counts that extension's
 * ecalls.
 */
#define RVPERF_FW_EVENT_ECALLS	256

/*
 * A firmware event happened count times on the calling hart: code is the
 * event code (0..21 standard, 256.. implementation-specific, 65535 with
 * event_data for platform events).  Board code may raise its own; call it
 * only where PMU ecalls cannot run on the same hart at the same time
 * (M-mode trap context, MIE clear: the core's re-entrancy contract).
 */
void rvperf_fw_event(u32 code, u64 event_data, u64 count);

/*
 * Heap rvperf takes from OpenSBI for harts harts (its per-hart state, about
 * 1.2 KiB each): a platform that sizes its heap adds it.
 */
unsigned long rvperf_heap_size(u32 harts);

#endif /* RVPERF_OPENSBI_SBI_H */
