/* SPDX-License-Identifier: BSD-2-Clause */
/* tests/qemu/guest.h - bare-metal M-mode helpers for the scenario replay. */
#ifndef RVPERF_TESTS_QEMU_GUEST_H
#define RVPERF_TESTS_QEMU_GUEST_H

extern volatile int trapped;
void put_line(const char *name, unsigned long long v);
void put_str(const char *s);
void ops(void);
/* CTR entry I (logical, 0 = newest) through siselect 0x200 + I: ctrsource
 * for REG 1, ctrtarget for 2, ctrdata for 3. */
unsigned long ctr_entry(unsigned long i, int reg);

/* A write that traps prints "illegal"; a read prints name=value or that. */
#define W(csr, v) do { \
	trapped = 0; \
	__asm__ volatile("csrw " #csr ", %0" : : "r"(v) : "memory"); \
	if (trapped) \
		put_str("illegal\n"); \
} while (0)
#define R(csr, name) do { \
	unsigned long long r_ = 0; \
	trapped = 0; \
	__asm__ volatile("csrr %0, " #csr : "+r"(r_) : : "memory"); \
	if (trapped) \
		put_str("illegal\n"); \
	else \
		put_line(name, r_); \
} while (0)

#endif
