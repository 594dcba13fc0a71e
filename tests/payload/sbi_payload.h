/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sbi_payload.h - what every bare-metal S-mode test payload needs: the
 * SBI call, the extension ids it uses, and output on the SBI console
 * (the debug console DBCN, or the legacy putchar before a payload knows
 * DBCN is there).  Used by tests/conformance/ and
 * tests/opensbi-platform/smoke/; header-only, freestanding.
 */
#ifndef RVPERF_TESTS_SBI_PAYLOAD_H
#define RVPERF_TESTS_SBI_PAYLOAD_H

typedef unsigned long ulong;

#define EXT_BASE	0x10
#define EXT_TIME	0x54494D45
#define EXT_IPI		0x735049
#define EXT_RFENCE	0x52464E43
#define EXT_HSM		0x48534D
#define EXT_SRST	0x53525354
#define EXT_DBCN	0x4442434E
#define EXT_LEGACY_PUTCHAR 0x1

struct sbiret {
	long error;
	ulong value;
};

static inline struct sbiret sbi(ulong eid, ulong fid, ulong a0, ulong a1,
				ulong a2, ulong a3, ulong a4, ulong a5)
{
	register ulong r0 asm("a0") = a0;
	register ulong r1 asm("a1") = a1;
	register ulong r2 asm("a2") = a2;
	register ulong r3 asm("a3") = a3;
	register ulong r4 asm("a4") = a4;
	register ulong r5 asm("a5") = a5;
	register ulong r6 asm("a6") = fid;
	register ulong r7 asm("a7") = eid;

	asm volatile("ecall"
		     : "+r"(r0), "+r"(r1)
		     : "r"(r2), "r"(r3), "r"(r4), "r"(r5), "r"(r6), "r"(r7)
		     : "memory");
	return (struct sbiret){ (long)r0, r1 };
}

/* Set once the payload knows the firmware has DBCN (SBI 2.0). */
static int sbi_console_dbcn;

static inline void put_char(char c)
{
	if (sbi_console_dbcn)
		sbi(EXT_DBCN, 2, (unsigned char)c, 0, 0, 0, 0, 0);
	else
		sbi(EXT_LEGACY_PUTCHAR, 0, (unsigned char)c, 0, 0, 0, 0, 0);
}

static inline void put_str(const char *s)
{
	while (*s)
		put_char(*s++);
}

static inline void put_num(long v)
{
	char b[24];
	int i = 0;
	ulong u = v < 0 ? -(ulong)v : (ulong)v;

	if (v < 0)
		put_char('-');
	do {
		b[i++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	while (i)
		put_char(b[--i]);
}

#endif /* RVPERF_TESTS_SBI_PAYLOAD_H */
