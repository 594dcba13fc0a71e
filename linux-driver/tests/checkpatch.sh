#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The driver's kernel files pass the kernel's own checkpatch.pl --strict with
# no warning (TAP).  It runs from the unpacked kernel source of the guest
# pipeline ($LINUX_SRC, exported by the top Makefile); before that source is
# unpacked (no guest build yet), the test skips.
cd "$(dirname "$0")/../.." || exit 1
. tests/tap.sh

checkpatch=${LINUX_SRC:-}/scripts/checkpatch.pl
if [ -z "${LINUX_SRC:-}" ] || [ ! -f "$checkpatch" ]; then
	exec scripts/tap-skip "kernel source not unpacked yet (${LINUX_SRC:-LINUX_SRC unset}): run 'make guest-kernel'"
fi

files=$(cd linux-driver && find . -type f \( -name '*.[ch]' -o -name Kconfig \
	-o -name Makefile -o -name Kbuild \) ! -path './tests/*' | LC_ALL=C sort)
for f in $files; do
	out=$(perl "$checkpatch" --strict --no-tree --no-summary --terse \
		--ignore FILE_PATH_CHANGES -f "linux-driver/${f#./}" 2>&1)
	[ -z "$out" ]
	ok $? "checkpatch --strict: ${f#./}"
	[ -z "$out" ] || diag "$out"
done
tap_done
exit $?
