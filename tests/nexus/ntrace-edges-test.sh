#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# rvperf nexus at the edges of its input (issue 38), on a small RV32
# program whose instruction sequence the test writes itself: a raw trace
# (no header) takes XLEN from the ELF class; encode --raw writes the bare
# messages; a trace whose HREPEAT says 2^60-1 repeats stops at the
# instruction limit; a trace cut inside a message or after a whole one
# decodes what came before, says where it ended and exits non-zero.
set -u
. tests/tap.sh
O=${O:-build}
rvperf=$O/userspace/rvperf
cc=riscv64-linux-gnu-gcc
if ! command -v $cc >/dev/null; then
	echo "1..0 # SKIP $cc not installed (make deps)"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# c.jal exists in RV32 only (RV64 reads its encoding as c.addiw, a linear
# instruction): decoded as RV64, the calls vanish from the path.
cat >"$tmp/p.S" <<'EOF'
	.option rvc
	.text
	.globl _start
_start:
	li	a0, 300
loop:
	c.jal	func
	c.addi	a0, -1
	c.bnez	a0, loop
done:
	c.nop
func:
	c.addi	a1, 1
	c.jr	ra
EOF
$cc -march=rv32imac -mabi=ilp32 -nostdlib -static -o "$tmp/p32" "$tmp/p.S"
ok $? "an RV32 program with c.jal (ELF32)"
# Its executed PCs: _start, 300 times loop/func/func+2/loop+2/loop+4, done.
riscv64-linux-gnu-nm "$tmp/p32" | python3 -c '
import sys
a = {l.split()[2]: int(l.split()[0], 16) for l in sys.stdin if len(l.split()) == 3}
out = [a["_start"]]
for i in range(300):
    out += [a["loop"], a["func"], a["func"] + 2, a["loop"] + 2, a["loop"] + 4]
out.append(a["done"])
print("\n".join("0x%X" % pc for pc in out))' >"$tmp/p.pcs"
opts="--callstack 8 --repeat 3 --hist-bits 32"

# 1. encode --raw: the messages alone, as NexRv writes them; the same as
# after the header of the trace encode writes by default.
"$rvperf" nexus encode --pconly "$tmp/p.pcs" --elf "$tmp/p32" $opts \
	-o "$tmp/hdr.nxt" 2>/dev/null &&
	"$rvperf" nexus encode --raw --pconly "$tmp/p.pcs" --elf "$tmp/p32" $opts \
		-o "$tmp/raw.nxt" 2>/dev/null
ok $? "encode with and without --raw"
hl=$(grep -abo '^end$' "$tmp/hdr.nxt" | head -1 | cut -d: -f1)
[ -n "$hl" ] && [ "$(head -c 13 "$tmp/hdr.nxt")" = "rvperf-nexus " ] &&
	tail -c +$((hl + 5)) "$tmp/hdr.nxt" | cmp -s - "$tmp/raw.nxt" &&
	[ "$(head -c 1 "$tmp/raw.nxt" | od -An -c | tr -d ' ')" != r ]
ok $? "--raw: byte for byte the messages after the header, no header"

# 2. A raw trace without --xlen: the ELF class (32) says it.
"$rvperf" nexus decode "$tmp/raw.nxt" --elf "$tmp/p32" $opts -o "$tmp/raw.dec" \
	2>"$tmp/raw.err"
rc=$?
[ $rc -eq 0 ] && cmp -s "$tmp/p.pcs" "$tmp/raw.dec"
ok $? "decode of the raw trace, no --xlen: the $(wc -l <"$tmp/p.pcs") PCs (XLEN 32 from the ELF class)"
diag "status $rc: $(cat "$tmp/raw.err")"
"$rvperf" nexus decode "$tmp/raw.nxt" --elf "$tmp/p32" $opts --xlen 64 \
	-o "$tmp/x64.dec" 2>/dev/null
! cmp -s "$tmp/p.pcs" "$tmp/x64.dec"
ok $? "... --xlen 64 given: taken (and wrong here: c.jal is not RV64's)"

# 3. The HREPEAT count of a ResourceFull RCODE 2 set to 2^60-1 (ten MDOs
# of ones): the decode stops at the limit, with one line, non-zero.
"$rvperf" nexus dump "$tmp/raw.nxt" $opts --xlen 32 >"$tmp/dump.txt" 2>/dev/null
# The offset of each message, in decimal.
grep -E '^[0-9a-f]{8} ' "$tmp/dump.txt" | while read -r h rest; do
	echo "$((16#$h)) $rest"
done >"$tmp/msgs.txt"
off=$(grep -m1 ' ResourceFull RCODE=2 .*HREPEAT=' "$tmp/msgs.txt" | cut -d' ' -f1)
[ -n "$off" ]
ok $? "the trace holds a repeated HIST (ResourceFull RCODE=2 at byte ${off:-none})"
python3 - "$tmp/raw.nxt" "${off:-0}" "$tmp/rep.nxt" <<'PY'
import sys
data = bytearray(open(sys.argv[1], 'rb').read())
start = int(sys.argv[2])
i = start + 1
while data[i] & 3 != 1:		# RCODE and RDATA: up to the end of RDATA
    i += 1
j = i + 1
while data[j] & 3 != 3:		# HREPEAT: up to the end of the message
    j += 1
data[i + 1:j + 1] = bytes([0xfc] * 9 + [0xff])
open(sys.argv[3], 'wb').write(data)
PY
"$rvperf" nexus dump "$tmp/rep.nxt" $opts --xlen 32 2>/dev/null |
	grep -q "HREPEAT=1152921504606846975$"
ok $? "... patched to HREPEAT=2^60-1"
timeout 120 "$rvperf" nexus decode "$tmp/rep.nxt" --elf "$tmp/p32" $opts \
	--format blocks -o "$tmp/rep.dec" 2>"$tmp/rep.err"
rc=$?
[ $rc -eq 1 ] &&
	[ "$(grep -c 'stopped after [0-9]* instructions: the trace says more than the limit of [0-9]* (65536 per byte' "$tmp/rep.err")" -eq 1 ]
ok $? "decode: stops at the default limit (65536 per byte of code), one line, exit 1"
diag "status $rc: $(cat "$tmp/rep.err")"
"$rvperf" nexus decode "$tmp/rep.nxt" --elf "$tmp/p32" $opts \
	--max-instructions 5000 -o "$tmp/rep5k.dec" 2>"$tmp/rep5k.err"
rc=$?
n=$(wc -l <"$tmp/rep5k.dec")
[ $rc -eq 1 ] && [ "$n" -gt 5000 ] && [ "$n" -le 5010 ] &&
	grep -q "limit of 5000 (--max-instructions" "$tmp/rep5k.err"
ok $? "--max-instructions 5000: stops after $n PCs, exit 1"
diag "status $rc: $(cat "$tmp/rep5k.err")"
timeout 120 "$rvperf" nexus stat "$tmp/rep.nxt" --elf "$tmp/p32" $opts \
	--max-instructions 100000 >/dev/null 2>"$tmp/stat.err"
rc=$?
[ $rc -eq 1 ] && grep -q "limit of 100000" "$tmp/stat.err"
ok $? "stat: the same limit"
timeout 120 "$rvperf" nexus inject -i "$tmp/rep.nxt" --elf "$tmp/p32" $opts \
	--max-instructions 100000 -o "$tmp/rep.data" >/dev/null 2>"$tmp/inj.err"
rc=$?
[ $rc -eq 1 ] && grep -q "limit of 100000" "$tmp/inj.err"
ok $? "inject: the same limit"
"$rvperf" nexus decode "$tmp/raw.nxt" --elf "$tmp/p32" $opts \
	--max-instructions 0 -o /dev/null 2>/dev/null
ok $? "--max-instructions 0 (no limit) is taken: the trace decodes"

# 4. Cut traces.  Inside a message (its last byte kept does not end one):
# the PCs before it, its offset, exit 1.
size=$(stat -c %s "$tmp/raw.nxt")
cut=$((size - 2))
while [ $(( $(od -An -tu1 -j $((cut - 1)) -N1 "$tmp/raw.nxt") & 3 )) -eq 3 ]; do
	cut=$((cut - 1))
done
head -c $cut "$tmp/raw.nxt" >"$tmp/cut.nxt"
"$rvperf" nexus decode "$tmp/cut.nxt" --elf "$tmp/p32" $opts -o "$tmp/cut.dec" \
	2>"$tmp/cut.err"
rc=$?
n=$(wc -l <"$tmp/cut.dec")
msg=$(awk -v c=$cut '$1 < c { m = $1 } END { print m }' "$tmp/msgs.txt")
[ $rc -eq 1 ] && [ "$n" -gt 0 ] && head -n "$n" "$tmp/p.pcs" | cmp -s - "$tmp/cut.dec" &&
	grep -q "the trace ends inside the message at byte $msg (incomplete)" "$tmp/cut.err"
ok $? "cut inside the message at byte $msg: the $n PCs before it, its offset, exit 1"
diag "status $rc: $(cat "$tmp/cut.err")"
# After a whole message (the last, ProgTraceCorrelation, left out).
last=$(tail -n 1 "$tmp/msgs.txt" | cut -d' ' -f1)
tail -n 1 "$tmp/msgs.txt" | grep -q ProgTraceCorrelation
ok $? "the trace's last message is a ProgTraceCorrelation (at byte $last)"
head -c "$last" "$tmp/raw.nxt" >"$tmp/cut2.nxt"
"$rvperf" nexus decode "$tmp/cut2.nxt" --elf "$tmp/p32" $opts -o "$tmp/cut2.dec" \
	2>"$tmp/cut2.err"
rc=$?
n=$(wc -l <"$tmp/cut2.dec")
[ $rc -eq 1 ] && [ "$n" -gt 0 ] && head -n "$n" "$tmp/p.pcs" | cmp -s - "$tmp/cut2.dec" &&
	grep -q "the trace ends at byte $last without a ProgTraceCorrelation" "$tmp/cut2.err"
ok $? "cut after a whole message (byte $last): the $n PCs before it, where it ended, exit 1"
diag "status $rc: $(cat "$tmp/cut2.err")"
tap_done
