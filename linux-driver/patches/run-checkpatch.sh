#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# run-checkpatch.sh KERNEL-SOURCE PATCH: the kernel's checkpatch.pl --strict
# on one patch of the series, as check-series.sh and
# linux-driver/tests/series-checkpatch.sh both run it; prints what it
# complains about (nothing: clean).  Signed-off-by is not checked (whoever
# submits adds theirs), nor whether the commit ids of Fixes: tags exist:
# checkpatch asks git, and the unpacked source has no history (the ids are
# checked by hand, see README.md); the advice to include
# <linux/cpufeature.h> for <asm/cpufeature.h> is dropped: on RISC-V (no
# GENERIC_CPU_AUTOPROBE) the former does not include the latter.
cd "$1" || exit 1
perl scripts/checkpatch.pl --strict --no-summary --terse --no-signoff \
	--ignore UNKNOWN_COMMIT_ID "$2" 2>&1 |
	grep -v 'Use #include <linux/cpufeature.h> instead of <asm/cpufeature.h>'
exit 0
