#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# rvperf record with the TCG plugin on Debian's qemu-riscv64: the branch
# stacks of tests/plugin/known.S checked entry by entry against the
# addresses in its symbol table (filters, not-taken branches, the syscall
# as an external trap, RAS emulation, both layouts), the same recording
# read by host perf script, and bad input.  QEMU_USER=/path/to/qemu-riscv64
# runs it all on another QEMU (make check-e2e QEMU_USER=...: newer plugin
# API levels).
set -u
. tests/tap.sh
O=${O:-build}
rvperf=$O/userspace/rvperf
plugin=$O/qemu-model/librvperf-ctr.so
qemu=${QEMU_USER:-qemu-riscv64}
export RVPERF_QEMU=$qemu	# rvperf record runs this one
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for tool in "$qemu" riscv64-linux-gnu-gcc riscv64-linux-gnu-nm; do
	if ! command -v "$tool" >/dev/null; then
		echo "1..0 # SKIP $tool not installed (make deps)"
		exit 0
	fi
done
riscv64-linux-gnu-gcc -static -nostdlib -o "$tmp/known" tests/plugin/known.S
ok $? "build the known program (rv64gc: the assembler picks compressed forms)"
declare -A A
while read -r addr _ name; do
	A[$name]=$((16#$addr))
done < <(riscv64-linux-gnu-nm "$tmp/known")
hex() { printf '0x%x' "$1"; }
len() { echo $((A[$2] - A[$1])); }	# bytes from label $1 to label $2

# The sample taken when probe is entered (-e calls -c 1: a sample at every
# call, its ip the callee's first instruction), as "from/to/type" lines,
# newest first.
stack_at() {	# stack_at FILE ADDR
	"$rvperf" script -F ip,brstack -i "$1" |
		awk -v ip="$(printf '%x' "$2")" '$1 == ip { for (i = 2; i <= NF; i++) print $i; exit }' |
		awk -F/ '{ print $1 "/" $2 "/" $7 }'
}
record() {	# record FILE ARGS...: quietly, failing the check on error
	local f=$1
	shift
	"$rvperf" record -e calls -c 1 --depth 64 -o "$f" "$@" -- "$tmp/known" \
		>"$tmp/rec.out" 2>&1
}
expect() {	# expect DESC FILE IP LINE...: the stack at IP is exactly LINE...
	local desc=$1 f=$2 ip=$3 got want
	shift 3
	got=$(stack_at "$f" "$ip")
	want=$(printf '%s\n' "$@")
	[ "$got" = "$want" ]
	ok $? "$desc"
	[ "$got" = "$want" ] || diag "want:" "$want" "got:" "$got"
}
e() { printf '%s/%s/%s' "$(hex "$1")" "$(hex "$2")" "$3"; }
after() { echo $(($1 + $2)); }	# address after an instruction of $2 bytes

latch=$(e ${A[loop_latch]} ${A[loop_head]} COND)
ind=$(e ${A[ind_call]} ${A[target_b]} IND_CALL)
ret_b=$(e ${A[target_b_ret]} ${A[call_depth1]} RET)
call_run=$(e ${A[start_call_run]} ${A[run_test]} CALL)
call_d1=$(e ${A[call_depth1]} ${A[depth1]} CALL)
call_d2=$(e ${A[call_depth2]} ${A[depth2]} CALL)
call_d3=$(e ${A[call_depth3]} ${A[depth3]} CALL)
ret_d3=$(e ${A[depth3_ret]} $((A[call_depth3] + 4)) RET)
ret_d2=$(e ${A[depth2_ret]} $((A[call_depth2] + 4)) RET)
ret_d1=$(e ${A[depth1_ret]} $((A[call_depth1] + 4)) RET)
ret_run=$(e ${A[run_test_ret]} ${A[start_call_probe]} RET)
call_probe=$(e ${A[start_call_probe]} ${A[probe]} CALL)

for layout in ratified draft; do
	record "$tmp/any-$layout.data" -j any --layout $layout
	ok $? "$layout: record -j any"
	[ $? -eq 0 ] || diag "$(cat "$tmp/rec.out")"
	# Every taken transfer, newest first; the loop latch taken 4 times of
	# 5; the not-taken beqz and the getpid ecall (an external trap: STE
	# is off) are not recorded.
	expect "$layout: -j any: the stack at probe, entry by entry" \
		"$tmp/any-$layout.data" ${A[probe]} \
		"$call_probe" "$ret_run" "$ret_d1" "$ret_d2" "$ret_d3" \
		"$call_d3" "$call_d2" "$call_d1" "$ret_b" "$ind" \
		"$latch" "$latch" "$latch" "$latch" "$call_run"
done

record "$tmp/ret.data" -j any_ret
expect "-j any_ret: only the returns" "$tmp/ret.data" ${A[probe]} \
	"$ret_run" "$ret_d1" "$ret_d2" "$ret_d3" "$ret_b"
record "$tmp/indcall.data" -j ind_call
expect "-j ind_call: only the indirect call" "$tmp/indcall.data" ${A[probe]} "$ind"
record "$tmp/call.data" -j call
expect "-j call: only direct calls" "$tmp/call.data" ${A[probe]} \
	"$call_probe" "$call_d3" "$call_d2" "$call_d1" "$call_run"
record "$tmp/cond.data" -j cond
expect "-j cond: only the taken conditional branches" "$tmp/cond.data" ${A[probe]} \
	"$latch" "$latch" "$latch" "$latch"

# RAS emulation: calls push, returns pop, so the stack is the call stack.
record "$tmp/cs.data" -j call_stack
expect "-j call_stack in depth3: the call stack" "$tmp/cs.data" ${A[depth3]} \
	"$call_d3" "$call_d2" "$call_d1" "$call_run"
expect "-j call_stack in probe: run_test's frames popped" "$tmp/cs.data" ${A[probe]} \
	"$call_probe"

# mctrctl by value: U, STE (bit 8: external traps from U to S), NTBREN
# (bit 36), only conditional branches and exceptions allowed through.
inh=$(( (1 << 34) | (1 << 35) | (0x3f << 40) | (3 << 46) ))
record "$tmp/ctl.data" --ctl $(( 1 | (1 << 8) | (1 << 36) | inh ))
ok $? "record --ctl with STE and NTBREN"
# Not-taken branches and exceptions have no generic perf type: the
# driver's ARCH_2 and ARCH_1 (rvperf record maps them as it does).
nt=$(e ${A[nt_branch]} $((A[nt_branch] + 4)) ARCH_2)
exit_nt=$(e ${A[loop_latch]} $((A[loop_latch] + 4)) ARCH_2)
trap_e=$(e ${A[syscall_insn]} 0 ARCH_1)
expect "--ctl: not-taken branches and the ecall (target 0: an external trap) recorded" \
	"$tmp/ctl.data" ${A[probe]} "$trap_e" "$nt" "$exit_nt" \
	"$latch" "$latch" "$latch" "$latch"

# MISP: without --misp the entries claim neither mispredicted nor predicted;
# with it the predictor model decides (the first indirect call to target_b
# finds an empty target table: mispredicted).
misp_of() {	# misp_of FILE FROM TO: the M/P/- flag of that entry at probe
	"$rvperf" script -F ip,brstack -i "$1" |
		awk -v ip="$(printf '%x' "${A[probe]}")" '$1 == ip { for (i = 2; i <= NF; i++) print $i; exit }' |
		awk -F/ -v f="$(hex "$2")" -v t="$(hex "$3")" '$1 == f && $2 == t { print $3; exit }'
}
[ "$(misp_of "$tmp/any-ratified.data" ${A[ind_call]} ${A[target_b]})" = - ]
ok $? "without --misp an entry says neither mispredicted nor predicted (-)"
record "$tmp/misp.data" --misp
[ "$(misp_of "$tmp/misp.data" ${A[ind_call]} ${A[target_b]})" = M ] &&
	[ "$(misp_of "$tmp/misp.data" ${A[start_call_run]} ${A[run_test]})" = P ]
ok $? "with --misp: the first indirect call is mispredicted (M), a direct call predicted (P)"

# Host perf reads the same recording, entry for entry.
if command -v perf >/dev/null; then
	riscv64-linux-gnu-gcc -static -O2 -g -o "$tmp/branchy" userspace/sample/branchy.c &&
	"$rvperf" record -o "$tmp/b.data" -- "$tmp/branchy" 300 >/dev/null 2>&1
	ok $? "record branchy"
	# rvperf script prints as perf 6.12 does (the registry's, pinned).
	perf612=$(tests/userspace/perf612.sh 2>"$tmp/perf.err") &&
		"$perf612" script -F ip,brstack -i "$tmp/b.data" >"$tmp/perf.txt" 2>"$tmp/perf.err"
	"$rvperf" script -F ip,brstack -i "$tmp/b.data" >"$tmp/ours.txt"
	[ -s "$tmp/perf.txt" ] && [ ! -s "$tmp/perf.err" ] && cmp -s "$tmp/perf.txt" "$tmp/ours.txt"
	ok $? "perf 6.12 script -F ip,brstack prints what rvperf script prints, no warnings"
	diag "$(head -3 "$tmp/perf.err")"
	perf report -b --stdio -i "$tmp/b.data" >"$tmp/rep.txt" 2>"$tmp/rep.err"
	[ $? -eq 0 ] && grep -q 'hot_loop' "$tmp/rep.txt" && [ ! -s "$tmp/rep.err" ]
	ok $? "host perf report -b names branchy's functions, no warnings"
else
	ok 0 "host perf reads the recording # SKIP perf not installed"
	ok 0 "host perf report -b # SKIP perf not installed"
fi

# The plugin runs the model over queued blocks and keeps back records that
# would be overwritten (qemu-model/plugin/plugin.c, "Batches"): the trace
# must be the one batch=off makes, running the model at every block, byte
# for byte but the pid and thread ids.  The same program run twice must
# take the same path: no environment, no address randomisation.
if command -v setarch >/dev/null && setarch -R true 2>/dev/null; then
	riscv64-linux-gnu-gcc -static -O2 -o "$tmp/branchy-b" userspace/sample/branchy.c
	same_trace() {	# same_trace DESC PROG PLUGIN-OPTIONS
		local desc=$1 prog=$2 opts=$3 i
		for i in on off; do
			env -i setarch -R "$(command -v "$qemu")" \
				-plugin "$plugin,out=$tmp/batch-$i.rvt,$opts,batch=$i" \
				$prog >/dev/null 2>&1 || return 1
			tests/plugin/trace-summary.py --digest "$tmp/batch-$i.rvt" \
				>"$tmp/batch-$i.sum" || return 1
		done
		cmp -s "$tmp/batch-on.sum" "$tmp/batch-off.sum"
	}
	while read -r prog opts; do
		[ "$prog" = branchy ] && prog="$tmp/branchy-b 300" || prog=$tmp/known
		same_trace "$prog" "$prog" "$opts"
		ok $? "batched and block by block: the same trace ($opts)"
	done <<-EOF
		branchy ctl=0x1,event=instructions,period=1009,depth=16
		branchy ctl=0x1,event=instructions,period=10007,depth=16
		branchy ctl=0x1,event=instructions,period=1000003,depth=16
		branchy ctl=0x1,event=cycles,period=3001,depth=32,layout=draft
		branchy ctl=0x1,event=instructions,period=97,depth=256
		branchy filter=call,,u,event=cycles,period=501,depth=32,layout=draft
		branchy filter=call_stack,,u,event=instructions,period=301
		branchy filter=any_ret,,u,event=returns,period=7
		branchy ctl=0x1,event=branches,period=2,depth=256
		branchy ctl=0x1,event=taken-branches,period=13,depth=64,layout=draft
		known ctl=0x7ffffffffffffffd,event=instructions,period=1,depth=64
	EOF
	# The gate: at the default period most blocks are not queued (on
	# plugin API 3+, QEMU 9.1 on, not even called back), and the traces
	# above compared gapped runs with batch=off; no sample may lack
	# records.
	env -i setarch -R "$(command -v "$qemu")" -plugin \
		"$plugin,out=$tmp/gate.rvt,ctl=0x1,period=10007,stats=on" \
		$tmp/branchy-b 300 2>"$tmp/gate.err" >/dev/null
	stats=$(grep '^rvperf plugin: gate' "$tmp/gate.err")
	[[ $stats =~ ^"rvperf plugin: gate on, "[1-9][0-9]*" gaps, 0 unsure samples, " ]]
	ok $? "the gate leaves blocks unseen, no sample unsure ($stats)"
	env -i setarch -R "$(command -v "$qemu")" -plugin \
		"$plugin,out=$tmp/gate.rvt,ctl=0x1,period=10007,stats=on,gate=off" \
		$tmp/branchy-b 300 2>"$tmp/gate.err" >/dev/null
	stats=$(grep '^rvperf plugin: gate' "$tmp/gate.err")
	[[ $stats =~ ^"rvperf plugin: gate off, 0 gaps, 0 unsure samples, " ]]
	ok $? "gate=off: every block seen ($stats)"
	# On an x86-64 host the per-block callback is made at load time for
	# each block's step (qemu-model/plugin/lean_stub.c): below plugin API
	# level 3 (QEMU before 9.1) every block's, from it the gate's
	# conditional one: the batched traces above came from it; the
	# compiled one (stubs=off) makes the same.
	if [ "$(uname -m)" = x86_64 ]; then
		want=", generated callbacks"
	else
		want=""
	fi
	for s in on off; do
		env -i setarch -R "$(command -v "$qemu")" -plugin \
			"$plugin,out=$tmp/stubs-$s.rvt,ctl=0x1,period=1009,stats=on,stubs=$s" \
			$tmp/branchy-b 300 2>"$tmp/stubs-$s.err" >/dev/null &&
			tests/plugin/trace-summary.py --digest "$tmp/stubs-$s.rvt" >"$tmp/stubs-$s.sum"
	done
	stats=$(grep '^rvperf plugin: gate' "$tmp/stubs-on.err")
	[[ $stats =~ " instructions$want"$ ]] &&
		grep -q ' instructions$' "$tmp/stubs-off.err" &&
		cmp -s "$tmp/stubs-on.sum" "$tmp/stubs-off.sum"
	ok $? "the per-block callback ${want:+generated }and the compiled one: the same trace ($stats)"
else
	ok 0 "batched and block by block: the same trace # SKIP setarch -R unavailable"
fi

# Bad input: one line, non-zero.
fails_in_one_line "missing program" "no program '$tmp/nope'" \
	"$rvperf" record -o "$tmp/x.data" -- "$tmp/nope"
fails_in_one_line "a host program is not riscv64" "is not a riscv64 program" \
	"$rvperf" record -o "$tmp/x.data" -- /bin/true
printf 'not an elf' >"$tmp/text"
fails_in_one_line "not an ELF file" "not an ELF file" \
	"$rvperf" record -o "$tmp/x.data" -- "$tmp/text"
fails_in_one_line "a bad filter word" "unknown branch filter 'bogus'" \
	"$rvperf" record -j any,bogus -- "$tmp/known"
fails_in_one_line "no program at all" "no program to run" "$rvperf" record -e calls
fails_in_one_line "an unknown event" "unknown event 'nope'" \
	"$rvperf" record -e nope -- "$tmp/known"
fails_in_one_line "a missing plugin" "no CTR plugin" \
	"$rvperf" record --plugin "$tmp/none.so" -- "$tmp/known"

# A recording cut short (QEMU killed while the plugin wrote): record keeps
# the samples it holds whole, says the trace ended early and exits
# non-zero.
riscv64-linux-gnu-gcc -static -O2 -o "$tmp/branchy-c" userspace/sample/branchy.c
"$qemu" -plugin "$plugin,out=$tmp/whole.rvt,ctl=0x1,event=instructions,period=10007,depth=16" \
	"$tmp/branchy-c" 300 >/dev/null 2>&1
size=$(stat -c %s "$tmp/whole.rvt")
# out= names a file that exists: it is emptied first, not overwritten in
# place (the plugin opens it without O_TRUNC).
head -c $((2 * size)) /dev/urandom >"$tmp/again.rvt"
"$qemu" -plugin "$plugin,out=$tmp/again.rvt,ctl=0x1,event=instructions,period=10007,depth=16" \
	"$tmp/branchy-c" 300 >/dev/null 2>&1
again=$(stat -c %s "$tmp/again.rvt")
[ "$size" -gt 1000 ] && [ "$again" = "$size" ]
ok $? "out= of an existing longer file: the trace replaces it ($again bytes, $size fresh)"
# The plugin reserves the perf file's blocks ahead of its records (4 MB
# at a time) and frees what lies past them at exit: the file holds no
# more blocks than its bytes need.
"$qemu" -plugin "$plugin,out=$tmp/blk.rvt,ctl=0x1,event=instructions,period=10007,depth=16,perf=$tmp/blk.perf,perf_at=0" \
	"$tmp/branchy-c" 300 >/dev/null 2>&1
read -r bytes blocks unit <<<"$(stat -c '%s %b %B' "$tmp/blk.perf")"
[ "$bytes" -gt 10000 ] && [ $((blocks * unit)) -lt $((bytes + 65536)) ]
ok $? "perf=: no blocks held past the records ($((blocks * unit)) bytes of blocks for $bytes)"
# A trace that cannot be written is said so, once.
"$qemu" -plugin "$plugin,out=/dev/full,ctl=0x1,event=instructions,period=10007,depth=16" \
	"$tmp/branchy-c" 300 >/dev/null 2>"$tmp/full.err"
[ "$(grep -c "cannot write the trace" "$tmp/full.err")" = 1 ]
ok $? "out= on a full device: one line says the trace cannot be written ($(head -c 120 "$tmp/full.err"))"
# Perf records that cannot all be written: said once, and the trace then
# lacks its end, so that rvperf record keeps the whole records only.
"$qemu" -plugin "$plugin,out=$tmp/pfull.rvt,ctl=0x1,event=instructions,period=10007,depth=16,perf=/dev/full,perf_at=0" \
	"$tmp/branchy-c" 300 >/dev/null 2>"$tmp/pfull.err"
ends=$(python3 -c '
import struct, sys
d = open(sys.argv[1], "rb").read()
off, ends = 96, 0
while off + 56 <= len(d):
    kind, nr = struct.unpack_from("<Q", d, off)[0], struct.unpack_from("<Q", d, off + 48)[0]
    if kind == 2:
        ends += 1
        break
    off += 56 + 8 * nr
print(ends)' "$tmp/pfull.rvt")
[ "$(grep -c "cannot write the perf data" "$tmp/pfull.err")" = 1 ] && [ "$ends" = 0 ]
ok $? "perf= on a full device: one line, and the trace has no end ($(head -c 120 "$tmp/pfull.err"))"
# The stand-in for QEMU runs it, then cuts what the plugin wrote as a kill
# while it wrote would: the trace loses its END record (a record of 7
# words and the 4 words of totals), the recording ends inside a record.
cat >"$tmp/cut-qemu" <<END
#!/bin/sh
"$qemu" "\$@" || exit
for a; do
	case \$a in *,out=*) o=\${a#*,out=}; o=\${o%%,*};; esac
	case \$a in *,perf=*) p=\${a#*,perf=}; p=\${p%%,*};; esac
done
truncate -s \$((\$(stat -c %s "\$o") - 88)) "\$o"
truncate -s \$((65536 + (\$(stat -c %s "\$p") - 65536) / 2 + 100)) "\$p"
cp "\$p" "$tmp/cut.perf"
END
chmod +x "$tmp/cut-qemu"
"$rvperf" record --qemu "$tmp/cut-qemu" -o "$tmp/cut.data" -- "$tmp/branchy-c" 300 \
	>/dev/null 2>"$tmp/cut.err"
status=$?
# The samples whole before the cut (the plugin's records start at 64 KiB:
# perf_event_header, u32 type, u16 misc, u16 size).
want=$(python3 -c '
import struct, sys
d = open(sys.argv[1], "rb").read()
off, n = 65536, 0
while off + 8 <= len(d):
    kind, size = struct.unpack_from("<I", d, off)[0], struct.unpack_from("<H", d, off + 6)[0]
    if size < 8 or off + size > len(d):
        break
    off += size
    n += kind == 9
print(n)' "$tmp/cut.perf")
# The part of a record after them is not kept: script reads the file
# without complaint.
"$rvperf" script -F ip,brstack -i "$tmp/cut.data" >"$tmp/cut.txt" 2>"$tmp/cut-script.err"
script_status=$?
got=$(grep -c . "$tmp/cut.txt")
[ $status -ne 0 ] && grep -q "ends early" "$tmp/cut.err" && [ "${want:-0}" -gt 10 ] &&
	[ "$got" = "$want" ] && [ $script_status -eq 0 ]
ok $? "a recording cut short: its $want whole samples kept, non-zero ($got; $(head -c 160 "$tmp/cut.err"))"
[ $? -eq 0 ] || diag "$(head -n 2 "$tmp/cut-script.err")"

# Interrupted, as perf record is (^C, or a kill of rvperf alone): rvperf
# passes the signal on to QEMU, which dies without the plugin's exit (no
# QEMU calls it then), and converts the samples the plugin wrote until
# then, their symbols found (the header, with where the program was
# loaded, is written when the program starts); its temporary trace is
# removed.  gcc's default build (a dynamically linked PIE), which would
# run for minutes; the signal comes once the trace has grown.
riscv64-linux-gnu-gcc -O2 -o "$tmp/branchy-pie" userspace/sample/branchy.c
mkdir "$tmp/tmpdir"
TMPDIR=$tmp/tmpdir "$rvperf" record -c 1000003 -o "$tmp/int.data" -- \
	"$tmp/branchy-pie" 100000000 >/dev/null 2>"$tmp/int.err" &
pid=$!
for _ in $(seq 300); do
	[ "$(cat "$tmp"/.int.data.rvperf-* 2>/dev/null | wc -c)" -gt 200000 ] && break
	sleep 0.1
done
kill -INT "$pid"
for _ in $(seq 300); do
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.1
done
kill -KILL "$pid" 2>/dev/null && pkill -KILL -f "branchy-pie 100000000"
wait "$pid"
got=$("$rvperf" script -F ip,sym -i "$tmp/int.data" 2>/dev/null | grep -c .)
named=$("$rvperf" script -F ip,sym -i "$tmp/int.data" 2>/dev/null |
	grep -cE ' (hot_loop|op_[a-z]+)$')
grep -q "killed by signal 2" "$tmp/int.err" && [ "$got" -gt 100 ] &&
	[ "$named" -gt $((got * 9 / 10)) ] && [ -z "$(ls -A "$tmp/tmpdir")" ] &&
	! ls "$tmp"/.int.data.rvperf-* >/dev/null 2>&1
ok $? "interrupted: the samples so far kept ($named of $got in branchy's functions), the temporary files gone ($(head -c 200 "$tmp/int.err" | tr '\n' ' '))"

# The recording is renamed into -o at the end; an output that is not a
# regular file is written into instead, never replaced (-o /dev/null run
# as root must leave the device be): a FIFO and a symlink stand in for it.
mkfifo "$tmp/fifo"
# (A recording that replaced the FIFO leaves its reader waiting: it gives
# up after a while.)
timeout 30 cat "$tmp/fifo" >"$tmp/from-fifo" &
reader=$!
"$rvperf" record -o "$tmp/fifo" -- "$tmp/branchy-c" 300 >/dev/null 2>&1
fifo_status=$?
wait "$reader"
ln -s "$tmp/target.data" "$tmp/link.data"
"$rvperf" record -o "$tmp/link.data" -- "$tmp/branchy-c" 300 >/dev/null 2>&1
[ $fifo_status -eq 0 ] && [ -p "$tmp/fifo" ] && [ -L "$tmp/link.data" ] &&
	"$rvperf" script -F ip -i "$tmp/from-fifo" 2>/dev/null | grep -q . &&
	"$rvperf" script -F ip -i "$tmp/target.data" 2>/dev/null | grep -q . &&
	[ -z "$(find "$tmp" -maxdepth 1 -name '.*rvperf-*')" ]
ok $? "-o a FIFO or a symlink: written through, not replaced, no temporary file left"

# --whole-stacks turns the gate off (the plugin's gate=off): what QEMU is
# given, seen through a stand-in that keeps its arguments.
printf '#!/bin/sh\necho "$@" >"%s"\nexit 1\n' "$tmp/qemu-args" >"$tmp/fake-qemu"
chmod +x "$tmp/fake-qemu"
"$rvperf" record --qemu "$tmp/fake-qemu" -o "$tmp/w.data" -- "$tmp/known" >/dev/null 2>&1
without=$(cat "$tmp/qemu-args" 2>/dev/null)
"$rvperf" record --whole-stacks --qemu "$tmp/fake-qemu" -o "$tmp/w.data" -- "$tmp/known" >/dev/null 2>&1
with=$(cat "$tmp/qemu-args" 2>/dev/null)
[[ $with =~ ,gate=off && $without =~ librvperf-ctr && ! $without =~ gate= ]]
ok $? "--whole-stacks gives the plugin gate=off, and only then"
tap_done
