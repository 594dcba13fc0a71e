/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tap.h - a minimal TAP (Test Anything Protocol) producer for rvperf's host
 * and guest test programs.
 *
 * Every test program prints TAP on stdout and exits 0 when all its checks
 * passed, 1 otherwise; scripts/testrun.py collects the streams and prints the
 * project-wide "N passed, N failed, N skipped" line.  The plan is printed at
 * the end (TAP allows a trailing plan), so tests need not count their checks.
 *
 *	#include "tap.h"
 *	int main(void)
 *	{
 *		tap_eq_u64(RVP_SBI_EXT_PMU, 0x504d55, "PMU EID (SBI PMU chapter)");
 *		return tap_done();
 *	}
 *
 * Header-only on purpose: each test is one translation unit plus the code
 * under test, and nothing needs linking.
 */
#ifndef RVPERF_TESTS_TAP_H
#define RVPERF_TESTS_TAP_H

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static unsigned int tap_ran;
static unsigned int tap_failures;

static void tap_vresult(int pass, const char *directive, const char *fmt,
			va_list ap)
{
	tap_ran++;
	if (!pass && !directive)
		tap_failures++;
	printf("%s %u - ", pass ? "ok" : "not ok", tap_ran);
	vprintf(fmt, ap);
	if (directive)
		printf(" # %s", directive);
	putchar('\n');
	fflush(stdout);
}

/* Records one check; returns the condition so callers can chain diagnostics. */
static inline __attribute__((format(printf, 2, 3)))
int tap_ok(int pass, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tap_vresult(pass, NULL, fmt, ap);
	va_end(ap);
	return pass;
}

/* A check that cannot run here; the reason says what is missing. */
static inline __attribute__((format(printf, 2, 3)))
void tap_skip(const char *reason, const char *fmt, ...)
{
	char directive[256];
	va_list ap;

	snprintf(directive, sizeof(directive), "SKIP %s", reason);
	va_start(ap, fmt);
	tap_vresult(1, directive, fmt, ap);
	va_end(ap);
}

/* A known gap: reported, counted apart, never hidden and never a pass. */
static inline __attribute__((format(printf, 3, 4)))
void tap_todo(int pass, const char *reason, const char *fmt, ...)
{
	char directive[256];
	va_list ap;

	snprintf(directive, sizeof(directive), "TODO %s", reason);
	va_start(ap, fmt);
	tap_vresult(pass, directive, fmt, ap);
	va_end(ap);
}

/* A diagnostic line; TAP consumers show it but do not count it. */
static inline __attribute__((format(printf, 1, 2)))
void tap_diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static inline __attribute__((format(printf, 3, 4)))
int tap_eq_u64(uint64_t got, uint64_t want, const char *fmt, ...)
{
	int pass = got == want;
	va_list ap;

	va_start(ap, fmt);
	tap_vresult(pass, NULL, fmt, ap);
	va_end(ap);
	if (!pass)
		tap_diag("  got 0x%" PRIx64 ", want 0x%" PRIx64, got, want);
	return pass;
}

static inline __attribute__((format(printf, 3, 4)))
int tap_eq_i64(int64_t got, int64_t want, const char *fmt, ...)
{
	int pass = got == want;
	va_list ap;

	va_start(ap, fmt);
	tap_vresult(pass, NULL, fmt, ap);
	va_end(ap);
	if (!pass)
		tap_diag("  got %" PRId64 ", want %" PRId64, got, want);
	return pass;
}

static inline __attribute__((format(printf, 3, 4)))
int tap_eq_str(const char *got, const char *want, const char *fmt, ...)
{
	int pass = got && want && strcmp(got, want) == 0;
	va_list ap;

	va_start(ap, fmt);
	tap_vresult(pass, NULL, fmt, ap);
	va_end(ap);
	if (!pass)
		tap_diag("  got \"%s\", want \"%s\"", got ? got : "(null)",
			 want ? want : "(null)");
	return pass;
}

/* Prints the trailing plan; the result is main()'s exit status. */
static inline int tap_done(void)
{
	printf("1..%u\n", tap_ran);
	fflush(stdout);
	return tap_failures ? 1 : 0;
}

#endif /* RVPERF_TESTS_TAP_H */
