#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# make run: record the sample workload's branch stacks on stock
# qemu-riscv64 with the CTR plugin, print the report, write the HTML page,
# and show that GCC accepts the AutoFDO profile made from the recording
# (and whether it changed the build).  Everything comes from Debian
# packages and this tree.
set -eu
O=${O:-build}
rvperf=$O/userspace/rvperf
prog=$O/guest/bin/branchy
out=$O/run
cc=riscv64-linux-gnu-gcc
mkdir -p "$out"

echo "== rvperf record -e instructions -j any -- branchy (qemu-riscv64 + CTR plugin)"
"$rvperf" record -o "$out/perf.data" -- "$prog"
echo
echo "== rvperf report"
"$rvperf" report -i "$out/perf.data" --top 8
"$rvperf" report -i "$out/perf.data" --html "$out/report.html" >/dev/null
echo
echo "== the HTML page: $out/report.html"
echo
echo "== AutoFDO: rvperf autofdo, then $cc -O2 -fauto-profile"
"$rvperf" autofdo -i "$out/perf.data" --elf "$prog" -o "$out/branchy.afdo"
# The same flags the workload was built with, with and without the profile.
$cc -O2 -g -static -o "$out/branchy-plain" userspace/sample/branchy.c
$cc -O2 -g -static -fauto-profile="$out/branchy.afdo" \
	-o "$out/branchy-afdo" userspace/sample/branchy.c
echo "gcc accepted $out/branchy.afdo"
funcs() {	# per-function instruction listing, addresses stripped
	riscv64-linux-gnu-objdump -d --no-show-raw-insn "$1" |
		awk '/^[0-9a-f]+ <(main|hot_loop|recurse|leaf|op_[a-z]+)>:/ { f = $2; next }
		     /^$/ { f = "" }
		     f != "" { sub(/^ *[0-9a-f]+:\t/, ""); gsub(/[0-9a-f]+ <[^>]*>/, "<sym>"); print f, $0 }'
}
total=$(funcs "$out/branchy-plain" | awk '{print $1}' | sort -u | wc -l)
if cmp -s <(funcs "$out/branchy-plain") <(funcs "$out/branchy-afdo"); then
	echo "the build did not change: the profile matched no decision GCC would revisit"
else
	n=0
	for f in $(funcs "$out/branchy-plain" | awk '{print $1}' | sort -u); do
		if ! cmp -s <(funcs "$out/branchy-plain" | awk -v f="$f" '$1 == f') \
			    <(funcs "$out/branchy-afdo" | awk -v f="$f" '$1 == f'); then
			f=${f#<}
			echo "  changed by the profile: ${f%>:}"
			n=$((n + 1))
		fi
	done
	echo "the build changed: $n of $total workload functions differ"
fi
