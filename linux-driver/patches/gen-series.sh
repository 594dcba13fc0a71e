#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Generates the upstream-shaped patch series (linux-driver/patches/*.patch)
# against the pinned Linux source; the single source of truth for it.
#
#   gen-series.sh [OUTDIR]            the series into OUTDIR (default: the
#                                     directory of this script)
#   gen-series.sh --6.12 [OUTDIR]     its backport to Debian's
#                                     linux-source-6.12 (default: 6.12/)
#   gen-series.sh transform FILE ARG...  prints FILE (a linux-driver source)
#                                     as the series carries it
#   gen-series.sh base-6.12           unpacks Debian's 6.12 source for the
#                                     backport (once) and prints its path
#
# Each step is a directory src/NN-*/ with
#   msg        the commit message (subject, blank line, body)
#   hand.diff  (optional) the hand-written part: git apply'd to the tree
#   gen        (optional) lines "DEST SOURCE [unifdef args]": DEST is
#              SOURCE of linux-driver/ after transform (below)
# and for the 6.12 backport, in their place where the step differs there,
# hand-6.12.diff, gen-6.12 and msg-6.12 (or skip-6.12: the step is left
# out);
# and src/cover.txt is the cover letter (subject, blank line, body),
# written as cover-letter.txt (cover-6.12.txt for the backport);
# src/base-files lists the kernel files the steps change.
#
# transform: the driver's own files become the series' files by unifdef
# (the kernel's scripts/unifdef.c, built once into the cache), which
# resolves the compatibility #ifdefs for older kernels (the series has
# none; blank lines they leave are squeezed), and a fixed list of renames from the rvperf names to the names
# in drivers/perf/.  So the CTR code in the series is the code the guest
# kernel and the KUnit suite run; linux-driver/tests/series-sync.sh checks the
# committed series against a fresh generation.
#
# Environment: RVPERF_CACHE (default ~/.cache/rvperf); the pinned kernel is
# unpacked there by scripts/registry/fetch.sh.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
driver=$(cd "$here/.." && pwd)
top=$(cd "$driver/.." && pwd)
export RVPERF_CACHE=${RVPERF_CACHE:-$HOME/.cache/rvperf}
pin=linux-7.2.8.src
ksrc=$RVPERF_CACHE/linux-7.2.8
target=7.2.8
tarball612=/usr/src/linux-source-6.12.tar.xz
# The series' author and dates: the project's list, as its OpenSBI and QEMU
# series; the first commit at series_date, each next one a minute later, the
# cover letter at the last (fixed, so that regenerating changes nothing).
series_author="rvperf developers"
series_email=rvperf-devel@lists.rvperf.org
series_date=$(date -u -d '2026-12-07 23:00:00' +%s)

die() { echo "gen-series: $*" >&2; exit 1; }

kernel() {
	[ -f "$ksrc/.rvperf-pins" ] ||
		"$top/scripts/registry/fetch.sh" unpack "$ksrc" "$pin" >/dev/null
}

# The pristine Debian 6.12 source (the guest pipeline's copy has rvperf's
# driver hooked in), unpacked once per package version.
kernel612() {
	local ver dest
	[ -r "$tarball612" ] || die "$tarball612 missing (run 'make deps')"
	ver=$(dpkg-query -W -f='${Version}' linux-source-6.12)
	dest=$RVPERF_CACHE/series-base-6.12-$ver
	if [ ! -e "$dest/.rvperf-unpacked" ]; then
		rm -rf "$dest" "$dest.tmp"
		mkdir -p "$dest.tmp"
		tar -xf "$tarball612" -C "$dest.tmp" --strip-components=1 ||
			die "cannot unpack $tarball612"
		touch "$dest.tmp/.rvperf-unpacked"
		mv "$dest.tmp" "$dest"
	fi
	echo "$dest"
}

# step_file STEP NAME: the step's NAME for this target.
step_file() {
	if [ "$target" = 6.12 ] && [ -f "$1/${2%.diff}-6.12${2#"${2%.diff}"}" ]; then
		echo "$1/${2%.diff}-6.12${2#"${2%.diff}"}"
	elif [ -f "$1/$2" ]; then
		echo "$1/$2"
	fi
}

unifdef_bin() {
	local bin=$RVPERF_CACHE/tools/unifdef-7.2.8
	if [ ! -x "$bin" ]; then
		kernel
		mkdir -p "$(dirname "$bin")"
		cc -O2 -o "$bin.tmp" "$ksrc/scripts/unifdef.c" || die "cannot build unifdef"
		mv "$bin.tmp" "$bin"
	fi
	echo "$bin"
}

# transform FILE UNIFDEF-ARGS...: FILE of linux-driver/ as in the series.
transform() {
	local src=$driver/$1 rc=0 ud
	shift
	[ -f "$src" ] || die "$src: no such file"
	ud=$(unifdef_bin)
	sed -e 's/rvperf_ctr_logic\.\([ch]\)/riscv_ctr_logic.\1/g' \
	    -e 's/rvperf_ctr_regs\.h/riscv_ctr_regs.h/g' \
	    -e 's/"rvperf_ctr\.h"/"riscv_ctr.h"/g' \
	    -e 's/RVPERF_CTR_LOGIC_H/__RISCV_CTR_LOGIC_H/g' \
	    -e 's/RVPERF_CTR_REGS_H/__RISCV_CTR_REGS_H/g' \
	    -e 's/CONFIG_RVPERF_CTR_LAYOUT_DRAFT/CONFIG_RISCV_PMU_SBI_CTR_DRAFT/g' \
	    -e 's/CONFIG_RVPERF_CTR_HW_KUNIT_TEST/CONFIG_RISCV_PMU_SBI_CTR_HW_KUNIT_TEST/g' \
	    -e 's/"rvperf-ctr: "/"riscv-ctr: "/' \
	    -e 's/"rvperf_ctr_task"/"riscv_ctr_task"/' \
	    -e 's/"rvperf_ctr_logic"/"riscv_ctr_logic"/' \
	    -e 's/"rvperf_ctr_hw"/"riscv_ctr_hw"/' \
	    -e 's/rvperf CTR branch stacks/RISC-V CTR branch stacks/' \
	    -e "s/rvperf's hardware-free CTR logic/the hardware-free CTR logic/" \
	    -e "s/rvperf's CTR/the RISC-V CTR/" \
	    "$src" |
	perl -0pe 's/  The kernel has no\n \* header for them, so they are kept here under the names of the project.s\n \* include\/rvperf\/ctr\.h; linux-driver\/tests\/ctr-regs-sync\.sh checks every\n \* value against it\./  Only this\n * driver uses them./' |
	{ "$ud" "$@" || rc=$?; [ "$rc" -le 1 ] || die "unifdef failed on $src"; } |
	cat -s
}

generate() {
	local out=$1 tree step f dest src args ts=$series_date n=0 hd gf
	if [ "$target" = 6.12 ]; then
		ksrc=$(kernel612)
	else
		kernel
	fi
	tree=$(mktemp -d)
	trap 'rm -rf "$tree"' RETURN
	# The tree holds only what the series touches, from the pinned source:
	# the same blobs as the kernel's, so git am applies with 3-way too.
	(cd "$ksrc" && sort -u "$here/src/base-files" |
		while IFS= read -r f; do
			[ -e "$f" ] || continue
			mkdir -p "$tree/$(dirname "$f")"
			cp "$f" "$tree/$f"
		done)
	export GIT_AUTHOR_NAME=$series_author GIT_AUTHOR_EMAIL=$series_email
	export GIT_COMMITTER_NAME=$series_author GIT_COMMITTER_EMAIL=$series_email
	git -C "$tree" init -q
	git -C "$tree" add -A
	GIT_AUTHOR_DATE="$ts +0000" GIT_COMMITTER_DATE="$ts +0000" \
		git -C "$tree" commit -q -m "Linux $target (the files the series touches)"
	for step in "$here"/src/[0-9]*/; do
		ts=$((ts + 60))
		[ "$target" = 6.12 ] && [ -f "$step/skip-6.12" ] && continue
		n=$((n + 1))
		hd=$(step_file "$step" hand.diff)
		gf=$(step_file "$step" gen)
		[ -z "$hd" ] ||
			{ git -C "$tree" apply --whitespace=nowarn "$hd" ||
			  die "$hd does not apply"; }
		if [ -n "$gf" ]; then
			while read -r dest src args; do
				case $dest in ''|'#'*) continue ;; esac
				mkdir -p "$tree/$(dirname "$dest")"
				# shellcheck disable=SC2086
				transform "$src" $args >"$tree/$dest"
			done <"$gf"
		fi
		git -C "$tree" add -A
		GIT_AUTHOR_DATE="$ts +0000" GIT_COMMITTER_DATE="$ts +0000" \
			git -C "$tree" commit -q -F "$(step_file "$step" msg)" ||
			die "$step: nothing to commit"
	done
	mkdir -p "$out"
	rm -f "$out"/[0-9][0-9][0-9][0-9]-*.patch "$out/cover-letter.txt"
	git -C "$tree" -c core.abbrev=12 format-patch -q --zero-commit \
		--no-signature --cover-letter -o "$out" \
		${prefix:+--subject-prefix="$prefix"} HEAD~$n
	# The cover letter: our text in place of git's placeholders, dated
	# as the last patch.
	COVER_DATE=$(LC_ALL=C date -u -d "@$ts" '+%a, %-d %b %Y %H:%M:%S +0000')
	export COVER_DATE
	perl -0pi -e '
		BEGIN { local $/; open my $c, "<", $ENV{COVER} or die; $t = <$c>;
			($s, $b) = split /\n\n/, $t, 2 }
		s/\*\*\* SUBJECT HERE \*\*\*/$s/; s/\*\*\* BLURB HERE \*\*\*\n/$b/;
		s/^Date: .*$/"Date: " . $ENV{COVER_DATE}/me' \
		"$out/0000-cover-letter.patch"
	# Not named like the numbered patches, so that "git am 0*.patch"
	# applies the series (an empty cover letter stops it).
	mv "$out/0000-cover-letter.patch" "$out/cover-letter.txt"
}

case ${1:-} in
transform) shift; transform "$@" ;;
base-6.12) kernel612 ;;
--6.12) target=6.12 prefix="PATCH 6.12"
	COVER=$here/src/cover-6.12.txt generate "${2:-$here/6.12}" ;;
*) COVER=$here/src/cover.txt generate "${1:-$here}" ;;
esac
