#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# The OpenSBI series (this directory: against master; 1.8.1/: the backport)
# keeps the shape OpenSBI's maintainers take (TAP): numbered patches with a
# "lib: ..."-style subject, no Signed-off-by (the sender adds theirs), a
# cover letter that "git am 0*.patch" never picks up, the same patches in
# the same order in both directories, a Fixes: tag on the first (the fix),
# and the kernel's checkpatch.pl --no-tree --no-signoff clean on each.
# checkpatch runs from $LINUX_SRC (the guest pipeline's unpacked kernel,
# exported by the top Makefile) and skips without it; the Fixes: ids are
# not looked up (that needs an OpenSBI clone: see README.md).  Whether the
# backport applies and builds is build-opensbi.sh series' job in make check.
cd "$(dirname "$0")/../.." || exit 1
. tests/tap.sh

dir=opensbi-ext/patches
# the shape common to our upstream series (scripts/patch-series-shape.sh)
. scripts/patch-series-shape.sh
for d in "$dir" "$dir/1.8.1"; do
	series_shape "$d" '[a-z][a-z0-9_/ -]*: ' fixes
done
[ "$(series_subjects "$dir")" = "$(series_subjects "$dir/1.8.1")" ]
ok $? "the backport carries the same patches in the same order as the series"

checkpatch=${LINUX_SRC:-}/scripts/checkpatch.pl
if [ -z "${LINUX_SRC:-}" ] || [ ! -f "$checkpatch" ]; then
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - checkpatch # SKIP kernel source not unpacked (${LINUX_SRC:-LINUX_SRC unset}): run 'make guest-kernel'"
else
	# From stdin: given the path of a patch inside this git tree,
	# checkpatch 6.12 reports trailing whitespace on its context lines.
	for p in "$dir"/0*.patch "$dir"/1.8.1/0*.patch; do
		out=$(perl "$checkpatch" --no-tree --no-signoff --no-summary \
			--terse --ignore UNKNOWN_COMMIT_ID - <"$p" 2>&1)
		[ -z "$out" ]
		ok $? "checkpatch --no-tree --no-signoff: ${p#"$dir"/}" || diag "$out"
	done
fi
tap_done
