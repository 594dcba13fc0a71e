#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# rvperf tv's command line: --help for each subcommand, one-line errors with
# a non-zero exit for bad use and bad data, from-elf -> dump on a real ELF
# file, dump --lenient on what only the lenient decoder forgives.
. "$(dirname "$0")/../tap.sh"
O=${O:-build}
rvperf=$O/userspace/rvperf
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for sub in dump from-elf diff record verify; do
	out=$("$rvperf" tv $sub --help)
	[ $? -eq 0 ] && printf '%s\n' "$out" | head -n 1 | grep -q "^usage: rvperf tv $sub"
	ok $? "rvperf tv $sub --help prints its usage"
done
"$rvperf" help tv | grep -q 'dump|from-elf|diff|record|verify'
ok $? "rvperf help tv lists the subcommands"
fails_in_one_line "unknown subcommand" "^rvperf tv: 'bogus' is not a tv subcommand" "$rvperf" tv bogus
fails_in_one_line "dump without a file" "^rvperf tv dump: no trace file given" "$rvperf" tv dump
fails_in_one_line "dump of a missing file" "^rvperf tv dump: cannot open" "$rvperf" tv dump "$tmp/none"
fails_in_one_line "diff with one trace" "^rvperf tv diff: two traces wanted" "$rvperf" tv diff "$tmp/none"
fails_in_one_line "diff --max 0" "^rvperf tv diff: --max wants a positive number" "$rvperf" tv diff --max 0 a b
fails_in_one_line "unknown --nondet element" "^rvperf tv diff: --nondet: unknown element 'bogus'" \
	"$rvperf" tv diff --nondet bogus a b
fails_in_one_line "bad --config" "^rvperf tv dump: --config: xlen must be 32 or 64" \
	"$rvperf" tv dump --config xlen=48 "$tmp/none"
fails_in_one_line "from-elf of a non-ELF file" "^rvperf tv from-elf: .* is not an ELF file" \
	"$rvperf" tv from-elf "$0" -o "$tmp/x.tv"
fails_in_one_line "verify without --qemu" "^rvperf tv verify: no --qemu given" "$rvperf" tv verify x.tv
fails_in_one_line "verify --max 0" "^rvperf tv verify: --max wants a positive number, not '0'" \
	"$rvperf" tv verify --max 0 x.tv
fails_in_one_line "verify --via bogus" "^rvperf tv verify: --via is plugin or gdbstub, not 'bogus'" \
	"$rvperf" tv verify --via bogus x.tv
fails_in_one_line "verify of a missing program" "^rvperf tv verify: no program '$tmp/none'" \
	"$rvperf" tv verify x.tv --qemu qemu-riscv64 --user --elf "$tmp/none"
fails_in_one_line "record without a program" "^rvperf tv record: no program given" "$rvperf" tv record -o x.tv
fails_in_one_line "record --xlen 16" "^rvperf tv record: --xlen is 32 or 64" "$rvperf" tv record --xlen 16 -- x

# A trace with an orphan end-group and an unknown opcode.
printf '\001\003\021\023\000\000\000\002\002\001\003\021\023\000\000\000\002' >"$tmp/orphan.tv"
fails_in_one_line "strict dump: one line on stderr naming the errors" \
	"^rvperf tv dump: 1 decoding error in" sh -c "'$rvperf' tv dump '$tmp/orphan.tv' >/dev/null"
"$rvperf" tv dump "$tmp/orphan.tv" 2>/dev/null | grep -q '^error at byte 0x8: end-group outside a group'
ok $? "strict dump lists the error with its byte offset and goes on"
"$rvperf" tv dump --lenient "$tmp/orphan.tv" >"$tmp/out"
[ $? -eq 0 ] && grep -c '^group' "$tmp/out" | grep -qx 2
ok $? "lenient dump forgives the orphan end-group"

if command -v "${CROSS_COMPILE:-riscv64-linux-gnu-}gcc" >/dev/null; then
	"${CROSS_COMPILE:-riscv64-linux-gnu-}gcc" -nostdlib -nostartfiles -static -no-pie \
		-Wl,-Ttext=0x80000000 -o "$tmp/bare.elf" tests/tv/tv-bare.S
	"$rvperf" tv from-elf "$tmp/bare.elf" -o "$tmp/init.tv"
	ok $? "from-elf writes a state-initialisation trace"
	"$rvperf" tv dump "$tmp/init.tv" >"$tmp/out" &&
		grep -q 'mem store   \[0x80000000\] 8 bytes' "$tmp/out" &&
		tail -n 4 "$tmp/out" | grep -q 'pc       = 0x80000000'
	ok $? "its groups store the program's bytes at their addresses and set pc to the entry"
	! grep -q '^group.*: pc' "$tmp/out"
	ok $? "no instruction in it (state initialisation only)"
else
	ok 0 "from-elf # SKIP no cross compiler"
fi
tap_done
