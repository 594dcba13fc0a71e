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

# OpenSBI's own PMU ecall is not needed (rvperf_sbi.c keeps it out even if
# built); the defconfig leaves it out of the image.
grep -qx '# CONFIG_SBI_ECALL_PMU is not set' "$defconfig" &&
	! grep -q '^CONFIG_SBI_ECALL_PMU=' "$defconfig"
ok $? "defconfig leaves OpenSBI's PMU ecall out (CONFIG_SBI_ECALL_PMU)"

# rvperf.mk builds rvperf_sbi.c and every core/*.c, objects.mk includes it
# and adds platform.c; generic.mk includes it too.
missing= stale=
for c in "$d"/core/*.c "$d"/rvperf_sbi.c; do
	o=${c#"$d"/}
	o=${o%.c}.o
	grep -Eq "^platform-objs-y \+= \\$\(rvperf_objdir\)/$o\$" "$d/rvperf.mk" ||
		missing="$missing $o"
done
for o in $(sed -n 's/^platform-objs-y += \$(rvperf_objdir)\///p' "$d/rvperf.mk"); do
	[ -f "$d/${o%.o}.c" ] || stale="$stale $o"
done
grep -qx 'platform-objs-y += platform.o' "$d/objects.mk" &&
	grep -qx 'include $(platform_src_dir)/rvperf.mk' "$d/objects.mk" &&
	grep -qx 'include $(rvperf_dir)/rvperf.mk' "$d/generic.mk" || missing="$missing (includes)"
[ -z "$missing$stale" ]
ok $? "rvperf.mk builds rvperf_sbi.c and every core/*.c; objects.mk and generic.mk include it"
[ -z "$missing$stale" ] || diag "missing:$missing" "without a source:$stale"

# Every __wrap_X in rvperf_sbi.c is linked in by rvperf.mk and the other
# way round: a wrapper the link does not use would silently never run.
defined=$(sed -n -e 's/^[a-z].*__wrap_\([a-z_]*\)(.*/\1/p' \
	-e 's/^"[[:space:]]*\.globl[[:space:]]*__wrap_\([a-z_]*\)\\n"$/\1/p' "$d/rvperf_sbi.c" | sort -u)
listed=$(sed -n '/^rvperf-wrap-y = /,/^$/p' "$d/rvperf.mk" | tr -s ' \\\t' '\n' |
	grep -E '^sbi_[a-z_]+$' | sort -u)
[ -n "$defined" ] && [ "$defined" = "$listed" ]
ok $? "rvperf.mk wraps exactly the OpenSBI functions rvperf_sbi.c replaces"
[ "$defined" = "$listed" ] || diag "defined: $(echo $defined)" "wrapped: $(echo $listed)"

# OpenSBI's make includes every objects.mk below PLATFORM_DIR.
others=$(find "$d" -name objects.mk ! -path "$d/objects.mk")
[ -z "$others" ]
ok $? "no other objects.mk below opensbi-ext/ (OpenSBI would include it)"
[ -z "$others" ] || diag "$others"

# Every platform symbol used is declared in the platform's Kconfig (and
# generic.mk, which has no Kconfig, sets only declared ones).
undeclared=
for sym in $(grep -ohE 'CONFIG_(RVPERF|PLATFORM_RVPERF)[A-Z0-9_]*' \
		"$d/platform.c" "$d/rvperf_sbi.c" "$d/generic.mk" "$defconfig" | sort -u); do
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
[ "$(kconfig_default RVPERF_CTR_RECORD_M)" = n ] &&
	[ "$(kconfig_default RVPERF_CTR_MTE)" = n ] &&
	[ "$(kconfig_default RVPERF_CTR_DEPTH)" = 0 ] &&
	! grep -Eq '^CONFIG_RVPERF_CTR_(RECORD_M|MTE)=y' "$defconfig" &&
	! grep -Eq '^platform-genflags-y.*CONFIG_RVPERF_CTR_(RECORD_M|MTE)' "$d/generic.mk"
ok $? "CTR policy defaults: M-mode not recorded, MTE off, depth the maximum"
[ "$(kconfig_default RVPERF_SBI_PMU)" = y ] &&
	[ "$(kconfig_default RVPERF_PMU_FW_COUNTERS)" -ge 1 ]
ok $? "the PMU extension and its firmware counters are on by default"
# S-mode must not count firmware activity unless the vendor asks for it.
[ "$(kconfig_default RVPERF_PMU_FORCE_MINH)" = y ] &&
	! grep -q '^# CONFIG_RVPERF_PMU_FORCE_MINH is not set' "$defconfig" &&
	grep -q '^platform-genflags-y += -DCONFIG_RVPERF_PMU_FORCE_MINH=1$' "$d/generic.mk"
ok $? "MINH forced by default (Kconfig, defconfig, generic.mk)"

# Only OpenSBI's public headers, libfdt, the cores, rvperf's spec headers
# and the glue's own two headers.
bad=$(grep -hE '^#include' "$d/platform.c" "$d/rvperf_sbi.c" |
	grep -vE '^#include (<(sbi|sbi_utils|rvperf)/[a-z0-9_/]+\.h>|<libfdt\.h>|"opensbi-ext/core/rvp_sbi_[a-z_]+\.h"|"rvperf_(compat|sbi)\.h")$')
[ -z "$bad" ]
ok $? "the glue includes only OpenSBI's public headers, libfdt, core/, rvperf/ and its own headers"
[ -z "$bad" ] || diag "$bad"

# OpenSBI version differences live in rvperf_compat.h only.
vers=$(grep -lE 'OPENSBI_VERSION_(MAJOR|MINOR)|RVPERF_OPENSBI_AT_LEAST' \
	"$d/platform.c" "$d/rvperf_sbi.c")
[ -z "$vers" ]
ok $? "no OpenSBI version test outside rvperf_compat.h"
[ -z "$vers" ] || diag "$vers"

# The cores stay host-neutral: nothing from OpenSBI in core/.
! grep -lE '^#include [<"](sbi/|sbi_utils/|libfdt)' "$d"/core/*.[ch] >/dev/null
ok $? "core/ includes nothing from OpenSBI"

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
	echo "ok $((tap_n + 1)) - the firmware boots and registers the rvperf PMU # SKIP OPENSBI_PLATFORM_FW not given (build it by hand, see opensbi-ext/README.md)"
	tap_n=$((tap_n + 1))
elif ! command -v "$qemu" >/dev/null 2>&1; then
	echo "ok $((tap_n + 1)) - the firmware boots and registers the rvperf PMU # SKIP $qemu not installed"
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
	grep -aq '^rvperf: SBI PMU extension: [1-9][0-9]* hardware counters .*, [0-9]* firmware counters, riscv,pmu maps used, MINH forced' "$log"
	ok $? "boot: the rvperf PMU extension registered, counters found, riscv,pmu maps parsed, MINH forced"
	grep -aEq '^Standard SBI Extensions *: (.*,)?pmu(,|$)' "$log"
	ok $? "boot: the PMU extension is listed"
	grep -aEq '^Runtime SBI Version *: 3\.0' "$log"
	ok $? "boot: SBI v3.0"
	! grep -aE '^rvperf: .*(ignored|failed)' "$log" >/dev/null
	ok $? "boot: no rvperf errors"
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
