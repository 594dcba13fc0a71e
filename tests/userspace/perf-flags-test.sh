#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# perf's flags with perf's meaning (issue 38).  record: -b is -j any; -g
# (--call-graph lbr) gives samples whose call chains perf builds from the
# call stack, as from LBR; -e with :u; -c and -F; -o and --output=; -a, -C,
# -p, -t and --call-graph fp refused with one line before the program runs,
# also as the last argument; --help names perf's options.  report: --sort
# with perf's keys (and tid, tgid), -n, --stdio, --no-branch-stack, the
# rows compared with perf 6.12's report of the same files: branchy's
# samples and branch records, a fork's and threads' per-pid rows, a
# dynamically linked program's shared objects.
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

help=$("$rvperf" report --help)
for o in "-s, --sort KEYS" "-n, --show-nr-samples" "-g  " "--no-branch-stack" "--stdio"; do
	grep -qF -- "$o" <<<"$help"
	ok $? "report --help lists perf's $o"
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

# ---- report --sort, against perf report --stdio on the same files
# Rows without perf's padding: overhead, samples, the keys' values.
norm() { grep -v '^#' | awk 'NF' | sed 's/  */ /g; s/^ //; s/ $//'; }
# sample_rows DATA KEYS NAME: report --no-branch-stack --sort KEYS -n of
# DATA gives perf's rows, in any order
sample_rows() {
	"$perf" report -i "$1" --stdio --no-branch-stack --sort "$2" -n \
		2>/dev/null | norm | sort >"$tmp/p.rows"
	"$rvperf" report -i "$1" --no-branch-stack --sort "$2" -n |
		norm | sort >"$tmp/o.rows"
	[ -s "$tmp/o.rows" ] && cmp -s "$tmp/p.rows" "$tmp/o.rows"
	ok $? "$3" || diag "$(diff "$tmp/p.rows" "$tmp/o.rows" | head -6)"
}
# perf 6.12 names code after RISC-V mapping symbols ($x...): without them
# its names are comparable with ours.
nomap() { riscv64-linux-gnu-objcopy -w --strip-symbol='$x*' --strip-symbol='$d*' "$1"; }
cp "$elf" "$tmp/bn" && nomap "$tmp/bn" && rec -o "$tmp/n.data" -- "$tmp/bn"
ok $? "record branchy without mapping symbols"
"$rvperf" report -i "$tmp/n.data" --no-branch-stack --sort comm,dso,sym -n --stdio >"$tmp/s.txt"
ok $? "report --no-branch-stack --sort comm,dso,sym -n --stdio"
grep -q '^# Overhead  *Samples  Command  Shared Object  Symbol$' "$tmp/s.txt" &&
	norm <"$tmp/s.txt" | head -1 | grep -Eq '^[0-9.]+% [0-9]+ bn bn \[\.\] hot_loop$'
ok $? "perf's headings; hot_loop on top"
[ "$(norm <"$tmp/s.txt" | awk '{n += $2} END {print n}')" = \
  "$("$rvperf" script -i "$tmp/n.data" -F ip | wc -l)" ]
ok $? "the rows' samples add up to the recording's"
"$rvperf" report -i "$tmp/n.data" --no-branch-stack --sort sym >"$tmp/nn.txt" &&
	grep -q '^# Overhead  Symbol$' "$tmp/nn.txt" &&
	! norm <"$tmp/nn.txt" | awk '{print $2}' | grep -q '^[0-9]'
ok $? "without -n: no Samples column"
if [ -n "$perf" ]; then
	for k in comm,dso,sym srcline pid sym,srcline; do
		sample_rows "$tmp/n.data" $k "--no-branch-stack --sort $k -n: perf's rows"
	done
	# Branch mode (a file with branch stacks, as perf takes it): rows of
	# branch records; perf adds IPC columns and branch statistics.
	for k in symbol_from,symbol_to dso_from,symbol_to sym comm,dso; do
		n=$(($(tr -cd , <<<"$k" | wc -c) + 1))
		"$perf" report -i "$tmp/n.data" --stdio --sort $k -n 2>/dev/null |
			norm | grep '%  *[0-9]' | grep -v '^[A-Z_]*: ' |
			awk -v n=$n '{s = $1 " " $2; f = 3
			     for (k = 0; k < n; k++) if ($f == "[.]") { s = s " " $f " " $(f+1); f += 2 } else { s = s " " $f; f++ }
			     print s}' | sort >"$tmp/p.rows"
		"$rvperf" report -i "$tmp/n.data" --sort $k -n | norm | sort >"$tmp/o.rows"
		[ -s "$tmp/o.rows" ] && cmp -s "$tmp/p.rows" "$tmp/o.rows"
		ok $? "--sort $k -n on branch stacks: perf's rows of branch records"
		[ $? -eq 0 ] || diag "$(diff "$tmp/p.rows" "$tmp/o.rows" | head -6)"
	done
else
	ok 0 "perf's rows # SKIP no perf"
fi
fails_in_one_line "report --sort nosuchkey: refused, the keys named" \
	"^rvperf report: --sort: unknown key 'nosuchkey' \(comm, pid, tid" \
	"$rvperf" report -i "$tmp/n.data" --sort comm,nosuchkey
fails_in_one_line "report --no-branch-stack --sort symbol_from: refused" \
	"^rvperf report: --sort: symbol_from is a key of branch records" \
	"$rvperf" report -i "$tmp/n.data" --no-branch-stack --sort symbol_from
fails_in_one_line "report --sort as the last argument: it wants keys" \
	"^rvperf report: --sort wants keys \(comm, pid" "$rvperf" report -i "$tmp/n.data" --sort
fails_in_one_line "report --stdio --html: refused" "^rvperf report: --stdio and --html" \
	"$rvperf" report -i "$tmp/n.data" --stdio --html "$tmp/x.html"
# A -g recording is no -b one: its rows are samples (as perf reports it).
"$rvperf" report -i "$tmp/g.data" --sort sym -n | grep -q "^# Samples: $("$rvperf" script -i "$tmp/g.data" -F ip | wc -l) of event 'instructions:u'\$"
ok $? "report --sort on a -g recording: rows of samples"

# report -g: each row's call chains, those perf builds from the same
# recording's call stack (perf script's chains, counted).
rec -g -o "$tmp/gn.data" -- "$tmp/bn"
ok $? "record -g branchy without mapping symbols"
"$rvperf" report -i "$tmp/gn.data" --sort sym -n -g >"$tmp/gn.txt"
ok $? "report --sort sym -n -g"
grep -A1 '\[\.\] op_mul$' "$tmp/gn.txt" | grep -q '100.00%  op_mul <- hot_loop <- main <- '
ok $? "op_mul's one chain: op_mul <- hot_loop <- main <- ..."
# chains as counts: each row's shares times its samples
awk '/^  +[0-9.]+%  +[0-9]+  /{n = $2; next}
     /^ +[0-9.]+%  [^ ]/{sh = $1; sub("%", "", sh); $1 = ""; printf "%d%s\n", sh * n / 100 + 0.5, $0}' \
	"$tmp/gn.txt" | sort >"$tmp/o.ch"
[ "$(awk '{n += $1} END {print n}' "$tmp/o.ch")" = "$("$rvperf" script -i "$tmp/gn.data" -F ip | wc -l)" ]
ok $? "every sample's chain is counted once"
if [ -n "$perf" ]; then
	# perf takes a chain's first frame from the newest call's target (the
	# call stack's first record), not from the sample's ip: a function
	# reached by a tail call (leaf, from recurse) is named after its
	# caller there.  Ours is the function the sample's ip is in, so
	# perf's chains are compared with that frame replaced by perf's own
	# symbol of the sample's ip (perf script -G: one line a sample).
	"$perf" script -i "$tmp/gn.data" -G -F ip,sym 2>/dev/null | awk '{print $2}' >"$tmp/p.leaf"
	"$perf" script -i "$tmp/gn.data" -F ip,sym 2>/dev/null | awk '{print $2}' |
		awk -v RS= '{gsub("\n", " <- "); print}' >"$tmp/p.chains"
	[ "$(wc -l <"$tmp/p.leaf")" = "$(wc -l <"$tmp/p.chains")" ]
	ok $? "perf 6.12 reads as many samples' ips as chains"
	paste -d '\t' "$tmp/p.leaf" "$tmp/p.chains" |
		awk -F '\t' '{ sub(/^[^ ]+/, $1, $2); print $2 }' | sort | uniq -c |
		awk '{c = $1; $1 = ""; print c $0}' | sort >"$tmp/p.ch"
	[ -s "$tmp/o.ch" ] && cmp -s "$tmp/p.ch" "$tmp/o.ch"
	ok $? "report -g: the chains perf 6.12 builds from the call stack, as often, each from the sample's function"
	[ $? -eq 0 ] || diag "$(diff "$tmp/p.ch" "$tmp/o.ch" | head -6)"
fi
fails_in_one_line "report -g on a -b recording: refused, no call chains" \
	"^rvperf report: -g: .*n.data has no call chains \(record with -g\)" \
	"$rvperf" report -i "$tmp/n.data" -g

# Per process and per thread: a fork and threads (tests/userspace/procs).
cc=riscv64-linux-gnu-gcc
if command -v $cc >/dev/null && [ -d /usr/riscv64-linux-gnu/lib ]; then
	src=tests/userspace/procs
	$cc -O2 -g -o "$tmp/procs" $src/procs.c -ldl && nomap "$tmp/procs" &&
		$cc -O2 -g -pthread -o "$tmp/threads" $src/threads.c &&
		nomap "$tmp/threads" &&
		rec -o "$tmp/fork.data" -- "$tmp/procs" fork &&
		rec -o "$tmp/thr.data" -- "$tmp/threads"
	ok $? "record a program that forks and one with four threads"
	for d in fork thr; do
		"$rvperf" script -i "$tmp/$d.data" -F pid,tid | tr '/' ' ' |
			awk '{print $2}' | sort | uniq -c | awk '{print $2, $1}' | sort >"$tmp/$d.tids"
		"$rvperf" script -i "$tmp/$d.data" -F pid,tid | tr '/' ' ' |
			awk '{print $1}' | sort | uniq -c | awk '{print $2, $1}' | sort >"$tmp/$d.pids"
		"$rvperf" report -i "$tmp/$d.data" --no-branch-stack --sort tid -n |
			norm | awk '{print $3, $2}' | sort >"$tmp/$d.tid"
		"$rvperf" report -i "$tmp/$d.data" --no-branch-stack --sort tgid -n |
			norm | awk '{split($3, p, ":"); print p[1], $2}' | sort >"$tmp/$d.tgid"
		[ "$(wc -l <"$tmp/$d.tids")" -gt 1 ] && cmp -s "$tmp/$d.tids" "$tmp/$d.tid" &&
			cmp -s "$tmp/$d.pids" "$tmp/$d.tgid"
		ok $? "$d: --sort tid and tgid: a row per thread and per process, the samples script gives each"
	done
	[ "$(wc -l <"$tmp/fork.tgid")" -eq 2 ] && [ "$(wc -l <"$tmp/thr.tgid")" -eq 1 ] &&
		[ "$(wc -l <"$tmp/thr.tid")" -eq 4 ]
	ok $? "two processes forked, four threads in one"
	if [ -n "$perf" ]; then
		for d in fork thr; do
			for k in pid,dso comm,pid; do
				sample_rows "$tmp/$d.data" $k \
					"$d: --sort $k -n: perf's rows (each task, its shared objects)"
			done
		done
	fi
else
	ok 0 "per-process rows # SKIP riscv64 cross gcc or libc missing"
fi
tap_done
