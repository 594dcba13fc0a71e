# SPDX-License-Identifier: BSD-2-Clause
# Line coverage of the qemu-model core by the ctr-sim scenarios: builds its
# own ctr-sim with --coverage under $(O)/ctr-cov/ and fails below 90 %.
# (tests/ctr/scenarios.py, which checks the scenarios' output, is
# registered by qemu-model/build.mk.)
HOST_TESTS += tests/ctr/coverage.sh
# The counter model's riscv,pmu map through the SBI PMU core on top of the
# counter model (two cores, one test; each in its own translation unit).
$(O)/tests/ctr/pmu-map/hw.o: tests/ctr/pmu-map/hw.c $(CONFIG_HEADER)
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) $(HOST_CFLAGS) -Iqemu-model/core -c -o $@ $<
	$(Q)$(HOST_CC) $(HOST_CFLAGS) -Iqemu-model/core -MM -MP -MT $@ $< >$@.d
-include $(O)/tests/ctr/pmu-map/hw.o.d
$(O)/tests/ctr/pmu-map/hw-model.a: $(O)/tests/ctr/pmu-map/hw.o $(QM_CORE_SRCS)
	@mkdir -p $(dir $@)/model
	$(Q)for f in $(QM_CORE_SRCS); do \
		$(HOST_CC) $(HOST_CFLAGS) -Iqemu-model/core -c -o $(dir $@)/model/$$(basename $$f .c).o $$f || exit 1; \
	done
	$(Q)rm -f $@ && ar rcs $@ $(O)/tests/ctr/pmu-map/hw.o $(dir $@)/model/*.o
$(eval $(call host-program,$(O)/tests/ctr/pmu-map/pmu-map-test,\
	tests/ctr/pmu-map/pmu-map-test.c $(SBI_CORE_SRCS),\
	-Iopensbi-ext/core -Itests/ctr/pmu-map))
$(O)/tests/ctr/pmu-map/pmu-map-test: $(O)/tests/ctr/pmu-map/hw-model.a
$(O)/tests/ctr/pmu-map/pmu-map-test: HOST_LDFLAGS += $(O)/tests/ctr/pmu-map/hw-model.a
HOST_TESTS += $(O)/tests/ctr/pmu-map/pmu-map-test
