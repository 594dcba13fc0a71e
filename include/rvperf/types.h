/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * types.h - fixed-width types for the spec headers, whatever the host:
 * the Linux kernel, OpenSBI (whose sbi_types.h defines them itself), or a
 * freestanding or hosted C compiler (whose <stdint.h> is part of even a
 * freestanding implementation).
 */
#ifndef RVPERF_TYPES_H
#define RVPERF_TYPES_H

#if defined(__KERNEL__)
#include <linux/types.h>
#elif defined(__SBI_TYPES_H__)
/* OpenSBI's uint8_t..uint64_t are already in scope. */
#else
#include <stddef.h>
#include <stdint.h>
#endif

#if defined(__cplusplus)
#define RVP_STATIC_ASSERT(cond, msg) static_assert(cond, msg)
#else
#define RVP_STATIC_ASSERT(cond, msg) _Static_assert(cond, msg)
#endif

#endif /* RVPERF_TYPES_H */
