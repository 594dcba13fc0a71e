#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# bench-qemu-insn - what counting retired instructions without -icount
# costs (qemu-model/qemu patch 0008) a CPU-bound bare-metal guest
# (bench-qemu-insn-work.c: a table-driven CRC-32, about ten instructions a
# block) on our qemu-system-riscv64 without -icount, all measured in this
# run: best of ROUNDS CPU times (user + system of the QEMU process: the
# machine is shared, wall time is not), interleaved so a noisy neighbour
# hits every configuration alike.  Configurations (the work's BENCH_MODE):
#   ours-off        nothing counts instructions (mcountinhibit all set):
#                   translated code as without the patch;
#   ours-minstret   minstret counts (QEMU's reset state, and Linux's on
#                   OpenSBI): a per-block add;
#   ours-sample     mhpmcounter3 samples instructions every 4999 (perf
#                   record -c 4999) and every 100003 (about what perf
#                   record's default 4 kHz asks at this speed): the add, the
#                   overflow check per block, a block cut at each overflow
#                   and the interrupt;
#   up-off          QEMU_UPSTREAM, the same work with nothing counting, if
#                   given: the unmodified QEMU 10.2 the goals are against;
#   up-sample       the same sampling on it, whose overflow follows host
#                   time (4999 and 100003 ns): the same interrupt load.
# Goals (issue 40): ours-off <= 1.01 x up-off; sampling at 100003 (denser
# than perf record's default 4 kHz here) <= 1.15 x up-off.  Sampling every
# 4999 is printed against both up-off and up-sample.  Without
# QEMU_UPSTREAM the ratios are over ours-off and the goals are not judged.  With valgrind there, the same runs are also counted in
# host instructions (callgrind, CG_ITERS passes): a measure the load of a
# shared machine does not move.
# QEMU=<our qemu-system-riscv64> (default: the build's copy,
# $O/qemu-rvperf/qemu-system-riscv64); SKIPPED without it.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
cc=${CROSS_CC:-riscv64-linux-gnu-gcc}
rounds=${ROUNDS:-5}
iters=${ITERS:-100000}
cg_iters=${CG_ITERS:-400}
case ${O:-build} in
/*) ours=${QEMU:-$O/qemu-rvperf/qemu-system-riscv64} ;;
*) ours=${QEMU:-$top/${O:-build}/qemu-rvperf/qemu-system-riscv64} ;;
esac
up=${QEMU_UPSTREAM:-}
if [ ! -x "$ours" ]; then
	echo "bench-qemu-insn: SKIPPED (no $ours; pass QEMU=<qemu-system-riscv64 patched with qemu-model/qemu>)"
	exit 0
fi
if ! command -v "$cc" >/dev/null 2>&1; then
	echo "bench-qemu-insn: SKIPPED ($cc not found)"
	exit 0
fi
if [ -n "$up" ] && [ ! -x "$up" ]; then
	echo "bench-qemu-insn: QEMU_UPSTREAM=$up is not executable" >&2
	exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# build NAME MODE PERIOD: the work at both lengths ($tmp/w-NAME.elf and,
# for callgrind, $tmp/s-NAME.elf)
build() {
	for v in "w $iters" "s $cg_iters"; do
		set -- "$1" "$2" "$3" $v
		"$cc" -O1 -march=rv64gc_zicsr -mabi=lp64d -mcmodel=medany \
			-ffreestanding -nostdlib -static -Wl,-Ttext=0x80000000 \
			-DBENCH_MODE="$2" -DBENCH_PERIOD="$3" -DBENCH_ITERS="$5" \
			-I"$top" -I"$top/tests/qemu" -o "$tmp/$4-$1.elf" \
			"$top/tests/qemu/start.S" "$top/tests/qemu/guest.c" \
			"$top/tests/bench/bench-qemu-insn-work.c"
	done
}
build off 0 4999
build minstret 1 4999
build sample 2 4999
build sample100k 2 100003

names=(ours-off ours-minstret ours-sample ours-sample100k)
cmds=("$ours off" "$ours minstret" "$ours sample" "$ours sample100k")
if [ -n "$up" ]; then
	names+=(up-off up-sample up-sample100k)
	cmds+=("$up off" "$up sample" "$up sample100k")
fi
qemu_cmd() {	# QEMU ELF: the command line of one boot to power-off
	echo "$1" -M virt -bios none -display none -monitor none \
		-serial stdio -cpu rv64,sscofpmf=true -kernel "$2"
}
# One boot: CPU seconds (user + system); checks it ran to the end and, when
# sampling, took about one interrupt per period.
run() {	# run QEMU WORK
	local out
	# shellcheck disable=SC2046
	out=$(TIMEFORMAT='%U %S'; { time $(qemu_cmd "$1" "$tmp/w-$2.elf") \
		</dev/null >"$tmp/out"; } 2>&1)
	check_out "$1 $2"
	echo "${out% *} + ${out#* }" | bc -l
}
check_out() {
	if ! grep -q END "$tmp/out"; then
		echo "bench-qemu-insn: $1 did not finish" >&2
		exit 1
	fi
	case $1 in
	*sample*)
		grep -q '^lcofis=0x[1-9a-f]' "$tmp/out" ||
			{ echo "bench-qemu-insn: $1 took no overflow interrupts: $(tr '\n' ' ' <"$tmp/out")" >&2; exit 1; } ;;
	esac
}
declare -A best
for _ in $(seq "$rounds"); do
	for i in "${!names[@]}"; do
		# shellcheck disable=SC2086
		t=$(run ${cmds[$i]})
		b=${best[${names[$i]}]:-}
		if [ -z "$b" ] || [ "$(echo "$t < $b" | bc -l)" = 1 ]; then
			best[${names[$i]}]=$t
		fi
	done
done
base=ours-off
[ -z "$up" ] || base=up-off
r() { echo "$1 / ${best[$base]}" | bc -l; }
verdict() { [ "$(echo "$1" | bc -l)" = 1 ] && echo "goal met" || echo "goal NOT met"; }
status=0
echo "qemu-system-riscv64 without -icount, bare-metal CRC-32: $iters x 4 KiB, best of $rounds"
for n in "${names[@]}"; do
	printf '  %-16s %7.3f s  %.3f x %s\n' "$n" "${best[$n]}" "$(r "${best[$n]}")" "$base"
done
if [ -n "$up" ]; then
	o=$(r "${best[ours-off]}")
	s=$(r "${best[ours-sample100k]}")
	printf '  ours-off / up-off                 %.3f  (goal <= 1.01: %s)\n' "$o" "$(verdict "$o <= 1.01")"
	printf '  ours-sample100k / up-off          %.3f  (goal <= 1.15: %s)\n' "$s" "$(verdict "$s <= 1.15")"
	printf '  ours-sample / up-sample (4999)    %.3f\n' "$(echo "${best[ours-sample]} / ${best[up-sample]}" | bc -l)"
	printf '  ours-sample100k / up-sample100k   %.3f\n' "$(echo "${best[ours-sample100k]} / ${best[up-sample100k]}" | bc -l)"
	[ "$(echo "$o <= 1.01 && $s <= 1.15" | bc -l)" = 1 ] || status=1
else
	echo "  goals against QEMU without our patches: SKIPPED (pass QEMU_UPSTREAM=<unmodified QEMU 10.2>)"
fi

command -v valgrind >/dev/null 2>&1 || {
	echo "  host instructions: SKIPPED (no valgrind)"
	exit $status
}
declare -A ir
for i in "${!names[@]}"; do
	# under valgrind host time runs far slower than the guest: not
	# comparable for upstream's host-time sampling
	case ${names[$i]} in up-sample*) continue ;; esac
	# shellcheck disable=SC2086
	set -- ${cmds[$i]}
	# shellcheck disable=SC2046
	valgrind --tool=callgrind --smc-check=all \
		--callgrind-out-file="$tmp/cg" $(qemu_cmd "$1" "$tmp/s-$2.elf") \
		</dev/null >"$tmp/out" 2>"$tmp/cg.err"
	check_out "callgrind ${names[$i]}"
	ir[${names[$i]}]=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$tmp/cg.err")
done
echo "host instructions (callgrind), $cg_iters x 4 KiB:"
for n in "${names[@]}"; do
	[ -n "${ir[$n]:-}" ] || continue
	printf '  %-16s %12d  %.4f x %s\n' "$n" "${ir[$n]}" \
		"$(echo "${ir[$n]} / ${ir[$base]}" | bc -l)" "$base"
done
if [ -n "$up" ]; then
	o=$(echo "${ir[ours-off]} / ${ir[up-off]}" | bc -l)
	s=$(echo "${ir[ours-sample100k]} / ${ir[up-off]}" | bc -l)
	printf '  ours-off / up-off                 %.4f  (goal <= 1.01: %s)\n' "$o" "$(verdict "$o <= 1.01")"
	printf '  ours-sample100k / up-off          %.4f  (goal <= 1.15: %s)\n' "$s" "$(verdict "$s <= 1.15")"
fi
exit $status
