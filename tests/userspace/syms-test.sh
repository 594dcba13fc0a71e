#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Every address named (issue 38): on tests/userspace/syms/syms.c, a
# dynamically linked PIE built with gcc's defaults, recorded by rvperf:
# - .plt stubs named name@plt at the addresses objdump gives them (both
#   symbol tables: report's and script's), the report's call edges into
#   them, the header ".plt";
# - source-line rows attributed as addr2line -i attributes each sample's
#   address: the innermost function first, then the ones it is inlined in
#   (match_len's loop, inlined into find_long and find_short, is two rows);
# - one warning line per binary whose addresses cannot all be named (a
#   stripped copy: what is missing and where its debug file was looked for;
#   files missing under --symfs: the path not found);
# - a stripped binary's debug file fetched from Debian's debuginfod server,
#   started here on a free loopback port and stopped at the end, when
#   DEBUGINFOD_URLS names it.
set -u
. tests/tap.sh
O=${O:-build}
top=$PWD
rvperf=$top/$O/userspace/rvperf
dump=$top/$O/tests/userspace/elf-syms-dump
cc=riscv64-linux-gnu-gcc
if ! command -v $cc >/dev/null || [ ! -d /usr/riscv64-linux-gnu/lib ]; then
	echo "1..0 # SKIP riscv64 cross gcc or libc missing (make deps)"
	exit 0
fi
tmp=$(mktemp -d)
server=
cleanup() {
	if [ -n "$server" ]; then
		kill "$server" 2>/dev/null
		wait "$server" 2>/dev/null
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
mkdir "$tmp/tmpdir"
export TMPDIR=$tmp/tmpdir
unset DEBUGINFOD_URLS
prog=$tmp/syms
objdump=riscv64-linux-gnu-objdump

$cc -O2 -g -o "$prog" tests/userspace/syms/syms.c
ok $? "build the program (dynamically linked, gcc's defaults, -O2 -g)"
readelf -l "$prog" | grep -q INTERP
ok $? "it is dynamically linked"

# ---- .plt stubs, against objdump: the program's, and libc's (a shared
# library's; objdump names its header after the first stub, less 0x20)
libc=/usr/riscv64-linux-gnu/lib/libc.so.6
for elf in "$prog" "$libc"; do
	$objdump -d -j .plt "$elf" |
		sed -nE 's/^0*([0-9a-f]+) <(.*)>:$/\1 \2/p' |
		sed -E 's/ [^ ]+@plt-0x20$/ .plt/' >"$tmp/plt.objdump"
	[ "$elf" = "$prog" ] && cp "$tmp/plt.objdump" "$tmp/plt.prog"
	n=$(grep -c '@plt$' "$tmp/plt.objdump")
	[ "$n" -ge 4 ] && grep -q ' \.plt$' "$tmp/plt.objdump"
	ok $? "objdump shows $(basename "$elf")'s .plt header and stubs ($n)"
	for v in "" --perf; do
		$dump $v "$elf" >"$tmp/table$v" 2>"$tmp/dump.err"
		bad=0
		while read -r addr name; do
			size=10
			[ "$name" = .plt ] && size=20
			grep -qx "$addr $size $name" "$tmp/table$v" ||
				{ bad=1; diag "no '$addr $size $name' in: $(grep plt "$tmp/table$v" | head -5)"; }
		done <"$tmp/plt.objdump"
		ok $bad "$(basename "$elf"), elf_syms_load${v:+_perf}: every .plt stub named as objdump names it (header .plt, 32 bytes; stubs, 16 bytes)"
	done
done

# ---- a mapped file that is not there: one line; perf's made-up mappings
# ([vdso] and the like, which no file is behind): none
gen=$top/$O/tests/userspace/gen-perfdata
for name in /nonexistent/prog "[vdso]"; do
	"$gen" "$tmp/gen.data" "$name" &&
		"$rvperf" report -i "$tmp/gen.data" 2>"$tmp/gen.rep.err" >/dev/null &&
		"$rvperf" script -i "$tmp/gen.data" -F ip,sym 2>"$tmp/gen.script.err" >/dev/null
	ok $? "report and script on samples in $name"
	if [ "$name" = "[vdso]" ]; then
		[ ! -s "$tmp/gen.rep.err" ] && [ ! -s "$tmp/gen.script.err" ]
		ok $? "no warning about $name"
	else
		[ "$(cat "$tmp/gen.rep.err")" = "rvperf report: warning: $name: No such file or directory (its addresses stay unnamed)" ] &&
			[ "$(cat "$tmp/gen.script.err")" = "rvperf script: warning: $name: No such file or directory (its addresses stay [unknown])" ]
		ok $? "one line each from report and script: $name not found" ||
			diag "$(cat "$tmp/gen.rep.err" "$tmp/gen.script.err")"
	fi
done

# Every 1009 instructions: memcmp@plt's three instructions are about 0.1 %
# of what syms.c runs, and samples lie at the instruction where the period
# ran out, so the default period left it about 3 of 3,500 samples (none in
# some environments); here about 55.
if ! command -v qemu-riscv64 >/dev/null ||
   ! "$rvperf" record -c 1009 -o "$tmp/s.data" -- "$prog" >/dev/null 2>"$tmp/rec.err"; then
	diag "$(tail -2 "$tmp/rec.err" 2>/dev/null)"
	ok 0 "record # SKIP qemu-riscv64 or the CTR plugin missing"
	tap_done; exit $?
fi
ok 0 "record the program"
"$rvperf" report -i "$tmp/s.data" --top 30 >"$tmp/rep" 2>"$tmp/rep.err"
ok $? "report"
section() { awk -v s="## $1" 'index($0, s) == 1 {on=1; next} /^## / {on=0} on && NF' "$2"; }
section 'Call edges' "$tmp/rep" | grep -q ' compare -> memcmp@plt$' &&
	section 'Call edges' "$tmp/rep" | grep -q ' compare -> strlen@plt$'
ok $? "the report's call edges go to memcmp@plt and strlen@plt" ||
	diag "$(section 'Call edges' "$tmp/rep" | head -5)"
"$rvperf" script -i "$tmp/s.data" -F ip,sym,symoff,dso >"$tmp/script" 2>/dev/null
grep -q ' memcmp@plt+0x[0-9a-f]* (' "$tmp/script"
ok $? "script names samples in memcmp@plt"
"$rvperf" script -i "$tmp/s.data" -F ip,sym 2>&1 >/dev/null |
	grep -c '^rvperf script: warning: /usr/riscv64-linux-gnu/lib/libc.so.6: no symbol table' |
	grep -qx 1
ok $? "script: one warning line for libc (no symbol table, no debug file)"

# ---- source lines, as addr2line -i attributes each sample's address
# The program's samples at link-time addresses (the load bias from a
# sample in main: its address less main's from nm, plus its offset), each
# through addr2line -f -i.
riscv64-linux-gnu-nm "$prog" | awk '$3 == "main" {print $1}' >"$tmp/main"
awk -v p="($prog)" '$NF == p {print $1, $2}' "$tmp/script" |
	python3 -c '
import sys
main = int(open(sys.argv[1]).read(), 16)
s = [l.split() for l in sys.stdin]
ip, at = next((int(a, 16), b) for a, b in s if b.startswith("main+"))
bias = ip - main - int(at.split("+")[1], 16)
open(sys.argv[2], "w").write("%d\n" % bias)
for a, _ in s:
    print(hex(int(a, 16) - bias))' "$tmp/main" "$tmp/bias" >"$tmp/ips"
n=$(wc -l <"$tmp/ips")
[ "$n" -gt 1000 ]
ok $? "samples in the program ($n)"
riscv64-linux-gnu-addr2line -a -f -i -e "$prog" <"$tmp/ips" >"$tmp/a2l"
# What addr2line -i makes of them: samples per (file:line, the innermost
# function, then each it is inlined in), against the report's rows.
python3 - "$tmp/a2l" "$tmp/rep" >"$tmp/lines.cmp" <<'PY'
import collections, os, re, sys
rows = collections.Counter()
cur = None
def flush(frames):
    if not frames:
        return
    fn, pos = frames[0]
    f, line = pos.split(" (")[0].rsplit(":", 1)
    label = ", inlined in ".join(fr[0] for fr in frames)
    rows[(os.path.basename(f), int(line), label)] += 1
frames = []
lines = open(sys.argv[1]).read().split("\n")
i = 0
while i < len(lines):
    l = lines[i]
    if l.startswith("0x"):
        flush(frames); frames = []; i += 1; continue
    if l and i + 1 < len(lines):
        frames.append((l, lines[i + 1])); i += 2; continue
    i += 1
flush(frames)
ours = {}
on = False
for l in open(sys.argv[2]):
    if l.startswith("## "):
        on = l.startswith("## Self overhead by source line"); continue
    m = re.match(r"\s*(\d+)\s+\S+%\s+(\S+):(\d+) \((.*)\)$", l) if on else None
    if m:
        ours[(os.path.basename(m.group(2)), int(m.group(3)), m.group(4))] = int(m.group(1))
bad = 0
for key, n in [r for r in rows.most_common() if r[0][0] != "??"][:6]:
    have = ours.get(key)
    print("%s %s:%d (%s): addr2line -i %d, report %s" % ("ok" if have == n else "BAD", key[0], key[1], key[2], n, have))
    bad |= have != n
inl = [k for k in ours if ", inlined in " in k[2]]
print("inlined rows:", len(inl))
sys.exit(1 if bad or len(inl) < 2 else 0)
PY
ok $? "the hottest source-line rows are addr2line -i's, samples and names" ||
	diag "$(cat "$tmp/lines.cmp")"
grep -q 'syms.c:[0-9]* (match_len, inlined in find_long)$' "$tmp/rep" &&
	grep -q 'syms.c:[0-9]* (match_len, inlined in find_short)$' "$tmp/rep"
ok $? "match_len's loop: one row inlined in find_long, one in find_short"
[ ! -s "$tmp/rep.err" ] || ! grep -q "$prog" "$tmp/rep.err"
ok $? "no warning about the program (symbols and debug information)"

# perf 6.12 on the same samples: it takes RISC-V's 32-byte .plt header for
# a 16-byte one (sh_entsize), so the stub objdump names X@plt it names
# after the next relocation, the stub 16 bytes further on (README, elf/).
perf612=$(tests/userspace/perf612.sh 2>/dev/null)
if [ -n "$perf612" ]; then
	"$perf612" script -i "$tmp/s.data" -F ip,sym,dso 2>/dev/null |
		awk -v p="($prog)" '$NF == p && $2 ~ /@plt$/ {print $1, $2}' |
		sort -u | python3 -c '
import sys
bias = int(open(sys.argv[1]).read())
names = dict((int(a, 16), n) for a, n in (l.split() for l in open(sys.argv[2])))
bad = n = 0
for l in sys.stdin:
    ip, name = l.split()
    at = int(ip, 16) - bias
    # a sample lies anywhere in its stub: objdump names the stub start
    stub = max([a for a in names if a <= at] or [at])
    n += 1
    if names.get(stub + 16) != name or not names.get(stub, "").endswith("@plt"):
        bad = 1
        print("perf 6.12 names 0x%x %s; objdump: 0x%x %s, 0x%x %s" % (at, name, stub, names.get(stub), stub + 16, names.get(stub + 16)))
sys.exit(bad or n == 0)' "$tmp/bias" "$tmp/plt.prog" >"$tmp/perf612.cmp"
	ok $? "perf 6.12 names each stub after the next one, as README says (ours: objdump's)" ||
		diag "$(cat "$tmp/perf612.cmp")"
else
	ok 0 "perf 6.12's .plt names # SKIP perf 6.12 not available (tests/userspace/perf612.sh)"
fi

# ---- warnings: a stripped copy where the recording says the program is,
# under --symfs (libc and the loader are not there)
sfs=$tmp/symfs
mkdir -p "$sfs$(dirname "$prog")"
riscv64-linux-gnu-strip --strip-all -o "$sfs$prog" "$prog"
id=$(readelf -n "$prog" | awk '/Build ID/ {print $3}')
"$rvperf" report -i "$tmp/s.data" --symfs "$sfs" --top 30 >"$tmp/rep.s" 2>"$tmp/rep.s.err"
ok $? "report with a stripped program under --symfs"
n=$(grep -c "^rvperf report: warning: $sfs$prog: no symbol table and no debug information" "$tmp/rep.s.err")
w=$(grep "$sfs$prog" "$tmp/rep.s.err")
[ "$n" -eq 1 ] && [ "$(grep -c "$sfs$prog" "$tmp/rep.s.err")" -eq 1 ] &&
	case $w in *"/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug"*"$sfs$(dirname "$prog")/.debug/syms.debug"*) true;; *) false;; esac
ok $? "one warning line for the stripped program, naming where its debug file was looked for" ||
	diag "$(cat "$tmp/rep.s.err")"
for f in /usr/riscv64-linux-gnu/lib/libc.so.6 \
	 /usr/riscv64-linux-gnu/lib/ld-linux-riscv64-lp64d.so.1; do
	[ "$(grep -c "^rvperf report: warning: $sfs$f: No such file or directory" "$tmp/rep.s.err")" -eq 1 ]
	ok $? "--symfs: one line for $(basename "$f"), not found there"
done
"$rvperf" report -i "$tmp/s.data" --top 30 2>&1 >/dev/null |
	grep -c '^rvperf report: warning: /usr/riscv64-linux-gnu/lib/libc.so.6: no symbol table' |
	grep -qx 1
ok $? "libc without a debug file: one warning line"

# ---- debuginfod: the stripped program's debug file from a server
if ! command -v debuginfod >/dev/null; then
	ok 0 "debuginfod # SKIP Debian's debuginfod is not installed (make deps)"
	tap_done; exit $?
fi
mkdir "$tmp/served"
riscv64-linux-gnu-objcopy --only-keep-debug "$prog" "$tmp/served/syms.debug"
# A free port (debuginfod 0.188 has no option to listen on loopback alone:
# it listens on every interface; it serves one debug file, for the time
# of this test, and is asked at 127.0.0.1).
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
debuginfod -F -p "$port" -d "$tmp/debuginfod.sqlite" -t 0 -g 0 \
	"$tmp/served" >"$tmp/debuginfod.log" 2>&1 &
server=$!
up=1
for _ in $(seq 100); do	# at most 20 s for its first scan
	if python3 -c 'import sys, urllib.request
urllib.request.urlopen(sys.argv[1], timeout=5).read()' \
		"http://127.0.0.1:$port/buildid/$id/debuginfo" 2>/dev/null; then
		up=0
		break
	fi
	kill -0 "$server" 2>/dev/null || break
	sleep 0.2
done
ok $up "debuginfod serves the debug file on 127.0.0.1:$port" ||
	diag "$(tail -5 "$tmp/debuginfod.log")"
DEBUGINFOD_URLS=http://127.0.0.1:$port DEBUGINFOD_CACHE_PATH=$tmp/cache \
	DEBUGINFOD_TIMEOUT=10 timeout 60 \
	"$rvperf" report -i "$tmp/s.data" --symfs "$sfs" --top 30 >"$tmp/rep.d" 2>"$tmp/rep.d.err"
ok $? "report with DEBUGINFOD_URLS"
section 'Self overhead by function' "$tmp/rep.d" | grep -q ' find_long$' &&
	grep -q 'syms.c:[0-9]* (match_len, inlined in find_long)$' "$tmp/rep.d" &&
	! grep -q "$sfs$prog" "$tmp/rep.d.err"
ok $? "the stripped program's functions, lines and inline chains come from debuginfod, no warning about it" ||
	diag "$(section 'Self overhead by function' "$tmp/rep.d" | head -3; cat "$tmp/rep.d.err")"
! section 'Self overhead by function' "$tmp/rep.s" | grep -q ' find_long$'
ok $? "without DEBUGINFOD_URLS the same report has no find_long"
grep -q "$sfs$prog: .*debuginfod at http://127.0.0.1:$port" <(
	DEBUGINFOD_URLS=http://127.0.0.1:$((port == 65535 ? 1 : port + 1)) \
	DEBUGINFOD_CACHE_PATH=$tmp/cache2 DEBUGINFOD_TIMEOUT=5 timeout 60 \
	"$rvperf" report -i "$tmp/s.data" --symfs "$sfs" --top 3 2>&1 >/dev/null |
	sed "s/:$((port == 65535 ? 1 : port + 1))/:$port/")
ok $? "a server that does not answer: the warning names the debuginfod URL asked"
# libdwfl asks debuginfod only through libdebuginfod.so.1: one it cannot use
# (a stand-in without its functions, found first) is said, not a URL.
mkdir "$tmp/fakelib"
echo 'int not_debuginfod;' >"$tmp/fakelib/f.c"
gcc -shared -fPIC -o "$tmp/fakelib/libdebuginfod.so.1" "$tmp/fakelib/f.c" &&
	DEBUGINFOD_URLS=http://127.0.0.1:$port DEBUGINFOD_CACHE_PATH=$tmp/cache3 \
	LD_LIBRARY_PATH=$tmp/fakelib timeout 60 \
	"$rvperf" report -i "$tmp/s.data" --symfs "$sfs" --top 3 2>&1 >/dev/null |
	grep "$sfs$prog: " | grep -q 'not from debuginfod: libdebuginfod.so.1 not loaded'
ok $? "without a usable libdebuginfod.so.1 the warning says so"
kill "$server" && wait "$server" 2>/dev/null
server=
ok 0 "debuginfod stopped"
tap_done; exit $?
