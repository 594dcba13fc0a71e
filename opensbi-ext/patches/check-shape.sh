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
subjects() {	# DIR: the subjects of its numbered patches, without [PATCH n/N]
	local p
	for p in "$1"/0*.patch; do
		sed -n 's/^Subject: \[PATCH [0-9]*\/[0-9]*\] //p' "$p"
	done
}

for d in "$dir" "$dir/1.8.1"; do
	set -- "$d"/0*.patch
	[ -f "$1" ]
	ok $? "$d: has numbered patches ($#)"
	[ -f "$d/cover-letter.txt" ] && grep -q '^Subject: \[PATCH 0*0/' "$d/cover-letter.txt"
	ok $? "$d: cover-letter.txt is a [PATCH 0/N] cover letter, outside the 0*.patch glob"
	signed=$(grep -l '^Signed-off-by:' "$d"/0*.patch "$d/cover-letter.txt")
	[ -z "$signed" ]
	ok $? "$d: no Signed-off-by (whoever sends the series adds theirs)" ||
		diag "signed: $signed"
	bad=
	for p in "$d"/0*.patch; do
		grep -q '^Subject: \[PATCH [0-9]*/[0-9]*\] [a-z][a-z0-9_/ -]*: ' "$p" &&
			grep -q '^---$' "$p" && grep -q '^diff --git ' "$p" ||
			bad="$bad ${p##*/}"
	done
	[ -z "$bad" ]
	ok $? "$d: every patch has a 'prefix: Subject' title and a diff" || diag "bad:$bad"
	grep -q '^Fixes: [0-9a-f]\{12\} ("' "$1"
	ok $? "$d: the first patch is a fix with a Fixes: tag"
	# [PATCH i/N]: i its place, N the number of patches, in each patch
	# and in the cover letter ([PATCH 0/N ...]), as format-patch makes
	# them: i zero-padded to the width of N (01/10)
	want=$#
	bad=
	i=0
	for p in "$d"/0*.patch; do
		i=$((i + 1))
		grep -q "^Subject: \[PATCH $(printf '%0*d' ${#want} $i)/$want\] " "$p" ||
			bad="$bad ${p##*/}"
	done
	grep -q "^Subject: \[PATCH $(printf '%0*d' ${#want} 0)/$want[] ]" \
		"$d/cover-letter.txt" || bad="$bad cover-letter.txt"
	[ -z "$bad" ]
	ok $? "$d: every patch and the cover letter numbered i/$want" ||
		diag "misnumbered:$bad"
done
[ "$(subjects "$dir")" = "$(subjects "$dir/1.8.1")" ]
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
