#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Builds a guest kernel with the upstream-shaped series applied
# (linux-driver/patches/): the stock riscv_pmu_sbi.c driver with CTR branch
# stacks as its helper, as maintainers would merge it, instead of rvperf's
# own driver that build-kernel.sh installs.
#
# Usage: build-series-kernel.sh [--source] 7.2.8|6.12
#   7.2.8  the series on the pinned Linux 7.2.8 (linux-7.2.8.src in
#          scripts/registry/pins.txt, fetched into the cache)
#   6.12   its backport (patches/6.12/) on Debian's linux-source-6.12
#   --source  only the patched source, its path on stdout (the guest's
#          perf and kselftests are built from its tools/)
# Environment: RVPERF_CACHE, CROSS_COMPILE (riscv64-linux-gnu-), JOBS,
# KCONFIG_EXTRA (a fragment merged last, e.g. the draft layout).
# Prints the Image's path on stdout; progress goes to stderr.
#
# The patched source is a copy of the pristine one made of hard links,
# except for fresh copies of the files the series touches; it is made again
# only when the series changes.  Files either the old or the new series
# touched are copied afresh, and those whose content did not change get
# their old mtime back, so kbuild, which goes by mtimes, rebuilds what a
# changed series changed and nothing else.  The build directory is kept,
# as build-kernel.sh keeps the guest kernel's.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
cross=${CROSS_COMPILE:-riscv64-linux-gnu-}
jobs=${JOBS:-$(nproc)}
export RVPERF_CACHE=${RVPERF_CACHE:-$HOME/.cache/rvperf}
extra=${KCONFIG_EXTRA:-}

die() { echo "build-series-kernel: $*" >&2; exit 1; }
source_only=
[ "${1:-}" != --source ] || { source_only=1; shift; }
ver=${1:-}
case $ver in
7.2.8)
	series=$top/linux-driver/patches
	pristine=$RVPERF_CACHE/linux-7.2.8
	"$top/scripts/registry/fetch.sh" unpack "$pristine" linux-7.2.8.src >/dev/null ||
		die "cannot fetch the pinned Linux 7.2.8 source (linux-7.2.8.src)"
	;;
6.12)
	series=$top/linux-driver/patches/6.12
	pristine=$("$top/linux-driver/patches/gen-series.sh" base-6.12) ||
		die "cannot unpack Debian's linux-source-6.12 (run 'make deps')"
	;;
*)
	die "usage: build-series-kernel.sh [--source] 7.2.8|6.12"
	;;
esac
command -v "${cross}gcc" >/dev/null || die "${cross}gcc missing (run 'make deps')"
[ -z "$extra" ] || [ -r "$extra" ] || die "KCONFIG_EXTRA=$extra: no such file"

name=series-kernel-$ver${extra:+-$(basename "$extra" .config)}
src=$RVPERF_CACHE/series-kernel-src-$ver
out=$RVPERF_CACHE/$name
mkdir -p "$RVPERF_CACHE"
exec 9>"$src.lock"
flock 9

patches=$(ls "$series"/[0-9][0-9][0-9][0-9]-*.patch | grep -v /0000-) ||
	die "no patches in $series"
# shellcheck disable=SC2086
sum=$(cat $patches | sha256sum | cut -d' ' -f1)
if [ "$(cat "$src/.rvperf-series" 2>/dev/null)" != "$sum" ]; then
	echo "build-series-kernel: applying the series to Linux $ver" >&2
	# shellcheck disable=SC2086
	touched=$( (cat "$src/.rvperf-touched" 2>/dev/null
		cat $patches | sed -n 's|^+++ b/||p') | LC_ALL=C sort -u)
	rm -rf "$src.old"
	[ ! -d "$src" ] || mv "$src" "$src.old"
	cp -al "$pristine" "$src"
	for f in $touched; do
		[ -e "$pristine/$f" ] && cp --remove-destination "$pristine/$f" "$src/$f"
	done
	for p in $patches; do
		git -C "$src" apply "$p" ||
			die "$(basename "$p") does not apply to Linux $ver"
	done
	# A file the new series leaves as the old one did keeps its old
	# mtime, so kbuild does not rebuild what includes it (a header such
	# as perf_event.h is included nearly everywhere).
	for f in $touched; do
		[ -f "$src.old/$f" ] && [ -f "$src/$f" ] &&
			cmp -s "$src.old/$f" "$src/$f" && touch -r "$src.old/$f" "$src/$f"
	done
	rm -rf "$src.old"
	# shellcheck disable=SC2086
	cat $patches | sed -n 's|^+++ b/||p' | LC_ALL=C sort -u >"$src/.rvperf-touched"
	echo "$sum" >"$src/.rvperf-series"
fi
[ -z "$source_only" ] || { echo "$src"; exit 0; }

kmake() { make -C "$src" O="$out" ARCH=riscv CROSS_COMPILE="$cross" "$@"; }

# tinyconfig + the guest fragment + the series' options (+ extra); the
# cached .config is replaced only when this one differs.
cfg=$(mktemp -d)
trap 'rm -rf "$cfg"' EXIT
kmake -s O="$cfg" tinyconfig >/dev/null 2>&1 || die "make tinyconfig failed"
"$src/scripts/kconfig/merge_config.sh" -m -O "$cfg" "$cfg/.config" \
	"$here/kernel.config" "$here/kernel-series.config" ${extra:+"$extra"} \
	>/dev/null 2>&1 || die "merging the config fragments failed"
kmake -s O="$cfg" olddefconfig >/dev/null 2>&1 || die "make olddefconfig failed"
for opt in CONFIG_RISCV_PMU_SBI CONFIG_RISCV_PMU_SBI_CTR; do
	grep -qx "$opt=y" "$cfg/.config" || die "$opt=y did not survive olddefconfig"
done
mkdir -p "$out"
cmp -s "$cfg/.config" "$out/.config" || cp "$cfg/.config" "$out/.config"

echo "build-series-kernel: building Linux $ver + series ($out)" >&2
log=$out/build.log
if ! kmake -j"$jobs" Image >"$log" 2>&1; then
	tail -30 "$log" >&2
	die "the kernel build failed (log: $log)"
fi
echo "$out/arch/riscv/boot/Image"
