#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# rvperf nexus on real riscv64 programs under Debian's qemu-riscv64: the
# plugin's instruction trace is the ground truth; each trace, in every mode
# and option combination, decodes to it instruction by instruction.  Also
# the CLI: damage reported with its offset, dump, stat, raw traces with
# flags, PCSEQ/PCONLY input, --help, one-line errors.
set -u
. tests/tap.sh
O=${O:-build}
rvperf=$O/userspace/rvperf
qemu=${QEMU_USER:-qemu-riscv64}
export RVPERF_QEMU=$qemu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for tool in "$qemu" riscv64-linux-gnu-gcc; do
	if ! command -v "$tool" >/dev/null; then
		echo "1..0 # SKIP $tool not installed (make deps)"
		exit 0
	fi
done
riscv64-linux-gnu-gcc -static -O2 -g -o "$tmp/branchy" userspace/sample/branchy.c &&
riscv64-linux-gnu-gcc -static -O2 -o "$tmp/prog" tests/nexus/prog.c
ok $? "build the sample workload and tests/nexus/prog.c (static riscv64)"

# Record each once, keeping the plugin's instruction trace.
for p in branchy prog; do
	args=2000
	[ $p = prog ] && args=20
	"$rvperf" nexus record -o "$tmp/$p.nxt" --pcs "$tmp/$p.pcs" \
		--itrace "$tmp/$p.itr" -- "$tmp/$p" $args >"$tmp/$p.out" 2>"$tmp/$p.err"
	ok $? "record $p (HTM, defaults)"
	"$rvperf" nexus decode "$tmp/$p.nxt" --elf "$tmp/$p" -o "$tmp/$p.dec" 2>"$tmp/dec.err"
	rc=$?
	cmp -s "$tmp/$p.pcs" "$tmp/$p.dec"
	ok $(( rc || $? )) "$p: the recorded trace decodes to the plugin's $(wc -l <"$tmp/$p.pcs") PCs"
done
grep -q "ran outside" "$tmp/prog.err"
ok $? "prog: the signal trampoline QEMU runs (outside the ELF) goes to TRACE.code"

# Every mode and option combination, encoded from the same instruction
# trace.  The return counter trusts returns, so it runs on branchy only
# (prog's longjmp returns elsewhere).
combos=(
	"--mode btm"
	"--mode htm"
	"--mode btm --repeat 1"
	"--mode htm --repeat 2"
	"--mode btm --callstack 8 --repeat 2"
	"--mode htm --callstack 32 --repeat 2"
	"--mode htm --callstack 1"
	"--mode htm --partial-callstack 16"
	"--mode btm --seq-jump --all-jumps"
	"--mode htm --seq-jump --all-jumps --callstack 8"
	"--mode htm --sync 20 --timestamps --ownership"
	"--mode btm --sync 500 --sync-mode icnt --timestamps"
	"--mode htm --src-bits 4 --src-id 3 --ext-addr-msb"
	"--mode htm --icnt-bits 6 --hist-bits 3"
	"--mode htm --icnt-bits 5 --icnt-sync --hist-bits 5 --callstack 4"
	"--mode btm --icnt-bits 5 --repeat 1"
	"--mode htm --xlen 64 --hist-bits 32 --icnt-bits 22 --repeat 2 --callstack 32 --seq-jump"
	"--mode htm --hist-bits 32 --icnt-bits 22 --repeat 3 --callstack 8"
	"--mode htm --hist-bits 9 --repeat 3 --timestamps"
)
for p in branchy prog; do
	fails=0
	for c in "${combos[@]}" "--mode htm --return-counter 8" "--mode btm --return-counter 2"; do
		if [ $p = prog ] && [[ $c == *return-counter* ]]; then
			continue
		fi
		# shellcheck disable=SC2086
		"$rvperf" nexus encode --itrace "$tmp/$p.itr" -o "$tmp/v.nxt" $c 2>/dev/null &&
			{ [ ! -f "$tmp/$p.nxt.code" ] || cp "$tmp/$p.nxt.code" "$tmp/v.nxt.code"; } &&
			"$rvperf" nexus decode "$tmp/v.nxt" --elf "$tmp/$p" -o "$tmp/v.dec" 2>/dev/null &&
			cmp -s "$tmp/$p.pcs" "$tmp/v.dec"
		if [ $? -ne 0 ]; then
			fails=$((fails + 1))
			diag "$p: $c does not round-trip"
		fi
	done
	ok $fails "$p: every option combination decodes to the ground truth, instruction by instruction"
done

# record encodes in the plugin, block by block while QEMU runs (nexus=);
# the other way, the plugin's instruction trace of the same run encoded
# afterwards (encode --itrace, also instruction by instruction with
# --pcs), must give the same bytes, header included, in every combination.
for p in branchy prog; do
	args=2000
	[ $p = prog ] && args=20
	fails=0 n=0
	for c in "" "${combos[@]}" "--mode htm --return-counter 8" "--mode btm --return-counter 2" \
		"--mode btm --sync 20 --sync-mode off"; do
		n=$((n + 1))
		# shellcheck disable=SC2086
		"$rvperf" nexus record -o "$tmp/f.nxt" --itrace "$tmp/f.itr" $c -- \
			"$tmp/$p" $args >/dev/null 2>&1 &&
			"$rvperf" nexus encode --itrace "$tmp/f.itr" -o "$tmp/s.nxt" $c 2>/dev/null &&
			"$rvperf" nexus encode --itrace "$tmp/f.itr" --pcs /dev/null \
				-o "$tmp/s1.nxt" $c 2>/dev/null &&
			cmp -s "$tmp/f.nxt" "$tmp/s.nxt" && cmp -s "$tmp/f.nxt" "$tmp/s1.nxt"
		if [ $? -ne 0 ]; then
			fails=$((fails + 1))
			diag "$p: ${c:-defaults}: the plugin's trace is not the one encode --itrace writes"
		fi
	done
	ok $fails "$p: record (encoded in the plugin) = encode --itrace of the same run, $n combinations"
done
# Where the CPU has a fast PDEP the per-block way makes message bytes with
# it (--pcs above: without); here the other way round, in BTM and in HTM
# (whose IndirectBranchHist the plugin's user-mode way makes on its own).
for m in btm htm; do
	RVPERF_NEXUS_NO_PDEP=1 "$rvperf" nexus record -o "$tmp/np.nxt" --itrace "$tmp/np.itr" \
		--mode $m -- "$tmp/branchy" 2000 >/dev/null 2>&1 &&
		"$rvperf" nexus encode --itrace "$tmp/np.itr" --mode $m -o "$tmp/np2.nxt" 2>/dev/null &&
		cmp -s "$tmp/np.nxt" "$tmp/np2.nxt"
	ok $? "record and encode --itrace ($m), one of them without PDEP: the same bytes"
done

# A raw trace (no header, as NexRv writes it) decodes with the options
# given as flags, and only then.
hlen=$(grep -a -n -m1 '^end$' "$tmp/branchy.nxt" | cut -d: -f1)
"$rvperf" nexus encode --itrace "$tmp/branchy.itr" -o "$tmp/h.nxt" --mode btm --callstack 8 2>/dev/null
hbytes=$(head -n "$(grep -a -n -m1 '^end$' "$tmp/h.nxt" | cut -d: -f1)" "$tmp/h.nxt" | wc -c)
tail -c +$((hbytes + 1)) "$tmp/h.nxt" >"$tmp/raw.bin"
"$rvperf" nexus decode "$tmp/raw.bin" --elf "$tmp/branchy" --mode btm --callstack 8 \
	-o "$tmp/raw.dec" 2>/dev/null && cmp -s "$tmp/branchy.pcs" "$tmp/raw.dec"
ok $? "a raw trace decodes with --mode btm --callstack 8 given"
"$rvperf" nexus decode "$tmp/raw.bin" --elf "$tmp/branchy" -o "$tmp/raw2.dec" 2>/dev/null
[ $? -ne 0 ]
ok $? "... and is reported damaged without them"
[ -n "$hlen" ]
ok $? "the trace header ends with its 'end' line"

# PCSEQ: decode to NexRv's text form, encode that, decode again.
"$rvperf" nexus decode "$tmp/branchy.nxt" --elf "$tmp/branchy" --format pcseq \
	-o "$tmp/pcseq.txt" 2>/dev/null &&
	grep -q ',B4$' "$tmp/pcseq.txt" && grep -q ',R2$' "$tmp/pcseq.txt" &&
	"$rvperf" nexus encode --pcseq "$tmp/pcseq.txt" -o "$tmp/pcseq.nxt" 2>/dev/null &&
	"$rvperf" nexus decode "$tmp/pcseq.nxt" --elf "$tmp/branchy" -o "$tmp/pcseq.dec" 2>/dev/null &&
	cmp -s "$tmp/branchy.pcs" "$tmp/pcseq.dec"
ok $? "PCSEQ: decode --format pcseq, encode --pcseq, decode: the same PCs"

# Images at an address: the ELF's lowest segment at ADDR.
low=$(riscv64-linux-gnu-readelf -lW "$tmp/branchy" | awk '$1 == "LOAD" { print $3; exit }')
"$rvperf" nexus decode "$tmp/branchy.nxt" --elf "$tmp/branchy@$low" -o "$tmp/at.dec" 2>/dev/null &&
	cmp -s "$tmp/branchy.pcs" "$tmp/at.dec"
ok $? "--elf ELF@$low (where it is loaded) decodes"
"$rvperf" nexus decode "$tmp/branchy.nxt" --elf "$tmp/branchy@$((low + 0x1000))" \
	-o /dev/null 2>/dev/null
[ $? -eq 1 ]
ok $? "--elf ELF@$(printf '0x%x' $((low + 0x1000))) (elsewhere): damage reported"

# A dynamically linked program: ld.so and libc run outside its ELF, their
# code goes to TRACE.code.  Its runs are compared with each other, so the
# host's address randomisation is off for them (setarch -R): QEMU 10's
# user mode places ld.so where the host's mmap does, elsewhere each run.
norand=()
setarch -R true 2>/dev/null && norand=(setarch -R)
riscv64-linux-gnu-gcc -O2 -o "$tmp/dyn" tests/nexus/prog.c &&
	"${norand[@]}" "$rvperf" nexus record -o "$tmp/dyn.nxt" --pcs "$tmp/dyn.pcs" -- "$tmp/dyn" 3 \
		>/dev/null 2>&1 &&
	"$rvperf" nexus decode "$tmp/dyn.nxt" --elf "$tmp/dyn" -o "$tmp/dyn.dec" 2>/dev/null &&
	cmp -s "$tmp/dyn.pcs" "$tmp/dyn.dec"
ok $? "a dynamically linked program (ld.so, libc from TRACE.code) decodes to its PCs"
"$rvperf" nexus record -o "$tmp/dynf.nxt" --itrace "$tmp/dyn.itr" -- "$tmp/dyn" 3 \
	>/dev/null 2>&1 &&
	"$rvperf" nexus encode --itrace "$tmp/dyn.itr" -o "$tmp/dyns.nxt" 2>/dev/null &&
	cmp -s "$tmp/dynf.nxt" "$tmp/dyns.nxt"
ok $? "... the plugin's trace = encode --itrace of the same run"
# Without --pcs or --itrace the plugin writes only its blocks (blocks=),
# from which TRACE.code comes.
rm -f "$tmp/dynb.nxt.code"
"${norand[@]}" "$rvperf" nexus record -o "$tmp/dynb.nxt" -- "$tmp/dyn" 3 >/dev/null 2>&1 &&
	[ -s "$tmp/dynb.nxt.code" ] &&
	"$rvperf" nexus decode "$tmp/dynb.nxt" --elf "$tmp/dyn" -o "$tmp/dynb.dec" 2>/dev/null &&
	cmp -s "$tmp/dyn.pcs" "$tmp/dynb.dec"
ok $? "... recorded without the instruction trace (TRACE.code from the plugin's blocks): the same PCs"

# Threads: the trace and the instruction trace both follow the first
# vCPU that runs (the main thread), the others are noted.
riscv64-linux-gnu-gcc -static -O2 -pthread -o "$tmp/threads" tests/userspace/procs/threads.c &&
	"$rvperf" nexus record -o "$tmp/th.nxt" --pcs "$tmp/th.pcs" --itrace "$tmp/th.itr" \
		-- "$tmp/threads" >/dev/null 2>"$tmp/th.err" &&
	grep -q "only the first vCPU" "$tmp/th.err" &&
	"$rvperf" nexus encode --itrace "$tmp/th.itr" -o "$tmp/th2.nxt" 2>/dev/null &&
	cmp -s "$tmp/th.nxt" "$tmp/th2.nxt" &&
	"$rvperf" nexus decode "$tmp/th.nxt" --elf "$tmp/threads" -o "$tmp/th.dec" 2>/dev/null &&
	cmp -s "$tmp/th.pcs" "$tmp/th.dec"
ok $? "threads: the main thread's trace = encode --itrace, decodes to its PCs, the others noted"

# Damage: one byte flipped in the middle, a truncated trace.
size=$(stat -c %s "$tmp/prog.nxt")
mid=$((size / 2))
cp "$tmp/prog.nxt" "$tmp/bad.nxt"
cp "$tmp/prog.nxt.code" "$tmp/bad.nxt.code"
printf '\x42' | dd of="$tmp/bad.nxt" bs=1 seek=$mid conv=notrunc status=none
"$rvperf" nexus decode "$tmp/bad.nxt" --elf "$tmp/prog" -o "$tmp/bad.dec" 2>"$tmp/bad.err"
rc=$?
off=$(sed -n 's/.*damage at byte \([0-9]*\).*/\1/p' "$tmp/bad.err" | head -1)
first=$(cmp "$tmp/prog.pcs" "$tmp/bad.dec" 2>&1 | sed -n 's/.*line \([0-9]*\).*/\1/p')
[ $rc -eq 1 ] && [ -n "$off" ] && [ "$off" -le $mid ] && [ "$off" -ge $((mid - 64)) ]
ok $? "a damaged byte at $mid: exit 1, damage reported at byte ${off:-none}"
[ -n "$first" ] && [ "$first" -gt 1000 ]
ok $? "... the instructions before it decode right (first difference at line ${first:-?})"
cut=$((size * 2 / 3))
# inside a message: the last byte kept must not end one (MSEO 11)
while [ $(( $(od -An -tu1 -j $((cut - 1)) -N1 "$tmp/prog.nxt") & 3 )) -eq 3 ]; do
	cut=$((cut - 1))
done
head -c $cut "$tmp/prog.nxt" >"$tmp/cut.nxt"
cp "$tmp/prog.nxt.code" "$tmp/cut.nxt.code"
"$rvperf" nexus decode "$tmp/cut.nxt" --elf "$tmp/prog" -o "$tmp/cut.dec" 2>"$tmp/cut.err"
rc=$?
n=$(wc -l <"$tmp/cut.dec")
head -n "$n" "$tmp/prog.pcs" | cmp -s - "$tmp/cut.dec"
ok $? "a truncated trace: the $n instructions before the cut decode right"
[ $rc -eq 1 ] && grep -q "the trace ends inside the message at byte [0-9]* (incomplete)" "$tmp/cut.err"
ok $? "... the cut message is reported as such, exit 1"

# dump and stat.
"$rvperf" nexus dump "$tmp/prog.nxt" -o "$tmp/dump.txt" 2>/dev/null &&
	grep -q "ProgTraceSync SYNC=1 ICNT=0 FADDR=" "$tmp/dump.txt" &&
	grep -q "IndirectBranchHist BTYPE=" "$tmp/dump.txt" &&
	grep -q "ProgTraceCorrelation EVCODE=0 CDF=1" "$tmp/dump.txt"
ok $? "dump: messages with offsets and fields"
"$rvperf" nexus stat "$tmp/prog.nxt" --elf "$tmp/prog" >"$tmp/stat.txt" 2>/dev/null &&
	grep -q "instructions: $(wc -l <"$tmp/prog.pcs")" "$tmp/stat.txt" &&
	grep -q "bits per instruction" "$tmp/stat.txt"
ok $? "stat: messages by type, the instruction count, bits per instruction"

# PCONLY + ELF gives the same trace as the instruction trace.
"$rvperf" nexus encode --pconly "$tmp/branchy.pcs" --elf "$tmp/branchy" \
	-o "$tmp/pconly.nxt" 2>/dev/null
cmp -s "$tmp/pconly.nxt" "$tmp/branchy.nxt"
ok $? "encode --pconly with the ELF: byte-identical to the recorded trace"
# The plugin's blocks fed whole (no --pcs) give the same bytes too.
for c in "" "--mode btm --seq-jump" "--callstack 4 --repeat 2 --icnt-bits 5"; do
	# shellcheck disable=SC2086
	"$rvperf" nexus encode --itrace "$tmp/prog.itr" -o "$tmp/blk.nxt" $c 2>/dev/null &&
		"$rvperf" nexus encode --itrace "$tmp/prog.itr" --pcs "$tmp/x.pcs" \
			-o "$tmp/one.nxt" $c 2>/dev/null &&
		cmp -s "$tmp/blk.nxt" "$tmp/one.nxt"
	ok $? "blocks fed whole or instruction by instruction: the same bytes (${c:-defaults})"
done

# inject: perf samples from the decoded trace, on the same run the CTR
# plugin samples (rvperf record: a sample every 10007 instructions, 16
# entries).  The samples are the same, ip and branch stack (but the
# cycle counts only CTR has), so rvperf report names the same hot loop
# with the same trip count and the same call edges.
# (stdout to a file, as when the trace was recorded: libc takes another
# path for a terminal or /dev/null)
"$rvperf" record -o "$tmp/ctr.data" -- "$tmp/branchy" 2000 >"$tmp/ctr.out" 2>&1
ok $? "rvperf record (CTR) of the same program"
"$rvperf" nexus inject -i "$tmp/branchy.nxt" --elf "$tmp/branchy" -o "$tmp/nx.data" 2>/dev/null
ok $? "rvperf nexus inject"
"$rvperf" script -i "$tmp/ctr.data" -F ip,brstack | sed 's|/-/-/-/[0-9]*/|/-/-/-/N/|g' >"$tmp/ctr.txt"
"$rvperf" script -i "$tmp/nx.data" -F ip,brstack | sed 's|/-/-/-/[0-9]*/|/-/-/-/N/|g' >"$tmp/nx.txt"
[ -s "$tmp/ctr.txt" ] && cmp -s "$tmp/ctr.txt" "$tmp/nx.txt"
ok $? "inject: the $(wc -l <"$tmp/nx.txt") samples equal CTR's, ip and branch stack"
"$rvperf" report -i "$tmp/ctr.data" | sed -n '/Hot loops/,$p' >"$tmp/ctr.rep"
"$rvperf" report -i "$tmp/nx.data" | sed -n '/Hot loops/,$p' >"$tmp/nx.rep"
grep -q "hot_loop" "$tmp/nx.rep" && cmp -s "$tmp/ctr.rep" "$tmp/nx.rep"
ok $? "inject: rvperf report's hot loops (trips per entry) and call edges equal CTR's"
"$rvperf" autofdo -i "$tmp/nx.data" --elf "$tmp/branchy" -o "$tmp/nx.afdo" >/dev/null 2>&1 &&
	[ -s "$tmp/nx.afdo" ]
ok $? "inject: rvperf autofdo makes a profile from it"
if command -v perf >/dev/null; then
	perf report -b -i "$tmp/nx.data" --stdio --symfs=/ 2>/dev/null |
		grep -q 'hot_loop .* op_mul'
	ok $? "inject: host perf report -b reads it (hot_loop -> op_mul)"
else
	echo "ok $((++tap_n)) - host perf report -b # SKIP perf not installed"
fi

# System mode: a bare-metal program on qemu-system-riscv64 (M-mode and
# S-mode, ecalls trapping to M-mode, mret); QEMU's reset code at 0x1000
# runs outside the ELF and goes to TRACE.code.  Debian's QEMU 7.2 does not
# tell the plugin the privilege mode (9.0 and later do): only the path is
# checked here.
if command -v qemu-system-riscv64 >/dev/null; then
	riscv64-linux-gnu-gcc -nostdlib -static -Wl,-Ttext=0x80000000 \
		-o "$tmp/bare" tests/nexus/nexus-bare.S
	timeout 120 "$rvperf" nexus record --system --mode btm --callstack 4 \
		-o "$tmp/sys.nxt" --pcs "$tmp/sys.pcs" -- -M virt -bios none \
		-kernel "$tmp/bare" -nographic -monitor none -serial none 2>/dev/null
	ok $? "record --system: a bare-metal program under qemu-system-riscv64"
	"$rvperf" nexus decode "$tmp/sys.nxt" --elf "$tmp/bare" -o "$tmp/sys.dec" 2>/dev/null &&
		cmp -s "$tmp/sys.pcs" "$tmp/sys.dec"
	ok $? "... decodes to the plugin's $(wc -l <"$tmp/sys.pcs") PCs (reset code from TRACE.code)"
	timeout 120 "$rvperf" nexus record --system --callstack 4 --repeat 2 \
		-o "$tmp/sysf.nxt" --itrace "$tmp/sys.itr" -- -M virt -bios none \
		-kernel "$tmp/bare" -nographic -monitor none -serial none 2>/dev/null &&
		"$rvperf" nexus encode --itrace "$tmp/sys.itr" --callstack 4 --repeat 2 \
			-o "$tmp/syss.nxt" 2>/dev/null &&
		cmp -s "$tmp/sysf.nxt" "$tmp/syss.nxt"
	ok $? "... the plugin's trace = encode --itrace of the same run (system mode)"
	n=$("$rvperf" nexus dump "$tmp/sys.nxt" 2>/dev/null | grep -c "IndirectBranch BTYPE=2")
	[ "$n" -eq 32 ]
	ok $? "... each of its 32 ecalls is an exception (B-TYPE 2), found $n"
else
	echo "ok $((++tap_n)) - record --system # SKIP qemu-system-riscv64 not installed"
fi

# Command line.
for s in record decode encode dump stat inject; do
	"$rvperf" nexus $s --help | grep -q "usage: rvperf nexus $s"
	ok $? "rvperf nexus $s --help"
done
"$rvperf" nexus decode "$tmp/nope.nxt" --elf "$tmp/prog" 2>"$tmp/e1"
rc=$?
[ $rc -eq 1 ] && [ "$(wc -l <"$tmp/e1")" -eq 1 ]
ok $? "a missing trace: exit 1, one line ($(cat "$tmp/e1"))"
"$rvperf" nexus decode "$tmp/prog.nxt" --mode xyz 2>"$tmp/e2"
rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$tmp/e2")" -eq 1 ]
ok $? "a bad option: exit 2, one line ($(cat "$tmp/e2"))"
"$rvperf" nexus frobnicate 2>/dev/null
[ $? -eq 2 ]
ok $? "an unknown subcommand: exit 2"
tap_done
