# SPDX-License-Identifier: BSD-2-Clause
# The spec headers against the spec: a program generated from the headers
# prints every constant; tests/spec/check_spec.py recomputes each from the
# spec's tables.
SPEC_HEADERS := $(sort $(wildcard include/rvperf/*.h))
$(O)/tests/spec/dump_consts.c: $(SPEC_HEADERS) tests/spec/gen-dump.sh
	@mkdir -p $(dir $@)
	$(Q)tests/spec/gen-dump.sh $(SPEC_HEADERS) >$@
$(eval $(call host-program,$(O)/tests/spec/dump-consts,\
	$(O)/tests/spec/dump_consts.c,-Iinclude))
HOST_PROGS += $(O)/tests/spec/dump-consts
HOST_TESTS += tests/spec/check_spec.py tests/spec/headers-compile.sh
