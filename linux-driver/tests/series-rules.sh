#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# What a maintainer asks of the committed upstream series (TAP), for
# linux-driver/patches/ and its 6.12 backport (or the directories given as
# arguments):
#   - the cover letter is cover-letter.txt, not a numbered patch, so
#     "git am 0*.patch" applies the series;
#   - every patch has the project as author and no Signed-off-by (the
#     sender adds theirs);
#   - the fixes come first: no patch with a Fixes: tag after one without,
#     each tag "Fixes: <12+ hex> ("subject")" with Cc: stable;
#   - no added line of a patch meant for upstream (all but NOT FOR
#     UPSTREAM ones) names the v0.1.4 draft, and none adds a module_param.
# Needs no kernel source.
cd "$(dirname "$0")/../.." || exit 1
. tests/tap.sh

author='From: rvperf developers <rvperf-devel@lists.rvperf.org>'

# rules DIR
rules() {
	local dir=$1 label p name subj bad fixes_over="" out
	label=${dir#"$PWD/"}
	[ -f "$dir/cover-letter.txt" ] && ! ls "$dir"/0000-*.patch >/dev/null 2>&1
	ok $? "$label: the cover letter is cover-letter.txt, no 0000-*.patch"
	for p in "$dir"/[0-9][0-9][0-9][0-9]-*.patch; do
		[ -f "$p" ] || { ok 1 "$label: has numbered patches"; return; }
		name=$(basename "$p" .patch)
		subj=$(sed -n 's/^Subject: //p' "$p")
		grep -qxF "$author" "$p" && ! grep -q '^Signed-off-by:' "$p"
		ok $? "$name: the project's author, no Signed-off-by"
		# The commit message: between the Subject and the --- line.
		out=$(sed -n '/^Subject: /,/^---$/p' "$p" | grep '^Fixes:')
		if [ -n "$out" ]; then
			bad=$(echo "$out" | grep -vE '^Fixes: [0-9a-f]{12,40} \(".+"\)$')
			[ -z "$fixes_over" ] && [ -z "$bad" ] &&
				sed -n '/^Subject: /,/^---$/p' "$p" | grep -qx 'Cc: stable@vger.kernel.org'
			ok $? "$name: a fix before the features, Fixes: well-formed, Cc: stable" ||
				diag "after: $fixes_over" "$bad"
		else
			fixes_over=${fixes_over:-$name}
		fi
		case $subj in *"NOT FOR UPSTREAM"*) continue ;; esac
		bad=$(grep -inE '^\+.*(draft|0\.1\.4|sctrcontrol)' "$p")
		[ -z "$bad" ]
		ok $? "$name: no added line names the draft" || diag "$(echo "$bad" | head -5)"
		bad=$(grep -nE '^\+.*module_param' "$p")
		[ -z "$bad" ]
		ok $? "$name: adds no module_param" || diag "$bad"
	done
}

if [ $# -gt 0 ]; then
	for d in "$@"; do rules "$d"; done
else
	rules "$PWD/linux-driver/patches"
	rules "$PWD/linux-driver/patches/6.12"
fi
tap_done
exit $?
