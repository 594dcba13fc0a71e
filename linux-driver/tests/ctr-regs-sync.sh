#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Every constant of linux-driver/rvperf_ctr_regs.h (the kernel-side copy)
# has the value of the same name in include/rvperf/ctr.h (TAP): a C file
# that includes the project header asserts each one at compile time.
cd "$(dirname "$0")/../.." || exit 1
. tests/tap.sh

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
hdr=linux-driver/rvperf_ctr_regs.h
names=$(sed -n 's/^#define \(RVP_[A-Z0-9_]*\)[[:space:]].*/\1/p' "$hdr")
[ -n "$names" ]
ok $? "rvperf_ctr_regs.h defines constants"
for n in $names; do
	val=$(sed -n "s/^#define $n[[:space:]]\+//p" "$hdr")
	{
		echo '#include "ctr.h"'
		echo '#define BIT_ULL(n) (1ULL << (n))'
		echo '#define GENMASK_ULL(h, l) (((~0ULL) >> (63 - (h))) & ~((1ULL << (l)) - 1))'
		echo "_Static_assert((unsigned long long)($n) == (unsigned long long)($val), \"$n\");"
	} | sed "s/^#define $n .*//" >"$tmp/t.c"
	# The project's macro is used on the left; ours textually on the right.
	out=$(${CC:-cc} -std=c11 -fsyntax-only -Iinclude/rvperf "$tmp/t.c" 2>&1)
	ok $? "$n matches include/rvperf/ctr.h"
	[ -z "$out" ] || diag "$out"
done
tap_done
exit $?
