#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# The SBI PMU conformance suite (conf.c, an S-mode payload printing TAP)
# booted in QEMU virt on:
#   rvperf-fw   the rvperf test firmware (opensbi-ext/firmware/): must pass
#               completely, no TODO;
#   opensbi-1.1 Debian's OpenSBI 1.1 (qemu-system-data): its gaps are the
#               payload's "# TODO" results, with reasons;
#   given       with --fw FIRMWARE (make check-e2e OPENSBI_FW=...): that
#               firmware instead of Debian's; --name NAME names it, --only
#               leaves the test firmware out (make check's run on the
#               platform firmware, whose test-firmware twin runs already);
#               --rvperf says FIRMWARE hosts rvperf's PMU core (as the
#               test firmware does): the core's own firmware events and
#               bounds must then work, not be skipped;
#               --known-fault CASE (wrap, span, past; repeatable) says FIRMWARE
#               faults on that boot below (upstream OpenSBI): its failing
#               is then an expected failure (TODO) with the reason, not a
#               failure; a boot that passes is a pass.
# Every payload result becomes one result here, prefixed by the firmware's
# name; plus, per boot, that QEMU ended by itself in time (a hang fails) and
# that the payload printed its whole plan.  -icount shift=0 makes counts
# exact.  QEMU_SYSTEM=... picks another qemu-system-riscv64.
# Each firmware also gets three short boots (CONF_ALONE_TIMEOUT seconds) of
# checks on which upstream OpenSBI up to 1.9 faults in M-mode and hangs the
# hart, each alone so that the hang cannot take the rest of the suite down:
#   NAME-wrap   (bootargs evwrap=1) event_get_info with a num_entries whose
#               16 * num_entries wraps;
#   NAME-span   (evspan=1) event_get_info on a buffer that wraps the address
#               space (OpenSBI 1.8.1 faults; fixed upstream in v1.9);
#   NAME-past   (evpast=1) event_get_info on entries past the end of RAM.
# --ctr-qemu QEMU (a QEMU with Smctr/Ssctr: Debian's 10.0.2) adds two boots
# of the firmware's CTR setup on two harts with CTR, each on its own:
#   NAME-ctr    (ctr=1) the devicetree declares smctr and ssctr: S-mode
#               reaches the CTR CSRs, nothing recorded at entry, the largest
#               depth, no firmware control flow in the records, no records
#               left after an HSM stop/start or a non-retentive suspend;
#   NAME-ctr-hidden (ctr=hidden) the same harts, but a devicetree without
#               smctr and ssctr: the firmware leaves CTR alone (S-mode's
#               sctrctl access traps).
# --ctr-gap says FIRMWARE is upstream OpenSBI without CTR management: what
# it lacks is then an expected failure naming the patch that adds it.
# --board adds two boots of a board's own PMU device (FIRMWARE is generic
# OpenSBI built with rvperf's test board override, tests/opensbi-board/):
#   NAME-board  (board=1) QEMU virt's devicetree with the root compatible
#               "rvperf,pmu-test-board" first: the override installs its
#               sbi_pmu_device, and OpenSBI must call its hardware counter
#               callbacks as counters are configured, started and stopped;
#   NAME-board-inert (board=inert) QEMU virt's own devicetree: the
#               override stays out.
set -u
. tests/tap.sh
O=${O:-build}
given= name=given only=0 rvperf=0 faults= ctr_qemu= ctr_gap= board=
while [ $# -gt 0 ]; do
	case $1 in
	--fw) given=${2:-}; shift ;;
	--name) name=${2:-given}; shift ;;
	--only) only=1 ;;
	--rvperf) rvperf=1 ;;
	--ctr-qemu) ctr_qemu=${2:-}; shift ;;
	--ctr-gap) ctr_gap=1 ;;
	--board) board=1 ;;
	--known-fault)
		case ${2:-} in
		wrap | span | past) faults="$faults $2" ;;
		*) echo "Bail out! run.sh: --known-fault wrap|span|past"; exit 1 ;;
		esac
		shift ;;
	*) echo "Bail out! run.sh: unknown argument $1"; exit 1 ;;
	esac
	shift
done
# A directory per firmware name: make check runs several of these at once.
out=$O/tests/conformance/${given:+$name}
[ -n "$given" ] || out=$O/tests/conformance/default
mkdir -p "$out"
qemu=${QEMU_SYSTEM:-qemu-system-riscv64}
cross=${CROSS_COMPILE:-riscv64-linux-gnu-}
osbi=/usr/share/qemu/opensbi-riscv64-generic-fw_dynamic.bin
timeout_s=${CONF_TIMEOUT:-60}
alone_timeout_s=${CONF_ALONE_TIMEOUT:-15}
# what each boot checks, and why a --known-fault firmware fails it
what_wrap="num_entries 2^60 + 1 on a valid buffer: SBI_ERR_INVALID_ADDRESS, no M-mode fault"
what_span="a buffer wrapping the address space: SBI_ERR_INVALID_ADDRESS, no M-mode fault"
what_past="entries past the end of RAM: SBI_ERR_INVALID_ADDRESS, no M-mode fault"
gap_wrap="upstream faults in M-mode: fixed by opensbi-ext/patches/0001"
gap_span="OpenSBI 1.8.1's domain check accepts a range that wraps and faults in M-mode: fixed upstream in v1.9 (9595829a), and by opensbi-ext/patches/0009"
gap_past="upstream OpenSBI reads entries past RAM (its root domain gives S-mode every address) and faults in M-mode: fixed by opensbi-ext/patches/0009"

if ! command -v "$qemu" >/dev/null 2>&1; then
	echo "1..0 # SKIP $qemu not installed (make deps)"
	exit 0
fi
if ! command -v "${cross}gcc" >/dev/null 2>&1; then
	echo "1..0 # SKIP ${cross}gcc not installed (make deps)"
	exit 0
fi
opensbi-ext/firmware/build-fw.sh "$out/rvperf-fw.elf" >"$out/build.log" 2>&1
ok $? "the rvperf test firmware builds"
tests/conformance/build-conf.sh "$out/conf.elf" >>"$out/build.log" 2>&1
ok $? "the conformance payload builds"
[ -f "$out/rvperf-fw.elf" ] && [ -f "$out/conf.elf" ] ||
	{ diag "$(tail -5 "$out/build.log")"; tap_done; exit 1; }

# relay NAME LOG: the payload's results in LOG as ours, each named NAME: ...
# (a failure with the payload's comment lines after it); sets n (results),
# todo (expected failures, never passes whatever their result) and plan.
relay() {
	local name=$1 log=$2 res l
	n=0
	todo=0
	while IFS= read -r l; do
		n=$((n + 1))
		res=${l#*ok [0-9]* - }
		tap_n=$((tap_n + 1))
		case $l in
		*" # TODO "*)
			todo=$((todo + 1))
			echo "not ok $tap_n - $name: $res" ;;
		"ok "*) echo "ok $tap_n - $name: $res" ;;
		*)
			echo "not ok $tap_n - $name: $res"
			tap_failed=$((tap_failed + 1))
			grep -aA3 -F "$l" "$log" | sed -n '2,4p' | grep -a '^#' ;;
		esac
	done < <(grep -aE '^(not )?ok [0-9]+ - ' "$log")
	plan=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$log" | tail -1)
}

# boot NAME FIRMWARE STRICT [BOOTARGS]: the payload's results as ours;
# STRICT=1: no TODO
boot() {
	local name=$1 fw=$2 strict=$3 log=$out/$1.log st res n plan todo l
	timeout "$timeout_s" "$qemu" -M virt -cpu rv64,sscofpmf=true -smp 1 \
		-m 256M -display none -monitor none -serial stdio \
		-icount shift=0 -bios "$fw" -kernel "$out/conf.elf" \
		-append "${4:-}" </dev/null 2>&1 | tr -d '\r' >"$log"
	st=${PIPESTATUS[0]}
	relay "$name" "$log"
	[ "$st" -eq 0 ]
	ok $? "$name: QEMU shut down by itself within ${timeout_s}s (exit $st; 124 is a hang)"
	[ -n "$plan" ] && [ "$n" -eq "$plan" ] && [ "$plan" -ge 100 ]
	ok $? "$name: the payload ran to its end ($n of ${plan:-?} results, at least 100)"
	[ "$n" -gt 0 ] || diag "$(tail -5 "$log")"
	if [ "$strict" = 1 ]; then
		[ "$todo" -eq 0 ]
		ok $? "$name: no expected failures (the firmware claims every feature checked)"
	fi
	diag "$name: $n checks, $todo TODO; log $log"
}

# alone NAME FIRMWARE CASE [BOOTARGS]: the ev$CASE=1 boot.  If CASE is
# one of the firmware's --known-fault and the boot fails (a hang, a missing
# or failing result), that is one expected failure, shown with the
# firmware's trap report.
alone() {
	local name=$1-$3 fw=$2 case=$3 log=$out/$1-$3.log st res n=0 plan todo l
	local results gap= what
	case " $faults " in *" $case "*) eval "gap=\$gap_$case" ;; esac
	eval "what=\$what_$case"
	timeout "$alone_timeout_s" "$qemu" -M virt -cpu rv64,sscofpmf=true \
		-smp 1 -m 256M -display none -monitor none -serial stdio \
		-icount shift=0 -bios "$fw" -kernel "$out/conf.elf" \
		-append "ev$case=1${4:+ $4}" </dev/null 2>&1 | tr -d '\r' >"$log"
	st=${PIPESTATUS[0]}
	results=$(grep -aE '^(not )?ok [0-9]+ - ' "$log")
	plan=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$log" | tail -1)
	[ -n "$results" ] && n=$(echo "$results" | wc -l)
	if [ -n "$gap" ] && { [ "$st" -ne 0 ] || [ -z "$plan" ] ||
			echo "$results" | grep -q '^not ok'; }; then
		tap_n=$((tap_n + 1))
		echo "not ok $tap_n - $name: [FID #8 Get PMU Event info] $what # TODO $gap"
		diag "$name: QEMU exit $st (124: the hart hangs), $n results; the firmware's trap report:"
		diag "$(grep -a -m4 '^sbi_trap_error' "$log")"
		return
	fi
	relay "$name" "$log"
	if [ -z "$plan" ]; then		# the checks never finished: a fault
		tap_n=$((tap_n + 1))
		tap_failed=$((tap_failed + 1))
		echo "not ok $tap_n - $name: [FID #8 Get PMU Event info] $what"
	fi
	[ "$st" -eq 0 ]
	ok $? "$name: QEMU shut down by itself within ${alone_timeout_s}s (exit $st; 124 is a hang)"
	[ -n "$plan" ] && [ "$n" -eq "$plan" ] && [ "$plan" -ge 2 ]
	ok $? "$name: the payload ran to its end ($n of ${plan:-?} results, at least 2)"
	[ "$st" -eq 0 ] && [ -n "$plan" ] ||
		diag "$(grep -a -m4 '^sbi_trap_error' "$log"; tail -2 "$log")"
}

# boot_end NAME LOG MIN QEMU ARGS...: a boot of its own (QEMU and its
# arguments; the payload's output to LOG), its results relayed as NAME's,
# then that QEMU shut down by itself and that the payload ran to its end
# with at least MIN results.
boot_end() {
	local name=$1 log=$2 min=$3 st n plan todo
	shift 3
	timeout "$alone_timeout_s" "$@" </dev/null 2>&1 | tr -d '\r' >"$log"
	st=${PIPESTATUS[0]}
	relay "$name" "$log"
	[ "$st" -eq 0 ]
	ok $? "$name: QEMU shut down by itself within ${alone_timeout_s}s (exit $st; 124 is a hang)"
	[ -n "$plan" ] && [ "$n" -eq "$plan" ] && [ "$plan" -ge "$min" ]
	ok $? "$name: the payload ran to its end ($n of ${plan:-?} results, at least $min)" ||
		diag "$(grep -a -m4 '^sbi_trap_error' "$log"; tail -3 "$log")"
}

# ctr NAME FIRMWARE: the two CTR boots on $ctr_qemu, two harts with CTR.
ctr_cpu=rv64,sscofpmf=true,smctr=true,ssctr=true,smcsrind=true,sscsrind=true,smstateen=true
ctr() {
	local name fw=$2 mode log min l args isa exts dtb
	for mode in 1 hidden; do
		name=$1-ctr log=$out/$1-ctr-$mode.log
		[ $mode = 1 ] || name=$1-ctr-$mode
		args="ctr=$mode${ctr_gap:+ ctrgap=1}" dtb=()
		if [ $mode = hidden ]; then
			# QEMU's own devicetree for these harts, without the
			# two names in riscv,isa-extensions and riscv,isa
			"$ctr_qemu" -M virt,dumpdtb="$out/ctr-hidden.dtb" \
				-cpu "$ctr_cpu" -smp 2 -m 256M -display none \
				>/dev/null 2>&1
			for l in /cpus/cpu@0 /cpus/cpu@1; do
				exts=$(fdtget "$out/ctr-hidden.dtb" $l riscv,isa-extensions |
					tr ' ' '\n' | grep -vx 'smctr\|ssctr')
				isa=$(fdtget "$out/ctr-hidden.dtb" $l riscv,isa |
					sed 's/_smctr//; s/_ssctr//')
				# shellcheck disable=SC2086
				fdtput -t s "$out/ctr-hidden.dtb" $l riscv,isa-extensions $exts &&
					fdtput -t s "$out/ctr-hidden.dtb" $l riscv,isa "$isa"
			done
			fdtput -t s "$out/ctr-hidden.dtb" /chosen bootargs "$args"
			dtb=(-dtb "$out/ctr-hidden.dtb")
		fi
		min=12
		[ $mode = 1 ] || min=1
		boot_end "$name" "$log" $min "$ctr_qemu" -M virt -cpu "$ctr_cpu" \
			-smp 2 -m 256M -display none -monitor none -serial stdio \
			-icount shift=0 -bios "$fw" -kernel "$out/conf.elf" \
			-append "$args" "${dtb[@]}"
	done
}

# board NAME FIRMWARE: the two boots of --board, one hart, as boot() has.
board() {
	local name fw=$2 mode log min dtb
	for mode in 1 inert; do
		name=$1-board log=$out/$1-board-$mode.log dtb=()
		[ $mode = 1 ] || name=$1-board-$mode
		if [ $mode = 1 ]; then
			# QEMU's own devicetree for this machine, its root
			# compatible with the test board first (as a board's
			# devicetree names the board, then the SoC)
			"$qemu" -M virt,dumpdtb="$out/board.dtb" \
				-cpu rv64,sscofpmf=true -smp 1 -m 256M \
				-display none >/dev/null 2>&1 &&
				fdtput -t s "$out/board.dtb" / compatible \
					rvperf,pmu-test-board riscv-virtio &&
				fdtput -t s "$out/board.dtb" /chosen bootargs \
					"board=$mode"
			ok $? "$name: QEMU virt's devicetree with the test board's root compatible"
			dtb=(-dtb "$out/board.dtb")
		fi
		min=14
		[ $mode = 1 ] || min=1
		boot_end "$name" "$log" $min "$qemu" -M virt -cpu rv64,sscofpmf=true \
			-smp 1 -m 256M -display none -monitor none -serial stdio \
			-icount shift=0 -bios "$fw" -kernel "$out/conf.elf" \
			-append "board=$mode" "${dtb[@]}"
	done
}

if [ $only != 1 ]; then
	boot rvperf-fw "$out/rvperf-fw.elf" 1 rvperf=1
	alone rvperf-fw "$out/rvperf-fw.elf" wrap rvperf=1
	alone rvperf-fw "$out/rvperf-fw.elf" span rvperf=1
	alone rvperf-fw "$out/rvperf-fw.elf" past rvperf=1
fi
if [ -n "$given" ]; then
	[ -f "$given" ]
	ok $? "the firmware passed in exists ($given)"
	args=
	[ $rvperf = 1 ] && args=rvperf=1
	if [ -f "$given" ]; then
		boot "$name" "$given" 0 $args
		alone "$name" "$given" wrap $args
		alone "$name" "$given" span $args
		alone "$name" "$given" past $args
	fi
	if [ -n "$ctr_qemu" ] && [ -f "$given" ]; then
		if command -v "$ctr_qemu" >/dev/null 2>&1 && command -v fdtput >/dev/null 2>&1; then
			ctr "$name" "$given"
		else
			tap_n=$((tap_n + 1))
			echo "ok $tap_n - $name-ctr # SKIP $ctr_qemu or fdtput (device-tree-compiler) missing"
		fi
	fi
	if [ -n "$board" ] && [ -f "$given" ]; then
		if command -v fdtput >/dev/null 2>&1; then
			board "$name" "$given"
		else
			tap_n=$((tap_n + 1))
			echo "ok $tap_n - $name-board # SKIP fdtput (device-tree-compiler) missing"
		fi
	fi
elif [ -f "$osbi" ]; then
	boot opensbi-1.1 "$osbi" 0
	alone opensbi-1.1 "$osbi" wrap
	alone opensbi-1.1 "$osbi" span
	alone opensbi-1.1 "$osbi" past
else
	echo "ok $((tap_n + 1)) - opensbi-1.1 # SKIP $osbi missing (qemu-system-data)"
	tap_n=$((tap_n + 1))
fi
tap_done
