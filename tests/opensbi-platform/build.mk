# SPDX-License-Identifier: BSD-2-Clause
#
# The OpenSBI external platform's glue (opensbi-ext/Kconfig, configs/,
# objects.mk, platform.c) checked against itself on the host; with
# OPENSBI_PLATFORM_FW=<fw_dynamic.bin built by hand> it also boots it.
HOST_TESTS += tests/opensbi-platform/check.sh
