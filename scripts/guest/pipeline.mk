# SPDX-License-Identifier: BSD-2-Clause
#
# The guest pipeline: a riscv64 Linux 6.12 kernel from Debian's
# linux-source-6.12 (cached in $(RVPERF_CACHE), outside the clone, keyed by
# the package version), the real perf tool from the tree of the
# upstream-shaped series (linux-driver/patches/ on Linux 7.2.8, whose
# tools/perf patches take 256-entry branch stacks and name the RISC-V
# branch types), an initramfs of static programs, and a QEMU boot whose
# output scripts/guest/guest.py turns into results.

LINUX_PKGVER = $(shell dpkg-query -W -f='$${Version}' linux-source-6.12 2>/dev/null)
LINUX_SRC = $(RVPERF_CACHE)/linux-source-$(LINUX_PKGVER)
KBUILD_OUT = $(RVPERF_CACHE)/linux-build-$(LINUX_PKGVER)
PERF_SRC = $(RVPERF_CACHE)/series-kernel-src-7.2.8
PERF_OUT = $(RVPERF_CACHE)/perf-build-series-7.2.8
GUEST_KERNEL = $(KBUILD_OUT)/arch/riscv/boot/Image
GUEST_PERF = $(PERF_OUT)/perf
GEN_INIT_CPIO = $(KBUILD_OUT)/usr/gen_init_cpio
# The e2e kernel of a guest with the v0.1.4 draft CTR layout: the same
# source and driver with CONFIG_RVPERF_CTR_LAYOUT_DRAFT, in a build
# directory of its own (so both layouts stay built).
KBUILD_OUT_DRAFT = $(RVPERF_CACHE)/linux-build-draft-$(LINUX_PKGVER)
GUEST_KERNEL_DRAFT = $(KBUILD_OUT_DRAFT)/arch/riscv/boot/Image
GUEST_DIR := $(O)/guest
# Static riscv64 zlib + libelf (for perf), bash and busybox, from Debian
# bookworm sources (scripts/guest/build-userland.sh).
GUEST_USERLAND = $(RVPERF_CACHE)/guest-userland
GUEST_BASH = $(GUEST_USERLAND)/bin/bash
GUEST_INIT := $(GUEST_DIR)/bin/init

# The guest tier runs Debian's QEMU with Debian's OpenSBI; check-e2e swaps in
# the user's binaries.  -icount makes minstret exact, so counts can be checked
# against a known instruction count.
GUEST_QEMU ?= qemu-system-riscv64
GUEST_OPENSBI_FW ?= /usr/lib/riscv64-linux-gnu/opensbi/generic/fw_dynamic.bin
GUEST_ICOUNT ?= 0
GUEST_TIMEOUT ?= 600
GUEST_EXTRA ?=

export LINUX_SRC KBUILD_OUT PERF_OUT GUEST_USERLAND GUEST_QEMU GUEST_ICOUNT \
	GUEST_TIMEOUT

$(eval $(call guest-program,$(GUEST_INIT),tests/guest/init.c))

# Both always ask their script, which knows whether anything changed.
$(GUEST_KERNEL): FORCE
	$(Q)scripts/guest/build-kernel.sh
$(GEN_INIT_CPIO): $(GUEST_KERNEL) ;
# After the ratified one: both install the driver into the same source.
$(GUEST_KERNEL_DRAFT): $(GUEST_KERNEL) FORCE
	$(Q)KBUILD_OUT=$(KBUILD_OUT_DRAFT) \
		KCONFIG_EXTRA=$(CURDIR)/scripts/guest/kernel-draft.config \
		scripts/guest/build-kernel.sh
# The series applied to 7.2.8 (build-series-kernel.sh --source), then perf
# built from that tree.
$(GUEST_PERF): FORCE
	$(Q)scripts/guest/build-series-kernel.sh --source 7.2.8 >/dev/null
	$(Q)LINUX_SRC=$(PERF_SRC) scripts/guest/build-perf.sh
# After perf, which builds the same script's libraries: never both at once.
$(GUEST_BASH): $(GUEST_PERF) FORCE
	$(Q)scripts/guest/build-userland.sh all

.PHONY: FORCE guest-kernel guest-kernel-draft guest-perf guest-image guest-run
FORCE:
guest-kernel: $(GUEST_KERNEL)
guest-kernel-draft: $(GUEST_KERNEL_DRAFT)
guest-perf: $(GUEST_PERF)

# GUEST_EXTRA: the user's own static riscv64 test programs.
guest-extra-missing := $(filter-out $(wildcard $(GUEST_EXTRA)),$(GUEST_EXTRA))
ifneq ($(guest-extra-missing),)
$(error GUEST_EXTRA: no such file: $(guest-extra-missing))
endif

guest-path = /bin/$(notdir $(1))
guest-files = $(foreach p,$(1),$(call guest-path,$(p))=$(p))

# $(call guest-plan,FILE,LINES): writes a plan, touching it only on change.
define guest-plan
	@mkdir -p $(dir $(1))
	$(Q)printf '%s\n' $(2) >$(1).tmp
	$(Q)if cmp -s $(1).tmp $(1); then rm $(1).tmp; else mv $(1).tmp $(1); fi
endef

# ---- the check image: every guest test, then the user's extras
GUEST_CHECK_PLAN := $(GUEST_DIR)/check/plan
GUEST_CHECK_INITRD := $(GUEST_DIR)/check/initramfs.cpio.gz
guest-check-lines = $(foreach t,$(GUEST_TESTS),'$(call guest-path,$(t))') \
	$(foreach t,$(GUEST_EXTRA),'/bin/extra/$(notdir $(t))')
guest-check-files = $(call guest-files,$(GUEST_TESTS) $(GUEST_PROGS)) \
	$(GUEST_PERF:%=/bin/perf=%) \
	$(foreach t,$(GUEST_EXTRA),/bin/extra/$(notdir $(t))=$(t))

$(GUEST_CHECK_PLAN): FORCE
	$(call guest-plan,$@,$(guest-check-lines))

$(GUEST_CHECK_INITRD): $(GUEST_CHECK_PLAN) $(GUEST_INIT) $(GEN_INIT_CPIO) \
		$(GUEST_PERF) $(GUEST_TESTS) $(GUEST_PROGS) $(GUEST_EXTRA) \
		scripts/guest/mkinitramfs.sh
	$(if $(Q),@echo "  CPIO    $@")
	$(Q)scripts/guest/mkinitramfs.sh $@ $(GEN_INIT_CPIO) $(GUEST_INIT) \
		$(GUEST_CHECK_PLAN) $(guest-check-files)

guest-image: $(GUEST_KERNEL) $(GUEST_CHECK_INITRD)

# '=', not ':=': on a fresh machine 'make check' installs linux-source-6.12
# (make deps) after this file is read, and the kernel's path names the
# package version, so it must be expanded when the tests run.
GUEST_TIER = 'guest=scripts/guest/guest.py check --kernel $(GUEST_KERNEL) \
	--initrd $(GUEST_CHECK_INITRD) --plan $(GUEST_CHECK_PLAN) \
	--out $(GUEST_DIR)/check/out --qemu $(GUEST_QEMU) \
	--bios $(GUEST_OPENSBI_FW) $(if $(GUEST_ICOUNT),--icount $(GUEST_ICOUNT))'

# ---- the run image: 'make run', profiling the sample workload inside the
# guest kernel with the real perf: branch stacks from CTR through rvperf's
# OpenSBI platform and perf driver, on Debian's QEMU 10.0.2 without -icount
# (as kernel CI and people run QEMU).  branchy runs 10x its default rounds,
# about a second of guest time, so that sampling sees its steady state.
GUEST_RUN_PLAN := $(GUEST_DIR)/run/plan
GUEST_RUN_INITRD := $(GUEST_DIR)/run/initramfs.cpio.gz
GUEST_RUN_ROUNDS ?= 200000
guest-run-lines = \
	'/bin/perf stat -e instructions:u,cycles:u /bin/branchy $(GUEST_RUN_ROUNDS)' \
	'/bin/perf record -b -e cycles:u -o /tmp/perf.data /bin/branchy $(GUEST_RUN_ROUNDS)' \
	'/bin/perf report --stdio -i /tmp/perf.data -F overhead,symbol_from,symbol_to --percent-limit 2' \
	'/bin/perf report --stdio -i /tmp/perf.data --no-branch-stack --sort sym --percent-limit 2'

# $(call guest-perf-image,PLAN,INITRD,LINES-VARIABLE): an image of the guest
# programs and perf that runs the lines (the variable's name: its value has
# commas, which must not reach the call as text).
define guest-perf-image
$(1): FORCE
	$$(call guest-plan,$$@,$$($(3)))

$(2): $(1) $$(GUEST_INIT) $$(GEN_INIT_CPIO) $$(GUEST_PERF) $$(GUEST_PROGS) \
		scripts/guest/mkinitramfs.sh
	$$(if $$(Q),@echo "  CPIO    $$@")
	$$(Q)scripts/guest/mkinitramfs.sh $$@ $$(GEN_INIT_CPIO) $$(GUEST_INIT) \
		$(1) $$(call guest-files,$$(GUEST_PROGS)) /bin/perf=$$(GUEST_PERF)
endef
$(eval $(call guest-perf-image,$(GUEST_RUN_PLAN),$(GUEST_RUN_INITRD),guest-run-lines))

# The CTR plugin in system mode (tests/plugin/system-test.sh) boots Debian's
# QEMU 7.2, which has no CTR: the sample workload and perf without branch
# stacks.
GUEST_SYSPLUGIN_PLAN := $(GUEST_DIR)/sysplugin/plan
GUEST_SYSPLUGIN_INITRD := $(GUEST_DIR)/sysplugin/initramfs.cpio.gz
guest-sysplugin-lines = \
	'/bin/branchy' \
	'/bin/perf stat -e instructions,cycles /bin/branchy' \
	'/bin/perf record -e cycles -o /tmp/perf.data /bin/branchy' \
	'/bin/perf report --stdio --sort comm,dso,sym -i /tmp/perf.data'
$(eval $(call guest-perf-image,$(GUEST_SYSPLUGIN_PLAN),$(GUEST_SYSPLUGIN_INITRD),guest-sysplugin-lines))

# make check runs it too, and checks its report (tests/guest/run-guest-test.sh).
STACK_TARGETS += $(GUEST_RUN_INITRD)
# Without -icount, as users run it: alone (see ctr-guest-tier below).
STACK_TIERS += 'alone:run-guest=tests/guest/run-guest-test.sh'
guest-run: $(GUEST_KERNEL) $(GUEST_RUN_INITRD) $(PLATFORM_FW) $(CTR_QEMU)
	$(Q)scripts/guest/guest.py run --kernel $(GUEST_KERNEL) \
		--initrd $(GUEST_RUN_INITRD) --out $(GUEST_DIR)/run/out \
		--qemu $(CTR_QEMU) --cpu $(CTR_QEMU_CPU) --bios $(PLATFORM_FW) \
		--no-icount

# ---- check-e2e: the guest checks on binaries the user passes in
# QEMU and OPENSBI_FW come from the command line or from Kconfig
# (CONFIG_E2E_QEMU, CONFIG_E2E_OPENSBI_FW).  A path that is given but wrong
# stops make with one line, before anything is built.
QEMU ?= $(call unquote,$(CONFIG_E2E_QEMU))
OPENSBI_FW ?= $(call unquote,$(CONFIG_E2E_OPENSBI_FW))
ifneq ($(filter check-e2e,$(MAKECMDGOALS)),)
ifneq ($(QEMU),)
ifeq ($(shell command -v '$(QEMU)' 2>/dev/null),)
$(error check-e2e: QEMU=$(QEMU) is not an executable)
endif
endif
ifneq ($(OPENSBI_FW),)
ifeq ($(wildcard $(OPENSBI_FW)),)
$(error check-e2e: OPENSBI_FW=$(OPENSBI_FW) does not exist)
endif
endif
endif
# The e2e hart: E2E_CPU when given; otherwise what the QEMU itself says it
# has (scripts/guest/probe-cpu.py: Sscofpmf, and CTR with Smcsrind and
# Smstateen where it has them, in E2E_CTR_LAYOUT's layout where it has
# ctr-layout), so nobody has to spell seven properties.
ifeq ($(origin E2E_CPU),undefined)
ifneq ($(and $(QEMU),$(filter check-e2e,$(MAKECMDGOALS))),)
E2E_CPU := $(shell scripts/guest/probe-cpu.py '$(QEMU)' \
	$(if $(filter undefined,$(origin E2E_CTR_LAYOUT)),ratified,$(E2E_CTR_LAYOUT)) \
	|| echo probe-failed)
ifeq ($(E2E_CPU),probe-failed)
$(error check-e2e: no -cpu for $(QEMU) (see the line above); pass E2E_CPU=...)
endif
$(info check-e2e: -cpu $(E2E_CPU) (probed; E2E_CPU=... overrides))
else
E2E_CPU := rv64,sscofpmf=true
endif
endif
# The driver's CTR layout in the e2e kernel: draft when E2E_CPU asks QEMU for
# the v0.1.4 draft (ctr-layout=draft, qemu-model/qemu), else ratified;
# E2E_CTR_LAYOUT=draft|ratified says it outright.
E2E_CTR_LAYOUT ?= $(if $(findstring ctr-layout=draft,$(E2E_CPU)),draft,ratified)
ifeq ($(filter ratified draft,$(E2E_CTR_LAYOUT)),)
$(error E2E_CTR_LAYOUT must be ratified or draft, not '$(E2E_CTR_LAYOUT)')
endif
E2E_KERNEL = $(if $(filter draft,$(E2E_CTR_LAYOUT)),$(GUEST_KERNEL_DRAFT),$(GUEST_KERNEL))

# ---- the e2e image: the check image's programs and plan, then the e2e-only
# lines (GUEST_E2E_LINES, with their programs in GUEST_E2E_PROGS), with bash,
# busybox's small tools and Linux's own perf shell tests
# (/usr/share/perf-tests/shell/, as in tools/perf/tests/shell/) added.
# perf-shell-test runs one such script with bash and reports its exit status
# as TAP.  Without CTR (the CI guest) test_brstack.sh can only skip, and bash
# and busybox cost a build, so the check image leaves them out.
$(eval $(call guest-program,$(GUEST_DIR)/bin/perf-shell-test,\
	tests/guest/perf-shell-test.c))
GUEST_E2E_PROGS += $(GUEST_DIR)/bin/perf-shell-test
# A mktemp that takes the five X's perf's tests use (busybox's does not).
$(eval $(call guest-program,$(GUEST_DIR)/bin/mktemp,\
	tests/guest/userland/mktemp.c))
GUEST_E2E_PROGS += $(GUEST_DIR)/bin/mktemp
GUEST_E2E_LINES += \
	'timeout=1500 /bin/perf-shell-test /usr/share/perf-tests/shell/test_brstack.sh'
GUEST_E2E_PLAN := $(GUEST_DIR)/e2e/plan
GUEST_E2E_INITRD := $(GUEST_DIR)/e2e/initramfs.cpio.gz
GUEST_E2E_TIMEOUT ?= 1800
GUEST_PERF_SHELL_TESTS ?= test_brstack.sh
guest-e2e-lines = $(guest-check-lines) $(GUEST_E2E_LINES)
guest-perf-shell = $(LINUX_SRC)/tools/perf/tests/shell
guest-e2e-files = $(guest-check-files) $(call guest-files,$(GUEST_E2E_PROGS)) \
	/bin/bash=$(GUEST_BASH) /bin/busybox=$(GUEST_USERLAND)/bin/busybox \
	$(foreach a,$(shell cat $(GUEST_USERLAND)/bin/applets.txt),/bin/$(a)-\>busybox) \
	$(foreach f,$(GUEST_PERF_SHELL_TESTS) $(patsubst $(guest-perf-shell)/%,%,\
		$(wildcard $(guest-perf-shell)/lib/*.sh)),\
		/usr/share/perf-tests/shell/$(f)=$(guest-perf-shell)/$(f))

$(GUEST_E2E_PLAN): FORCE
	$(call guest-plan,$@,$(guest-e2e-lines))

$(GUEST_E2E_INITRD): $(GUEST_E2E_PLAN) $(GUEST_INIT) $(GEN_INIT_CPIO) \
		$(GUEST_PERF) $(GUEST_BASH) $(GUEST_TESTS) $(GUEST_PROGS) \
		$(GUEST_E2E_PROGS) $(GUEST_EXTRA) scripts/guest/mkinitramfs.sh
	$(if $(Q),@echo "  CPIO    $@")
	$(Q)scripts/guest/mkinitramfs.sh $@ $(GEN_INIT_CPIO) $(GUEST_INIT) \
		$(GUEST_E2E_PLAN) $(guest-e2e-files)

.PHONY: guest-e2e-image
guest-e2e-image: $(E2E_KERNEL) $(GUEST_E2E_INITRD)

# $(call ctr-guest-tier,NAME,QEMU,CPU,FIRMWARE,KERNEL,ICOUNT[,OPTIONS]): the
# e2e image booted on that stack; ICOUNT empty boots without -icount
# (free-running clock, as kernel CI runs QEMU), where sampling bounds must
# hold too: QEMU then counts instructions as host time, so such a tier runs
# alone (scripts/testrun.py), not beside another emulator.  OPTIONS go to
# guest.py as they are (--smp 2).
ctr-guest-tier = '$(if $(6),,alone:)$(1)=scripts/guest/guest.py check --kernel $(5) \
	--initrd $(GUEST_E2E_INITRD) --plan $(GUEST_E2E_PLAN) \
	--out $(GUEST_DIR)/$(1)/out --qemu $(2) --cpu $(3) --bios $(4) \
	--timeout $(GUEST_E2E_TIMEOUT) $(if $(6),--icount $(6),--no-icount) $(7)'

# ---- make check: guest-visible CTR on Debian's QEMU 10.0.2 (backports)
# with rvperf's OpenSBI platform (scripts/registry/build.mk), with and
# without -icount; the one without on two harts (ctr-migrate moves a task
# between them and takes one offline; under -icount two harts run one after
# the other, which doubles that tier's time for nothing more).
CTR_QEMU_CPU := rv64,sscofpmf=true,smctr=true,ssctr=true,smcsrind=true,sscsrind=true,smstateen=true
CTR_GUEST_TIERS = \
	$(call ctr-guest-tier,ctr-guest-icount,$(CTR_QEMU),$(CTR_QEMU_CPU),$(PLATFORM_FW),$(GUEST_KERNEL),0) \
	$(call ctr-guest-tier,ctr-guest,$(CTR_QEMU),$(CTR_QEMU_CPU),$(PLATFORM_FW),$(GUEST_KERNEL),,--smp 2)
.PHONY: ctr-guest-image
ctr-guest-image: $(GUEST_KERNEL) $(GUEST_E2E_INITRD) $(PLATFORM_FW) $(CTR_QEMU)
STACK_TARGETS += ctr-guest-image
STACK_TIERS += $(CTR_GUEST_TIERS)
# The same two on upstream's generic platform with rvperf's OpenSBI series
# (SERIES_FW, scripts/registry/build.mk) instead of rvperf's platform: what
# the series alone gives the same kernel, image and hart, with the same
# expectations.  Without -icount on our QEMU: the series has no workaround
# for the stale overflow deadline of QEMU 10.0.2 (a sampling event after a
# counting one overflows late, perf-sample's last check, depending on host
# timing), which our QEMU and qemu-model/qemu/upstream/ fix.
CTR_GUEST_SERIES_TIERS = \
	$(call ctr-guest-tier,ctr-guest-series-icount,$(CTR_QEMU),$(CTR_QEMU_CPU),$(SERIES_FW),$(GUEST_KERNEL),0) \
	$(call ctr-guest-tier,ctr-guest-series,$(RVPERF_QEMU),$(CTR_QEMU_CPU)$(comma)ctr-layout=ratified,$(SERIES_FW),$(GUEST_KERNEL),,--smp 2)
.PHONY: ctr-guest-series-image
ctr-guest-series-image: $(GUEST_KERNEL) $(GUEST_E2E_INITRD) $(SERIES_FW) $(CTR_QEMU) \
	$(RVPERF_QEMU)
STACK_TARGETS += ctr-guest-series-image
STACK_TIERS += $(CTR_GUEST_SERIES_TIERS)

# ---- make check: the same image on our QEMU (qemu-model/qemu on QEMU
# 10.2.2, RVPERF_QEMU from tests/qemu/build.mk) in both CTR layouts: the
# ratified one without -icount (records buffered in translated code), the
# v0.1.4 draft one with the draft kernel and -icount (records one at a time),
# on the platform built with the draft layout (DRAFT_PLATFORM_FW), which sets
# CTR up only on harts declaring "xrvperfctrdraft": our QEMU does not declare
# it, so guest.py adds it to the devicetree QEMU makes.  Our QEMU counts
# retired instructions exactly without -icount too (qemu-model/qemu patch
# 0008): guest.py --exact-instret tells the ratified guest so, and its exact
# checks (perf-count) run in both tiers.
STACK_TARGETS += $(GUEST_KERNEL_DRAFT)
STACK_TIERS += \
	$(call ctr-guest-tier,rvperf-qemu-guest,$(RVPERF_QEMU),$(CTR_QEMU_CPU)$(comma)ctr-layout=ratified,$(PLATFORM_FW),$(GUEST_KERNEL),,--exact-instret) \
	$(call ctr-guest-tier,rvperf-qemu-guest-draft,$(RVPERF_QEMU),$(CTR_QEMU_CPU)$(comma)ctr-layout=draft,$(DRAFT_PLATFORM_FW),$(GUEST_KERNEL_DRAFT),0,--isa-ext xrvperfctrdraft)

# ---- make check: the upstream-shaped series (linux-driver/patches/)
# booted.  build-series-kernel.sh applies it to the pinned Linux 7.2.8 and
# its backport to Debian's 6.12, and builds each with the guest fragment:
# the stock riscv_pmu_sbi driver with the CTR helper instead of rvperf's own
# driver.  The image runs the checks that hold for any driver (driver-pmu
# and driver-sbi read rvperf's own sysfs; driver-series checks the stock
# driver's side and what the series adds; ctr-irq-cost sets rvperf's depth
# knob), on Debian's QEMU 10.0.2 with CTR and rvperf's OpenSBI platform,
# with and without -icount, with two harts (ctr-migrate moves a task between them and
# takes one offline); the series' KUnit suite reports through the kernel log.
SERIES_KERNEL_VERSIONS := 7.2.8 6.12
series-kernel = $(RVPERF_CACHE)/series-kernel-$(1)/arch/riscv/boot/Image
$(foreach v,$(SERIES_KERNEL_VERSIONS),$(eval $$(call series-kernel,$(v)): FORCE ; 	$$(Q)JOBS=$$(JOBS) scripts/guest/build-series-kernel.sh $(v) >/dev/null))
$(eval $(call guest-program,$(GUEST_DIR)/bin/driver-series,tests/guest/driver-series.c))
# The series' own tests of its tools/ side, as kernel CI runs them: the
# kselftest perf_events/branch_stack (built from the series' tree with the
# flags of its Makefile), and perf test's "Branch stacks" suite and
# "addr2line program missing" case of the guest's perf (the guest has no
# addr2line; tests/guest/perf-test.c turns perf test's lines into TAP).
SERIES_KSELFTEST := $(GUEST_DIR)/bin/branch_stack
$(SERIES_KSELFTEST): $(GUEST_PERF)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  GUESTCC $@")
	$(Q)$(GUEST_CC) -O2 -static -Wall -Wl,-no-as-needed \
		-idirafter $(PERF_SRC)/tools/include -o $@ \
		$(PERF_SRC)/tools/testing/selftests/perf_events/branch_stack.c
$(eval $(call guest-program,$(GUEST_DIR)/bin/perf-test,tests/guest/perf-test.c))
SERIES_GUEST_TESTS = $(filter-out %/driver-pmu %/driver-sbi %/ctr-irq-cost,\
	$(GUEST_TESTS)) $(GUEST_DIR)/bin/driver-series $(SERIES_KSELFTEST)
SERIES_GUEST_PROGS = $(GUEST_PROGS) $(GUEST_DIR)/bin/perf-test
GUEST_SERIES_PLAN := $(GUEST_DIR)/series/plan
GUEST_SERIES_INITRD := $(GUEST_DIR)/series/initramfs.cpio.gz
guest-series-lines = $(foreach t,$(SERIES_GUEST_TESTS),'$(call guest-path,$(t))') \
	'/bin/perf-test Branch stacks' '/bin/perf-test addr2line program missing'
$(GUEST_SERIES_PLAN): FORCE
	$(call guest-plan,$@,$(guest-series-lines))
$(GUEST_SERIES_INITRD): $(GUEST_SERIES_PLAN) $(GUEST_INIT) $(GEN_INIT_CPIO) \
		$(GUEST_PERF) $(SERIES_GUEST_TESTS) $(SERIES_GUEST_PROGS) \
		scripts/guest/mkinitramfs.sh
	$(if $(Q),@echo "  CPIO    $@")
	$(Q)scripts/guest/mkinitramfs.sh $@ $(GEN_INIT_CPIO) $(GUEST_INIT) \
		$(GUEST_SERIES_PLAN) $(call guest-files,$(SERIES_GUEST_TESTS) $(SERIES_GUEST_PROGS)) \
		$(GUEST_PERF:%=/bin/perf=%)
.PHONY: series-guest-image
series-guest-image: $(foreach v,$(SERIES_KERNEL_VERSIONS),$(call series-kernel,$(v))) \
	$(GUEST_SERIES_INITRD) $(PLATFORM_FW) $(CTR_QEMU)
# $(call series-guest-tier,NAME,KERNEL,ICOUNT): ICOUNT empty boots without
# -icount, alone (as ctr-guest-tier above).
series-guest-tier = '$(if $(3),,alone:)$(1)=scripts/guest/guest.py check --kernel $(2) \
	--initrd $(GUEST_SERIES_INITRD) --plan $(GUEST_SERIES_PLAN) \
	--out $(GUEST_DIR)/$(1)/out --qemu $(CTR_QEMU) --cpu $(CTR_QEMU_CPU) \
	--bios $(PLATFORM_FW) --timeout $(GUEST_E2E_TIMEOUT) --smp 2 \
	$(if $(3),--icount $(3),--no-icount)'
STACK_TARGETS += series-guest-image
# Without -icount the current kernel only (the 6.12 backport's sampling
# without it is rvperf's own driver's ctr-guest tier on the same source).
STACK_TIERS += $(foreach v,$(SERIES_KERNEL_VERSIONS),\
	$(call series-guest-tier,series-$(v)-guest,$(call series-kernel,$(v)),0)) \
	$(call series-guest-tier,series-7.2.8-guest-noicount,$(call series-kernel,7.2.8),)

ifeq ($(QEMU),)
E2E_TIERS := 'e2e-guest=scripts/tap-skip QEMU not given: pass QEMU=/path/to/qemu-system-riscv64 (with CTR) or set CONFIG_E2E_QEMU'
E2E_IMAGE :=
else
E2E_TIERS = '$(if $(GUEST_ICOUNT),,alone:)e2e-guest=scripts/guest/guest.py check --kernel $(E2E_KERNEL) \
	--initrd $(GUEST_E2E_INITRD) --plan $(GUEST_E2E_PLAN) \
	--out $(GUEST_DIR)/e2e/out --qemu $(QEMU) --cpu $(E2E_CPU) \
	--bios $(or $(OPENSBI_FW),$(GUEST_OPENSBI_FW)) \
	--timeout $(GUEST_E2E_TIMEOUT) \
	$(if $(GUEST_ICOUNT),--icount $(GUEST_ICOUNT))'
E2E_IMAGE := guest-e2e-image
endif

# ---- make check: KVM's guest PMU on the series (issue 18, point 4).
# Each series kernel (kernel-series.config turns KVM on) is the KVM host,
# and tests/guest/kvm-pmu.c, its own VMM, boots a guest kernel and checks
# that perf counts and samples there, through the snapshot page: on the
# 7.2.8 host the same Image (the series in a KVM guest), on the 6.12 host
# rvperf's own driver's kernel (the same Debian 6.12 source), whose overflow
# handler must find its overflows in the snapshot's bitmap (a guest's
# scountovf reads 0).
# The outer guest runs on Debian's QEMU 10.0.2 with rvperf's OpenSBI
# platform, whose far counter starts keep QEMU's stale overflow deadline
# from arising (opensbi-ext; qemu-model/qemu patch 0007 fixes QEMU): with
# upstream OpenSBI there, the nested guest gets one overflow per counter
# set-up, however many periods pass.  The hart has the hypervisor extension
# and Ssaia, on a machine with the AIA (KVM offers Sscofpmf to a guest only
# with Ssaia's interrupt filtering), under -icount, so counts are exact.
# make check-kvm runs only these.
SERIES_KVM_CPU = $(CTR_QEMU_CPU),h=true,ssaia=true,smaia=true
series-kvm-kernel = $(call series-kernel,$(1))
series-kvm-guest = $(if $(filter 6.12,$(1)),$(GUEST_KERNEL),$(call series-kernel,$(1)))
$(eval $(call guest-program,$(GUEST_DIR)/bin/kvm-pmu,tests/guest/kvm-pmu.c))
GUEST_KVM_PLAN := $(GUEST_DIR)/kvm/plan
$(GUEST_KVM_PLAN): FORCE
	$(call guest-plan,$@,'$(call guest-path,$(GUEST_DIR)/bin/kvm-pmu)')
# One image a version: the nested guest's kernel is in it (/boot/Image).
define series-kvm-image
$(GUEST_DIR)/kvm/$(1)/initramfs.cpio.gz: $(GUEST_KVM_PLAN) $(GUEST_INIT) \
		$(GEN_INIT_CPIO) $(GUEST_PERF) $(GUEST_DIR)/bin/kvm-pmu \
		$(call series-kvm-guest,$(1)) scripts/guest/mkinitramfs.sh
	$$(if $$(Q),@echo "  CPIO    $$@")
	@mkdir -p $$(@D)
	$$(Q)scripts/guest/mkinitramfs.sh $$@ $(GEN_INIT_CPIO) $(GUEST_INIT) \
		$(GUEST_KVM_PLAN) $(call guest-files,$(GUEST_DIR)/bin/kvm-pmu) \
		/bin/perf=$(GUEST_PERF) /boot/Image=$(call series-kvm-guest,$(1))
endef
$(foreach v,$(SERIES_KERNEL_VERSIONS),$(eval $(call series-kvm-image,$(v))))
series-kvm-tier = 'series-$(1)-kvm=scripts/guest/guest.py check \
	--kernel $(call series-kvm-kernel,$(1)) \
	--initrd $(GUEST_DIR)/kvm/$(1)/initramfs.cpio.gz --plan $(GUEST_KVM_PLAN) \
	--out $(GUEST_DIR)/kvm/$(1)/out --qemu $(CTR_QEMU) --cpu $(SERIES_KVM_CPU) \
	--qemu-arg=-machine --qemu-arg=aia=aplic-imsic \
	--bios $(PLATFORM_FW) --timeout 600 --icount 0'
SERIES_KVM_TIERS = $(foreach v,$(SERIES_KERNEL_VERSIONS),$(call series-kvm-tier,$(v)))
.PHONY: check-kvm series-kvm-image
series-kvm-image: $(foreach v,$(SERIES_KERNEL_VERSIONS),\
	$(GUEST_DIR)/kvm/$(v)/initramfs.cpio.gz) $(PLATFORM_FW) $(CTR_QEMU)
check-kvm: deps
	$(Q)$(SUBMAKE) series-kvm-image
	$(Q)$(TESTRUN) $(SERIES_KVM_TIERS)
STACK_TARGETS += series-kvm-image
STACK_TIERS += $(SERIES_KVM_TIERS)
