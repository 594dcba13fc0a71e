#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Line coverage of the qemu-model core by the ctr-sim scenarios and the
# batch check.
#
# Builds ctr-sim with --coverage -O0 into $O/ctr-cov/, runs every
# tests/ctr/*.scn (and tests/ctr/bad/*.scn) through it, then batch-ctr
# (qemu-model/verify/batch_ctr.c: the batch entry points the hosts use,
# which no scenario reaches) on the same core objects, runs gcov on the
# core sources and prints one TAP check per core file (the percentage as a
# diagnostic; a file passes when it is covered at all) and one for the
# total, which fails below COV_MIN percent (default 90).  Whether the
# scenarios print what they expect is scenarios.py's job; here a good
# scenario must exit 0 and a bad one 2.
cd "$(dirname "$0")/../.." || exit 1
. tests/tap.sh

O=${O:-build}
COV_MIN=${COV_MIN:-90}
CC=${HOST_CC:-gcc}
CORE="ctrhw.c hpmhw.c harthw.c predhw.c insnhw.c"
DIR=$O/ctr-cov
command -v gcov >/dev/null || { echo "1..0 # SKIP gcov not installed"; exit 0; }

rm -rf "$DIR"
mkdir -p "$DIR/obj" "$DIR/include/generated"
# The core needs no generated configuration; give the sim an empty one if
# the build has none yet.
cfg=$O/include/generated
[ -f "$cfg/rvperf_config.h" ] || cfg=$DIR/include/generated
[ -f "$cfg/rvperf_config.h" ] || : >"$cfg/rvperf_config.h"
srcs="qemu-model/sim/ctr-sim.c qemu-model/sim/scenario.c"
for f in $CORE; do srcs="$srcs qemu-model/core/$f"; done
objs=
build_ok=0
for s in $srcs; do
	o=$DIR/obj/$(basename "${s%.c}").o
	$CC --coverage -O0 -g -std=gnu11 -Wall -Wextra -Werror -Iinclude \
		-Itests -I"$cfg" -I. -Iqemu-model/sim \
		-c "$s" -o "$o" 2>"$DIR/build.log" || { build_ok=1; break; }
	objs="$objs $o"
done
[ $build_ok -eq 0 ] && $CC --coverage -o "$DIR/ctr-sim" $objs \
	2>>"$DIR/build.log" || build_ok=1
core_objs=
for f in $CORE; do core_objs="$core_objs $DIR/obj/${f%.c}.o"; done
[ $build_ok -eq 0 ] && $CC --coverage -O0 -g -std=gnu11 -Wall -Wextra -Werror \
	-Iinclude -Itests -I"$cfg" -I. -o "$DIR/batch-ctr" \
	qemu-model/verify/batch_ctr.c $core_objs 2>>"$DIR/build.log" || build_ok=1
if [ $build_ok -ne 0 ]; then
	echo "Bail out! coverage build failed: $(head -3 "$DIR/build.log")"
	exit 1
fi

runs_ok=0
for scn in tests/ctr/*.scn; do
	"$DIR/ctr-sim" "$scn" >/dev/null 2>&1 ||
		{ runs_ok=1; diag "$scn: exit status $?"; }
done
for scn in tests/ctr/bad/*.scn; do
	[ -e "$scn" ] || continue
	"$DIR/ctr-sim" "$scn" >/dev/null 2>&1
	st=$?
	[ $st -eq 2 ] || { runs_ok=1; diag "$scn: exit status $st, not 2"; }
done
ok $runs_ok "every scenario ran (good ones exit 0, bad ones 2)"
"$DIR/batch-ctr" 300 >"$DIR/batch-ctr.out" 2>&1
ok $? "batch-ctr ran ($(grep -c '^ok' "$DIR/batch-ctr.out") checks passed)"

total=0
covered=0
for f in $CORE; do
	# gcov -n: no .gcov files, just "File '...'" and "Lines executed:P% of N"
	# for the source and each header it includes.
	line=$(gcov -n -o "$DIR/obj" "qemu-model/core/$f" 2>/dev/null |
		grep -A1 "^File 'qemu-model/core/$f'" | sed -n 2p)
	pct=$(printf '%s\n' "$line" | sed -n 's/Lines executed:\([0-9.]*\)% of \([0-9]*\)/\1/p')
	n=$(printf '%s\n' "$line" | sed -n 's/Lines executed:\([0-9.]*\)% of \([0-9]*\)/\2/p')
	if [ -z "$pct" ] || [ -z "$n" ]; then
		ok 1 "gcov reports on qemu-model/core/$f"
		diag "gcov said: $line"
		continue
	fi
	c=$(awk -v p="$pct" -v n="$n" 'BEGIN { printf "%d", p * n / 100 + 0.5 }')
	total=$((total + n))
	covered=$((covered + c))
	[ "$c" -gt 0 ]
	ok $? "qemu-model/core/$f: $pct% of $n lines"
	diag "qemu-model/core/$f: $pct% of $n lines executed"
done
if [ "$total" -gt 0 ]; then
	pct=$(awk -v c="$covered" -v t="$total" 'BEGIN { printf "%.2f", 100 * c / t }')
	awk -v p="$pct" -v m="$COV_MIN" 'BEGIN { exit !(p >= m) }'
	ok $? "core line coverage $pct% ($covered of $total lines) >= $COV_MIN%"
	diag "core total: $pct% ($covered of $total lines)"
else
	ok 1 "core line coverage measured"
fi
tap_done
exit $?
