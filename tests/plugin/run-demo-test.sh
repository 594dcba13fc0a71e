#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# make run's script (scripts/run-demo.sh) on the real sample workload: the
# report's top entries are branchy's known hot loop and its four indirect
# call edges, the HTML page is written with the graph's functions, GCC
# takes the AutoFDO profile.
set -u
. tests/tap.sh
O=${O:-build}
for tool in qemu-riscv64 riscv64-linux-gnu-gcc; do
	if ! command -v $tool >/dev/null; then
		echo "1..0 # SKIP $tool not installed (make deps)"
		exit 0
	fi
done
if [ ! -x "$O/guest/bin/branchy" ]; then
	make -s O="$O" "$O/guest/bin/branchy" >/dev/null 2>&1
fi
out=$(O=$O scripts/run-demo.sh 2>&1)
ok $? "scripts/run-demo.sh runs"
section() { printf '%s\n' "$out" | awk -v s="## $1" 'index($0, s) == 1 {on=1; next} /^(## |== )/ {on=0} on && NF'; }
section 'Hottest branch edges' | sed -n 2p | grep -Eq 'hot_loop\+0x[0-9a-f]+ +-> hot_loop\+0x[0-9a-f]+ +COND$'
ok $? "the hottest edge is hot_loop's back-edge"
trips=$(section 'Hot loops' | awk 'NR == 2 && $8 ~ /^hot_loop/ {print $3}')
awk -v t="${trips:-0}" 'BEGIN { exit !(t >= 50 && t <= 70) }'
ok $? "the top loop is hot_loop, about 64 trips per entry (estimated ${trips:-none})"
[ "$(section 'Call edges' | sed -n '2,5p' | grep -c 'hot_loop -> op_\(add\|xor\|mul\|rot\)$')" -eq 4 ]
ok $? "the four hottest call edges are hot_loop's indirect calls to the four ops"
section 'Call edges' | grep -q ' main -> hot_loop$' && section 'Call edges' | grep -q ' recurse -> recurse$'
ok $? "main -> hot_loop and recurse -> recurse are call edges"
[ -s "$O/run/report.html" ] && grep -q 'hot_loop' "$O/run/report.html" && ! grep -Eq '(src|href)="https?:' "$O/run/report.html"
ok $? "the HTML page is written, names hot_loop, fetches nothing"
printf '%s\n' "$out" | grep -q '^gcc accepted' && printf '%s\n' "$out" | grep -Eq '^the build (changed|did not change)'
ok $? "gcc -fauto-profile accepted the profile and the demo says whether the build changed"
[ $tap_failed -eq 0 ] || diag "$out"
tap_done
