# SPDX-License-Identifier: BSD-2-Clause
#
# The SBI PMU conformance suite: an S-mode payload booted on the rvperf test
# firmware and on Debian's OpenSBI 1.1 (make check); make check-e2e
# OPENSBI_FW=... boots it on that firmware instead (QEMU=... too when given).
GUEST_HOST_TESTS += tests/conformance/run.sh
E2E_SBI_TIERS = 'e2e-sbi-conformance=env $(if $(QEMU),QEMU_SYSTEM=$(QEMU)) \
	tests/conformance/run.sh $(if $(OPENSBI_FW),--fw $(OPENSBI_FW))'
BENCHES += tests/bench/bench-sbi.sh
# make check: the suite on the platform firmware vendors build (strict: no
# expected failure but those the payload names for OpenSBI itself), and the
# M-mode benchmark's check that every firmware it compares was measured.
STACK_TIERS += 'conformance-platform=tests/conformance/run.sh \
	--fw $(PLATFORM_FW) --name platform --only --rvperf' \
	'bench-sbi=tests/bench/bench-sbi.sh --tap'
