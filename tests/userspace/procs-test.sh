#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# rvperf record on real processes (tests/userspace/procs/): a dynamically
# linked PIE (gcc's default) with its loader and libc, a static PIE, a
# static program; a fork (both processes' samples, each under its own pid,
# as perf 6.12 reads them too) and an exec (not followed: said so, the
# samples before it kept); rvperf report naming the program's and libc's
# hot functions, rvperf autofdo a non-empty profile of the PIE; the report
# on an interpreter (interp.c): its dispatch on top of the indirect
# transfers, natural loops (left by returns, and a shared epilogue reached
# backwards that is none), self overhead by function and line, the
# annotated hottest function, the same numbers in the HTML page.
set -u
. tests/tap.sh
O=${O:-build}
rvperf=$O/userspace/rvperf
src=tests/userspace/procs
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# rvperf record keeps its trace in TMPDIR: one of its own, so that the
# check below sees this test's files and not those of a record running beside it.
mkdir "$tmp/tmpdir"
export TMPDIR=$tmp/tmpdir
cc=riscv64-linux-gnu-gcc
if ! command -v $cc >/dev/null || ! command -v qemu-riscv64 >/dev/null ||
   [ ! -d /usr/riscv64-linux-gnu/lib ]; then
	echo "1..0 # SKIP riscv64 cross gcc, libc or qemu-riscv64 missing (make deps)"
	exit 0
fi
# perf 6.12 names code after RISC-V mapping symbols ($x...): without them
# its names are comparable with ours.
nomap() { riscv64-linux-gnu-objcopy -w --strip-symbol='$x*' --strip-symbol='$d*' "$1" "$1.n" && mv "$1.n" "$1"; }
$cc -O2 -g -o "$tmp/procs" $src/procs.c -ldl && nomap "$tmp/procs" &&
	$cc -O2 -g -o "$tmp/interp" $src/interp.c &&
	$cc -O2 -g -pthread -o "$tmp/threads" $src/threads.c && nomap "$tmp/threads" &&
	$cc -O2 -g -static -o "$tmp/procs-static" $src/procs.c 2>"$tmp/static.warn" &&
	$cc -O2 -g -fPIE -nostdlib -Wl,-pie -Wl,--no-dynamic-linker \
		-o "$tmp/spie" $src/spie.c
ok $? "build the dynamically linked PIE, the static program and the static PIE"
readelf -h "$tmp/procs" | grep -q 'DYN' && readelf -l "$tmp/procs" | grep -q 'INTERP'
ok $? "gcc's default is a dynamically linked PIE"

cd "$tmp" || exit 1
rec() { # rec OUT PROG ARGS...: record from $tmp with a relative program path
	local out=$1; shift
	"$OLDPWD/$rvperf" record -o "$out" -- "$@" >"$out.stdout" 2>"$out.err"
}
rvp() { "$OLDPWD/$rvperf" "$@"; }
rec dyn.data ./procs
ok $? "record the dynamically linked PIE"
grep -q 'ends early' dyn.data.err; ok $((!$?)) "its trace is whole"
rvp script -i dyn.data -F ip,sym,dso >dyn.sym
dsos=$(grep -o '([^)]*)$' dyn.sym | sort -u | tr '\n' ' ')
for want in "($tmp/procs)" "(/usr/riscv64-linux-gnu/lib/libc.so.6)" \
	    "(/usr/riscv64-linux-gnu/lib/ld-linux-riscv64-lp64d.so.1)"; do
	case " $dsos " in *" $want "*) ok 0 "samples in $want";;
	*) ok 1 "samples in $want (have: $dsos)";; esac
done
# The share of samples in each function: mix ~ 14M of the ~96M
# instructions, the sort's compares and copies most of the rest.
for f in mix cmp main memcpy; do
	grep -q " $f (" dyn.sym
	ok $? "samples named $f"
done
rvp report -i dyn.data --top 10 >dyn.rep 2>dyn.rep.err
ok $? "rvperf report"
section() { awk -v s="## $1" 'index($0, s) == 1 {on=1; next} /^## / {on=0} on && NF' dyn.rep; }
section 'Hottest branch edges' | grep -Eq 'mix\+0x[0-9a-f]+ +-> mix\+0x[0-9a-f]+ +COND$'
ok $? "the report's hot edges: mix's loop"
section 'Hottest branch edges' | grep -Eq 'cmp\+0x[0-9a-f]+ +-> .* RET$' &&
	section 'Hottest branch edges' | grep -Eq ' -> cmp\+0x0 +IND_CALL$'
ok $? "the report's hot edges: libc calling cmp, cmp returning"
section 'Hottest branch edges' | grep -Eq 'memcpy\+0x[0-9a-f]+ +-> memcpy\+'
ok $? "the report's hot edges: libc's memcpy"
# Unnamed in the program: none (.plt stubs are name@plt, as perf names
# them).
n=$(grep -c "\[unknown\] ($tmp/procs)" dyn.sym)
[ "$n" -eq 0 ]
ok $? "no sample in the program is unnamed ($n; .plt stubs are name@plt)"
diag "$(grep "\[unknown\] ($tmp/procs)" dyn.sym | sort | uniq -c | head -3)"

perf612=$("$OLDPWD/tests/userspace/perf612.sh" 2>/dev/null)
# perf 6.12 takes RISC-V's 32-byte .plt header for a 16-byte one and names
# each stub after the next relocation's symbol; rvperf names them as
# objdump does (syms-test.sh checks them): compared with the stubs' names
# set aside on both sides.
plt_unknown() { sed -E 's/ (\.plt|[^ ]+@plt)(\+0x[0-9a-f]+)? \(/ [unknown] (/'; }
if [ -n "$perf612" ]; then
	"$perf612" script -i dyn.data --show-mmap-events -F comm 2>/dev/null |
		grep PERF_RECORD_MMAP2 >dyn.mmap
	n=0
	for f in "$tmp/procs" /usr/riscv64-linux-gnu/lib/libc.so.6 \
		 /usr/riscv64-linux-gnu/lib/ld-linux-riscv64-lp64d.so.1; do
		id=$(readelf -n "$f" | awk '/Build ID/ {print $3}')
		grep -q "<$id>\]: r-xp $f\$" dyn.mmap && n=$((n + 1)) ||
			diag "no MMAP2 of $f with build id $id in: $(cat dyn.mmap)"
	done
	[ $n -eq 3 ]
	ok $? "perf 6.12 reads MMAP2 of the program, libc and the loader with absolute paths and build ids"
	f=pid,tid,time,period,ip,sym,symoff,dso
	"$perf612" script -i dyn.data -F $f 2>/dev/null |
		plt_unknown >dyn.perf
	rvp script -i dyn.data -F $f | plt_unknown >dyn.ours
	cmp -s dyn.perf dyn.ours
	ok $? "perf 6.12's script -F $f is ours, byte for byte (the .plt stubs' names aside)"
	diag "$(diff dyn.perf dyn.ours | head -4)"
else
	ok 0 "MMAP2 read by perf 6.12 # SKIP perf 6.12 not available (tests/userspace/perf612.sh)"
	ok 0 "perf 6.12's script # SKIP perf 6.12 not available"
fi

rvp autofdo -i dyn.data --elf procs -o dyn.afdo --dump >dyn.dump 2>dyn.afdo.err
ok $? "rvperf autofdo on the PIE"
grep -q '^mix:[1-9]' dyn.dump && grep -q '^cmp:[1-9]' dyn.dump
ok $? "its profile counts mix and cmp"
[ -s dyn.afdo ]
ok $? "and is written"
# Several recordings make one profile: the same file twice, every count
# twice (the counts are summed pairs, not stored stacks).
rvp autofdo -i dyn.data -i dyn.data --elf procs --dump >dyn2.dump 2>/dev/null
awk 'NR == FNR {a[FNR] = $0; next}
     { n = split(a[FNR], x, /[: ]+/); m = split($0, y, /[: ]+/)
       if (n != m) bad = 1
       # after the name, or after the offset of an indented line: counts
       for (k = (x[1] == "" ? 3 : 2); k <= n; k++)
           if (x[k] ~ /^[0-9]+$/ ? y[k] != 2 * x[k] : y[k] != x[k]) bad = 1 }
     END { exit bad || FNR < 3 }' dyn.dump dyn2.dump
ok $? "autofdo -i A -i A: one profile with every count doubled"

# fork: the child's samples under its own pid, named through the
# mappings it inherited.
rec fork.data ./procs fork
ok $? "record a program that forks"
rvp script -i fork.data -F pid,ip,sym >fork.sym
pids=$(awk '{print $1}' fork.sym | sort -u | wc -l)
[ "$pids" -eq 2 ]
ok $? "samples of two processes ($pids)"
parent=$(awk 'NR == 1 {print $1}' fork.sym)
child=$(awk -v p="$parent" '$1 != p {print $1; exit}' fork.sym)
grep -q "^ *$child .* child_work\$" fork.sym &&
	! grep -q "^ *$parent .* child_work\$" fork.sym
ok $? "child_work's samples are the child's ($child), not the parent's"
grep -q "^ *$parent .* mix\$" fork.sym && ! grep -q "^ *$child .* mix\$" fork.sym
ok $? "mix's samples are the parent's ($parent)"
nc=$(grep -c "^ *$child .* child_work\$" fork.sym)
# child_work(3000000): 3M iterations of 5 instructions, every 10007th sampled
[ "$nc" -ge 1400 ] && [ "$nc" -le 1600 ]
ok $? "the child has the samples its work makes ($nc of about 1500)"
if [ -n "$perf612" ]; then
	f=pid,tid,time,ip,sym,dso
	"$perf612" script -i fork.data -F $f 2>/dev/null |
		plt_unknown >fork.perf
	rvp script -i fork.data -F $f | plt_unknown >fork.ours
	cmp -s fork.perf fork.ours
	ok $? "perf 6.12 reads both processes as we do (FORK: the child inherits the mappings)"
	diag "$(diff fork.perf fork.ours | head -4)"
else
	ok 0 "perf 6.12 on the fork # SKIP perf 6.12 not available"
fi
ls "$TMPDIR"/rvperf-trace-* 2>/dev/null | grep -q .
ok $((!$?)) "no trace file left behind (in TMPDIR)"

# dlopen: a library mapped after start-up is named too.
rec dl.data ./procs dlopen
ok $? "record a program that dlopen()s libm"
rvp script -i dl.data -F ip,sym,dso | grep -q ' (/usr/riscv64-linux-gnu/lib/libm.so.6)$'
ok $? "samples in libm.so.6, mapped by dlopen after start-up"

# threads: each its samples under its tid, its time going on from its
# creator's, so the file is in the order perf sorts it into.
rec thr.data ./threads
ok $? "record a program with three threads"
rvp script -i thr.data -F pid,tid,ip,sym >thr.sym
counts=$(awk '$NF == "work" {split($1, id, "/"); n[id[2]]++} END {for (t in n) print n[t]}' thr.sym |
	sort -n | tr '\n' ' ')
# work(n): 0.5 M iterations in the main thread, 1, 2 and 3 M in the
# others: samples in proportion 1 : 2 : 4 : 6
echo "$counts" | awk '{ exit !(NF == 4 && $2 > 1.8 * $1 && $3 > 1.8 * $2 && $4 > 1.3 * $3) }'
ok $? "four threads' samples of work, in proportion to their work ($counts)"
# The same threads one after another: each takes the vCPU index the one
# before left (qemu-user reuses them), and must still be a thread of its
# own, under its tid.
rec thr-seq.data ./threads seq
ok $? "record the threads one after another"
rvp script -i thr-seq.data -F pid,tid,ip,sym >thr-seq.sym
counts=$(awk '$NF == "work" {split($1, id, "/"); n[id[2]]++} END {for (t in n) print n[t]}' thr-seq.sym |
	sort -n | tr '\n' ' ')
echo "$counts" | awk '{ exit !(NF == 4 && $2 > 1.8 * $1 && $3 > 1.8 * $2 && $4 > 1.3 * $3) }'
ok $? "one after another, on a reused vCPU index: still four threads' samples in proportion ($counts)"
awk '{split($1, id, "/"); print id[1]}' thr.sym | sort -u | wc -l | grep -qx 1
ok $? "all under one pid"
if [ -n "$perf612" ]; then
	f=pid,tid,time,ip,sym,dso
	"$perf612" script -i thr.data -F $f 2>/dev/null |
		plt_unknown >thr.perf
	rvp script -i thr.data -F $f | plt_unknown >thr.ours
	cmp -s thr.perf thr.ours
	ok $? "perf 6.12 prints the threads' samples in our order (time order)"
else
	ok 0 "perf 6.12 on threads # SKIP perf 6.12 not available"
fi

# exec: qemu-user hands execve to the host kernel, which runs a host
# program natively (and a riscv64 one only through binfmt_misc, without
# the plugin): the trace ends there, and record says so.
rec exec.data ./procs exec /bin/true
ok $? "record a program that execs (status 0)"
grep -q 'ran execve: the new image is not followed' exec.data.err
ok $? "record says the exec is not followed"
rvp script -i exec.data -F ip,sym | grep -q ' mix$'
ok $? "the samples before the exec are kept"

# The report of an interpreter.
rec interp.data ./interp
ok $? "record the interpreter"
rvp report -i interp.data --top 12 >interp.rep 2>&1
rvp report -i interp.data --top 12 --html interp.html 2>&1
isec() { awk -v s="## $1" 'index($0, s) == 1 {on=1; next} /^## / {on=0} on && NF' interp.rep; }
top=$(isec 'Indirect jumps and calls' | sed -n 2p)
ntargets=$(echo "$top" | awk '{print $3}')
echo "$top" | grep -Eq '^ *[0-9]+ +[0-9.]+% +[0-9]+  run\+0x[0-9a-f]+ IND: run\+' &&
	[ "${ntargets:-0}" -ge 10 ]
ok $? "the dispatch (run's indirect jump, ${ntargets:-no} targets) tops the indirect transfers"
diag "$top"
loops=$(isec 'Hot loops')
echo "$loops" | awk '$NF ~ /interp.c/ && / -> run\+/ && $4 >= 1 {f=1} END {exit !f}'
ok $? "run's dispatch loop is found, left by a return (HALT)"
trips=$(echo "$loops" | awk '/ -> find\+/ {print $3}')
# find(a, 16, i & 31): keys 0-15 found after key + 1 iterations, 16-31
# after 16: 12.25 per entry
awk -v t="${trips:-0}" 'BEGIN { exit !(t >= 10 && t <= 14.5) }'
ok $? "find's loop, left by a break or by running out: ${trips:-no} iterations per entry (12.25)"
echo "$loops" | awk '/ -> find\+/ && $2 > 0 && $2 == $4 + $5 + $6 {f=1} END {exit !f}'
ok $? "its exits are counted by way (return + jump + fall = exits)"
rvp report -i interp.data --top 40 >interp40.rep 2>&1
grep -Eq 'shared_tail\+0x[0-9a-f]+ +-> shared_tail\+0x2 +(COND|UNCOND)$' interp40.rep &&
	! awk '/^## Hot loops/ {on=1; next} /^## / {on=0} on' interp40.rep | grep -q shared_tail
ok $? "a backward jump to a shared epilogue is no loop"
isec 'Hottest branch edges' | grep -A1 -E '^ +[0-9]+ .* find\+0x[0-9a-f]+ +-> find\+' | sed -n 2p |
	grep -Eq '^ +interp\.c:[0-9]+ +-> interp\.c:[0-9]+$'
ok $? "hot edges carry their source lines (find's loop: interp.c)"
grep -Eq '<td class="sym">interp\.c:[0-9]+ &rarr; interp\.c:[0-9]+</td>' interp.html
ok $? "and so do the HTML page's"
isec 'Self overhead by function' | sed -n 2p | grep -Eq '%  run$'
ok $? "self overhead by function: run on top"
isec 'Self overhead by source line' | sed -n 2p | grep -Eq '%  .*interp\.c:[0-9]+ \(run\)$'
ok $? "self overhead by source line: a line of run on top"
ann=$(isec 'Annotated: run')
echo "$ann" | grep -Eq '^  .*interp\.c:[0-9]+$' &&
	echo "$ann" | grep -Eq '^ +[0-9]+  run\+0x' &&
	echo "$ann" | grep -Eq 'jalr|c\.jr' && echo "$ann" | grep -q ' IND'
ok $? "the annotated view: run's source lines, instructions with samples, the dispatch's records"
echo "$ann" | grep -Eq '^ +\.\.\. [0-9]+ instructions without samples or records$' &&
	grep -q 'instructions without samples or records</td>' interp.html
ok $? "the annotation shows hot source lines whole and counts the rest (text and HTML alike)"
grep -q '<a href="#annotated"><g class="fn[^"]*"><title>run:' interp.html
ok $? "the HTML graph's box of the annotated function leads to its annotation"
cnt=$(echo "$top" | awk '{print $1}')
grep -q "<h2>Indirect jumps and calls</h2>" interp.html &&
	grep -q "<tr><td>$cnt</td>" interp.html && grep -q 'id="annotated"' interp.html &&
	grep -q "<h2>Self overhead by source line</h2>" interp.html
ok $? "the HTML page has the same tables (the dispatch's $cnt records, the annotation)"

# AutoFDO for clang: LLVM's text sample profile of the interpreter built
# by clang (no .debug_aranges, DWARF 5), read by llvm-profdata, used by
# clang -fprofile-sample-use; the profiled build measured against the
# plain one on the same input (the plugin's counts of a deterministic run).
if command -v clang >/dev/null && command -v llvm-profdata >/dev/null; then
	ccl="clang --target=riscv64-linux-gnu -O2 -g"
	$ccl -o interp-clang "$OLDPWD/$src/interp.c"
	rec ic.data ./interp-clang
	rvp autofdo -i ic.data --elf interp-clang --format llvm -o ic.prof 2>ic.err
	ok $? "rvperf autofdo --format llvm on clang's build"
	llvm-profdata show --sample --function=run ic.prof >ic.show 2>&1 &&
		awk '/Function: run:/ && $5 > 5 {f=1} END {exit !f}' ic.show
	ok $? "llvm-profdata reads it: run has sampled lines ($(grep 'Function: run' ic.show))"
	$ccl -fprofile-sample-use=ic.prof -o interp-clang-fdo "$OLDPWD/$src/interp.c" 2>ic.cc
	ok $? "clang -fprofile-sample-use takes it"
	riscv64-linux-gnu-objdump -d --no-show-raw-insn interp-clang | grep -v 'file format' >plain.s
	riscv64-linux-gnu-objdump -d --no-show-raw-insn interp-clang-fdo | grep -v 'file format' >fdo.s
	! cmp -s plain.s fdo.s
	ok $? "and the code it makes changes"
	rec icf.data ./interp-clang-fdo
	counts() { sed -n 's/.*samples, \([0-9]*\) instructions, \([0-9]*\) transfers.*/\1 \2/p' "$1"; }
	read -r pi pt < <(counts ic.data.err)
	read -r fi ft < <(counts icf.data.err)
	diag "plain -O2: $pi instructions, $pt transfers; with the profile: $fi, $ft"
	[ -n "$fi" ] && [ -n "$pi" ] && { [ "$fi" -lt "$pi" ] || [ "$ft" -lt "$pt" ]; }
	ok $? "the profiled build retires fewer instructions or takes fewer branches ($fi/$ft against $pi/$pt)"
else
	for t in 1 2 3 4 5; do ok 0 "AutoFDO for clang # SKIP clang or llvm-profdata missing"; done
fi

rec static.data ./procs-static
ok $? "record the static program"
rvp script -i static.data -F ip,sym | grep -q ' mix$'
ok $? "its samples are named"
rec spie.data ./spie
ok $? "record the static PIE"
rvp report -i spie.data --top 1 | grep -Eq 'mix\+0x[0-9a-f]+ +-> mix\+0x'
ok $? "its hot loop is named (bias without a loader)"
tap_done; exit $?
