# SPDX-License-Identifier: BSD-2-Clause
# Sourced (bash, after tests/tap.sh) by the checks of the patch series we
# keep for upstream projects (opensbi-ext/patches/check-shape.sh,
# qemu-model/qemu/upstream/check-upstream.sh): the shape every project's
# maintainers take from "git format-patch --cover-letter" output, as TAP
# checks.  What differs per project (the subject's prefix style, the
# checkpatch to run, what files the series may touch) stays with the caller.

# series_subjects DIR: the subjects of DIR's numbered patches, in order,
# without [PATCH i/N] (two directories of one series must print the same).
series_subjects() {
	local p
	for p in "$1"/0*.patch; do
		sed -n 's/^Subject: \[PATCH [0-9]*\/[0-9]*\] //p' "$p"
	done
}

# series_shape DIR TITLE FIXES: TAP checks that DIR holds numbered patches
# (0*.patch) and a cover-letter.txt ([PATCH 0/N], outside the 0*.patch
# glob "git am" takes), no Signed-off-by (the sender adds theirs), each
# patch a title matching TITLE (a grep pattern for what follows
# "[PATCH i/N] "), a "---" line and a diff, [PATCH i/N] numbered as
# format-patch does (i its place, zero-padded to N's width; the cover
# letter 0), and, when FIXES is "fixes", a Fixes: tag on the first patch.
series_shape() {
	local d=$1 title=$2 fixes=$3 signed bad p want i
	set -- "$d"/0*.patch
	[ -f "$1" ]
	ok $? "$d: has numbered patches ($#)"
	[ -f "$d/cover-letter.txt" ] &&
		grep -q '^Subject: \[PATCH 0*0/' "$d/cover-letter.txt"
	ok $? "$d: cover-letter.txt is a [PATCH 0/N] cover letter, outside the 0*.patch glob"
	signed=$(grep -l '^Signed-off-by:' "$d"/0*.patch "$d/cover-letter.txt")
	[ -z "$signed" ]
	ok $? "$d: no Signed-off-by (whoever sends the series adds theirs)" ||
		diag "signed: $signed"
	bad=
	for p in "$d"/0*.patch; do
		grep -q "^Subject: \[PATCH [0-9]*/[0-9]*\] $title" "$p" &&
			grep -q '^---$' "$p" && grep -q '^diff --git ' "$p" ||
			bad="$bad ${p##*/}"
	done
	[ -z "$bad" ]
	ok $? "$d: every patch has a 'prefix: Subject' title and a diff" ||
		diag "bad:$bad"
	if [ "$fixes" = fixes ]; then
		grep -q '^Fixes: [0-9a-f]\{12\} ("' "$1"
		ok $? "$d: the first patch is a fix with a Fixes: tag"
	fi
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
}
