#
# SPDX-License-Identifier: BSD-2-Clause
#
# rvperf's test board override (pmu_test_board.c), copied into
# platform/generic/rvperf-test/ of OpenSBI's tree by
# scripts/registry/build-opensbi.sh series.  Always built: it matches only
# the test-only root compatible "rvperf,pmu-test-board".
#

carray-platform_override_modules-y += rvperf_pmu_test_board
platform-objs-y += rvperf-test/pmu_test_board.o
