# SPDX-License-Identifier: BSD-2-Clause
#
# rvperf top-level Makefile.
#
#   make run          the main job: record the sample workload's branch stacks (CTR
#                     plugin on qemu-riscv64), report, HTML page, AutoFDO; then
#                     perf record -b of it inside the guest kernel (CTR QEMU)
#   make run-guest    only that guest part
#   make check        every CI-runnable test (installs what it needs)
#   make check-guest  only the guest tier; GUEST_EXTRA="a b" adds test programs
#   make check-e2e    tests that need binaries you pass: QEMU=... OPENSBI_FW=...
#   make bench        benchmarks (ratios against a baseline measured in the run)
#   make deps         install the Debian packages listed in scripts/deps.txt
#   make defconfig | menuconfig | savedefconfig | clean | distclean-cache
#
# Each part of the tree adds its programs and tests through a build.mk
# fragment (see docs/build.md); this file holds only what they share.

O ?= build
override O := $(patsubst %/,%,$(O))
RVPERF_CACHE ?= $(HOME)/.cache/rvperf
SPECS_DIR ?= $(abspath ../shared/specs)
CROSS_COMPILE ?= riscv64-linux-gnu-
JOBS ?= $(shell nproc)

V ?= 0
ifeq ($(V),0)
Q := @
SUBMAKE = $(MAKE) -s --no-print-directory
else
Q :=
SUBMAKE = $(MAKE) --no-print-directory
endif

# Kconfig through Debian's kconfiglib, which installs for the system python
# only (a pyenv or venv python on PATH would not see it).
KCONFIG_PYTHON ?= /usr/bin/python3
KCONFIG_CONFIG := $(O)/.config
CONFIG_HEADER := $(O)/include/generated/rvperf_config.h
kconfig = KCONFIG_CONFIG=$(KCONFIG_CONFIG) $(KCONFIG_PYTHON) -m $(1)

HOST_CC ?= gcc
HOST_CFLAGS ?= -O2 -g
HOST_CFLAGS += -std=gnu11 -Wall -Wextra -Werror -I. -Iinclude -Itests \
	-I$(O)/include/generated
HOST_LDFLAGS ?=

export O RVPERF_CACHE SPECS_DIR CROSS_COMPILE JOBS V

# $(call host-program,OUTPUT,SOURCES,EXTRA_CFLAGS): one host executable.
# The headers every source includes go to OUTPUT.d in a pass of their own:
# -MMD -MF in the compile would keep only the last source's.
define host-program
$(1): $(2) $(CONFIG_HEADER)
	@mkdir -p $$(dir $$@)
	$$(if $$(Q),@echo "  CC      $$@")
	$$(Q)$$(HOST_CC) $$(HOST_CFLAGS) $(3) -o $$@ $(2) $$(HOST_LDFLAGS)
	$$(Q)$$(HOST_CC) $$(HOST_CFLAGS) $(3) -MM -MP -MT $$@ $(2) >$$@.d
-include $(1).d
endef

# $(call guest-program,OUTPUT,SOURCES,EXTRA_CFLAGS): one static riscv64 Linux
# executable for the guest initramfs.
GUEST_CC ?= $(CROSS_COMPILE)gcc
GUEST_CFLAGS ?= -O2 -g
GUEST_CFLAGS += -std=gnu11 -Wall -Wextra -Werror -static -I. -Iinclude -Itests \
	-I$(O)/include/generated
define guest-program
$(1): $(2) $(CONFIG_HEADER)
	@mkdir -p $$(dir $$@)
	$$(if $$(Q),@echo "  GUESTCC $$@")
	$$(Q)$$(GUEST_CC) $$(GUEST_CFLAGS) $(3) -o $$@ $(2)
	$$(Q)$$(GUEST_CC) $$(GUEST_CFLAGS) $(3) -MM -MP -MT $$@ $(2) >$$@.d
-include $(1).d
endef

# What the fragments fill in.
HOST_PROGS :=		# host executables built by 'make all'
HOST_TESTS :=		# executables printing TAP, run by 'make check'
GUEST_HOST_TESTS :=	# host-side TAP scripts that boot guests of their own
STACK_TIERS :=		# make check's tiers on the registry-built stack (platform
			# firmware, CTR-capable QEMUs): scripts/registry/build.mk
STACK_TARGETS :=	# what those tiers need built first
GUEST_TESTS :=		# guest executables printing TAP, run in the guest tier
GUEST_PROGS :=		# other guest executables put in the initramfs
BENCHES :=		# executables printing benchmark ratios, run by 'make bench'
FUZZERS :=		# libFuzzer executables; 'make check' runs each briefly

.DEFAULT_GOAL := all

# ---------------------------------------------------------------- configuration
# The fragments may read CONFIG_* values, so the configuration comes first.
# There is deliberately no rule for $(KCONFIG_CONFIG) itself: make would run
# it before 'make deps' had a chance to install kconfiglib.
-include $(KCONFIG_CONFIG)
unquote = $(patsubst "%",%,$(1))
comma := ,

# The header is the one thing host code reads; a missing .config starts from
# configs/defconfig, an existing one is refreshed for new Kconfig symbols.
$(CONFIG_HEADER): Kconfig configs/defconfig $(wildcard $(KCONFIG_CONFIG))
	@mkdir -p $(dir $@)
	$(Q)if [ ! -f $(KCONFIG_CONFIG) ]; then \
		$(call kconfig,defconfig) --kconfig Kconfig configs/defconfig >/dev/null; \
	else \
		$(call kconfig,olddefconfig) Kconfig >/dev/null; \
	fi
	$(Q)$(call kconfig,genconfig) --header-path $@ Kconfig >/dev/null

.PHONY: config defconfig menuconfig olddefconfig savedefconfig
config: $(CONFIG_HEADER)
defconfig:
	@mkdir -p $(O)
	$(Q)$(call kconfig,defconfig) --kconfig Kconfig configs/defconfig
	$(Q)$(SUBMAKE) config
menuconfig:
	@mkdir -p $(O)
	$(Q)$(call kconfig,menuconfig) Kconfig
	$(Q)$(SUBMAKE) config
olddefconfig:
	@mkdir -p $(O)
	$(Q)$(call kconfig,olddefconfig) Kconfig
	$(Q)$(SUBMAKE) config
savedefconfig: $(CONFIG_HEADER)
	$(Q)$(call kconfig,savedefconfig) --kconfig Kconfig --out $(O)/defconfig
	@echo "minimal configuration written to $(O)/defconfig"

# ---------------------------------------------------------------- fragments
include $(sort $(wildcard */build.mk */*/build.mk))
# The guest pipeline packs what the fragments registered, so it comes last.
include scripts/guest/pipeline.mk

# Sources renamed or removed (docs/naming.md) that the dependency files
# (*.d) of a build directory made before still name: no "No rule to make
# target" error; a program that listed one is rebuilt from today's sources.
qemu-model/core/ctr.c qemu-model/core/pmu.c qemu-model/core/pred.c \
qemu-model/core/hart.c qemu-model/core/classify.c \
opensbi-ext/core/rvp_pmu.c opensbi-ext/core/rvp_pmu_dt.c \
opensbi-ext/core/rvp_ctr.c qemu-model/plugin/itrace.c tests/ctr/pmu-map/hw.c: ;

# ---------------------------------------------------------------- targets
.PHONY: all deps check check-installed check-unit check-guest \
	check-guest-installed check-e2e check-e2e-installed bench fuzz run run-demo run-guest clean \
	distclean-cache help

all: $(CONFIG_HEADER) $(HOST_PROGS) $(HOST_TESTS) $(BENCHES)

deps:
	$(Q)scripts/deps.sh

# Test programs run TEST_JOBS at a time (scripts/testrun.py --jobs): the
# guest and QEMU tiers are single-threaded emulators, so two of them share
# two cores well.  Each test keeps its files apart (its own directory, or a
# lock where it builds into a shared one, as linux-driver/tests/kbuild.sh).
TEST_JOBS ?= $(JOBS)
TESTRUN := scripts/testrun.py --log-dir $(O)/test-logs --jobs $(TEST_JOBS)

# The unit tier alone (no guest): what a developer runs after each edit.
check-unit: all
	$(Q)$(TESTRUN) $(HOST_TESTS)

# Each of these runs the rest in a make of its own, started once deps has
# installed what the makefiles ask about while they are read: on a fresh
# machine this make read them before linux-source-6.12 was there, and its
# paths (the guest kernels', which carry the package's version) are wrong.
check: deps
	$(Q)$(SUBMAKE) check-installed

check-installed:
	$(Q)$(SUBMAKE) -j$(JOBS) all guest-image
	$(Q)$(SUBMAKE) $(STACK_TARGETS)
	$(Q)$(TESTRUN) $(STACK_TIERS) $(GUEST_TIER) $(GUEST_HOST_TESTS) \
		$(HOST_TESTS)

# The guest tier alone.  GUEST_HOST_TESTS stay out: they run check-guest
# themselves.
check-guest: deps
	$(Q)$(SUBMAKE) check-guest-installed

check-guest-installed:
	$(Q)$(SUBMAKE) guest-image
	$(Q)$(TESTRUN) $(GUEST_TIER)

# The hart the arguments' checks probed for (scripts/guest/pipeline.mk),
# passed on rather than probed again.
check-e2e: deps
	$(Q)$(SUBMAKE) check-e2e-installed E2E_CPU='$(E2E_CPU)'

check-e2e-installed:
	$(Q)$(SUBMAKE) all $(E2E_IMAGE)
	$(Q)$(TESTRUN) $(E2E_TIERS) $(E2E_PLUGIN_TIERS) $(E2E_SBI_TIERS) $(E2E_QEMU_TIERS)

# Every bench runs; one whose goal is not met fails make bench at the end,
# naming it, without keeping the others from running.
bench: all registry-stack
	$(Q)failed=""; for b in $(BENCHES); do echo "== $$b"; $$b || failed="$$failed $$b"; done; \
	[ -n "$(strip $(BENCHES))" ] || echo "no benchmarks are registered"; \
	[ -z "$$failed" ] || { echo "bench: failed:$$failed"; exit 1; }

FUZZ_SECONDS ?= 600
fuzz: all
	$(Q)for f in $(FUZZERS); do echo "== $$f ($(FUZZ_SECONDS) s)"; \
		$$f -max_total_time=$(FUZZ_SECONDS) || exit 1; done

# The main job: branch stacks of the sample workload on stock
# qemu-riscv64 with the CTR plugin (scripts/run-demo.sh), then the same
# workload inside the guest kernel with the real perf record -b: CTR on
# Debian's QEMU 10.0.2 through rvperf's OpenSBI platform and perf driver
# (guest-run; run-guest alone does only that part).
run: deps
	$(Q)$(SUBMAKE) run-demo
	@echo
	@echo "== the same workload in the guest kernel: perf record -b (CTR, rvperf firmware and driver)"
	$(Q)$(SUBMAKE) guest-run

run-demo: $(RVPERF) $(PLUGIN_SO) $(O)/guest/bin/branchy
	$(Q)O=$(O) scripts/run-demo.sh

run-guest: deps
	$(Q)$(SUBMAKE) guest-run

clean:
	rm -rf $(O)

distclean-cache:
	rm -rf $(RVPERF_CACHE)

# make print-VAR: a variable's value, for scripts (e.g. print-GUEST_KERNEL).
print-%:
	@echo '$($*)'

help:
	@sed -n '3,14s/^# \{0,1\}//p' Makefile
