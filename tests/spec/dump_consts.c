/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * dump-consts: prints every value macro of the headers in include/rvperf as
 * "NAME VALUE", one per line, sorted by name.  tests/spec/check_spec.py
 * compares the output with the values it derives from the specs and with
 * tests/spec/expected.tsv.
 *
 * The list of names is not kept here: the build generates spec_consts.h
 * from the headers (tests/spec/gen-consts.sh), which includes every header
 * and defines RVP_SPEC_CONSTS(X) as X(name) for each value macro.
 *
 * Values of signed type print in decimal (the SBI error codes are
 * negative), the others in hexadecimal, both as the C compiler sees them
 * on this host (LP64: unsigned long, i.e. XLEN-wide in SBI terms, is 64
 * bits here).
 */
#include <stdio.h>

#include "spec_consts.h"

#define RVP_IS_SIGNED(x) _Generic((x),					\
	signed char: 1, short: 1, int: 1, long: 1, long long: 1,	\
	default: 0)

#define RVP_PRINT_CONST(name)						\
	print_const(#name, RVP_IS_SIGNED(name), (long long)(name),	\
		    (unsigned long long)(name));

static void print_const(const char *name, int is_signed, long long s,
			unsigned long long u)
{
	if (is_signed && s < 0)
		printf("%s %lld\n", name, s);
	else
		printf("%s 0x%llX\n", name, u);
}

int main(void)
{
	RVP_SPEC_CONSTS(RVP_PRINT_CONST)
	return fflush(stdout) == 0 ? 0 : 1;
}
