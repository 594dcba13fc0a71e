#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# `rvperf report`'s text and HTML outputs are byte for byte what the report
# printed before its analysis was split from its renderers (issue 16) and
# before elfutils replaced our ELF reader (issue 19): the same recordings
# go through this tree's rvperf and through rvperf built from REPORT_REF,
# and stdout, stderr and exit status must match.
#
# Why build the reference instead of committing its outputs: the outputs
# depend on branchy's addresses (its source and the cross compiler) and on
# the recordings (QEMU), so saved files would break on any unrelated change
# of those; built from git at test time, both binaries see the same inputs,
# whatever they are.  Costs one rvperf build (seconds) and git history (a
# tree without it reports SKIP).  When the report's output changes on
# purpose, move REPORT_REF to the commit that changed it.
set -u
. tests/tap.sh
O=${O:-build}
rvperf=$O/userspace/rvperf
elf=$O/guest/bin/branchy
# The last commit that changed the report's output on purpose: the HTML
# page's drill-down into a dozen annotations (before it: the HTML graph's
# labels apart, no 0 % boxes, the graph within the page; the annotation's
# folded lines; the hot edges' source lines; natural loops, indirect
# transfers, self overhead, the annotation; report.c and html.c unsplit).
# Found by its subject: a history that was rewritten (as this one was
# once, when the commit was bf3089b) keeps the subject, not the hash.
REPORT_REF_SUBJECT='^rvperf report --html (issue 19): drill-down from the graph: '
REPORT_REF=${REPORT_REF:-$(git log -1 --format=%h --grep="$REPORT_REF_SUBJECT" 2>/dev/null)}
REPORT_REF=${REPORT_REF:-"the drill-down commit"}

if [ ! -f "$elf" ]; then
	echo "1..0 # SKIP $elf not built (make guest-image)"
	exit 0
fi
if ! git cat-file -e "$REPORT_REF^{commit}" 2>/dev/null; then
	echo "1..0 # SKIP no git history with $REPORT_REF (a shallow clone or a tarball)"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

mkdir "$tmp/ref"
git archive "$REPORT_REF" | tar -x -C "$tmp/ref" &&
	make -s -C "$tmp/ref" O=build build/userspace/rvperf >"$tmp/ref.log" 2>&1
ok $? "build rvperf as it was at $REPORT_REF"
[ -x "$tmp/ref/build/userspace/rvperf" ] || diag "$(tail -5 "$tmp/ref.log")"
ref=$tmp/ref/build/userspace/rvperf

# The recordings: branch stacks that follow branchy's control flow, a real
# recording of it under qemu-riscv64, one cut short, one without stacks.
"$O/tests/userspace/gen-trace" "$tmp/synthetic.data" "$(realpath "$elf")" 400
ok $? "write branch stacks of branchy"
inputs="synthetic"
if command -v qemu-riscv64 >/dev/null; then
	"$rvperf" record -o "$tmp/recorded.data" -- "$elf" >/dev/null 2>"$tmp/rec.err"
	ok $? "record branchy under qemu-riscv64"
	inputs="$inputs recorded"
else
	ok 0 "record branchy # SKIP qemu-riscv64 not installed"
fi
head -c 5000 "$tmp/synthetic.data" >"$tmp/cut.data"
"$O/tests/userspace/gen-perfdata" "$tmp/gen.data" "$elf"
inputs="$inputs cut gen"

# same NAME ARGS...: both binaries, the same arguments, the same results.
same() {
	local name=$1 out status=0
	shift
	"$ref" report "$@" >"$tmp/ref.out" 2>"$tmp/ref.err"
	echo "status $?" >>"$tmp/ref.err"
	"$rvperf" report "$@" >"$tmp/new.out" 2>"$tmp/new.err"
	echo "status $?" >>"$tmp/new.err"
	for out in out err; do
		cmp -s "$tmp/ref.$out" "$tmp/new.$out" || status=1
	done
	# An empty report proves nothing: each text output names samples.
	grep -q 'samples' "$tmp/new.out" || status=1
	ok $status "$name: the same bytes as at $REPORT_REF"
	[ $status -eq 0 ] || diag "$(diff "$tmp/ref.out" "$tmp/new.out" | head -8)" \
		"$(diff "$tmp/ref.err" "$tmp/new.err" | head -4)"
}

for in in $inputs; do
	same "$in: text" -i "$tmp/$in.data"
	same "$in: text, --top 3" -i "$tmp/$in.data" --top 3
	same "$in: text, --top 1000" -i "$tmp/$in.data" --top 1000
	same "$in: text, --elf" -i "$tmp/$in.data" --elf "$elf"
	same "$in: HTML" -i "$tmp/$in.data" --html /dev/stdout
	same "$in: HTML, --top 4" -i "$tmp/$in.data" --top 4 --html /dev/stdout
done
# --symfs DIR/ with the program's path below DIR: a tree of its own.
mkdir -p "$tmp/symfs$(dirname "$(realpath "$elf")")"
cp "$elf" "$tmp/symfs$(realpath "$elf")"
same "synthetic: text, --symfs DIR/ and the binary moved there" \
	-i "$tmp/synthetic.data" --symfs "$tmp/symfs/"
grep -q 'hot_loop+0x40' "$tmp/new.out"
ok $? "and that report names the functions"
tap_done
