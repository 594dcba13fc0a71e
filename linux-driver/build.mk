# SPDX-License-Identifier: GPL-2.0-only
# linux-driver/: the perf driver is built into the guest kernel by
# scripts/guest/build-kernel.sh; here only its host checks.
HOST_TESTS += linux-driver/tests/checkpatch.sh
HOST_TESTS += linux-driver/tests/ctr-regs-sync.sh
HOST_TESTS += linux-driver/tests/module-build.sh
HOST_TESTS += linux-driver/tests/sparse.sh
