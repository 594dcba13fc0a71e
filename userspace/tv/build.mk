# SPDX-License-Identifier: BSD-2-Clause
# userspace/tv/: the tandem-verification trace protocol library (codec,
# names, disassembler, shadow state, gdbstub client) and its tests.
TV_SRCS := userspace/tv/tv_codec.c userspace/tv/tv_names.c userspace/tv/tv_shadow.c
# The trace listing (rvperf tv dump) and what it uses.
TV_DUMP_SRCS := userspace/tv/tv_dump.c userspace/tv/tv_disas.c qemu-model/core/insnhw.c

$(eval $(call host-program,$(O)/tests/tv/codec-test,\
	tests/tv/codec-test.c $(TV_SRCS)))
HOST_TESTS += $(O)/tests/tv/codec-test
$(eval $(call host-program,$(O)/tests/tv/diff-test,\
	tests/tv/diff-test.c $(TV_SRCS)))
HOST_TESTS += $(O)/tests/tv/diff-test
# The fast paths (decoder, listing, formatting) against their references.
$(eval $(call host-program,$(O)/tests/tv/fastpath-test,\
	tests/tv/fastpath-test.c $(TV_SRCS) $(TV_DUMP_SRCS)))
HOST_TESTS += $(O)/tests/tv/fastpath-test

# libFuzzer target on the decoder, with ASan and UBSan (when clang is
# there); tests/tv/fuzz-tvtrace-brief.sh runs it briefly in make check.
TV_FUZZ_CC ?= clang
ifneq ($(shell command -v $(TV_FUZZ_CC) 2>/dev/null),)
TV_FUZZER := $(O)/tests/tv/fuzz-decode
$(TV_FUZZER): $(TV_SRCS) tests/tv/fuzz_decode.c userspace/tv/tv.h
	@mkdir -p $(dir $@)
	$(if $(Q),@echo "  FUZZCC  $@")
	$(Q)$(TV_FUZZ_CC) -g -O1 -std=gnu11 -Wall -Wextra -Werror \
		-fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=undefined -I. -o $@ \
		$(TV_SRCS) tests/tv/fuzz_decode.c
HOST_PROGS += $(TV_FUZZER)
FUZZERS += $(TV_FUZZER)
endif
HOST_TESTS += tests/tv/fuzz-tvtrace-brief.sh

# The listing's disassembler against objdump.
$(eval $(call host-program,$(O)/tests/tv/disas-check,\
	tests/tv/disas-check.c userspace/tv/tv_disas.c $(TV_SRCS)))
HOST_PROGS += $(O)/tests/tv/disas-check
HOST_TESTS += tests/tv/disas-test.sh

# rvperf tv's sources are in the rvperf line of userspace/build.mk; from-elf
# reads ELF files through libelf.
$(O)/userspace/rvperf: HOST_LDFLAGS += -lelf

# Real executions: record through the trace plugin, round trips, verify on
# QEMU 7.2, the tandem checks that must fail (tests/tv/tandem-test.sh).
$(eval $(call host-program,$(O)/tests/tv/tv-mutate,\
	tests/tv/tv-mutate.c $(TV_SRCS)))
HOST_PROGS += $(O)/tests/tv/tv-mutate
HOST_TESTS += tests/tv/tandem-test.sh
# tv diff of two user-mode runs: the kernel's and loader's inputs declared
# (needs a plugin-capable qemu-riscv64: QEMU_USER_PLUGIN, else SKIP).
HOST_TESTS += tests/tv/user-inputs-test.sh
# verify on the plugin path (QEMU 10.2's plugin API writes registers and
# memory): QEMU_USER_PLUGIN and TV_QEMU_SYSTEM_PLUGIN (a qemu-system-riscv64
# built with --enable-plugins: by default $(O)/qemu-rvperf's), else SKIP.
HOST_TESTS += tests/tv/plugin-verify-test.sh

# make bench: decode MB/s and groups/s, diff groups/s, against the memory
# bandwidth measured in the same run.
$(eval $(call host-program,$(O)/tests/bench/bench-tv,\
	tests/bench/bench-tv.c $(TV_SRCS) $(TV_DUMP_SRCS)))
HOST_PROGS += $(O)/tests/bench/bench-tv
BENCHES += tests/bench/bench-tv.sh
HOST_TESTS += tests/tv/cli-test.sh
BENCHES += tests/bench/bench-tv-record.sh
