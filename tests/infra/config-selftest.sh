#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Every Kconfig option changes something: the generated header, the rvperf
# tool's defaults, the binaries check-e2e uses.  Works in a build directory
# of its own.
set -u
. tests/tap.sh
O=${O:-build}
sub=$O/selftest-config
rm -rf "$sub"
hdr=$sub/include/generated/rvperf_config.h
setcfg() { KCONFIG_CONFIG=$sub/.config /usr/bin/python3 -m setconfig --kconfig Kconfig "$@" >/dev/null; }

make -s config O="$sub" >/dev/null 2>&1
grep -qx '#define CONFIG_CTR_LAYOUT_RATIFIED 1' "$hdr" && ! grep -q CTR_LAYOUT_DRAFT "$hdr"
ok $? "the default layout is the ratified v1.0 one"
grep -qx '#define CONFIG_CTR_DEPTH 16' "$hdr"
ok $? "the default depth is 16"
make -s O="$sub" "$sub/userspace/rvperf" >/dev/null 2>&1
[ "$("$sub/userspace/rvperf" config 2>&1 | tr '\n' ' ')" = "ctr-layout: ratified-1.0 ctr-depth: 16 " ]
ok $? "rvperf built with the defaults uses the ratified layout and depth 16"

setcfg CTR_LAYOUT_DRAFT=y CTR_DEPTH_64=y
make -s config O="$sub" >/dev/null 2>&1
grep -qx '#define CONFIG_CTR_LAYOUT_DRAFT 1' "$hdr" && ! grep -q CTR_LAYOUT_RATIFIED "$hdr"
ok $? "choosing the draft layout reaches the header"
grep -qx '#define CONFIG_CTR_DEPTH 64' "$hdr"
ok $? "choosing depth 64 reaches the header"
make -s O="$sub" "$sub/userspace/rvperf" >/dev/null 2>&1
[ "$("$sub/userspace/rvperf" config 2>&1 | tr '\n' ' ')" = "ctr-layout: draft-0.1.4 ctr-depth: 64 " ]
ok $? "rvperf rebuilt with them uses the draft layout and depth 64"
make -s savedefconfig O="$sub" >/dev/null 2>&1
grep -qx 'CONFIG_CTR_LAYOUT_DRAFT=y' "$sub/defconfig" && grep -qx 'CONFIG_CTR_DEPTH_64=y' "$sub/defconfig"
ok $? "savedefconfig keeps both choices"

# The E2E paths: a configured path is used, a wrong one stops make with a
# single line before anything is built, and the command line wins.
setcfg 'E2E_QEMU=/nonexistent/qemu-from-config'
fails_in_one_line "CONFIG_E2E_QEMU is what check-e2e runs (a wrong one: one-line error)" \
	'QEMU=/nonexistent/qemu-from-config is not an executable' make -s check-e2e O="$sub"
fails_in_one_line "QEMU= on the command line overrides CONFIG_E2E_QEMU" \
	'QEMU=/nonexistent/qemu-from-cmdline is not' \
	make -s check-e2e O="$sub" QEMU=/nonexistent/qemu-from-cmdline
setcfg 'E2E_QEMU=qemu-system-riscv64' 'E2E_OPENSBI_FW=/nonexistent/fw.bin'
fails_in_one_line "CONFIG_E2E_OPENSBI_FW is what check-e2e boots (a wrong one: one-line error)" \
	'OPENSBI_FW=/nonexistent/fw.bin does not exist' make -s check-e2e O="$sub"
tap_done
