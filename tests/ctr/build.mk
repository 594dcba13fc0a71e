# SPDX-License-Identifier: BSD-2-Clause
# Line coverage of the qemu-model core by the ctr-sim scenarios: builds its
# own ctr-sim with --coverage under $(O)/ctr-cov/ and fails below 90 %.
# (tests/ctr/scenarios.py, which checks the scenarios' output, is
# registered by qemu-model/build.mk.)
HOST_TESTS += tests/ctr/coverage.sh
# The counter model's riscv,pmu map through the SBI PMU core on top of
# the counter model: both cores linked into one program, as any program
# links them.
$(eval $(call host-program,$(O)/tests/ctr/pmu-map/pmu-map-test,\
	tests/ctr/pmu-map/pmu-map-test.c $(SBI_CORE_SRCS) $(QM_CORE_SRCS),))
HOST_TESTS += $(O)/tests/ctr/pmu-map/pmu-map-test
