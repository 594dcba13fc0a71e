#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# perf's flags with perf's meaning (issue 38).  record: -b is -j any; -g
# (--call-graph lbr) gives samples whose call chains perf builds from the
# call stack, as from LBR; -e with :u; -c and -F; -o and --output=; -a, -C,
# -p, -t and --call-graph fp refused with one line before the program runs,
# also as the last argument; --help names perf's options.
set -u
. tests/tap.sh
O=${O:-build}
rvperf=$O/userspace/rvperf
plugin=$O/qemu-model/librvperf-ctr.so
elf=$O/guest/bin/branchy
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/tmpdir"
export TMPDIR=$tmp/tmpdir
if [ ! -f "$elf" ]; then
	echo "1..0 # SKIP $elf not built (make guest-image)"
	exit 0
fi
# perf 6.12 (or the host's perf) reads the recordings: the files are
# checked by perf's own reading, not only ours.
perf=$(tests/userspace/perf612.sh 2>/dev/null) || perf=$(command -v perf) || perf=

# ---- record: refusals, before any work (no QEMU needed)
for a in "-a" "-C 0" "-p 1" "-t 1" "--pid=1"; do
	fails_in_one_line "record $a: refused with the reason" \
		"^rvperf record: ${a%% *}: .*(user-mode QEMU|kernel)" \
		"$rvperf" record $a -o "$tmp/x.data" -- "$elf"
done
for a in "-a" "-p"; do
	fails_in_one_line "record $a as the last argument: its reason, not 'needs a value'" \
		"^rvperf record: $a: .*user-mode QEMU" "$rvperf" record $a
done
fails_in_one_line "record -b as the last argument: no program, not 'needs a value'" \
	"^rvperf record: no program to run" "$rvperf" record -b
fails_in_one_line "record --call-graph fp: refused, lbr named" \
	"^rvperf record: --call-graph fp: .*--call-graph lbr" \
	"$rvperf" record --call-graph fp -o "$tmp/x.data" -- "$elf"
fails_in_one_line "record -g -b: refused (one branch stack)" \
	"^rvperf record: -g records CTR's call stack .* -b" \
	"$rvperf" record -g -b -o "$tmp/x.data" -- "$elf"
fails_in_one_line "record -c and -F together: refused" \
	"^rvperf record: -c and -F both given" \
	"$rvperf" record -c 100 -F 100 -o "$tmp/x.data" -- "$elf"
fails_in_one_line "record -e instructions:k: refused, only :u applies" \
	"^rvperf record: event modifier ':k': only u applies" \
	"$rvperf" record -e instructions:k -o "$tmp/x.data" -- "$elf"
[ ! -e "$tmp/x.data" ]
ok $? "and nothing was recorded"
help=$("$rvperf" record --help)
for o in "-b, --branch-any" "-j, --branch-filter" "-g, --call-graph lbr" \
	 "-e, --event" "-c, --count" "-F, --freq" "-o, --output"; do
	grep -qF -- "$o" <<<"$help"
	ok $? "record --help lists perf's $o"
done

if ! command -v qemu-riscv64 >/dev/null || [ ! -f "$plugin" ]; then
	ok 0 "recordings # SKIP qemu-riscv64 or $plugin missing"
	tap_done
	exit $?
fi

# ---- record: what each flag records
rec() { "$rvperf" record "$@" >"$tmp/rec.out" 2>"$tmp/rec.err"; }
rec -b -o "$tmp/b.data" "$elf" && rec -j any -o "$tmp/any.data" -- "$elf" &&
	rec -j any_call -o "$tmp/call.data" -- "$elf"
ok $? "record -b, -j any and -j any_call run"
"$rvperf" script -i "$tmp/b.data" -F ip,brstack >"$tmp/b.txt" &&
	"$rvperf" script -i "$tmp/any.data" -F ip,brstack >"$tmp/any.txt" &&
	"$rvperf" script -i "$tmp/call.data" -F ip,brstack >"$tmp/call.txt" &&
	[ -s "$tmp/b.txt" ] && cmp -s "$tmp/b.txt" "$tmp/any.txt" &&
	! cmp -s "$tmp/b.txt" "$tmp/call.txt"
ok $? "record -b records what -j any records (and not what -j any_call does)"

rec -c 5003 --output="$tmp/c.data" -- "$elf" &&
	[ "$("$rvperf" script -i "$tmp/c.data" -F period | sort -u | tr -d ' ')" = 5003 ]
ok $? "record -c 5003 --output=FILE: every sample 5003 instructions apart"
rec -F 2000 -o "$tmp/f.data" -- "$elf" &&
	[ "$("$rvperf" script -i "$tmp/f.data" -F period | sort -u | tr -d ' ')" = 500000 ]
ok $? "record -F 2000: a sample every 500000 instructions (a nanosecond each)"
rec -e cycles:u -c 20011 -o "$tmp/e.data" -- "$elf"
ok $? "record -e cycles:u"
if [ -n "$perf" ]; then
	"$perf" evlist -v -i "$tmp/f.data" 2>/dev/null | grep -q 'sample_freq }: 2000,.* freq: 1'
	ok $? "perf evlist: -F's recording says freq 2000, as perf record -F's"
	"$perf" evlist -i "$tmp/e.data" 2>/dev/null | grep -qx 'cycles:u'
	ok $? "perf evlist: -e cycles:u's event is cycles:u"
	"$perf" evlist -v -i "$tmp/b.data" 2>/dev/null | grep -q 'branch_sample_type: USER|ANY|'
	ok $? "perf evlist: -b's branch filter is any"
else
	ok 0 "perf reads the attributes # SKIP no perf"
fi

# -g: perf's call chains from the call stack.  branchy's op_* are called
# only by hot_loop, hot_loop only by main; leaf only by recurse, which main
# calls and which calls itself.
rec -g -o "$tmp/g.data" -- "$elf"
ok $? "record -g"
rec --call-graph=lbr -o "$tmp/g2.data" -- "$elf" &&
	"$rvperf" script -i "$tmp/g.data" -F ip,brstack >"$tmp/g.txt" &&
	"$rvperf" script -i "$tmp/g2.data" -F ip,brstack >"$tmp/g2.txt" &&
	cmp -s "$tmp/g.txt" "$tmp/g2.txt"
ok $? "record --call-graph=lbr records what -g does"
if [ -n "$perf" ]; then
	"$perf" script -i "$tmp/g.data" -F ip,sym 2>/dev/null |
		awk '{print $2}' | awk -v RS= '{gsub("\n", " "); print}' >"$tmp/chains"
	total=$(wc -l <"$tmp/chains")
	mul=$(grep -c '^op_mul hot_loop main __libc_start_call_main ' "$tmp/chains")
	bad=$(grep -Ec '^op_[a-z]+ ([^h]|h[^o])' "$tmp/chains")
	rec_chain=$(grep -Ec '^(leaf recurse|recurse)( recurse)* main ' "$tmp/chains")
	[ "$total" -gt 1000 ] && [ "$mul" -gt 100 ] && [ "$bad" -eq 0 ] &&
		[ "$rec_chain" -gt 0 ]
	ok $? "perf script: chains op_mul <- hot_loop <- main ($mul of $total), recurse <- recurse... <- main ($rec_chain), no op_* called from elsewhere"
	[ $? -eq 0 ] || diag "$(sort "$tmp/chains" | uniq -c | sort -rn | head -5)"
	"$perf" report -i "$tmp/g.data" --stdio --no-children 2>/dev/null |
		grep -A3 '\[\.\] op_mul' | grep -q -- '---op_mul'
	ok $? "perf report shows the call graph, not branch-stack mode"
else
	ok 0 "perf reads the call chains # SKIP no perf"
fi
tap_done
