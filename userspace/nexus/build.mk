# SPDX-License-Identifier: BSD-2-Clause
# userspace/nexus/: the N-Trace library (codec, encoder, decoder, images),
# its tests (sources in tests/nexus/), fuzzer and benchmark.  The rvperf
# command links it through NEXUS_SRCS (userspace/build.mk).
NEXUS_LIB_SRCS := userspace/nexus/codec.c userspace/nexus/config.c \
	userspace/nexus/encoder.c userspace/nexus/decoder.c \
	userspace/nexus/image.c userspace/nexus/itrace.c qemu-model/core/insnhw.c
NEXUS_CFLAGS := -O2

# libelf reads the program images.
$(O)/tests/nexus/nexus-test: HOST_LDFLAGS += -lelf
$(eval $(call host-program,$(O)/tests/nexus/nexus-test,\
	tests/nexus/nexus-test.c tests/nexus/synth.c $(NEXUS_LIB_SRCS),\
	$(NEXUS_CFLAGS) -Itests/nexus))
HOST_TESTS += $(O)/tests/nexus/nexus-test

# The rvperf command (userspace/build.mk) links the library: libelf.
$(RVPERF): HOST_LDFLAGS += -lelf

# Real programs under qemu-riscv64 with the plugin, every option
# combination, damage and the command line (needs rvperf and the plugin).
HOST_TESTS += tests/nexus/ntrace-record-test.sh
# The CLI at the edges of its input: XLEN from the ELF class, encode --raw,
# the instruction limit (an HREPEAT of 2^60-1), cut traces.
HOST_TESTS += tests/nexus/ntrace-edges-test.sh

# libFuzzer target on the reader and decoder, with ASan and UBSan; built
# when clang is there.  tests/nexus/fuzz-ntrace-brief.sh runs it ~20 s (or
# reports SKIP), 'make fuzz FUZZ_SECONDS=600' is the long run.
$(O)/tests/nexus/gen-seeds: HOST_LDFLAGS += -lelf
$(eval $(call host-program,$(O)/tests/nexus/gen-seeds,\
	tests/nexus/gen-seeds.c tests/nexus/synth.c $(NEXUS_LIB_SRCS),\
	$(NEXUS_CFLAGS) -Itests/nexus))
HOST_PROGS += $(O)/tests/nexus/gen-seeds
NEXUS_FUZZ_CC ?= clang
ifneq ($(shell command -v $(NEXUS_FUZZ_CC) 2>/dev/null),)
NEXUS_FUZZER := $(O)/tests/nexus/fuzz-decode
NEXUS_FUZZ_SRCS := tests/nexus/fuzz-decode.c tests/nexus/synth.c $(NEXUS_LIB_SRCS)
$(NEXUS_FUZZER): $(NEXUS_FUZZ_SRCS) $(CONFIG_HEADER)
	@mkdir -p $(dir $@)
	$(if $(Q),@echo "  FUZZCC  $@")
	$(Q)$(NEXUS_FUZZ_CC) -g -O1 -std=gnu11 -Wall -Wextra -Werror \
		-fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=undefined -I. -Iinclude -I$(O)/include/generated \
		-Itests/nexus \
		-MMD -MP -MF $@.d -o $@ $(NEXUS_FUZZ_SRCS) -lelf
-include $(NEXUS_FUZZER).d
HOST_PROGS += $(NEXUS_FUZZER)
FUZZERS += $(NEXUS_FUZZER)
endif
HOST_TESTS += tests/nexus/fuzz-ntrace-brief.sh

# Benchmark: encode/decode speed and bits per instruction on a recorded
# workload, and the cost of recording (tests/bench/bench-nexus.sh).
$(O)/tests/bench/bench-nexus: HOST_LDFLAGS += -lelf
$(eval $(call host-program,$(O)/tests/bench/bench-nexus,\
	tests/bench/bench-nexus.c $(NEXUS_LIB_SRCS),$(NEXUS_CFLAGS)))
HOST_PROGS += $(O)/tests/bench/bench-nexus
BENCHES += tests/bench/bench-nexus.sh
