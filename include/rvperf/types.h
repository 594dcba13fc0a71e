/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * types.h - fixed-width types for the spec headers, whatever the host:
 *
 *  - the Linux kernel (__KERNEL__): <linux/types.h>;
 *  - OpenSBI, whose sbi_types.h (include guard __SBI_TYPES_H__) already
 *    defines uint8_t..uint64_t and bool: nothing more;
 *  - any other C compiler, hosted or freestanding: <stdint.h>, <stddef.h>
 *    and <stdbool.h>, which even a freestanding implementation provides
 *    (C11 4p6), so M-mode code built with -ffreestanding needs no libc.
 *
 * It also gives the headers a compile-time assertion and offsetof that
 * work in all three.
 */
#ifndef RVPERF_TYPES_H
#define RVPERF_TYPES_H

#if defined(__KERNEL__)
#include <linux/types.h>
#elif defined(__SBI_TYPES_H__)
/* OpenSBI's fixed-width types are already in scope. */
#else
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#endif

/*
 * RVP_STATIC_ASSERT(cond, msg): C11 _Static_assert, which GCC and Clang also
 * accept in gnu89/gnu99 (the kernel builds with gnu11).  Older compilers get
 * the negative-array-size trick.
 */
#if defined(__cplusplus)
#define RVP_STATIC_ASSERT(cond, msg) static_assert(cond, msg)
#elif (defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L) || \
	defined(__GNUC__) || defined(__clang__)
#define RVP_STATIC_ASSERT(cond, msg) _Static_assert(cond, msg)
#else
#define RVP_STATIC_ASSERT__(cond, line) \
	typedef char rvp_static_assert_##line[(cond) ? 1 : -1]
#define RVP_STATIC_ASSERT_(cond, line) RVP_STATIC_ASSERT__(cond, line)
#define RVP_STATIC_ASSERT(cond, msg) RVP_STATIC_ASSERT_(cond, __LINE__)
#endif

/* offsetof without <stddef.h>, which OpenSBI builds do not include. */
#define RVP_OFFSETOF(type, member) __builtin_offsetof(type, member)

#endif /* RVPERF_TYPES_H */
