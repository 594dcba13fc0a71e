#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Every patch of the committed upstream series passes the kernel's own
# checkpatch.pl --strict (TAP): linux-driver/patches/*.patch with Linux
# 7.2.8's, the 6.12 backport (patches/6.12/) with Debian's 6.12's, through
# linux-driver/patches/run-checkpatch.sh as check-series.sh runs it (which
# also builds each patch; too slow for make check).  Each series skips
# until its kernel source is unpacked in the cache.
cd "$(dirname "$0")/../.." || exit 1
. tests/tap.sh

export RVPERF_CACHE=${RVPERF_CACHE:-$HOME/.cache/rvperf}
top=$(pwd)

# series LABEL KERNEL-SOURCE PATCH-DIR
series() {
	local label=$1 src=$2 dir=$3 p out
	if [ ! -f "$src/scripts/checkpatch.pl" ]; then
		tap_n=$((tap_n + 1))
		echo "ok $tap_n - $label: checkpatch --strict # SKIP kernel source not unpacked"
		return
	fi
	for p in "$dir"/[0-9][0-9][0-9][0-9]-*.patch; do
		out=$(linux-driver/patches/run-checkpatch.sh "$src" "$p")
		[ -z "$out" ]
		ok $? "$label: checkpatch --strict $(basename "$p")" || diag "$out"
	done
}

series 7.2.8 "$RVPERF_CACHE/linux-7.2.8" "$top/linux-driver/patches"
base612=$(ls -d "$RVPERF_CACHE"/series-base-6.12-* 2>/dev/null | head -1)
series 6.12 "${base612:-/nonexistent}" "$top/linux-driver/patches/6.12"
tap_done
exit $?
