# SPDX-License-Identifier: GPL-2.0-only
# linux-driver/: the perf driver is built into the guest kernel by
# scripts/guest/build-kernel.sh; here only its host checks.
HOST_TESTS += linux-driver/tests/checkpatch.sh
HOST_TESTS += linux-driver/tests/ctr-regs-sync.sh
HOST_TESTS += linux-driver/tests/module-build.sh
HOST_TESTS += linux-driver/tests/sparse.sh
HOST_TESTS += linux-driver/tests/series-sync.sh
HOST_TESTS += linux-driver/tests/series-checkpatch.sh
HOST_TESTS += linux-driver/tests/series-rules.sh
# series-sync compares with a fresh generation from the pinned Linux 7.2.8
# source: make check unpacks it into the cache first (once).
.PHONY: linux-7.2.8-src
linux-7.2.8-src:
	$(Q)scripts/registry/fetch.sh unpack $(RVPERF_CACHE)/linux-7.2.8 linux-7.2.8.src >/dev/null
STACK_TARGETS += linux-7.2.8-src

# The upstream series against the pinned Linux 7.2.8 (linux-driver/patches/):
# each patch applied, checkpatch --strict, its objects built with W=1.
# Heavy (the first run prepares a kernel build directory), so not in check.
# check-series-6.12: the same for the backport to Debian's 6.12 (patches/6.12/).
.PHONY: check-series check-series-6.12
check-series:
	$(Q)linux-driver/patches/check-series.sh
check-series-6.12:
	$(Q)linux-driver/patches/check-series.sh --6.12
