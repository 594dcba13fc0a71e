# SPDX-License-Identifier: BSD-2-Clause
# Line coverage of the qemu-model core by the ctr-sim scenarios: builds its
# own ctr-sim with --coverage under $(O)/ctr-cov/ and fails below 90 %.
# (tests/ctr/scenarios.py, which checks the scenarios' output, is
# registered by qemu-model/build.mk.)
HOST_TESTS += tests/ctr/coverage.sh
