# SPDX-License-Identifier: BSD-2-Clause
# Tests of the project's own machinery: the TAP runner, the guest log
# parser, the configuration, and a real guest run with a failing program;
# and of the tree's naming rules (docs/naming.md: shared base names, the
# cores' exported symbols).
HOST_TESTS += tests/infra/testrun-selftest.sh tests/infra/guest-tap-selftest.py \
	tests/infra/config-selftest.sh tests/infra/spdx-selftest.sh \
	tests/infra/naming-check.py
GUEST_HOST_TESTS += tests/infra/guest-extra-selftest.sh
