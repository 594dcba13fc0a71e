# SPDX-License-Identifier: BSD-2-Clause
# qemu-model/plugin/: the TCG plugin that runs the core on stock QEMU.
# QEMU dlopen()s it and resolves the plugin API against its own exports.
PLUGIN_SO := $(O)/qemu-model/librvperf-ctr.so
# nexus=FILE (nexus_rec.c) encodes N-Trace in the plugin with the encoder
# of userspace/nexus (no decoder, no libelf).
PLUGIN_NEXUS_SRCS := qemu-model/plugin/nexus_rec.c userspace/nexus/encoder.c \
	userspace/nexus/codec.c userspace/nexus/config.c
PLUGIN_SRCS := qemu-model/plugin/plugin.c qemu-model/plugin/filter.c \
	qemu-model/plugin/lean_stub.c \
	qemu-model/plugin/itrace_write.c $(PLUGIN_NEXUS_SRCS)
$(eval $(call host-program,$(PLUGIN_SO),$(PLUGIN_SRCS) $(QM_CORE_SRCS),\
	$(QM_CFLAGS) -O2 -flto -shared -fPIC \
	-fvisibility=hidden -pthread))
HOST_PROGS += $(PLUGIN_SO)

# The tandem-verification trace plugin (rvperf tv record), with the trace
# encoder of userspace/tv/, and its verifier mode (rvperf tv verify on a
# QEMU with plugin API 5) with the decoder and shadow state.
TV_PLUGIN_SO := $(O)/qemu-model/librvperf-tv.so
$(eval $(call host-program,$(TV_PLUGIN_SO),qemu-model/plugin/tv_plugin.c \
	qemu-model/plugin/tv_verify.c \
	userspace/tv/tv_codec.c userspace/tv/tv_names.c userspace/tv/tv_shadow.c,\
	-O2 -flto -shared -fPIC -fvisibility=hidden))
HOST_PROGS += $(TV_PLUGIN_SO)

# Host test of the perf filter words.
$(eval $(call host-program,$(O)/tests/plugin/filter-test,\
	tests/plugin/filter-test.c qemu-model/plugin/filter.c,\
	$(QM_CFLAGS)))
HOST_TESTS += $(O)/tests/plugin/filter-test
HOST_TESTS += tests/plugin/record-test.sh
HOST_TESTS += tests/plugin/gate-test.sh
HOST_TESTS += tests/plugin/exact-ip-test.sh
HOST_TESTS += tests/plugin/run-demo-test.sh
BENCHES += tests/bench/bench-plugin.sh

# make check-e2e QEMU_USER=/path/to/qemu-riscv64: the record test on the
# user's QEMU (another plugin API level than Debian's 7.2).
QEMU_USER ?=
export QEMU_USER
ifneq ($(filter check-e2e,$(MAKECMDGOALS)),)
ifneq ($(QEMU_USER),)
ifeq ($(shell command -v '$(QEMU_USER)' 2>/dev/null),)
$(error check-e2e: QEMU_USER=$(QEMU_USER) is not an executable)
endif
endif
endif
ifeq ($(QEMU_USER),)
E2E_PLUGIN_TIERS := 'e2e-plugin=scripts/tap-skip QEMU_USER not given: pass QEMU_USER=/path/to/qemu-riscv64 (another QEMU than Debian 7.2) to record with it'
else
E2E_PLUGIN_TIERS := 'e2e-plugin=tests/plugin/record-test.sh'
endif
# ... and the system-mode test on the QEMU=... check-e2e boots (its
# register API, 9.0+, tells M-mode apart).  Expanded when the recipe runs:
# QEMU may come from Kconfig, read later.
E2E_PLUGIN_TIERS += $(if $(QEMU),'e2e-plugin-system=env QEMU_SYSTEM=$(QEMU) tests/plugin/system-test.sh')

# System mode: boots the guest kernel with the plugin (Debian's QEMU 7.2).
GUEST_HOST_TESTS += tests/plugin/system-test.sh
