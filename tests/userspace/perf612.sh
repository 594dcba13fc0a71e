#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Prints the path of perf 6.12 (bookworm-backports' linux-perf, pinned in
# scripts/registry/pins.txt), unpacked into the cache once: the perf whose
# `perf script` output `rvperf script` matches.  Fails with fetch.sh's one
# line (no network on a cold cache, a vanished pin) or when a library it
# needs is missing (make deps).
set -eu
cd "$(dirname "$0")/../.."
cache=${RVPERF_CACHE:-$HOME/.cache/rvperf}
dest=$(RVPERF_CACHE=$cache scripts/registry/fetch.sh unpack "$cache/linux-perf-6.12" \
	linux-perf-6.12.deb)
perf=$dest/usr/bin/perf
if ! out=$("$perf" version 2>&1); then
	echo "perf 6.12 does not run: $(echo "$out" | head -n 1)" >&2
	exit 1
fi
echo "$perf"
