# SPDX-License-Identifier: BSD-2-Clause
#
# rvperf as an OpenSBI external platform.  Read by OpenSBI's make only:
#   make -C <opensbi> PLATFORM_DIR=<this directory> CROSS_COMPILE=...
# in an OpenSBI tree with rvperf's series applied (patches/README.md; the
# rvperf host build never includes this file; see build.mk).

rvperf_dir = $(platform_src_dir)
rvperf_objdir = .
include $(platform_src_dir)/rvperf.mk

platform-objs-y += platform.o

# Firmware images, at the offsets QEMU virt and OpenSBI's generic platform
# use (the next stage 2 MB or 4 MB above the firmware, the FDT above it).
FW_DYNAMIC=y
FW_JUMP=y
ifeq ($(PLATFORM_RISCV_XLEN), 32)
  FW_JUMP_OFFSET=0x400000
else
  FW_JUMP_OFFSET=0x200000
endif
FW_JUMP_FDT_OFFSET=0x2200000
