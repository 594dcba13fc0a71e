# SPDX-License-Identifier: BSD-2-Clause
# userspace/nexus/: the N-Trace library (codec, encoder, decoder, images),
# its tests (sources in tests/nexus/), fuzzer and benchmark.  The rvperf
# command links it through NEXUS_SRCS (userspace/build.mk).
NEXUS_LIB_SRCS := userspace/nexus/codec.c userspace/nexus/config.c \
	userspace/nexus/encoder.c userspace/nexus/decoder.c \
	userspace/nexus/image.c qemu-model/core/classify.c
NEXUS_CFLAGS := -O2 -Iuserspace/nexus -Iqemu-model/core

# libelf reads the program images.
$(O)/tests/nexus/nexus-test: HOST_LDFLAGS += -lelf
$(eval $(call host-program,$(O)/tests/nexus/nexus-test,\
	tests/nexus/nexus-test.c tests/nexus/synth.c $(NEXUS_LIB_SRCS),\
	$(NEXUS_CFLAGS) -Itests/nexus))
HOST_TESTS += $(O)/tests/nexus/nexus-test

# The rvperf command (userspace/build.mk) links the library: libelf.
$(RVPERF): HOST_LDFLAGS += -lelf
