# SPDX-License-Identifier: BSD-2-Clause
#
# The SBI PMU conformance suite: an S-mode payload booted on the rvperf test
# firmware and on Debian's OpenSBI 1.1 (make check); make check-e2e
# OPENSBI_FW=... boots it on that firmware instead (QEMU=... too when given).
GUEST_HOST_TESTS += tests/conformance/run.sh
E2E_SBI_TIERS = 'e2e-sbi-conformance=env $(if $(QEMU),QEMU_SYSTEM=$(QEMU)) \
	tests/conformance/run.sh $(if $(OPENSBI_FW),--fw $(OPENSBI_FW))'
BENCHES += tests/bench/bench-sbi.sh
# make check: the suite on the platform firmware vendors build (OpenSBI
# 1.8.1 + rvperf's series + the platform: held to what the series fixes,
# the upstream gaps it leaves are expected failures with their reasons, as
# on generic + the series), on upstream's generic platform alone and with
# rvperf's OpenSBI series (the 1.8.1 backport; the M-mode faults of OpenSBI
# 1.8.1 each in a boot of its own, expected failures on generic alone, which
# the series fixes; on all three the firmware's CTR setup,
# patch 0008 of the series, on two harts of Debian's QEMU 10.0.2 with
# Smctr/Ssctr; on generic + the series also a board's own PMU device, the
# test board override SERIES_FW carries), and the M-mode benchmark's check
# that every firmware it compares was measured.
STACK_TIERS += 'conformance-platform=tests/conformance/run.sh \
	--fw $(PLATFORM_FW) --name platform --only --ctr-qemu $(CTR_QEMU)' \
	'conformance-generic=tests/conformance/run.sh --fw $(GENERIC_FW) \
	--name generic --only --known-fault wrap --known-fault span \
	--known-fault past --ctr-qemu $(CTR_QEMU) --ctr-gap' \
	'conformance-series=tests/conformance/run.sh --fw $(SERIES_FW) \
	--name series --only --ctr-qemu $(CTR_QEMU) --board' \
	'bench-sbi=tests/bench/bench-sbi.sh --tap'
