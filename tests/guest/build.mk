# SPDX-License-Identifier: BSD-2-Clause
# Guest test programs: static riscv64 executables that print TAP, run by the
# guest's init in the order listed here.
guest-test-names := perf-count perf-sample perf-brstack perf-tool
$(foreach t,$(guest-test-names),$(eval $(call guest-program,\
	$(O)/guest/bin/$(t),tests/guest/$(t).c)))
GUEST_TESTS += $(guest-test-names:%=$(O)/guest/bin/%)

# rvperf's own perf driver (linux-driver/): that it is the one serving perf,
# its events and filters, random-attribute stress, then its SBI v2.0/v3.0
# paths (snapshot, event_get_info) or their fallbacks, after the stress.
driver-test-names := driver-pmu driver-events driver-stress driver-sbi
$(foreach t,$(driver-test-names),$(eval $(call guest-program,\
	$(O)/guest/bin/$(t),tests/guest/$(t).c)))
GUEST_TESTS += $(driver-test-names:%=$(O)/guest/bin/%)

# Branch stacks on a hart with CTR, checked against e2e-known.S's edges;
# skips on harts without CTR (the CI guest), runs in check-e2e.
$(eval $(call guest-program,$(O)/guest/bin/ctr-brstack,\
	tests/guest/ctr-brstack.c tests/guest/e2e-known.S))
GUEST_TESTS += $(O)/guest/bin/ctr-brstack
# The same through the real perf tool: perf record -j / --call-graph lbr,
# perf script.
$(eval $(call guest-program,$(O)/guest/bin/ctr-perf-tool,\
	tests/guest/ctr-perf-tool.c tests/guest/e2e-known.S))
GUEST_TESTS += $(O)/guest/bin/ctr-perf-tool
# The overflow interrupt's cost with a branch stack of 16/64/256 entries
# (guest instructions under -icount; a benchmark of the e2e target).
$(eval $(call guest-program,$(O)/guest/bin/ctr-irq-cost,tests/guest/ctr-irq-cost.c))
GUEST_TESTS += $(O)/guest/bin/ctr-irq-cost
# Isolation between tasks: a branch event re-enabled mid-timeslice
# (ioctl(ENABLE)) must not see the records of the task that ran before.
$(eval $(call guest-program,$(O)/guest/bin/ctr-isolation,tests/guest/ctr-isolation.c))
GUEST_TESTS += $(O)/guest/bin/ctr-isolation
# The overflow handler lifts CTR's freeze last: it never records itself.
$(eval $(call guest-program,$(O)/guest/bin/ctr-freeze,tests/guest/ctr-freeze.c))
GUEST_TESTS += $(O)/guest/bin/ctr-freeze
$(eval $(call guest-program,$(O)/guest/bin/ctr-migrate,tests/guest/ctr-migrate.c))
GUEST_TESTS += $(O)/guest/bin/ctr-migrate

# The example extra program (see the file); built with the image so that
# tests/infra/guest-extra-selftest.sh can pass it as GUEST_EXTRA.
$(eval $(call guest-program,$(O)/guest/bin/always-fails,\
	tests/guest/examples/always-fails.c))
guest-image: $(O)/guest/bin/always-fails
