# SPDX-License-Identifier: BSD-2-Clause
#
# rvperf in OpenSBI's own generic platform, with all of its board overrides
# (SiFive, T-Head, Sophgo, StarFive, ...).  In an OpenSBI tree with rvperf's
# series applied (patches/README.md):
#
#   mkdir platform/generic/rvperf
#   cp <rvperf>/opensbi-ext/generic.mk platform/generic/rvperf/objects.mk
#   ln -s <rvperf>/opensbi-ext platform/generic/rvperf/src
#   make PLATFORM=generic CROSS_COMPILE=riscv64-linux-gnu-
#
# OpenSBI's make includes every objects.mk below platform/generic, this one
# too; find does not follow the src link, so opensbi-ext's own objects.mk
# (the external platform's) stays out.  What rvperf adds comes in as one
# more board override, for QEMU's virt board (generic_override.c): the
# other boards are built and run as generic builds them.

rvperf_dir = $(platform_src_dir)/rvperf/src
rvperf_objdir = rvperf/src
include $(rvperf_dir)/rvperf.mk

carray-platform_override_modules-y += rvperf_qemu_virt
platform-objs-y += $(rvperf_objdir)/generic_override.o

# The options opensbi-ext/Kconfig offers the external platform; generic's
# Kconfig does not source it, so they are set here (edit to taste).
# The v0.1.4 draft CTR layout on harts declaring "xrvperfctrdraft":
# platform-genflags-y += -DCONFIG_RVPERF_CTR_DRAFT=1
# The workaround for QEMU's stale overflow deadline, used on QEMU virt
# only; make ... RVPERF_QEMU_QUIRKS=0 compiles it out.
RVPERF_QEMU_QUIRKS ?= 1
ifeq ($(RVPERF_QEMU_QUIRKS),1)
platform-genflags-y += -DCONFIG_RVPERF_QEMU_QUIRKS=1
endif
