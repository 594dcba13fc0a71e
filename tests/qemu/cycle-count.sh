#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Cycles without -icount on a QEMU with qemu-model/qemu (patch 0009):
# cycle-count.c's known sequences counted by mcycle and by an hpm counter
# counting cycles must be exactly (instructions) x the CPU's rvperf-cpi,
# the same on every run, with mcountinhibit applied, and that counter's
# LCOFI taken right after the instruction whose cycles made it wrap; with
# rvperf-cycles=host they are host time (QEMU's own behaviour), under
# -icount QEMU's virtual clock (rvperf-cpi ignored); a bad property value
# is refused.  Plain hart and rvperf model (which leaves cycles to QEMU).
# QEMU=/path/to/qemu-system-riscv64; SKIPs without it (or without our
# ctr-layout property).
set -u
. "$(dirname "$0")/lib.sh"
need_rvperf_qemu
make_tmp
build_guest_or_bail "$tmp/g.elf" "$top/tests/qemu/cycle-count.c" \
	"$top/tests/qemu/hpm3.c"
ks="1 2 3 100 513 2000"
per_model=$((6 + 6 * 2))
echo "1..$((3 * per_model + 2 + 2 + 1 + 2))"
i=1

# run NAME CPU [QEMU options]: the guest's name=value lines in $tmp/NAME
run() {
	name=$1 cpu=$2
	shift 2
	timeout 120 "$QEMU" -M virt -bios none -nographic -monitor none \
		-serial stdio -cpu "$cpu" "$@" -kernel "$tmp/g.elf" \
		</dev/null 2>"$tmp/$name.err" |
		tr -d '\r' | sed -n '/^BEGIN$/,/^END$/p' | sed '1d;$d' >"$tmp/$name"
	[ -s "$tmp/$name" ] || sed 's/^/# /' "$tmp/$name.err" | head -5
}

# val NAME KEY [NTH]: the NTH (1st) value of KEY in run NAME, in decimal
val() {
	v=$(sed -n "s/^$2=//p" "$tmp/$1" | sed -n "${3:-1}p")
	[ -n "$v" ] && printf '%d' "$v" || echo missing
}

# check DESC GOT WANT
check() {
	if [ "$2" = "$3" ]; then
		echo "ok $i $1"
	else
		echo "not ok $i $1 (want $3, got $2)"
	fi
	i=$((i + 1))
}

# model_checks NAME CPI LABEL: the counts of run NAME are CPI x instructions
model_checks() {
	c=$2
	check "$3: mcycle over 1000 loop iterations: 2001 x $c" \
		"$(val "$1" loop1000)" $((2001 * c))
	check "$3: mcycle over 100000 iterations: 200001 x $c" \
		"$(val "$1" loop100000)" $((200001 * c))
	check "$3: mcycle counts with minstret and hpm inhibited" \
		"$(val "$1" loop1000_cy_only)" $((2001 * c))
	check "$3: mcountinhibit.CY stops mcycle" \
		"$(val "$1" loop1000_cy_inhibited)" 0
	check "$3: mhpmcounter3 (cycles event) over 1000 iterations" \
		"$(val "$1" hpm3_loop1000)" $((2001 * c))
	check "$3: the guest's CPI" "$(val "$1" cpi)" "$c"
	n=1
	for k in $ks; do
		check "$3: cycles counter from -($k x $c - $(($c - 1))): LCOFI after instruction k=$k (mepc = sled + 4k)" \
			"$(val "$1" lcofi_at $n)" $((4 * k))
		check "$3: mhpmevent3.OF after k=$k" "$(val "$1" lcofi_of $n)" 1
		n=$((n + 1))
	done
}

run cpi1 rv64,sscofpmf=true
run cpi1b rv64,sscofpmf=true
run cpi3 rv64,sscofpmf=true,rvperf-cpi=3
run model rv64,sscofpmf=true,smctr=true,ssctr=true,ctr-layout=ratified
model_checks cpi1 1 "default (rvperf-cpi=1)"
model_checks cpi3 3 "rvperf-cpi=3"
model_checks model 1 "ctr-layout=ratified"
if [ -s "$tmp/cpi1" ] && cmp -s "$tmp/cpi1" "$tmp/cpi1b"; then
	echo "ok $i deterministic: a second run prints the same counts"
else
	echo "not ok $i deterministic: a second run prints the same counts"
	diff "$tmp/cpi1" "$tmp/cpi1b" | sed 's/^/# /' | head -10
fi
i=$((i + 1))
run cpi3b rv64,sscofpmf=true,rvperf-cpi=3
if [ -s "$tmp/cpi3" ] && cmp -s "$tmp/cpi3" "$tmp/cpi3b"; then
	echo "ok $i deterministic with rvperf-cpi=3"
else
	echo "not ok $i deterministic with rvperf-cpi=3"
fi
i=$((i + 1))

# Host time: counts emulation time, not 200001 x anything fixed.
run host rv64,sscofpmf=true,rvperf-cycles=host
h=$(val host loop100000)
if [ "$h" != missing ] && [ "$h" != 200001 ] && [ "$h" -gt 0 ]; then
	echo "ok $i rvperf-cycles=host: mcycle is host time ($h over 200001 instructions)"
else
	echo "not ok $i rvperf-cycles=host: mcycle is host time (got $h)"
fi
i=$((i + 1))
check "rvperf-cycles=host: mcountinhibit.CY still stops mcycle" \
	"$(val host loop1000_cy_inhibited)" 0

# Under -icount QEMU's virtual clock counts, whatever rvperf-cpi says.
run icount rv64,sscofpmf=true,rvperf-cpi=3 -icount shift=0
check "-icount shift=0, rvperf-cpi=3: mcycle is the virtual clock (2001)" \
	"$(val icount loop1000)" 2001

# Bad values: QEMU refuses to start, with the property named.
for bad in rvperf-cycles=wall rvperf-cpi=0; do
	if timeout 30 "$QEMU" -M virt -bios none -nographic -monitor none \
		-serial none -cpu rv64,$bad -kernel "$tmp/g.elf" </dev/null \
		>/dev/null 2>"$tmp/bad.err"; then
		echo "not ok $i $bad is refused (QEMU ran)"
	elif grep -q "${bad%%=*}" "$tmp/bad.err"; then
		echo "ok $i $bad is refused: $(head -1 "$tmp/bad.err")"
	else
		echo "not ok $i $bad is refused with its name ($(head -1 "$tmp/bad.err"))"
	fi
	i=$((i + 1))
done
