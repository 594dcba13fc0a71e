# SPDX-License-Identifier: BSD-2-Clause
#
# The stack users run, from Debian's registry (scripts/registry/pins.txt),
# built or unpacked into $(RVPERF_CACHE) and reused:
#   PLATFORM_FW   rvperf's OpenSBI platform (opensbi-ext/) on OpenSBI 1.8.1
#   DRAFT_PLATFORM_FW  the same built with configs/draft_defconfig (the
#                 v0.1.4 draft CTR layout, for harts declaring it)
#   GENERIC_FW    upstream OpenSBI 1.8.1's own generic platform (the
#                 M-mode benchmark's baseline)
#   SERIES_FW     the same with rvperf's OpenSBI series applied (the
#                 backport, opensbi-ext/patches/1.8.1/) and rvperf's test
#                 board override (tests/opensbi-board/: inert but on a
#                 devicetree with its test-only compatible)
#   CTR_QEMU      Debian's QEMU 10.0.2 (bookworm-backports): Smctr/Ssctr;
#   CTR_QEMU_USER and its qemu-riscv64: a static build without plugin
#                 support (Debian's qemu-user since 9.1), for running
#                 riscv64 programs; plugins need the system's QEMU 7.2
#                 or QEMU_USER_PLUGIN
#   QEMU_USER_PLUGIN  qemu-riscv64 with TCG plugin support (plugin API 5:
#                 inline per-vCPU counters and conditional callbacks, which
#                 the CTR plugin's gate uses), built from the registry's
#                 QEMU 10.2.2 source by scripts/registry/build-qemu.sh user
#                 and copied into $(O) (a path that does not change with
#                 the cache's content key)
# The firmware is copied into $(O) so that its path does not change with
# the content key the cache uses.
CTR_QEMU_BIN = $(RVPERF_CACHE)/qemu-10.0.2/rvperf-bin
CTR_QEMU = $(CTR_QEMU_BIN)/qemu-system-riscv64
CTR_QEMU_USER = $(CTR_QEMU_BIN)/qemu-riscv64
PLATFORM_FW := $(O)/opensbi/platform/fw_dynamic.bin
DRAFT_PLATFORM_FW := $(O)/opensbi/platform-draft/fw_dynamic.bin
GENERIC_FW := $(O)/opensbi/generic/fw_dynamic.bin
SERIES_FW := $(O)/opensbi/series/fw_dynamic.bin

# The scripts know whether anything changed; make always asks them.
$(O)/opensbi/%/fw_dynamic.bin: FORCE
	$(Q)fw=$$(scripts/registry/build-opensbi.sh $*) && mkdir -p $(@D) && \
		{ cmp -s "$$fw" $@ || cp "$$fw" $@; }
$(CTR_QEMU): FORCE
	$(Q)scripts/registry/qemu-backports.sh >/dev/null
QEMU_USER_PLUGIN := $(O)/qemu-rvperf/qemu-riscv64
$(QEMU_USER_PLUGIN): FORCE
	$(Q)q=$$(scripts/registry/build-qemu.sh user) && mkdir -p $(@D) && \
		{ cmp -s "$$q" $@ || cp "$$q" $@; }
export QEMU_USER_PLUGIN

.PHONY: registry-stack
registry-stack: $(PLATFORM_FW) $(DRAFT_PLATFORM_FW) $(GENERIC_FW) $(SERIES_FW) $(CTR_QEMU) \
	$(QEMU_USER_PLUGIN)
STACK_TARGETS += registry-stack
# The CTR plugin's record test and rvperf record's processes test on the
# plugin-capable 10.2.2 qemu-riscv64 too (HOST_TESTS runs them on Debian's
# 7.2): the gate's path without callbacks (plugin API 3+), through fork,
# exec and dlopen, against every block on a real program, and the samples'
# exact addresses.
STACK_TIERS += 'plugin-record-qemu10=env QEMU_USER=$(QEMU_USER_PLUGIN) tests/plugin/record-test.sh' \
	'plugin-gate-qemu10=env QEMU_USER=$(QEMU_USER_PLUGIN) tests/plugin/gate-test.sh' \
	'plugin-exact-ip-qemu10=env QEMU_USER=$(QEMU_USER_PLUGIN) tests/plugin/exact-ip-test.sh' \
	'userspace-procs-qemu10=env RVPERF_QEMU=$(abspath $(QEMU_USER_PLUGIN)) tests/userspace/procs-test.sh'
# For the scripts that compare firmware (tests/bench/bench-sbi.sh).
export PLATFORM_FW GENERIC_FW SERIES_FW

# The pins and the fetch script's failure modes, without the network.
HOST_TESTS += tests/infra/registry-test.sh
# The OpenSBI series SERIES_FW applies: its shape, checkpatch on each patch.
HOST_TESTS += opensbi-ext/patches/check-shape.sh
