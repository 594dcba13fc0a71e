# SPDX-License-Identifier: BSD-2-Clause
# The spec-constant headers (include/rvperf) against the specs.
#
# dump-consts prints every value macro of the headers; the list of names is
# generated from the headers (gen-consts.sh), so a new constant is printed,
# and checked, without anyone listing it.  static_checks.c, linked in, holds
# the compile-time checks.  check_spec.py compares the dump with the specs
# and with expected.tsv; headers-compile.sh compiles each header alone for
# every environment that includes it.
SPEC_HEADERS := $(sort $(wildcard include/rvperf/*.h))

$(O)/tests/spec/spec_consts.h: $(SPEC_HEADERS) tests/spec/gen-consts.sh
	@mkdir -p $(dir $@)
	$(Q)tests/spec/gen-consts.sh $(SPEC_HEADERS) >$@.tmp && mv $@.tmp $@

$(eval $(call host-program,$(O)/tests/spec/dump-consts,\
	tests/spec/dump_consts.c tests/spec/static_checks.c,-I$(O)/tests/spec))
$(O)/tests/spec/dump-consts: $(O)/tests/spec/spec_consts.h

HOST_PROGS += $(O)/tests/spec/dump-consts
HOST_TESTS += tests/spec/check_spec.py tests/spec/headers-compile.sh
