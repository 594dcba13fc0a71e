#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Every spec header compiles on its own, in each environment that uses it:
#
#   hosted        host tools, QEMU glue (HOST_CC, default gcc)
#   c11-pedantic  no GNU extension slipped in beyond the two types.h allows
#   freestanding  M-mode firmware: -ffreestanding -nostdinc, only the
#                 compiler's own headers (stdint.h, stddef.h, stdbool.h)
#   opensbi       inside OpenSBI: its sbi_types.h already in scope, so no
#                 header may be included at all
#   rv64, rv32    the same freestanding build with the riscv64 cross compiler
#                 (CROSS_COMPILE, default riscv64-linux-gnu-), when installed
#
# and tests/spec/static_checks.c (the compile-time checks, struct layouts
# among them) holds for RV64 and RV32.  Prints TAP.
set -u
. tests/tap.sh

host=${HOST_CC:-gcc}
cross=${CROSS_COMPILE:-riscv64-linux-gnu-}gcc
warn=(-Wall -Wextra -Werror)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# What OpenSBI's sbi_types.h provides, written out for the test.
cat >"$tmp/opensbi-prelude.h" <<'EOF'
#define __SBI_TYPES_H__
typedef unsigned char uint8_t;
typedef unsigned short uint16_t;
typedef unsigned int uint32_t;
typedef unsigned long long uint64_t;
typedef _Bool bool;
EOF

# compile DESCRIPTION CC ARGS...: one TAP result; the compiler's output
# goes to the diagnostics on failure.
compile() {
	local desc=$1 out
	shift
	out=$("$@" 2>&1)
	ok $? "$desc"
	[ -z "$out" ] || diag "$out"
}

# freestanding CC: flags for a build that sees only CC's own headers.
freestanding() {
	echo -ffreestanding -nostdinc -isystem "$("$1" -print-file-name=include)"
}

have_cross=0
command -v "$cross" >/dev/null 2>&1 && have_cross=1

for h in include/rvperf/*.h; do
	# The header alone in a translation unit (with one declaration, as
	# ISO C wants no empty unit and most of these hold only macros).
	tu=$tmp/$(basename "$h" .h).c
	printf '#include "%s"\ntypedef int rvp_unit_not_empty;\n' "$PWD/$h" >"$tu"
	compile "$h alone, hosted ($host)" \
		"$host" -std=gnu11 "${warn[@]}" -fsyntax-only "$tu"
	compile "$h alone, C11 -Wpedantic ($host)" \
		"$host" -std=c11 -Wpedantic "${warn[@]}" -fsyntax-only "$tu"
	# shellcheck disable=SC2046
	compile "$h alone, freestanding, no system headers ($host)" \
		"$host" -std=gnu11 "${warn[@]}" $(freestanding "$host") \
		-fsyntax-only "$tu"
	compile "$h alone, as OpenSBI includes it: no headers at all ($host)" \
		"$host" -std=gnu11 "${warn[@]}" -ffreestanding -nostdinc \
		-include "$tmp/opensbi-prelude.h" -fsyntax-only "$tu"
	for abi in "rv64 -march=rv64gc -mabi=lp64d" "rv32 -march=rv32imac -mabi=ilp32"; do
		set -- $abi
		if [ $have_cross = 0 ]; then
			ok 0 "$h alone, freestanding $1 # SKIP $cross not installed"
			continue
		fi
		# shellcheck disable=SC2046
		compile "$h alone, freestanding $1 ($cross)" \
			"$cross" "$2" "$3" -std=gnu11 "${warn[@]}" \
			$(freestanding "$cross") -fsyntax-only "$tu"
	done
done

for abi in "rv64 -march=rv64gc -mabi=lp64d" "rv32 -march=rv32imac -mabi=ilp32"; do
	set -- $abi
	if [ $have_cross = 0 ]; then
		ok 0 "compile-time checks hold on $1 # SKIP $cross not installed"
		continue
	fi
	# shellcheck disable=SC2046
	compile "compile-time checks (tests/spec/static_checks.c) hold on $1" \
		"$cross" "$2" "$3" -std=gnu11 "${warn[@]}" $(freestanding "$cross") \
		-Iinclude -fsyntax-only tests/spec/static_checks.c
done

tap_done
