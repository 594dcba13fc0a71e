# SPDX-License-Identifier: BSD-2-Clause
#
# What rvperf adds to an OpenSBI build (rvperf_sbi.c), for any platform.
# Included by this directory's objects.mk (the external platform) and by
# generic.mk (OpenSBI's generic platform); OpenSBI's make reads it, never
# rvperf's.  Before including it, set
#   rvperf_dir     this directory, as a path make can read
#   rvperf_objdir  this directory relative to $(platform_src_dir), for
#                  platform-objs-y
#
# The SBI PMU extension is OpenSBI's own (CONFIG_SBI_ECALL_PMU), with
# rvperf's series applied to the tree (patches/); nothing here changes
# how OpenSBI is linked.  Flags go through platform-genflags-y, which
# OpenSBI's generic platform does not reset (its objects.mk empties
# platform-cflags-y and platform-ldflags-y).

# <rvperf/*.h> (spec constants) from the repository's include/.
platform-genflags-y += -I$(rvperf_dir)/../include -I$(rvperf_dir)

platform-objs-y += $(rvperf_objdir)/rvperf_sbi.o
