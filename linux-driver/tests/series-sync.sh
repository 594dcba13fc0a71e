#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The committed upstream series (linux-driver/patches/*.patch) is what
# linux-driver/patches/gen-series.sh makes from today's sources: its CTR
# files are the driver's own, transformed, and the hand-written parts are
# those of patches/src/ (TAP); the same for the 6.12 backport
# (patches/6.12/) once Debian's 6.12 source is unpacked for it.  Skips
# until the pinned kernel source is unpacked in the cache
# (linux-driver/patches/check-series.sh or gen-series.sh does that).
cd "$(dirname "$0")/../.." || exit 1
. tests/tap.sh

export RVPERF_CACHE=${RVPERF_CACHE:-$HOME/.cache/rvperf}
[ -f "$RVPERF_CACHE/linux-7.2.8/.rvperf-pins" ] ||
	exec scripts/tap-skip "Linux 7.2.8 source not unpacked: run 'make check-series'"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# sync LABEL COMMITTED-DIR GEN-ARGS...: the committed series against a
# fresh one.
sync() {
	local label=$1 dir=$2 log committed fresh p d
	shift 2
	log=$(linux-driver/patches/gen-series.sh "$@" "$tmp/$label" 2>&1)
	ok $? "$label: gen-series.sh generates the series" || diag "$log"
	committed=$(cd "$dir" && ls cover-letter.txt [0-9][0-9][0-9][0-9]-*.patch 2>/dev/null)
	fresh=$(cd "$tmp/$label" && ls cover-letter.txt [0-9][0-9][0-9][0-9]-*.patch 2>/dev/null)
	[ -n "$committed" ] && [ "$committed" = "$fresh" ]
	ok $? "$label: the same patch files" ||
		diag "committed: $committed" "fresh: $fresh"
	for p in $fresh; do
		d=$(diff -u "$dir/$p" "$tmp/$label/$p" 2>&1)
		ok $? "$label: $p matches linux-driver's sources (run gen-series.sh)" ||
			diag "$(echo "$d" | head -40)"
	done
}

sync 7.2.8 linux-driver/patches
# The 6.12 backport, once its base is unpacked (check-series.sh --6.12).
if ls -d "$RVPERF_CACHE"/series-base-6.12-*/.rvperf-unpacked >/dev/null 2>&1; then
	sync 6.12 linux-driver/patches/6.12 --6.12
fi
tap_done
exit $?
