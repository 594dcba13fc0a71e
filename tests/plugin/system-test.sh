#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# The CTR plugin in system mode: Debian's qemu-system-riscv64 7.2 (or
# QEMU_SYSTEM=...) boots the guest kernel and runs branchy and perf without
# branch stacks (GUEST_SYSPLUGIN_INITRD) with the plugin loaded.  QEMU 7.2 does not tell plugins
# the privilege mode, so the plugin infers it from the address; QEMU 9.0
# and later give it the priv register (qemu-model/plugin/README.md).  What
# must hold: a U-only recording never holds a kernel address, an S-only one
# never a user address (physical ones, yes: the kernel before its MMU is
# on), and with both, samples come from both modes; with the register, an
# M-only recording holds only physical addresses (the firmware).
set -u
. tests/tap.sh
O=${O:-build}
plugin=$O/qemu-model/librvperf-ctr.so
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

qemu=${QEMU_SYSTEM:-qemu-system-riscv64}
if ! command -v "$qemu" >/dev/null; then
	echo "1..0 # SKIP $qemu not installed (make deps)"
	exit 0
fi
# A QEMU configured without plugins (--disable-plugins, or
# --without-default-features) cannot run this test at all.
if "$qemu" -plugin help 2>&1 | grep -q 'plugin interface not enabled'; then
	echo "1..0 # SKIP $qemu was built without TCG plugins"
	exit 0
fi
version=$("$qemu" --version | sed -n 's/.*version \([0-9]*\)\..*/\1/p;q')
kernel=$(make -s --no-print-directory O="$O" print-GUEST_KERNEL)
initrd=$(make -s --no-print-directory O="$O" print-GUEST_SYSPLUGIN_INITRD)
make -s O="$O" guest-kernel "$initrd" >"$tmp/make.log" 2>&1
ok $? "the guest kernel and the run image are built"
[ -f "$kernel" ] && [ -f "$initrd" ] || { diag "$(tail -5 "$tmp/make.log")"; tap_done; exit 1; }

boot() {	# boot NAME FILTER: the run plan with the plugin recording FILTER
	scripts/guest/guest.py run --qemu "$qemu" --kernel "$kernel" --initrd "$initrd" \
		--out "$tmp/$1" --icount 0 --timeout 300 \
		--qemu-arg=-plugin \
		--qemu-arg="$plugin,out=$tmp/$1.rvt,filter=$2,period=100003" \
		>"$tmp/$1.log" 2>&1 &&
	grep -q 'branchy: 20000 rounds' "$tmp/$1.log" &&
	tests/plugin/trace-summary.py "$tmp/$1.rvt" >"$tmp/$1.sum"
}
val() { sed -n "s/^$2=//p" "$tmp/$1.sum"; }

boot user 'any,,u'
ok $? "boot with the plugin recording U-mode; the workload ran"
[ "$(val user samples)" -gt 0 ] && [ "$(val user user_addr_records)" -gt 0 ]
ok $? "U-only: samples with user-address records ($(val user samples) samples)"
[ "$(val user kernel_addr_records)" = 0 ]
ok $? "U-only: no record holds a kernel address"

boot kernel 'any,,k'
ok $? "boot with the plugin recording S-mode"
[ "$(val kernel kernel_addr_records)" -gt 0 ] && [ "$(val kernel user_addr_records)" = 0 ]
ok $? "S-only: kernel-address records, none with a user address ($(val kernel kernel_addr_records) records, $(val kernel user_addr_records) user)"

boot both 'any,,u,,k'
ok $? "boot with the plugin recording U and S"
[ "$(val both samples_mode_u)" -gt 0 ] && [ "$(val both samples_mode_s)" -gt 0 ] &&
	[ "$(val both kernel_addr_records)" -gt 0 ] && [ "$(val both user_addr_records)" -gt 0 ]
ok $? "U and S: samples in both modes, records of both ($(val both samples_mode_u) U, $(val both samples_mode_s) S)"
[ "$(val both dropped)" -lt "$(( $(val both transfers) / 100 ))" ]
ok $? "fewer than 1% of transfers dropped for traps the plugin cannot see ($(val both dropped) of $(val both transfers))"
if [ "${version:-0}" -ge 9 ]; then
	boot machine 'any,,hv'
	ok $? "QEMU $version: boot with the plugin recording M-mode only"
	[ "$(val machine samples_mode_m)" -gt 0 ] && [ "$(val machine phys_addr_records)" -gt 0 ] &&
		[ "$(val machine kernel_addr_records)" = 0 ] && [ "$(val machine user_addr_records)" = 0 ]
	ok $? "QEMU $version: the priv register tells M-mode apart: M-only records hold only firmware addresses ($(val machine samples_mode_m) M samples)"
else
	ok 0 "M-mode told apart from S and U # SKIP QEMU ${version:-?} has no register API (9.0+)"
fi
[ $tap_failed -eq 0 ] || diag "$(cat "$tmp"/*.log | tail -20)"
tap_done
