#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The instruction classifier (qemu-model/core/insnhw.c) against GNU
# objdump: builds a static riscv64 program (classify-prog.c + forms64.S) and an RV32
# object (forms32.S, for c.jal), disassembles both with
# 'objdump -d -M no-aliases', and classify-check compares, per instruction
# form, the classifier's CTR type and N-Trace itypes (4- and 3-bit) with
# what the mnemonic and operands imply.
O=${O:-build}
CROSS=${CROSS_COMPILE:-riscv64-linux-gnu-}
here=$(dirname "$0")
out=$O/tests/ctr/classify
if ! command -v "${CROSS}gcc" >/dev/null 2>&1 ||
   ! command -v "${CROSS}objdump" >/dev/null 2>&1; then
	echo "1..0 # SKIP ${CROSS}gcc or ${CROSS}objdump not installed"
	exit 0
fi
mkdir -p "$out"
if ! { "${CROSS}gcc" -O2 -march=rv64gc -mabi=lp64d -c "$here/classify-prog.c" \
		-o "$out/main.o" &&
	"${CROSS}gcc" -march=rv64gc -mabi=lp64d -c "$here/forms64.S" \
		-o "$out/forms64.o" &&
	"${CROSS}gcc" -static -o "$out/classify-prog" "$out/main.o" \
		"$out/forms64.o" &&
	"${CROSS}gcc" -march=rv32imac -mabi=ilp32 -c "$here/forms32.S" \
		-o "$out/forms32.o"; } >"$out/build.log" 2>&1; then
	echo "not ok 1 - the riscv64 test program builds"
	sed 's/^/# /' "$out/build.log"
	echo "1..1"
	exit 1
fi
"${CROSS}objdump" -d -M no-aliases "$out/classify-prog" >"$out/prog64.dis" &&
"${CROSS}objdump" -d -M no-aliases "$out/forms32.o" >"$out/forms32.dis" ||
	{ echo "Bail out! objdump failed"; exit 1; }
exec "$out/classify-check" "64:$out/prog64.dis" "32:$out/forms32.dis"
