#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Builds the sparse of scripts/registry/pins.txt (sid's 0.6.5~rc1: Linux 7.x's
# scripts/checker-valid.sh refuses bookworm's 0.6.4, which does not know
# __typeof_unqual__) into the cache once, and prints the path of its
# `sparse` binary.  Only the checker itself is built: it needs a C compiler
# and nothing else (Debian's own patches only change the compiler name).
# The rc's Makefile still says VERSION=0.6.4, so `sparse --version` prints
# that; the kernel's check (what matters) accepts it.
#
# Environment: RVPERF_CACHE (default ~/.cache/rvperf).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export RVPERF_CACHE=${RVPERF_CACHE:-$HOME/.cache/rvperf}
key=sparse-0.6.5rc1.src
dest=$RVPERF_CACHE/sparse-0.6.5rc1
# fetch.sh locks $dest.lock itself: the build takes a lock of its own.
exec 8>"$dest.build.lock"
flock 8
if [ ! -x "$dest/sparse" ] || [ ! -e "$dest/.rvperf-built" ]; then
	"$here/fetch.sh" unpack "$dest" "$key" >/dev/null
	make -C "$dest" -j2 sparse >"$dest/build.log" 2>&1 ||
		{ echo "build-sparse.sh: building sparse failed, see $dest/build.log" >&2; exit 1; }
	touch "$dest/.rvperf-built"
fi
echo "$dest/sparse"
