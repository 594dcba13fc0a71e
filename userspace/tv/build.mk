# SPDX-License-Identifier: BSD-2-Clause
# userspace/tv/: the tandem-verification trace protocol library (codec,
# names, disassembler, shadow state, gdbstub client) and its tests.
TV_SRCS := userspace/tv/tv_codec.c userspace/tv/tv_names.c
TV_CFLAGS := -Iuserspace/tv

$(eval $(call host-program,$(O)/tests/tv/codec-test,\
	tests/tv/codec-test.c $(TV_SRCS),$(TV_CFLAGS)))
HOST_TESTS += $(O)/tests/tv/codec-test
