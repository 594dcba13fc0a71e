#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Every spec header compiles on its own: hosted and freestanding (as M-mode
# firmware builds it), with the host compiler and the riscv64 cross compiler.
set -u
. tests/tap.sh
for h in include/rvperf/*.h; do
	for cc in gcc riscv64-linux-gnu-gcc; do
		if ! command -v $cc >/dev/null; then
			ok 0 "$h with $cc # SKIP $cc not installed"
			continue
		fi
		for mode in "" -ffreestanding; do
			out=$($cc -std=gnu11 -Wall -Wextra -Werror $mode -fsyntax-only \
				-x c "$h" 2>&1)
			ok $? "$h compiles alone with $cc${mode:+ $mode}"
			[ -z "$out" ] || diag "$out"
		done
	done
done
tap_done
