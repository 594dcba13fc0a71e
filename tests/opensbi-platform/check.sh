#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# The OpenSBI glue in opensbi-ext/ is built by OpenSBI's make, never here
# (make builds it from the registry's OpenSBI source, scripts/registry/).
# What the host can check: the glue files agree with each other and with the
# cores, and the policy defaults are the safe ones.  Given
# OPENSBI_PLATFORM_FW=/path/to/fw_dynamic.bin (the external platform, or
# generic with rvperf), it also boots that firmware in QEMU virt and checks
# the boot lines, and runs the S-mode smoke payload (smoke/) on it;
# QEMU_CTR=<qemu-system-riscv64 with Smctr/Ssctr> adds a run with CTR.
# Without OPENSBI_PLATFORM_FW those checks are a SKIP.
. "$(dirname "$0")/../tap.sh"
d=opensbi-ext
defconfig=$d/configs/defconfig
# The glue: every file OpenSBI's make compiles or reads from opensbi-ext/.
glue_c="$d/platform.c $d/rvperf_sbi.c $d/generic_override.c"
glue_h="$d/rvperf_sbi.h $d/rvperf_compat.h"
glue_mk="$d/rvperf.mk $d/objects.mk $d/generic.mk"

# The SBI PMU extension is OpenSBI's own, with the series applied.
grep -qx 'CONFIG_SBI_ECALL_PMU=y' "$defconfig" &&
	grep -qx 'CONFIG_FDT_PMU=y' "$defconfig"
ok $? "defconfig builds OpenSBI's own PMU extension and its riscv,pmu maps (CONFIG_SBI_ECALL_PMU, CONFIG_FDT_PMU)"

# rvperf.mk builds rvperf_sbi.c; objects.mk includes it and adds
# platform.c; generic.mk includes it and adds the QEMU virt override.
grep -qx 'platform-objs-y += $(rvperf_objdir)/rvperf_sbi.o' "$d/rvperf.mk" &&
	grep -qx 'platform-objs-y += platform.o' "$d/objects.mk" &&
	grep -qx 'include $(platform_src_dir)/rvperf.mk' "$d/objects.mk" &&
	grep -qx 'include $(rvperf_dir)/rvperf.mk' "$d/generic.mk" &&
	grep -qx 'platform-objs-y += $(rvperf_objdir)/generic_override.o' "$d/generic.mk" &&
	grep -qx 'carray-platform_override_modules-y += rvperf_qemu_virt' "$d/generic.mk" &&
	grep -q '^const struct fdt_driver rvperf_qemu_virt = {$' "$d/generic_override.c"
ok $? "rvperf.mk builds rvperf_sbi.c; objects.mk adds platform.c, generic.mk the QEMU virt override"

# No hooking of OpenSBI's internals: nothing linked with --wrap (nor any
# other linker flag), no __wrap_/__real_ symbol, anywhere in opensbi-ext/.
wrap=$(grep -rln -e '--wrap' -e '__wrap_' -e '__real_' "$d" 2>/dev/null)
ldf=$(grep -n 'ldflags' $glue_mk | grep -v '^[^:]*:[0-9]*:#')
[ -z "$wrap$ldf" ]
ok $? "no --wrap, __wrap_, __real_ or linker flag in opensbi-ext/"
[ -z "$wrap$ldf" ] || diag "in: $(echo $wrap)" "$ldf"

# The glue defines only its own names: rvperf_*, and what OpenSBI asks of
# an external platform (fw_platform_init, platform).  A definition of an
# OpenSBI function would replace it at link time, as --wrap did.
defs=$(sed -n -E 's/^[a-z_][a-z0-9_ *]*[ *]([a-z_][a-z0-9_]*)\(.*/\1/p; s/^(const )?struct [a-z_]+ ([a-z_][a-z0-9_]*)( =.*|;|\[.*)$/\2/p' \
	$glue_c | sort -u)
foreign=$(echo "$defs" | grep -vE '^(rvperf_[a-z0-9_]+|fw_platform_init|platform)$')
[ -n "$defs" ] && [ -z "$foreign" ]
ok $? "the glue defines rvperf_* names only, and fw_platform_init and platform"
[ -z "$foreign" ] || diag "defined: $(echo $foreign)"

# What the glue calls of OpenSBI: the interfaces OpenSBI gives platforms
# and nothing else.  Each entry is a door: the platform operations' own
# helpers (generic_*), the sbi_pmu_device door, the FDT, console and
# string helpers, hart identity and features, CSR access.
doors='sbi_pmu_set_device sbi_pmu_get_device sbi_printf sbi_strncpy
	sbi_strncmp sbi_popcount sbi_hart_count sbi_hart_has_extension
	sbi_hart_features_ptr sbi_hartindex_to_scratch sbi_hartindex_to_hartid
	sbi_for_each_hartindex sbi_scratch_thishart_ptr'
calls=$(cat $glue_c $glue_h | perl -0pe 's{/\*.*?\*/}{}gs; s{//[^\n]*}{}g' |
	grep -oE '\b_*sbi_[a-z0-9_]+[[:space:]]*\(' | tr -d ' \t(' | sort -u)
bad=
for f in $calls; do
	case " $(echo $doors) " in *" $f "*) ;; *) bad="$bad $f" ;; esac
done
[ -n "$calls" ] && [ -z "$bad" ]
ok $? "the glue calls no OpenSBI function outside the platform interfaces"
[ -z "$bad" ] || diag "not a platform interface:$bad"

# OpenSBI's make includes every objects.mk below PLATFORM_DIR.
others=$(find "$d" -name objects.mk ! -path "$d/objects.mk")
[ -z "$others" ]
ok $? "no other objects.mk below opensbi-ext/ (OpenSBI would include it)"
[ -z "$others" ] || diag "$others"

# Every platform symbol used is declared in the platform's Kconfig (and
# generic.mk, which has no Kconfig, sets only declared ones).
undeclared=
for sym in $(grep -ohE 'CONFIG_(RVPERF|PLATFORM_RVPERF)[A-Z0-9_]*' \
		$glue_c $glue_h "$d/generic.mk" "$defconfig" | sort -u); do
	grep -qx "config ${sym#CONFIG_}" "$d/Kconfig" ||
		undeclared="$undeclared $sym"
done
[ -z "$undeclared" ]
ok $? "every CONFIG_RVPERF_* used is declared in opensbi-ext/Kconfig"
[ -z "$undeclared" ] || diag "undeclared:$undeclared"

# kconfig_default SYMBOL: the first "default" line of its entry.
kconfig_default() {
	awk -v s="config $1" '$0 == s { on = 1; next }
		on && /^(config|menu|endmenu|if|endif|choice)/ { exit }
		on && $1 == "default" { print $2; exit }' "$d/Kconfig"
}
# Only OpenSBI's public headers, libfdt, the cores, rvperf's spec headers
# and the glue's own two headers.
bad=$(grep -hE '^#include' $glue_c $glue_h |
	grep -vE '^#include (<(sbi|sbi_utils|rvperf)/[a-z0-9_/]+\.h>|<libfdt\.h>|<platform_override\.h>|"rvperf_(compat|sbi)\.h")$')
[ -z "$bad" ]
ok $? "the glue includes only OpenSBI's public headers, libfdt, generic's platform_override.h, rvperf/ and its own headers"
[ -z "$bad" ] || diag "$bad"

# OpenSBI version differences live in rvperf_compat.h only.
vers=$(grep -lE 'OPENSBI_VERSION_(MAJOR|MINOR)|RVPERF_OPENSBI_AT_LEAST' \
	$glue_c "$d/rvperf_sbi.h")
[ -z "$vers" ]
ok $? "no OpenSBI version test outside rvperf_compat.h"
[ -z "$vers" ] || diag "$vers"

# The cores stay host-neutral (nothing from OpenSBI) and out of the
# OpenSBI build: they are the reference model the same tests run against.
! grep -lE '^#include [<"](sbi/|sbi_utils/|libfdt)' "$d"/core/*.[ch] >/dev/null &&
	! grep -qE 'core/|rvp_sbi_' $glue_mk $glue_c $glue_h
ok $? "core/ includes nothing from OpenSBI, and no OpenSBI build uses it"

# run_smoke QEMU CPU NAME: boots the smoke payload, its TAP lines as checks.
run_smoke() {
	local q=$1 cpu=$2 name=$3 res plan n l
	timeout 20 "$q" -M virt -cpu "$cpu" -smp 2 -m 256M -display none \
		-monitor none -serial stdio -bios "$fw" -kernel "$out/smoke.elf" \
		2>&1 | tr -d '\r' >"$log"
	res=$(grep -aE '^(not )?ok [0-9]+ - ' "$log")
	plan=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$log")
	n=0
	while IFS= read -r l; do
		n=$((n + 1))
		case $l in
		"ok "*) ok 0 "$name: ${l#ok * - }" ;;
		*) ok 1 "$name: ${l#not ok * - }" ;;
		esac
	done < <(grep -aE '^(not )?ok [0-9]+ - ' "$log")
	[ -n "$plan" ] && [ "$n" -eq "$plan" ]
	ok $? "$name: the payload ran to its end ($n of ${plan:-?} results)"
	[ -n "$res" ] || diag "no output; see: $(tail -3 "$log")"
}

fw=${OPENSBI_PLATFORM_FW:-}
qemu=${QEMU:-qemu-system-riscv64}
if [ -z "$fw" ]; then
	echo "ok $((tap_n + 1)) - the firmware boots with OpenSBI's PMU extension # SKIP OPENSBI_PLATFORM_FW not given (build it by hand, see opensbi-ext/README.md)"
	tap_n=$((tap_n + 1))
elif ! command -v "$qemu" >/dev/null 2>&1; then
	echo "ok $((tap_n + 1)) - the firmware boots with OpenSBI's PMU extension # SKIP $qemu not installed"
	tap_n=$((tap_n + 1))
else
	[ -f "$fw" ]
	ok $? "OPENSBI_PLATFORM_FW exists ($fw)"
	log=$(mktemp)
	# No payload: OpenSBI prints its boot lines, then there is nothing
	# to run; 5 s is plenty for the banner.
	timeout 5 "$qemu" -M virt -cpu rv64,sscofpmf=true -smp 2 -m 256M \
		-display none -monitor none -serial stdio -bios "$fw" \
		2>&1 | tr -d '\r' >"$log"
	grep -aEq '^Platform PMU Device *: rvperf-qemu-virt$' "$log"
	ok $? "boot: on QEMU virt, the QEMU quirk's PMU device is installed"
	grep -aEq '^Standard SBI Extensions *: (.*,)?pmu(,|$)' "$log"
	ok $? "boot: the PMU extension is listed"
	grep -aEq '^Runtime SBI Version *: 3\.0' "$log"
	ok $? "boot: SBI v3.0"
	! grep -aE '^rvperf: |pmu init failed' "$log" >/dev/null
	ok $? "boot: no rvperf or PMU init errors (rvperf prints only for draft CTR harts)"
	grep -aE '^rvperf:|^sbi_trap_error' "$log" | head -5 | while read -r l; do
		diag "$l"
	done

	# The S-mode smoke payload (smoke/): firmware events and HSM restart
	# through the platform glue; its TAP lines become checks here.
	cross=${CROSS_COMPILE:-riscv64-linux-gnu-}
	out=${O:-build}/tests/opensbi-platform
	mkdir -p "$out"
	s=tests/opensbi-platform/smoke
	if ! command -v "${cross}gcc" >/dev/null 2>&1; then
		echo "ok $((tap_n + 1)) - smoke payload # SKIP ${cross}gcc not installed"
		tap_n=$((tap_n + 1))
	else
		"${cross}gcc" -std=gnu11 -Wall -Wextra -Werror -O2 \
			-march=rv64imac_zicsr -mabi=lp64 -mcmodel=medany \
			-ffreestanding -nostdlib -fno-pic -no-pie -static \
			-Wl,--build-id=none -Iinclude -T $s/link.ld \
			-o "$out/smoke.elf" $s/smoke-start.S $s/smoke.c \
			>"$out/smoke-build.log" 2>&1
		ok $? "the smoke payload builds"
		run_smoke "$qemu" rv64,sscofpmf=true smoke
		# A QEMU with Smctr/Ssctr (upstream 10.x): the CTR checks must
		# run, not be skipped as on a hart without CTR.
		if [ -n "${QEMU_CTR:-}" ]; then
			run_smoke "$QEMU_CTR" "rv64,sscofpmf=true,smctr=true,ssctr=true,smcsrind=true,sscsrind=true,smstateen=true" smoke-ctr
			[ "$(grep -ac '^ok [0-9]* - CTR: ' "$log")" -eq 3 ]
			ok $? "smoke-ctr: the three CTR checks ran and passed"
		else
			echo "ok $((tap_n + 1)) - smoke with CTR # SKIP QEMU_CTR (a qemu-system-riscv64 with Smctr) not given"
			tap_n=$((tap_n + 1))
		fi
	fi
	rm -f "$log"
fi
tap_done
