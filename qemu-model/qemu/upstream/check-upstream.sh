#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The standalone QEMU series in this directory keep the shape QEMU's
# maintainers take (TAP): numbered patches with a "prefix: Subject" title,
# no Signed-off-by (the sender adds theirs), a cover letter that "git am
# 0*.patch" never picks up (scripts/patch-series-shape.sh), only upstream
# QEMU files touched, and QEMU's own scripts/checkpatch.pl --no-signoff
# clean on each:
# - the stale overflow deadline fix (10.2.2/ against the release, master/
#   against QEMU master): the same patches in the same order in both, a
#   Fixes: tag on the first (the fix);
# - the counting series (counting/10.2.2/: instructions and cycles
#   without icount), separable from rvperf's integration series: it
#   applies to the pristine release, without ../patches/0001-0007.
# checkpatch and the apply checks run on the registry's QEMU 10.2.2 source
# in $RVPERF_CACHE/qemu-10.2.2 (unpacked by scripts/registry/build-qemu.sh)
# and skip without it; nothing is built (README.md, counting/README.md:
# how the tests were run).
cd "$(dirname "$0")/../../.." || exit 1
. tests/tap.sh

dir=qemu-model/qemu/upstream
# the shape common to our upstream series (scripts/patch-series-shape.sh)
. scripts/patch-series-shape.sh

title='[a-z][a-z0-9_/.-]*: [A-Z]'
# qemu_files DIR: QEMU's own files only, none of rvperf's glue or core (the
# integration series in ../patches carries those), and no rvperf name in
# the code.
qemu_files() {
	local paths bad
	paths=$(sed -n 's|^diff --git a/\([^ ]*\) .*|\1|p' "$1"/0*.patch)
	bad="$(printf '%s\n' "$paths" | grep -Ev '^(target/riscv|tests/tcg/riscv64)/')"
	bad="$bad$(printf '%s\n' "$paths" | grep rvperf)"
	bad="$bad$(grep -h '^+' "$1"/0*.patch | grep -i 'rvperf\|ctrhw\|ctr-layout')"
	[ -z "$bad" ]
	ok $? "$1: touches only target/riscv and tests/tcg/riscv64, no rvperf file or name" ||
		diag "$bad"
}
for d in "$dir/10.2.2" "$dir/master"; do
	series_shape "$d" "$title" fixes
	qemu_files "$d"
done
[ "$(series_subjects "$dir/10.2.2")" = "$(series_subjects "$dir/master")" ]
ok $? "10.2.2/ and master/ carry the same patches in the same order"

# The counting series: a feature (no Fixes:), against 10.2.2 only (its
# README says why there is no master/).
series_shape "$dir/counting/10.2.2" "$title" nofixes
qemu_files "$dir/counting/10.2.2"
grep -q '^+++ b/tests/tcg/riscv64/.*\.S$' "$dir"/counting/10.2.2/0*.patch &&
	grep -q '^+EXTRA_RUNS += run-' "$dir"/counting/10.2.2/0*.patch
ok $? "counting/10.2.2: adds a tests/tcg/riscv64 system test and registers its run"

src=${RVPERF_CACHE:-}/qemu-10.2.2
if [ -z "${RVPERF_CACHE:-}" ] || [ ! -f "$src/scripts/checkpatch.pl" ]; then
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - checkpatch and apply # SKIP QEMU 10.2.2 source not unpacked (${src}): run 'make check' once (scripts/registry/build-qemu.sh)"
	tap_done
	exit $?
fi

# checkpatch prompts "Does MAINTAINERS need updating?" for every added
# file; that prompt is answered when MAINTAINERS already lists the file's
# directory, and is the only remark accepted.
for p in "$dir"/10.2.2/0*.patch "$dir"/master/0*.patch \
	"$dir"/counting/10.2.2/0*.patch; do
	out=$(perl "$src/scripts/checkpatch.pl" --root="$src" --no-signoff \
		--terse --no-summary "$p" 2>&1)
	status=$?
	if printf '%s\n' "$out" | grep -q 'WARNING: added, moved or deleted file'; then
		for f in $(awk '/^--- \/dev\/null/ { getline; sub(/^\+\+\+ b\//, ""); print }' "$p"); do
			grep -Fqx "F: ${f%/*}/" "$src/MAINTAINERS" ||
				{ status=1; out="$out (no MAINTAINERS entry for $f)"; }
		done
		out=$(printf '%s\n' "$out" | grep -v 'WARNING: added, moved or deleted file')
	fi
	[ $status -eq 0 ] && [ -z "$out" ]
	ok $? "checkpatch --no-signoff: ${p#"$dir"/}" || diag "$out"
done

# Each release series applies to the registry's 10.2.2 exactly (no offset,
# no fuzz), one patch after the other, on its own copy of the files it
# touches: the counting series without the stale deadline fix and without
# rvperf's integration series.
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
applies() {	# DIR
	local f p out=
	rm -rf "$tmp/q" && mkdir "$tmp/q"
	for f in $(sed -n 's|^--- a/||p' "$1"/0*.patch); do
		mkdir -p "$tmp/q/${f%/*}" && cp "$src/$f" "$tmp/q/$f"
	done
	for p in "$1"/0*.patch; do
		out="$out$(patch -p1 --fuzz=0 --no-backup-if-mismatch -d "$tmp/q" <"$p" 2>&1 |
			grep -v '^patching file ')"
	done
	[ -z "$out" ]
	ok $? "${1#"$dir"/} applies to pristine QEMU 10.2.2 without offset or fuzz" ||
		diag "$out"
}
applies "$dir/10.2.2"
applies "$dir/counting/10.2.2"
tap_done
