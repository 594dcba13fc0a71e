# SPDX-License-Identifier: BSD-2-Clause
#
# rvperf's PMU and CTR built into OpenSBI's own generic platform, with all
# of its board overrides (SiFive, T-Head, Sophgo, StarFive, ...).  Nothing
# of OpenSBI is modified; in an OpenSBI tree:
#
#   mkdir platform/generic/rvperf
#   cp <rvperf>/opensbi-ext/generic.mk platform/generic/rvperf/objects.mk
#   ln -s <rvperf>/opensbi-ext platform/generic/rvperf/src
#   make PLATFORM=generic CROSS_COMPILE=riscv64-linux-gnu-
#
# OpenSBI's make includes every objects.mk below platform/generic, this one
# too; find does not follow the src link, so opensbi-ext's own objects.mk
# (the external platform's) stays out.  No platform operation changes:
# rvperf_sbi.c comes in through the link (rvperf.mk).

rvperf_dir = $(platform_src_dir)/rvperf/src
rvperf_objdir = rvperf/src
include $(rvperf_dir)/rvperf.mk

# The options opensbi-ext/Kconfig offers the external platform; generic's
# Kconfig does not source it, so they are set here (edit to taste).
platform-genflags-y += -DCONFIG_RVPERF_SBI_PMU=1
platform-genflags-y += -DCONFIG_RVPERF_PMU_FW_COUNTERS=16
platform-genflags-y += -DCONFIG_RVPERF_PMU_FORCE_MINH=1
platform-genflags-y += -DCONFIG_RVPERF_PMU_SNAPSHOT=1
platform-genflags-y += -DCONFIG_RVPERF_PMU_EVENT_INFO=1
platform-genflags-y += -DCONFIG_RVPERF_CTR=1
platform-genflags-y += -DCONFIG_RVPERF_CTR_DEPTH=0
# platform-genflags-y += -DCONFIG_RVPERF_CTR_RECORD_M=1
# platform-genflags-y += -DCONFIG_RVPERF_CTR_MTE=1
# platform-genflags-y += -DCONFIG_RVPERF_CTR_LCOFIFRZ=1
# The v0.1.4 draft CTR layout on harts declaring "xrvperfctrdraft":
# platform-genflags-y += -DCONFIG_RVPERF_CTR_DRAFT=1
# The workaround for QEMU's stale overflow deadline, used on QEMU virt
# only; make ... RVPERF_QEMU_QUIRKS=0 compiles it out.
RVPERF_QEMU_QUIRKS ?= 1
ifeq ($(RVPERF_QEMU_QUIRKS),1)
platform-genflags-y += -DCONFIG_RVPERF_QEMU_QUIRKS=1
endif
