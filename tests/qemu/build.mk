# SPDX-License-Identifier: BSD-2-Clause
# tests/qemu: ctr-sim scenarios replayed as bare-metal guest code on a QEMU
# patched with qemu-model/qemu, and the model's own guest checks.
# events-gen.sh: the replay's generator, guest builds and ctr-sim sequences
# without QEMU (make check).
HOST_TESTS += tests/qemu/events-gen.sh

# $(call qemu-tiers,NAME-PREFIX,QEMU,ENV): the tiers as runner entries.
qemu-tiers = '$(1)ctr=env QEMU=$(2) $(3) tests/qemu/replay.sh' \
	'$(1)gating=env QEMU=$(2) $(3) tests/qemu/gating.sh' \
	'$(1)cycles=env QEMU=$(2) O=$(O) $(3) tests/qemu/cycles.sh' \
	'$(1)events=env QEMU=$(2) O=$(O) $(3) tests/qemu/events.sh' \
	'$(1)migrate=env QEMU=$(2) $(3) tests/qemu/migrate.sh' \
	'$(1)pmu=env QEMU=$(2) $(3) tests/qemu/pmu.sh' \
	'$(1)buffered=env QEMU=$(2) $(3) tests/qemu/buffered.sh' \
	'$(1)stateen=env QEMU=$(2) $(3) tests/qemu/stateen.sh' \
	'$(1)ovf-leftover=env QEMU=$(2) $(3) tests/qemu/ovf-leftover.sh' \
	'$(1)insn-count=env QEMU=$(2) $(3) tests/qemu/insn-count.sh' \
	'$(1)cycle-count=env QEMU=$(2) $(3) tests/qemu/cycle-count.sh'

# make check-e2e QEMU=...: the tiers on the user's QEMU (each SKIPs without
# one, or without the ctr-layout property).
E2E_QEMU_TIERS := $(call qemu-tiers,e2e-qemu-,$(QEMU))

# make check: the tiers on our QEMU, qemu-model/qemu applied to the
# registry's QEMU 10.2.2 source and built in the cache by
# scripts/registry/build-qemu.sh, which always runs and builds only when
# the series changed (incrementally).  RVPERF_QEMU is a copy of its
# qemu-system-riscv64 in $(O), so that its path does not change with the
# content key the cache uses: other tiers on our QEMU put $(RVPERF_QEMU) in
# STACK_TARGETS (or depend on it) and run it.  QEMU_REQUIRED=1: a tier that
# would SKIP (no QEMU, no ctr-layout, no compiler, no ctr-sim) fails instead.
RVPERF_QEMU := $(O)/qemu-rvperf/qemu-system-riscv64
$(RVPERF_QEMU): FORCE
	$(Q)q=$$(scripts/registry/build-qemu.sh) && mkdir -p $(@D) && \
		{ cmp -s "$$q" $@ || cp "$$q" $@; }
STACK_TARGETS += $(RVPERF_QEMU)
STACK_TIERS += $(call qemu-tiers,rvperf-qemu-,$(RVPERF_QEMU),QEMU_REQUIRED=1)

# QEMU's stale overflow leftover on the QEMUs people run, as TODOs that
# name it (ovf-leftover.sh): Debian's 10.0.2 (scripts/registry/build.mk)
# and bookworm's 7.2.
STACK_TIERS += 'qemu-10.0.2-ovf-leftover=env QEMU=$(CTR_QEMU) tests/qemu/ovf-leftover.sh' \
	'qemu-7.2-ovf-leftover=env QEMU=/usr/bin/qemu-system-riscv64 tests/qemu/ovf-leftover.sh'

# bench-qemu: CTR off / disabled / recording, ours against upstream 10.2's
# CTR (make bench QEMU=<patched> QEMU_UPSTREAM=<unmodified>; SKIPPED
# without them).
BENCHES += tests/bench/bench-qemu.sh
# bench-qemu-insn: what counting instructions without -icount (patch 0008)
# costs a CPU-bound guest on our QEMU, nothing counting / minstret /
# sampling, against QEMU_UPSTREAM (an unmodified 10.2) when given.
BENCHES += tests/bench/bench-qemu-insn.sh
# bench-qemu-boot: the same against a Linux boot (QEMU, QEMU_UPSTREAM,
# BOOT_KERNEL, BOOT_BIOS; SKIPPED without them).
BENCHES += tests/bench/bench-qemu-boot.sh
bench: $(RVPERF_QEMU)
