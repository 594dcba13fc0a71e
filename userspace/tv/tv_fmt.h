/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tv_fmt.h - text formatting of trace listings without stdio: numbers,
 * names and the few printf directives the disassembler uses, written
 * straight into a buffer.  A listing formats several fields a trace byte,
 * and glibc's snprintf costs a FILE set-up and a format walk per call,
 * which made `rvperf tv dump` ten times slower than the decoder under it.
 * The output is what printf would write, character for character (the
 * dump's golden test and the disassembler's objdump test hold it to that).
 *
 * Internal to userspace/tv: static inline, so that every user (the
 * plugin links tv_names.c alone) gets it without another object file.
 */
#ifndef RVPERF_TV_FMT_H
#define RVPERF_TV_FMT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/*
 * The fmt_* writers append at P and return the new end.  The caller has
 * made room: 20 bytes for a number (fmt_hex writes 16 whatever its
 * length), strlen for a string.
 */
static inline char *fmt_str(char *p, const char *s)
{
	/* Names and mnemonics are short: a loop beats strlen and memcpy. */
	while (*s)
		*p++ = *s++;
	return p;
}

/* A string literal: its length is known when compiling. */
#define fmt_lit(p, lit) \
	(memcpy((p), "" lit, sizeof(lit) - 1), (p) + sizeof(lit) - 1)

/* The 8 hex digits of V, most significant first (no table, no loop). */
static inline void fmt_hex8(char *p, uint32_t v)
{
	uint64_t x = v;

	/* One nibble a byte, the lowest in the lowest byte ... */
	x = (x | x << 16) & 0x0000ffff0000ffffull;
	x = (x | x << 8) & 0x00ff00ff00ff00ffull;
	x = (x | x << 4) & 0x0f0f0f0f0f0f0f0full;
	/* ... '0' + n, and 'a' - '0' - 10 more where n >= 10 ... */
	x += 0x3030303030303030ull +
	     (((x + 0x0606060606060606ull) >> 4) & 0x0101010101010101ull) * 0x27;
	/* ... and the most significant first in memory. */
	x = __builtin_bswap64(x);
	memcpy(p, &x, 8);
}

/*
 * Lower-case hex, at least MIN digits (zero-padded, as "%0*x").  Writes
 * 8 or 16 bytes at P whatever the length (the caller has room for them;
 * what lies past the digits is written over next).
 */
static inline char *fmt_hex(char *p, uint64_t v, unsigned int min)
{
	unsigned int n = v ? (unsigned int)(67 - __builtin_clzll(v)) / 4 : 1;

	if (n < min)
		n = min;
	while (n > 16) {
		*p++ = '0';
		n--;
	}
	/* The digits at the top: the first 8 - n or 16 - n are dropped. */
	if (n <= 8) {
		fmt_hex8(p, (uint32_t)v << (32 - 4 * n));
	} else {
		uint64_t top = n == 16 ? v : v << (64 - 4 * n);

		fmt_hex8(p, (uint32_t)(top >> 32));
		fmt_hex8(p + 8, (uint32_t)top);
	}
	return p + n;
}

/* "00" to "99". */
#define FMT_DEC_ROW(d) d "0" d "1" d "2" d "3" d "4" d "5" d "6" d "7" d "8" d "9"
static const char fmt_dec2[201] =
	FMT_DEC_ROW("0") FMT_DEC_ROW("1") FMT_DEC_ROW("2") FMT_DEC_ROW("3")
	FMT_DEC_ROW("4") FMT_DEC_ROW("5") FMT_DEC_ROW("6") FMT_DEC_ROW("7")
	FMT_DEC_ROW("8") FMT_DEC_ROW("9");
#undef FMT_DEC_ROW

/* Unsigned decimal ("%u", "%llu"): two digits a step, from the right. */
static inline char *fmt_udec(char *p, uint64_t v)
{
	unsigned int n = 1;

	for (uint64_t t = 10; n < 20 && v >= t; t *= 10)
		n++;
	for (unsigned int i = n; i >= 2; i -= 2, v /= 100)
		memcpy(p + i - 2, fmt_dec2 + 2 * (v % 100), 2);
	if (n & 1)
		p[0] = (char)('0' + v);
	return p + n;
}

/* Signed decimal ("%d", "%lld"). */
static inline char *fmt_sdec(char *p, int64_t v)
{
	if (v < 0) {
		*p++ = '-';
		return fmt_udec(p, -(uint64_t)v);
	}
	return fmt_udec(p, (uint64_t)v);
}

/* Spaces after what began at START up to WIDTH characters ("%-*s"). */
static inline char *fmt_pad(char *p, const char *start, unsigned int width)
{
	while (p < start + width)
		*p++ = ' ';
	return p;
}

/*
 * snprintf for the directives the disassembler uses: %s %c %u %x %d and
 * %lld %llx, an optional zero-padded width (%04x), and %%.  Returns the
 * length the whole text has, like snprintf, and writes at most LEN - 1
 * characters of it and a NUL.
 */
static inline int fmt_vsn(char *buf, size_t len, const char *fmt, va_list ap)
{
	char tmp[24], *end = buf + (len ? len - 1 : 0), *p = buf;
	size_t total = 0;

	for (; *fmt; fmt++) {
		const char *s = tmp;
		size_t n;
		unsigned int width = 0;
		bool ll = false;

		if (*fmt != '%') {
			if (p < end)
				*p++ = *fmt;
			total++;
			continue;
		}
		fmt++;
		if (*fmt == '0')
			fmt++;
		while (*fmt >= '0' && *fmt <= '9')
			width = width * 10 + (unsigned int)(*fmt++ - '0');
		if (fmt[0] == 'l' && fmt[1] == 'l') {
			ll = true;
			fmt += 2;
		}
		switch (*fmt) {
		case 's':
			s = va_arg(ap, const char *);
			n = strlen(s);
			break;
		case 'c':
			tmp[0] = (char)va_arg(ap, int);
			n = 1;
			break;
		case 'u':
			n = (size_t)(fmt_udec(tmp, ll ? va_arg(ap, unsigned long long)
						 : va_arg(ap, unsigned int)) - tmp);
			break;
		case 'd':
			n = (size_t)(fmt_sdec(tmp, ll ? va_arg(ap, long long)
						 : va_arg(ap, int)) - tmp);
			break;
		case 'x':
			n = (size_t)(fmt_hex(tmp, ll ? va_arg(ap, unsigned long long)
						: va_arg(ap, unsigned int), width) - tmp);
			break;
		case '%':
			tmp[0] = '%';
			n = 1;
			break;
		default:	/* not one of ours: written as it is */
			fmt--;
			continue;
		}
		for (size_t i = 0; i < n; i++)
			if (p < end)
				*p++ = s[i];
		total += n;
	}
	if (len)
		*p = 0;
	return (int)total;
}

static inline int fmt_sn(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static inline int fmt_sn(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = fmt_vsn(buf, len, fmt, ap);
	va_end(ap);
	return n;
}

#endif /* RVPERF_TV_FMT_H */
