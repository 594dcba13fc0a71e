#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The driver builds as an out-of-tree module (make -C KDIR M=...) against
# the guest kernel's configuration (no RISCV_PMU_SBI, modules enabled), with
# no compiler warning from our files at W=1 (TAP).  Skips until the guest
# kernel has been built.
cd "$(dirname "$0")/../.." || exit 1
. tests/tap.sh
. linux-driver/tests/kbuild.sh

kbuild_skip_unless_ready
kbuild_prepare
ok $? "modules_prepare of the guest configuration with CONFIG_MODULES=y"
[ -f "$kb_out/.prepared" ] || { diag "$(tail -20 "$kb_out.err" 2>/dev/null)"; tap_done; exit 1; }

kbuild_driver W=1
ok $? "make M=linux-driver W=1 modules"
[ -f "$kb_src/rvperf_pmu.ko" ]
ok $? "rvperf_pmu.ko built"
warn=$(grep -E 'warning:|error:' "$kb_log" | grep -v '^WARNING: modpost' | grep -F "$kb_src/")
[ -z "$warn" ]
ok $? "no W=1 warning in the driver's files"
[ -z "$warn" ] || diag "$warn"
[ -f "$kb_src/rvperf_ctr_logic.o" ]
ok $? "the CTR logic is part of the module"
tap_done
exit $?
