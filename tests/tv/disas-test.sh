#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The trace listing's disassembler against objdump -M no-aliases, mnemonic
# by mnemonic, over a static riscv64 program (libc included: thousands of
# instructions of every extension the compiler uses), after the operands of
# the specification's examples.
O=${O:-build}
check=$O/tests/tv/disas-check
cc=${CROSS_COMPILE:-riscv64-linux-gnu-}gcc
objdump=${CROSS_COMPILE:-riscv64-linux-gnu-}objdump
if ! command -v "$cc" >/dev/null; then
	exec "$check"	# the examples only
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf 'int main(void){return 0;}\n' >"$tmp/p.c"
"$cc" -static -O2 -o "$tmp/p" "$tmp/p.c" || exit 1
# "address hex mnemonic", one line per instruction
"$objdump" -d -M no-aliases "$tmp/p" |
	awk -F'\t' '/^ *[0-9a-f]+:\t[0-9a-f]+ *\t/ { a=$1; sub(/:.*/, "", a); h=$2; gsub(/ /, "", h); print a, h, $3 }' \
	>"$tmp/list"
"$check" 64 "$tmp/list"
