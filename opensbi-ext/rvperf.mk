# SPDX-License-Identifier: BSD-2-Clause
#
# rvperf's PMU and CTR in an OpenSBI build, for any platform.  Included by
# this directory's objects.mk (the external platform) and by generic.mk
# (OpenSBI's generic platform); OpenSBI's make reads it, never rvperf's.
# Before including it, set
#   rvperf_dir     this directory, as a path make can read
#   rvperf_objdir  this directory relative to $(platform_src_dir), for
#                  platform-objs-y
#
# Flags go through variables OpenSBI's generic platform does not reset
# (its objects.mk empties platform-cflags-y and platform-ldflags-y).

# <rvperf/*.h> from the repository's include/; the cores' headers by their
# path from the repository's top ("opensbi-ext/core/...", docs/naming.md).
platform-genflags-y += -I$(rvperf_dir)/../include -I$(rvperf_dir)/.. \
	-I$(rvperf_dir)

platform-objs-y += $(rvperf_objdir)/rvperf_sbi.o
platform-objs-y += $(rvperf_objdir)/core/rvp_sbi_pmu.o
platform-objs-y += $(rvperf_objdir)/core/rvp_sbi_pmu_dt.o
platform-objs-y += $(rvperf_objdir)/core/rvp_sbi_ctr.o

# OpenSBI's calls into its own PMU library go to rvperf_sbi.c instead
# (see the list there); lib/sbi is not modified.
rvperf-wrap-y = sbi_pmu_init sbi_pmu_exit sbi_pmu_ctr_incr_fw \
	sbi_pmu_ovf_irq sbi_ecall_handler sbi_ecall_register_extension \
	sbi_hsm_hart_resume_finish
firmware-ldflags-y += $(foreach f,$(rvperf-wrap-y),-Wl,--wrap=$(f))
