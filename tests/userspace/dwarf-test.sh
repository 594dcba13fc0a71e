#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# The inline chains (userspace/dwarf/, over elfutils) against binutils'
# addr2line: at every instruction of riscv64 programs built here with
# inlining, range lists, discriminators, DWARF 4 and 5, compressed debug
# sections (-gz), the inline chain (function, line, discriminator of each
# frame) must be addr2line's; the same with the debug information in a
# separate file found through .gnu_debuglink.  Then damaged files: a clear
# error or a warning, never a crash.
. "$(dirname "$0")/../tap.sh"
O=${O:-build}
lookup=$O/tests/userspace/dwarf-lookup
cc=riscv64-linux-gnu-gcc
if ! command -v $cc >/dev/null || ! command -v riscv64-linux-gnu-addr2line >/dev/null; then
	echo "ok 1 - DWARF reader against addr2line # SKIP no riscv64 cross toolchain"
	echo "1..1"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

n=0
for src in tests/userspace/afdo/inlined.c userspace/sample/branchy.c; do
	for opts in "-O2" "-O3" "-O1 -gdwarf-4" "-Os -gdwarf-5" \
		    "-O2 -gdwarf-4 -gstrict-dwarf" "-O2 -march=rv64gc" \
		    "-O2 -gz"; do
		n=$((n + 1))
		elf=$tmp/p$n
		$cc $opts -g -o "$elf" "$src" 2>"$tmp/cc.log" || {
			ok 1 "$src $opts builds"; diag "$(cat "$tmp/cc.log")"; continue; }
		case $opts in
		*-gz*)		# SHF_COMPRESSED sections, flag C
			riscv64-linux-gnu-readelf -S "$elf" |
				grep -A1 ' \.debug_info ' | grep -q ' C '
			ok $? "$(basename "$src") $opts: .debug_info is compressed (SHF_COMPRESSED)";;
		esac
		riscv64-linux-gnu-objdump -d "$elf" |
			awk '/^ +[0-9a-f]+:/{sub(":","",$1); print $1}' >"$tmp/addrs"
		"$lookup" "$elf" <"$tmp/addrs" >"$tmp/ours" 2>"$tmp/err"
		riscv64-linux-gnu-addr2line -a -f -i -e "$elf" <"$tmp/addrs" >"$tmp/theirs"
		python3 tests/userspace/dwarf-compare.py "$tmp/ours" "$tmp/theirs" >"$tmp/cmp"
		ok $? "$(basename "$src") $opts: inline chains equal addr2line's at every instruction"
		diag "$(tail -n 5 "$tmp/cmp")" "$(cat "$tmp/err")"
	done
done

# clang's output: no .debug_aranges (elfutils before 0.189 then finds no
# unit for an address; the function index does), DWARF 5 by default.  The
# reference is LLVM's own llvm-symbolizer in addr2line's output style:
# binutils 2.40 drops inlined frames of clang's DWARF 5 (their ranges are
# rnglistx), which llvm-symbolizer and we read.
if command -v clang >/dev/null && command -v llvm-symbolizer >/dev/null; then
	for src in tests/userspace/afdo/inlined.c userspace/sample/branchy.c; do
		for opts in "-O2" "-O2 -gdwarf-4"; do
			n=$((n + 1))
			elf=$tmp/p$n
			clang --target=riscv64-linux-gnu $opts -g -o "$elf" "$src" 2>"$tmp/cc.log" || {
				ok 1 "clang $src $opts builds"; diag "$(cat "$tmp/cc.log")"; continue; }
			riscv64-linux-gnu-objdump -d "$elf" |
				awk '/^ +[0-9a-f]+:/{sub(":","",$1); print $1}' >"$tmp/addrs"
			"$lookup" "$elf" <"$tmp/addrs" >"$tmp/ours" 2>"$tmp/err"
			sed 's/^/0x/' "$tmp/addrs" | llvm-symbolizer --output-style=GNU -a -f -i \
				-e "$elf" >"$tmp/theirs"
			python3 tests/userspace/dwarf-compare.py "$tmp/ours" "$tmp/theirs" >"$tmp/cmp"
			ok $? "clang $(basename "$src") $opts: inline chains equal llvm-symbolizer's at every instruction"
			diag "$(tail -n 5 "$tmp/cmp")" "$(cat "$tmp/err")"
		done
	done
else
	ok 0 "clang builds # SKIP no clang or llvm-symbolizer"
fi

# Many functions in one unit (an amalgamation, say): each address finds its
# function through a sorted index, not by walking the unit's DIEs.
python3 - >"$tmp/many.c" <<'PY'
print('volatile int sink;')
for i in range(1500):
    print('__attribute__((noinline)) int f%d(int x) { for (int j = 0; j < x; j++) sink += j * %d; return sink; }' % (i, i))
print('int main(void) { int s = 0;')
for i in range(1500):
    print(' s += f%d(s & 7);' % i)
print(' return s; }')
PY
$cc -O2 -g -o "$tmp/many" "$tmp/many.c"
riscv64-linux-gnu-objdump -d "$tmp/many" |
	awk '/^ +[0-9a-f]+:/{sub(":","",$1); print $1}' >"$tmp/addrs"
riscv64-linux-gnu-addr2line -a -f -i -e "$tmp/many" <"$tmp/addrs" >"$tmp/theirs"
start=$(date +%s%N)
"$lookup" "$tmp/many" <"$tmp/addrs" >"$tmp/ours" 2>"$tmp/err" &&
	python3 tests/userspace/dwarf-compare.py "$tmp/ours" "$tmp/theirs" >"$tmp/cmp"
ok $? "1500 functions in one unit: chains equal addr2line's at all $(wc -l <"$tmp/addrs") instructions"
diag "$(tail -n 3 "$tmp/cmp")" "lookups took $((($(date +%s%N) - start) / 1000000)) ms"

# The debug information apart from the program, as distributions ship it:
# the stripped binary names its debug file with .gnu_debuglink.
mkdir "$tmp/split"
$cc -O2 -g -o "$tmp/split/prog" tests/userspace/afdo/inlined.c
riscv64-linux-gnu-objcopy --only-keep-debug "$tmp/split/prog" "$tmp/split/prog.debug"
riscv64-linux-gnu-objcopy --strip-debug --add-gnu-debuglink="$tmp/split/prog.debug" \
	"$tmp/split/prog" "$tmp/split/stripped"
riscv64-linux-gnu-objdump -d "$tmp/split/prog" |
	awk '/^ +[0-9a-f]+:/{sub(":","",$1); print $1}' >"$tmp/addrs"
riscv64-linux-gnu-addr2line -a -f -i -e "$tmp/split/prog" <"$tmp/addrs" >"$tmp/theirs"
! riscv64-linux-gnu-readelf -S "$tmp/split/stripped" | grep -q '\.debug_info' &&
	"$lookup" "$tmp/split/stripped" <"$tmp/addrs" >"$tmp/ours" 2>"$tmp/err" &&
	python3 tests/userspace/dwarf-compare.py "$tmp/ours" "$tmp/theirs" >"$tmp/cmp"
ok $? "a stripped binary with .gnu_debuglink: its debug file's chains equal addr2line's"
diag "$(tail -n 5 "$tmp/cmp")" "$(cat "$tmp/err")"

# Damaged input.
fails_in_one_line "not an ELF file: one-line error" "not an ELF file" \
	"$lookup" tests/userspace/afdo/inlined.c
$cc -O2 -g -c -o "$tmp/obj.o" tests/userspace/afdo/inlined.c
fails_in_one_line "relocatable object refused with the reason" "relocatable" \
	"$lookup" "$tmp/obj.o"
$cc -O2 -g -o "$tmp/good" tests/userspace/afdo/inlined.c
size=$(stat -c %s "$tmp/good")
head -c $((size / 2)) "$tmp/good" >"$tmp/half"
fails_in_one_line "truncated ELF: one-line error" "outside the file|past the end" \
	"$lookup" "$tmp/half"
# Flip bytes all over the debug sections: the reader may warn, must not crash.
crashes=0
for seed in $(seq 1 40); do
	python3 - "$tmp/good" "$tmp/bad" "$seed" <<'PY'
import random, sys
data = bytearray(open(sys.argv[1], 'rb').read())
rnd = random.Random(int(sys.argv[3]))
# The debug sections sit after the loaded segments: damage the last 40 %.
start = len(data) * 6 // 10
for _ in range(rnd.randint(1, 64)):
    i = rnd.randrange(start, len(data))
    data[i] = rnd.randrange(256)
open(sys.argv[2], 'wb').write(data)
PY
	head -n 50 "$tmp/addrs" | "$lookup" "$tmp/bad" >/dev/null 2>&1
	[ $? -le 1 ] || crashes=$((crashes + 1))
done
ok $crashes "40 randomly damaged files: no crash ($crashes crashed)"
tap_done
