#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The standalone QEMU fix (this directory: 10.2.2/ against the release,
# master/ against QEMU master) keeps the shape QEMU's maintainers take
# (TAP): numbered patches with a "prefix: Subject" title, no Signed-off-by
# (the sender adds theirs), a cover letter that "git am 0*.patch" never
# picks up, the same patches in the same order in both directories, a
# Fixes: tag on the first (the fix), only upstream QEMU files touched,
# and QEMU's own scripts/checkpatch.pl --no-signoff clean on each.
# checkpatch and the apply check run on the registry's QEMU 10.2.2 source
# in $RVPERF_CACHE/qemu-10.2.2 (unpacked by scripts/registry/build-qemu.sh)
# and skip without it; nothing is built (README.md: how the test was run).
cd "$(dirname "$0")/../../.." || exit 1
. tests/tap.sh

dir=qemu-model/qemu/upstream
# the shape common to our upstream series (scripts/patch-series-shape.sh)
. scripts/patch-series-shape.sh

for d in "$dir/10.2.2" "$dir/master"; do
	series_shape "$d" '[a-z][a-z0-9_/.-]*: [A-Z]' fixes
	# QEMU's own files only: none of rvperf's glue or core (the
	# integration series in ../patches carries those).
	paths=$(sed -n 's|^diff --git a/\([^ ]*\) .*|\1|p' "$d"/0*.patch)
	bad="$(printf '%s\n' "$paths" | grep -Ev '^(target/riscv|tests/tcg/riscv64)/')"
	bad="$bad$(printf '%s\n' "$paths" | grep rvperf)"
	[ -z "$bad" ]
	ok $? "$d: touches only target/riscv and tests/tcg/riscv64, no rvperf file" ||
		diag "$bad"
done
[ "$(series_subjects "$dir/10.2.2")" = "$(series_subjects "$dir/master")" ]
ok $? "10.2.2/ and master/ carry the same patches in the same order"

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
for p in "$dir"/10.2.2/0*.patch "$dir"/master/0*.patch; do
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

# The release series applies to the registry's 10.2.2 exactly (no offset,
# no fuzz), one patch after the other, on a copy of the files it touches.
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
for f in $(sed -n 's|^--- a/||p' "$dir"/10.2.2/0*.patch); do
	mkdir -p "$tmp/${f%/*}" && cp "$src/$f" "$tmp/$f"
done
out=
for p in "$dir"/10.2.2/0*.patch; do
	out="$out$(patch -p1 --fuzz=0 --no-backup-if-mismatch -d "$tmp" <"$p" 2>&1 |
		grep -v '^patching file ')"
done
[ -z "$out" ]
ok $? "10.2.2/ applies to QEMU 10.2.2 without offset or fuzz" || diag "$out"
tap_done
