# SPDX-License-Identifier: BSD-2-Clause
#
# The OpenSBI glue (opensbi-ext/Kconfig, configs/, objects.mk, rvperf.mk,
# generic.mk, platform.c, rvperf_sbi.c, generic_override.c) checked against
# itself (no --wrap, OpenSBI reached through platform interfaces only), then the
# platform firmware make builds from the registry's OpenSBI
# (scripts/registry/build.mk) booted: its boot lines and the S-mode smoke
# payload on two harts (HSM stop/start), on Debian's QEMU 7.2 and, with CTR,
# on Debian's QEMU 10.0.2.  Then board support: OpenSBI's generic platform
# with its board overrides, the series and rvperf built in (generic.mk),
# built from the same source and passing the conformance suite.
STACK_TIERS += 'opensbi-platform=env OPENSBI_PLATFORM_FW=$(PLATFORM_FW) \
	QEMU_CTR=$(CTR_QEMU) tests/opensbi-platform/check.sh' \
	'opensbi-generic-rvperf=tests/opensbi-platform/generic-rvperf.sh'
