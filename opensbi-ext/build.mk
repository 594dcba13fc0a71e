# SPDX-License-Identifier: BSD-2-Clause
#
# opensbi-ext/: host builds only (sbi-sim, its tests, the fuzzer).  The
# OpenSBI external platform has its own objects.mk, built by OpenSBI's make.

SBI_CORE_SRCS := opensbi-ext/core/rvp_sbi_pmu.c opensbi-ext/core/rvp_sbi_pmu_dt.c \
	opensbi-ext/core/rvp_sbi_ctr.c
SBI_SIM_SRCS := $(SBI_CORE_SRCS) opensbi-ext/sim/sim_hw.c
SBI_CFLAGS := -DCONFIG_RVPERF_QEMU_QUIRKS=1

$(eval $(call host-program,$(O)/opensbi-ext/sbi-sim,\
	$(SBI_SIM_SRCS) opensbi-ext/sim/sbi_sim.c,$(SBI_CFLAGS)))
HOST_PROGS += $(O)/opensbi-ext/sbi-sim

# tests/sbi/freestanding.sh builds the core as firmware does (host, RV64,
# RV32; freestanding, nothing undefined).
HOST_TESTS += tests/sbi/run-sim-tests.sh tests/sbi/freestanding.sh \
	tests/sbi/defconfigs.sh

# libFuzzer target over the ecall interface, with ASan and UBSan.  Built when
# clang is there; tests/sbi/fuzz-ecall-brief.sh runs it ~20 s (or reports SKIP),
# 'make fuzz FUZZ_SECONDS=600' is the long run.
FUZZ_CC ?= clang
ifneq ($(shell command -v $(FUZZ_CC) 2>/dev/null),)
SBI_FUZZER := $(O)/opensbi-ext/fuzz-ecall
$(SBI_FUZZER): $(SBI_SIM_SRCS) opensbi-ext/sim/fuzz_ecall.c $(CONFIG_HEADER)
	@mkdir -p $(dir $@)
	$(if $(Q),@echo "  FUZZCC  $@")
	$(Q)$(FUZZ_CC) -g -O1 -std=gnu11 -Wall -Wextra -Werror \
		-fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=undefined -I. -Iinclude -I$(O)/include/generated \
		$(SBI_CFLAGS) -MMD -MP -MF $@.d -o $@ \
		$(SBI_SIM_SRCS) opensbi-ext/sim/fuzz_ecall.c
-include $(SBI_FUZZER).d
HOST_PROGS += $(SBI_FUZZER)
FUZZERS += $(SBI_FUZZER)
endif
HOST_TESTS += tests/sbi/fuzz-ecall-brief.sh
