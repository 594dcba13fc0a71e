#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The OpenSBI platform's defconfigs and build switches: draft_defconfig is
# defconfig with the v0.1.4 draft CTR layout on and nothing else changed;
# the draft is off and the QEMU quirk on by default, in Kconfig and in
# generic.mk (whose RVPERF_QEMU_QUIRKS=0 is the make switch).
. "$(dirname "$0")/../tap.sh"
d=opensbi-ext
# kconfig_default SYMBOL: the first "default" line of its entry.
kconfig_default() {
	awk -v s="config $1" '$0 == s { on = 1; next }
		on && /^(config|menu|endmenu|if|endif|choice)/ { exit }
		on && $1 == "default" { print $2; exit }' "$d/Kconfig"
}
strip() { grep -v -e '^# ' -e '^$' "$1" | grep -v 'RVPERF_CTR_DRAFT'; }
[ "$(strip $d/configs/defconfig)" = "$(strip $d/configs/draft_defconfig)" ]
ok $? "draft_defconfig is defconfig but for the draft CTR layout"
grep -qx '# CONFIG_RVPERF_CTR_DRAFT is not set' $d/configs/defconfig &&
	grep -qx 'CONFIG_RVPERF_CTR_DRAFT=y' $d/configs/draft_defconfig &&
	[ "$(kconfig_default RVPERF_CTR_DRAFT)" = n ] &&
	! grep -q '^platform-genflags-y.*CONFIG_RVPERF_CTR_DRAFT' $d/generic.mk
ok $? "the draft CTR layout is off by default (Kconfig, defconfig, generic.mk); on in draft_defconfig"
grep -qx 'CONFIG_RVPERF_QEMU_QUIRKS=y' $d/configs/defconfig &&
	[ "$(kconfig_default RVPERF_QEMU_QUIRKS)" = y ] &&
	grep -qx 'RVPERF_QEMU_QUIRKS ?= 1' $d/generic.mk &&
	grep -qx 'platform-genflags-y += -DCONFIG_RVPERF_QEMU_QUIRKS=1' $d/generic.mk
ok $? "the QEMU quirk is built in by default (Kconfig, defconfig, generic.mk), used on QEMU virt only"
# generic.mk's switch: RVPERF_QEMU_QUIRKS=0 drops the define.  It is read
# as OpenSBI reads it, from platform/generic/rvperf with src linked here.
gen=$(mktemp -d)
trap 'rm -rf "$gen"' EXIT
mkdir -p "$gen/rvperf"
ln -s "$PWD/$d" "$gen/rvperf/src"
flags() {
	printf 'include %s\nall:\n\t@echo $(platform-genflags-y)\n' "$d/generic.mk" |
		make -s -f - platform_src_dir="$gen" "$@" 2>&1
}
case $(flags) in *-DCONFIG_RVPERF_QEMU_QUIRKS=1*) r=0 ;; *) r=1 ;; esac
case $(flags RVPERF_QEMU_QUIRKS=0) in *QEMU_QUIRKS*) r=1 ;; esac
ok $r "generic.mk: RVPERF_QEMU_QUIRKS=0 compiles the quirk out, the default keeps it"
tap_done
