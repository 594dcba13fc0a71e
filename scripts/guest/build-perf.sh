#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Cross-builds the real perf tool, static, from the tools/perf of a kernel
# source (the guest pipeline's: the series' 7.2.8 tree), into the cache.
#
# Usage: build-perf.sh   (environment, set by scripts/guest/pipeline.mk:
#   LINUX_SRC the unpacked (or series-applied) kernel source, PERF_OUT the
#   build directory,
#   GUEST_USERLAND where build-userland.sh puts zlib and libelf,
#   RVPERF_CACHE, CROSS_COMPILE, JOBS)
#
# perf's build re-runs its feature probes on every call, so a binary built
# with the same options for the same source is reused as it is.
set -euo pipefail
src=${LINUX_SRC:?} out=${PERF_OUT:?}
cross=${CROSS_COMPILE:-riscv64-linux-gnu-}
jobs=${JOBS:-$(nproc)}
die() { echo "build-perf: $*" >&2; exit 1; }

[ -e "$src/.rvperf-unpacked" ] || [ -e "$src/.rvperf-series" ] || die "kernel source not unpacked in $src (make guest-perf prepares it)"

# zlib and libelf, cross-built static into the cache (build-userland.sh
# knows whether they are current), so that perf resolves ELF symbols
# (perf report, perf script -F brstacksym, perf test's Symbols).
GUEST_USERLAND=${GUEST_USERLAND:?} "$(dirname "$0")/build-userland.sh" libs
sysroot=$GUEST_USERLAND/sysroot
libs=$(cat "$GUEST_USERLAND/.stamp-zlib" "$GUEST_USERLAND/.stamp-elfutils")

# A minimal, static perf: libelf and zlib, no other library features (no
# libdw: symbols, not DWARF; no Rust test workload).  Only the 'perf'
# target: the default one also links dlfilters/*.so, which cannot be
# static.  libatomic: GCC 12 calls it for perf's 16-bit atomics on riscv64.
opts=(ARCH=riscv CROSS_COMPILE="$cross" LDFLAGS="-static -L$sysroot/lib"
	EXTRA_CFLAGS="-I$sysroot/include"
	NO_DWARF=1 NO_LIBTRACEEVENT=1 NO_JEVENTS=1 NO_LIBPYTHON=1 NO_LIBPERL=1
	NO_SLANG=1 NO_GTK2=1 NO_LIBBPF=1 BUILD_BPF_SKEL=0 NO_LIBUNWIND=1
	NO_LIBDW_DWARF_UNWIND=1 NO_JVMTI=1
	NO_DEMANGLE=1 NO_LIBNUMA=1 NO_LIBCAP=1 NO_LZMA=1 NO_ZSTD=1
	NO_SDT=1 NO_AUXTRACE=1 NO_LIBCRYPTO=1 NO_BABELTRACE=1
	NO_LIBDEBUGINFOD=1 NO_RUST=1 EXTRA_PERFLIBS=-latomic)
stamp=$out/.rvperf-options

# perf 6.12 skips ARM's mapping symbols but not RISC-V's ($x, $d, and
# binutils' $xrv64i2p1_...), and one at a function's address hides the
# function: branches into brstack_bar would show as $xrv64i2p1_...  They
# serve only disassemblers, so the binary goes without them.  Also on the
# cached binary, which may predate this step.
strip_mapping_symbols() {
	if "${cross}readelf" -sW "$out/perf" |
		awk '$8 ~ /^[$][xd]/ { found = 1 } END { exit !found }'; then
		"${cross}objcopy" --wildcard --strip-symbol='$x*' \
			--strip-symbol='$d*' "$out/perf"
	fi
}

# The source: a series-applied tree changes with the series (its
# .rvperf-series), an unpacked one never.
srcid=$(cat "$src/.rvperf-series" 2>/dev/null || echo unpacked)
if [ -x "$out/perf" ] && [ "$(cat "$stamp" 2>/dev/null)" = "${opts[*]} $libs" ] &&
	[ "$(cat "$out/.rvperf-source" 2>/dev/null)" = "$srcid" ]; then
	strip_mapping_symbols
	exit 0
fi
# Other options: a clean build, so no object built with the old ones stays;
# another source: make rebuilds what changed.
[ "$(cat "$stamp" 2>/dev/null)" = "${opts[*]} $libs" ] || rm -rf "$out"
mkdir -p "$out"
echo "build-perf: building perf in $out" >&2
log=$out/build.log
if ! make -C "$src/tools/perf" O="$out" -j"$jobs" "${opts[@]}" perf >"$log" 2>&1; then
	tail -30 "$log" >&2
	die "perf build failed (full log: $log)"
fi
file "$out/perf" 2>/dev/null | grep -q 'statically linked' || \
	! command -v file >/dev/null || die "$out/perf is not statically linked"
grep -qx 'feature-libelf=1' "$out/FEATURE-DUMP" ||
	die "perf was built without libelf (see $out/FEATURE-DUMP and $log)"
strip_mapping_symbols
echo "${opts[*]} $libs" >"$stamp"
echo "$srcid" >"$out/.rvperf-source"
