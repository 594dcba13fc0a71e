# SPDX-License-Identifier: BSD-2-Clause
# The sample workload, for the guest (make run, perf-tool test).
$(eval $(call guest-program,$(O)/guest/bin/branchy,userspace/sample/branchy.c))
GUEST_PROGS += $(O)/guest/bin/branchy
