#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# rvperf on real programs built from Debian's sources (pinned in
# tests/userspace/realprogs/pins.txt, built by realprogs/build.sh into the
# cache): the Lua 5.4 interpreter running a script and bzip2 compressing a
# file, each as a dynamically linked PIE and as a static program.  The
# report names their hot functions (perf 6.12's report of the same file
# gives the program's functions the same shares), puts Lua's bytecode
# dispatch on top of the indirect transfers, and AutoFDO profiles them.
set -u
. tests/tap.sh
O=${O:-build}
rvperf=$(realpath "$O/userspace/rvperf")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! command -v riscv64-linux-gnu-gcc >/dev/null || ! command -v qemu-riscv64 >/dev/null; then
	echo "1..0 # SKIP riscv64 cross gcc or qemu-riscv64 missing (make deps)"
	exit 0
fi
if ! dir=$(tests/userspace/realprogs/build.sh 2>"$tmp/build.err"); then
	echo "1..0 # SKIP real programs not built: $(tail -n 1 "$tmp/build.err")"
	exit 0
fi
ok 0 "lua 5.4.4 and bzip2 1.0.8 from Debian's sources, PIE and static ($dir)"
perf612=$(tests/userspace/perf612.sh 2>/dev/null)
# perf 6.12 names code after RISC-V mapping symbols: copies without them.
for p in lua-pie lua-static bzip2-pie bzip2-static; do
	riscv64-linux-gnu-objcopy -w --strip-symbol='$x*' --strip-symbol='$d*' \
		"$dir/$p" "$tmp/$p"
done
cp tests/userspace/realprogs/bench.lua "$tmp/"
# Another input for each, for AutoFDO's effect beyond its training run.
cat >"$tmp/other.lua" <<'LUA'
local words, n = {}, 0
for i = 1, 30000 do
	local w = ("w" .. (i * 7919) % 1000)
	words[w] = (words[w] or 0) + 1
end
for _, c in pairs(words) do n = n + c end
local s = {}
for i = 1, 3000 do s[#s + 1] = tostring(i * i) end
print(n, #table.concat(s, ","))
LUA
cat "$(dirname "$dir")"/bzip2-1.0.8/*.c "$(dirname "$dir")"/bzip2-1.0.8/*.h | head -c 300000 >"$tmp/other.txt"
# bzip2's input: Lua's own sources, a few hundred kilobytes of text.
cat "$(dirname "$dir")"/lua-5.4.4/src/*.c | head -c 400000 >"$tmp/input.txt"
cd "$tmp" || exit 1

# self FILE: "name share" of the report's self-overhead table
self() { awk '/^## Self overhead by function/ {on=1; next} /^## / {on=0}
	on && /%/ {print $3, $2}' "$1"; }

for p in lua-pie lua-static bzip2-pie bzip2-static; do
	case $p in
	lua*) args="./$p bench.lua"; hot='luaV_execute';;
	*) args="./$p -9 -c input.txt"
	   hot='mainGtU|mainSort|mainQSort3|fallbackSort|BZ2_compressBlock|generateMTFValues|sendMTFValues|BZ2_blockSort|copy_input_until_stop|BZ2_hbMakeCodeLengths';;
	esac
	# shellcheck disable=SC2086
	"$rvperf" record -o $p.data -- $args >$p.out 2>$p.err
	ok $? "$p: recorded ($(tail -n 1 $p.err))"
	"$rvperf" report -i $p.data --top 12 >$p.rep 2>&1
	ok $? "$p: rvperf report"
	top3=$(self $p.rep | grep -v '^?' | head -3 | awk '{print $1}' | tr '\n' ' ')
	echo " $top3" | grep -Eq " ($hot) "
	ok $? "$p: the hottest functions are the program's own ($top3)"
	if [ "${p%-*}" = lua ]; then
		awk '/^## Indirect/ {on=1; next} /^## / {on=0} on && /%/' $p.rep | head -1 |
			awk '$4 ~ /^luaV_execute\+/ && $3 >= 10 {f=1} END {exit !f}'
		ok $? "$p: luaV_execute's dispatch tops the indirect transfers"
	fi
	if [ -n "$perf612" ] && [ "${p#*-}" = pie ]; then
		# perf's shares of the program's own functions, ours the same
		"$perf612" report -i $p.data --stdio --no-branch-stack --sort dso,sym -q \
			2>/dev/null | awk -v d="$p" '$2 == d && $1+0 >= 1.0 {print $4, $1}' |
			sed 's/%$//' >$p.perf
		"$rvperf" report -i $p.data --top 200 >$p.rep200 2>&1
		self $p.rep200 | sed 's/%$//' >$p.ours
		n=0; bad=""
		while read -r name share; do
			n=$((n + 1))
			grep -qx "$name $share" $p.ours || bad+=" $name:$share"
		done <$p.perf
		[ "$n" -ge 3 ] && [ -z "$bad" ]
		ok $? "$p: perf 6.12 gives the program's $n hottest functions the shares we do${bad:+ (differ:$bad)}"
	fi
	"$rvperf" autofdo -i $p.data --elf $p -o $p.afdo --dump >$p.dump 2>$p.afdo.err
	first=$(self $p.rep | grep -v '^?' | head -1 | awk '{print $1}')
	grep -q "^$first:[1-9]" $p.dump
	ok $? "$p: rvperf autofdo profiles $first"
done
# Several recordings, one report: Lua's and bzip2's, both programs at the
# PIE's usual base (one is moved above the other: neither takes the
# other's names) and libc at different addresses (one is moved onto the
# other: its code is counted once).
"$rvperf" report -i lua-pie.data -i bzip2-pie.data --top 1000 >merged.rep 2>&1
ok $? "rvperf report -i lua-pie.data -i bzip2-pie.data"
"$rvperf" report -i lua-pie.data --top 1000 >lua.rep1000 2>&1
"$rvperf" report -i bzip2-pie.data --top 1000 >bz.rep1000 2>&1
total() { sed -n 's/^# rvperf report: .*: \([0-9]*\) samples.*/\1/p' "$1"; }
[ "$(total merged.rep)" = $(( $(total lua.rep1000) + $(total bz.rep1000) )) ]
ok $? "merged: the samples of both ($(total merged.rep))"
# counts: "name samples" of the self-overhead table
counts_of() { awk '/^## Self overhead by function/ {on=1; next} /^## / {on=0}
	on && /%/ {print $3, $1}' "$1" | sort; }
counts_of merged.rep >merged.self
counts_of lua.rep1000 >lua.self
counts_of bz.rep1000 >bz.self
# each program's own functions (those the other does not have) keep
# their counts
bad=$(join -v1 lua.self bz.self | grep -v '^?' | grep -vxFf merged.self | head -3;
      join -v1 bz.self lua.self | grep -v '^?' | grep -vxFf merged.self | head -3)
n=$(join -v1 lua.self bz.self | grep -vc '^?')
[ "$n" -ge 10 ] && [ -z "$bad" ]
ok $? "merged: each program's own functions keep their samples ($n of Lua's checked)${bad:+; differ: $(echo $bad)}"
# libc's edges once each, summed (each program's own .plt stubs, alike by
# name and not by address, set aside)
awk '/^## Hottest branch edges/ {on=1; next} /^## / {on=0}
	on && / -> / && /%/ && !/(@plt|\.plt)\+/ {print $3, $4, $5, $6}' merged.rep |
	sort | uniq -d >merged.dup
shared=$(awk '/^## Hottest branch edges/ {on=1; next} /^## / {on=0}
	on && / -> / && /%/ && !/(@plt|\.plt)\+/ {print $3, $4, $5, $6}' lua.rep1000 bz.rep1000 |
	sort | uniq -d | wc -l)
[ "$shared" -gt 0 ] && [ ! -s merged.dup ]
ok $? "merged: the $shared edges both have (libc's) are one row each$( [ -s merged.dup ] && echo ", not: $(head -2 merged.dup | tr '\n' ';')")"
"$rvperf" report -i lua-pie.data -i lua-pie.data --top 3 >twice.rep 2>&1
top_count() { awk '/^## Hottest branch edges/ {on=1; next} on && /%/ {print $1; exit}' "$1"; }
[ "$(top_count twice.rep)" = $(( 2 * $(top_count lua.rep1000) )) ]
ok $? "the same recording twice: the hottest edge's count doubles ($(top_count lua.rep1000) -> $(top_count twice.rep))"

# AutoFDO's effect, on the training input: each program built plain -O2
# and with the profile of its recording (gcc -fauto-profile, clang
# -fprofile-sample-use), the instructions and transfers the plugin counts.
# The training run samples every 1009 instructions, as AutoFDO is fed in
# practice (a high sampling rate): at the default 10007, bzip2's ~17,000
# samples made a profile whose gcc build retired 0.4 % fewer instructions
# in one environment and 0.9 % more in another (where the samples fall
# moves with the process's start-up); at 1009 the gain held in every
# environment tried, but for bzip2 built by gcc (below).
src=$(dirname "$dir")
lua_c=""
for f in lapi lcode lctype ldebug ldo ldump lfunc lgc llex lmem lobject lopcodes \
	 lparser lstate lstring ltable ltm lundump lvm lzio lauxlib lbaselib lcorolib \
	 ldblib liolib lmathlib loadlib loslib lstrlib ltablib lutf8lib linit lua; do
	lua_c+=" $src/lua-5.4.4/src/$f.c"
done
bz_c=""
for f in blocksort huffman crctable randtable compress decompress bzlib bzip2; do
	bz_c+=" $src/bzip2-1.0.8/$f.c"
done
counts() { sed -n 's/.*samples, \([0-9]*\) instructions, \([0-9]*\) transfers.*/\1 \2/p' "$1"; }
for comp in gcc clang; do
	case $comp in
	gcc) cc="riscv64-linux-gnu-gcc -O2 -g"; use="-fauto-profile="; fmt=gcc;;
	clang) command -v clang >/dev/null || { ok 0 "clang AutoFDO # SKIP no clang"; continue; }
	       cc="clang --target=riscv64-linux-gnu -O2 -g"; use="-fprofile-sample-use="; fmt=llvm;;
	esac
	for prog in lua bzip2; do
		case $prog in
		lua) files=$lua_c; flags="-DLUA_USE_LINUX -lm -ldl"; args="bench.lua";;
		*) files=$bz_c; flags="-D_FILE_OFFSET_BITS=64"; args="-9 -c input.txt";;
		esac
		b=$prog-$comp
		# shellcheck disable=SC2086
		$cc -o $b $files $flags 2>$b.cc.err &&
			"$rvperf" record -c 1009 -o $b.data -- ./$b $args >/dev/null 2>$b.err &&
			"$rvperf" autofdo -i $b.data --elf $b --format $fmt -o $b.prof 2>/dev/null &&
			$cc $use$b.prof -o $b-fdo $files $flags 2>$b.fdo.err &&
			"$rvperf" record -o $b-fdo.data -- ./$b-fdo $args >/dev/null 2>$b-fdo.err
		ok $? "$prog, $comp: plain and profiled builds recorded"
		read -r pi pt < <(counts $b.err)
		read -r fi ft < <(counts $b-fdo.err)
		diag "$prog, $comp -O2: $pi instructions, $pt transfers; with AutoFDO: $fi, $ft"
		if [ "$prog-$comp" = bzip2-gcc ]; then
			# Measured, not asserted: gcc's AutoFDO build of bzip2 moves
			# by less than where the samples fall moves it (-0.9 % to
			# +3.1 % instructions over periods 1009-1019 with samples at
			# block ends, +0.3 % to +1.1 % over 997-10007 with exact
			# sample addresses): no sign to assert.
			[ -n "$fi" ] && [ -n "$pi" ]
			ok $? "$prog, $comp: the AutoFDO build's counts measured ($fi/$ft against $pi/$pt)"
		else
			[ -n "$fi" ] && [ -n "$pi" ] && { [ "$fi" -lt "$pi" ] || [ "$ft" -lt "$pt" ]; }
			ok $? "$prog, $comp: the AutoFDO build retires fewer instructions or takes fewer branches ($fi/$ft against $pi/$pt)"
		fi
		# another input: measured and shown, not asserted (a profile
		# may fit its training input only)
		case $prog in lua) args2="other.lua";; *) args2="-9 -c other.txt";; esac
		"$rvperf" record -o $b-2.data -- ./$b $args2 >/dev/null 2>$b-2.err
		"$rvperf" record -o $b-fdo-2.data -- ./$b-fdo $args2 >/dev/null 2>$b-fdo-2.err
		read -r pi pt < <(counts $b-2.err)
		read -r fi ft < <(counts $b-fdo-2.err)
		diag "$prog, $comp, another input: -O2 $pi instructions, $pt transfers; with AutoFDO: $fi, $ft"
	done
done
tap_done; exit $?
