#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# A failing GUEST_EXTRA program must make the guest tier (and so 'make
# check') fail, and a missing one must be refused with one line.  Boots a real
# guest in a build directory of its own, so the main image is left alone.
set -u
. tests/tap.sh
O=${O:-build}
sub=$O/selftest-extra
extra=$O/guest/bin/always-fails

out=$(make -s check-guest O="$sub" GUEST_EXTRA="$extra" 2>&1)
status=$?
[ $status -ne 0 ]
ok $? "make check-guest with a failing extra program fails (exit $status)"
printf '%s\n' "$out" | grep -q 'FAIL always-fails: this check fails on purpose'
ok $? "the failing check is named in the output"
printf '%s\n' "$out" | grep -q '^FAIL guest '
ok $? "the guest tier itself is reported as failed"
# make adds its own "*** ... Error 1" line after ours.
printf '%s\n' "$out" | grep -Ev '^make(\[[0-9]+\])?: \*\*\*' | tail -n 1 |
	grep -Eq '^[0-9]+ passed, [1-9][0-9]* failed'
ok $? "the summary line counts the failure"
[ $tap_failed -eq 0 ] || diag "$out"

fails_in_one_line "a missing GUEST_EXTRA program is refused with one line" \
	'GUEST_EXTRA: no such file: /nonexistent/prog' \
	make -s check-guest O="$sub" GUEST_EXTRA=/nonexistent/prog
tap_done
