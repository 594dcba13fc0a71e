# SPDX-License-Identifier: BSD-2-Clause
# qemu-model/verify/: checks of the qemu-model core against things other
# than its own scenarios: a differential test against a naive transcription
# of the CTR spec, a libFuzzer target over the scenario language, the core
# benchmark and the classifier-versus-objdump test.
VERIFY_CORE_SRCS := qemu-model/core/ctrhw.c qemu-model/core/hpmhw.c \
	qemu-model/core/predhw.c qemu-model/core/harthw.c \
	qemu-model/core/insnhw.c
VERIFY_CFLAGS := -Iqemu-model/sim

# libFuzzer target over the scenario language, with ASan and UBSan; built
# when clang is there.  qemu-model/verify/fuzz-scenario-brief.sh runs it ~20 s in
# make check-unit (or reports SKIP); 'make fuzz FUZZ_SECONDS=600' is the
# long run.
VERIFY_FUZZ_CC ?= clang
ifneq ($(shell command -v $(VERIFY_FUZZ_CC) 2>/dev/null),)
SCN_FUZZER := $(O)/qemu-model/fuzz-scenario
SCN_FUZZER_SRCS := qemu-model/sim/scenario.c $(VERIFY_CORE_SRCS) \
	qemu-model/verify/fuzz_scenario.c
$(SCN_FUZZER): $(SCN_FUZZER_SRCS) $(CONFIG_HEADER)
	@mkdir -p $(dir $@)
	$(if $(Q),@echo "  FUZZCC  $@")
	$(Q)$(VERIFY_FUZZ_CC) -g -O1 -std=gnu11 -Wall -Wextra -Werror \
		-fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=undefined -I. -Iinclude -I$(O)/include/generated \
		$(VERIFY_CFLAGS) -MMD -MP -MF $@.d -o $@ $(SCN_FUZZER_SRCS)
-include $(SCN_FUZZER).d
HOST_PROGS += $(SCN_FUZZER)
FUZZERS += $(SCN_FUZZER)
endif
HOST_TESTS += qemu-model/verify/fuzz-scenario-brief.sh

# make bench: recorded and disabled transfers through the CTR core against
# a memcpy-of-three-words baseline measured in the same run.
$(eval $(call host-program,$(O)/tests/bench/bench-ctr,\
	tests/bench/bench-ctr.c $(VERIFY_CORE_SRCS),$(VERIFY_CFLAGS)))
BENCHES += $(O)/tests/bench/bench-ctr

# Differential test: the core against naive_ctr.c, a plain transcription
# of the spec, over random sequences (1,000,000 steps per layout).
DIFF_CTR := $(O)/qemu-model/diff-ctr
$(eval $(call host-program,$(DIFF_CTR),qemu-model/verify/diff_ctr.c \
	qemu-model/verify/naive_ctr.c $(VERIFY_CORE_SRCS),$(VERIFY_CFLAGS)))
HOST_TESTS += $(DIFF_CTR)

# The classifier against GNU objdump (tests/ctr/classify/classify.sh
# builds the riscv64 program and feeds the disassembly to this).
$(eval $(call host-program,$(O)/tests/ctr/classify/classify-check,\
	tests/ctr/classify/classify-check.c $(VERIFY_CORE_SRCS),$(VERIFY_CFLAGS)))
HOST_PROGS += $(O)/tests/ctr/classify/classify-check
HOST_TESTS += tests/ctr/classify/classify.sh

# The core's batch entry points (predhw_updates(),
# ctrhw_transfers_untimed(), used by the QEMU glue for the transfers its
# translated code buffers; ctrhw_transfers_timed(), used by the plugin for
# the records it kept back) against the one-at-a-time ones, over random
# episodes in both layouts.
BATCH_CTR := $(O)/qemu-model/batch-ctr
$(eval $(call host-program,$(BATCH_CTR),qemu-model/verify/batch_ctr.c \
	$(VERIFY_CORE_SRCS),$(VERIFY_CFLAGS)))
HOST_TESTS += $(BATCH_CTR)
